"""New documents from the window's New actions (``studio.document.templates``)."""
from studio.document.templates import card_categories, new_document
from studio.document.session import ProjectSession
from studio.model.registry import plugin


def test_a_new_mbt_unit_starts_as_the_plugins_main_card_class(tmp_path):
    """MBT declares several card classes; a new unit is a vehicle (the plugin's first), not the alphabetically
    first class (it once started as an off-map battery)."""
    assert card_categories("mbt") == [c for c in plugin("mbt").card_bodies if c != "*"]
    assert card_categories("mbt")[0] == "vehicle"
    (tmp_path / "project.yaml").write_text("kind: project\nschema_version: 1\nid: p\nname: P\nrulesets: [mbt]\n")
    doc = new_document(ProjectSession(tmp_path), "unit", "mbt", "new-tank")
    assert doc["category"] == "vehicle" and doc["id"] == "new-tank"


def test_a_plugin_with_one_body_for_all_categories_makes_vehicles():
    assert card_categories("waw") == ["vehicle"]
