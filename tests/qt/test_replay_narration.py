"""The replay viewer's step pane: each narrated result with the labelled rolls that decided it, rolls no result
reports apart, and a clear state for an engine that gives no narration (issue 16, COMMON narration contract)."""
from pathlib import Path

import pytest

from studio.document.replay_walk import Moment, Step
from studio.qt.replay_viewer import step_html

DATA = Path(__file__).resolve().parents[2] / "data"


def _plain(markup: str) -> str:
    from PySide6.QtGui import QTextDocument
    doc = QTextDocument()
    doc.setHtml(markup)
    return doc.toPlainText()


def test_results_are_listed_with_their_rolls_in_order(qapp):
    step = Step(5, action="fire M1-1 T-80-2", outcome="hit: T-80-2 destroyed (range 7)", losses=["T-80-2"],
                moments=[Moment("", [("spot M1-2>T-80-1", 9)]),
                         Moment("M1-1 fires APFSDS at T-80-2, range 7, aspect flank: hit roll 34 <= 56 hits",
                                [("AP hit M1-1>T-80-2", 34)]),
                         Moment("  penetration 38 vs armor 35: KO", [("penetration M1-1>T-80-2", 8)])])
    text = _plain(step_html(step, narrated=True))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert "What happened" in lines
    at = lines.index("What happened")
    assert lines[at + 1].startswith("rolls no result reports") and "spot M1-2>T-80-1: 9" in lines[at + 1]
    assert lines[at + 2].startswith("• M1-1 fires APFSDS") and "AP hit M1-1>T-80-2: 34" in lines[at + 3]
    assert lines[at + 4].startswith("• penetration 38 vs armor 35: KO")
    assert "destroyed" in text and "no narration" not in text


def test_an_engine_without_narration_says_so(qapp):
    step = Step(3, action="fire A B", moments=[Moment("", [("d10", 4)])])
    text = _plain(step_html(step, narrated=False, engine="The MBT engine"))
    assert "The MBT engine gives no narration" in text and "d10: 4" in text
    quiet = _plain(step_html(Step(4, action="move A 2E9", moments=[Moment("", [("bog A", 2)])]), narrated=True))
    assert "narrated nothing for this action" in quiet and "bog A: 2" in quiet
    assert "No die rolls" in _plain(step_html(Step(6, action="pass"), narrated=True))


@pytest.fixture(scope="module")
def bfops_replay(tmp_path_factory):
    from studio.cli.main import main
    out = tmp_path_factory.mktemp("bfops-replays")
    assert main(["play", "bfops-meeting-at-the-ford", "--games", "1", "--seed", "1", "--save-replays", str(out),
                 "--project", str(DATA)]) == 0
    return next(out.glob("*.replay.json"))


@pytest.mark.slow  # plays a Battlefield Ops game (~10 s); the walk's own test covers its narration and losses
def test_a_narrating_engine_replay_shows_spotting_and_hits_with_their_rolls(window, project, bfops_replay):
    viewer = window.open_replay(bfops_replay)
    assert viewer is not None and viewer.walk.narrated
    shots = [s for s in viewer.walk.steps if any("fires" in m.text and m.rolls for m in s.moments)]
    assert shots, "the BFOps engine narrates its shots"
    step = shots[0]
    viewer.steps.setCurrentRow(step.index)
    assert viewer.position == step.index
    text = viewer.detail_text()
    moment = next(m for m in step.moments if "fires" in m.text and m.rolls)
    label, value = moment.rolls[-1]
    assert moment.text.strip() in text and f"{label}: {value}" in text
    assert "gives no narration" not in text
    assert viewer.scene is None and "measured table" in viewer.view.text(), "a table scenario: no hex map"


@pytest.fixture(scope="module")
def mbt_advanced_replay(tmp_path_factory):
    from studio.cli.main import main
    out = tmp_path_factory.mktemp("mbt-adv-replays")
    assert main(["play", "mbt-adv-combined-arms", "--games", "1", "--seed", "2", "--bots", "heuristic,heuristic",
                 "--save-replays", str(out), "--project", str(DATA)]) == 0
    return next(out.glob("*.replay.json"))


def test_mbt_penetration_and_aspect_show_with_the_location_roll(window, project, mbt_advanced_replay):
    """Story 1 step 8 on a hex map: the shot that killed a vehicle, its hit roll, where it hit (aspect,
    location) and the penetration against the armour, each beside the roll that decided it."""
    viewer = window.open_replay(mbt_advanced_replay)
    assert viewer is not None and viewer.scene is not None, "a hex map"
    hits = [(s, m) for s in viewer.walk.steps for m in s.moments if "penetration" in m.text and m.rolls]
    assert hits, "the MBT Advanced engine narrates penetration"
    step, moment = hits[0]
    viewer.goto(step.index)
    text = viewer.detail_text()
    label, value = moment.rolls[-1]
    assert "What happened" in text and moment.text.strip() in text and f"{label}: {value}" in text
    assert str(value) in moment.text, "the roll beside the result is the one it reports"
