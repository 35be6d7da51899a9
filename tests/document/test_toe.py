import pytest

from studio.document.document import EditableDocument
from studio.document.toe import designate, expand, move_ops

PLATOON = {"kind": "toe", "id": "plt", "root": {"id": "plt", "echelon": "platoon", "designation": "{n}", "slots": [
    {"id": "ldr", "unit": "m1", "role": "hq", "designation": "{parent}{n}1"},
    {"id": "tank", "unit": "m1", "count": 3, "designation": "{parent}-{n}"}]}}
TROOP = {"kind": "toe", "id": "trp", "root": {
    "id": "trp", "echelon": "company", "designation": "{n} Trp",
    "slots": [{"id": "cdr", "unit": "m3", "designation": "{parent}66"}],
    "children": [{"id": "tanks", "echelon": "platoon", "designation": "{n}/{parent}", "template": "plt", "count": 2},
                 {"id": "itv", "echelon": "section", "slots": [{"id": "itv", "unit": "m901", "count": 2}]}]}}


def test_designation_grammar():
    assert designate("{parent}{n}1", 2, "A") == "A21"
    assert designate("{n}/{parent}", 3, "1 Trp") == "3/1 Trp"
    assert designate("", 2, "B") == "B2" and designate(None, 4) == "4"


def test_expand_follows_templates_and_totals_per_echelon():
    node = expand(TROOP, {"plt": PLATOON}.get)
    assert node.designation == "1 Trp"
    assert [u.designation for u in node.units] == ["1 Trp66"]
    tanks = node.children[:2]
    assert [t.designation for t in tanks] == ["1/1 Trp", "2/1 Trp"]
    # {n} of a vehicle is its number among the echelon's vehicles, across slots: no two share a designation
    assert [u.designation for u in tanks[1].units] == ["2/1 Trp11", "2/1 Trp-2", "2/1 Trp-3", "2/1 Trp-4"]
    assert node.totals() == {"m1": 8, "m3": 1, "m901": 2}
    assert tanks[0].totals() == {"m1": 4}


def test_template_cycles_stop():
    loop = {"kind": "toe", "id": "a", "root": {"id": "a", "echelon": "x", "template": "a"}}
    assert expand(loop, {"a": loop}.get).children == []


def test_move_slot_between_echelons_is_one_undoable_step(tmp_path):
    doc = EditableDocument(tmp_path / "t.yaml", {**TROOP, "root": {**TROOP["root"]}})
    doc.apply("move", move_ops(doc.data, "/root/slots/0", "/root/children/1/slots", 0))
    assert doc.data["root"]["slots"] == []
    assert [s["id"] for s in doc.data["root"]["children"][1]["slots"]] == ["cdr", "itv"]
    doc.undo()
    assert doc.data["root"]["slots"][0]["id"] == "cdr"


def test_move_within_a_list_and_into_a_new_list(tmp_path):
    data = {"root": {"id": "r", "children": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}}
    doc = EditableDocument(tmp_path / "t.yaml", data)
    doc.apply("move", move_ops(doc.data, "/root/children/0", "/root/children", 3))
    assert [c["id"] for c in doc.data["root"]["children"]] == ["b", "c", "a"]
    doc.apply("move", move_ops(doc.data, "/root/children/0", "/root/children/1/children", 0))
    assert [c["id"] for c in doc.data["root"]["children"]] == ["c", "a"]
    assert doc.data["root"]["children"][0]["children"] == [{"id": "b"}]


@pytest.mark.parametrize("source,target", [("/root", "/root/children"), ("/root/children/0", "/root/children/0/children"),
                                           ("/root/slots/0", "/root/children")])
def test_impossible_moves_are_refused(source, target):
    with pytest.raises(ValueError):
        move_ops(TROOP, source, target, 0)


SCOUTS_THEN_TANKS = {"kind": "toe", "id": "trp2", "root": {
    "id": "trp", "echelon": "company", "designation": "{n} Trp",
    "children": [{"id": "scouts", "echelon": "platoon", "designation": "{n}/{parent}", "count": 2,
                  "slots": [{"id": "m3", "unit": "m3", "count": 2, "designation": "{parent}-{n}"}]},
                 {"id": "tanks", "echelon": "platoon", "designation": "{n}/{parent}", "template": "plt"}]}}


def test_sibling_echelons_from_different_entries_are_numbered_on():
    """Two scout platoons then a tank platoon under one troop are 1/, 2/ and 3/ (not 1/1 Trp again)."""
    node = expand(SCOUTS_THEN_TANKS, {"plt": PLATOON}.get)
    assert [c.designation for c in node.children] == ["1/1 Trp", "2/1 Trp", "3/1 Trp"]
    every = [u.designation for n in node.walk() for u in n.units]
    assert len(every) == len(set(every)) == 2 * 2 + 4


def test_model_expansion_numbers_siblings_like_the_editor(tmp_path):
    """studio.model.forces (printing, engines) and the editor's expansion give the same designations."""
    from studio.model.documents import Toe
    from studio.model.forces import designate as model_designate, expand_toe

    class Index:
        def model(self, kind, toe_id):
            return Toe.model_validate({**PLATOON, "ruleset": "mbt", "name": "p", "nation": "US"}) \
                if toe_id == "plt" else None

    toe = Toe.model_validate({**SCOUTS_THEN_TANKS, "ruleset": "mbt", "name": "t", "nation": "US"})
    by_model = [u.designation for u in expand_toe(toe, Index())]
    node = expand(SCOUTS_THEN_TANKS, {"plt": PLATOON}.get)
    assert sorted(by_model) == sorted(u.designation for n in node.walk() for u in n.units)
    assert model_designate("{parent}{n-1}", 3, "2") == "22" and model_designate("{n+10}", 1) == "11"
