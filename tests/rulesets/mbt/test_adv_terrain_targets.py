"""MBT Advanced Game terrain targets (MBT 6.5.4.2.5, 6.5.4.4.3): non-small-arms GP direct fire, GP indirect fire
and bombs attack terrain with a GP Defense; two Effective results destroy it. The bridge of board 7 (7E3, GP
Defense 5 in the opt-everything scenario) and buildings with a GP Def in table terrain-effects, through
positions."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, opt_game, opt_state, unit  # noqa: E402

BRIDGE, BANK = "7E3", "7E4"  # the road bridge over the stream hexside 7E3-7E4 (board 7)


def _game():
    return opt_game(scenario="mbt-opt-everything")


def _s_eff(g, gp: int, gpd: int) -> int:
    fmax, dmax = g.ag.gp_max
    return g.ag.gp_crt[(min(fmax, gp), min(dmax, gpd))][1]


def _he_factor(st, s: int, t: int) -> int:
    from studio.hexgrid.coords import distance

    row = next(r for r in st.game.units[s].type.ap if r.key == "main:HE")
    return st.gp_factor(row, distance(st.hex[s], st.hex[t]))[1]


def _bridge_fire(dice, target="us-mech-squad", game=None):
    g = game or _game()
    units = [unit("T", "t-80bv", "sov", "7A3", 0, command="FIRE"), unit("Q", target, "us", BRIDGE, 3)]
    return opt_state(g, units, phase="direct-fire-first", to_act="sov", dice=dice)


def test_gp_direct_fire_at_a_unit_on_the_bridge_attacks_the_bridge_twice():
    # MBT 6.5.4.2.5, 6.5.4.4.3: non-small-arms GP fire at a unit in a terrain hex attacks the terrain (S-Type); an
    # Effective result rolls again; a second Effective destroys the bridge, its units eliminated without wrecks
    st = _bridge_fire([1])
    g = st.game
    s_eff = _s_eff(g, _he_factor(st, 0, 1), 5)
    st = _bridge_fire([1, 1, s_eff + 1, s_eff + 1])  # the ammo-limit roll (10), the squad's roll, the bridge's
    act(st, "fire T at Q main:HE")
    h = g.map.hex(BRIDGE)
    assert h in st.razed and st.st[1] != 1 and h not in st.wreck
    assert any("the bridge in 7E3 is destroyed" in e for e in st.events)
    assert any("(a second roll follows)" in e for e in st.events)


def test_one_effective_result_leaves_the_terrain():
    # MBT 6.5.4.4.3: the second roll at or under the S-Effect number: nothing happens
    st = _bridge_fire([1])
    s_eff = _s_eff(st.game, _he_factor(st, 0, 1), 5)
    for rolls in ([1, 1, s_eff + 1, s_eff], [1, 1, s_eff]):
        st = _bridge_fire(rolls)
        act(st, "fire T at Q main:HE")
        assert not st.razed and st.st[1] == 1


def test_small_arms_never_attack_terrain():
    # MBT 6.5.4.2.5: only non-small-arms GP fire destroys terrain
    st = _bridge_fire([1, 1, 100, 100])
    mg = next(r.key for r in st.game.units[0].type.ap if r.small_arms)
    act(st, f"fire T at Q {mg}")
    assert not st.razed and not any("vs terrain" in e or "the terrain in" in e for e in st.events)


def test_a_destroyed_bridge_is_no_longer_crossed():
    # MBT 6.5.4.4.3: a destroyed bridge can no longer be crossed by any unit (the bridge hexside 7E3-7E4)
    g = _game()
    units = [unit("V", "m1", "us", BANK, 0, command="MOVE"), unit("E", "t-80bv", "sov", "7A1", 3)]
    st = opt_state(g, units, phase="move-first", to_act="us")
    a, b = g.map.hex(BANK), g.map.hex(BRIDGE)
    assert st.step_cost(0, a, b) is not None
    assert dict(st.xc_steps(0)[a])[b] is not None
    st.destroy_terrain(b)
    assert st.step_cost(0, a, b) is None and st.step_cost(0, b, a) is None
    assert dict(st.xc_steps(0)[a])[b] is None  # the bots' step table agrees


def test_indirect_gp_fire_attacks_terrain_in_its_sheaf():
    # MBT 6.5.4.2.5: GP indirect fire attacks the terrain in its SHEAF (here a scenario GP Defense 4 on the Target
    # Point): the M109 battery's GP, after the unit's roll, two Effective results destroy it
    from mbt_arty_fixtures import TARGET, arty_state, if_units

    st = arty_state(if_units(), terrain_gpd={TARGET: 4})
    need = st.game.ag.if_response[("fo", "unattached")]
    st = arty_state(if_units(), dice=[need, 1, 100, 100], terrain_gpd={TARGET: 4})
    act(st, "call m109-battery-1 by F at 4E1")
    assert st.game.map.hex(TARGET) in st.razed and st.st[2] == 1  # not a bridge or building: the unit stays
    assert any("IF m109-battery-1 attacks the terrain in 4E1" in e for e in st.events)
    icm = arty_state(if_units(), dice=[need, 1, 1, 1, 1, 1, 1, 1, 100, 100], terrain_gpd={TARGET: 4})
    act(icm, "call m109-battery-1 by F at 4E1 ICM open")
    assert not icm.razed  # ICM is no GP mission against terrain


def _air(dice, terrain_gpd):
    g = opt_game(scenario="mbt-adv-air-strike", terrain_gpd=terrain_gpd)
    units = [unit("T", "t-80bv", "sov", "2B3", 0), unit("U0", "m1", "us", "4T14", 5)]
    return opt_state(g, units, phase="air-1", to_act="us", dice=dice, turn=3)


def test_iron_bombs_attack_terrain_in_their_pattern_cluster_bombs_do_not():
    # MBT 6.5.4.2.5, 6.7.3.3.4: iron bombs attack the terrain of their pattern; cluster bombs have no effect on it
    enter = ("sortie A-10A-1 slow medium", "arrive A-10A-1 2B1 S", "wing A-10A-1 ahead")
    st = _air([100, 100, 1], {"2B3": 4})  # the terrain first, then the tank
    for a in enter + ("attack A-10A-1 bomb T",):
        act(st, a)
    assert st.game.map.hex("2B3") in st.razed
    cluster = _air([1, 100, 100], {"2B3": 4})
    for a in enter:
        act(cluster, a)
    key = next(a[2] for a in cluster.legal_actions() if a[0] == "attack" and "cluster" in a[2])
    act(cluster, f"attack A-10A-1 {key} T")
    assert not cluster.razed


# ------------------------------------------------------------------ buildings (GP Def of table terrain-effects)

def _with_building_gpd(game, gpd):
    """A copy of ``game`` whose ruleset gives buildings (code T) the GP Def ``gpd`` in table terrain-effects."""
    rs = game.ruleset
    k = next(i for i, t in enumerate(rs.tables) if t.id == "terrain-effects")
    t = rs.tables[k]
    col = t.columns.index("gp_def")
    rows = [list(r[:col]) + [gpd] + list(r[col + 1:]) if r[0] == "T" else list(r) for r in t.rows]
    tables = list(rs.tables)
    tables[k] = t.model_copy(update={"rows": rows})
    twin = copy.copy(game)
    twin.ruleset = rs.model_copy(update={"tables": tables})
    twin.__dict__.pop("_terrain_gpd_col", None)
    return twin


def _in_town(game, target, dice):
    from mbt_adv_fixtures import adv_game

    base = adv_game()
    town = next(base.label(h) for h in sorted(base.building_hexes))
    units = [unit("T", "t-80bv", "sov", "4T14", 0, command="FIRE"), unit("Q", target, "us", town, 3),
             unit("R", "us-mech-squad", "us", town, 3)]
    return opt_state(game, units, phase="direct-fire-first", to_act="sov", dice=dice), town


def test_buildings_without_a_gp_def_are_not_attacked():
    # MBT 6.5.4.2.5: terrain without a GP Defense is not destroyed (the text gives no building GP Def: null)
    from mbt_adv_fixtures import adv_game
    from studio.rulesets.mbt.engine.terrain_targets import building_gpd

    g = adv_game()
    assert building_gpd(g) == {}
    st, town = _in_town(g, "us-mech-squad", [1, 100, 100])
    row = next(r for r in st.game.units[0].type.ap if r.key == "main:HE")
    st.gp_fire(0, 1, row, False)
    assert not st.razed


def test_a_destroyed_building_is_rubble_and_takes_its_units():
    # MBT 6.5.4.4.3: GP fire at a leg unit inside a building (GP Def 5 here) attacks it; two Effective results
    # make it rubble and eliminate every unit in the hex, no wrecks; a vehicle there is in the alleys: its
    # building is not attacked
    from mbt_adv_fixtures import adv_game

    g = _with_building_gpd(adv_game(), 5)
    st, town = _in_town(g, "us-mech-squad", [1, 100, 100])
    row = next(r for r in st.game.units[0].type.ap if r.key == "main:HE")
    st.gp_fire(0, 1, row, False)
    h = g.map.hex(town)
    assert h in st.razed and st.st[1] != 1 and st.st[2] != 1 and h not in st.wreck
    assert any(f"the building (now rubble) in {town} is destroyed" in e for e in st.events)
    alley, _ = _in_town(g, "m1", [1, 100, 100])
    alley.gp_fire(0, 1, row, False)
    assert not alley.razed
