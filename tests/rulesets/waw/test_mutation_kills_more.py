"""More exact-outcome tests written against the survivors of the sampled mutation run of 2026-12-01 (COVERAGE.md):
each pins a rule's numbers through play (legal actions, dice rolled, Hits, markers), so a changed comparison,
constant or dropped statement fails."""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, rolls, to_ops, u  # noqa: E402
from studio.hexgrid.coords import distance  # noqa: E402

from studio.rules.dice import Dice  # noqa: E402
from studio.rulesets.waw.engine.actions import Action  # noqa: E402
from studio.rules.load import load_game  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "data"


# ---------------------------------------------------------------- WaW 1.0: every roll is a d6 (2d6 = two d6)

@pytest.mark.parametrize("name", ["waw-crossroads", "waw-hill-fight", "waw-lab"])
def test_every_roll_is_a_d6(name, monkeypatch):
    """WaW rolls only six-sided dice ("roll on a d6", "2d6"): a die of another size anywhere fails."""
    sizes = set()
    real = Dice.roll

    def roll(self, sides, label=""):
        sizes.add((sides, label))
        return real(self, sides, label)
    monkeypatch.setattr(Dice, "roll", roll)
    game = load_game(DATA / "scenarios" / "waw" / f"{name}.yaml", DATA).game
    bots = [game.make_bot("heuristic", s, s) for s in (0, 1)]
    for seed in range(2):
        st = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            p = st.current_player()
            a = bots[p].choose(st.observation(p), legal) if seed else legal[rng.randrange(len(legal))]
            st.apply(a)
    bad = {s for s in sizes if s[0] != 6}
    assert sizes and not bad, bad


# ---------------------------------------------------------------- 9.6 Air Cover, 9.5 airstrikes, 10.0 Jammed

AIRSTRIKE = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2, "save": 5}]}


def test_9_6_air_cover_hit_saved_leaves_the_helicopter_untouched():
    ext = {"cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 3, "air_cover_to_hit": 5}}
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4A1")], extension=ext)
    cobra = u(g, "us.1")
    s.cover.add(1)
    s.dice.force(5, 1, 1, 6, 6)                    # 1 Hit; the Cobra's Armor dice save it
    s._air_cover_attack(cobra)
    assert (s.disr[cobra], s.strength[cobra]) == (False, 0) and ("used", 1) in s.cover


def test_9_5_no_aa_means_no_aircraft_save_roll():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J12")], extension=AIRSTRIKE)
    a, side = g.airstrikes[0]
    mark = len(s.dice.history)
    assert s._strike_gets_through(0, at(g, "4J12"), a, side) is True
    assert rolls(s, mark) == []                    # nothing fired at the aircraft: it rolls nothing


def test_9_5_aircraft_save_cancels_the_aa_hit():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J12"), ("su-zsu-23-4", "4J11")], extension=AIRSTRIKE)
    a, side = g.airstrikes[0]
    n_aa = g.vals[u(g, "su.2")][0][0].aa_fp
    s.dice.force(6, *([1] * (n_aa - 1)), 6, 1)     # the ZSU scores 1 Hit; the aircraft saves 1 of its 2 dice
    assert s._strike_gets_through(0, at(g, "4J12"), a, side) is True
    assert 0 not in s.air_out


def test_9_5_strike_destroying_a_unit_makes_the_hq_roll_harder():
    """1.3.3.2: the HQ loss roll is at -2 when a unit of the stack is destroyed by the attack."""
    for kill, reduced in ((True, True), (False, False)):
        g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "4J12"), ("su-t72", "4J12"), ("su-motor-rifle", "4J12")],
                     extension=AIRSTRIKE)
        hq, t72 = u(g, "su.1"), u(g, "su.2")       # the infantry stays with the HQ (not alone)
        if kill:
            s.disr[t72], s.strength[t72] = True, 1   # one more Hit destroys it
        s.dice.force(4, 1, 1, 1, 3, 6)             # AP 4 dice: 1 Hit; clear: no saves; HQ roll 3; sortie 6
        s._strike_attack(0, at(g, "4J12"), g.airstrikes[0][0], 0)
        assert (s.strength[t72] == 2) is kill
        assert (s.strength[hq] == 1) is reduced    # 3 - 2 <= 1 only when the T-72 was destroyed


def test_10_0_a_reduced_hq_can_be_jammed():
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "4J12"), ("su-t72", "4J12")])
    s.strength[u(g, "su.1")] = 1
    s.jammed = {}
    s._jam(0)
    assert s.jammed == {1: 1}


# ---------------------------------------------------------------- 8.0-8.7 artillery

def test_8_0_no_call_when_the_rules_allow_none():
    """The missions per caller (constants table) are read: 0 leaves an HQ with nothing to call."""
    ext = {"artillery": [{"id": "he", "side": "soviet", "formula": "2 x 45"}]}
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "4P12"), ("su-t72", "4P12")], extension=ext,
                 tables={"constants": {"artillery_missions_per_caller": {"value": 0}}})
    assert s._call_actions(u(g, "su.1"), 1) == []
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "4P12"), ("su-t72", "4P12")], extension=ext)
    assert s._call_actions(u(g, "su.1"), 1)


def test_8_0_drift_goes_where_the_callers_enemy_has_fewest_units():
    """8.0: a drifting mission goes to the adjacent hex the opponent picks (automated: fewest of his units)."""
    ext = {"artillery": [{"id": "sm", "side": "soviet", "type": "Smoke", "formula": "2 x 45"}]}
    g, s = build([("us-m60a3", "4T14"), ("us-m60a3", "4T14")], [("su-tank-hq", "4A10"), ("su-t72", "4A10")],
                 extension=ext)
    target = at(g, "4J8")
    first = sorted(g.nbrs[target])[0]
    s.hex[u(g, "us.1")] = first                    # a US unit in the first neighbour: the drift avoids it
    s.dice.force(6)
    s._call(u(g, "su.1"), 0, target)
    assert list(s.smoke) == [sorted(g.nbrs[target])[1]]


