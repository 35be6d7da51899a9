"""``studio play --from POSITION`` (issue 10 deliverable 8): games start from a position document, and a bad
position is refused with diagnostics (exit 1), never a traceback. Skipped until the CLI has ``--from``."""
import json
import shutil
import sys
from pathlib import Path

import pytest

from studio.cli.main import build_parser, main
from studio.model import registry

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toyalpha import alpha_plugin  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "project"
POSITION = """\
kind: position
scenario: clash
turn: 8
phase: fire
to_act: red
units:
  - {card: tank, side: blue, status: {pos: 11, order: 1}}
  - {card: tank, side: red, status: {pos: 2, order: 1}}
dice: [9]
"""


def has_from() -> bool:
    try:
        return build_parser().parse_args(["play", "--from", "x.yaml"]).from_position == "x.yaml"
    except (SystemExit, AttributeError):
        return False


pytestmark = pytest.mark.skipif(not has_from(), reason="studio play has no --from yet")


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root)
    yield root
    registry.unregister("alpha")


def test_play_from_a_position(project, capsys):
    alpha_plugin()
    path = project / "late.position.yaml"
    path.write_text(POSITION, encoding="utf-8")
    code = main(["play", "--from", str(path), "--games", "6", "--project", str(project), "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0, out
    report = json.loads(out)
    assert report["games"] == 6 and report["turns"]["min"] == report["turns"]["max"] == 8
    # every game starts in red's last fire phase: red's unit stays at 2, blue's ends at 10 or 11 and wins
    assert report["wins"]["blue"] == 6 and report["vp"]["red"]["mean"] == 2.0
    assert 10.0 <= report["vp"]["blue"]["mean"] <= 11.0


def test_play_from_a_bad_position_is_refused(project, capsys):
    alpha_plugin()
    path = project / "bad.position.yaml"
    path.write_text(POSITION.replace("phase: fire", "phase: melee"), encoding="utf-8")
    code = main(["play", "--from", str(path), "--project", str(project)])
    out = capsys.readouterr()
    assert code == 1
    assert "bad.position.yaml:4:" in out.out and "position.phase" in out.out
    assert "Traceback" not in out.out + out.err


def test_play_needs_a_scenario_or_a_position(project, capsys):
    assert main(["play", "--project", str(project)]) == 2
