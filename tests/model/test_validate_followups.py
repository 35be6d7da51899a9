"""Follow-ups of issues 16 and 19 in the validation pipeline (``studio.model.validate``).

* the rule checks fork workers only when that pays (``forking_pays``: a core left idle), as parsing does;
* leaving out rejected parts is linear in the parts left out: ``without`` walks the removed pointers once (not
  once per node), ``unrelated`` once (not once per finding), with the same results as the former pair scans
  (reference implementations below, compared on random data).
"""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from studio.model import project as project_mod
from studio.model import validate
from studio.model.diagnostics import Diagnostic, Severity
from studio.model.pointers import join
from studio.model.validate import PartialDocument, original_pointer, unrelated, validate_paths, without

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project"


# ------------------------------------------------------------------ forking only when a core is idle

def _record_pool(calls: list):
    def pool(workers):
        calls.append(workers)
        raise OSError("no processes in this test")  # validate falls back to one process
    return pool


@pytest.mark.parametrize("idle, forks", [(0.0, False), (0.6, False), (2.0, True)])
def test_checks_fork_workers_only_when_a_core_is_idle(tmp_path, monkeypatch, idle, forks):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    single = validate_paths([root]).diagnostics
    calls: list = []
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(project_mod, "fork_is_safe", lambda: True)
    monkeypatch.setattr(project_mod, "idle_cores", lambda: idle)
    monkeypatch.setattr(validate, "PARALLEL_MIN_CHECKS", 1)
    monkeypatch.setattr(validate, "fork_pool", _record_pool(calls))
    result = validate_paths([root])
    assert bool(calls) is forks, f"idle cores {idle}: pool started {calls}"
    assert result.diagnostics == single


def test_checks_stay_in_process_below_the_threshold(tmp_path, monkeypatch):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    calls: list = []
    monkeypatch.setattr(project_mod, "idle_cores", lambda: 8.0)
    monkeypatch.setattr(project_mod, "fork_is_safe", lambda: True)
    monkeypatch.setattr(validate, "fork_pool", _record_pool(calls))
    validate_paths([root])
    assert calls == []


# ------------------------------------------------------------------ reference implementations (the pair scans)

def _ref_without(data, removed, pointer=""):
    if not any(r.startswith(pointer + "/") for r in removed):
        return data
    if isinstance(data, dict):
        return {k: _ref_without(v, removed, f"{pointer}{join([k])}") for k, v in data.items()
                if f"{pointer}{join([k])}" not in removed}
    if isinstance(data, list):
        return [_ref_without(v, removed, f"{pointer}/{i}") for i, v in enumerate(data)
                if f"{pointer}/{i}" not in removed]
    return data


def _ref_original(whole, removed, pointer):
    if not removed or not pointer:
        return pointer
    node, out = whole, []
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and token.isdigit():
            kept = [i for i in range(len(node)) if f"{join(out)}/{i}" not in removed]
            index = kept[int(token)] if int(token) < len(kept) else int(token)
            out.append(index)
            node = node[index] if index < len(node) else None
        else:
            out.append(token)
            node = node.get(token) if isinstance(node, dict) else None
    return join(out)


def _ref_concerns(removed, pointer):
    return any(pointer == r or pointer.startswith(r + "/") or r.startswith(pointer + "/") or not pointer
               for r in removed)