def test_8_4_chemical_skips_hqs():
    ext = {"artillery": [{"id": "ch", "side": "soviet", "type": "Chemical", "formula": "2 x 45"}]}
    g, s = build([("us-mech-hq", "4J12"), ("us-mech-infantry", "4J12")], [("su-t72", "4A1")], extension=ext)
    mark = len(s.dice.history)
    s.dice.force(1, 1)
    s._chemical(at(g, "4J12"))
    assert rolls(s, mark, "chemical") == [1, 1]   # only the infantry checks Morale


def test_8_1_mortar_indirect_reach_doubles_when_the_range_is_not_underlined():
    g, s = build([("us-81mm-mortar", "4J14")], [("su-t72", "4A1")])
    m = u(g, "us.1")
    v = g.vals[m][0][0]
    g.vals[m] = [[v.model_copy(update={"range_underlined": False})] * 2] * 2
    assert s._indirect_reach(m) == 2 * v.range


def test_8_1_hex_saves_are_d6():
    g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4A1")])
    woods = next(h for h in g.hexes if g.tec_row(h)["db_infantry"] == 1 and h not in g.built_up)
    s.dice.force(6)
    assert s._hex_saves(woods) == 1


# ---------------------------------------------------------------- 6.3 Assault, 6.4 Overrun

def _adjacent_pair(g, code="C"):
    for a in g.hexes:
        for b in g.nbrs[a]:
            if g.terrain.get(a) == code and g.terrain.get(b) == code and not g.level[a] and not g.level[b] \
                    and not g.map.road(a, b) and not g.map.hexside(a, b):
                return a, b
    raise AssertionError("no pair")


def test_6_3_assault_with_exactly_the_mp_left():
    g, s = build([("us-mech-infantry", "4T14")], [("su-motor-rifle", "4A1")])
    inf, enemy = u(g, "us.1"), u(g, "su.1")
    a, b = _adjacent_pair(g)
    s.hex[inf], s.hex[enemy] = a, b
    cost = s._terrain_cost(inf, a, b)
    s.mp_used[inf] = s._mp(inf) - cost            # just enough MP left to enter
    assert s._assault_targets(inf) == [b]
    s.mp_used[inf] += 0.5
    assert s._assault_targets(inf) == []


def test_6_3_assault_spends_the_terrain_cost():
    g, s = build([("us-mech-infantry", "4T14")], [("su-motor-rifle", "4A1")])
    inf, enemy = u(g, "us.1"), u(g, "su.1")
    src = next(h for h in g.hexes if g.terrain.get(h) == "C" and any(
        g.terrain.get(n) == "W" and not g.map.road(h, n) and not g.map.hexside(h, n) for n in g.nbrs[h]))
    dst = next(n for n in g.nbrs[src] if g.terrain.get(n) == "W" and not g.map.road(src, n)
               and not g.map.hexside(src, n))
    s.hex[inf], s.hex[enemy] = src, dst
    cost = s._terrain_cost(inf, src, dst)
    assert cost > 1
    s.dice.force(1, 1)                             # both sides miss
    s._assault([inf], dst)
    assert s.mp_used[inf] == cost


def test_6_3_a_reduced_defender_that_holds_is_ops_complete():
    g, s = build([("us-mech-infantry", "4T14")], [("su-motor-rifle", "4A1")])
    inf, enemy = u(g, "us.1"), u(g, "su.1")
    a, b = _adjacent_pair(g)
    s.hex[inf], s.hex[enemy] = a, b
    s.strength[enemy] = 1
    s.dice.force(1, 6)                             # the attacker misses, the defender hits
    s._assault([inf], b)
    assert s.hex[enemy] == b and s.ops_complete[enemy]


def test_6_3_no_hit_on_the_defenders_no_hq_roll():
    g, s = build([("us-mech-infantry", "4T14")], [("su-mr-hq", "4A1"), ("su-motor-rifle", "4A1")])
    inf, hq, enemy = u(g, "us.1"), u(g, "su.1"), u(g, "su.2")
    a, b = _adjacent_pair(g)
    s.hex[inf], s.hex[enemy], s.hex[hq] = a, b, b
    mark = len(s.dice.history)
    s.dice.force(1, 1)                             # both sides miss
    s._assault([inf], b)
    assert rolls(s, mark, "hq") == []


def test_6_4_overrun_exit_never_into_an_enemy_hex():
    """6.4: the overrunning vehicle goes on into a hex free of the enemy (a Soviet vehicle here)."""
    g, s = build([("us-mech-infantry", "4T14"), ("us-m60a3", "4T14")], [("su-t72", "4A1")])
    inf, m60, t72 = u(g, "us.1"), u(g, "us.2"), u(g, "su.1")
    a, b = _adjacent_pair(g)
    s.hex[t72], s.hex[inf] = a, b
    exits = [x for x in g.nbrs[b] if x != a]
    first = s._overrun_exit(t72, a, b, 0.0)
    assert first in exits
    s.hex[m60] = first                             # a US unit in that exit hex
    assert s._overrun_exit(t72, a, b, 0.0) not in (first, None)


def test_8_7_b_beyond_fixed_range_in_own_los_needs_no_spotter():
    """8.7 (b): a target in the gun's own LOS beyond its fixed range is fired at per 8.1, with or without an HQ,
    Leader or recon unit (those are needed only out of LOS, 8.7 c)."""
    g, s = build([("us-mech-infantry", "4T14")], [("su-2s1", "4A14"), ("su-t72", "4T1")])
    gun, inf = u(g, "su.1"), u(g, "us.1")
    assert 10 < distance(s.hex[gun], s.hex[inf]) <= 20 and g.los.clear(s.hex[gun], s.hex[inf], 0, 0)
    assert s._indirect_targets(gun) == [s.hex[inf]]


def test_1_3_7_hero_ignores_the_first_assault_hit_on_its_platoon():
    g, s = build([("us-mech-infantry", "4T14")], [("su-motor-rifle", "4A1")], extension={
        "heroes": [{"unit": "us-hero", "force": "us", "index": 0}]})
    inf, enemy = u(g, "us.1"), u(g, "su.1")
    a, b = _adjacent_pair(g)
    s.hex[inf], s.hex[enemy] = a, b
    n_att = g.vals[inf][0][0].assault_fp
    n_def = g.vals[enemy][0][0].assault_fp
    s.dice.force(*([1] * n_att), *([6] * n_def))   # the attacker misses (the Hero still scores 1), the defender hits
    s._assault([inf], b)
    assert n_def == 3 and (s.disr[inf], s.strength[inf]) == (True, 1)   # 3 Hits, 1 ignored: Disrupted, Reduced
    assert s.disr[enemy]                           # the Hero's own Hit


