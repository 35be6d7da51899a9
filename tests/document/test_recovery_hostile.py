"""Crash recovery and the session's writes under hostile input (issue 18 items 4 and 6).

Every autosave the studio did not write as a usable mapping (garbage YAML, a list, nothing, non-UTF-8, a huge
integer, a symlink, a FIFO, ...) is listed with its problem, never applied, never deleted: ``recover`` moves it
aside and raises BadAutosave; nothing raises anything else. Writes never leave the project folder."""
import os
import shutil
import time
from pathlib import Path

import pytest

from studio.document.document import autosave_path
from studio.document.session import BadAutosave, CannotOpen, ProjectSession
from studio.model import yamlio
from studio.model.safeio import WriteRefused

REPO = Path(__file__).resolve().parents[2]
MAP = "maps/board-4.yaml"


@pytest.fixture
def mini(tmp_path) -> Path:
    """project.yaml, the rulesets and one map (a session on it loads fast); ``outside`` sits beside it."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(REPO / "data" / "project.yaml", root)
    shutil.copytree(REPO / "data" / "rulesets", root / "rulesets")
    (root / "maps").mkdir()
    shutil.copy(REPO / "data" / MAP, root / MAP)
    (tmp_path / "outside").mkdir()
    return root


def newer(path: Path) -> None:
    """Make ``path`` (a file or link itself) newer than the document, as a crash-left autosave is."""
    stamp = time.time() + 5
    os.utime(path, (stamp, stamp), follow_symlinks=False)


def outside_file(root: Path, content: bytes) -> Path:
    target = root.parent / "outside" / "secret.yaml"
    target.write_bytes(content)
    return target


def make_side(root: Path, kind: str) -> Path:
    """Create the hostile autosave ``kind`` beside the map; returns the side path."""
    side = autosave_path(root / MAP)
    contents = {
        "garbage-yaml": b"kind: map\nname: [unclosed\n  : :\n",
        "top-level-list": b"- kind\n- map\n",
        "top-level-scalar": b"just words\n",
        "empty": b"",
        "only-comment": b"# nothing\n",
        "non-utf8": b"kind: map\nname: caf\xe9\n",
        "nul-bytes": b"kind: map\x00\x00\n",
        "huge-int": b"kind: map\nid: board-4\nschema_version: " + b"7" * 5000 + b"\n",
        "deep-nesting": b"a: " + b"[" * 50_000 + b"]" * 50_000 + b"\n",
        "alias-bomb": b"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n",
        "duplicate-tag": b"kind: !!python/object:os.system map\n",
    }
    if kind in contents:
        side.write_bytes(contents[kind])
    elif kind == "symlink-outside":
        side.symlink_to(outside_file(root, b"kind: map\nid: board-4\nname: Evil\n"))
    elif kind == "symlink-dev-zero":
        side.symlink_to("/dev/zero")
    elif kind == "symlink-dangling":
        side.symlink_to(root.parent / "outside" / "nothing.yaml")
    elif kind == "fifo":
        os.mkfifo(side)
    elif kind == "folder":
        side.mkdir()
    elif kind == "too-large":
        with open(side, "wb") as handle:
            handle.truncate(yamlio.MAX_FILE_BYTES + 1)  # sparse: refused on its size, never read
    else:
        raise AssertionError(kind)
    newer(side)
    return side


HOSTILE = ["garbage-yaml", "top-level-list", "top-level-scalar", "empty", "only-comment", "non-utf8", "nul-bytes",
           "huge-int", "deep-nesting", "alias-bomb", "duplicate-tag", "symlink-outside", "symlink-dev-zero",
           "symlink-dangling", "fifo", "folder", "too-large"]


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` with its bytes (or its link target / kind), to prove nothing changed."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath, name)
            rel = str(p.relative_to(folder))
            out[rel] = (f"-> {os.readlink(p)}" if p.is_symlink() else "dir" if p.is_dir() else
                        "special" if not p.is_file() else p.read_bytes())
    return out


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_autosave_is_reported_kept_aside_and_never_applied(mini, kind):
    side = make_side(mini, kind)
    document = (mini / MAP).read_bytes()
    outside = snapshot(mini.parent / "outside")
    session = ProjectSession(mini)
    pending = session.autosaves()
    assert [item.path for item in pending] == [(mini / MAP).resolve()]
    assert pending[0].problem and pending[0].data is None
    assert session.recoverable() == [(mini / MAP).resolve()]
    with pytest.raises(BadAutosave) as refused:
        session.recover(mini / MAP)
    diag = refused.value.diagnostics[0]
    assert diag.code == "autosave.unusable" and diag.file == MAP and pending[0].problem in diag.message
    kept = refused.value.kept
    assert kept == side.with_name(side.name + ".bad") and os.path.lexists(kept) and not os.path.lexists(side)
    assert (mini / MAP).read_bytes() == document, "the document is not touched"
    assert snapshot(mini.parent / "outside") == outside, "nothing outside the project is read into or written"
    assert session.autosaves() == [] and (mini / MAP).resolve() not in session.open_docs
    # the document itself still opens (from its own file) and validates
    assert session.open_document(mini / MAP).data["id"] == "board-4" and session.validate() is not None


def test_the_problems_say_what_is_wrong(mini):
    expected = {"empty": "empty", "top-level-list": "top level is a list", "non-utf8": "not UTF-8",
                "huge-int": "too long", "fifo": "not a regular file", "symlink-outside": "symbolic link",
                "garbage-yaml": "line ", "too-large": "the limit is", "alias-bomb": "alias"}
    for kind, words in expected.items():
        side = make_side(mini, kind)
        [item] = ProjectSession(mini).autosaves()
        assert words in item.problem, (kind, item.problem)
        if side.is_dir() and not side.is_symlink():
            side.rmdir()
        else:
            side.unlink()


def test_a_kept_aside_autosave_never_overwrites_an_earlier_one(mini):
    session = ProjectSession(mini)
    kept = []
    for _ in range(3):
        make_side(mini, "garbage-yaml")
        kept.append(session.keep_aside(mini / MAP))
    assert [p.name for p in kept] == [".board-4.yaml.autosave.bad", ".board-4.yaml.autosave.bad-2",
                                      ".board-4.yaml.autosave.bad-3"]
    assert all(p.read_bytes().startswith(b"kind: map") for p in kept)


def test_a_valid_autosave_beside_a_document_now_broken_on_disk(mini):
    session = ProjectSession(mini)
    doc = session.open_document(mini / MAP)
    doc.replace_data("rename", {**doc.data, "name": "Autosaved name"})
    side = doc.autosave()
    broken = b"kind: map\nid: board-4\nname: [broken\n"
    (mini / MAP).write_bytes(broken)
    os.utime(mini / MAP, (time.time() - 60, time.time() - 60))
    fresh = ProjectSession(mini)
    [item] = fresh.autosaves()
    assert item.problem == "" and item.data["name"] == "Autosaved name"
    recovered = fresh.recover(mini / MAP)
    assert recovered.data["name"] == "Autosaved name" and recovered.dirty
    assert (mini / MAP).read_bytes() == broken, "recovery itself writes nothing"
    recovered.save()
    assert yamlio.parse((mini / MAP).read_text())["name"] == "Autosaved name" and not side.exists()


def test_stale_and_identical_autosaves_are_not_offered(mini):
    side = autosave_path(mini / MAP)
    side.write_bytes(b"garbage: [")
    old = time.time() - 3600
    os.utime(side, (old, old))  # older than the document: saved since
    assert ProjectSession(mini).autosaves() == [] and side.exists(), "a stale autosave is left alone"
    side.write_bytes((mini / MAP).read_bytes())
    newer(side)
    assert ProjectSession(mini).autosaves() == []


def test_recover_without_an_autosave_is_a_refusal(mini):
    with pytest.raises(CannotOpen, match="no autosave"):
        ProjectSession(mini).recover(mini / MAP)


def test_autosave_never_writes_through_a_symlinked_side_file(mini):
    target = outside_file(mini, b"precious\n")
    autosave_path(mini / MAP).symlink_to(target)
    session = ProjectSession(mini)
    doc = session.open_document(mini / MAP)
    doc.replace_data("rename", {**doc.data, "name": "Edited"})
    with pytest.raises(WriteRefused, match="symbolic link"):
        session.autosave_all()
    assert target.read_bytes() == b"precious\n" and doc.dirty


def test_a_symlinked_document_is_never_saved_outside_the_project(mini):
    target = outside_file(mini, (mini / MAP).read_bytes().replace(b"board-4", b"board-9"))
    before = target.read_bytes()
    (mini / "maps" / "linked.yaml").symlink_to(target)
    session = ProjectSession(mini)
    doc = session.open_document(mini / "maps" / "linked.yaml")
    doc.replace_data("rename", {**doc.data, "name": "Edited"})
    with pytest.raises(WriteRefused, match="outside the project"):
        doc.save()
    with pytest.raises(WriteRefused):
        doc.autosave()
    assert target.read_bytes() == before and doc.dirty and doc.data["name"] == "Edited"
    assert sorted(p.name for p in target.parent.iterdir()) == ["secret.yaml"]
    with pytest.raises(WriteRefused, match="outside the project"):
        session.delete(mini / "maps" / "linked.yaml")
    assert target.read_bytes() == before


def test_create_and_save_as_outside_the_project_are_refused(mini):
    session = ProjectSession(mini)
    evil = mini / "units" / ".." / ".." / ".." / "outside" / "evil" / "x.yaml"
    with pytest.raises(WriteRefused, match="outside the project"):
        session.create(evil, {"kind": "unit", "id": "x"})
    doc = session.open_document(mini / MAP)
    with pytest.raises(WriteRefused, match="outside the project"):
        session.save_as(doc, mini.parent / "outside" / "copy.yaml")
    assert list((mini.parent / "outside").iterdir()) == []
    assert doc.path == (mini / MAP).resolve()


def test_save_all_saves_what_it_can_and_reports_the_rest(mini):
    target = outside_file(mini, (mini / MAP).read_bytes().replace(b"board-4", b"board-9"))
    (mini / "maps" / "linked.yaml").symlink_to(target)
    session = ProjectSession(mini)
    good, bad = session.open_document(mini / MAP), session.open_document(mini / "maps" / "linked.yaml")
    for doc in (good, bad):
        doc.replace_data("rename", {**doc.data, "name": "Edited"})
    with pytest.raises(WriteRefused):
        session.save_all()
    assert not good.dirty and bad.dirty and yamlio.parse((mini / MAP).read_text())["name"] == "Edited"


def test_a_fifo_document_does_not_hang_the_session(mini):
    os.mkfifo(mini / "maps" / "pipe.yaml")
    session = ProjectSession(mini)
    entry = next(e for e in session.entries() if e.display == "maps/pipe.yaml")
    assert not entry.ok
    with pytest.raises(CannotOpen, match="not a regular file"):
        session.open_document(mini / "maps" / "pipe.yaml")


@pytest.mark.parametrize("kind", [{"unit": "unit"}, ["map"], 5, None])
def test_an_autosave_with_a_strange_kind_is_recovered_as_data(mini, kind):
    """A mapping is usable content: it is restored (the user sees the diagnostics), and nothing raises."""
    side = autosave_path(mini / MAP)
    data = yamlio.parse((mini / MAP).read_text())
    side.write_text(yamlio.dump({**data, "kind": kind}))
    newer(side)
    session = ProjectSession(mini)
    doc = session.recover(mini / MAP)
    assert doc.data["kind"] == kind and doc.kind is None and doc.model()[0] is None
    assert "kind" in doc.text() and session.validate().errors
