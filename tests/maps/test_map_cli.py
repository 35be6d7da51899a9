"""`studio map info|los|export|import`: output, exit codes (0 done, 1 unusable documents, 2 usage), errors
without tracebacks."""
import json
import shutil
from pathlib import Path

import pytest

from studio.cli.main import main

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"
FIXTURE = REPO / "tests" / "fixtures" / "project"


@pytest.fixture(scope="module", autouse=True)
def mini_project(tmp_path_factory):
    """The sample project's rulesets, boards and one scenario only: loads fast."""
    global DATA
    root = tmp_path_factory.mktemp("mini")
    shutil.copy(REPO / "data" / "project.yaml", root)
    shutil.copytree(REPO / "data" / "rulesets", root / "rulesets")
    shutil.copytree(REPO / "data" / "maps", root / "maps")
    (root / "scenarios").mkdir()
    shutil.copy(REPO / "data" / "scenarios" / "mbt" / "delaying-action.yaml", root / "scenarios")
    DATA = root
    yield root
    DATA = REPO / "data"


def run(capsys, *argv):
    code = main(["map", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_info_board(capsys):
    code, out, err = run(capsys, "info", "board-2", "--project", str(DATA))
    assert code == 0, err
    assert "20 x 14 flat-top, 280 hexes" in out and "2A1 .. 2T14" in out
    assert "elevation: 0 .. 2" in out and "Woods" in out


def test_info_scenario_json(capsys):
    code, out, _ = run(capsys, "info", "delaying-action", "--project", str(DATA), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "scenario" and data["hexes"] == 560 and len(data["boards"]) == 2
    assert sum(t["hexes"] for t in data["terrain"]) == 560


def test_info_of_a_file_uses_its_project(capsys):
    code, out, _ = run(capsys, "info", str(FIXTURE / "maps" / "board-x.yaml"))
    assert code == 0 and "4 x 3" in out and "0101 .. 0403" in out


def test_los_text_and_json(capsys):
    code, out, _ = run(capsys, "los", "board-2", "2A1", "2T14", "--project", str(DATA))
    assert code == 0
    # the MBT plugin's LOS hook answers (height tests of MBT 4.1.4.2, not a straight sight line)
    assert out.startswith("2A1 -> 2T14 (range 22): blocked by hex 2J7: Town (buildings) on level 0: height 1 is "
                          "higher than both units")
    assert "[MBT 4.1.4.2.1]" in out and "line: 2A1 " in out
    code, out, _ = run(capsys, "los", "board-2", "2Q3", "2E8", "--project", str(DATA), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["clear"] is True and data["range"] == 12 and data["line"][0] == "2Q3"


def test_los_on_a_scenario_across_boards(capsys):
    code, out, _ = run(capsys, "los", "delaying-action", "2T8", "4T8", "--project", str(DATA), "--format", "json")
    assert code == 0 and json.loads(out)["range"] == 1


def test_los_observer_height(capsys):
    args = ["los", "board-2", "2A1", "2T14", "--project", str(DATA), "--format", "json"]
    assert json.loads(run(capsys, *args)[1])["clear"] is False
    assert json.loads(run(capsys, *args, "--observer-height", "9", "--target-height", "9")[1])["clear"] is True


@pytest.mark.parametrize("argv, message", [
    (["los", "board-2", "2Z3", "2E8"], "no hex '2Z3' on this map; did you mean '2T3'?"),
    (["los", "board-2", "2A1", "E8"], "no hex 'E8'"),
    (["los", "bord-2", "2A1", "2E8"], "did you mean 'board-2'?"),
    (["los", "board-2", "2A1", "2E8", "--ruleset", "mbx"], "no ruleset 'mbx'"),
    (["info", "missing.yaml"], "no such file: missing.yaml"),
    (["export", "delaying-action", "--to", "tiled", "x.tmj"], "is a scenario"),
])
def test_usage_errors_exit_2_with_a_message(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--project", str(DATA))
    assert code == 2 and message in err and "Traceback" not in err and not out


def test_invalid_map_exits_1(tmp_path, capsys):
    project = tmp_path / "p"
    shutil.copytree(FIXTURE, project)
    board = project / "maps" / "board-x.yaml"
    board.write_text(board.read_text().replace("columns: 4", "columns: many"))
    code, _, err = run(capsys, "los", str(board), "0101", "0201")
    assert code == 1 and "not a valid document" in err and "schema.type" in err


@pytest.mark.parametrize("action", ["info", "los", "export", "import"])
def test_help(action, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["map", action, "--help"])
    assert exc.value.code == 0 and "usage: studio map" in capsys.readouterr().out


def test_export_import_round_trip(tmp_path, capsys):
    tmj, out = tmp_path / "b2.tmj", tmp_path / "b2.yaml"
    assert run(capsys, "export", "board-2", "--to", "tiled", str(tmj), "--project", str(DATA))[0] == 0
    assert (tmp_path / "b2.terrain.png").is_file()
    code, _, err = run(capsys, "export", "board-2", "--to", "tiled", str(tmj), "--project", str(DATA))
    assert code == 2 and "--force" in err
    code, out, err = run(capsys, "import", str(tmj), "--ruleset", "mbt", str(out), "--project", str(DATA))
    assert code == 0, err
    assert "map 'board-2', 20 x 14 hexes" in out
    original = (DATA / "maps" / "board-2.yaml").read_text().splitlines()[1:]
    assert (tmp_path / "b2.yaml").read_text().splitlines()[1:] == original  # same text but the $schema header
    code, _, err = run(capsys, "import", str(tmj), "--ruleset", "mbt", str(tmp_path / "b2.yaml"),
                       "--project", str(DATA))
    assert code == 2 and "exists; use --force" in err
    code, _, err = run(capsys, "import", str(tmj), "--ruleset", "mbt", str(tmp_path / "b2.yaml"), "--force",
                       "--id", "board-9", "--project", str(DATA))
    assert code == 0 and "id: board-9" in (tmp_path / "b2.yaml").read_text()


def test_import_of_a_bad_file_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.tmj"
    bad.write_text(json.dumps({"type": "map", "orientation": "isometric"}))
    code, _, err = run(capsys, "import", str(bad), "--ruleset", "mbt", str(tmp_path / "x.yaml"),
                       "--project", str(DATA))
    assert code == 1 and "only hexagonal" in err and not (tmp_path / "x.yaml").exists()