def _win_assault_dice(g, attacker, defender):
    n_att = g.vals[attacker][0][0].assault_fp
    n_def = g.vals[defender][0][0].assault_fp
    return [6] + [1] * (n_att - 1) + [1] * n_def   # the attacker scores 1 Hit, the defender none


def test_6_3_retreat_leaves_a_helicopter_of_the_hex_in_place():
    g, s = build([("us-mech-infantry", "4T14")], [("su-motor-rifle", "4A1"), ("su-mi24-hind", "4A1")])
    inf, enemy, hind = u(g, "us.1"), u(g, "su.1"), u(g, "su.2")
    a, b = _adjacent_pair(g)
    s.hex[inf], s.hex[enemy], s.hex[hind] = a, b, b
    s.dice.force(*_win_assault_dice(g, inf, enemy))
    s._assault([inf], b)
    assert s.hex[enemy] != b and s.hex[inf] == b and s.hex[hind] == b


def test_6_3_b_passengers_of_the_attacking_transport_do_not_block_the_retreat():
    """6.3 b: only the attacking units are exempt; units carried by the attacker (in its hex) are not units next
    to the retreat hex either (they are carried)."""
    g, s = build([("us-m113", "4T14"), ("us-mech-infantry", "4T14")],
                 [("su-motor-rifle", "4A1"), ("su-t72", "4A2"), ("su-t72", "4A2")])
    m113, inf, enemy = u(g, "us.1"), u(g, "us.2"), u(g, "su.1")
    assert m113 == 0
    for a, b in ((a, b) for a in g.hexes for b in g.nbrs[a]):
        away = (2 * b[0] - a[0], 2 * b[1] - a[1])
        rest = [n for n in sorted(g.nbrs[b]) if n not in (away, a)]
        if away in g.label and rest and distance(rest[0], a) == 1 and not g.map.hexside(a, b):
            break
    s.hex[m113], s.hex[enemy] = a, b
    s.hex[inf], s.carrier[inf] = a, m113
    s.hex[u(g, "su.2")] = s.hex[u(g, "su.3")] = away   # the hex directly away is full (1.4)
    s.dice.force(*_win_assault_dice(g, m113, enemy))
    s._assault([m113], b)
    assert s.hex[enemy] == rest[0]


def test_9_6_air_cover_without_aa_factor_is_not_spent_on_an_airstrike():
    ext = dict(AIRSTRIKE, cup={"air_cover": ["soviet"]})          # no AA Firepower given: the marker cannot fire
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J12")], extension=ext)
    a, side = g.airstrikes[0]
    s.cover.add(1)
    assert s._strike_gets_through(0, at(g, "4J12"), a, side) is True
    assert 1 in s.cover and ("used", 1) not in s.cover


def test_9_6_a_helicopter_without_armor_rolls_no_save():
    ext = {"cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 3, "air_cover_to_hit": 5}}
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4A1")], extension=ext)
    cobra = u(g, "us.1")
    v = g.vals[cobra][0][0]
    g.vals[cobra] = [[v.model_copy(update={"armor": None, "save": None})] * 2] * 2
    s.cover.add(1)
    mark = len(s.dice.history)
    s.dice.force(5, 1, 1)                          # 1 Hit, nothing to save it with
    s._air_cover_attack(cobra)
    assert rolls(s, mark, "save") == [] and s.disr[cobra]


# ---------------------------------------------------------------- 4.2 command, 11.0 Battlefield Chaos

def test_4_2_command_check_without_an_hq_in_the_hex_gets_no_leadership():
    """4.2 with option c29 'rally_and_command': only an HQ stacked in the hex subtracts its Leadership."""
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "2A1"), ("su-t72", "2J14")],
                 options={"c29_hq_leadership_checks": "rally_and_command"})
    t72 = u(g, "su.2")
    m = s.morale(t72)
    s.dice.force(m - 5, 6)                         # 2d6 = Morale + 1: fails
    s._command(1, False)
    assert s.out_of_command[t72]


@pytest.mark.parametrize("seed", range(3))
def test_11_0_chaos_rolls_are_d6(seed, monkeypatch):
    sizes = set()
    real = Dice.roll

    def roll(self, sides, label=""):
        sizes.add(sides)
        return real(self, sides, label)
    monkeypatch.setattr(Dice, "roll", roll)
    g, s = build([("us-m60a3", "4T14"), ("us-mech-infantry", "4T13")], [("su-t72", "4A1"), ("su-t72", "4A2")],
                 extension={"cup": {"chaos": 1}}, seed=seed)
    for _ in range(12):
        s._chaos()
        s.pending, s.misc = ("none",), None
    assert sizes == {6}


def test_11_0_chaos_12_volley_fire_goes_to_the_alliance():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    s.dice.force(6, 6)
    s._chaos()
    assert s.hand == {("volley", 1)}


def test_11_0_chaos_6_berserk_takes_a_reduced_unit():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4A1"), ("su-t72", "4A2")])
    a = u(g, "su.2")
    s.strength[a] = 1                              # Reduced, not Disrupted
    s.dice.force(3, 3, 1)
    s._chaos()
    assert s.strength[a] == 0 and s.berserk == {a: 1}


def test_11_0_chaos_leader_needs_a_platoon_to_join():
    g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4A1"), ("su-mi24-hind", "4A2")])
    s._chaos_leader(1)                             # no ground platoon: the Leader has nowhere to go
    assert s.xleaders == {}


def test_11_0_chaos_16_repairs_rallies_when_no_go_reduced_vehicle():
    g, s = build([("us-m60a3", "4J14"), ("us-m60a3", "4J13")], [("su-t72", "4A1")])
    go, dis = u(g, "us.1"), u(g, "us.2")
    s.disr[dis] = True
    s.dice.force(3, 4, 6, 5, 5)                    # 7, then 3d6 = 16: Repairs
    s._chaos()
    assert (s.strength[go], s.disr[go], s.disr[dis]) == (0, False, False)


