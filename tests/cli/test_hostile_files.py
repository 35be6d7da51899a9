"""Issue 18's audit inputs through the CLI: each gives a diagnostic (file, line, code) or a clear refusal, exit 1
or 2, no traceback, and nothing written (items 1, 5-9)."""
from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.model import safeio
from studio.rules.replay import verify, write_replay

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "project"
DATA = REPO / "data"


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    return root


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (symlinks as their target text)."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            p = Path(dirpath, name)
            out[str(p.relative_to(root))] = os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
    return out


def set_count(project: Path, value: str) -> Path:
    toe = project / "toe" / "tank-platoon.yaml"
    toe.write_text(toe.read_text().replace("count: 3", f"count: {value}"))
    return toe


def json_findings(capsys, *argv):
    code, out, _ = run(capsys, "validate", *argv, "--format", "json")
    return code, json.loads(out)


def codes_at(report, name):
    return [(d["code"], d["line"]) for d in report["diagnostics"] if d["file"].endswith(name)]


# ---------------------------------------------------------------- item 1: huge integers

@pytest.mark.parametrize("literal", ["9" * 5000, "-" + "1" * 4400, "0x" + "f" * 4000, "1." + "5" * 5000])
def test_huge_number_is_a_syntax_diagnostic_and_json_still_prints(project, capsys, literal):
    toe = set_count(project, literal)
    before = snapshot(project)
    code, report = json_findings(capsys, project)
    line = next(i for i, t in enumerate(toe.read_text().splitlines(), 1) if t.strip().startswith("count: "))
    assert code == 1 and ("syntax.number", line) in codes_at(report, "tank-platoon.yaml")
    assert snapshot(project) == before


def test_huge_number_refuses_play_and_format(project, capsys):
    set_count(project, "9" * 5000)
    before = snapshot(project)
    code, out, err = run(capsys, "format", project)
    assert code == 1 and "tank-platoon.yaml: not formatted (invalid" in err
    assert snapshot(project) == before


