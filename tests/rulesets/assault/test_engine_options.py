"""Options the Assault engine reads, each shown to change play (positions + forced dice, public API)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, scenario="assault-meeting", dice=(), **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase,
                                   "units": units})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def unit(uid, card, side, hexlabel, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status}


def spotted(state) -> dict:
    return {c.id: c.spotted for c in state.counters}


def test_c44_who_spots_after_movement(index):
    """Both players spot at the end of a movement phase ('both'), or only the non-phasing one."""
    units = [unit("su", "su-t80-platoon", "soviet", "B1421"), unit("us", "us-m1-platoon", "us", "B1821")]
    both = state_of(index, units, "soviet-move-1")
    both.play("end")
    only = state_of(index, units, "soviet-move-1", **{"c44-spotting-side": "non-phasing"})
    only.play("end")
    assert spotted(both) == {"su": True, "us": True}        # clear terrain: autospot (placeholder 'Auto')
    assert spotted(only) == {"su": True, "us": False}


def test_c22_autospot_range(index):
    """Autospot at 21 hexes on flat clear ground: 'any-range' spots, 'max-range' (18 at level 0) does not."""
    units = [unit("su", "su-t80-platoon", "soviet", "A2220"), unit("us", "us-m1-platoon", "us", "A0120")]
    far = state_of(index, units, "soviet-move-1", scenario="assault-probe")
    far.play("end")
    near = state_of(index, units, "soviet-move-1", scenario="assault-probe", **{"c22-autospot-range": "max-range"})
    near.play("end")
    assert spotted(far)["su"] and not spotted(near)["su"]


def test_c20_unspot_timing(index):
    """A spotted unit no enemy can see (21 hexes, beyond the 18-hex range: option c22 'max-range') is flipped at
    the end of a fire phase ('any-phase') or only at the end of its own movement phase ('friendly-movement')."""
    units = [unit("su", "su-t80-platoon", "soviet", "A2220", spotted=True), unit("us", "us-m1-platoon", "us", "A0120")]
    results = []
    for choice in ("any-phase", "friendly-movement"):
        state = state_of(index, units, "us-fire", scenario="assault-probe",
                         **{"c20-unspot-timing": choice, "c22-autospot-range": "max-range"})
        state.play("end")
        state.play("end")
        results.append(spotted(state)["su"])
    assert results == [False, True]


def _duel(index, dice, **options):
    units = [unit("us", "us-m1-platoon", "us", "B1010", facing=3, spotted=True),
             unit("su", "su-t80-platoon", "soviet", "B1012", facing=0, spotted=True)]
    state = state_of(index, units, "us-fire", dice=dice, **options)
    state.play("fire us KP su")
    state.play("end")
    state.play("fire su KP us")
    state.play("end")
    return {c.id: (c.steps, c.suppressed) for c in state.counters}


def test_c2_sequential_fire(index):
    """'simultaneous': the T-80 platoon destroyed by the M-1s still fires; 'sequential': it does not."""
    dice = [1] * 12
    assert "su" not in _duel(index, dice) and _duel(index, dice)["us"] != (2, False)
    assert _duel(index, dice, **{"c2-fire-resolution": "sequential"}) == {"us": (2, False)}


def test_c24_two_hits_one_check(index):
    """TP 17 against chobham flank 12 (confirm on 5 or less): rolls 1 (two hits), then 3 and 9. 'each-hit': one
    step lost; 'one-check': the first check covers both hits."""
    units = [unit("us", "us-m1-platoon", "us", "B1010", spotted=True),
             unit("su", "us-m1-platoon", "soviet", "B1012", facing=3, spotted=True)]
    out = []
    for choice in ("each-hit", "one-check"):
        state = state_of(index, units, "us-fire", dice=[1, 3, 9, 10, 10, 10], **{"c24-two-hits": choice})
        state.play("fire us TP su")
        state.play("end")
        state.play("end")
        out.append({c.id: c.steps for c in state.counters}.get("su", 0))
    assert out[0] > out[1]


def test_c25_defence_steps(index):
    """Infantry in clear (defence 4) with a U.S. M-1 platoon in its hex, under 16 HE from a second M-1 at range 1,
    CRT roll 10: counting only its own steps gives 4:1 (suppress), counting every step gives 6:1 (a hit)."""
    units = [unit("us", "us-m1-platoon", "us", "B1010", spotted=True),
             unit("us2", "us-m1-platoon", "us", "B1011"),
             unit("su", "su-motor-rifle-platoon", "soviet", "B1011", spotted=True)]
    out = []
    for choice in ("friendly", "all"):
        state = state_of(index, units, "us-fire", dice=[0], **{"c25-defence-steps": choice})
        state.play("fire us HE su")
        state.play("end")
        state.play("end")
        out.append({c.id: (c.steps, c.suppressed) for c in state.counters}["su"])
    assert out == [(2, True), (1, True)]


def test_c7_urban_strip_blocks_los(index):
    """Urban strip A1311 between two units on flat ground: no height ('none', 10.B.2's list) or +1 like town."""
    units = [unit("su", "su-t80-platoon", "soviet", "A1313"), unit("us", "us-m1-platoon", "us", "A1309")]
    out = []
    for choice in ("none", "plus-one"):
        state = state_of(index, units, "soviet-move-1", scenario="assault-probe", **{"c7-urban-strip-los": choice})
        state.play("end")
        out.append(spotted(state)["su"])
    assert out == [True, False]


def test_c30_victory_tie(index):
    """No victory points either side at the end: a draw, or a U.S. win under 'us'."""
    units = [unit("su", "su-t80-platoon", "soviet", "B2121"), unit("us", "us-m1-platoon", "us", "B0101")]
    winners = []
    for choice in ("draw", "us"):
        rs = index.model("ruleset", "assault")
        game = create_game(index.model("scenario", "assault-meeting"), index,
                           {o.id: o.default for o in rs.options} | {"c30-victory-tie": choice})
        pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                       "turn": 6, "phase": "us-move-2", "units": units})
        state = game.state_from_position(pos)
        state.play("end")
        assert state.is_terminal()
        winners.append(state.outcome().winner)
    assert winners == [None, 1]


def test_force_level_reinforcements_enter_on_their_turn(index):
    """Assault 24.A-B: Soviet level 5 of the Meeting brings the 3rd motor-rifle battalion on turn 3 from the east
    edge; level 1 brings nothing."""
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options})
    counts = {}
    for level in (1, 5):
        pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                       "turn": 2, "phase": "us-move-2",
                                       "extension": {"force_levels": {"soviet": level, "us": 1}}})
        state = game.state_from_position(pos)
        before = len(state.counters)
        state.play("end")
        while state.phase_id() == "artillery":
            state.play("end")                    # plot and deploy steps, both players (Assault 19)
        assert (state.turn, state.phase_id()) == (3, "soviet-move-1")
        new = state.counters[before:]
        counts[level] = len(new)
        columns = {game.map.offset(c.hex)[0] for c in new}
        assert columns <= {max(game.map.offset(h)[0] for h in game.map.label_of)}
    assert counts == {1: 0, 5: 16}