def test_11_0_chaos_3_a_reduced_unit_is_moved_too():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J8")])
    m60 = u(g, "us.1")
    s.strength[m60] = 1
    start = distance(s.hex[m60], s.hex[u(g, "su.1")])
    s.dice.force(1, 2)                             # 3: Miscommunication
    s._chaos()
    assert distance(s.hex[m60], s.hex[u(g, "su.1")]) < start


def test_11_0_chaos_9_a_destroyed_mob_does_not_come_back():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension={"cup": {"chaos": 1}})
    s.strength[g.mob] = 2
    s._insurrection(0)
    assert s.hex[g.mob] is None and ("F", g.units[g.mob].formation) not in s.cup


def test_11_0_chaos_9_mob_not_into_a_full_city_hex():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension={"cup": {"chaos": 1}})
    s._insurrection(0)
    first = s.hex[g.mob]
    g2, s2 = build([("us-m60a3", "4T14"), ("us-m60a3", "4T14")], [("su-t72", "4A1")],
                   extension={"cup": {"chaos": 1}})
    s2.hex[u(g2, "us.1")] = s2.hex[u(g2, "us.2")] = first      # two NATO platoons already there (1.4)
    s2._insurrection(0)
    assert s2.hex[g2.mob] not in (first, None)


# ---------------------------------------------------------------- 7.0 LOS in play, 8.2 Smoke

def test_8_2_adjacent_units_see_each_other_through_smoke():
    g, s = build([("us-m113", "4J14")], [("su-bmp1", "4J13")])
    ha, hb = at(g, "4J14"), at(g, "4J13")
    assert not g.units[u(g, "us.1")].body.advanced_imaging
    s.smoke[next(n for n in sorted(g.nbrs[hb]) if distance(n, ha) == 2)] = 2   # Smoke beside the target
    assert s._smoke_between(ha, hb)                # it would block a longer line
    assert s.has_los(u(g, "us.1"), u(g, "su.1"))


def test_8_2_smoke_two_hexes_off_the_line_changes_nothing():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4T8")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    clear = s.fire_numbers(m60, t72, "ap", "normal")
    assert clear is not None
    from studio.hexgrid.lines import line_steps
    line = {h for st in line_steps(s.hex[m60], s.hex[t72]) for h in st}
    off = next(h for h in g.hexes if min(distance(h, x) for x in line) == 2)
    s.smoke[off] = 2
    assert s.fire_numbers(m60, t72, "ap", "normal") == clear


def test_11_0_chaos_is_logged_as_no_players_action():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    s.dice.force(6, 6)
    s._chaos()
    assert (s.log[-1].phase, s.log[-1].player, s.log[-1].action) == ("chaos", -1, "chaos 12")


# ---------------------------------------------------------------- 7.2 b / Helicopter LOS Table: Wrecks on hills

def test_7_2_wrecks_on_hills_block_a_low_helicopter_only_toward_a_hill():
    """Helicopter LOS (clear-terrain row): more than one Wreck on hills between blocks a low-flying
    helicopter's LOS to a unit on a hill; toward ground level, and hills without Wrecks, it does not."""
    g, s = build([("us-ah1-cobra", "2A7")], [("su-t72", "2C10")])
    cobra, t72 = u(g, "us.1"), u(g, "su.1")
    assert g.los.flight_level(s.hex[cobra]) <= g.los.heli_levels[0] and g.level[s.hex[t72]] == 0
    s.wrecks = {at(g, "2B8"), at(g, "2C9")}        # two Wrecks on hills between, target on the ground
    assert all(g.level[h] for h in s.wrecks)
    assert s.has_los(cobra, t72)
    s.hex[cobra], s.hex[t72] = at(g, "2A2"), at(g, "2E7")          # now toward a hill
    assert g.level[s.hex[t72]] == 1 and g.los.heli(s.hex[cobra], s.hex[t72], 1, g.los.flight_level(s.hex[cobra]))
    s.wrecks = {at(g, "4T1")}                      # a Wreck far off the line: the hills between are bare
    assert s.has_los(cobra, t72)
    s.wrecks = {at(g, "2D6"), at(g, "2D7")}
    assert not s.has_los(cobra, t72)


# ---------------------------------------------------------------- 6.1 ranged combat results, 12.1, 1.3.8

def test_12_1_improved_positions_negate_exactly_the_first_hit():
    g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4T1")])
    inf, t72 = u(g, "us.1"), u(g, "su.1")
    s.ip.add(s.hex[inf])
    n, _ = s.defense_dice(inf)
    s.dice.force(*([1] * n))                       # the saves all fail
    assert s.resolve_hits(inf, 3, "he", t72) == 2
    assert (s.disr[inf], s.strength[inf]) == (True, 1)


def test_6_1_saves_beyond_the_hits_leave_the_target_untouched():
    g, s = build([("us-mech-infantry", "2N11")], [("su-t72", "2N14")])
    inf, t72 = u(g, "us.1"), u(g, "su.1")
    n, save = s.defense_dice(inf)
    assert n >= 1
    s.ops_complete[inf] = True                     # no Concealment die either way
    n, save = s.defense_dice(inf)
    s.dice.force(*([6] * n))
    assert s.resolve_hits(inf, 1, "he", t72) == 0
    assert (s.disr[inf], s.strength[inf]) == (False, 0)


def test_1_3_3_2_no_net_hit_no_hq_roll():
    g, s = build([("us-mech-hq", "2N11"), ("us-mech-infantry", "2N11")], [("su-t72", "2N14")])
    inf, t72 = u(g, "us.2"), u(g, "su.1")
    s.ops_complete[inf] = True
    n, _ = s.defense_dice(inf)
    s.dice.force(*([6] * n))
    mark = len(s.dice.history)
    s.resolve_hits(inf, 1, "he", t72)
    assert rolls(s, mark, "hq") == []


def test_6_1_2_half_range_rounding_option():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    assert s._half_range(5) == 2
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], options={"c49_half_range": "ceil"})
    assert s._half_range(5) == 3 and s._half_range(4) == 2


