"""MBT running and planned indirect-fire missions (MBT 6.5.1.8-6.5.1.11): continuous, adjusted and checked fire,
automatic checks, Danger Close next turn, Planned Fire plots; through positions and play."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import (FAR, TARGET, act, arty_game, arty_state, calls, events, if_units,  # noqa: E402
                               to_next_indirect_step, unit)

from studio.rules.load import ScenarioRefused  # noqa: E402

ELITE = {"us": "elite", "sov": "regulars"}   # enough Available Commands for the mortar's FIRE and the FO's OW
BAT = "m109-battery-1"


def _running(extra=(), dice=(2, 50), fo_cmd="OW", **kw):
    """Turn 1: the FO at FAR calls the mortar on the T-80BV at 4E1; turn 2's Indirect Fire Step."""
    st = arty_state(if_units(fo_hex=FAR, extra=extra), dice=list(dice) + [5] * 300, grades=ELITE, **kw)
    act(st, "call M by F at 4E1")
    return to_next_indirect_step(st, {"M": "FIRE", "F": fo_cmd})


def test_continue_adjust_or_check_next_turn():
    # MBT 6.5.1.8-9: next turn the running mission may continue, be adjusted onto a spotted target or checked;
    # the observer may call nothing else before it is checked
    st = _running()
    assert st.phase_id() == "indirect-fire" and st.turn == 2
    assert calls(st) == ["continue F", "adjust F at 4E1", "check F", "pass"]


def test_continuous_fire_rolls_no_response():
    # MBT 6.5.1.8.1: same Target Point and SHEAF, no Fire Response roll
    st = _running()
    st.events.clear()
    act(st, "continue F")
    assert not events(st, "F calls") and events(st, "F continues its fire mission at 4E1") and events(st, "IF at T")
    (m,) = st.arty.missions
    assert m.turns == 2


def test_adjust_up_to_three_hexes_rerolls_with_plus_one():
    # MBT 6.5.1.8.2 (M143): adjusting 3 hexes onto a spotted target is legal, 4 is not; every source rolls its
    # response again with +1 (Elite observer +2 too)
    extra = [unit("N", "t-80bv", "sov", "4E4", 5), unit("Q", "t-80bv", "sov", "4E5", 5)]
    st = _running(extra=extra)
    got = calls(st)
    assert "adjust F at 4E4" in got and "adjust F at 4E5" not in got
    st.events.clear()
    act(st, "adjust F at 4E4")
    assert any(e.startswith("F calls M on 4E4: response roll") and "+3 vs 2" in e for e in st.events), st.events


def test_check_keeps_observer_and_firers_out_this_turn():
    # MBT 6.5.1.9: a checked mission is not resolved; its observer and firers join no other IF this turn
    st = _running()
    act(st, "check F")
    assert events(st, "F's fire mission at 4E1 checks (checked by its player)")
    assert st.arty.missions == () and not any(a.startswith("call ") for a in calls(st))


def test_observer_off_overwatch_checks_automatically():
    # MBT 6.5.1.9 (M211): the observer of a running mission gets another command: the mission checks
    st = _running(fo_cmd="MOVE")
    assert any("checks (observer not on Overwatch)" in e for e in st.events), st.events
    assert st.arty.missions == ()


def test_danger_close_mission_checks_next_turn():
    # MBT 6.5.1.10: a call within 5 hexes of a spotted friendly unit is Danger Close; next turn it checks
    st = _running(extra=[unit("A", "m1", "us", "4H1", 5)])
    assert any("checks (Danger Close)" in e for e in st.events), st.events


PLOT = [{"side": "us", "battery": "m109-battery", "turn": 2,
         "segments": [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 2},
                      {"mission": "smoke", "sheaf": "open", "hex": TARGET, "turns": 1}]}]


def _planned(turn=1, dice=(), **kw):
    units = if_units(fo_hex=FAR)
    return arty_state(units, dice=list(dice) + [5] * 300, turn=turn, grades=ELITE, planned_fire=PLOT, **kw)


def test_planned_fire_announced_a_turn_early_needs_no_response():
    # MBT 6.5.1.11.2: announced one turn early; no observer, no response roll, band M (6.5.1.13)
    st = _planned(turn=1)
    assert f"planned {BAT}@2" in calls(st)
    act(st, f"planned {BAT}@2")
    assert events(st, f"planned fire of {BAT} arrives at 4E1 (turn 1 of 3)")
    assert not events(st, "F calls") and events(st, "IF at T")
    assert not any(a.startswith(f"call {BAT}") for a in calls(st))  # busy with its plot


def test_planned_fire_runs_its_plot_then_rests_a_turn():
    # MBT 6.5.1.11.1: GP Closed 2 turns, then smoke Open 1 turn; then unavailable the next turn
    st = _planned(turn=2)
    act(st, f"planned {BAT}@2")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert events(st, f"planned fire of {BAT} arrives at 4E1 (turn 2 of 3)")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert events(st, f"planned fire of {BAT} arrives at 4E1 (turn 3 of 3)")
    assert st.arty.clouds and st.arty.clouds[-1].sheaf == "open"
    assert not any(a.startswith(f"call {BAT}") for a in calls(st))
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert st.turn == 5 and not any(a.startswith(f"call {BAT}") for a in calls(st))  # the rest turn
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert any(a.startswith(f"call {BAT}") for a in calls(st))


def test_planned_fire_not_announced_arrives_a_turn_late():
    # MBT 6.5.1.11.2: at the latest one turn after its plotted turn
    st = _planned(turn=3)
    assert st.arty.plans == (3,) and st.bat_fired[0]


@pytest.mark.parametrize("segments, why", [
    ([{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 4},
      {"mission": "smoke", "sheaf": "open", "hex": TARGET, "turns": 2}], "6 turns"),
    ([{"mission": "CLGP", "sheaf": "closed", "hex": TARGET, "turns": 1}], "CLGP in a closed SHEAF"),
    ([{"mission": "ICM", "sheaf": "closed", "hex": TARGET, "turns": 1}], "ICM in a closed SHEAF")])
def test_m146_invalid_plots_refuse_the_scenario(segments, why):
    # M146, M147 (MBT 6.5.1.11.1, 6.5.1.6): a 6-turn plot, a planned CLGP, ICM outside an Open SHEAF
    with pytest.raises(ScenarioRefused, match=why):
        arty_game(planned_fire=[{"side": "us", "battery": "m109-battery", "turn": 2, "segments": segments}])


def test_m145_five_turn_plot_is_valid():
    # M145: 'Turn 6, GP, Closed, 2 turns; Smoke, Open, 1 turn; GP, Open, 2 turns' = 5 turns
    segs = [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 2},
            {"mission": "smoke", "sheaf": "open", "hex": TARGET, "turns": 1},
            {"mission": "GP", "sheaf": "open", "hex": TARGET, "turns": 2}]
    from studio.rulesets.mbt.engine.if_data import if_data

    g = arty_game(planned_fire=[{"side": "us", "battery": "m109-battery", "turn": 6, "segments": segs}])
    (plan,) = if_data(g).plans
    assert plan.length == 5 and plan.segment_at(2).mission == "smoke" and plan.segment_at(5) is None
