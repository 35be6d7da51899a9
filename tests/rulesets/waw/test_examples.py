"""World at War worked examples (waw-examples.md), named after their ids, with forced dice (Dice.force)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, rolls, u  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.rules.api import RulesError  # noqa: E402
from studio.rulesets.waw.engine.actions import Action  # noqa: E402


def clear_hex_with_los(g, s, shooter, target, dmin, dmax):
    """A clear hex at range dmin..dmax of ``target`` from which ``shooter`` sees it."""
    th = s.hex[target]
    for h in sorted(g.hexes):
        if g.terrain[h] == "C" and g.level[h] == 0 and dmin <= distance(h, th) <= dmax:
            s.hex[shooter] = h
            if g.los.clear(h, th, 0, g.level[th]):
                return h
    raise AssertionError("no firing hex found")


def to_ops(s, side_formation="f-us"):
    """Advance a fresh state to an impulse of the given formation (other formations skipped)."""
    for _ in range(50):
        p = s.pending
        if p[0] == "decide":
            fid = s.game.formations[p[1]].id
            s.dice.force()
            s.apply(Action("activate" if fid == side_formation else "skip", fid))
            if fid == side_formation:
                return
        elif p[0] == "ops":
            s.apply(Action("end"))
        else:
            s.apply(Action("pass"))
    raise AssertionError("formation never drawn")


# ---------------------------------------------------------------- A. counters and unit types (1.x)

def test_W1_scale_constants(sample_index):
    board = sample_index.index.model("map", "board-2")
    assert board.hex.hex_m == 150.0


def test_W2_to_hit_ties_count():
    g, s = build([("us-m60a3", "4A1")], [("su-t72", "4F1")])
    s.dice.force(3, 3, 4, 5)
    assert s.attack_roll(4, 5) == 1


def test_W3_range_and_underline():
    g, s = build([("us-m60a3", "2C14")], [("su-t72", "2A14"), ("su-bmp2", "2A13")])
    t72, bmp, m60 = u(g, "su.1"), u(g, "su.2"), u(g, "us.1")
    line = [h for h in g.hexes if g.map.offset(h)[1] == 13]          # bottom row of clear hexes
    for d in (8, 16, 17):
        s.hex[m60] = next(h for h in line if distance(h, s.hex[t72]) == d)
        legal = s.fire_numbers(t72, m60, "ap", "normal")
        assert (legal is not None) == (d <= 16), d
    s.hex[bmp] = s.hex[t72]
    for d in (8, 9):
        s.hex[m60] = next(h for h in line if distance(h, s.hex[bmp]) == d)
        assert (s.fire_numbers(bmp, m60, "ap", "normal") is not None) == (d <= 8)


def test_W5_sw_limits_militia_cav_cannot_load():
    g, s = build([("us-mech-infantry", "4A1"), ("us-m113", "4A1")], [("su-t72", "4T14")])
    inf, m113 = u(g, "us.1"), u(g, "us.2")
    assert s._load_targets(inf) == [m113]
    g.units[inf].cls = "militia_cav"
    try:
        assert s._load_targets(inf) == []
    finally:
        g.units[inf].cls = "infantry"


def test_W6_helicopters_do_not_stack_and_die_on_second_hit():
    g, s = build([("us-m60a3", "2J13"), ("us-m1-abrams", "2J13"), ("us-ah1-cobra", "2J13"),
                  ("us-ah64-apache", "2J13")], [("su-t72", "4T14")])
    assert s._stack_count(at(g, "2J13"), 0) == 2
    cobra = u(g, "us.3")
    s.apply_hits(cobra, 1)
    assert s.disr[cobra] and s.strength[cobra] == 0
    s.apply_hits(cobra, 1)
    assert s.strength[cobra] == 2 and at(g, "2J13") in s.wrecks


def test_W9_hq_combat_roll():
    g, s = build([("us-armor-hq", "4J10"), ("us-m60a3", "4J10"), ("us-m1-abrams", "4J10")],
                 [("su-t72", "4T14")])
    hq = u(g, "us.1")
    s.dice.force(2)
    s._hq_check(at(g, "4J10"), 0, True, False)
    assert s.strength[hq] == 0                     # 2: no effect
    s.dice.force(1)
    s._hq_check(at(g, "4J10"), 0, True, False)
    assert s.strength[hq] == 1                     # 1: Reduced
    s.dice.force(3)
    s._hq_check(at(g, "4J10"), 0, True, True)      # 3 - 2 (a unit destroyed) = 1: destroyed
    assert s.strength[hq] == 2


def test_W10_hq_wreck_and_immunities():
    g, s = build([("us-armor-hq", "4J10"), ("us-m60a3", "4J10")], [("su-t72", "4J6")])
    hq, m60, t72 = u(g, "us.1"), u(g, "us.2"), u(g, "su.1")
    assert hq not in s._targets(t72)
    s._disrupt(hq)
    assert not s.disr[hq]
    s._destroy(m60)
    s.wrecks.clear()
    s._hq_check(at(g, "4J10"), 0, True, True)      # all units in the hex destroyed: HQ destroyed
    assert s.strength[hq] == 2 and at(g, "4J10") in s.wrecks


def test_W11_hq_leadership_to_one_unit():
    g, s = build([("us-armor-hq", "4J10"), ("us-m60a3", "4J10"), ("us-m1-abrams", "4J10")],
                 [("su-t72", "4T14")])
    assert s._lead_dice(u(g, "us.2")) == 2        # armor HQ Leadership 2
    assert s._lead_dice(u(g, "us.3")) == 0        # only ONE of the attacking units


def test_W13_rally_with_hq():
    g, s = build([("us-armor-hq", "4J10"), ("us-m60a3", "4J10")], [("su-t72", "4T14")])
    m60 = u(g, "us.2")
    s.disr[m60] = True
    assert s.morale(m60) == 8
    s.dice.force(5, 5)                             # 10 - Leadership 2 = 8 <= 8
    s._rally(g.units[m60].formation)
    assert not s.disr[m60]


def test_W14_thin_skinned_classification():
    g, s = build([("us-m113", "4J10")], [("su-btr70", "4J8"), ("su-t72", "4J7")])
    m113 = u(g, "us.1")
    assert g.units[m113].target_class(0) == "thin"
    assert s.fire_numbers(u(g, "su.1"), m113, "he", "normal") is not None   # BTR-70 HE may attack it


@pytest.mark.parametrize("option,expect", [("reduce_and_disrupt", (True, 1)), ("disrupt", (True, 0))])
def test_W15_t72_ap_against_unarmored_in_woods(option, expect):
    g, s = build([("us-truck", "2N11")], [("su-t72", "2N14")], options={"c04_unarmored_ap_hit": option})
    truck, t72 = u(g, "us.1"), u(g, "su.1")
    s.ops_complete[truck] = True                             # not Concealed: woods DB 1d6 only
    s.dice.force(3, 3, 4, 5)
    assert s.attack_roll(4, 5) == 1
    s.dice.force(5)                                # a 5 on the woods die ignores the Hit
    assert s.resolve_hits(truck, 1, "ap", t72) == 0
    s.dice.force(4)                                # otherwise the Hit lands
    assert s.resolve_hits(truck, 1, "ap", t72) == 1
    assert (s.disr[truck], s.strength[truck]) == expect


def test_W17_wreck_for_thin_skinned():
    g, s = build([("us-m113", "4J10")], [("su-t72", "4T14")])
    s._destroy(u(g, "us.1"))
    assert at(g, "4J10") in s.wrecks


def test_W19_recon_command_radius():
    g, s = build([("us-armor-hq", "4A14"), ("us-m60a3", "4A14"), ("us-m3-bradley", "4F14")],
                 [("su-t72", "4T1")])
    assert distance(at(g, "4A14"), at(g, "4F14")) == 5
    mark = len(s.dice.history)
    s._command(0, False)
    assert rolls(s, mark, "command") == []         # recon In Command at 2 x 3 hexes
    assert not s.out_of_command[u(g, "us.3")]


def test_W33_W41_command_check_per_hex():
    g, s = build([("us-m60a3", "4T14")], [("su-mr-hq", "2A1"), ("su-t72", "2A1"), ("su-t72", "2J14"),
                                          ("su-bmp2", "2J14")])
    assert s.morale(u(g, "su.3")) == 6             # 62nd Motorized Rifle: 6 or less
    s.dice.force(3, 4)                             # one roll for the hex: 7 > 6 fails
    s._command(1, False)
    assert s.out_of_command[u(g, "su.3")] and s.out_of_command[u(g, "su.4")]
    s.out_of_command = [False] * len(s.out_of_command)
    mark = len(s.dice.history)
    s.dice.force(3, 3)
    s._command(1, False)
    assert rolls(s, mark, "command") == [3, 3] and not s.out_of_command[u(g, "su.3")]


def test_W34_conditional_morale():
    g, s = build([("us-m60a3", "4T14")],
                 [("su-t72", "2A1"), ("su-t72", "2A1"), ("su-t72", "2B1"), ("su-t72", "2C1"), ("su-t72", "2A3")],
                 morale=(None, {"value": 2, "conditional": True}))
    assert s.morale(u(g, "su.1")) == 2 + 4
    g2, s2 = build([("us-m60a3", "4T14")], [("su-t72", "2A1")] * 10,
                   morale=(None, {"value": 2, "conditional": True}))
    assert s2.morale(u(g2, "su.1")) == 8          # capped at 8


# ---------------------------------------------------------------- B. turn sequence

def test_W37_activation_choice():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1")])
    assert s.pending[0] == "decide"
    fid = g.formations[s.pending[1]].id
    assert [str(a) for a in s.legal_actions()] == [f"activate {fid}", f"skip {fid}"]
    with pytest.raises(RulesError, match="WaW 3.1"):
        s.play(Action("end"))


def test_W38_held_end_turn_marker():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1")])
    for _ in range(20):                            # the US skips, the Soviets activate and end
        if s.turn > 1:
            break
        p = s.pending
        if p[0] == "decide":
            fid = g.formations[p[1]].id
            s.apply(Action("skip" if fid == "f-us" else "activate", fid))
        else:
            s.apply(Action("end"))
    assert s.turn == 2 and s.held_marker == [1, 0]
    assert sum(1 for m in s.cup if m[0] == "E") + s.et_drawn <= 1
    before = sum(1 for m in s.cup if m[0] == "E")
    s._activate(0)
    assert s.held_marker[0] == 0 and sum(1 for m in s.cup if m[0] == "E") == before + 1


def test_W39_two_formation_markers():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1")], markers=(2, 1))
    s2 = s.clone()
    s2._new_cup()
    assert s2.cup.count(("F", 0)) == 2 and s2.cup.count(("F", 1)) == 1


def test_W43_automatic_in_command():
    g, s = build([("us-ah1-cobra", "2A1"), ("us-ah64-apache", "2A1")], [("su-t72", "4T14")])
    cobra = u(g, "us.1")
    s.disr[cobra] = True
    s._activate(0)
    assert g.formations[0].kind == "helicopter" and not s.disr[cobra] and not s.out_of_command[cobra]


# ---------------------------------------------------------------- C. movement and transport

def test_W45_ops_complete_after_moving():
    g, s = build([("us-m60a3", "4J14"), ("us-armor-hq", "4J14")], [("su-t72", "2A1")])
    to_ops(s)
    m60 = u(g, "us.1")
    s.apply(Action("move", "us.1", g.label[s._move_targets(m60)[0]]))
    while s.pending[0] == "opfire":
        s.apply(Action("pass"))
    assert not any(a.kind == "fire" for a in s.legal_actions())      # moved: no fire (no Moving Fire here)
    s._end_impulse(0)
    assert s.ops_complete[m60]


def test_W46_load_same_hex_half_mf():
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "2A1")])
    inf, m113 = u(g, "us.1"), u(g, "us.2")
    s._load(inf, m113)
    assert s.carrier[inf] == m113 and s._mp(m113) == 3.0


def test_W47_rendezvous_locks():
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "2A1")])
    inf, m113 = u(g, "us.1"), u(g, "us.2")
    s.mp_used[m113] = 2.0
    s._load(inf, m113)
    assert s.locked[m113] and s._move_targets(m113) == []
    s.disr[inf] = True
    s.carrier[inf] = -1
    assert s._load_targets(inf) == []             # Disrupted infantry cannot load


def test_W49_transport_hit_table():
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14"), ("us-mech-infantry", "4K14"),
                  ("us-m113", "4K14")], [("su-t72", "2A1")])
    a, ca, b, cb = (u(g, f"us.{i}") for i in (1, 2, 3, 4))
    s._load(a, ca)
    s._load(b, cb)
    s._disrupt(ca)
    assert s.disr[a]
    s.dice.force(3)                                # destroyed, odd: passengers Disrupted and Reduced
    s._destroy(ca)
    assert s.strength[a] == 1 and s.disr[a] and s.carrier[a] == -1
    s.dice.force(4)                                # destroyed, even: passengers destroyed
    s._destroy(cb)
    assert s.strength[b] == 2


def test_W50_towed_gun_costs_half_mp():
    g, s = build([("us-m60a3", "4T14")], [("su-d30", "2A1"), ("su-btr70", "2A1")])
    gun, btr = u(g, "su.1"), u(g, "su.2")
    s._load(gun, btr)
    assert s.mp_used[btr] == 3.0
    s._unload(gun)
    assert s.mp_used[btr] == 6.0 and s.ops_complete[gun]


# ---------------------------------------------------------------- D. ranged combat

def test_W53_full_chain_t72_concealed_in_woods():
    g, s = build([("us-m60a3", "2A14")], [("su-t72", "2L10")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    clear_hex_with_los(g, s, m60, t72, 5, 8)
    assert s.concealed(t72)
    assert s.fire_numbers(m60, t72, "ap", "normal") == (4, 4)
    assert s.defense_dice(t72) == (4 + 2, 6)      # Armor 4 + woods 1d6 + Concealed 1d6
    s.dice.force(4, 1, 5, 4)
    hits = s.attack_roll(4, 4)
    assert hits == 3
    s.dice.force(1, 3, 4, 4, 5, 6, 6)             # 6 save dice, then the (unused) HQ roll
    assert s.resolve_hits(t72, hits, "ap", m60) == 2
    assert s.disr[t72] and s.strength[t72] == 1   # Disrupted and Reduced


def test_W54_W63_armored_db_cap():
    g, s = build([("us-m60a3", "2A14")], [("su-t72", "2L10")])
    t72 = u(g, "su.1")
    s.wrecks.add(s.hex[t72])
    assert s.defense_dice(t72) == (6, 6)          # woods + Concealed (+ Wrecks) still 2d6
    s.ops_complete[t72] = True
    assert s.defense_dice(t72) == (5, 6)          # woods only: 1d6


def test_W55_soft_target_save():
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "2J7")])
    inf = u(g, "su.1")
    s.ops_complete[inf] = True
    assert s.defense_dice(inf) == (2, 5)
    s.dice.force(5, 2, 6)
    assert s.resolve_hits(inf, 2, "he", u(g, "us.1")) == 1
    assert s.disr[inf] and s.strength[inf] == 0


def test_W57_reduced_range_bonus():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    assert distance(s.hex[m60], s.hex[t72]) == 4
    assert s.fire_numbers(t72, m60, "ap", "normal") == (4, 4)       # Hit 5 -> 4 at half range (8 // 2)


def test_W58_hit_number_above_six():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J1")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    s.hex[t72] = next(h for h in g.hexes if distance(h, s.hex[m60]) == 12 and g.los.clear(
        s.hex[m60], h, g.level[s.hex[m60]], g.level[h]))
    s.mp_used[m60] = 1.0                           # Moving Fire L1 at extended range: 4 + 1 + 1 = 6
    assert s.fire_numbers(m60, t72, "ap", "moving") == (4, 6)
    g.units[m60].body.moving_fire = "L2"
    g.fire_memo.clear()                            # the counter's values edited in place: recompile (fire.py)
    try:
        assert s.fire_numbers(m60, t72, "ap", "moving") == (3, 6)
    finally:
        g.units[m60].body.moving_fire = "L1"
    v = s.values(m60)
    v.to_hit.ap = 5                                # Hit 5: 5 + 1 + 1 = 7 -> FP 4 - 1, Hit 6
    g.fire_memo.clear()
    try:
        assert s.fire_numbers(m60, t72, "ap", "moving") == (3, 6)
    finally:
        v.to_hit.ap = 4
        g.fire_memo.clear()


def test_W59_moving_fire_half_mp_and_no_assault():
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J12")])
    m60, inf = u(g, "us.1"), u(g, "su.1")
    s.mp_used[m60] = 3.0                           # MF 5: more than half
    assert s.fire_numbers(m60, inf, "he", "moving") is None
    s.mp_used[m60] = 2.0
    assert s.fire_numbers(m60, inf, "he", "moving") is None         # HE not underlined on the M60A3
    s.mfired[m60] = True
    to = s._ops_actions(0)
    assert not any(a.kind in ("assault", "overrun") and a.unit == "us.1" for a in to)


def test_W61_missile_depletion():
    g, s = build([("us-m60a3", "4J14")], [("su-bmp2", "4J8"), ("su-mtlb-120", "4K8")])
    bmp, m60, mortar = u(g, "su.1"), u(g, "us.1"), u(g, "su.2")
    s.dice.force(1, 3, 3, 2)
    s._fire(bmp, m60, "ap", "normal")
    assert s.depleted[bmp] == 2
    assert s.fire_numbers(bmp, m60, "ap", "normal") is None          # underlined AP blocked
    s._marker_removal()
    assert s.depleted[bmp] == 1
    s._marker_removal()
    assert s.depleted[bmp] == 0
    s.dice.force(1, 1, 1, 1)
    s.ops_complete[mortar] = False
    s._fire(mortar, m60, "he", "normal") if s.fire_numbers(mortar, m60, "he", "normal") else None
    assert s.depleted[mortar] == 0                # a mortar never depletes


def test_W62_concealment_and_its_negations():
    g, s = build([("us-m60a3", "4J14"), ("us-m3-bradley", "4T1")], [("su-motor-rifle", "2J7")])
    inf, m3 = u(g, "su.1"), u(g, "us.2")
    s.hex[m3] = at(g, "4T1")
    assert s.concealed(inf) and s.defense_dice(inf) == (3, 5)
    s.ops_complete[inf] = True
    assert not s.concealed(inf)
    s.ops_complete[inf] = False
    s.hex[u(g, "us.1")] = at(g, "2K7")             # adjacent GO enemy
    assert not s.concealed(inf)


def test_W65_opportunity_fire_once_per_hex_and_stop():
    g, s = build([("us-m60a3", "4J14"), ("us-armor-hq", "4J14")], [("su-t72", "4J10")])
    to_ops(s, "f-su")
    t72 = u(g, "su.1")
    step = next(h for h in s._move_targets(t72) if distance(h, at(g, "4J14")) == 3)
    s.apply(Action("move", "su.1", g.label[step]))
    assert s.pending[0] == "opfire" and s.current_player() == 0
    s.dice.force(6, 6, 6, 1, 1, 1, 1, 1, 1)
    s.apply(Action("opfire", "us.1", "su.1", "ap"))
    assert s.ops_complete[u(g, "us.1")] and s.disr[t72]
    assert s._move_targets(t72) == []              # Disrupted or Reduced: the mover stops


# ---------------------------------------------------------------- E. Assault and Overrun

def test_W66_assault_leadership_dice():
    g, s = build([("us-armor-hq", "4J14"), ("us-m113", "4J14")], [("su-motor-rifle", "4J13")])
    m113, inf = u(g, "us.2"), u(g, "su.1")
    mark = len(s.dice.history)
    s._assault_dice(m113, [inf], at(g, "4J13"), False, False)
    assert len(rolls(s, mark, "attack")) == 1 + 2  # AF 1 + Leadership 2


def test_W67_hit_distribution():
    g, s = build([("us-m60a3", "4T14")], [("su-motor-rifle", "4J13"), ("su-motor-rifle", "4J13")])
    a, b = u(g, "su.1"), u(g, "su.2")
    s._distribute([a, b], 3)
    assert sorted([s.disr[a] + s.strength[a], s.disr[b] + s.strength[b]]) == [1, 2]
    g, s = build([("us-m60a3", "4T14")], [("su-motor-rifle", "4J13"), ("su-motor-rifle", "4J13")])
    a, b = u(g, "su.1"), u(g, "su.2")
    s._distribute([a, b], 5)
    assert sorted([s.strength[a], s.strength[b]]) == [1, 2]


def test_W69_W71_assault_hit_numbers():
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J13"), ("su-motor-rifle", "4K5")])
    inf, m60, city_inf = u(g, "su.1"), u(g, "us.1"), u(g, "su.2")
    mark = len(s.dice.history)
    s.dice.force(3, 3, 3)
    assert s._assault_dice(inf, [m60], at(g, "4J14"), False, False) == 3     # Hit 4 -> 3 vs vehicles
    s.dice.force(3, 3, 3, 3)
    assert s._assault_dice(city_inf, [m60], at(g, "4K5"), True, False) == 4  # city: AF 3 + 1
    assert len(rolls(s, mark, "attack")) == 7
    s.dice.force(5, 5, 5)
    assert s._assault_dice(inf, [m60], at(g, "4J14"), True, True) == 0       # Disrupted: Hit 6


def test_W70_no_assault_factor():
    g, s = build([("us-m60a3", "4J14")], [("su-sa9", "4J13")])
    mark = len(s.dice.history)
    assert s._assault_dice(u(g, "su.1"), [u(g, "us.1")], at(g, "4J13"), True, False) == 0
    assert rolls(s, mark) == []


def test_W73_overrun():
    g, s = build([("us-m60a3", "4L14")], [("su-motor-rifle", "4L13")])
    m60 = u(g, "us.1")
    targets = s._overrun_targets(m60)
    assert targets and targets[0][0] == at(g, "4L13")
    mark = len(s.dice.history)
    s.dice.force(*([1] * 6), 6, 6, 6)
    s._overrun(m60, *targets[0])
    assert len(rolls(s, mark, "attack")) == 2 * 3 + 3          # 3 x AF 2, infantry AF 3
    assert (g.units[m60].uid, at(g, "4L13")) in s.overrun_done
    assert s.mp_used[m60] >= 2                     # clear 1 + 1 extra MP


# ---------------------------------------------------------------- F. LOS

def test_W74_W75_adjacent_and_end_hexes():
    g, s = build([("us-m60a3", "4A5")], [("su-t72", "4A6")])
    assert s.has_los(0, 1)                         # adjacent, both in woods
    assert g.los.clear(at(g, "4A5"), at(g, "4A7"), 0, 0) is False      # woods between
    assert g.los.clear(at(g, "2L10"), at(g, "2L12"), 0, 0) is False


def test_W77_hill_to_ground():
    from studio.rulesets.waw.engine.los import Los

    row = [(q, 0) for q in range(5)]               # observer on a hill at (0,0), ground target at (4,0)

    def sees(codes, levels=(1, 0, 0, 0, 0)):
        return Los(dict(zip(row, codes)), dict(zip(row, levels)),
                   {"C": "none", "W": "blocks", "T": "city"}).clear((0, 0), (4, 0))
    assert not sees("CCCWC")                       # directly behind woods
    assert sees("CCWCC")                           # woods further from the target: seen over
    assert not sees("CCTCC") and not sees("CCCTC")  # one or two hexes behind a city
    assert sees("CTCCC")                           # three hexes behind a city: clear
    assert not sees("CCCCC", (1, 0, 1, 0, 0))      # another hill between
    assert sees("CCCCC", (1, 1, 0, 0, 0))          # the observer's own hill does not block
    g, s = build([("us-m60a3", "4A5")], [("su-t72", "4A6")])
    # 7.2: 4G7 is inside its hill (no side on a ridge line), so the ridge line between blocks the ground target
    assert g.level[at(g, "4G7")] == 1 and not g.los.clear(at(g, "4G7"), at(g, "4J12"), 1, 0)


def test_W79_split_step_hexside_rule():
    from studio.rulesets.waw.engine.los import Los

    a, b = (0, 0), (2, -1)                         # the line runs along the side shared by (1,0) and (1,-1)
    terrain = {(0, 0): "C", (1, 0): "W", (1, -1): "C", (2, -1): "C"}
    one = Los(terrain, {}, {"W": "blocks", "C": "none"})
    assert one.clear(a, b)
    terrain[(1, -1)] = "W"
    both = Los(terrain, {}, {"W": "blocks", "C": "none"})
    assert not both.clear(a, b)


# ---------------------------------------------------------------- G. artillery

def test_W81_accuracy_and_caller_not_oc():
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "4A10"), ("su-t72", "4A10")],
                 extension={"artillery": [{"id": "he", "side": "soviet", "formula": "2 x 45"}]})
    hq = u(g, "su.1")
    target = at(g, "4T14")
    s.dice.force(6, 1, 1, 1, 1)                    # a 6 drifts to an adjacent hex
    s._call(hq, 0, target)
    assert s.strength[u(g, "us.1")] == 0 and not s.ops_complete[hq] and s.missions[0] == 1


def test_W82_he_mission_on_city():
    g, s = build([("us-m60a3", "4K5"), ("us-mech-infantry", "4K5")], [("su-t72", "4A1")])
    tank, inf = u(g, "us.1"), u(g, "us.2")
    s.dice.force(5, 6, 2, 5, 5, 1)                 # 3 Hits; city 2d6 saves [5, 1]: 1 ignored
    assert s.artillery_he(at(g, "4K5"), 4, 5) == 2
    assert s.disr[tank] and s.disr[inf] and s.strength[tank] == 0
    s.artillery_he(at(g, "4K5"), 0, 5)
    s.apply_hits(inf, 1)
    assert s.strength[inf] == 1


def test_W83_single_hit_on_two_units_is_random():
    g, s = build([("us-m60a3", "4J14"), ("us-mech-infantry", "4J14")], [("su-t72", "4A1")])
    s.dice.force(6)
    s.artillery_he(at(g, "4J14"), 1, 5)
    assert s.disr.count(True) == 1


# ---------------------------------------------------------------- H. air

def test_W90_mode_change_once_first_action():
    g, s = build([("us-ah1-cobra", "2A1"), ("us-ah64-apache", "2A2")], [("su-t72", "4T14")])
    to_ops(s)
    assert Action("mode", "us.1") in s.legal_actions()
    s.apply(Action("mode", "us.1"))
    assert s.hover[u(g, "us.1")] and Action("mode", "us.1") not in s.legal_actions()
    assert not any(a.kind == "move" and a.unit == "us.1" for a in s.legal_actions())   # Hovering: no move


def test_W91_hovering_cobra_he_against_armor():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")])
    cobra, t72 = u(g, "us.1"), u(g, "su.1")
    s.hover[cobra] = True
    assert s.fire_numbers(cobra, t72, "he", "normal") == (3, 4)


def test_W93_range_against_helicopters():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J11"), ("su-bmp2", "4J13"), ("su-zsu-23-4", "4J10")])
    cobra, t72, bmp, zsu = (u(g, x) for x in ("us.1", "su.1", "su.2", "su.3"))
    assert s.fire_numbers(t72, cobra, "ap", "normal") is not None        # 8 // 2 = 4 >= 3
    s.hex[t72] = at(g, "4J9")
    assert s.fire_numbers(t72, cobra, "ap", "normal") is None            # 5 > 4
    assert s.fire_numbers(bmp, cobra, "ap", "normal") is None            # underlined vs Flying
    s.hover[cobra] = True
    assert s.fire_numbers(bmp, cobra, "ap", "normal") is not None        # Hovering: half range
    assert s.fire_numbers(zsu, cobra, "aa", "normal") == (4, 4)          # AA: full range


def test_W94_helicopter_losses():
    test_W6_helicopters_do_not_stack_and_die_on_second_hit()


# ---------------------------------------------------------------- I / J

def test_W99_chaos_roll():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    s.dice.force(1, 1)                             # 2: each side may remove one Ops Complete marker
    s.ops_complete = [True] * len(s.ops_complete)
    s._chaos()
    assert s.ops_complete.count(False) == 2
    s.dice.force(3, 4, 6, 4, 4)                    # 7 -> 3d6 = 14: Thor's Hammer
    s._chaos()
    assert s.thor


def test_W107_improved_positions():
    g, s = build([("us-mech-infantry", "2N11")], [("su-t72", "2N14")], extension={
        "fortifications": {"improved_positions": ["2N11"]}})
    inf, t72 = u(g, "us.1"), u(g, "su.1")
    s.ops_complete[inf] = True
    s.dice.force(6)                                # first Hit ignored by the IP, woods 1d6 saves the second
    assert s.resolve_hits(inf, 2, "he", t72) == 0


def test_W109_control():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4A1")])
    assert s.control[at(g, "4J14")] == 0
    s._relocate(u(g, "su.1"), at(g, "4A1"), at(g, "4J13"))
    assert s.control[at(g, "4J13")] == 1


# ---------------------------------------------------------------- K. tables

def _table(sample_index, tid):
    return sample_index.index.model("ruleset", "waw").table(tid)


def test_W110_tec_cells(sample_index):
    t = _table(sample_index, "terrain_effects")
    rows = {r[1]: dict(zip(t.columns, r)) for r in t.rows}
    cost = {tt.name: tt.move_cost for tt in sample_index.index.model("ruleset", "waw").terrain}
    assert (rows["Clear"]["db_infantry"], cost["Clear"]["tracked"], rows["Clear"]["blocking"]) == (0, 1, "none")
    assert (rows["Rough"]["db_vehicle"], cost["Rough"]["tracked"], rows["Rough"]["blocking"]) == (1, 2, "two_or_more")
    assert (rows["Craters"]["db_vehicle"], rows["Craters"]["concealment"]) == (0, "infantry")
    assert (rows["Texas Scrub"]["db_infantry"], rows["Texas Scrub"]["db_vehicle"],
            cost["Texas Scrub"]["foot"]) == (2, 1, 2)
    assert "cost_vehicle" not in t.columns         # one source of movement costs: terrain[].move_cost
    assert t.placeholder_rows and min(t.placeholder_rows) == 4


def test_W111_targeting_cells(sample_index):
    t = _table(sample_index, "targeting")
    rows = {r[0]: r for r in t.rows}
    assert rows["AP"][1:7] == [True, True, True, False, "yes_note_1", False]
    assert rows["Vehicle HE"][1:7] == [False, True, True, True, "yes_note_1", False]
    assert rows["Infantry HE"][1:7] == [False, False, True, True, "yes_note_1", False]


def test_W113_helicopter_los_levels(sample_index):
    t = _table(sample_index, "helicopter_los")
    assert [r[1] for r in t.rows] == [1, 2, 3] and not t.placeholder and not t.placeholder_rows


def test_every_ambiguity_is_an_option_or_a_reading(sample_index):
    rs = sample_index.index.model("ruleset", "waw")
    ids = [o.id[:3] for o in rs.options] + [r.id[:3] for r in rs.readings]
    assert len(set(ids)) == len(ids) == 77
    assert all(len(o.choices) >= 2 for o in rs.options)       # one-choice points are readings (issue 10)


# ---------------------------------------------------------------- widening: leaders, heroes, artillery types, air

def test_W18_mortar_indirect_fire():
    g, s = build([("us-81mm-mortar", "2A14"), ("us-mech-hq", "4C10"), ("us-m2-bradley", "4C10")],
                 [("su-motor-rifle", "4A12")])
    mortar, hq, m2, inf = u(g, "us.1"), u(g, "us.2"), u(g, "us.3"), u(g, "su.1")
    # a mortar hex with no LOS to the target (woods between), and the HQ where it sees the target
    target = at(g, "2N9")
    s.hex[inf] = target
    s.hex[mortar] = at(g, "2N13")
    assert not g.los.clear(s.hex[mortar], target, 0, 0)
    s.hex[hq] = s.hex[m2] = at(g, "2N7")
    assert target in s._indirect_targets(mortar)
    s.dice.force(2, 6, 6, 6)                      # accuracy 2: on target; HE 3 dice
    s._indirect(mortar, target)
    assert s.ops_complete[mortar] and not s.ops_complete[hq]


def test_W25_W26_leader_adds_dice_capped():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], extension={
        "leaders": [{"unit": "su-leader", "force": "su", "index": 0}]})
    t72, m60 = u(g, "su.1"), u(g, "us.1")
    mark = len(s.dice.history)
    s._fire(t72, m60, "ap", "normal")
    assert len(rolls(s, mark, "attack")) == 4 + 1  # AP 4 + Leadership 1 (at most 2 added dice)


def test_W27_W35_leader_morale_and_casualty():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], morale=(None, {"value": 2, "conditional": True}),
                 extension={"leaders": [{"unit": "su-leader", "force": "su", "index": 0}]})
    t72 = u(g, "su.1")
    assert s.morale(t72) == 8                      # the Leader's Morale, not Conditional Morale
    s.dice.force(1)
    s._reduce(t72)                                 # Reduced: a 1 kills the Leader
    assert ("L", t72) in s.hallowed and s.morale(t72) == 2


def test_W29_hero():
    g, s = build([("us-mech-infantry", "2N11")], [("su-t72", "2N14"), ("su-motor-rifle", "2N12")], extension={
        "heroes": [{"unit": "us-hero", "force": "us", "index": 0}]})
    inf, t72 = u(g, "us.1"), u(g, "su.1")
    s.ops_complete[inf] = True
    s.dice.force(1)                                # 2 Hits: the first ignored, woods die fails
    assert s.resolve_hits(inf, 2, "he", t72) == 1
    s.dice.force(1, 1, 1)                          # no Hits rolled in Assault: the Hero still scores one
    assert s._assault_dice(inf, [u(g, "su.2")], at(g, "2N12"), False, False) == 1


def test_W85_chemical():
    g, s = build([("us-mech-infantry", "4J12"), ("us-m60a3", "4J13")], [("su-t72", "4A1")])
    inf, m60 = u(g, "us.1"), u(g, "us.2")
    s.dice.force(6, 6, 6, 6)                       # both fail the Morale check (12 > 8)
    s.mission("Chemical", at(g, "4J12"), 1, 1, False)
    assert s.disr[inf] and s.strength[inf] == 1    # dismounted infantry: Disrupted and Reduced
    assert s.disr[m60] and s.strength[m60] == 0    # vehicle: Disrupted
    dest = next(n for n in sorted(g.nbrs[at(g, "4J13")]) if distance(n, at(g, "4J12")) == 1
                and g.terrain[n] == "C")
    assert s._terrain_cost(m60, at(g, "4J13"), dest) == 1.0 + 2.0
    s._marker_removal()
    assert not s.chem


def test_W86_dpicm_only_vehicles():
    g, s = build([("us-mech-infantry", "4J12"), ("us-m60a3", "4J12")], [("su-t72", "4A1")])
    inf, m60 = u(g, "us.1"), u(g, "us.2")
    s.dice.force(3, 3)                             # 2 Hits, clear terrain: no saves
    s.artillery_he(at(g, "4J12"), 2, 3, dpicm=True, nato=True)
    assert not s.disr[inf] and s.disr[m60] and s.strength[m60] == 1


def test_W87_mlrs_covers_seven_hexes():
    g, s = build([("us-m60a3", "4J12")], [("su-t72", "4A1")])
    mark = len(s.dice.history)
    s.mission("MLRS", at(g, "4J12"), 3, 4, False)
    assert len(rolls(s, mark, "attack")) == 7 * 3


def test_W95_airstrike_interception():
    ext = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2, "save": 5}]}
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J12"), ("su-zsu-23-4", "4J11")], extension=ext)
    zsu = u(g, "su.2")
    s.dice.force(6, 6, 6, 6, 1, 1)                 # ZSU: 4 Hits; aircraft saves none: shot down
    s._strike(0, at(g, "4J12"))
    assert 0 in s.air_out and s.ops_complete[zsu]
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J12")], extension=ext)
    s.dice.force(4, 4, 1, 1, 6)                    # no AA; AP 4 dice: 2 Hits; clear: no saves; sortie 6 > 2
    s._strike(0, at(g, "4J12"))
    t72 = u(g, "su.1")
    assert s.disr[t72] and s.strength[t72] == 1 and 0 not in s.air_out


def test_W98_jammed():
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-m60a3", "4A1")], [("su-t72", "2A1")],
                 extension={"cup": {"jammed": ["soviet"], "jammed_instructions": "on the US HQ"}})
    s._jam(1)
    assert s.jammed == {0: 1}
    mark = len(s.dice.history)
    s.dice.force(1)
    s._command(0, False)
    assert rolls(s, mark, "jammed") == [1] and s.out_of_command[u(g, "us.3")] and not s.out_of_command[u(g, "us.2")]
    s.dice.force(2)                                # MRP: even -> Solving
    s._marker_removal()
    assert s.jammed == {0: 2}


def test_W102_breakdown():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4A1")])
    s.dice.force(4, 4)                             # 8: NATO puts Breakdown on an Alliance vehicle
    s._chaos()
    t72 = u(g, "su.1")
    assert s.breakdown[t72] == 2 and s._move_targets(t72) == []
    s._marker_removal()
    s._marker_removal()
    assert s.breakdown[t72] == 0


def test_smoke_blocks_and_costs_a_hit():
    g, s = build([("us-m60a3", "4J14"), ("us-m1-abrams", "4K14")], [("su-t72", "4J8")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    s.smoke[at(g, "4J10")] = 2
    assert not s.has_los(t72, m60)                 # no Advanced Imaging: blocked
    assert s.fire_numbers(m60, t72, "ap", "normal") == (4, 5)        # Advanced Imaging: Hit +1


def test_W101_berserk():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4A1"), ("su-t72", "4A2")])
    a = u(g, "su.1")
    s.disr[a], s.strength[a] = True, 1
    s.dice.force(3, 3, 1)                          # 2d6 = 6: Berserk; the d6 picks unit 1 of 1
    s._chaos()
    assert not s.disr[a] and s.strength[a] == 0 and s.berserk[a] == 1
    s.apply_hits(a, 1)
    assert s.berserk[a] == 2 and not s.disr[a]     # first Hit: Berserk -> Insane, no other effect
    s.apply_hits(a, 1)
    assert s.strength[a] == 1


def test_W103_chaos_leader_and_volley_marker():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4A1")])
    s.dice.force(5, 6)                             # 11: an Alliance Leader joins a platoon
    s._chaos()
    assert u(g, "su.1") in s.xleaders
    s.dice.force(6, 6, 4, 4, 4)                    # 12: Volley Fire marker (no Leader re-roll needed)
    s._chaos()
    assert ("volley", 1) in s.hand


def test_W103_friendly_fire():
    g, s = build([("us-m60a3", "4J14"), ("us-m113", "4J10")], [("su-t72", "4A1")])
    s.dice.force(4, 6)                             # 10: a NATO unit fires at another NATO unit
    s._chaos()
    assert s.ops_complete[u(g, "us.1")]


def test_W106_volley_fire():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J9"), ("su-motor-rifle", "4K10"), ("su-t55", "4I10")])
    s.hand.add(("volley", 1))
    acts = s._volley_actions(1)
    assert acts and acts[0].unit == "su.1"
    mark = len(s.dice.history)
    s.dice.force(5, 5, 1, 1, 1, 1)
    lead, sups, t = u(g, "su.1"), [u(g, "su.2"), u(g, "su.3")], u(g, "us.1")
    assert s.fire_numbers(lead, t, "ap", "normal") == (4, 5)
    s._volley(lead, sups, t)
    assert len(rolls(s, mark, "attack")) == 6      # 4 + 1 + 1, Hit 5
    assert all(s.ops_complete[x] for x in [lead] + sups) and ("volley", 1) not in s.hand


def test_W22_W23_unplaced_sw_lost():
    ext = {"support_weapons": [{"unit": "su-sagger-sw", "force": "su", "index": 0}]}
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4A1"), ("su-motor-rifle", "4A2"),
                                          ("su-motor-rifle", "4A3")], extension=ext)
    a, b, c = u(g, "su.1"), u(g, "su.2"), u(g, "su.3")
    s.dice.force(2)                                # first platoon lost: 2 - 0 = 2, no effect
    s._destroy(b)
    assert a not in s.sw_lost
    s.dice.force(2)                                # second: 2 - 1 = 1, the enemy destroys the SW
    s._destroy(c)
    assert a in s.sw_lost


def test_W30_W31_sniper():
    ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2J8"}]}
    g, s = build([("us-mech-infantry", "2I9")], [("su-motor-rifle", "2J11"), ("su-motor-rifle", "2J12")],
                 extension=ext)
    far, near = u(g, "su.1"), u(g, "su.2")
    assert distance(at(g, "2J8"), s.hex[far]) == 3
    s.dice.force(3, 6)                             # 3 hexes in the open: 3 - 1 = 2, a 3 Disrupts; stays
    s._snipe(0, far)
    assert s.disr[far] and s.snipers[0][2] == 1
    s.snipers[0][2] = 0
    s.dice.force(1, 3)                             # miss; removal 3 - 1 (not Disrupted) - 1 (second shot) = 1
    s._snipe(0, near)
    assert not s.disr[near] and s.snipers[0][2] == 2


def test_W97_air_cover_against_airstrike():
    ext = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2, "save": 5}],
           "cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 3, "air_cover_to_hit": 5}}
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J12")], extension=ext)
    s.cover.add(1)
    s.dice.force(5, 5, 1, 1, 1)                    # Air Cover: 2 Hits, aircraft saves none: shot down
    s._strike(0, at(g, "4J12"))
    assert 0 in s.air_out and ("used", 1) in s.cover and 1 not in s.cover


def test_W51_amphibious():
    g, s = build([("us-m60a3", "4T14")], [("su-bmp2", "4J12"), ("su-t72", "4J12")])
    bmp, t72 = u(g, "su.1"), u(g, "su.2")
    water = at(g, "4J11")
    old = g.terrain[water]
    g.terrain[water] = "RV"
    try:
        assert water in s._move_targets(bmp) and water not in s._move_targets(t72)
        s._move(bmp, water)
        s.pending = ("ops", 1)
        out = s._move_targets(bmp)
        assert out and water not in out
        s._move(bmp, out[0])
        assert s._move_targets(bmp) == []          # crossing water spends all MP
    finally:
        g.terrain[water] = old


def test_fortune_die_and_hallowed_ground():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J9")])
    t72, m60 = u(g, "su.1"), u(g, "us.1")
    s.hand.add(("fortune", 1))
    mark = len(s.dice.history)
    s._fire(t72, m60, "ap", "normal")
    assert len(rolls(s, mark, "attack")) == 5 and ("fortune", 1) not in s.hand      # Chaos 17: +1 die
    s.ops_complete[t72] = False
    s.hallowed.add(("G", s.hex[t72], "Soviet Union"))
    s.dice.force(1, 6, 6, 6, 6)                    # the failed 1 is re-rolled on Hallowed Ground
    mark = len(s.dice.history)
    s._fire(t72, m60, "ap", "normal")
    assert rolls(s, mark, "hallowed") == [6]


def test_W43_W50_reinforcements_enter_in_command():
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "2A1"), ("su-t72", "2A1"), ("su-t72", "2A1")])
    # make the Soviet formation a turn-2 reinforcement entering at 2A5/2A6
    fi = 1
    g.entry[fi] = (2, [at(g, "2A5"), at(g, "2A6")])
    s.entered_f.discard(fi)
    for i in g.formations[fi].units:
        s.hex[i] = None
    s._new_cup()
    assert ("F", fi) not in s.cup                  # not before its entry turn
    s.turn = 2
    s._new_cup()
    assert ("F", fi) in s.cup
    mark = len(s.dice.history)
    s._activate(fi)
    units = g.formations[fi].units
    assert {g.label[s.hex[i]] for i in units} <= {"2A5", "2A6"}
    assert rolls(s, mark, "command") == [] and not any(s.out_of_command[i] for i in units)


def test_W113_helicopter_los_table_rules():
    from studio.rulesets.waw.engine.los import Los

    # a straight row of hexes: helicopter at (0,0), target at (4,0)
    row = [(q, 0) for q in range(5)]
    def los(codes, levels=None):
        return Los(dict(zip(row, codes)), dict(zip(row, levels or [0] * 5)),
                   {"C": "none", "W": "blocks", "T": "city"})
    assert los("CCCWC").flight_level((0, 0)) == 1
    assert not los("CCCWC").heli((0, 0), (4, 0), 0, 1)        # directly behind woods
    assert los("CCWCC").heli((0, 0), (4, 0), 0, 1)            # woods further away: seen from the air
    assert not los("CCTCC").heli((0, 0), (4, 0), 0, 1)        # two hexes behind a city
    assert not los("CCCCC", [0, 0, 1, 0, 0]).heli((0, 0), (4, 0), 0, 1)   # a hill between
    hill = los("CCCCC", [1, 1, 0, 0, 0])
    assert hill.flight_level((0, 0)) == 2 and hill.heli((0, 0), (4, 0), 0, 2)  # own hill does not block
    assert not los("CCWCC", [0, 0, 1, 0, 1]).heli((0, 0), (4, 0), 1, 2)       # wooded hill between


def test_popup_results_are_simultaneous():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J11"), ("su-zsu-23-4", "4K12")])
    cobra, t72, zsu = u(g, "us.1"), u(g, "su.1"), u(g, "su.2")
    s.hover[cobra] = True
    s.pending = ("popup", cobra, t72, "he", 0)
    s.dice.force(6, 6, 6, 6, 1, 1,                 # ZSU: 4 Hits, the Cobra saves none (kept for later)
                 6, 6, 6, 1, 1, 1, 1, 6)          # Cobra still fires: 3 Hits, T-72 saves none
    s._popup_resolve((zsu, "aa"))
    assert s.strength[cobra] == 2 and s.strength[t72] >= 1 and s.ops_complete[zsu]
    assert s.pending == ("ops", 0)


def test_stack_assault_together():
    g, s = build([("us-mech-infantry", "4L13")], [("su-motor-rifle", "4L12"), ("su-motor-rifle", "4L12")])
    inf, a, b = u(g, "us.1"), u(g, "su.1"), u(g, "su.2")
    to_ops(s, "f-su")
    acts = [str(x) for x in s.legal_actions() if x.kind == "assault"]
    assert "assault su.1+su.2 4L13" in acts
    mark = len(s.dice.history)
    s.dice.force(6, 6, 6, 6, 6, 6, 1, 1, 1)       # 6 Hits on the lone defender; it rolls 3 misses
    s.apply(Action("assault", "su.1+su.2", "4L13"))
    assert len(rolls(s, mark, "attack")) == 9
    assert s.strength[inf] == 2 and s.hex[a] == s.hex[b] == at(g, "4L13")


def test_W25_leader_raises_mp_and_lowers_save():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J9")], extension={
        "leaders": [{"unit": "su-leader", "force": "su", "index": 0}]})
    t72 = u(g, "su.1")
    s.ops_complete[t72] = True
    assert s._mp(t72) == 5 + 1 and s.defense_dice(t72) == (4, 6 - 1)


def test_W103_armed_insurrection():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension={"cup": {"chaos": 1}})
    mob = g.mob
    assert mob is not None and s.hex[mob] is None
    s.dice.force(4, 5)                             # 9: the Mob appears in a city hex with its marker
    s._chaos()
    assert g.terrain[s.hex[mob]] in ("T", "SK") and ("F", g.units[mob].formation) in s.cup


def test_onmap_artillery_modes():
    g, s = build([("us-m60a3", "4T14")], [("su-2s1", "4A14"), ("su-tank-hq", "4T1"), ("su-t72", "4T1")])
    gun, m60 = u(g, "su.1"), u(g, "us.1")
    assert distance(s.hex[gun], s.hex[m60]) > 10 and g.los.clear(s.hex[gun], s.hex[m60], 0, 0)
    assert s.fire_numbers(gun, m60, "he", "normal") is None or distance(s.hex[gun], s.hex[m60]) <= 20
    assert s.hex[m60] in s._indirect_targets(gun)  # (b) beyond the fixed range of 10, in LOS
    mark = len(s.dice.history)
    s._indirect(gun, s.hex[m60])
    assert rolls(s, mark, "accuracy") == [] and len(rolls(s, mark, "attack")) == 3   # unlimited FP 3


def test_W105_battle_drill_and_miscommunication():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1"), ("su-t72", "4A2")])
    s.dice.force(4, 3, 6, 6, 3)                    # 7 -> 3d6 = 15: Battle Drill
    s._chaos()
    assert ("drill", 1) in s.hand
    # a second Alliance formation would act with the first; with only one formation the marker stays
    s._activate(1)
    assert s.drill is None and ("drill", 1) in s.hand
    assert all(a.kind in ("move", "fire", "end", "assault", "load", "call", "overrun") for a in s.legal_actions())
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J6")])
    before = distance(s.hex[u(g, "us.1")], s.hex[u(g, "su.1")])
    s.dice.force(1, 2)                             # 3: the Alliance moves the NATO unit toward its own
    s._chaos()
    assert distance(s.hex[u(g, "us.1")], s.hex[u(g, "su.1")]) < before and s.ops_complete[u(g, "us.1")]


def test_W105_battle_drill_two_formations():
    from studio.rules.load import load_game

    data = Path(__file__).resolve().parents[3] / "data"
    g = load_game(data / "scenarios" / "waw" / "waw-crossroads.yaml", data).game
    s = g.new_initial_state(0)
    tanks = next(i for i, f in enumerate(g.formations) if f.id == "f-su-tanks")
    rifles = next(i for i, f in enumerate(g.formations) if f.id == "f-su-rifles")
    s.hand.add(("drill", 1))
    s._activate(tanks)
    s.pending = ("ops", tanks)
    assert s.drill == rifles and ("drill", 1) not in s.hand
    acts = s.legal_actions()
    kinds = {a.kind for a in acts}
    assert kinds <= {"move", "fire", "call", "end"}
    movers = {g.units[g.by_uid[a.unit]].formation for a in acts if a.kind == "move"}
    assert movers == {tanks, rifles}
    s.apply(Action("end"))
    assert s.drill is None


def test_air_cover_against_helicopter():
    ext = {"cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 3, "air_cover_to_hit": 5}}
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4A1")], extension=ext)
    to_ops(s, "f-su")
    s.cover.add(1)
    assert Action("cover", "us.1") in s.legal_actions()
    s.dice.force(5, 6, 1, 1, 1)                    # 2 Hits, the Cobra's 2 Armor dice save none
    s.apply(Action("cover", "us.1"))
    assert s.strength[u(g, "us.1")] == 2 and ("used", 1) in s.cover
