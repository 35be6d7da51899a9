"""MBT Advanced Game suppression (MBT 5.10, 6.1.3.1, 6.6.2, 6.8.4), positions and the state contract of the
Advanced state (fingerprint complete, observation private, clone independent)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, clear_pair, unit  # noqa: E402

from studio.rules.position import PositionError, position_state  # noqa: E402


def _end_of_turn(units, dice):
    """A position in the First Player's movement whose last move is played: the 2nd Air Phase and the
    Advanced Adjustment follow, with ``dice`` forced (the set-up itself rolls nothing)."""
    st = adv_state(units + [unit("m", "m1", "us", "2A13", 0, command="MOVE"), unit("t", "t-80bv", "sov", "2P13", 0)],
                   phase="move-first", to_act="us", dice=dice, grades={"us": "regulars", "sov": "regulars"})
    act(st, "move m")
    act(st, "done m")
    return st


@pytest.mark.parametrize("command, roll, recovers", [("NC", 50, True), ("NC", 51, False), ("OW", 30, True),
                                                     ("OW", 31, False)])
def test_recovery_regulars_01_50_plus_20_for_a_command(command, roll, recovers):
    # MBT 6.8.4: Suppression/Off units roll (100); +20 with a command other than N/C; Regulars recover on 01-50
    st = _end_of_turn([unit("a", "m1", "us", "2A1", 0, command=command, suppression="off")], [roll])
    assert st.turn == 2 and st.sup[0] == (0 if recovers else 2)
    assert any("Suppression recovery" in e for e in st.events)


def test_recovery_attacked_this_turn_plus_10():
    # MBT 6.8.4: +10 when the unit was attacked by direct fire this turn (a roll of 41 + 10 misses 01-50)
    a, b, d = clear_pair(5)
    st = adv_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"),
                    unit("T", "m1", "us", b, (d + 3) % 6, suppression="off")], to_act="sov",
                   dice=[1, 100, 41], grades={"us": "regulars", "sov": "regulars"})
    act(st, "fire S at T main:APFSDS")
    assert st.turn == 2 and st.sup[1] == 2


def test_suppression_on_turns_off_without_a_roll():
    # MBT 6.8.4, 6.8.6: Suppression/On is not rolled for; it turns Off at the end of the phase
    st = _end_of_turn([unit("a", "m1", "us", "2A1", 0, suppression="on")], [1])
    assert st.turn == 2 and st.sup[0] == 2 and not any("Suppression recovery" in e for e in st.events)


def test_suppressed_shooter_minus_five():
    # MBT 6.5.2.5: Shooter Suppressed -5 to AP fire
    a, b, d = clear_pair(5)
    plain = adv_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, 0)], to_act="us")
    sup = adv_state([unit("S", "m1", "us", a, d, command="FIRE", suppression="off"),
                     unit("T", "t-80bv", "sov", b, 0)], to_act="us")
    row = plain.game.units[0].type.ap[0]
    assert sup.hit_modifiers(0, 1, row, False)[0] - plain.hit_modifiers(0, 1, row, False)[0] == -5


def test_suppressed_movement_halved():
    # MBT 6.6.2: Suppressed units move at 1/2 their allowance (M1: 8 cross-country -> 4)
    st = adv_state([unit("a", "m1", "us", "2A1", 3, command="MOVE", suppression="on"),
                    unit("t", "t-80bv", "sov", "2P13", 0)], phase="move-second", to_act="us")
    act(st, "move a")
    assert st.mv_left == 4


def test_suppressed_spotter_sees_only_its_front_60_degrees():
    # MBT 6.1.3.1: a suppressed unit spots only into its front 60 degrees, at -2
    a, b, d = clear_pair(5)
    facing_away = (d + 3) % 6
    seen = adv_state([unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0)], phase="spotting")
    away = adv_state([unit("S", "m1", "us", a, facing_away, suppression="on"), unit("T", "t-80bv", "sov", b, 0)],
                     phase="spotting")
    toward = adv_state([unit("S", "m1", "us", a, d, suppression="on"), unit("T", "t-80bv", "sov", b, 0)],
                       phase="spotting")
    assert seen.spots[0] == (1,) and away.spots[0] == () and toward.spots[0] == (1,)


def test_advanced_status_keys_refused_in_the_basic_game():
    # positions: Advanced statuses need an Advanced scenario; bad values name the key
    from mbt_adv_fixtures import index
    from studio.rulesets.mbt.engine.game import create_game
    basic = create_game(index().model("scenario", "meeting-engagement"), index())
    pos = {"scenario": "meeting-engagement", "phase": "command",
           "units": [{"id": "a", "card": "m1", "side": "us", "hex": "2A1", "status": {"suppression": "on"}}]}
    with pytest.raises(PositionError) as err:
        position_state(basic, pos)
    assert "Advanced Game status" in str(err.value)
    with pytest.raises(PositionError) as err:
        adv_state([unit("a", "m1", "us", "2A1", 0, suppression="sometimes")], phase="command")
    assert "suppression must be one of" in str(err.value)


def test_fixed_wing_cards_are_not_played():
    # the engine does not model fixed-wing aircraft yet: a position refuses them by name; helicopters play
    with pytest.raises(PositionError) as err:
        adv_state([unit("a", "a-10", "us", "2A1", 0)], phase="command")
    assert "fixed_wing" in str(err.value)
    assert adv_game(scenario="mbt-adv-air-strike").unmodelled == []


@pytest.mark.parametrize("scenario", ["mbt-adv-combined-arms", "mbt-adv-air-strike"])
def test_advanced_state_contract(scenario):
    # conformance: generic checks, complete fingerprint and private observations on states of a playout
    from studio.rules import conformance as C
    game = adv_game(scenario=scenario)
    C.check_clone_independence(game, seed=3, probes=3, depth=60)
    C.check_replay_determinism(game, seed=4)
    C.check_phase_ids(game, seed=5, steps=400)
    for state in C.sample_states(game, seed=6, count=3, spacing=40):
        C.check_fingerprint_complete(state)
        C.check_observation_private(state, 0)
        C.check_observation_private(state, 1)
