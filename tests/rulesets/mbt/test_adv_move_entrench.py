"""MBT Advanced Game Hasty Entrenchments (MBT 6.6.8, 6.1.4.3.6; example MA46) and Improved Positions (6.1.4.3.7),
through positions (scenario extension ``hasty_entrenchments`` / ``improved_positions``), play and the narration."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.adv_move_data import adv_move  # noqa: E402

A, B, D = clear_pair(3)
FAR = "4T13"


def _digger(card="us-mech-squad", hasty=None, command="NC", extra=(), **status):
    status = {"full_cover": True, "command": command, **status}
    g = opt_game(hasty_entrenchments={A: hasty} if hasty else {})
    units = [unit("L", card, "us", A, D, **status), *extra, unit("E", "t-80bv", "sov", FAR, 5)]
    return opt_state(g, units, phase="air-2", to_act=None)


def _side(st) -> int:
    return st.hasty.get(st.game.map.hex(A), 0)


def test_turns_from_the_text():
    # MBT 6.6.8 (MA46): 4 turns, engineers 2, engineers complete a started counter in 1; GP -10 (6.5.4.3)
    v = adv_move(opt_game()).val
    assert (v["hasty-turns"], v["hasty-turns-engineer"], v["hasty-finish-engineer"], v["hasty-gp"]) == (4, 2, 1, -10)


def test_construction_advances_in_the_adjust_full_cover_step():
    st = _digger()
    assert st.phase_id() == "adjustment" and _side(st) == 1
    g = opt_game()  # narrated when the step comes in play: a vehicle ends the Movement Phase first
    units = [unit("L", "us-mech-squad", "us", A, D, full_cover=True, command="NC"),
             unit("V", "m1", "us", "2A10", 0, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)]
    played = opt_state(g, units, phase="move-first", to_act="us")
    act(played, "move V")
    act(played, "done V")
    assert played.phase_id() == "adjustment" and _side(played) == 1
    assert any("L digs in at " + A + ": Hasty Entrenchment side 1" in e for e in played.events)
    for side, after in (("1", 2), ("2", 3), ("3", 4)):
        assert _side(_digger(hasty=side)) == after
    assert _side(_digger(hasty="hasty")) == 4  # complete: never removed, no further construction


def test_four_turns_of_construction_need_not_be_consecutive():
    # MBT 6.6.8: the counter keeps its side while nobody digs (here: the squad has a Move command)
    assert _side(_digger(hasty="2", command="MOVE")) == 2
    assert _side(_digger(hasty="2")) == 3


def test_engineers_build_in_two_turns_and_finish_a_started_one_in_one():
    assert _side(_digger(card="us-engineer-squad")) == 2  # counter placed on side 2 (MA46)
    assert _side(_digger(card="us-engineer-squad", hasty="2")) == 4
    assert _side(_digger(card="us-engineer-squad", hasty="1")) == 4  # an abandoned 1-3 counter: 1 turn


def test_no_construction_without_full_cover_nc_or_when_suppressed():
    assert _side(_digger(full_cover=False)) == 0
    assert _side(_digger(command="OW")) == 0
    assert _side(_digger(suppression="on")) == 0


def _gp_shot(hasty=None, improved=False, second=False):
    """An M1 fires HEAT-MP at the squad in Clear 3 hexes away: the net modifier and GP Defense narrated."""
    ext = {"hasty_entrenchments": {B: hasty}} if hasty else {}
    if improved:
        ext["improved_positions"] = [B]
    g = opt_game(**ext)
    units = [unit("S", "m1", "us", A, D, command="FIRE")]
    if second:
        units.append(unit("F", "sov-mr-squad", "sov", B, (D + 3) % 6))
    units.append(unit("L", "sov-mr-squad", "sov", B, (D + 3) % 6))
    st = opt_state(g, units, phase="direct-fire-first", to_act="us", dice=[50, 99, 99, 99])
    act(st, "fire S at L main:HEAT-MP")
    ev = [e for e in st.events if e.startswith("S fires")][-1]
    return int(re.search(r"roll \d+([+-]\d+) =", ev).group(1)), int(re.search(r"GPD (\d+)", ev).group(1))


def test_gp_fire_at_an_entrenched_unit_is_minus_10():
    plain_net, plain_gpd = _gp_shot()
    net, gpd = _gp_shot(hasty="hasty")
    assert net == plain_net - 10 and gpd == plain_gpd
    assert _gp_shot(hasty="3")[0] == plain_net  # not complete yet: no effect


def test_the_entrenchment_holds_one_unit():
    # MBT 6.1.4.3.6: large enough for a single unit, the first of its hex here (ENGINE_POLICIES)
    plain_net, _ = _gp_shot(second=True)
    assert _gp_shot(hasty="hasty", second=True)[0] == plain_net


def test_an_improved_position_is_heavy_cover_for_gp_fire_and_spotting():
    # MBT 6.1.4.3.7: Heavy Cover for combat and spotting
    _, plain_gpd = _gp_shot()
    _, gpd = _gp_shot(improved=True)
    st = opt_state(opt_game(improved_positions=[B]), [unit("L", "sov-mr-squad", "sov", B, 0),
                                                      unit("S", "m1", "us", A, D)], phase="spotting")
    heavy = st.game.units[0].type.ag.gpd_cover["heavy"]
    assert gpd == heavy and gpd > plain_gpd
    open_ = opt_state(opt_game(), [unit("L", "sov-mr-squad", "sov", B, 0), unit("S", "m1", "us", A, D)],
                      phase="spotting")
    assert st.ag_spot_range(0, 0, 0) < open_.ag_spot_range(0, 0, 0)
    assert st.ag_spot_range(0, 0, 0) == open_.ag_spot_range(0, 0, st.game.tables.cover_spot["heavy"])


def test_improved_positions_may_not_be_overrun():
    # MBT 6.1.4.3.7; the 6.6.10 overrun situation of the probes: a T-62MV in 2E4, a half-squad in Scrub 2F5
    units = [unit("V", "t-62mv", "sov", "2E4", 2, command="MOVE"), unit("T", "us-mech-half-squad", "us", "2F5", 2)]
    free = opt_state(opt_game(), units, to_act="sov")
    act(free, "move V")
    assert "overrun V T" in legal(free)
    held = opt_state(opt_game(improved_positions=["2F5"]), units, to_act="sov")
    act(held, "move V")
    assert "overrun V T" not in legal(held)


def test_unknown_counter_side_or_hex_refuses_the_scenario():
    import pytest
    from pydantic import ValidationError

    from studio.rulesets.mbt.engine.data import DataError

    from studio.rules.load import ScenarioRefused

    with pytest.raises((ValidationError, DataError, ScenarioRefused)):
        opt_game(hasty_entrenchments={"9Z99": "1"})


def test_a_position_sets_the_counters():
    from mbt_adv_fixtures import adv_state

    st = adv_state([unit("L", "us-mech-squad", "us", A, D), unit("E", "t-80bv", "sov", FAR, 5)],
                   hasty_entrenchments={A: "2", B: "hasty"})
    g = st.game
    assert st.hasty == {g.map.hex(A): 2, g.map.hex(B): 4}
    assert st.entrenched(0) is False and "he" in st.fingerprint()
    import pytest
    from studio.rules.position import PositionError

    with pytest.raises(PositionError):
        adv_state([unit("L", "us-mech-squad", "us", A, D)], hasty_entrenchments={A: "5"})


def _if_attack(**ext) -> tuple[int, int, object]:
    """The mortar's impact on a Motor Rifle squad in 4E1 (the indirect-fire fixtures): net modifier and GPD."""
    from mbt_arty_fixtures import act as arty_act, arty_state, if_units

    units = if_units("sov-mr-squad")
    st = arty_state(units, dice=[2, 50, 99, 99], position_ext=ext.pop("position_ext", None), **ext)
    arty_act(st, "call M by F at 4E1")
    ev = [e for e in st.events if e.startswith("IF at T ")][0]
    return int(re.search(r"roll \d+([+-]\d+) =", ev).group(1)), int(re.search(r"GPD (\d+)", ev).group(1)), st