def test_1_3_8_sniper_hits_on_a_roll_equal_to_the_range():
    ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2J8"}]}
    g, s = build([("us-mech-infantry", "2I9")], [("su-motor-rifle", "2J11")], extension=ext)
    far = u(g, "su.1")
    s.dice.force(2, 6)                             # 3 hexes in the open: 3 - 1 = 2; a 2 Disrupts
    s._snipe(0, far)
    assert s.disr[far]


def test_1_3_3_2_hq_leadership_used_once_per_impulse():
    g, s = build([("us-mech-hq", "4J14"), ("us-m60a3", "4J14")], [("su-t72", "4T1")])
    m60, hq = u(g, "us.2"), u(g, "us.1")
    lead = s._leadership(hq)
    assert lead >= 1
    assert s._lead_dice(m60) == min(lead, s._lead_cap())
    assert s._lead_dice(m60) == 0                  # the HQ's Leadership goes to one unit's roll


def _patched(g, i, **values):
    """Give unit ``i`` counter values changed as given (both strengths and modes), for cards the sample lacks."""
    v = g.vals[i][0][0]
    to_hit = values.pop("to_hit", None)
    if to_hit:
        values["to_hit"] = v.to_hit.model_copy(update=to_hit)
    g.vals[i] = [[v.model_copy(update=values)] * 2] * 2
    return g.vals[i][0][0]


def test_volley_supports_never_include_the_leading_unit():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J9"), ("su-t72", "4K10"), ("su-t55", "4I10")])
    s.hand.add(("volley", 1))
    acts = [str(a) for a in s._volley_actions(1)]
    assert "volley su.2 su.1+su.3 us.1" in acts and not any(a.startswith("volley su.2 su.1+su.2") for a in acts)


def test_volley_hq_leadership_adds_dice():
    g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J9"), ("su-t72", "4J9"), ("su-motor-rifle", "4K10"),
                                          ("su-t55", "4I10")])
    lead, sups, t = u(g, "su.2"), [u(g, "su.3"), u(g, "su.4")], u(g, "us.1")
    fpv, _ = s.fire_numbers(lead, t, "ap", "normal")
    lead_dice = min(g.tables.volley["leadership_cap"], s._leadership(u(g, "su.1")))
    assert lead_dice >= 1
    mark = len(s.dice.history)
    s.dice.force(*([1] * 20))
    s._volley(lead, sups, t)
    assert len(rolls(s, mark, "attack")) == fpv + 2 * g.tables.volley["dice_per_support"] + lead_dice


def test_volley_support_at_exactly_its_range():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4T6")])
    t72, m60 = u(g, "su.1"), u(g, "us.1")
    v = _patched(g, t72, range_underlined=True)
    assert distance(s.hex[t72], s.hex[m60]) == v.range and s.has_los(t72, m60)
    assert s._in_reach(t72, m60)


def test_1_3_8_sniper_removal_modifiers():
    ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2J8"}]}
    g, s = build([("us-mech-infantry", "2I9")], [("su-motor-rifle", "2J11")], extension=ext)
    far = u(g, "su.1")
    s.dice.force(1, 3)                             # miss; removal 3 - 1 = 2: stays
    s._snipe(0, far)
    assert s.snipers[0][2] == 1
    s.snipers[0][2] = 0
    s.dice.force(6, 3)                             # hit; removal 3 - 0 - 1 (second shot) = 2: stays
    s._snipe(0, far)
    assert s.disr[far] and s.snipers[0][2] == 1


def test_6_1_1_fire_at_exactly_the_longest_reach():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4T6")])
    t72, m60 = u(g, "su.1"), u(g, "us.1")
    _patched(g, t72, range=4, range_underlined=False)
    g.reach[t72] = 8
    assert distance(s.hex[t72], s.hex[m60]) == 8 and s.has_los(t72, m60)
    assert s._fire_types(t72, m60, "normal")          # 6.1.1: twice the range, the last hex included


def test_6_1_1_underlined_range_has_no_extended_range():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4T6")])
    t72, m60 = u(g, "su.1"), u(g, "us.1")
    _patched(g, t72, range=7, range_underlined=True)
    assert s.fire_numbers(t72, m60, "ap", "normal") is None
    _patched(g, t72, range=7, range_underlined=False)
    assert s.fire_numbers(t72, m60, "ap", "normal") is not None


def test_8_2_smoke_that_takes_the_last_firepower_cancels_the_shot():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4T10")])
    m113, t72 = u(g, "us.1"), u(g, "su.1")
    assert g.units[m113].body.advanced_imaging     # it sees through Smoke, at a worse Hit Number (8.2)
    _patched(g, m113, ap_fp=1, to_hit={"ap": 6}, range=6)
    assert s.fire_numbers(m113, t72, "ap", "normal") == (1, 6)
    from studio.hexgrid.lines import line_steps
    mid = line_steps(s.hex[m113], s.hex[t72])[2][0]
    s.smoke[mid] = 2                               # +1 to the Hit Number: 7 -> 6 and one Firepower less: 0
    assert s.fire_numbers(m113, t72, "ap", "normal") is None


def test_6_3_2_augmented_he_rolls_one_die_more():
    g, s = build([("us-m60a3", "4T14")], [("su-motor-rifle", "4T10")])
    m60, inf = u(g, "us.1"), u(g, "su.1")
    _patched(g, m60, he_fp_augmented=True)
    fpv, _ = s.fire_numbers(m60, inf, "he", "normal")
    mark = len(s.dice.history)
    s.dice.force(*([1] * 20))
    s._fire(m60, inf, "he", "normal")
    assert len(rolls(s, mark, "attack")) == fpv + 1


def test_1_3_5_a_reduced_platoons_unplaced_sw_can_be_lost():
    ext = {"support_weapons": [{"unit": "su-sagger-sw", "force": "su", "index": 0}]}
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4A1"), ("su-motor-rifle", "4A2")], extension=ext)
    a, b = u(g, "su.1"), u(g, "su.2")
    s.strength[a] = 1
    s.dice.force(1)
    s._destroy(b)
    assert a in s.sw_lost


# ---------------------------------------------------------------- 5.0 movement costs, 8.4 Chemical

def test_5_0_a_stream_hexside_adds_its_cost():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    m60 = u(g, "us.1")
    (a, b), _ = next((k, f) for k, f in g.map.hexsides.items() if f == "stream" and not g.map.road(*k)
                     and g.terrain.get(k[1]) == "C")
    plain = g.step_cost[("C", g.mobility[m60][0])]
    assert s._terrain_cost(m60, a, b) == plain + g.tables.features["stream"]["tracked"]


