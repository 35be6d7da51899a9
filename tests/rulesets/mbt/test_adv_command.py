"""MBT Advanced Game sequence of play, grades and command control (MBT 6.0-6.3) through positions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import ADV_PHASES, PHASES  # noqa: E402

#: hexes of board 2 in column A, far apart (more than 2 hexes: beyond every Command Range)
FAR = [f"2A{r}" for r in (1, 4, 7, 10, 13)] + [f"2D{r}" for r in (1, 4, 7, 10, 13)] + \
      [f"2G{r}" for r in (1, 4, 7, 10, 13)] + [f"2J{r}" for r in (1, 4, 7, 10, 13)] + \
      [f"2M{r}" for r in (1, 4, 7, 10, 13)] + [f"2P{r}" for r in (1, 4, 7, 10, 13)]


def _tanks(n, side="us", card="m1", hexes=FAR):
    return [unit(f"{side}{k}", card, side, hexes[k], 0) for k in range(n)]


def test_advanced_sequence_of_play():
    # MBT 6.0: the Advanced Game adds two Air Phases and the Indirect Fire Step; the Basic Game keeps its own
    assert [p.id for p in adv_game().phases] == [p.id for p in ADV_PHASES]
    assert [p.id for p in ADV_PHASES] == ["spotting", "command", "initiative", "air-1", "indirect-fire",
                                         "direct-fire-first", "direct-fire-second", "overwatch", "close-combat",
                                         "move-second", "move-first", "air-2", "adjustment"]
    from mbt_adv_fixtures import index
    from studio.rulesets.mbt.engine.game import create_game
    basic = create_game(index().model("scenario", "meeting-engagement"), index())
    assert basic.phases == PHASES and not basic.advanced


def test_air_phase_leads_to_direct_fire():
    # MBT 6.4, 6.5: after the 1st Air Phase and the Indirect Fire Step comes the First Player's Direct Fire
    units = [unit("S", "m1", "us", "2A1", 3, command="FIRE"), unit("T", "t-80bv", "sov", "2A6", 0)]
    for phase in ("air-1", "indirect-fire"):
        st = adv_state(units, phase=phase, to_act="us")
        assert st.phase_id() == "direct-fire-first" and st.current_player() == 0
        assert any(a[0] == "fire" for a in st.legal_actions())


@pytest.mark.parametrize("grades, winner", [({"us": "elite", "sov": "raw"}, 0), ({"us": "raw", "sov": "elite"}, 1)])
def test_initiative_force_grade_modifier(grades, winner):
    # MBT 6.3.2: Force Grade modifiers on the initiative roll: rolls 30 (US) and 90 (Soviet): Elite +40 vs Raw -60
    # makes 70 vs 30; the other way 90+40 vs 30-60
    units = [unit("S", "m1", "us", "2A1", 3, command="NC"), unit("T", "t-80bv", "sov", "2P13", 0)]
    st = adv_state(units, phase="command", dice=[30, 90], grades=grades,
                   options={"initiative-winner": "chooses"})
    act(st, "command T NC")
    assert st.phase_id() == "initiative" and st.current_player() == winner


@pytest.mark.parametrize("grade, n, commands", [("regulars", 7, 3), ("veteran", 12, 8), ("seasoned", 27, 16)])
def test_available_commands_examples(grade, n, commands):
    # MBT 6.2.1.1 examples: Regulars 7 units -> 3; Veteran 12 -> 7 (tens) + 1 (col 2) = 8; Seasoned 27 ->
    # 2 x 6 + 4 = 16
    hexes = [f"2{c}{r}" for c in "ACEGIKMOQS" for r in (1, 4, 7)][:n]
    st = adv_state(_tanks(n, hexes=hexes), phase="command", grades={"us": grade, "sov": grade})
    assert st.budget[0] == commands


def test_commands_run_out_then_only_nc():
    # MBT 6.2.1.1.2: each unique command counts; with none left (and no sharing in range) only N/C remains
    st = adv_state(_tanks(7), phase="command", grades={"us": "regulars", "sov": "regulars"})
    for k in range(3):
        assert "command us%d MOVE" % k in [str(a) for a in st.legal_actions()]
        act(st, f"command us{k} MOVE")
    assert [str(a) for a in st.legal_actions()] == ["command us3 NC"]


def test_nc_is_free():
    # MBT 6.2.1.1.2: NC is not a unique command
    st = adv_state(_tanks(7), phase="command", grades={"us": "regulars", "sov": "regulars"})
    act(st, "command us0 NC")
    assert st.budget[0] == 3


def test_units_in_command_range_share_one_counter():
    # MBT 6.2.1.1.2: units within Command Range of one another (Veteran: 1) share one unique command
    units = [unit("a", "m1", "us", "2A1", 0), unit("b", "m1", "us", "2A2", 0), unit("c", "m1", "us", "2A13", 0)]
    st = adv_state(units, phase="command", grades={"us": "veteran", "sov": "veteran"})
    before = st.budget[0]
    act(st, "command a MOVE")
    act(st, "command b MOVE")
    assert st.budget[0] == before - 1 and st.grp[0] == st.grp[1] == 0
    act(st, "command c MOVE")
    assert st.budget[0] == before - 2


@pytest.mark.parametrize("option, shared", [("no-spreading", False), ("same-hex", True)])
def test_command_range_zero(option, shared):
    # MBT 6.2.1.1 (Q23): Regulars' Command Range 0: no sharing, or sharing in the same hex (option)
    units = [unit("a", "m1", "us", "2A1", 0), unit("b", "m1", "us", "2A1", 0), unit("c", "m1", "us", "2G7", 0),
             unit("d", "m1", "us", "2M13", 0)]
    st = adv_state(units, phase="command", grades={"us": "regulars", "sov": "regulars"},
                   options={"command-range-zero": option})
    assert st.budget[0] == 2  # Regulars, 4 units (placeholder column 4)
    before = st.budget[0]
    act(st, "command a MOVE")
    act(st, "command b MOVE")
    assert st.budget[0] == before - (1 if shared else 2)


def test_recon_units_get_free_commands():
    # MBT 6.2.1.1.3: Recon units get a unique command that does not count (M3 CFV: Recon label)
    units = [unit("r", "m3", "us", "2A1", 0)] + _tanks(1)
    st = adv_state(units, phase="command", grades={"us": "regulars", "sov": "regulars"})
    before = st.budget[0]
    act(st, "command r MOVE")
    assert st.budget[0] == before


def test_observation_hides_enemy_shared_counters():
    # MBT 4.2.1, 6.2.1.1.2: which enemy commands are unique (counters, Available Commands left) stays hidden
    units = [unit("a", "m1", "us", "2A1", 0, command="MOVE"), unit("t", "t-80bv", "sov", "2P13", 0)]
    st = adv_state(units, phase="command")
    view = st.observation(1).materialize()
    assert view.grp[0] == -1 and view.budget[0] == -1 and view.cmd[0] == 0
    own = st.observation(0).materialize()
    assert own.grp[0] == 0 and own.budget[0] == st.budget[0]
