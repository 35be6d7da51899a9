"""The result cache of ``studio validate`` (``studio.cli.validate_cache``): a run from the cache prints exactly what
validating prints, any change of an input file is seen, and unusual inputs or a damaged cache mean validating."""
import json
import os
import shutil
from pathlib import Path

import pytest

from studio.cli import validate_cache
from studio.cli.commands import validate as validate_cmd
from studio.cli.main import build_parser, main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the fixture project with one dangling reference (an error) and a private cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    toe = root / "toe" / "tank-platoon.yaml"
    toe.write_text(toe.read_text(encoding="utf-8").replace("unit: tank", "unit: tonk", 1), encoding="utf-8")
    return root


def command_line(capsys, *argv) -> tuple[int, str]:
    """``studio validate`` as a process started from the command line runs it (the cache in use)."""
    args = build_parser("validate").parse_args(["validate", *argv])
    args.command_line = True
    code = validate_cmd.run(args)
    return code, capsys.readouterr().out


def in_process(capsys, *argv) -> tuple[int, str]:
    code = main(["validate", *argv])
    return code, capsys.readouterr().out


def entries(root: Path) -> list[Path]:
    return sorted((root.parent / "cache" / "studio" / "validate").glob("*.json"))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_cached_run_prints_what_validating_prints(project, capsys, fmt):
    fresh = in_process(capsys, str(project), "--format", fmt)
    assert fresh[0] == 1 and "tonk" in fresh[1]
    assert command_line(capsys, str(project), "--format", fmt) == fresh  # validates, stores
    assert len(entries(project)) == 1
    assert command_line(capsys, str(project), "--format", fmt) == fresh  # from the cache
    assert command_line(capsys, str(project / "toe"), "--format", fmt) == in_process(capsys, str(project / "toe"),
                                                                                       "--format", fmt)


def test_the_cache_is_what_answers_and_no_cache_refuses_it(project, capsys):
    command_line(capsys, str(project))
    [entry] = entries(project)
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["diagnostics"][0]["message"] = "served from the cache"
    entry.write_text(json.dumps(data), encoding="utf-8")
    assert "served from the cache" in command_line(capsys, str(project))[1]
    assert "served from the cache" not in command_line(capsys, str(project), "--no-cache")[1]
    assert "served from the cache" not in in_process(capsys, str(project))[1]  # in-process callers validate


def test_a_changed_file_is_validated_again(project, capsys):
    command_line(capsys, str(project))
    toe = project / "toe" / "tank-platoon.yaml"
    toe.write_text(toe.read_text(encoding="utf-8").replace("unit: tonk", "unit: tank"), encoding="utf-8")
    code, out = command_line(capsys, str(project / "units" / "tank.yaml"))  # a file of the project: its context
    assert code == 0 and (code, out) == in_process(capsys, str(project / "units" / "tank.yaml"))
    assert command_line(capsys, str(project)) == in_process(capsys, str(project))
    assert "tonk" not in in_process(capsys, str(project))[1]


def test_the_key_covers_paths_working_folder_and_every_byte(project, monkeypatch):
    key = validate_cache.run_key([project], [str(project)])
    assert key == validate_cache.run_key([project], [str(project)])
    assert key != validate_cache.run_key([project / "units"], [str(project / "units")])
    (project / "units" / "truck.yaml").write_bytes((project / "units" / "truck.yaml").read_bytes() + b"\n")
    changed = validate_cache.run_key([project], [str(project)])
    assert changed != key
    monkeypatch.chdir(project)
    assert validate_cache.run_key([project], [str(project)]) != changed


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_an_unusual_file_means_no_cache(project, capsys):
    os.mkfifo(project / "units" / "pipe.yaml")
    with pytest.raises(validate_cache.Uncacheable):
        validate_cache.run_key([project], [str(project)])
    assert command_line(capsys, str(project)) == in_process(capsys, str(project))
    assert entries(project) == []


def test_a_damaged_entry_means_validating(project, capsys):
    fresh = command_line(capsys, str(project))
    for damage in ("not json", "[1, 2]", json.dumps({"format": validate_cache.FORMAT, "key": "other"}),
                   json.dumps({"format": validate_cache.FORMAT, "key": entries(project)[0].stem, "files": 1})):
        entries(project)[0].write_text(damage, encoding="utf-8")
        assert command_line(capsys, str(project)) == fresh