def test_8_4_chemical_costs_only_next_to_the_contaminated_hex():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    m60 = u(g, "us.1")
    a, b = _adjacent_pair(g)
    base = s._terrain_cost(m60, a, b)
    far = next(h for h in g.hexes if distance(h, b) == 2)
    s.chem = {far}
    assert s._terrain_cost(m60, a, b) == base
    near = next(h for h in g.hexes if distance(h, b) == 1)
    s.chem = {near}
    assert s._terrain_cost(m60, a, b) == base + g.const("chemical_extra_mp")


# ---------------------------------------------------------------- game set-up (static facts)

def test_setup_lists_tables_with_placeholder_rows():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    rows_only = [t.id for t in g.ruleset.tables if t.placeholder_rows and not t.placeholder]
    assert rows_only and set(rows_only) <= set(g.placeholder_tables)


def test_setup_every_elevated_hex_is_a_hill():
    """7.0: two levels (ground, hill); any elevation above 0 on the map is the hill level."""
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    elevated = [h for h in g.hexes if g.map.elevation.get(h, 0) > 0]
    assert any(g.map.elevation[h] == 1 for h in elevated)
    assert all(g.level[h] == 1 for h in elevated) and all(g.level[h] == 0 for h in g.hexes if h not in elevated)


def test_setup_default_roles_first_side_nato():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension={"roles": []})
    assert g.roles == ["NATO", "Alliance"]


def test_setup_air_cover_values_default():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension={"cup": {"air_cover": ["soviet"]}})
    assert g.air_cover_fp == (0, 5)
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")],
                 extension={"cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 3, "air_cover_to_hit": 4}})
    assert g.air_cover_fp == (3, 4)


def test_setup_target_class_per_strength():
    """1.3.4 / Targeting Table: the class is read per side of the counter (a vehicle losing its Armor when
    Reduced becomes unarmored); Armor 1 with Save 5 is thin-skinned."""
    from helpers import _add, index
    base = index().model("unit", "su-btr70")
    body = base.body.model_copy(deep=True)
    body.full = body.full.model_copy(update={"armor": 1, "save": 5})
    body.reduced = body.reduced.model_copy(update={"armor": None, "save": None})
    card = base.model_copy(update={"id": "su-btr70-test-class", "body": body})
    _add(card, "unit")
    g, s = build([("us-m60a3", "4T14")], [("su-btr70-test-class", "4A1")])
    assert g.tclass[u(g, "su.1")] == ["thin", "unarmored"]


def test_setup_artillery_formula():
    ext = {"artillery": [{"id": "he", "side": "soviet", "formula": "2 x 36"}]}
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension=ext)
    a = g.assets[0]
    assert (a.missions, a.fp, a.to_hit) == (2, 3, 6)


def test_setup_a_unit_without_range_reaches_only_adjacent_hexes():
    g, s = build([("us-mech-hq", "4T14")], [("su-t72", "4A1")])
    assert g.vals[u(g, "us.1")][0][0].range is None and g.reach[u(g, "us.1")] == 1


def test_5_0_compiled_step_costs_follow_a_terrain_change():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")])
    m60 = u(g, "us.1")
    a, b = _adjacent_pair(g)
    before = s._terrain_cost(m60, a, b)
    old = g.terrain[b]
    g.terrain[b] = "W"
    try:
        assert s._terrain_cost(m60, a, b) == g.step_cost[("W", g.mobility[m60][0])] != before
    finally:
        g.terrain[b] = old
    assert s._terrain_cost(m60, a, b) == before


# ---------------------------------------------------------------- 5.0-5.2 movement and transport, 12.2 mines

def test_6_1_7_a_disrupted_us_unit_does_not_close_with_the_enemy():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    s.disr[m60] = True
    d = distance(s.hex[m60], s.hex[t72])
    assert s._move_targets(m60) and all(distance(n, s.hex[t72]) >= d for n in s._move_targets(m60))


def test_6_1_7_closing_in_is_measured_to_the_nearest_enemy():
    from studio.rulesets.waw.engine.movement import _closes_in
    h = (10, 5)
    near, far = (14, 5), (2, 5)                    # 4 and 8 hexes away
    step = (9, 5)                                  # away from the nearest, toward the farther one
    assert not _closes_in(h, step, [near, far])
    assert _closes_in(h, (11, 5), [near, far])


def test_5_2_1_a_towed_gun_loads():
    g, s = build([("us-m60a3", "4T14")], [("su-d30", "2A1"), ("su-btr70", "2A1")])
    gun, btr = u(g, "su.1"), u(g, "su.2")
    assert s._load_targets(gun) == [btr]


def test_5_2_1_a_loaded_passenger_is_ops_complete_after_the_impulse():
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "2A1")])
    inf, m113 = u(g, "us.1"), u(g, "us.2")
    s._load(inf, m113)
    s._end_impulse(0)
    assert s.ops_complete[inf] and s.ops_complete[m113]


def test_12_2_mine_rolls_are_d6(monkeypatch):
    sizes = []
    real = Dice.roll

    def roll(self, sides, label=""):
        sizes.append((sides, label))
        return real(self, sides, label)
    monkeypatch.setattr(Dice, "roll", roll)
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")])
    s.mines = {at(g, "4J13")}
    s._mines(u(g, "us.1"), at(g, "4J13"))
    assert sizes == [(6, "mines")]


# ---------------------------------------------------------------- 3.0-3.2 sequence of play

def _first_draws(s, monkeypatch):
    monkeypatch.setattr(s.dice._rng, "randrange", lambda n: 0)   # the cup's draws take the first marker


def test_3_1_the_second_end_turn_marker_ends_the_turn(monkeypatch):
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")])
    while s.pending[0] != "none":
        s.pending = ("none",)
    turn = s.turn
    s.cup = [("E", 0), ("E", 0)] + [("F", 0), ("F", 1)]
    s.et_drawn = 0
    _first_draws(s, monkeypatch)
    s._advance()
    assert s.turn == turn + 1 and s.et_drawn == 0