def test_indirect_fire_at_an_entrenched_unit_is_minus_10():
    plain_net, plain_gpd, _ = _if_attack()
    net, gpd, _ = _if_attack(position_ext={"hasty_entrenchments": {"4E1": "hasty"}})
    assert net == plain_net - 10 and gpd == plain_gpd


def test_an_improved_position_is_heavy_cover_against_indirect_fire():
    _, plain_gpd, st = _if_attack()
    _, gpd, _ = _if_attack(improved_positions=["4E1"])
    t = st.game.uindex["T"]
    assert plain_gpd == st.game.units[t].type.ag.gpd_cover["none"]  # no overhead protection in the open
    assert gpd == st.game.units[t].type.ag.gpd_cover["heavy"] > plain_gpd


def test_a_vehicle_in_an_improved_position_is_a_heavy_cover_gp_target():
    def shot(**ext):
        g = opt_game(**ext)
        units = [unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "bmp-2", "sov", B, (D + 3) % 6)]
        st = opt_state(g, units, phase="direct-fire-first", to_act="us", dice=[50, 99, 99, 99])
        act(st, "fire S at T main:HEAT-MP")
        ev = [e for e in st.events if e.startswith("S fires")][-1]
        return int(re.search(r"roll \d+([+-]\d+) =", ev).group(1))

    g = opt_game()
    assert shot(improved_positions=[B]) == shot() + g.ag.gp_mod["target-cover-heavy"]


def test_a_vehicle_first_in_the_hex_does_not_take_the_hasty_entrenchment():
    # the Hasty Entrenchment holds a leg or towed unit: the squad behind a vehicle in unit order still has it
    g = opt_game(hasty_entrenchments={B: "hasty"})
    units = [unit("S", "m1", "us", A, D, command="FIRE"), unit("V", "bmp-2", "sov", B, 0),
             unit("L", "sov-mr-squad", "sov", B, (D + 3) % 6)]
    st = opt_state(g, units, phase="direct-fire-first", to_act="us")
    assert st.entrenched(2) and not st.entrenched(1)
