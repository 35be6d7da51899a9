import pytest

from studio.document.document import EditableDocument
from studio.document.ops import DELETE, EditError, Insert, Remove, Set, apply, apply_all


def test_every_op_returns_its_inverse():
    data = {"a": [1, 2, 3], "b": {"c": 1}}
    original = {"a": [1, 2, 3], "b": {"c": 1}}
    for op in [Set("/b/c", 5), Set("/b/new", [1]), Set("/b/c", DELETE), Insert("/a/1", 9), Insert("/a/-", 7),
               Remove("/a/0"), Set("/a/2", "x"), Remove("/b/c")]:
        inverse = apply(data, op)
        assert data != original
        apply(data, inverse)
        assert data == original


@pytest.mark.parametrize("op", [Set("/nope/x", 1), Insert("/b/0", 1), Remove("/a/9"), Set("", 1), Set("/a/x", 1)])
def test_bad_edits_raise_and_change_nothing(op):
    data = {"a": [1], "b": {"c": 1}}
    with pytest.raises(EditError):
        apply_all(data, [Set("/a/0", 5), op])
    assert data == {"a": [1], "b": {"c": 1}}


def test_values_are_copied():
    value = {"x": [1]}
    data = {"a": None}
    apply(data, Set("/a", value))
    value["x"].append(2)
    assert data["a"] == {"x": [1]}


def make_doc(tmp_path):
    return EditableDocument(tmp_path / "d.yaml", {"kind": "x", "rows": ["a", "b", "c"], "n": 0})


def test_gesture_is_one_undo_step_and_dirty_follows_history(tmp_path):
    doc = make_doc(tmp_path)
    changes = []
    doc.subscribe(lambda d, ch: changes.append(ch))
    assert not doc.dirty
    with doc.gesture("stroke"):
        for i in range(10):
            doc.apply("paint", [Set("/rows/1", f"b{i}")])
        doc.apply("paint", [Set("/n", 1)])
    assert len(doc.history) == 1 and doc.history.undo_label == "stroke"
    assert doc.dirty and len(changes) >= 11
    assert doc.undo()
    assert doc.data == {"kind": "x", "rows": ["a", "b", "c"], "n": 0}
    assert not doc.dirty
    assert doc.redo()
    assert doc.data["rows"][1] == "b9" and doc.data["n"] == 1
    assert not doc.redo()
    # compaction: one op per pointer
    doc.undo()
    step = doc.history._redo[-1]
    assert len(step.forward) == 2


def test_new_edit_clears_redo(tmp_path):
    doc = make_doc(tmp_path)
    doc.apply("a", [Set("/n", 1)])
    doc.undo()
    doc.apply("b", [Set("/n", 2)])
    assert not doc.history.can_redo and doc.data["n"] == 2


def test_structural_changes_undo_in_order(tmp_path):
    doc = make_doc(tmp_path)
    with doc.gesture("list"):
        doc.apply("ins", [Insert("/rows/0", "z")])
        doc.apply("rm", [Remove("/rows/2")])
        doc.apply("set", [Set("/rows/0", "y")])
    assert doc.data["rows"] == ["y", "a", "c"]
    doc.undo()
    assert doc.data["rows"] == ["a", "b", "c"]
    doc.redo()
    assert doc.data["rows"] == ["y", "a", "c"]


def test_a_failing_listener_does_not_block_others_or_the_edit(tmp_path, capsys):
    doc = make_doc(tmp_path)
    seen = []
    doc.subscribe(lambda d, ch: 1 / 0)
    doc.subscribe(lambda d, ch: seen.append(ch.reason))
    doc.apply("x", [Set("/n", 5)])
    assert doc.data["n"] == 5 and seen == ["do"] and doc.history.can_undo
    assert "ZeroDivisionError" in capsys.readouterr().err
