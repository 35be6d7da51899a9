"""References declared by plugin models (``RefTo``) are found wherever they are: validation, rename, delete.

The sample project's WaW scenarios use the Dragon support-weapon card only inside their rule-system block
(``extension/support_weapons``), never in a force's TO&E, so these tests fail when the core looks at the core
fields alone.
"""
from typing import Annotated

import pytest
import yaml
from pydantic import Field

from studio.document.session import InUse, ProjectSession
from studio.model.base import Ref, RefTo, StrictModel, declared_references, ref_to
from studio.model.references import document_references

DRAGON = "us-dragon-sw"


def _extension_users(project):
    """Scenario files whose extension names the Dragon card (read from the files, not from the code under test)."""
    users = set()
    for path in (project / "scenarios").rglob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        if DRAGON in yaml.safe_dump(data.get("extension") or {}):
            users.add(path.resolve())
    return users


def test_only_the_extension_uses_the_dragon(project):
    users = _extension_users(project)
    assert len(users) >= 2
    for path in users:  # no core field names it: the reference lives in the plugin block only
        data = yaml.safe_load(path.read_text())
        assert DRAGON not in yaml.safe_dump({k: v for k, v in data.items() if k != "extension"})


def test_delete_of_a_card_used_in_a_rule_system_block_is_refused_listing_the_scenarios(project):
    session = ProjectSession(project)
    card = session.find(DRAGON, "unit")
    with pytest.raises(InUse) as refused:
        session.delete(card)
    assert {u.path.resolve() for u in refused.value.users} == _extension_users(project)
    assert all(u.pointer.startswith("/extension/") for u in refused.value.users)
    assert card.exists()


def test_rename_updates_the_rule_system_block(project):
    session = ProjectSession(project)
    changed = session.rename_id("unit", DRAGON, "us-dragon-m47")
    users = _extension_users(project)
    assert users <= {d.path.resolve() for d in changed}
    for doc in changed:
        doc.save()
    for path in users:
        text = path.read_text()
        assert DRAGON not in text and "unit: us-dragon-m47" in text
    assert not [d for d in session.validate().diagnostics if d.code.startswith("ref.")]


def test_validation_reports_a_dangling_reference_in_the_block_at_its_line(project):
    (project / "units" / "waw" / f"{DRAGON}.yaml").unlink()
    users = _extension_users(project)
    found = [d for d in ProjectSession(project).validate().diagnostics if d.code == "ref.dangling"]
    assert {(project / d.file).resolve() for d in found} == users
    for d in found:
        lines = (project / d.file).read_text().splitlines()
        assert DRAGON in lines[d.line - 1] and d.pointer.startswith("/extension/")


class _Inner(StrictModel):
    unit: ref_to("unit")
    toes: list[ref_to("toe")] = []
    spare: ref_to("unit") | None = None
    named: Annotated[Ref, RefTo("map"), Field(alias="map-id")] = "never-set"
    plain: Ref = "not-declared"


class _Outer(StrictModel):
    items: list[_Inner]
    by_key: dict[str, _Inner] = {}


def test_walker_finds_declared_references_in_nested_lists_maps_and_aliases():
    model = _Outer.model_validate({"items": [{"unit": "a", "toes": ["t1", "t2"], "spare": "b", "map-id": "m"}],
                                   "by_key": {"x/y": {"unit": "c", "plain": "p"}}})
    assert list(declared_references(model, "/ext")) == [
        ("/ext/items/0/unit", "unit", "a"), ("/ext/items/0/toes/0", "toe", "t1"), ("/ext/items/0/toes/1", "toe", "t2"),
        ("/ext/items/0/spare", "unit", "b"), ("/ext/items/0/map-id", "map", "m"), ("/ext/by_key/x~1y/unit", "unit", "c")]


def test_document_references_keep_core_references_and_add_block_ones(project):
    session = ProjectSession(project)
    scenario = next(d for d in session.current_index().documents if d.path.resolve() in _extension_users(project))
    refs = document_references(scenario.model)
    assert set(scenario.model.references()) <= set(refs)
    assert any(p.startswith("/extension/") and k == "unit" and t == DRAGON for p, k, t in refs)
    assert len({p for p, _, _ in refs}) == len(refs)
