"""Issue 12, 'Must show': a replay of an Advanced game in which infantry dismount, an ATGM is fired, artillery
lands and a helicopter attacks, stepped through in the replay viewer with each roll and result named.

The game is ``mbt-opt-everything`` (every unit class of the Advanced Game) with no optional rule in force, played
by the heuristic bots; the first seed whose game shows all four is written as a replay file, verified and opened in
the replay viewer, which steps to each of the four events: its step pane names the result and the labelled rolls."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.rules.replay import record, verify, write_replay
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[3] / "data"
BOTS = ["heuristic", "heuristic"]


def kinds(game) -> dict:
    """Event kind -> test on a narrated line (the engine's own narration, COMMON narration contract)."""
    atgm = {r.ammo for u in game.units for r in u.type.ap if r.kind == "ATGM"}
    return {"dismount": lambda e: " dismounts from " in e,
            "atgm": lambda e: any(f"fires {a} at" in e for a in atgm),
            "artillery": lambda e: e.startswith(("artillery lands at", "planned fire of")),
            "helicopter": lambda e: e.startswith("helicopter ") and " attacks " in e}


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory):
    from studio.document.replay_walk import ReplayWalk

    loaded = load_game("opt-everything", DATA, optional_rules=[])
    tests = kinds(loaded.game)
    for seed in range(12):
        result, state = play_game(loaded.game, seed, BOTS, record=True)
        if result.error:
            continue  # engine errors are the 500-game test's finding
        replay = record(loaded, seed, result.actions, state, BOTS)
        events = [str(e) for s in ReplayWalk(loaded, replay).steps for e in s.events]
        if all(any(test(e) for e in events) for test in tests.values()):
            return write_replay(tmp_path_factory.mktemp("replay") / f"everything-{seed}.replay.json", replay)
    pytest.fail("no heuristic game of seeds 0-11 shows a dismount, an ATGM shot, artillery and a helicopter attack")


def test_replay_verifies(replay_file):
    assert verify(replay_file, DATA).status == "ok"


def test_viewer_steps_to_each_event_with_its_rolls(qapp, replay_file):
    from studio.qt.replay_viewer import QtReplayView

    viewer = QtReplayView()
    assert viewer.open(replay_file, DATA) == ""
    assert viewer.walk.narrated
    tests = kinds(viewer.walk.game)
    for kind, test in tests.items():
        step = next(s for s in viewer.walk.steps if any(test(str(e)) for e in s.events))
        viewer.goto(step.index)
        text = viewer.detail_text()
        moment = next(m for m in step.moments if test(m.text.strip()))
        assert moment.text.strip() in text, kind
        if kind != "dismount":  # a dismount rolls nothing; the others name the rolls that decided them
            rolls = [r for m in step.moments for r in m.rolls]
            assert rolls, f"{kind}: no rolls"
            label, value = rolls[0]
            assert label and f"{label}: {value}" in text, kind
    viewer.deleteLater()
