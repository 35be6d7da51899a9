"""MBT Optional Rule 7.31, Mines and Minefields, through positions, legal actions, play and observations."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.codes import CARRIED, DEAD, ON  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import CardMove, move_opt  # noqa: E402

A, FAR, D = clear_pair(6)


def _next(label: str, k: int = 1) -> str:
    g = opt_game()
    h = g.map.hex(label)
    for _ in range(k):
        h = neighbour(h, D)
    return g.label(h)


M1 = _next(A)          # the hex entered first
M2 = _next(A, 2)
ENEMY = "4T13"


def _field(field="deliberate", mines="av", side="sov", hexes=(M1,), visible=False, **kw):
    return {"side": side, "hexes": list(hexes), "field": field, "mines": mines, "visible": visible, **kw}


def _mover(card="m113", fields=(), rules=("mines",), dice=(), options=None, **status):
    g = opt_game(rules, options=options, minefields=[_field(**f) for f in fields] or [_field()])
    units = [unit("V", card, "us", A, D, command="MOVE", **status), unit("E", "t-80bv", "sov", ENEMY, 5)]
    st = opt_state(g, units, dice=dice)
    act(st, "move V")
    return st


def test_minefield_effects_known_cells_exact():
    # MBT 7.31.2.1 (Hasty, GPD 5: 01-10 Damage, 11-50 TK), 7.31.2.3 (Deliberate, column 3: 01-40, 41-70),
    # 7.31.2.2 (Deliberate, Leg & Towed: 01-70 Effective), 7.31.3 (GPD Hasty 3, FASCAM 4, Deliberate 6)
    mo = move_opt(opt_game())
    assert mo.mine_effects[("hasty", "5")][:2] == (10, 50)
    assert mo.mine_effects[("deliberate", "3")][:2] == (40, 70)
    assert mo.mine_effects[("deliberate", "leg")][2] == 70
    assert [mo.mine_values[k] for k in ("hasty-gpd", "fascam-gpd", "deliberate-gpd", "plow-gp")] == [3, 4, 6, 12]


def test_deliberate_av_field_column_3_damage_track_none():
    # MBT 7.31.2.1/7.31.2.3: an M113 (GPD 3) enters a Deliberate AV field: 01-40 Hull Damaged, 41-70 TK, 71+ none;
    # the non-moving player rolls
    hull = act(_mover(dice=[40]), "fwd V")
    assert hull.dmg[0] and not hull.track[0] and hull.hex[0] == hull.game.map.hex(M1)
    assert any("minefield" in e and "sov rolls 40" in e and "Hull Damaged" in e for e in hull.events)
    track = act(_mover(dice=[41, 99]), "fwd V")
    assert track.track[0] and not track.dmg[0]
    assert legal(track) == ["done V"]  # a Track hit stops the vehicle (MBT 6.5.2.2.1)
    none = act(_mover(dice=[71]), "fwd V")
    assert not none.dmg[0] and not none.track[0]


def test_hull_damage_halves_the_rest_of_the_move_and_a_second_knocks_out():
    st = _mover(dice=[40])
    left = st.mv_left
    act(st, "fwd V")
    cost = st.game.cost[st.game.map.hex(M1)]["t"]
    assert st.mv_left == int((left - int(cost)) * st.game.tables.damaged_fraction)
    ko = _mover(dice=[1], damaged=True)
    act(ko, "fwd V")
    assert ko.st[0] == DEAD


def test_rule_off_no_attack():
    # the switch: the same plot with the optional rule off attacks nobody
    st = _mover(rules=(), dice=[1])
    act(st, "fwd V")
    assert not st.dmg[0] and not st.track[0] and not any("minefield" in e for e in st.events)


def test_own_minefields_do_not_attack_fascam_attacks_both():
    # MBT 7.31.2: friendly units pass their own (hidden or visible) fields; FASCAM attacks either force
    own = act(_mover(fields=[dict(side="us")], dice=[1]), "fwd V")
    assert not own.dmg[0]
    g = opt_game(("mines",))
    st = opt_state(g, [unit("V", "m113", "us", A, D, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   dice=[1])
    assert st.lay_fascam([g.map.hex(M1)], 0) == [g.map.hex(M1)]  # laid by the US itself
    act(st, "move V")
    act(st, "fwd V")
    assert st.dmg[0]


def test_vehicle_in_an_ap_only_field_is_not_attacked_nor_announced():
    # MBT 7.31.2: no announcement when a vehicle enters an AP field
    st = act(_mover(fields=[dict(mines="ap")], dice=[1]), "fwd V")
    assert not st.dmg[0] and not st.mines[0].known


def test_moving_within_the_hex_attacks_again_pivots_by_option():
    # MBT 7.31.2: units that move within a minefield hex are attacked again; option mines-pivot (pivots)
    free = act(act(_mover(dice=[80, 1]), "fwd V"), "turn V left")
    assert not free.dmg[0]
    again = act(act(_mover(dice=[80, 1], options={"mines-pivot": "attacks"}), "fwd V"), "turn V left")
    assert again.dmg[0]


def _leg(dice, fields=None, quickmarch=False, card="us-mech-squad"):
    g = opt_game(("mines",), minefields=[_field(**(fields or dict(mines="ap")))])
    st = opt_state(g, [unit("L", card, "us", A, D, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   dice=dice)
    act(st, "move L")
    if quickmarch:
        act(st, "quickmarch L")
    act(st, "fwd L")
    return st


def test_ap_field_deliberate_leg_effective_01_70():
    # MBT 7.31.2.2: a leg unit enters a Deliberate AP field: 01-70 Effective (a squad is reduced to its
    # half-squad and Suppressed), 71+ no effect; a half-squad is eliminated
    hit = _leg([70])
    assert hit.red[0] and hit.sup[0] and hit.st[0] == ON
    miss = _leg([71])
    assert not miss.red[0] and not miss.sup[0]
    half = _leg([5], card="us-mech-half-squad")
    assert half.st[0] == DEAD


def test_quickmarch_into_an_ap_field_minus_20():
    # MBT 7.31.2.2: quickmarching into an AP field applies -20 (90 - 20 = 70: Effective)
    assert _leg([90, 99], quickmarch=True).red[0]
    assert not _leg([90, 99]).red[0]


def test_av_field_ignores_leg_units():
    assert not _leg([1], fields=dict(mines="av")).red[0]


def test_dismounting_into_an_ap_field_is_attacked():
    # MBT 7.31.2.2: transported leg units dismounting into an AP field are attacked at once
    g = opt_game(("mines",), minefields=[_field(mines="ap", hexes=(A,))])
    units = [unit("C", "m113", "us", A, D, command="MOVE"), unit("P", "us-mech-squad", "us", A, D, carried_by="C"),
             unit("E", "t-80bv", "sov", ENEMY, 5)]
    st = opt_state(g, units, dice=[10])
    act(st, "move C")
    act(st, "dismount C P")
    assert st.st[1] == ON and st.red[1]
    mount = opt_state(g, [unit("C", "m113", "us", A, D), unit("P", "us-mech-squad", "us", A, D, command="MOVE"),
                          unit("E", "t-80bv", "sov", ENEMY, 5)], dice=[1])
    act(mount, "move P")
    act(mount, "mount P C")
    assert mount.st[1] == CARRIED and not mount.red[1]


def test_hidden_minefield_not_in_the_enemys_observation_until_discovered():
    # MBT 7.31.1: hidden plots are kept from the opposing side; a mine attack discovers the hex
    g = opt_game(("mines",), minefields=[_field(hexes=(M1, M2))])
    st = opt_state(g, [unit("V", "m113", "us", A, D, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   dice=[99])
    us = st.observation(0).materialize()
    assert us.mines == [] and st.scramble_hidden(0, 3).mines == []
    assert st.observation(1).materialize().mines[0].field.hexes == {g.map.hex(M1), g.map.hex(M2)}
    act(st, "move V")
    act(st, "fwd V")
    seen = st.observation(0).materialize().mines
    assert [set(ms.field.hexes) for ms in seen] == [{g.map.hex(M1)}]
    assert st.mine_hexes_known(0) == {g.map.hex(M1)}
    # the view's look-ahead does not meet the undiscovered hex: a clone of it moves on without a mine roll
    view = st.observation(0).materialize().clone()
    view.dice.record = True
    act(view, "fwd V")
    assert view.hex[0] == g.map.hex(M2) and not any("minefield" in e for e in view.events)


def test_visible_minefield_is_known_to_the_enemy():
    g = opt_game(("mines",), minefields=[_field(visible=True)])
    st = opt_state(g, [unit("V", "m113", "us", A, D), unit("E", "t-80bv", "sov", ENEMY, 5)])
    assert st.mine_hexes_known(0) == {g.map.hex(M1)}


def test_clearing_a_visible_hex_needs_one_effective_result():
    # MBT 7.31.3: GP attacks on visible minefield hexes (GPD Hasty 3); one Effective clears; hidden hexes are not
    # attacked (7.31.3 "only visible minefield hexes")
    g = opt_game(("mines",), minefields=[_field(field="hasty", visible=True), _field(hexes=(M2,))])
    st = opt_state(g, [unit("V", "m113", "us", A, D), unit("E", "t-80bv", "sov", ENEMY, 5)])
    n_eff, s_eff = g.ag.gp_crt[(8, 3)]
    st.dice.force(s_eff)
    assert not st.attack_minefield(g.map.hex(M1), 8, "IF")  # Suppressed is not enough
    st.dice.force(s_eff + 1)
    assert st.attack_minefield(g.map.hex(M1), 8, "IF")
    assert g.map.hex(M1) in st.mines[0].gone
    assert not st.attack_minefield(g.map.hex(M2), 15, "IF")  # hidden: not attacked
    assert g.map.hex(M2) not in st.mines[1].gone and st.mine_hexes_known(0) == set()


def test_mine_plow_clears_and_is_never_attacked_by_av_mines():
    # MBT 7.31.3.4: a plow vehicle attacks a visible hex it enters (12 GP, no modifiers), is not attacked by AV
    # mines; after clearing, 01-20 loses the plow
    g = opt_game(("mines",), minefields=[_field(field="hasty", visible=True)])
    move_opt(g).cards["m113"] = CardMove(plow=True)  # this game's M113 carries a plow
    st = opt_state(g, [unit("V", "m113", "us", A, D, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    s_eff = g.ag.gp_crt[(12, 3)][1]
    st.dice.force(s_eff + 1, 20)
    act(st, "move V")
    act(st, "fwd V")
    assert g.map.hex(M1) in st.mines[0].gone and st.plow[0] == 2 and not st.dmg[0]


def test_position_extension_minefields_replace_the_scenarios():
    # positions (studio.rules.position) may plot minefields; bad plots are a position error with the pointer
    import pytest

    from studio.rules.position import PositionError, position_state

    g = opt_game(("mines",))
    pos = {"scenario": g.scenario_id, "phase": "move-first", "to_act": "us", "dice": [1],
           "units": [unit("V", "m113", "us", A, D, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)],
           "extension": {"minefields": [_field()]}}
    st = position_state(g, pos)
    act(act(st, "move V"), "fwd V")
    assert st.dmg[0]
    bad = dict(pos, extension={"minefields": [_field(hexes=("9Z99",))]})
    with pytest.raises(PositionError) as err:
        position_state(g, bad)
    assert "9Z99" in str(err.value) or "minefields" in str(err.value)


def test_ma105_plots_contiguous_and_never_in_forbidden_terrain():
    # MA105 (MBT 7.31.1.1): a legal plot is contiguous (like 1BB8, 1BB9, 1CC7, 1CC8) and holds no building, alley,
    # gully, ford, shellhole or water hex; FASCAM may lie in alleys, gullies and shellholes (7.31.1.2)
    import pytest

    from studio.rules.load import ScenarioRefused
    from studio.rulesets.mbt.engine.opt_move_data import plot_problem

    g = opt_game()
    mo = move_opt(g)
    assert mo.mine_forbidden == {"T": True, "G": True, "SH": True, "L": False}
    four = [g.map.hex(x) for x in (A, M1, M2)] + [neighbour(g.map.hex(M2), (D + 1) % 6)]
    assert plot_problem(g, frozenset(four), mo.mine_forbidden) == ""
    gap = frozenset({g.map.hex(A), g.map.hex(M2)})
    assert "contiguous" in plot_problem(g, gap, mo.mine_forbidden)
    town = next(h for h in sorted(g.map.label_of) if g.map.terrain.get(h) == "T")
    assert "T terrain" in plot_problem(g, frozenset({town}), mo.mine_forbidden)
    with pytest.raises(ScenarioRefused) as err:
        opt_game(("mines",), minefields=[_field(hexes=(g.label(town),))])
    assert "minefield plot is illegal" in str(err.value)
    st = opt_state(opt_game(("mines",)), [unit("E", "t-80bv", "sov", ENEMY, 5)], to_act=None)
    assert st.lay_fascam([town], 0) == [town]  # FASCAM lies in the alleys


def _landed(dice):
    g = opt_game(("mines",), minefields=[_field(side="us", hexes=(M1,))])
    st = opt_state(g, [unit("H", "mi-24", "sov", M1, 0), unit("E", "m1", "us", ENEMY, 2)], to_act=None, dice=dice)
    st.heli_alt[0] = "landed"
    st.mine_attack(0)
    return st


def test_landed_helicopter_column_3_damage_and_grounding_track():
    # MBT 7.31.2.3: a landed helicopter of GPD 4 (read as 3) in a Deliberate AV field: 01-40 Damage, 41-70 TK
    # (it may no longer fly), 71+ no effect
    assert _landed([40]).dmg[0]
    grounded = _landed([70])
    assert grounded.track[0] and not grounded.dmg[0]
    assert all(a[3] == "land" for a in grounded._heli_flights(0))
    clean = _landed([71])
    assert not clean.dmg[0] and not clean.track[0]
