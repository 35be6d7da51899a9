"""MBT optional rule 7.31.3.2 (Mines): fixed-wing iron and high-drag bombs and rockets attack the visible minefield
hexes of their impact pattern; a crash into a visible minefield hex attacks it with 15 GP (OPTB), through play on
the air-strike scenario's boards."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, unit  # noqa: E402
from test_adv_air_fw import SCENARIO, US, _aa, _aa_roll_for, events, fly, fw_game, legal  # noqa: E402

from studio.rules.position import position_state  # noqa: E402

MINES = ("mines",)


def _state(units, optional=MINES, fields=None, dice=()):
    g = fw_game(optional=optional)
    pos = {"scenario": SCENARIO, "phase": "air-1", "turn": 3, "units": list(units) + [US], "dice": list(dice),
           "to_act": "us"}
    if fields is not None:
        pos["extension"] = {"minefields": fields}
    st = position_state(g, pos)
    st.dice.record = True
    return st


def _field(hexes, visible=True):
    return [{"side": "sov", "hexes": hexes, "field": "hasty", "mines": "both", "visible": visible}]


def test_high_drag_bombs_attack_a_visible_minefield_in_their_pattern():
    target = [unit("T", "t-80bv", "sov", "2B3", 0)]
    st = fly(_state(target, fields=_field(["2B3"]), dice=[1] * 30), "A-10A-1", "slow", "low", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 high-drag T")
    assert events(st, "A-10A-1 attacks the hasty minefield in 2B3")
    hidden = fly(_state(target, fields=_field(["2B3"], visible=False), dice=[1] * 30), "A-10A-1", "slow", "low",
                 "2B1", "S", hexes=1)
    act(hidden, "attack A-10A-1 high-drag T")
    assert not events(hidden, "minefield")  # only visible minefield hexes are attacked
    off = fly(_state(target, optional=(), fields=_field(["2B3"]), dice=[1] * 30), "A-10A-1", "slow", "low", "2B1",
              "S", hexes=1)
    act(off, "attack A-10A-1 high-drag T")
    assert not events(off, "minefield")


def test_strafing_does_not_attack_minefields():
    target = [unit("T", "t-80bv", "sov", "2B3", 0)]
    st = fly(_state(target, fields=_field(["2B3", "2B4", "2B5"]), dice=[1] * 30), "A-10A-1", "slow", "low", "2B1",
             "S", hexes=1)
    act(st, "attack A-10A-1 strafe T")
    assert not events(st, "minefield")


def test_a_crash_into_a_visible_minefield_attacks_it_with_15_gp():
    # MBT 7.31.3.2: "on the off chance an aircraft or helicopter crashes into a visible minefield hex, it attacks
    # it with 15 GP Factors" (the crash hex of MA67: 7 at Low -> 3 hexes ahead, 2B4)
    st = fly(_state([_aa(hex_="2C2")], fields=_field(["2B4"])), "A-10A-1", "slow", "low", "2B1", "S", hexes=0)
    st.dice.force(_aa_roll_for(st, "down"), 7, 50)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert events(st, "A-10A-1 crash at 2B4")
    assert events(st, "A-10A-1 crash attacks the hasty minefield in 2B4 (GP 15")


def test_helicopter_rockets_attack_a_visible_minefield_in_the_target_hex():
    # MBT 7.31.3.2: helicopter rockets attack visible minefield hexes in their impact pattern (the target hex);
    # its cannon does not
    from mbt_adv_fixtures import clear_pair
    from mbt_move_fixtures import opt_game

    a, b, _ = clear_pair(8)

    def state(optional):
        g = opt_game(optional)
        pos = {"scenario": g.scenario_id, "phase": "air-1", "turn": 1, "to_act": "us", "dice": [50] * 20,
               "units": [unit("H", "ah-1s", "us", a, 0), unit("T", "t-80bv", "sov", b, 0)],
               "extension": {"minefields": _field([b])}}
        st = position_state(g, pos)
        st.dice.record = True
        return st

    st = state(MINES)
    rockets = next(r for r in st.game.units[0].type.ap if r.weapon == "rockets")
    cannon = next(r for r in st.game.units[0].type.ap if r.weapon == "cannon")
    st.gp_fire(0, 1, cannon, False)
    assert not events(st, "minefield")
    st.gp_fire(0, 1, rockets, False)
    assert events(st, f"H rockets attacks the hasty minefield in {b}")
    off = state(())
    off.gp_fire(0, 1, rockets, False)
    assert not events(off, "minefield")


def test_a_damaged_radio_may_not_observe_for_aircraft():
    # MBT 7.23.5.3: a vehicle with a damaged radio set may not call indirect fire or observe targets for aircraft
    def spots(optional, collateral):
        units = [unit("T", "sov-mr-squad", "sov", "2L10", 0),
                 unit("F", "m981", "us", "2L7", 3, command="OW", **({"collateral": collateral} if collateral else {}))]
        st = _state(units, optional=optional)
        return st.fw_fo_spots(0, 0)

    assert spots(("vehicle-collateral-damage",), None)
    assert not spots(("vehicle-collateral-damage",), ["radio"])


def _incendiary(target, optional=()):
    from test_adv_air_fw import EXTRA_LOADS, _CardIndex, _net  # noqa: F401
    from mbt_adv_fixtures import index

    from studio.rulesets.mbt.cards import AircraftAssignment
    from studio.rulesets.mbt.engine import game as G

    idx = _CardIndex(index(), EXTRA_LOADS)
    sc = idx.model("scenario", SCENARIO)
    ext = sc.extension.model_copy(update={"aircraft": [AircraftAssignment(side="us", aircraft="a-10", loads=["fire"])]})
    g = G.create_game(sc.model_copy(update={"extension": ext, "optional_rules": list(optional)}), idx)
    st = position_state(g, {"scenario": SCENARIO, "phase": "air-1", "turn": 3, "units": [target, US], "dice": [1],
                            "to_act": "us"})
    st.dice.record = True
    st = fly(st, "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 fire T")
    return _net(st)


def test_incendiary_bombs_plus_20_on_p_types_and_open_a_types():
    # MBT 6.7.3.8: incendiaries +20 against "an S-Type vehicle or an Open A or P-Type vehicle"; an A-Type is Open
    # only under optional rule 7.8 (turret not Buttoned Up)
    a_type = unit("T", "t-80bv", "sov", "2B3", 0)
    assert _incendiary(unit("T", "m106", "sov", "2B3", 0)) - _incendiary(a_type) == 20
    closed = _incendiary(a_type)
    assert _incendiary(a_type, ("turrets",)) == closed + 20
    assert _incendiary(unit("T", "t-80bv", "sov", "2B3", 0, buttoned=True), ("turrets",)) == closed


def _fascam_state(optional):
    from test_adv_air_fw import _CardIndex
    from mbt_adv_fixtures import index

    from studio.rulesets.mbt.cards import AircraftAssignment
    from studio.rulesets.mbt.engine import game as G

    gator = ({"id": "gator", "kind": "FASCAM", "name": "CBU-89 Gator", "points": 40},)
    idx = _CardIndex(index(), gator)
    sc = idx.model("scenario", SCENARIO)
    ext = sc.extension.model_copy(update={"aircraft": [AircraftAssignment(side="us", aircraft="a-10",
                                                                          loads=["gator"])]})
    g = G.create_game(sc.model_copy(update={"extension": ext, "optional_rules": list(optional)}), idx)
    st = position_state(g, {"scenario": SCENARIO, "phase": "air-1", "turn": 3, "dice": [],
                            "units": [unit("T", "t-80bv", "sov", "2B3", 0), US], "to_act": "us"})
    st.dice.record = True
    return fly(st, "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)


def test_fixed_wing_fascam_lays_a_minefield_on_its_pattern():
    # MBT 6.7.3.6: aircraft FASCAM is dropped from Medium or High on the target's hex in front of the aircraft and
    # is the same as indirect-fire FASCAM (optional rule 7.31: a FASCAM field attacking both sides)
    st = _fascam_state(MINES)
    assert "attack A-10A-1 gator T" in legal(st)
    act(st, "attack A-10A-1 gator T")
    (field,) = [ms.field for ms in st.mines if ms.field.field == "fascam"]
    assert st.game.map.hex("2B3") in field.hexes and field.owner == st.game.sides.index("us")
    assert not events(st, "A-10A-1>T")  # mines, not a GP attack on the units
    assert not any(a.startswith("attack A-10A-1 gator") for a in legal(_fascam_state(())))
