"""TO&E expansion: counts multiply, templates nest, substitutions name slot paths (with or without the root)."""
from studio.model.documents import Force, Toe
from studio.model.forces import expand_force, expand_toe, slot_paths
from studio.model.project import ProjectIndex, LoadedDocument
from pathlib import Path


def index_of(*models) -> ProjectIndex:
    index = ProjectIndex(None)
    for m in models:
        doc = LoadedDocument(Path(f"{m.id}.yaml"), f"{m.id}.yaml", data={"kind": m.kind, "id": m.id}, model=m)
        index.add(doc)
    return index


PLATOON = Toe.model_validate({"kind": "toe", "id": "plt", "ruleset": "x", "name": "Platoon", "nation": "US",
                              "root": {"id": "plt", "echelon": "platoon",
                                       "slots": [{"id": "hq", "unit": "m1", "role": "hq"},
                                                 {"id": "line", "unit": "m1", "count": 3}]}})
TROOP = Toe.model_validate({"kind": "toe", "id": "troop", "ruleset": "x", "name": "Troop", "nation": "US",
                            "root": {"id": "trp", "echelon": "troop", "slots": [{"id": "hq", "unit": "m3",
                                                                                 "role": "hq"}],
                                     "children": [{"id": "scouts", "echelon": "platoon", "count": 2,
                                                   "slots": [{"id": "m3", "unit": "m3", "count": 2}]},
                                                  {"id": "tanks", "echelon": "platoon", "template": "plt"}]}})


def test_counts_multiply_and_templates_nest():
    index = index_of(PLATOON, TROOP)
    units = expand_toe(TROOP, index)
    assert [u.unit for u in units] == ["m3"] + ["m3"] * 4 + ["m1"] * 4
    assert [u.path for u in units][-1] == "trp/tanks/plt/line"
    assert [u.copy for u in units if u.path == "trp/scouts/m3"] == [0, 1, 2, 3]
    assert {u.role for u in units} == {"hq", "line"}


def test_substitution_by_short_path_and_count():
    index = index_of(PLATOON, TROOP)
    force = Force.model_validate({"id": "f", "toe": "troop", "entry": {"turn": 1, "edge": "west"},
                                  "substitutions": [{"slot": "scouts/m3", "unit": "m2", "count": 1},
                                                    {"slot": "trp/tanks/plt/hq", "unit": "m1ip"}]})
    units = expand_force(force, index)
    assert [u.unit for u in units if u.path == "trp/scouts/m3"] == ["m2", "m3", "m3", "m3"]
    assert [u.unit for u in units if u.path.endswith("plt/hq")] == ["m1ip"]


def test_slot_paths_have_both_spellings_and_missing_toe_fields_nothing():
    index = index_of(PLATOON, TROOP)
    paths = slot_paths(TROOP, index)
    assert {"trp/scouts/m3", "scouts/m3", "trp/tanks/plt/line", "tanks/plt/line"} <= paths
    force = Force.model_validate({"id": "f", "toe": "gone", "entry": {"turn": 1, "edge": "west"}})
    assert expand_force(force, index) == []