def test_huge_number_in_a_scenario_refuses_play_with_json(capsys, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(DATA, project, ignore=shutil.ignore_patterns("*.balance.json"))
    sc = project / "scenarios" / "mbt" / "meeting-engagement.yaml"
    sc.write_text(sc.read_text() + "notes_number: " + "7" * 5000 + "\n")
    code, out, _ = run(capsys, "play", sc, "--project", project, "--games", "1", "--format", "json")
    report = json.loads(out)
    assert code == 1 and [d["code"] for d in report["diagnostics"]] == ["syntax.number"]
    assert report["diagnostics"][0]["line"] == len(sc.read_text().splitlines())


# ---------------------------------------------------------------- item 9: strict as the schemas

@pytest.mark.parametrize("value", ["'5'", "true", "'0101'", "5.5"])
def test_integer_fields_refuse_text_booleans_and_fractions(project, capsys, value):
    toe = set_count(project, value)
    line = next(i for i, t in enumerate(toe.read_text().splitlines(), 1) if t.strip().startswith("count: "))
    code, report = json_findings(capsys, toe)
    assert code == 1 and ("schema.type", line) in codes_at(report, "tank-platoon.yaml")


def test_format_never_rewrites_quoted_digits(project, capsys):
    toe = set_count(project, "'0101'")
    before = toe.read_bytes()
    code, _, err = run(capsys, "format", toe)
    assert code == 1 and "invalid" in err
    assert toe.read_bytes() == before


def test_number_fields_still_take_yaml_integers(tmp_path, capsys):
    layout = tmp_path / "l.yaml"
    layout.write_text("kind: layout\nid: l\nname: L\nelements:\n  - id: a\n    text: x\n    x_mm: 1\n    y_mm: 2\n")
    code, report = json_findings(capsys, layout)
    assert code == 0, report


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", ".NaN"])
def test_layout_coordinates_refuse_nan_and_inf(tmp_path, capsys, value):
    layout = tmp_path / "l.yaml"
    layout.write_text(f"kind: layout\nid: l\nname: L\nelements:\n  - id: a\n    text: x\n    x_mm: {value}\n"
                      "    y_mm: 2\n")
    code, report = json_findings(capsys, layout)
    assert code == 1 and ("schema.value", 7) in codes_at(report, "l.yaml")
    assert "finite" in report["diagnostics"][0]["message"]


def test_table_cells_refuse_nan(project, capsys):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    text = ruleset.read_text()
    assert "rows:" in text
    lines = text.splitlines()
    n = next(i for i, t in enumerate(lines) if t.strip().startswith("- [") and "rows" in lines[i - 1])
    lines[n] = lines[n].replace("[", "[.nan, ", 1)
    ruleset.write_text("\n".join(lines) + "\n")
    code, report = json_findings(capsys, ruleset)
    assert code == 1 and ("schema.value", n + 1) in codes_at(report, "ruleset.yaml"), report


@pytest.mark.parametrize("text", ["kind: unit\nid: [a, b", "kind: unit\nid: {", "kind: unit\nname: 'open",
                                  "kind: unit\nid: [\n"])
def test_syntax_findings_never_point_past_the_last_line(tmp_path, capsys, text):
    doc = tmp_path / "u.yaml"
    doc.write_text(text)
    code, report = json_findings(capsys, doc)
    (finding,) = report["diagnostics"]
    lines = text.splitlines()
    assert code == 1 and finding["code"] == "syntax.yaml"
    assert finding["line"] <= len(lines) and finding["column"] <= len(lines[finding["line"] - 1]) + 1


# ---------------------------------------------------------------- item 7: special files

def _validate_in_thread(capsys, path):
    result = {}

    def work():
        result["report"] = json_findings(capsys, path)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(30)
    assert "report" in result, "validation hung"
    return result["report"]


def test_fifo_and_dev_zero_named_yaml_are_refused_not_read(project, capsys):
    os.mkfifo(project / "units" / "fifo.yaml")
    (project / "units" / "zero.yaml").symlink_to("/dev/zero")
    code, report = _validate_in_thread(capsys, project)
    assert code == 1
    assert codes_at(report, "fifo.yaml") == [("file.special", 1)]
    assert codes_at(report, "zero.yaml") == [("file.special", 1)]


def test_oversized_file_refused_before_reading(project, capsys, monkeypatch):
    monkeypatch.setattr(safeio, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(safeio.read_regular, "__defaults__", (1000,))
    (project / "units" / "big.yaml").write_bytes(b"# " + b"x" * 2000 + b"\n")
    code, report = json_findings(capsys, project)
    assert code == 1 and codes_at(report, "big.yaml") == [("file.too-large", 1)]


# ---------------------------------------------------------------- item 6: symlinks and the project root

def test_project_listing_a_ruleset_outside_the_project_is_refused(project, capsys):
    pfile = project / "project.yaml"
    pfile.write_text(pfile.read_text().replace("rulesets: [alpha, beta]", "rulesets: [alpha, ../../../outside/evil]"))
    code, report = json_findings(capsys, pfile)
    line = next(i for i, t in enumerate(pfile.read_text().splitlines(), 1) if t.startswith("rulesets:"))
    assert code == 1 and ("schema.pattern", line) in codes_at(report, "project.yaml")


def test_format_refuses_to_replace_a_symlink(project, capsys, tmp_path):
    outside = tmp_path / "outside.yaml"
    unit = project / "units" / "truck.yaml"
    outside.write_text(unit.read_text() + "\n\n")  # valid, not canonical
    unit.unlink()
    unit.symlink_to(outside)
    before = outside.read_bytes()
    code, _, err = run(capsys, "format", project)
    assert code == 1 and "truck.yaml: not formatted (a symbolic link" in err
    assert unit.is_symlink() and outside.read_bytes() == before


def test_print_output_through_a_dangling_symlink_is_refused(capsys, tmp_path):
    link = tmp_path / "out.pdf"
    link.symlink_to(tmp_path / "elsewhere.pdf")
    code, _, err = run(capsys, "print", "calibration", "-o", link, "--project", DATA)
    assert code == 2 and "symbolic link" in err
    assert not (tmp_path / "elsewhere.pdf").exists() and os.listdir(tmp_path) == ["out.pdf"]


def test_print_output_replaces_the_old_pdf_whole(capsys, tmp_path):
    out = tmp_path / "out.pdf"
    out.write_bytes(b"old")
    code, _, _ = run(capsys, "print", "calibration", "-o", out, "--project", DATA)
    assert code == 0 and out.read_bytes().startswith(b"%PDF") and out.read_bytes().rstrip().endswith(b"%%EOF")
    assert os.listdir(tmp_path) == ["out.pdf"]


def test_print_png_previews_never_write_through_a_symlink(capsys, tmp_path):
    pngs = tmp_path / "png"
    pngs.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (pngs / "out-01.png").symlink_to(victim)
    code, _, err = run(capsys, "print", "calibration", "-o", tmp_path / "out.pdf", "--png", pngs, "--project", DATA)
    assert code == 2 and "symbolic link" in err and victim.read_text() == "precious"
    assert (pngs / "out-01.png").is_symlink()


def test_write_balance_refuses_a_symlink(capsys, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(DATA, project, ignore=shutil.ignore_patterns("*.balance.json"))
    sc = project / "scenarios" / "mbt" / "delaying-action.yaml"
    victim = tmp_path / "victim.json"
    victim.write_text("precious")
    (sc.parent / "delaying-action.balance.json").symlink_to(victim)
    code, _, err = run(capsys, "play", sc, "--project", project, "--games", "1", "--write-balance",
                         "--format", "json")
    assert code == 2 and "symbolic link" in err
    assert victim.read_text() == "precious"


def test_write_balance_stays_in_the_project_and_off_symlinks(project, tmp_path):
    from studio.cli.commands.play import write_balance

    scenario = project / "scenarios" / "clash.yaml"
    assert json.loads(write_balance(scenario, {"games": 1}).read_text()) == {"games": 1}
    (project / "scenarios" / "clash.balance.json").unlink()
    (project / "scenarios" / "clash.balance.json").symlink_to(tmp_path / "victim.json")
    with pytest.raises(safeio.WriteRefused, match="symbolic link"):
        write_balance(scenario, {"games": 2})
    assert not (tmp_path / "victim.json").exists()
    outside = project / "units" / ".." / ".." / "loose.yaml"  # a scenario outside any project: beside it
    assert write_balance(outside, {"games": 3}).parent == tmp_path


# ---------------------------------------------------------------- item 5: garbage replays

GOOD = {"format": "studio-replay", "format_version": 1, "scenario": "meeting-engagement", "ruleset": "mbt",
        "ruleset_version": "1", "seed": 1, "actions": [], "final_hash": "x"}
GARBAGE = {
    "seed-text": {**GOOD, "seed": "one"}, "seed-list": {**GOOD, "seed": [1]}, "seed-bool": {**GOOD, "seed": True},
    "seed-float": {**GOOD, "seed": 1.5}, "scenario-int": {**GOOD, "scenario": 7},
    "scenario-null": {**GOOD, "scenario": None}, "scenario-dict": {**GOOD, "scenario": {"a": 1}},
    "actions-text": {**GOOD, "actions": "pass"}, "actions-ints": {**GOOD, "actions": [1, 2]},
    "ruleset-list": {**GOOD, "ruleset": ["mbt"]}, "hash-int": {**GOOD, "final_hash": 3},
    "file-int": {**GOOD, "scenario_file": 3}, "list": [GOOD], "string": "studio-replay",
}
RAW = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "deep-dict": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "huge-int": b'{"format": "studio-replay", "seed": ' + b"9" * 5000 + b"}",
    "latin1": b'{"format": "studio-replay", "scenario": "\xe9"}',
    "nul": b"\x00\x00",
    "empty": b"",
    "nan": b'{"format": "studio-replay", "seed": NaN}',
}


@pytest.mark.parametrize("name", sorted(GARBAGE) + sorted(RAW))
def test_garbage_replays_are_findings_never_exceptions(tmp_path, capsys, name):
    path = tmp_path / f"{name}.replay.json"
    if name in RAW:
        path.write_bytes(RAW[name])
    else:
        path.write_text(json.dumps(GARBAGE[name]))
    check = verify(path, DATA)
    assert not check.ok and check.message
    if name in GARBAGE:  # a replay of the wrong shape is unreadable, said before any game is loaded
        assert check.status == "unreadable", check
    code, out, _ = run(capsys, "replay", path, "--project", DATA, "--format", "json")
    assert code in (1, 2) and json.loads(out)["ok"] is False


def test_replay_refuses_special_and_huge_files(tmp_path, monkeypatch):
    fifo = tmp_path / "f.replay.json"
    os.mkfifo(fifo)
    assert verify(fifo).status == "unreadable"
    monkeypatch.setattr("studio.rules.replay.MAX_REPLAY_BYTES", 100)
    big = tmp_path / "big.replay.json"
    big.write_text(json.dumps({**GOOD, "actions": ["x"] * 100}))
    check = verify(big)
    assert check.status == "unreadable" and "limit" in check.message


def test_replay_writer_never_follows_a_symlink_nor_uses_a_fixed_temp(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / "g.replay.json").symlink_to(victim)
    with pytest.raises(safeio.WriteRefused):
        write_replay(tmp_path / "g.replay.json", GOOD)
    (tmp_path / "h.replay.json.tmp").symlink_to(victim)  # the old predictable temp name
    write_replay(tmp_path / "h.replay.json", GOOD)
    assert victim.read_text() == "precious" and json.loads((tmp_path / "h.replay.json").read_text()) == GOOD


def test_replay_writer_stays_inside_its_root(tmp_path):
    with pytest.raises(safeio.WriteRefused, match="outside"):
        write_replay(tmp_path / "p" / ".." / "x.replay.json", GOOD, root=tmp_path / "p")
    assert not (tmp_path / "x.replay.json").exists()


# ---------------------------------------------------------------- item 8: stale temp files

def test_listing_a_project_removes_stale_studio_temps(project, capsys):
    stale = [project / "units" / ".tank.yaml.studio-00112233aabb.tmp", project / "toe" / ".t.yaml.ab_cd123.tmp"]
    for p in stale:
        p.write_text("half a file")
        old = time.time() - 60
        os.utime(p, (old, old))
    mine = project / "units" / ".notes.tmp"
    mine.write_text("user file")
    code, _, _ = run(capsys, "validate", project)
    assert code == 0 and not any(p.exists() for p in stale) and mine.exists()
