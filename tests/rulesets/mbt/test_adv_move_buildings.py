"""MBT Advanced Game vehicle building movement (MBT 6.6.3; example MA35), through positions, legal actions, play
and the narration: 2I10 (Clear) -> 2I9 (a brick building, the scenario's default construction) along hexside 0,
2I9 -> 2I10 in reverse along hexside 3."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.adv_move_data import adv_move  # noqa: E402

OUT, IN = "2I10", "2I9"
FAR = "4T13"


def _drive(card="bmp-2", where=OUT, facing=0, dice=(), extra=(), side="sov"):
    foe = "us" if side == "sov" else "sov"
    units = [unit("V", card, side, where, facing, command="MOVE"), *extra,
             unit("E", "m1" if foe == "us" else "t-80bv", foe, FAR, 3)]
    st = adv_state(units, phase="move-first", to_act=side, dice=list(dice))
    act(st, "move V")
    return st


def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def test_table_cells_from_the_text():
    # MBT 6.6.3: Brick HIT# 01-65, Dmgd 66-00 (so TK 01-65); 5 x the GP Defense; roll (10) 4 or less Turret
    d = adv_move(_drive().game)
    assert d.into["brick"] == (65, 65)
    assert d.val["building-gpd-multiplier"] == 5 and d.val["building-turret-max"] == 4
    assert d.construction[_drive().game.map.hex(IN)] == "brick"


def test_ma35_bmp2_enters_a_brick_building_and_is_hull_damaged():
    # MA35: roll 22 + 5 x GPD within 01-65; second roll 77 in 66-00: Damaged; roll (10) 9: Hull Dmgd; it enters
    st = _drive(dice=[22, 77, 9])
    assert st.game.units[0].type.ag.gp_value == 1  # the BMP-2 (SM-4B) is GPD 1A: +5 (MBT 6.6.3)
    act(st, "fwd V")
    assert st.game.label(st.hex[0]) == IN
    assert st.dmg[0] and not st.tdmg[0] and not st.track[0]
    assert any(e.startswith(f"V enters the brick building at {IN}: roll 22+5 = 27 within 01-65; "
                            "77 Damaged; roll (10) 9: Hull Damaged") for e in st.events)


def test_turret_damage_on_four_or_less():
    st = _drive(dice=[22, 77, 4])
    act(st, "fwd V")
    assert st.tdmg[0] and not st.dmg[0]


def test_track_hit_entering_stays_outside():
    st = _drive(dice=[22, 65])
    act(st, "fwd V")
    assert st.game.label(st.hex[0]) == OUT and st.track[0]
    assert not [a for a in _legal(st) if a.split()[0] in ("fwd", "rev")]


def test_track_hit_leaving_stays_inside():
    st = _drive(where=IN, dice=[1, 1])
    act(st, "rev V")
    assert st.game.label(st.hex[0]) == IN and st.track[0]
    assert any(e.startswith(f"V exits the brick building at {IN}") for e in st.events)


def test_above_the_hit_range_no_damage():
    st = _drive(dice=[66])
    act(st, "fwd V")
    assert st.game.label(st.hex[0]) == IN and not (st.dmg[0] or st.tdmg[0] or st.track[0])
    assert any("no damage" in e for e in st.events)


def test_open_topped_and_reverse_entries_are_barred():
    # MBT 6.6.3: the M150 is open-topped; no vehicle reverses into a building
    open_top = _drive("m150", side="us")
    assert "fwd V" not in _legal(open_top)
    back = _drive(facing=3, dice=[99])
    assert "rev V" not in _legal(back)
    ahead = _drive(dice=[99])
    assert "fwd V" in _legal(ahead)


def test_a_carrier_without_under_armor_may_not_enter_with_passengers():
    squad = unit("P", "us-mech-squad", "us", OUT, 0, carried_by="V")
    loaded = _drive("m113", side="us", extra=[squad])
    assert "fwd V" not in _legal(loaded)
    empty = _drive("m113", side="us", dice=[99])
    assert "fwd V" in _legal(empty)
    ua = _drive("bmp-2", extra=[unit("P", "sov-mr-squad", "sov", OUT, 0, carried_by="V")], dice=[99])
    assert "fwd V" in _legal(ua)  # Under Armor passengers may ride in


def test_wheeled_vehicles_make_no_check():
    # the rule names tracked vehicles (ENGINE_POLICIES['building-entry'])
    st = _drive("brdm-2-at5")
    act(st, "fwd V")
    assert st.game.label(st.hex[0]) == IN and not any("building" in e for e in st.events)


def test_damaged_goes_in_only_with_the_allowance_left():
    # MBT 6.6.3: Damaged halves the allowance left at once (MBT 4.4.3.2.6, Q27). Back and forth in front of the
    # building (8 - 2 - 1 - 2 - 1 = 2 left) a Hull Damaged BMP-2 keeps 1, short of the building's 2: it stays
    # outside; with nothing spent yet it goes in
    st = _drive(dice=[22, 77, 9, 99])
    for verb in ("rev V", "fwd V", "rev V", "fwd V"):
        act(st, verb)
    assert st.game.label(st.hex[0]) == OUT and st.mv_left == 2
    act(st, "fwd V")
    assert st.dmg[0] and st.game.label(st.hex[0]) == OUT and st.mv_end
    first = _drive(dice=[22, 77, 9, 99])
    act(first, "fwd V")
    assert first.dmg[0] and first.game.label(first.hex[0]) == IN  # nothing spent: 8 halved to 4, enough


def test_exactly_the_allowance_left_is_enough():
    # after three Clear hexes (5 left) a Hull Damaged BMP-2 keeps 2, the building's cost: it goes in
    st = _drive(where="2I13", dice=[22, 77, 9, 99])
    for _ in range(3):
        act(st, "fwd V")
    assert st.mv_left == 5
    act(st, "fwd V")
    assert st.dmg[0] and st.game.label(st.hex[0]) == IN


def test_the_top_of_the_hit_range_is_a_hit():
    # 60 + 5 = 65, the last number of HIT# 01-65: damaged; 61 + 5 = 66: not
    top = _drive(dice=[60, 77, 9])
    act(top, "fwd V")
    assert top.dmg[0]
    above = _drive(dice=[61])
    act(above, "fwd V")
    assert not above.dmg[0] and not above.track[0]


def test_leg_units_walk_into_buildings_any_way():
    # the building rule is for vehicles: a squad steps into the building hex, also backwards
    st = adv_state([unit("L", "us-mech-squad", "us", OUT, 3, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 3)],
                   phase="move-first", to_act="us")
    act(st, "move L")
    assert "rev L" in _legal(st)


def test_the_scenarios_construction_picks_the_row():
    # a wood building (extension building_construction): HIT# 01-45 (placeholder): 41 + 5 = 46 is no damage there,
    # damage in the default brick
    from mbt_move_fixtures import opt_game, opt_state

    g = opt_game(building_construction={IN: "wood"})
    assert adv_move(g).construction[g.map.hex(IN)] == "wood"
    units = [unit("V", "bmp-2", "sov", OUT, 0, command="MOVE"), unit("E", "m1", "us", FAR, 3)]
    wood = opt_state(g, units, to_act="sov", dice=[41, 77, 9, 99])
    act(wood, "move V")
    act(wood, "fwd V")
    assert not wood.dmg[0]
    brick = _drive(dice=[41, 77, 9, 99])
    act(brick, "fwd V")
    assert brick.dmg[0]


def _rubbled(card, side="sov"):
    st = _drive(card, side=side)
    st.razed = frozenset({st.game.map.hex(IN)})  # the building destroyed (terrain_targets / engineers: razed)
    return st


def test_rubble_is_no_building_and_bars_wheels():
    # MBT 6.1.4.3.9: wheeled and half-tracked vehicles may not enter Rubble; a tracked one drives in unchecked
    assert "fwd V" not in _legal(_rubbled("brdm-2-at5"))
    st = _rubbled("bmp-2")
    act(st, "fwd V")
    assert st.game.label(st.hex[0]) == IN and not any("building" in e for e in st.events)
    assert "fwd V" in _legal(_rubbled("m150", side="us"))  # open-topped: no building any more
