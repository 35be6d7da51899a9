"""The window under hostile files (issue 18 items 4, 6 and 9): start-up recovery never raises and keeps bad
autosaves aside; saves never leave the project or follow a symlink out of it, and keep the edits when refused;
"New unit card" never creates a file outside the project; the raw-text editor never saves U+FFFD over bytes it
could not decode; screenshot mode opens an unparseable document in the raw editor."""
import os
import shutil
import time
from pathlib import Path

import pytest

from studio.document.document import autosave_path
from studio.document.ops import Set
from studio.model import yamlio

REPO = Path(__file__).resolve().parents[2]
MAP = "maps/board-4.yaml"


@pytest.fixture
def mini(tmp_path) -> Path:
    """project.yaml, the rulesets and two maps; ``outside`` sits beside the project."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(REPO / "data" / "project.yaml", root)
    shutil.copytree(REPO / "data" / "rulesets", root / "rulesets")
    (root / "maps").mkdir()
    for name in ("board-2.yaml", "board-4.yaml"):
        shutil.copy(REPO / "data" / "maps" / name, root / "maps" / name)
    (tmp_path / "outside").mkdir()
    return root


class Told(list):
    def __call__(self, title, text):
        self.append((title, text))


@pytest.fixture
def told(monkeypatch):
    """Message boxes of every window, recorded instead of shown."""
    from studio.qt.main_window import QtMainWindow
    record = Told()
    monkeypatch.setattr(QtMainWindow, "tell", lambda self, title, text: record(title, text))
    return record


def newer(path: Path) -> None:
    stamp = time.time() + 5
    os.utime(path, (stamp, stamp), follow_symlinks=False)


def test_start_up_recovery_survives_every_hostile_autosave(make_window, mini, told):
    secret = mini.parent / "outside" / "secret.yaml"
    secret.write_bytes(b"kind: map\nid: board-4\nname: Evil\n")
    sides = {
        "board-4.yaml": lambda side: side.write_bytes(b"- a\n- list\n"),
        "board-2.yaml": lambda side: side.symlink_to(secret),
        "garbage.yaml": lambda side: side.write_bytes(b"name: [unclosed\n"),
        "latin1.yaml": lambda side: side.write_bytes(b"kind: map\nname: caf\xe9\n"),
        "huge.yaml": lambda side: side.write_bytes(b"kind: map\nid: " + b"9" * 5000 + b"\n"),
        "empty.yaml": lambda side: side.write_bytes(b""),
        "fifo.yaml": lambda side: os.mkfifo(side),
    }
    for name, make in sides.items():
        doc = mini / "maps" / name
        if not doc.exists():
            doc.write_text("kind: map\nid: x\n")
        side = autosave_path(doc)
        make(side)
        newer(side)
    window = make_window(mini)
    asked = []
    window.ask_yes_no = lambda title, text: asked.append(text) or True
    assert window.offer_recovery() == []
    assert asked == [], "an unusable autosave is never offered for restoring"
    assert len(told) == len(sides) and all(title == "Autosave not used" for title, _ in told)
    assert any("symbolic link" in text for _, text in told) and any("not UTF-8" in text for _, text in told)
    for name in sides:
        side = autosave_path(mini / "maps" / name)
        assert not os.path.lexists(side) and os.path.lexists(side.with_name(side.name + ".bad")), name
    assert secret.read_bytes() == b"kind: map\nid: board-4\nname: Evil\n"
    assert window.tabs.count() == 0 and window.session.autosaves() == []


def test_recovery_of_a_document_broken_on_disk_restores_the_autosave(make_window, mini, told):
    first = make_window(mini)
    first.open_path(mini / MAP).doc.apply("rename", [Set("/name", "Autosaved")])
    assert first.autosave()
    (mini / MAP).write_bytes(b"kind: map\nname: [broken\n")
    os.utime(mini / MAP, (time.time() - 60, time.time() - 60))
    second = make_window(mini)
    second.ask_yes_no = lambda title, text: True
    assert second.offer_recovery() == [(mini / MAP).resolve()]
    editor = second.current_editor()
    assert editor.doc.data["name"] == "Autosaved" and editor.doc.dirty and told == []


def test_a_symlinked_document_is_not_saved_to_its_target_outside(make_window, mini, told):
    target = mini.parent / "outside" / "board-9.yaml"
    target.write_bytes((mini / MAP).read_bytes().replace(b"board-4", b"board-9"))
    before = target.read_bytes()
    (mini / "maps" / "linked.yaml").symlink_to(target)
    window = make_window(mini)
    editor = window.open_path(mini / "maps" / "linked.yaml")
    editor.doc.apply("rename", [Set("/name", "Edited")])
    window.act_save.trigger()
    assert told and told[-1][0] == "Not saved" and "outside the project" in told[-1][1]
    assert "Cannot save" in window.statusBar().currentMessage()
    assert target.read_bytes() == before and editor.doc.dirty and editor.doc.data["name"] == "Edited"
    assert window.autosave() == [] and "Autosave failed" in window.statusBar().currentMessage()
    window.save_all()
    assert target.read_bytes() == before and editor.doc.dirty
    assert window.close_tab(window.tabs.indexOf(editor)) is True  # ask_save says "discard" in these tests
    window.ask_save = lambda name: "save"
    editor = window.open_path(mini / "maps" / "linked.yaml")
    editor.doc.apply("rename", [Set("/name", "Edited again")])
    assert window.close_tab(window.tabs.indexOf(editor)) is False, "a refused save keeps the tab and its edits"
    assert editor.doc.dirty and target.read_bytes() == before
    assert sorted(p.name for p in target.parent.iterdir()) == ["board-9.yaml"]


def test_save_as_outside_the_project_is_refused(make_window, mini, told):
    window = make_window(mini)
    editor = window.open_path(mini / MAP)
    editor.doc.apply("rename", [Set("/name", "Edited")])
    window.ask_save_path = lambda current: str(mini.parent / "outside" / "copy.yaml")
    window.save_as()
    assert told[-1][0] == "Not saved" and editor.doc.dirty and editor.doc.path == (mini / MAP).resolve()
    assert list((mini.parent / "outside").iterdir()) == []


def test_new_card_for_a_ruleset_path_outside_the_project_is_refused(make_window, mini, told):
    project = yamlio.parse((mini / "project.yaml").read_text())
    project["rulesets"] = ["../../../outside/evil", "mbt"]
    (mini / "project.yaml").write_text(yamlio.dump(project))
    window = make_window(mini)
    from studio.document import templates
    assert "../../../outside/evil" not in templates.card_rulesets(window.session), "a path is never offered"
    window.ask_item = lambda title, prompt, items: "../../../outside/evil" if "Rule" in prompt else items[0]
    window.ask_text = lambda title, prompt, current="": "t-99"
    window.act_new.trigger()
    for kind in ("toe", "scenario"):
        window.new_document(kind)
    assert len(told) == 3 and all("not a ruleset id" in text for _, text in told), told
    assert list((mini.parent / "outside").iterdir()) == []
    assert not any(p.name == "t-99.yaml" for p in mini.parent.rglob("*")), "nothing was created anywhere"


def non_utf8_document(mini: Path) -> Path:
    path = mini / "maps" / "latin1.yaml"
    path.write_bytes(b"kind: map\nid: latin1\nname: Caf\xe9 du Pont\n")
    return path


def test_the_raw_editor_never_saves_replacement_characters(make_window, mini):
    from studio.qt.editors.raw_file import QtRawFileEditor
    path = non_utf8_document(mini)
    before = path.read_bytes()
    window = make_window(mini)
    assert window.open_path(path) is None
    raw = window.raw_editor_of(path)
    assert isinstance(raw, QtRawFileEditor) and raw.text.isReadOnly() and not raw.save_button.isEnabled()
    assert "\ufffd" in raw.text.toPlainText() and "not UTF-8" in raw.problem.text()
    raw.text.setReadOnly(False)
    raw.text.setPlainText(raw.text.toPlainText() + "notes: x\n")  # even if the text was changed somehow
    assert raw.save() is False
    assert path.read_bytes() == before
    assert "not saved" in raw.problem.text() and "not saved" in window.statusBar().currentMessage()


def test_the_raw_editor_still_repairs_a_utf8_file_inside_the_project(make_window, mini):
    path = mini / "maps" / "broken.yaml"
    path.write_text("kind: map\nid: broken\nname: [oops\n")
    window = make_window(mini)
    window.open_path(path)
    raw = window.raw_editor_of(path)
    assert not raw.text.isReadOnly()
    raw.text.setPlainText("kind: map\nid: broken\nname: Fixed caf\u00e9\n")
    assert raw.save() is True
    assert path.read_bytes() == "kind: map\nid: broken\nname: Fixed caf\u00e9\n".encode()
    assert window.raw_editor_of(path) is None and window.current_editor().doc.id == "broken"


def test_the_raw_editor_keeps_a_bom_and_crlf_line_endings(make_window, mini):
    path = mini / "maps" / "windows.yaml"
    path.write_bytes(b"\xef\xbb\xbfkind: map\r\nid: windows\r\nname: [oops\r\n")
    window = make_window(mini)
    window.open_path(path)
    raw = window.raw_editor_of(path)
    raw.text.setPlainText(raw.text.toPlainText().replace("[oops", "Fixed"))
    assert raw.save() is True
    assert path.read_bytes() == b"\xef\xbb\xbfkind: map\r\nid: windows\r\nname: Fixed\r\n"


@pytest.mark.parametrize("content", [b"kind: map\nname: [a\xe2\x80\xa8b\n", b"kind: map\rname: [x\n",
                                     b"kind: map\r\nname: [x\n"])
def test_the_raw_editor_is_read_only_for_text_it_cannot_keep(make_window, mini, content):
    path = mini / "maps" / "odd.yaml"
    path.write_bytes(content)
    window = make_window(mini)
    window.open_path(path)
    raw = window.raw_editor_of(path)
    assert raw.text.isReadOnly() and "read-only" in raw.problem.text()
    assert raw.save() is False and path.read_bytes() == content


def test_the_raw_editor_refuses_to_save_through_a_link_outside(make_window, mini):
    target = mini.parent / "outside" / "broken.yaml"
    target.write_text("name: [oops\n")
    (mini / "maps" / "linked.yaml").symlink_to(target)
    window = make_window(mini)
    window.open_path(mini / "maps" / "linked.yaml")
    raw = window.raw_editor_of(mini / "maps" / "linked.yaml")
    raw.text.setPlainText("kind: map\nid: x\n")
    assert raw.save() is False and "outside the project" in raw.problem.text()
    assert target.read_text() == "name: [oops\n"


def test_screenshot_of_an_unparseable_document_shows_the_raw_editor(mini, tmp_path, qapp, capsys):
    from studio.cli.main import main
    non_utf8_document(mini)
    (mini / "maps" / "broken.yaml").write_text("kind: map\nname: [oops\n")
    for doc in ("maps/broken.yaml", "maps/latin1.yaml"):
        out = tmp_path / f"{Path(doc).stem}.png"
        code = main(["--project", str(mini), "--screenshot", str(out), "--open", doc])
        err = capsys.readouterr().err
        assert code == 0 and "no document" not in err, err
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["--project", str(mini), "--screenshot", str(tmp_path / "x.png"), "--open", "maps/none.yaml"]) == 2


def test_screenshot_never_writes_through_a_symlink(mini, tmp_path, qapp, capsys):
    from studio.qt.app import run
    link = tmp_path / "shot.png"
    link.symlink_to(mini.parent / "outside" / "evil.png")
    assert run(str(mini), screenshot=str(link), open_doc="board-4") == 2
    assert "symbolic link" in capsys.readouterr().err
    assert list((mini.parent / "outside").iterdir()) == [] and link.is_symlink()