def test_11_0_14_thors_hammer_ends_on_the_modified_roll():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")])
    end = g.const("thor_end_roll")
    s.thor = 3                                     # two earlier rolls: +2
    s.dice.force(end - 2 * g.const("thor_end_step"))
    s._mrp_rolls()
    assert s.thor == 0
    s.thor = 1
    s.dice.force(1)
    s._mrp_rolls()
    assert s.thor == 2


def test_11_0_5_comms_breakdown_is_for_the_next_formation_only():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")])
    s.comms = True
    s.dice.force(*([6] * 8))
    s._activate(0)
    assert s.comms is False


def test_13_0_entering_units_stack_two_per_entry_hex():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1"), ("su-t72", "2A1"), ("su-t72", "2A1")])
    fi = 1
    g.entry[fi] = (1, [at(g, "2A5"), at(g, "2A6")])
    s._enter(fi)
    assert [g.label[s.hex[i]] for i in g.formations[fi].units] == ["2A5", "2A5", "2A6"]


# ---------------------------------------------------------------- positions

def test_position_units_left_out_are_eliminated_not_gone_for_good():
    from studio.rules.position import load_position
    d = {"kind": "position", "schema_version": 1, "scenario": "waw-lab", "phase": "impulse",
         "units": [{"card": "us-m60a3", "side": "us", "hex": "4J14"}, {"card": "su-t72", "side": "soviet",
                                                                      "hex": "4J10"}],
         "extension": {"formation": "f-us-armor"}}
    s = load_position(d, DATA).state
    g = s.game
    placed = {i for i in range(len(g.units)) if s.hex[i] is not None}
    assert all(s.strength[i] == 2 for i in range(len(g.units)) if i not in placed)
    assert all(s.depleted[i] == 0 for i in range(len(g.units)))


def test_position_hand_goes_to_the_alliance_side():
    from studio.rulesets.waw.engine.position import state_from_position
    from studio.model.position import Position
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")],
                 extension={"roles": [{"side": "us", "role": "Alliance"}, {"side": "soviet", "role": "NATO"}]})
    assert g.roles == ["Alliance", "NATO"]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "x",
                                   "extension": {"hand": ["volley"]}})
    st = state_from_position(g, pos)
    assert st.hand == {("volley", 0)}


def test_8_1_mortar_accuracy_roll_is_a_d6(monkeypatch):
    """1.3.4.3 / 8.0: a mortar firing at a target it cannot see rolls the accuracy d6."""
    sizes = []
    real = Dice.roll

    def roll(self, sides, label=""):
        sizes.append((sides, label))
        return real(self, sides, label)
    monkeypatch.setattr(Dice, "roll", roll)
    g, s = build([("us-81mm-mortar", "4T14")], [("su-t72", "4A1")])
    m = u(g, "us.1")
    target = next(h for h in g.hexes if 2 < distance(h, s.hex[m]) <= 12
                  and not g.los.clear(s.hex[m], h, s.level(m), g.level.get(h, 0)))
    s._indirect(m, target)
    assert (6, "accuracy") in sizes and all(sd == 6 for sd, _ in sizes)


# ---------------------------------------------------------------- state API: apply, popups, explanations, victory

def test_apply_counts_the_actions_it_logs():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")])
    rng = random.Random(0)
    for _ in range(15):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert s.steps == len(s.log) - sum(1 for e in s.log if e.phase == "chaos") > 0


def test_9_2_1_popup_opens_a_response_window_when_the_enemy_can_fire():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10"), ("su-zsu-23-4", "4J9")])
    to_ops(s)
    pops = [a for a in s.legal_actions() if a.kind == "popup"]
    assert pops
    s.apply(pops[0])
    assert s.pending[0] == "popup" and s.current_player() == 1
    assert any(a.kind == "opfire" for a in s.legal_actions())
    s.apply(Action("pass"))                        # no response: the helicopter's attack is made
    cobra = u(g, "us.1")
    assert s.pending[0] != "popup" and s.ops_complete[cobra]


def test_9_2_1_popup_allowed_after_exactly_twelve_hexes():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")])
    to_ops(s)
    cobra = u(g, "us.1")
    s.heli_moves[cobra] = g.const("helicopter_fire_move_limit")
    assert any(a.kind == "popup" for a in s.legal_actions())
    s.heli_moves[cobra] += 1
    assert not any(a.kind == "popup" for a in s.legal_actions())


def test_6_1_3_1_per_turn_reading_counts_from_zero(monkeypatch):
    """Option c41 'turn': the 12-hex count starts at 0 in the first turn too."""
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")], options={"c41_heli_12_hexes": "turn"})
    to_ops(s)
    cobra, t72 = u(g, "us.1"), u(g, "su.1")
    a, b = s.hex[cobra], next(n for n in g.nbrs[s.hex[cobra]])
    for k in range(g.const("helicopter_fire_move_limit") + 1):
        s._move(cobra, b if k % 2 == 0 else a)
        s.pending = ("ops", 0)
    assert s.heli_moves[cobra] == g.const("helicopter_fire_move_limit") + 1
    assert all(s.fire_numbers(cobra, t72, fp, "normal") is None for fp in ("ap", "he", "aa"))


def test_explain_illegal_names_the_rule():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    to_ops(s)
    err = s.explain_illegal(Action("move", "su.1", "4J9"))
    assert err.rule == "WaW 4.0"
    s.mp_used[u(g, "us.1")] = 1.0
    s.out_of_command[u(g, "us.1")] = False
    err = s.explain_illegal(Action("fire", "us.1", "su.1", "he"))
    assert err.rule == "WaW 6.1.3"


def test_victory_points_for_units_destroyed():
    vic = [{"id": "a", "type": "destroy_units", "side": "us", "points": 2},
           {"id": "b", "type": "hold_hexes", "side": "soviet", "points": 1, "hexes": ["2A1"]}]
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1"), ("su-t72", "2A2")], victory=vic)
    s.control[at(g, "2A1")] = 1
    s._destroy(u(g, "su.2"))
    assert s.victory_points() == [2.0, 1.0]


def test_a_helicopter_is_always_at_hill_level():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")])
    assert s.level(u(g, "us.1")) == 1


