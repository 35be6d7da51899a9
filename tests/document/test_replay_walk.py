"""The replay walk behind the replay viewer: phases by name, outcomes, losses, positions (Qt-free)."""
import json

import pytest

from studio.document.replay_walk import ReplayWalk, _whole
from studio.rules.load import load_game


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    from pathlib import Path
    from studio.cli.main import main
    data = Path(__file__).resolve().parents[2] / "data"
    out = tmp_path_factory.mktemp("replays")
    assert main(["play", "delaying-action", "--games", "4", "--seed", "1", "--save-replays", str(out),
                 "--project", str(data)]) == 0
    return data, sorted(out.glob("*.replay.json"))


def test_every_action_is_a_step_named_by_its_turn_and_phase(replays):
    data, files = replays
    replay = json.loads(files[0].read_text())
    loaded = load_game(replay["scenario"], data)
    walk = ReplayWalk(loaded, replay)
    assert len(walk.steps) == len(replay["actions"]) + 1 and not any(s.error for s in walk.steps)
    names = {p.id: p.name for p in loaded.game.phases}
    assert all(s.phase in names and s.phase_name == names[s.phase] for s in walk.steps[1:])
    starts = walk.phase_starts()
    assert starts[0] == 0 and all(walk.steps[i].phase != walk.steps[i - 1].phase or
                                  walk.steps[i].turn != walk.steps[i - 1].turn for i in starts[1:])
    assert walk.first_step_of_turn(2) is not None and walk.steps[walk.first_step_of_turn(2)].turn == 2
    assert walk.steps[-1].terminal


def test_losses_match_the_recorded_outcome_and_name_the_killer(replays):
    data, files = replays
    total = 0
    for path in files:
        replay = json.loads(path.read_text())
        walk = ReplayWalk(load_game(replay["scenario"], data), replay)
        losses = walk.losses()
        assert len(losses) == sum(replay["outcome"]["losses"])
        for loss in losses:
            step = walk.steps[loss.step]
            assert loss.unit in step.action and "destroyed" in step.outcome
            assert loss.unit not in step.positions and loss.unit in walk.steps[loss.step - 1].positions
            assert walk.sides[walk.names.index(loss.unit)] == loss.side
        total += len(losses)
    assert total > 0, "the sample games lose units"


