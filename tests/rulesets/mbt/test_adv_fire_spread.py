"""MBT 6.5.2.1 spreading additional hits (option ``hit-spread``) through positions: an M2A1's 25mm APDS (ROF R)
scores three hits on roll 1 (placeholder fractions, probe ``adv-rof-hits``); with ``spread`` the additional hits go
to other spotted vehicles within the firer's Unit Grade Command Range of the original target (Veteran/Seasoned 1,
Elite 2, Regulars/Green/Raw none) in the same range band or closer, nearest first; with ``original`` they stay."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401  (autouse: each roll's die)
from mbt_adv_fixtures import act, adv_game, adv_state, unit  # noqa: E402

from studio.hexgrid.coords import distance, neighbour  # noqa: E402

SHOOTER, TARGET = "2A1", "2F4"  # range 5 along hexside 2 (probes.py); the targets face the shooter (5)


def _near(k: int, exclude=()):
    """A hex k hexes from the target, no nearer the shooter's band edge than the target (range <= 5), clear LOS."""
    g = adv_game()
    hs, ht = g.map.hex(SHOOTER), g.map.hex(TARGET)
    for h in sorted(g.map.label_of):
        if distance(h, ht) == k and distance(hs, h) <= distance(hs, ht) and h != hs and g.los.clear(hs, h) and \
                g.label(h) not in exclude and g.elev.get(h) == g.elev.get(ht):
            return g.label(h)
    raise LookupError(k)


NEAR1 = _near(1)
NEAR2 = _near(2, (NEAR1,))


def _shot(spread: str, grade: str, dice=(1,), far_card="t-80bv"):
    units = [unit("S", "m2a1", "us", SHOOTER, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5),
             unit("A", "t-80bv", "sov", NEAR1, 5), unit("B", far_card, "sov", NEAR2, 5)]
    st = adv_state(units, phase="direct-fire-first", to_act="us", dice=list(dice), grades={"us": grade},
                   options={"hit-spread": spread})
    assert {st.game.uindex[n] for n in "TAB"} <= set(st.spots[0]), "the test needs all three spotted"
    return st


def _hits_on(dice_sides) -> dict:
    """How many hits each target took (one location roll per hit)."""
    out: dict = {}
    for label, _ in dice_sides:
        if label.startswith("AP location S>"):
            name = label.split(">")[1]
            out[name] = out.get(name, 0) + 1
    return out


def test_three_hits_on_roll_1_of_the_m2a1_apds(dice_sides):
    st = _shot("original", "veteran")
    act(st, "fire S at T main:APDS")
    assert any("3 hit(s)" in e for e in st.events), st.events
    assert _hits_on(dice_sides) == {"T": 3}


@pytest.mark.parametrize("grade, hits", [
    ("veteran", {"T": 2, "A": 1}),           # Command Range 1: A; B (2 hexes away) not: the third hit stays on T
    ("elite", {"T": 1, "A": 1, "B": 1}),     # Command Range 2: A then B, nearest first
    ("regulars", {"T": 3}),                  # Command Range 0: "it is not possible to spread any additional hits"
])
def test_spread_by_the_firers_unit_grade_command_range(dice_sides, grade, hits):
    st = _shot("spread", grade)
    act(st, "fire S at T main:APDS")
    assert _hits_on(dice_sides) == hits, st.events
    spread = [e for e in st.events if "spreads from T to" in e]
    assert len(spread) == sum(v for k, v in hits.items() if k != "T")


def test_spread_only_to_vehicles_the_row_may_shoot(dice_sides):
    # "legal targets": AP fire is never at leg units (MBT 6.5.2): a squad next to the target takes no AP hit
    st = _shot("spread", "elite", far_card="sov-mr-squad")
    act(st, "fire S at T main:APDS")
    assert _hits_on(dice_sides) == {"T": 2, "A": 1}


def test_option_original_keeps_every_hit_on_the_target(dice_sides):
    st = _shot("original", "elite")
    act(st, "fire S at T main:APDS")
    assert _hits_on(dice_sides) == {"T": 3} and not any("spreads" in e for e in st.events)


NEAR1B = _near(1, (NEAR1, NEAR2))


def _roll_for(st, hits: int) -> int:
    """A hit roll scoring ``hits`` hits for the M2A1's APDS at T (the table's / placeholder fractions)."""
    s, t = 0, st.game.uindex["T"]
    row = next(r for r in st.game.units[s].type.ap if r.key == "main:APDS")
    net, band = st.hit_modifiers(s, t, row, False)
    number = st.game.tables.ap_hit[(net, band)]
    return next(r for r in range(1, number + 1) if st.number_of_hits(number, row.rof, r) == hits)


def test_two_hits_spread_the_second(dice_sides):
    st = _shot("spread", "veteran", dice=())
    st.dice.force(_roll_for(st, 2))
    act(st, "fire S at T main:APDS")
    assert _hits_on(dice_sides) == {"T": 1, "A": 1}


def test_each_eligible_vehicle_takes_one_hit_nearest_first_while_hits_last(dice_sides):
    # three hits, three eligible others (Elite, Command Range 2): A and C (1 hex) take the two additional hits,
    # B (2 hexes) none
    units = [unit("S", "m2a1", "us", SHOOTER, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5),
             unit("A", "t-80bv", "sov", NEAR1, 5), unit("B", "t-80bv", "sov", NEAR2, 5),
             unit("C", "t-80bv", "sov", NEAR1B, 5)]
    st = adv_state(units, phase="direct-fire-first", to_act="us", dice=[1], grades={"us": "elite"},
                   options={"hit-spread": "spread"})
    act(st, "fire S at T main:APDS")
    assert _hits_on(dice_sides) == {"T": 1, "A": 1, "C": 1}


def test_command_range_0_does_not_spread_even_in_the_same_hex(dice_sides):
    # MBT 6.5.2.1: with Regulars, Green or Raw Unit Grade it is not possible to spread any additional hits
    units = [unit("S", "m2a1", "us", SHOOTER, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5),
             unit("D", "t-80bv", "sov", TARGET, 5)]
    st = adv_state(units, phase="direct-fire-first", to_act="us", dice=[1], grades={"us": "regulars"},
                   options={"hit-spread": "spread"})
    act(st, "fire S at T main:APDS")
    assert _hits_on(dice_sides) == {"T": 3}


def test_a_spread_target_is_attacked_this_turn():
    # the hit spread to A marks it attacked by direct fire (Suppression recovery, Under Fire); T's own Fire command
    # stops play at the Soviet Direct Fire Step to look
    units = [unit("S", "m2a1", "us", SHOOTER, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5, command="FIRE"),
             unit("A", "t-80bv", "sov", NEAR1, 5), unit("B", "t-80bv", "sov", NEAR2, 5)]
    st = adv_state(units, phase="direct-fire-first", to_act="us", dice=[1, 50, 50, 50], grades={"us": "veteran"},
                   options={"hit-spread": "spread"})
    act(st, "fire S at T main:APDS")
    assert st.phase_id() == "direct-fire-second", st.phase_id()
    assert [st.attacked[i] for i in (1, 2, 3)] == [True, True, False]