def test_1_3_8_only_a_ready_sniper_of_the_formation_snipes():
    ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2J8"}]}
    g, s = build([("us-mech-infantry", "2I9")], [("su-motor-rifle", "2J11")], extension=ext)
    assert any(a.kind == "snipe" for a in s._formation_actions(0))
    s.snipers[0][2] = 2                            # removed
    assert not any(a.kind == "snipe" for a in s._formation_actions(0))


def test_9_6_no_cover_attack_without_an_aa_factor():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4A1")], extension={"cup": {"air_cover": ["soviet"]}})
    s.cover.add(1)
    assert not any(a.kind == "cover" for a in s._formation_actions(1))


def _overrun_setup(reduced=False):
    g, s = build([("us-mech-infantry", "4T14"), ("us-m60a3", "4T1")], [("su-t72", "4A1")])
    inf, m60, t72 = u(g, "us.1"), u(g, "us.2"), u(g, "su.1")
    for a, b in ((a, b) for a in g.hexes for b in g.nbrs[a]):
        if g.terrain.get(a) == g.terrain.get(b) == "C" and not g.level[a] and not g.level[b] \
                and not g.map.road(a, b) and not g.map.hexside(a, b):
            s.hex[t72], s.hex[inf] = a, b
            if s._overrun_targets(t72):
                break
    if reduced:
        s.strength[t72] = 1
    return g, s, inf, m60, t72


def test_6_4_overrun_hits_one_each_first():
    g, s, inf, m60, t72 = _overrun_setup()
    n_att = g.const("overrun_multiplier") * g.vals[t72][0][0].assault_fp
    n_def = g.vals[inf][0][0].assault_fp
    (b, x), = s._overrun_targets(t72)[:1]
    n_save, _ = s.defense_dice(inf)
    s.dice.force(6, *([1] * (n_att - 1)), *([1] * n_save), *([1] * n_def))   # one Hit, no save, no reply
    s._overrun(t72, b, x)
    assert (s.disr[inf], s.strength[inf]) == (True, 0)      # one Hit: Disrupted only


def test_6_4_a_reduced_overrunner_going_on_draws_opportunity_fire():
    g, s, inf, m60, t72 = _overrun_setup(reduced=True)
    n_att = g.const("overrun_multiplier") * g.vals[t72][1][0].assault_fp
    n_def = g.vals[inf][0][0].assault_fp
    (b, x), = s._overrun_targets(t72)[:1]
    s.hex[m60] = next(h for h in g.hexes if 2 <= distance(h, x) <= 4 and g.los.clear(h, x, g.level[h], g.level[x])
                      and h not in (b, x) and distance(h, s.hex[t72]) > 1)
    s.dice.force(*([1] * n_att), *([1] * n_def))  # nobody hits: the T-72 goes on into the exit hex
    s._overrun(t72, b, x)
    assert s.hex[t72] == x and s.pending[0] == "opfire"


def test_actions_are_values_usable_in_sets():
    """Actions compare and hash by kind and fields (the text form), so listings can be compared as sets."""
    a, b = Action("move", "us.1", "4J13"), Action("move", "us.1", "4J13")
    assert a == b and len({a, b, Action("end")}) == 2 and hash(a) == hash(b)


def test_11_0_10_friendly_fire_picks_the_target_hardest_to_save():
    """Chaos 10 (choice automated): among equal shots NATO's target is the one expected to save least
    (fewest defence dice times save chance): an M60A3 rather than the better-armoured M1."""
    g, s = build([("us-m1-abrams", "4T14"), ("us-m60a3", "4T14"), ("us-m60a3", "4T14")], [("su-t72", "2A1")])
    m1, m60, firer = u(g, "us.1"), u(g, "us.2"), u(g, "us.3")
    s.hex[firer] = at(g, "4J14")
    spots = [h for h in g.hexes if distance(h, s.hex[firer]) == 3 and g.terrain.get(h) == "C" and not g.level[h]
             and g.los.clear(s.hex[firer], h, 0, 0)]
    s.hex[m1], s.hex[m60] = spots[0], spots[1]
    s.ops_complete[m1] = s.ops_complete[m60] = True          # only the third tank can fire
    assert s.fire_numbers(firer, m1, "ap", "normal") == s.fire_numbers(firer, m60, "ap", "normal")
    (n1, sv1), (n2, sv2) = s.defense_dice(m1), s.defense_dice(m60)
    assert n2 * (7 - sv2) < n1 * (7 - sv1)
    s.dice.force(*([6] * 12), *([1] * 12))
    s._friendly_fire(0)
    assert s.disr[m60] and not s.disr[m1]


def test_4_2_an_hq_stacked_in_the_hex_helps_the_command_check():
    """Option c29 'rally_and_command': the stacked HQ's Leadership is subtracted (the HQ is unit 0 here)."""
    g, s = build([("us-mech-hq", "2A1"), ("us-m60a3", "2J14")], [("su-t72", "4T14")],
                 options={"c29_hq_leadership_checks": "rally_and_command"})
    hq, m60 = u(g, "us.1"), u(g, "us.2")
    assert hq == 0
    m = s.morale(m60)
    lead = s._leadership(hq)
    s.hex[hq] = s.hex[m60]
    s.dice.force(*_two_dice(m + lead))             # 2d6 = Morale + Leadership: passes only with the HQ's help
    s._morale_command_check(s.hex[m60], [m60], 0)
    assert not s.out_of_command[m60]


def _two_dice(total):
    a = min(6, total - 1)
    return a, total - a


def test_1_3_8_a_chaos_sniper_without_a_host_serves_any_nato_formation():
    g, s = build([("us-m60a3", "2I9")], [("su-motor-rifle", "2J11")])
    s.snipers.append([at(g, "2J8"), -1, 0, 0, "NATO"])   # Chaos 18: a sniper with no host platoon
    assert any(a.kind == "snipe" for a in s._formation_actions(0))


def test_explain_illegal_fire_without_moving_names_the_targeting_rules():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "2A1")])
    to_ops(s)
    s.out_of_command[u(g, "us.1")] = False
    assert s.mp_used[u(g, "us.1")] == 0
    err = s.explain_illegal(Action("fire", "us.1", "su.1", "he"))
    assert err.rule == "WaW 6.1, 7.0, Targeting Table"
