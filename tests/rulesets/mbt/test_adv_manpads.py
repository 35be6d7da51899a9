"""MBT 5.1.3.6 MANPADS through positions: crew-served Stinger-A/-C, SA-7 and SA-14 cards attached to squads (the
position status ``attachments``) give the squad an AA row whose SAM data come from the crew-served card; it tracks
and fires at aircraft and helicopters with an Overwatch command (6.7.8), Effective results may be spoofed at or
under its CM rating (6.7.8.2.1, MA66), never while transported, never at ground targets."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401  (autouse: each roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from test_adv_air_fw import A10, T, _aa_roll_for, events, fly, fw_state, legal  # noqa: E402

from studio.rulesets.mbt.engine.air_data import row_profile  # noqa: E402

ECM = ({**A10, "loads": ["ecm-pod"]},)


def _squad(weapon: str, uid="I", side="sov", hex_="2C6", command="OW", card="sov-mr-squad", **status):
    if command:
        status["command"] = command
    return unit(uid, card, side, hex_, 0, attachments=[weapon], **status)


def _row(st, i):
    return next(r for r in st.game.units[i].type.ap if r.aa)


@pytest.mark.parametrize("card, weapon, sam", [
    ("stinger-a", "stinger", ("MA", "IR", 5)),   # MBT 5.1.3.6: Stinger-A CM 5
    ("stinger-c", "stinger-c", ("MA", "IR", 4)),  # Stinger-C CM 4
    ("sa-7", "sa-7", ("MT", "IR", 8)),           # placeholders of the SA-7 / SA-14 cards
    ("sa-14", "sa-14", ("MA", "IR", 6)),
])
def test_the_squads_aa_row_reads_the_attached_cards_sam_data(card, weapon, sam):
    st = fw_state([_squad(card), T])
    row = _row(st, 0)
    assert (row.weapon, row.card, row.kind) == (weapon, card, "GP")
    assert row_profile(st.game, 0, row).sam == sam
    assert row.min_range == 2


def test_a_squad_with_a_stinger_tracks_and_fires_at_an_aircraft():
    # MBT 6.7.8.1.1: tracked at once when the aircraft enters in its LOS; AA fire needs Overwatch
    st = fly(fw_state([_squad("sa-14"), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert "ow I at A-10A-1 sa-14:Gremlin" in legal(st)
    st.dice.force(_aa_roll_for(st, "down"))
    act(st, "ow I at A-10A-1 sa-14:Gremlin")
    assert events(st, "I AA fire (Gremlin") and st.fw.dead == [True]
    fire = fly(fw_state([_squad("sa-14", command="FIRE"), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert not fire.fw.pending  # no Overwatch, no AA fire


@pytest.mark.parametrize("spoof, card, spoofed", [(5, "stinger-a", True), (6, "stinger-a", False),
                                                  (5, "stinger-c", False), (4, "stinger-c", True)])
def test_ma66_an_ecm_pod_spoofs_a_manpads_at_or_under_its_cm_rating(spoof, card, spoofed):
    # MA66 / MBT 6.7.8.2.1: an Effective result of a MANPADS with a CM rating is spoofed on roll (10) <= CM
    # (Stinger-A 5, Stinger-C 4, MBT 5.1.3.6)
    st = fly(fw_state([_squad(card), T], aircraft=ECM), "A-10A-1", "slow", "medium", "2B1", "S")
    row = _row(st, 0)
    st.dice.force(_aa_roll_for(st, "down"), spoof)
    act(st, f"ow I at A-10A-1 {row.key}")
    assert bool(events(st, "spoofed (No Effect)")) == spoofed
    assert events(st, f"countermeasures roll {spoof} vs CM {row_profile(st.game, 0, row).sam[2]}")
    assert st.fw.dead == [not spoofed]


def test_a_tail_chase_manpads_tracks_only_from_behind():
    # MBT 5.1.3.6, 6.7.8.1.1: an MT system (the SA-7 card) tracks only from the aircraft's rear 120 degrees; the
    # aircraft entering at 2B1 heading S flies toward the squad: the MA SA-14 may fire, the MT SA-7 may not
    ma = fly(fw_state([_squad("sa-14"), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    mt = fly(fw_state([_squad("sa-7"), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert [s for s, _ in ma.fw.pending] == [0] and mt.fw.pending == []


def test_a_transported_squad_does_not_fire_its_manpads():
    # MBT 5.1.3.6: not while transported; dismounted beside the carrier it does
    carrier = unit("C", "bmp-2", "sov", "2C6", 0, command="OW")
    riding = fly(fw_state([carrier, _squad("sa-14", command=None, carried_by="C"), T]), "A-10A-1", "slow", "medium",
                 "2B1", "S")
    assert 1 not in [s for s, _ in riding.fw.pending]
    afoot = fly(fw_state([carrier, _squad("sa-14"), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert 1 in [s for s, _ in afoot.fw.pending]


def test_a_squad_with_a_stinger_fires_at_a_hovering_helicopter_and_countermeasures_may_spoof_it():
    # MBT 6.7.8.1.1: a hovering helicopter is tracked at once; the Mi-24's Countermeasures spoof a MANPADS
    # Effective result at or under its CM rating (6.7.8.2.1): Stinger-A 5 -> roll 5 spoofs, 6 does not
    for spoof, spoofed in ((5, True), (6, False)):
        units = [unit("H", "mi-24", "sov", "2A1", 2), _squad("stinger-a", side="us", hex_="2A6", card="us-mech-squad"),
                 unit("T", "t-80bv", "sov", "4T14", 0)]
        st = adv_state(units, phase="air-1", to_act="sov", dice=[96, spoof, 5])
        act(st, "fly H 2A1")
        act(st, "hold H")
        assert "ow I at H stinger:Stinger-A" in legal(st)
        act(st, "ow I at H stinger:Stinger-A")
        assert bool(events(st, "spoofed (No Effect)")) == spoofed, st.events
        assert (st.st[0] == 1) == spoofed


def test_a_manpads_never_fires_at_ground_targets():
    # MBT 5.1.3.6 surface-to-air (ENGINE_POLICIES['manpads']): a Fire command offers the squad's rifles, not the
    # Stinger, at an enemy vehicle in range
    a, b, d = clear_pair(3)
    units = [unit("I", "us-mech-squad", "us", a, d, command="FIRE", attachments=["stinger-a"]),
             unit("T", "t-80bv", "sov", b, 0)]
    st = adv_state(units, phase="direct-fire-first", to_act="us")
    rows = {row.weapon for _t, row in st.fire_options(0, [1])}
    assert "rifles" in rows and "stinger" not in rows
    assert "stinger" in {r.weapon for r in st.game.units[0].type.ap}


def test_aa_guns_without_sam_data_still_fire_at_ground_targets():
    # only SAM rows are surface-to-air only: the ZSU-23-4's AA guns fire at a vehicle like any GP weapon
    a, b, d = clear_pair(3)
    units = [unit("Z", "zsu-23-4", "sov", a, d, command="FIRE"), unit("T", "m113", "us", b, 0)]
    st = adv_state(units, phase="direct-fire-first", to_act="sov")
    row = next(r for r in st.game.units[0].type.ap if r.aa)
    assert not st.sam_row(0, row)
    assert "guns" in {r.weapon for _t, r in st.fire_options(0, [1])}


def test_crew_served_weapons_barred_from_transported_fire():
    # MBT 5.1.3.2 (and 5.1.3.3-5.1.3.6): crew-served HMGs may not fire while being transported: a squad riding an
    # M113 (no Move command, MBT 6.6.7.2) fires its rifles, not its attached HMG; dismounted it fires both
    a, b, d = clear_pair(3)
    units = [unit("C", "m113", "us", a, d, command="NC"),
             unit("P", "us-mech-squad", "us", a, d, carried_by="C", attachments=["us-hmg"]),
             unit("T", "sov-mr-squad", "sov", b, (d + 3) % 6)]
    st = adv_state(units, phase="direct-fire-first", to_act="us")
    shots = {str(x) for x in st.legal_actions() if x[0] == "fire" and x[1] == "P"}
    assert shots and all("rifles" in x for x in shots), shots
    afoot = adv_state([units[0], unit("P", "us-mech-squad", "us", a, d, command="FIRE", attachments=["us-hmg"]),
                       units[2]], phase="direct-fire-first", to_act="us")
    shots = {str(x) for x in afoot.legal_actions() if x[0] == "fire" and x[1] == "P"}
    assert any("us-hmg" in x for x in shots) and any("rifles" in x for x in shots), shots


def test_no_aa_fire_from_a_building_or_an_improved_position():
    # MBT 6.7.8.1.1: AA units inside Buildings or in Improved Positions may not track or fire at aircraft; so a
    # MANPADS never fires from a building's upper floor either (5.1.3.6)
    from studio.rules.position import position_state
    from test_adv_air_fw import SCENARIO, fw_game

    g = fw_game()
    town = g.label(sorted(g.building_hexes)[0])
    inside = fly(fw_state([_squad("sa-14", hex_=town), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert inside.aa_sheltered(0) and inside.fw.pending == []
    from mbt_adv_fixtures import index

    from studio.rulesets.mbt.engine import game as G

    sc = index().model("scenario", SCENARIO)
    ext = sc.extension.model_copy(update={"improved_positions": ["2C6"], "aircraft": g.scenario.extension.aircraft})
    g_ip = G.create_game(sc.model_copy(update={"extension": ext}), index())
    pos = {"scenario": SCENARIO, "phase": "air-1", "turn": 3, "to_act": "us", "units": [_squad("sa-14"), T]}
    dug_in = position_state(g_ip, pos)
    dug_in.dice.record = True
    assert dug_in.in_improved_position(0) and dug_in.aa_sheltered(0)
    fly(dug_in, "A-10A-1", "slow", "medium", "2B1", "S")
    assert dug_in.fw.pending == []
    open_ = fly(fw_state([_squad("sa-14"), T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert open_.fw.pending and not open_.aa_sheltered(0)
