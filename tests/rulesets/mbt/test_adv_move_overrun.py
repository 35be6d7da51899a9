"""MBT Advanced Game Overrun combat (MBT 6.6.10), through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid import coords  # noqa: E402
from studio.model.maps import edge_key  # noqa: E402
from studio.rulesets.mbt.engine.codes import DEAD, ON  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import move_opt  # noqa: E402


def _line(codes: tuple):
    g = opt_game()
    for a in sorted(g.map.label_of):
        for d in range(6):
            hexes = [a]
            for _ in codes[1:]:
                hexes.append(coords.neighbour(hexes[-1], d))
            if all(h in g.map.label_of and g.map.terrain.get(h, "") == c and g.elev.get(h) == g.elev.get(a)
                   for h, c in zip(hexes, codes)) and \
                    all(g.features.get(edge_key(x, y)) is None and edge_key(x, y) not in g.roads
                        for x, y in zip(hexes, hexes[1:])):
                return [g.label(h) for h in hexes], d
    raise LookupError(codes)


# a Clear hex, the target's Scrub hex, and a Clear hex beyond it (the MBT 6.6.10 example: target in Scrub)
(START, SCRUB, BEYOND), D = _line(("C", "S", "C"))


def _overrun(dice, target="us-mech-half-squad", tank="t-62mv", grade="veteran", **status):
    g = opt_game(grades={"sov": grade, "us": "seasoned"})
    status.setdefault("command", "MOVE")
    units = [unit("V", tank, "sov", START, D, **status),
             unit("T", target, "us", SCRUB, D)]
    st = opt_state(g, units, to_act="sov", dice=dice)
    act(st, "move V")
    return st


def test_overrun_example_coax_and_overrun_plus_30_effective_eliminates_the_half_squad():
    # MBT 6.6.10 example: a Veteran T-62MV overruns a half-squad in Scrub: net +30 (Coax MG +10, Overrun +20;
    # the sample grade and sight cells added), GP 7 vs GPD 4 reads N 40 / S 71; an Effective result eliminates the
    # half-squad and the tank may stay or move on
    g = opt_game()
    assert move_opt(g).overrun == {"modifier": 20, "max-gp": 15} and g.ag.gp_crt[(7, 4)] == (40, 71)
    st = _overrun([99])
    assert "overrun V T" in legal(st)
    gpd = st.leg_gp_defense(1)
    extra = st.game.ag.grade_gp["veteran"]["P"] + st.game.ag.sight_gp["O"]["P"]
    act(st, "overrun V T")
    assert st.st[1] == DEAD and st.hex[0] == st.game.map.hex(SCRUB)
    line = next(e for e in st.events if "overruns" in e)
    assert f"GPD {gpd})" in line and f"99{30 + extra:+d}" in line and "eliminated" in line
    assert "done V" in legal(st)  # no opposing unit left: it may stay


def test_overrun_gp_sums_the_weapons_at_range_1_without_aa_and_caps_at_15():
    st = _overrun([99])
    g = st.game
    expected = sum(max(st.gp_factor(r, 1)[1] for r in g.units[0].type.ap if r.kind == "GP" and r.weapon == w)
                   for w in {r.weapon for r in g.units[0].type.ap if r.kind == "GP" and not r.aa})
    assert st.overrun_gp(0)[0] == min(15, expected)


def test_overrun_squad_reduced_and_suppressed_vehicle_goes_back_without_allowance():
    # MBT 6.6.10.2: Effective reduces a squad to its half-squad, Suppressed; with no allowance left and the target
    # still there, the vehicle goes back to the hex it entered from (6.6.10.1)
    st = _overrun([99], target="us-mech-squad")
    st.mv_left = st.step_cost(0, st.game.map.hex(START), st.game.map.hex(SCRUB))
    act(st, "overrun V T")
    assert st.red[1] and st.sup[1] and st.st[1] == ON
    assert "fwd V" not in legal(st)
    while "done V" not in legal(st):
        act(st, legal(st)[0])  # free pivots only
    act(st, "done V")
    assert st.hex[0] == st.game.map.hex(START)


def test_overrun_no_effect_and_suppression_off_turns_on():
    # MBT 6.6.10.2: a Suppression/Off target is Suppressed regardless of the outcome
    st = _overrun([1])
    st.sup[1] = 2  # Suppression/Off
    act(st, "overrun V T")
    assert st.st[1] == ON and st.sup[1] == 1


def test_overrun_needs_a_move_command_and_one_target_per_turn():
    # MBT 6.6.10: Short Halt vehicles may not overrun; one overrun per vehicle
    sh = _overrun([99], command="SH")
    assert "overrun V T" not in legal(sh)
    st = _overrun([1])
    act(st, "overrun V T")
    assert not st.overrun_targets(0)


def test_no_overwatch_during_the_overrun():
    # MBT 6.6.10: Overwatch may fire before the vehicle enters the target's hex or after it leaves, not during
    st = _overrun([1])
    act(st, "overrun V T")
    assert st.ow_side == -1 or not st._ow_active()


def test_ma30_overrun_gp_capped_at_15():
    # MA30 (MBT 6.6.10.1): weapons at range 1 plus passenger squads' GP above 15 read the 15 column
    st = _overrun([1])
    move_opt(st.game).overrun["max-gp"] = 10  # a lower cap on this game copy shows the cap is applied
    assert st.overrun_gp(0)[0] == 10


def test_ma33_suppressed_result_on_a_suppressed_target_is_ignored():
    # MA33 (MBT 6.6.10.2): a Suppressed result on an already Suppressed target changes nothing
    st = _overrun([1])
    g = st.game
    f, row = st.overrun_gp(0)
    gpd = st.leg_gp_defense(1)
    n_eff, s_eff = g.ag.gp_crt[(min(15, f), gpd)]
    st.sup[1] = 1
    net = move_opt(g).overrun["modifier"] + st.gp_modifiers(0, 1, row, "P", False)
    if not row.coax and any(r.coax and r.kind == "GP" for r in g.units[0].type.ap):
        net += g.ag.gp_mod["coax-pointblank"]
    st.dice.force(max(1, n_eff + 1 - net))
    act(st, "overrun V T")
    assert st.sup[1] == 1 and st.st[1] == ON and "Suppressed" in next(e for e in st.events if "overruns" in e)
