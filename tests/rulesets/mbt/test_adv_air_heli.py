"""MBT Advanced Game helicopter altitudes (MBT 6.7.5-6.7.8): Low altitude, pop-up attacks, rocket height, AA
tracking and modifiers, crashes; examples MA57, MA61, MA65, MA67, through positions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio.hexgrid.coords import distance

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402


def _state(units, dice=(), options=None):
    return adv_state(list(units), phase="air-1", to_act="us", dice=dice, options=options)


def _row(st, i, weapon):
    return next(r for r in st.game.units[i].type.ap if r.weapon == weapon)


def _label(st, h):
    return st.game.label(h)


def test_ma57_noe_height_over_scrub_and_woods():
    # MA57: NOE is two Heights above the highest terrain in the hex: Scrub 2, Woods 5
    g = _state([unit("H", "ah-1s", "us", "2A1", 2)]).game
    scrub = next(h for h in sorted(g.hexes) if g.map.terrain.get(h) == "S" and g.elev.get(h, 0) == 0)
    woods = next(h for h in sorted(g.hexes) if g.map.terrain.get(h) == "W" and g.elev.get(h, 0) == 0)
    for h, height in ((scrub, 2), (woods, 5)):
        st = _state([unit("H", "ah-1s", "us", g.label(h), 2)])
        assert st.heli_height(0) == height


def test_low_altitude_flight_uses_the_low_allowance_and_is_announced():
    # MBT 6.7.5.1: altitude announced for the Air Phase; AH-1S Low 24 (placeholder card) / NOE 10
    st = _state([unit("H", "ah-1s", "us", "2A1", 2), unit("T", "t-80bv", "sov", "4T14", 0)])
    act(st, "fly H 2K1 low")
    assert st.heli_alt[0] == "low" and distance(st.game.map.hex("2A1"), st.hex[0]) == 10


def _pair_hidden_from_the_ground(g, rng=(4, 8)):
    """A helicopter hex and a target hex in spotting range whose ground LOS is blocked but whose aircraft LOS at
    Low is clear (the pop-up case of MBT 6.7.6.1.5)."""
    from studio.rulesets.mbt.engine.fixed_wing import FixedWingRules

    st = _state([unit("H", "ah-1s", "us", "2A1", 2)])
    clear = [h for h in sorted(g.hexes) if g.map.terrain.get(h) == "C" and g.los.terrain_top.get(h, 0) == 0]
    for a in clear:
        for b in clear:
            if rng[0] <= distance(a, b) <= rng[1] and not g.los.clear(a, b) and \
                    FixedWingRules.air_los(st, "low", b):
                return g.label(a), g.label(b)
    raise LookupError("no pair")


def test_pop_up_attack_spots_at_low_and_returns_to_noe():
    # MBT 6.7.5.1.2, 6.7.6.1.5: hovering at NOE, the helicopter pops up to Low, spots with the aircraft LOS,
    # attacks as at Low, then is back at NOE
    g = _state([unit("H", "ah-1s", "us", "2A1", 2)]).game
    a, b = _pair_hidden_from_the_ground(g)
    st = _state([unit("H", "ah-1s", "us", a, 2), unit("T", "t-80bv", "sov", b, 0)], dice=[100] * 6)
    act(st, f"fly H {a}")
    assert "popup H" in [str(x) for x in st.legal_actions()]
    assert not [x for x in st.legal_actions() if x[0] == "fire"]  # hidden from the NOE helicopter
    act(st, "popup H")
    fires = [str(x) for x in st.legal_actions() if x[0] == "fire"]
    assert fires
    act(st, fires[0])
    assert any("(pop-up)" in e for e in st.events)
    if st.air_u == 0:
        act(st, "hold H")  # the rest of its combat not used
    assert st.heli_alt[0] == "noe" and st.popup == -1


def test_ma65_aa_modifiers_against_helicopters():
    # MA65: hovering +10; at Low +10; a pop-up attack -30 (+10 for Low, no hovering bonus)
    st = _state([unit("H", "ah-1s", "us", "2A1", 2), unit("Z", "zsu-23-4", "sov", "2A6", 0, command="OW")])
    act(st, "fly H 2A1")
    row = _row(st, 1, "guns")
    base = st.game.ag.grade_gp[st.unit_grade(1)]["M"] + row.aa_mod
    m = st.game.air.aa_mod
    assert st.gp_modifiers(1, 0, row, "M", True) == base + m["hovering"]
    st.popup = 0
    assert st.gp_modifiers(1, 0, row, "M", True) == base + m["pop-up"] + m["low-altitude"]
    st.popup, st.hover[0], st.heli_alt[0] = -1, False, "low"
    assert st.gp_modifiers(1, 0, row, "M", True) == base + m["low-altitude"]
    assert (m["hovering"], m["pop-up"], m["low-altitude"]) == (10, -30, 10)


def test_moving_helicopter_is_tracked_after_the_track_requirement():
    # MBT 6.7.8.1.1: hovering -> tracked at once; moving -> the helicopter Track row (3, placeholder) of flight
    z = unit("Z", "zsu-23-4", "sov", "2A8", 0, command="OW")
    st = _state([unit("H", "ah-1s", "us", "2A1", 2), z])
    act(st, "fly H 2A3")  # 2 hexes
    act(st, "hold H")
    assert not [x for x in st.legal_actions() if x[0] == "ow"]
    st = _state([unit("H", "ah-1s", "us", "2A1", 2), z])
    act(st, "fly H 2A4")  # 3 hexes
    act(st, "hold H")
    assert [x for x in st.legal_actions() if x[0] == "ow"]


@pytest.mark.parametrize("rng, noe_ok", [(10, True), (12, False), (1, False)])
def test_ma61_rocket_height_at_noe(rng, noe_ok):
    # MA61: at NOE the helicopter must be 2 Heights above the target per 10 hexes (or part): range 10 -> 2 (ok at
    # height 2 over level clear ground), 12 -> 4; minimum range 2 at NOE, 6 at Low
    from mbt_adv_fixtures import clear_pair

    a, b, _ = clear_pair(rng)
    st = _state([unit("H", "ah-1s", "us", a, 0), unit("T", "t-80bv", "sov", b, 0)])
    row = _row(st, 0, "rockets")
    assert st._rocket_ok(0, 1) == noe_ok
    st.heli_alt[0] = "low"
    assert st._rocket_ok(0, 1) == (rng >= 6)
    assert row.max_range >= 12


def test_helicopter_rockets_get_the_rocket_modifier():
    # MBT 6.7.3.8 / 6.7.6.3: +20 for a helicopter rocket attack at NOE or Low
    from mbt_adv_fixtures import clear_pair

    a, b, _ = clear_pair(8)
    st = _state([unit("H", "ah-1s", "us", a, 0), unit("T", "t-80bv", "sov", b, 0)])
    rockets, cannon = _row(st, 0, "rockets"), _row(st, 0, "cannon")
    diff = st.gp_modifiers(0, 1, rockets, "M", False) - st.gp_modifiers(0, 1, cannon, "M", False)
    sight = st.game.ag.sight_gp
    assert diff == st.game.air.fw_mod["rocket"] + sight.get(rockets.sight, sight["O"])["M"] - \
        sight.get(cannon.sight, sight["O"])["M"]


def test_ma67_hovering_helicopter_crashes_in_its_hex():
    # MA67: a hovering helicopter shot down crashes in its own hex; every ground unit there is attacked at GP 15
    units = [unit("H", "ah-1s", "us", "2A1", 2), unit("Z", "zsu-23-4", "sov", "2A6", 0, command="OW"),
             unit("M", "m1", "us", "2A1", 2)]
    st = _state(units, dice=[76, 50, 5])  # 76 + 5 = 81: Effective, not ending in 5 or 0
    act(st, "fly H 2A1")
    act(st, "hold H")
    act(st, "ow Z at H guns:HEI")
    assert st.st[0] != 1
    assert any(e.startswith("H crash at 2A1") for e in st.events)
    assert any(e.startswith("H crash>M") for e in st.events)


def test_low_fixed_wing_may_not_enter_a_low_helicopter_hex():
    # MBT 6.7.2.3: the aircraft leaves the map instead
    st = _state([unit("H", "ah-1s", "us", "2A1", 2)])
    st.heli_alt[0] = "low"
    assert st._low_heli_in(st.hex[0])
    st.heli_alt[0] = "noe"
    assert not st._low_heli_in(st.hex[0])


@pytest.mark.parametrize("alt, spoofed", [("low", True), ("noe", False)])
def test_helicopter_countermeasures_spoof_radar_tracked_guns(alt, spoofed):
    # MBT 6.7.8.2.1: the Mi-24V's Countermeasures spoof an Effective result of a radar-tracked gun on roll (10) at
    # or under the CM rating (air-values, option aa-radar-gun-spoofing 'table'); radar cannot track at NOE
    units = [unit("H", "mi-24", "sov", "2A1", 2), unit("Z", "zsu-23-4", "us", "2A6", 0, command="OW"),
             unit("T", "t-80bv", "sov", "4T14", 0)]
    st = adv_state(units, phase="air-1", to_act="sov", dice=[86, 2, 5], options={"aa-radar-state": "active"})
    act(st, "fly H 2A1" + (" low" if alt == "low" else ""))
    act(st, "hold H")
    act(st, "ow Z at H guns:HEI")
    assert (st.st[0] == 1) == spoofed
    assert any("spoofed (No Effect)" in e for e in st.events) == spoofed


# ------------------------------------------------------------------ landing, take-off, transport (MBT 6.7.5.3)

def _hind(extra=(), dice=(), to_act="sov", phase="air-1"):
    units = [unit("H", "mi-24", "sov", "2A1", 2), unit("M", "m1", "us", "4T14", 5)] + list(extra)
    return adv_state(units, phase=phase, to_act=to_act, dice=dice)


def test_ma59_landing_only_at_noe_in_open_terrain_for_half_the_allowance():
    # MA59: Brush, Clear, Crops or Scrub; at NOE; floor(MSA/2) spent (Mi-24V NOE 10 -> 5 hexes left to fly)
    st = _hind()
    g = st.game
    lands = [g.map.hex(a[2]) for a in st.legal_actions() if a[0] == "fly" and a[3:] == ("land",)]
    assert lands and max(distance(st.hex[0], h) for h in lands) == 5
    assert {g.map.terrain[h] for h in lands} <= {"B", "C", "K", "S"}
    woods = [h for h in g.hexes if g.map.terrain.get(h) == "W" and distance(st.hex[0], h) <= 5]
    assert not woods or not set(woods) & set(lands)


def test_take_off_costs_half_the_noe_allowance_and_stays_at_noe():
    # MA59: take-off floor(NOE MSA / 2) = 5; it stays at NOE; no landing and take-off in one Air Phase
    st = _hind()
    act(st, "fly H 2A3 land")
    assert st.heli_alt[0] == "landed"
    act(st, "hold H")
    st.air_done, st.air_u = [], -1
    flights = [a for a in st.legal_actions() if a[0] == "fly"]
    assert ("fly", "H", "2A3", "land") in [tuple(a) for a in flights]  # stay landed
    assert max(distance(st.hex[0], st.game.map.hex(a[2])) for a in flights) == 5
    assert not [a for a in flights if a[3:] == ("low",) or (a[3:] == ("land",) and a[2] != "2A3")]
    act(st, "fly H 2A6")
    assert st.heli_alt[0] == "noe"


def test_unload_or_load_at_a_landed_helicopter_not_both():
    # MBT 6.7.5.3.3: a landed helicopter unloads or loads in an Air Phase, at no cost; passengers ride Under Armor
    squad = unit("P", "sov-mr-squad", "sov", "2A1", 2, carried_by="H")
    st = _hind([squad])
    assert st.carrier[2] == 0
    act(st, "fly H 2A3 land")
    assert "dismount H P" in [str(a) for a in st.legal_actions()]
    act(st, "dismount H P")
    assert st.carrier[2] == -1 and st.hex[2] == st.hex[0]
    assert not [a for a in st.legal_actions() if a[0] == "mount"]  # not both in one Air Phase
    assert st.game.units[0].type.ag.protection == "under_armor"


def test_passengers_are_lost_with_their_helicopter():
    # MBT 6.7.5.3.5: helicopter passengers never bail out and are eliminated with it
    squad = unit("P", "sov-mr-squad", "sov", "2A1", 2, carried_by="H")
    z = unit("Z", "zsu-23-4", "us", "2A6", 0, command="OW")
    st = _hind([squad, z])
    act(st, "fly H 2A1")
    act(st, "hold H")
    g = st.game
    row = _row(st, 3, "guns")
    band, factor = st.gp_factor(row, distance(st.hex[3], st.hex[0]))
    net = st.gp_modifiers(3, 0, row, band, True)
    n_eff, s_eff = g.ag.gp_crt[(factor, g.units[0].type.ag.gp_value)]
    roll = next(r for r in range(1, 101) if r + net > s_eff and (r + net) % 5)
    st.dice.force(roll, 5, 5, 5)
    act(st, "ow Z at H guns:HEI")
    assert st.st[0] != 1 and st.st[2] not in (1, 4)
    assert any(e == "P is lost with H" for e in st.events)


def test_landed_helicopter_is_a_ground_target():
    # MBT 6.7.9.2: landed helicopters are spotted and attacked by AP/GP direct fire; flying ones only by AA
    t80 = unit("T", "t-80bv", "us", "2A8", 0, command="FIRE")
    st = _hind([t80])
    assert not st.fire_options(2, [0])
    act(st, "fly H 2A4 land")
    assert st.fire_options(2, [0])
    assert st.hex[0] in st._enemy_hexes(0)  # a landed helicopter counts as a vehicle for ground movement


@pytest.mark.parametrize("hexes, fires", [(0, True), (5, True), (6, False)])
def test_ma62_atgm_while_moving_after_at_most_half_the_allowance(hexes, fires):
    # MA62: CL 1/2 ATGMs may fire while moving after at most half the allowance (NOE 10 -> 5), at -4 (AP);
    # hovering: no movement modifier
    from mbt_adv_fixtures import clear_pair

    a, b, d = clear_pair(8)
    st = _state([unit("H", "ah-1s", "us", a, d), unit("T", "t-80bv", "sov", b, 0)])
    tow = _row(st, 0, "tow")
    assert tow.atgm.cl <= 2
    st.hover[0], st.heli_path[0], st.heli_spent[0] = hexes == 0, hexes, hexes
    assert st.weapon_ok(0, 1, tow) == fires
    moving, _ = st.hit_modifiers(0, 1, tow, False)
    st.hover[0] = True
    hovering, _ = st.hit_modifiers(0, 1, tow, False)
    assert moving - hovering == (0 if hexes == 0 else st.game.air.values["heli-atgm-moving-ap"])


def test_one_combat_each_gun_once_and_one_other_weapon():
    # MBT 6.7.6, MA63: any or all guns plus one other weapon (rockets or an ATGM) per Air Phase, from the same hex
    from mbt_adv_fixtures import clear_pair

    a, b, d = clear_pair(8)
    st = _state([unit("H", "ah-1s", "us", a, d), unit("T", "t-80bv", "sov", b, 0), unit("S", "t-80bv", "sov", b, 0)],
                dice=[100] * 12)
    act(st, f"fly H {a}")
    weapons = {x[3].split(":")[0] for x in st.legal_actions() if x[0] == "fire"}
    assert {"cannon", "rockets", "tow"} <= weapons
    act(st, "fire H at T tow:TOW")
    left = {x[3].split(":")[0] for x in st.legal_actions() if x[0] == "fire"}
    assert left == {"cannon"}  # the ATGM was the one other weapon; the gun may still fire
    act(st, "fire H at S cannon:HEI")
    assert not [x for x in st.legal_actions() if x[0] == "fire"] and st.air_u == -1


def test_aa_overwatch_after_a_helicopter_closes_before_the_phase_goes_on():
    # after a helicopter's activation both sides may fire AA (MBT 6.7.8); once both pass, the Overwatch is over
    # and play goes on (a still-open window used to leave the next phase without a legal action)
    st = _state([unit("H", "ah-1s", "us", "2A1", 2), unit("G", "ah-1s", "us", "2C1", 2),
                 unit("Z", "zsu-23-4", "sov", "4T14", 0, command="OW")])
    act(st, "fly H 2A1")
    act(st, "hold H")
    assert not st._ow_active() and st.legal_actions()
    assert all(a[1] == "G" for a in st.legal_actions())