def test_shots_report_the_range_between_shooter_and_target(replays):
    data, files = replays
    replay = json.loads(files[0].read_text())
    walk = ReplayWalk(load_game(replay["scenario"], data), replay)
    shots = [s for s in walk.steps if len({walk.sides[walk.names.index(n)] for n in s.named}) > 1]
    assert shots and all(s.range is not None and s.range >= 1 and f"range {s.range}" in s.outcome for s in shots)
    for s in shots:
        a, b = (walk.steps[s.index - 1].positions[n][0] for n in s.named[:2])
        dq, dr = a[0] - b[0], a[1] - b[1]
        assert s.range == (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def test_unit_names_match_whole_names_only():
    assert _whole("fire M1-1 at T-72A-2", 5, 9) and not _whole("fire M1-10 at X", 5, 9)


def test_a_bad_log_stops_with_an_error_instead_of_raising(replays):
    data, files = replays
    replay = json.loads(files[0].read_text())
    replay["actions"] = replay["actions"][:3] + ["no such action"] + replay["actions"][3:]
    walk = ReplayWalk(load_game(replay["scenario"], data), replay)
    assert walk.steps[-1].index == 4 and walk.steps[-1].error


# ---------------------------------------------------------------- narration (COMMON narration contract)

class _FakeState:
    """An engine state that narrates a shot: two labelled rolls, each followed by its event, then a roll no
    event names; ``events`` only while the dice record (as the contract says)."""

    def __init__(self, seed, narrates=True):
        from studio.rules.dice import Dice
        self.dice = Dice(seed, record=False)
        self.turn, self.hex, self.lost = 1, [(0, 0), (3, 0)], [0, 0]
        if narrates:
            self.events = []

    def _say(self, text):
        if self.dice.record and hasattr(self, "events"):
            self.events.append(text)

    def phase_id(self):
        return "fire"

    def current_player(self):
        return 0

    def is_terminal(self):
        return False

    def outcome(self):
        from types import SimpleNamespace
        return SimpleNamespace(losses=list(self.lost))

    def apply(self, action):
        if action == "fire M1-1 at T-80-2":
            hit = self.dice.roll(100, label="AP hit M1-1>T-80-2")
            self._say(f"M1-1 fires at T-80-2, range 3, aspect flank: hit roll {hit}")
            pen = self.dice.roll(10, label="penetration M1-1>T-80-2")
            self._say(f"penetration {pen}: KO")
            self.dice.roll(6)
            self.lost[1] += 1


class _FakeGame:
    def __init__(self, narrates=True):
        from types import SimpleNamespace
        self.narrates = narrates
        self.units = [SimpleNamespace(name="M1-1", side=0, card="m1"), SimpleNamespace(name="T-80-2", side=1)]
        self.phases = [SimpleNamespace(id="fire", name="Fire Phase")]

    def new_initial_state(self, seed):
        return _FakeState(seed, self.narrates)

    def parse_action(self, text):
        return text


def _fake_walk(narrates=True):
    from types import SimpleNamespace
    return ReplayWalk(SimpleNamespace(game=_FakeGame(narrates)), {"seed": 3, "actions": ["pass",
                                                                                         "fire M1-1 at T-80-2"]})


def test_each_event_comes_with_the_rolls_that_decided_it():
    walk = _fake_walk()
    assert walk.narrated
    shot = walk.steps[2]
    assert len(shot.moments) == 3
    first, second, rest = shot.moments
    assert [r[0] for r in first.rolls] == ["AP hit M1-1>T-80-2"] and first.text.startswith("M1-1 fires")
    assert [r[0] for r in second.rolls] == ["penetration M1-1>T-80-2"] and second.text.endswith("KO")
    assert rest.text == "" and [r[0] for r in rest.rolls] == ["d6"], "a roll no event follows stands alone"
    assert f"hit roll {first.rolls[0][1]}" in first.text, "the roll beside the event is the one it reports"
    assert shot.events == [first.text, second.text] and len(shot.rolls) == 3
    assert walk.steps[1].moments == [], "an action without rolls or events has no moments"


def test_an_engine_without_an_event_list_is_told_apart():
    walk = _fake_walk(narrates=False)
    assert not walk.narrated
    shot = walk.steps[2]
    assert shot.events == [] and len(shot.moments) == 1 and shot.moments[0].text == ""
    assert [r[0] for r in shot.moments[0].rolls] == ["AP hit M1-1>T-80-2", "penetration M1-1>T-80-2", "d6"]
    assert shot.losses == ["T-80-2"] and "destroyed" in shot.outcome


@pytest.fixture(scope="module")
def table_replay(tmp_path_factory):
    """A Battlefield Ops game: units kept by the state (ids, no names), positions in inches, narration."""
    from pathlib import Path
    from studio.cli.main import main
    data = Path(__file__).resolve().parents[2] / "data"
    out = tmp_path_factory.mktemp("table-replays")
    assert main(["play", "bfops-meeting-at-the-ford", "--games", "1", "--seed", "1", "--save-replays", str(out),
                 "--project", str(data)]) == 0
    return data, next(out.glob("*.replay.json"))


def test_losses_of_a_narrating_engine_name_the_unit_and_an_enemy_killer(table_replay):
    data, path = table_replay
    replay = json.loads(path.read_text())
    walk = ReplayWalk(load_game(replay["scenario"], data), replay)
    assert walk.names and walk.narrated, "units found on the state, named by their ids"
    losses = walk.losses()
    assert len(losses) == sum(replay["outcome"]["losses"]) > 0
    for loss in losses:
        step = walk.steps[loss.step]
        assert loss.unit in walk.names, "a real unit, not 'a unit of side 1'"
        told = " ".join(step.events)
        assert loss.unit in told or loss.unit in step.action
        if loss.by:
            assert walk.sides[walk.names.index(loss.by)] != loss.side, "the killer is an enemy"


def test_a_roll_goes_with_the_result_that_reports_it():
    from studio.document.replay_walk import _roll_fits
    text = "M1-2 hit front level at HF (roll 97): penetration 12 vs armor 5: KO"
    assert _roll_fits(("AP location T-80-1>M1-2", 97), text), "the target and the rolled number"
    assert not _roll_fits(("AP location T-80-1>M1-2", 41), text), "the target alone is not enough"
    assert _roll_fits(("AP hit T-80-1>M1-2", 12), "T-80-1 fires at M1-2: hit roll 12 vs 56")
    assert not _roll_fits(("spot n5>w13", 6), 'n6 spots w13 at 39.4": roll 5 <= 5'), "'6' of 'n6' is no roll"
    assert _roll_fits(("initiative", 4), "anything"), "a label without units goes with the next result"