def _tree(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice([1, "x", None, 2.5])
    if rng.random() < 0.5:
        keys = rng.sample(["a", "b", "c/d", "e~f", "g", "0", "12"], rng.randint(1, 5))
        return {k: _tree(rng, depth - 1) for k in keys}
    return [_tree(rng, depth - 1) for _ in range(rng.randint(0, 7))]


def _pointers(data, pointer=""):
    yield pointer
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _pointers(v, pointer + join([k]))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _pointers(v, f"{pointer}/{i}")


def test_pruning_helpers_agree_with_the_pair_scans_on_random_data():
    rng = random.Random(19)
    checked = 0
    for _ in range(400):
        data = _tree(rng, 5)
        nodes = [p for p in _pointers(data) if p]
        if not nodes:
            continue
        removed = set(rng.sample(nodes, rng.randint(1, min(len(nodes), 12))))
        pruned = without(data, removed)
        assert pruned == _ref_without(data, removed)
        for pointer in _pointers(pruned):
            assert original_pointer(data, tuple(removed), pointer) == _ref_original(data, removed, pointer)
            checked += 1
        outermost = tuple(r for r in removed if not any(r.startswith(o + "/") for o in removed))
        doc = PartialDocument(Path("x.yaml"), "x.yaml", whole=None, removed=outermost)
        found = [Diagnostic(Severity.ERROR, "t", "m", "x.yaml", 1, 1, p) for p in nodes + ["/zz", "/a/zz"]]
        assert [d.pointer for d in unrelated(doc, found)] == [p for p in nodes + ["/zz", "/a/zz"]
                                                              if not _ref_concerns(outermost, p)]
    assert checked > 2000


class _Counting(set):
    """A set of pointers that counts the walks over it."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


class _CountingTuple(tuple):
    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_without_walks_the_removed_pointers_once():
    rows = [{"a": i, "b": [i, i]} for i in range(2000)]
    data = {"kind": "x", "rows": rows}
    removed = _Counting({f"/rows/{i}" for i in range(0, 2000, 2)} | {f"/rows/{i}/b" for i in range(1, 2000, 4)})
    _Counting.walks = 0
    pruned = without(data, removed)
    assert _Counting.walks <= 2, f"{_Counting.walks} walks over the removed pointers (one per node: quadratic)"
    assert [r["a"] for r in pruned["rows"]] == list(range(1, 2000, 2))
    assert all("b" not in r for r in pruned["rows"][::2]) and pruned["rows"][1]["b"] is rows[3]["b"]


def test_unrelated_walks_the_removed_pointers_once_not_per_finding():
    removed = _CountingTuple(f"/rows/{i}" for i in range(0, 400, 2))
    doc = PartialDocument(Path("x.yaml"), "x.yaml", removed=removed)
    found = [Diagnostic(Severity.ERROR, "t", "m", "x.yaml", 1, 1, f"/rows/{i}/a") for i in range(400)]
    _CountingTuple.walks = 0
    kept = unrelated(doc, found)
    assert _CountingTuple.walks <= 2, f"{_CountingTuple.walks} walks (one per finding: quadratic)"
    assert [d.pointer for d in kept] == [f"/rows/{i}/a" for i in range(1, 400, 2)]


# ------------------------------------------------------------------ a file with many parts left out

def test_many_rejected_list_items_keep_the_other_items_findings_at_their_lines(tmp_path):
    """20 forces: the even ones rejected (a number for an id: left out), the odd ones name a missing TO&E; each
    dangling reference is reported at its own line of the real file, none at a left-out force."""
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    forces = []
    for k in range(20):
        ident = f"{k}" if k % 2 == 0 else f"f{k}"
        toe = "tank-platoon" if k % 2 == 0 else f"missing-{k}"
        forces.append(f"      - id: {ident}\n        toe: {toe}\n        setup:\n          hexes: ['0101']\n")
    text = (FIXTURE / "scenarios" / "clash.yaml").read_text(encoding="utf-8")
    head, tail = text.split("    forces:\n      - id: f1\n", 1)
    tail = tail.split("  - id: red\n", 1)[1]
    (root / "scenarios" / "clash.yaml").write_text(head + "    forces:\n" + "".join(forces) + "  - id: red\n" + tail,
                                                   encoding="utf-8")
    result = validate_paths([root])
    lines = (root / "scenarios" / "clash.yaml").read_text(encoding="utf-8").splitlines()
    mine = [d for d in result.diagnostics if d.file.endswith("clash.yaml")]
    schema = [d for d in mine if d.code.startswith("schema.")]
    assert len(schema) == 10
    dangling = sorted((d for d in mine if "missing-" in d.message), key=lambda d: d.line)
    assert [d.pointer for d in dangling] == [f"/sides/0/forces/{k}/toe" for k in range(1, 20, 2)]
    assert [lines[d.line - 1].strip() for d in dangling] == [f"toe: missing-{k}" for k in range(1, 20, 2)]
    note = next(n for n in result.notes if n.file.endswith("clash.yaml"))
    assert note.code == "checks.partial" and "/sides/0/forces/0" in note.message and "7 more" in note.message


# ------------------------------------------------------------------ a reference to a file that does not load

def _clash_board_error(root: Path):
    result = validate_paths([root], display_base=root)
    (found,) = [d for d in result.diagnostics if d.file == os.path.join("scenarios", "clash.yaml")
                and d.pointer == "/boards/0/map"]
    return found


@pytest.mark.parametrize("breakage", [
    "syntax",        # the file does not parse: its id is read from its raw text
    "quoted-id",     # the same with the id quoted and a comment after it
    "bad-kind",      # it parses but names no known kind
    "empty",         # nothing to read: the file's name says which document it would be
])
def test_a_reference_to_a_file_that_does_not_load_names_that_file(tmp_path, breakage):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    board = root / "maps" / "board-x.yaml"
    text = board.read_text(encoding="utf-8")
    if breakage == "syntax":
        text = text.replace("terrain: [C C W C,", "terrain: [C C W C,, ]]: {")
    elif breakage == "quoted-id":
        text = text.replace("id: board-x", "id: 'board-x'  # the first board").replace("hex:\n", "hex: [\n")
    elif breakage == "bad-kind":
        text = text.replace("kind: map", "kind: mapp")
    else:
        text = ""
    board.write_text(text, encoding="utf-8")
    found = _clash_board_error(root)
    assert found.code == "ref.dangling" and found.severity.value == "error"
    assert found.message == (f"map 'board-x' is {os.path.join('maps', 'board-x.yaml')}, which does not load: "
                             "fix that file first")
    assert "did you mean" not in found.message


def test_a_truly_missing_reference_still_suggests_a_close_id(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    scenario = root / "scenarios" / "clash.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("map: board-x", "map: board-y"),
                        encoding="utf-8")
    (root / "units" / "junk.yaml").write_text("kind: unit\nid: other\n: [\n", encoding="utf-8")  # unrelated, broken
    found = _clash_board_error(root)
    assert found.message == "no map with id 'board-y'; did you mean 'board-x'?"


def test_a_broken_file_of_another_kind_with_that_id_is_not_named(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    (root / "maps" / "board-x.yaml").unlink()
    (root / "units" / "board-x.yaml").write_text("kind: unit\nid: board-x\nname: [\n", encoding="utf-8")
    found = _clash_board_error(root)
    assert found.message.startswith("no map with id 'board-x'")
