import os

import pytest
import yaml

from studio.document.mapedit import board_of, paint_terrain
from studio.document.maprows import Grid
from studio.document.session import InUse, ProjectSession
from studio.document.document import autosave_path
from studio.model import yamlio
from studio.document.ops import Set

SCENARIO = {
    "kind": "scenario", "id": "probe", "ruleset": "mbt", "name": "Probe", "turns": 12, "first_player": "us",
    "boards": [{"map": "board-2"}, {"map": "board-4", "at": [20, 0], "rotate": 180}],
    "sides": [{"id": "us", "name": "US", "nation": "us"}, {"id": "su", "name": "Soviet", "nation": "su"}],
}


def cells_of(path):
    data = yaml.safe_load(path.read_text())
    grid = Grid(data["terrain"])
    return {(c, r): grid.get((c, r)) for r in range(len(grid.rows)) for c in range(len(grid.rows[r]))}


def test_paint_undo_redo_save_changes_exactly_those_hexes(project):
    session = ProjectSession(project)
    path = project / "maps" / "board-2.yaml"
    before_text = path.read_text()
    before = cells_of(path)
    doc = session.open_document(path)
    board = board_of(doc.data)
    painted = [(c, 3) for c in range(10)]
    with doc.gesture("Paint terrain"):
        for cell in painted:
            doc.apply("paint", paint_terrain(doc.data, board, [cell], "LW", "C"))
    doc.undo()
    assert not doc.dirty
    doc.redo()
    assert doc.dirty
    doc.save()
    after = cells_of(path)
    changed = {cell for cell in before if before[cell] != after[cell]}
    assert changed == {cell for cell in painted if before[cell] != "LW"}
    assert all(after[cell] == "LW" for cell in painted)
    # only the one row line changed in the text
    diff = [(a, b) for a, b in zip(before_text.splitlines(), path.read_text().splitlines()) if a != b]
    assert len(diff) == 1
    assert not doc.dirty


def test_round_trip_save_is_byte_identical(project):
    session = ProjectSession(project)
    for name in ("board-2.yaml", "board-4.yaml"):
        path = project / "maps" / name
        text = path.read_bytes()
        session.open_document(path).save()
        assert path.read_bytes() == text


def test_autosave_and_recovery(project):
    path = project / "maps" / "board-4.yaml"
    session = ProjectSession(project)
    doc = session.open_document(path)
    doc.apply("rename", [Set("/name", "Renamed")])
    side = doc.autosave()
    assert side == autosave_path(path) and side.exists()
    assert side.name.startswith(".")  # hidden: project loading skips it
    # "crash": a new session finds the side file
    fresh = ProjectSession(project)
    assert fresh.recoverable() == [path.resolve()]
    recovered = fresh.recover(path)
    assert recovered.data["name"] == "Renamed" and recovered.dirty
    recovered.undo()
    assert recovered.data["name"] != "Renamed"
    recovered.redo()
    recovered.save()
    assert not side.exists()
    assert yamlio.parse(path.read_text())["name"] == "Renamed"
    assert ProjectSession(project).recoverable() == []


def write(project, rel, data):
    target = project / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yamlio.dump(data))
    return target


def test_rename_id_updates_every_reference(project):
    write(project, "scenarios/mbt/probe.yaml", SCENARIO)
    session = ProjectSession(project)
    users = session.users_of("map", "board-4")
    assert [u.pointer for u in users if u.display.endswith("probe.yaml")] == ["/boards/1/map"]
    changed = session.rename_id("map", "board-4", "board-4b")
    assert {d.display for d in changed} == {os.path.join("maps", "board-4.yaml")} | {u.display for u in users}
    session.save_all()
    scenario = yaml.safe_load((project / "scenarios/mbt/probe.yaml").read_text())
    assert scenario["boards"][1]["map"] == "board-4b"
    assert yaml.safe_load((project / "maps/board-4.yaml").read_text())["id"] == "board-4b"
    assert not [d for d in session.validate().diagnostics if d.code == "ref.dangling" and "probe" in d.file]
    with pytest.raises(ValueError):
        session.rename_id("map", "board-2", "Bad Id")
    with pytest.raises(ValueError):
        session.rename_id("map", "board-2", "board-4b")


def test_delete_refuses_while_used_and_names_the_users(project):
    write(project, "maps/spare.yaml", {**yaml.safe_load((project / "maps" / "board-2.yaml").read_text()),
                                       "id": "spare"})
    write(project, "scenarios/mbt/probe.yaml", {**SCENARIO, "boards": [{"map": "spare"}]})
    session = ProjectSession(project)
    with pytest.raises(InUse) as refused:
        session.delete(project / "maps" / "spare.yaml")
    assert [u.display for u in refused.value.users] == [os.path.join("scenarios", "mbt", "probe.yaml")]
    assert (project / "maps" / "spare.yaml").exists()
    session.delete(project / "scenarios/mbt/probe.yaml")
    session.delete(project / "maps" / "spare.yaml")
    assert not (project / "maps" / "spare.yaml").exists()


def test_validation_sees_unsaved_edits_with_lines_of_the_save(project):
    session = ProjectSession(project)
    doc = session.open_document(project / "maps" / "board-2.yaml")
    from studio.document.ops import Set
    doc.apply("break", [Set("/hex/columns", "many")])
    found = [d for d in session.validate().diagnostics if d.pointer == "/hex/columns"]
    assert found and found[0].line > 1
    doc.undo()
    assert not [d for d in session.validate().diagnostics if d.pointer == "/hex/columns"]


def test_bad_files_do_not_break_the_session(project):
    (project / "maps" / "broken.yaml").write_text("kind: map\n  id: [unclosed\n")
    session = ProjectSession(project)
    entry = next(e for e in session.entries() if e.display.endswith("broken.yaml"))
    assert not entry.ok
    from studio.document.session import CannotOpen
    with pytest.raises(CannotOpen) as exc:
        session.open_document(project / "maps" / "broken.yaml")
    assert exc.value.diagnostics[0].code.startswith("syntax")
