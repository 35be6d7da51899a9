"""MBT Basic Game worked examples (mbt-basic-examples.md), one test per example id; dice forced with Dice.force."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_fixtures import card, find, line_pair, new_game, place, terrain  # noqa: E402

from studio.hexgrid.coords import DIRECTIONS, distance, neighbour  # noqa: E402
from studio.hexgrid.facing import Aspect, hit_aspect  # noqa: E402
from studio.rules.api import RulesError  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402
from studio.rulesets.mbt.engine.los import MbtLos, blind_zone  # noqa: E402


def A(text):
    return G._parse(text)


def facing_for(target, firer, want: Aspect) -> int:
    return next(f for f in range(6) if hit_aspect(target, f, firer) is want)


def play_commands(state, orders: dict):
    while state.phase == G.P_CMD:
        name = state.game.units[state.cq].name
        state.play(A(f"command {name} {orders.get(name, 'NC')}"))


# ---------------------------------------------------------------- 1. dice, rounding
def test_M1_M2_M3_percentile_reading():
    assert (G.percentile(2, 7), G.percentile(0, 1), G.percentile(0, 0)) == (27, 1, 100)
    assert G.read_d10(0) == 10


def test_M5_M6_speed_allowance_fractions():
    g = new_game()
    s = place(g, 1, {"T": (0, "t-80bv", "2C5", 2), "R": (1, "t-72a", "2C9", 2)})
    i = g.uindex["T"]
    g.units[i].type.sb = 1
    s.cmd[i] = G.SH
    s.dmg[i] = True
    assert s.msa(i, 8) == 2          # damaged Short Halt: 1/4 whatever the SB
    s.dmg[i] = False
    assert s.msa(i, 8) == 6          # SB:1 Short Halt: 3/4
    g.units[i].type.sb = 2
    assert s.msa(i, 8) == 4          # SB:2 Short Halt: 1/2
    s.cmd[i] = G.MOVE
    s.dmg[i] = True
    assert s.msa(i, 8) == 4          # damaged Move: 1/2
    assert s.msa(i, 5) == 2          # M5: 5 -> 1/2 = 2
    s.cmd[i] = G.SH
    assert s.msa(i, 5) == 1 and s.msa(i, 1) == 1   # 1/4 of 5 = 1; never less than 1


def test_M9_range_counts_target_hex():
    assert distance((0, 0), (1, 0)) == 1


def test_M10_maximum_range():
    g = new_game()
    ut = card("t-80bv")
    row = next(r for r in ut.ap if r.ammo == "APFSDS")
    assert row.max_range == 33
    s = place(g, 1, {"T": (0, "t-80bv", "2A8", 2), "R": (1, "t-72a", "2A8", 2)})
    t, r = g.uindex["T"], g.uindex["R"]
    line = [g.map.hex("2A8")]
    while len(line) < 40:
        line.append(neighbour(line[-1], 2))
    s.hex[r] = line[33]
    assert distance(s.hex[t], s.hex[r]) == 33 and s.weapon_ok(t, r, row)
    s.hex[r] = line[34]
    assert not s.weapon_ok(t, r, row)


# ---------------------------------------------------------------- 2. spotting
def _spot_setup():
    g = new_game()
    woods = find(g, lambda h: terrain(g, h) == "W")
    clear = find(g, lambda h: terrain(g, h) == "C")
    s = place(g, 1, {"BMP": (1, "bmp-2", g.label(woods), 0), "M1": (0, "m1", g.label(clear), 0)})
    return g, s, g.uindex["BMP"], woods, clear


def test_M14_base_range_20_in_clear():
    g, s, b, woods, clear = _spot_setup()
    s.hex[b] = clear
    assert s.spot_range(b) == 20


def test_M15_woods_medium_cover_7():
    g, s, b, woods, clear = _spot_setup()
    assert s.spot_range(b) == 7


def test_M17_spot_fire_in_woods_30():
    g, s, b, woods, clear = _spot_setup()
    s.mk[b] = G.MFIRE
    assert s.spot_range(b) == 30


def test_M18_clamped_to_plus_two_row():
    g, s, b, woods, clear = _spot_setup()
    s.hex[b] = clear
    s.mk[b] = G.MFIRE
    assert s.spot_range(b) == g.tables.spot_range[2]


def test_M22_overstacked_woods_counts_no_cover():
    g = new_game()
    woods = find(g, lambda h: terrain(g, h) == "W")
    units = {f"B{k}": (1, "bmp-2", g.label(woods), 0) for k in range(6)}
    units["M1"] = (0, "m1", g.label(find(g, lambda h: terrain(g, h) == "C")), 0)
    s = place(g, 1, units)
    assert s.spot_range(g.uindex["B0"]) == 20
    s.st[g.uindex["B5"]] = G.DEAD
    assert s.spot_range(g.uindex["B0"]) == 7


def test_M23_target_size_does_not_affect_spotting():
    g, s, b, woods, clear = _spot_setup()
    base = s.spot_range(b)
    g.units[b].type.target_size = 2
    assert s.spot_range(b) == base


def test_M27_extraneous_spot_counter_removed():
    g, s, b, woods, clear = _spot_setup()
    far = find(g, lambda h: distance(h, woods) > 30)
    s.hex[g.uindex["M1"]] = far
    s.mk[b] = G.MMOVE
    s._start_turn()
    assert s.mk[b] == G.NOMARK


def test_M25_spot_counter_keeps_target_spotted_by_another_unit():
    """M25 (MBT 4.1.1): a target in woods with a Spot/Fire counter stays spotted (range 30) by any unit with a
    clear LOS; without the counter it is spotted only within 7 hexes. Live path: the Spotting Phase gives the
    vehicle a Fire command only against what it spots."""
    g = new_game()
    a, b, _ = line_pair(g, "C", "W", 10)
    commands = {}
    for mark in (G.NOMARK, G.MFIRE):
        s = place(g, 1, {"M1": (0, "m1", g.label(a), 0), "BMP": (1, "bmp-2", g.label(b), 0)})
        s.mk[g.uindex["BMP"]] = mark
        s._start_turn()
        s._advance()
        commands[mark] = {x[2] for x in s.legal_actions()}
    assert "FIRE" not in commands[G.NOMARK] and "FIRE" in commands[G.MFIRE]


# ---------------------------------------------------------------- 3. line of sight
def _line_los(heights_terrain, unit_a=0, unit_b=0, blocking=(), gully=(), hexside_top=None, roads=None, opts=None):
    """Hexes (0,0), (1,0), ... with given (hill level, terrain top) on a straight row."""
    elev, top = {}, {}
    for q, (lv, t) in enumerate(heights_terrain):
        elev[(q, 0)] = lv
        top[(q, 0)] = t
    elev[(0, 0)] += unit_a
    elev[(len(heights_terrain) - 1, 0)] += unit_b
    return MbtLos(elev, top, set(gully), set(blocking), roads or {}, hexside_top or {}, opts or {})


def test_M35_M37_M38_M39_blind_zones():
    assert blind_zone(14, 1) == 7 and blind_zone(18, 3) == 2 and blind_zone(19, 4) == 1 and blind_zone(5, 3) == 1
    # M35 on a line: higher unit at 2, obstacle (hill 1) at range 14: ranges 15-21 blind, 22 visible
    for target_range, visible in ((15, False), (21, False), (22, True)):
        cells = [(2, 0)] + [(0, 0)] * 13 + [(1, 0)] + [(0, 0)] * (target_range - 15) + [(0, 0)]
        los = _line_los(cells)
        assert los.clear((0, 0), (target_range, 0)) is visible, target_range


def test_M41_higher_than_both_blocks():
    los = _line_los([(0, 0), (0, 3), (1, 0)], blocking=[(1, 0)])
    assert not los.clear((0, 0), (2, 0))


def test_M42_equal_to_one_higher_than_other_blocks():
    los = _line_los([(2, 0), (2, 0), (0, 0)])
    assert not los.clear((0, 0), (2, 0))


def test_M43_lower_than_both_is_clear():
    los = _line_los([(2, 0), (0, 1), (2, 0)], blocking=[(1, 0)])
    assert los.clear((0, 0), (2, 0))


def test_M45_gully_sees_one_height_up_only_adjacent():
    los = _line_los([(0, -1), (0, 0)], gully=[(0, 0)])
    assert los.clear((0, 0), (1, 0))
    los = _line_los([(0, -1), (0, 0), (0, 0)], gully=[(0, 0)])
    assert not los.clear((0, 0), (2, 0)) and not los.clear((2, 0), (0, 0))
    los = _line_los([(0, -1), (0, -1), (0, -1)], gully=[(0, 0), (1, 0), (2, 0)])
    assert los.clear((0, 0), (2, 0))  # along a straight gully line


def test_M47_woods_perimeter():
    los = _line_los([(0, 3), (0, 3)], blocking=[(0, 0), (1, 0)])
    assert los.clear((0, 0), (1, 0))                      # adjacent inside the woods
    los = _line_los([(0, 3), (0, 3), (0, 3)], blocking=[(0, 0), (1, 0), (2, 0)])
    assert not los.clear((0, 0), (2, 0))                  # woods between
    los = _line_los([(0, 0), (0, 0), (0, 3)], blocking=[(2, 0)])
    assert los.clear((0, 0), (2, 0))                      # into a woods edge hex


def test_M49_road_through_building_negates_blocking():
    roads = {((0, 0), (1, 0)): "road", ((1, 0), (2, 0)): "road"}
    los = _line_los([(0, 0), (0, 1), (0, 0)], blocking=[(1, 0)], roads=roads)
    assert los.clear((0, 0), (2, 0))
    los = _line_los([(0, 0), (0, 1), (0, 0)], blocking=[(1, 0)])
    assert not los.clear((0, 0), (2, 0))


def test_M50_M51_heights():
    g = new_game()
    woods = find(g, lambda h: terrain(g, h) == "W" and g.elev[h] == 0)
    assert g.los.unit_height(woods) == 0                   # a vehicle in woods is at ground level
    assert g.los.terrain_top[woods] == 3


def test_M53_vehicles_never_block():
    g = new_game()
    a, b, d = line_pair(g, "C", "C", 4)
    s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(b), 0),
                     "Z": (1, "t-72a", g.label(neighbour(a, d)), 0)})
    assert g.uindex["Y"] in s.spots[g.uindex["X"]]      # Z between them does not block (MBT 4.1.4)
    assert any(str(x) == "fire X at Y main:APFSDS" for x in _fire_actions(s, {"X": "FIRE"}))


def _fire_actions(s, orders):
    play_commands(s, orders)
    while s.phase == G.P_INIT:
        s.play(A("initiative first"))
    return s.legal_actions()


def test_crest_hexside_blocks_by_itself():
    key = ((0, 0), (1, 0))
    los = _line_los([(1, 0), (1, 0)], hexside_top={key: 2})
    assert not los.clear((0, 0), (1, 0))  # Crest on Hill 1.7: V2 and W1 cannot see each other (4.1.4.1.5)


# ---------------------------------------------------------------- 4. commands and initiative
def _duel(seed=1, first=0, cover="C", rng=3):
    g = new_game()
    a, b, d = line_pair(g, "C", cover, rng) if cover == "C" else line_pair(g, "C", cover, rng)
    s = place(g, seed, {"BMP": (0, "bmp-2", g.label(a), d), "BRAD": (1, "m2a1", g.label(b), d)}, first)
    return g, s, a, b, d


def test_M57_fire_command_must_be_executed():
    g, s, a, b, d = _duel()
    play_commands(s, {"BMP": "FIRE", "BRAD": "OW"})
    s.dice.force(60, 10)  # initiative: BMP side wins
    while s.phase == G.P_INIT:
        s.play(A("initiative first"))
    legal = s.legal_actions()
    assert legal and all(x[0] == "fire" and x[1] == "BMP" for x in legal)
    with pytest.raises(RulesError):
        s.play(G.PASS)


def test_fire_command_needs_spotted_target():
    g = new_game()
    a = find(g, lambda h: terrain(g, h) == "C")
    far = find(g, lambda h: distance(h, a) > 36)
    s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(far), 0)})
    assert [x[2] for x in s.legal_actions()] == ["NC", "MOVE", "OW"]
    with pytest.raises(RulesError) as err:
        s.play(A("command Y FIRE"))      # not Y's turn to be commanded
    assert err.value.rule == "MBT 4.2.1"


def test_M58_initiative_ties_rerolled():
    g, s, a, b, d = _duel()
    play_commands(s, {})
    # commands all NC: initiative was rolled during the last command; force a fresh roll sequence instead
    s2 = place(new_game(), 1, {"X": (0, "m1", "2C5", 0), "Y": (1, "t-72a", "4T5", 0)})
    s2.dice.force(57, 57, 30, 80)
    play_commands(s2, {})
    assert s2.init_rolls == (30, 80) and s2.cp == 1


def test_hidden_commands_in_observation():
    g, s, a, b, d = _duel()
    s.play(A("command BMP MOVE"))
    view = s.observation(1)
    assert view.cmd[g.uindex["BMP"]] == 0 and s.observation(0).cmd[g.uindex["BMP"]] == G.MOVE


# ---------------------------------------------------------------- 5. AP fire
def test_M73_range_factor_and_penetration():
    g = new_game()
    s = place(g, 1, {"T": (0, "t-80bv", "2C5", 0), "R": (1, "t-72a", "2C9", 0)})
    row = next(r for r in card("t-80bv").ap if r.ammo == "APFSDS")
    band = s.band_of(row, 15)
    assert band == "M" and row.pens[G.BANDS.index(band)] == 86


def test_M74_M75_moving_in_light_cover():
    g = new_game()
    light = find(g, lambda h: g.cover.get(h) == "light")
    shooter = find(g, lambda h: terrain(g, h) == "C" and 2 <= distance(h, light) <= 5)
    s = place(g, 1, {"S": (0, "m1", g.label(shooter), 0), "T": (1, "t-80bv", g.label(light), 0)})
    t = g.uindex["T"]
    s.cmd[t], s.rev[t] = G.MOVE, True
    row = card("m1").ap[0]
    net, band = s.hit_modifiers(g.uindex["S"], t, row, False)
    assert net == -3  # Target Size 0 (M75), moving -2, light cover -1


def test_M77_M78_M79_hit_table():
    g = new_game()
    hit = g.tables.ap_hit
    assert hit[(-6, "P")] == 36 and hit[(-2, "S")] == 56 and hit[(-10, "E")] == 0
    assert g.tables.ap_clamp == (-10, 5)


def test_M81_penetration_results():
    g = new_game()
    assert [G.penetration_result(g, d) for d in (-1, 0, 3, 4, 9, 10)] == \
        ["no-effect", "damaged", "damaged", "knocked-out", "knocked-out", "brewed-up"]
    g2 = new_game(options={"penetration-zero": "no-effect"})
    assert G.penetration_result(g2, 0) == "no-effect"


def test_M85_M86_bmp2_and_bradley_exchange():
    g = new_game()
    woods_clear = line_pair(g, "C", "W", 3)
    a, b, d = woods_clear
    bmp_face = facing_for(a, b, Aspect.FRONT)    # the Bradley hits the BMP-2's front
    brad_face = facing_for(b, a, Aspect.REAR)    # the BMP-2 hits the Bradley's rear
    s = place(g, 1, {"BMP": (0, "bmp-2", g.label(a), bmp_face), "BRAD": (1, "m2a1", g.label(b), brad_face)})
    bmp, brad = g.uindex["BMP"], g.uindex["BRAD"]
    assert s.spot_range(brad) == 7 and s.spot_range(bmp) == 20
    assert s.spots[bmp] == (brad,) and s.spots[brad] == (bmp,)
    s.dice.force(80, 20)                        # initiative: the BMP-2 side rolls higher
    play_commands(s, {"BMP": "SH", "BRAD": "FIRE"})
    s.play(A("initiative first"))
    row = g.units[bmp].type.ap[0]
    assert s.hit_modifiers(bmp, brad, row, False) == (-6, "P")
    s.dice.force(27)                            # shot 1: 27 <= 36 hits; 12 - 9 = 3 -> Damaged
    s.play(A(f"fire BMP at BRAD {row.key}"))
    assert s.dmg[brad] and s.st[brad] == G.ON and s.mk[bmp] == G.MFIRE
    assert s.spot_range(bmp, df=True) == 20     # the new Spot/Fire does not yet come into play
    brow = g.units[brad].type.ap[0]
    assert s.hit_modifiers(brad, bmp, brow, False) == (-6, "P")   # size -1, moving -2, damaged -3
    s.dice.force(36)                            # shot 2: 36 hits; 12 - 5 = 7 -> KO
    s.play(A(f"fire BRAD at BMP {brow.key}"))
    assert s.st[bmp] == G.DEAD and s.wreck[a] == 1 and s.lost == [1, 0]


def test_M82_second_damage_knocks_out():
    g, s, a, b, d = _duel()
    t = g.uindex["BRAD"]
    s.dmg[t] = True
    row = g.units[g.uindex["BMP"]].type.ap[0]
    s.hex[t] = s.hex[g.uindex["BMP"]]
    s.dmg[t] = True
    s.fac[t] = 0
    # force a Damaged result: 12 penetration against armor 9..12 (rear 9) at range 0
    s.dice.force(1)
    s._penetrate(g.uindex["BMP"], t, row, "P")
    assert s.st[t] == G.DEAD


def test_M83_wreck_counters():
    g, s, a, b, d = _duel()
    t = g.uindex["BRAD"]
    s._eliminate(t, brew=False)
    assert s.wreck[b] == 1
    s.st[t] = G.ON
    s._eliminate(t, brew=False)
    assert s.wreck[b] == 1                      # no second counter
    s.st[t] = G.ON
    s._eliminate(t, brew=True)
    assert s.wreck[b] == 2                      # BU replaces KO


def test_M87_announced_fire_at_a_destroyed_target_is_spent():
    g = new_game()
    a, b, d = line_pair(g, "C", "C", 3)
    s = place(g, 1, {"X1": (0, "t-80b", g.label(a), d), "X2": (0, "t-80b", g.label(a), d),
                     "T": (1, "m113", g.label(b), d)})
    s.dice.force(90, 10)
    play_commands(s, {"X1": "FIRE", "X2": "FIRE"})
    s.play(A("initiative first"))
    row = g.units[0].type.ap[0]
    s.play(A(f"fire X1 at T {row.key}"))
    s.dice.force(1)                             # X1 hits and destroys; X2 fires no die
    s.play(A(f"fire X2 at T {row.key}"))
    assert s.st[g.uindex["T"]] == G.DEAD and s.fired[0] and s.fired[1]


def test_M89_overwatch_modifiers():
    g, s, a, b, d = _duel()
    bmp, brad = g.uindex["BMP"], g.uindex["BRAD"]
    row = g.units[bmp].type.ap[0]
    s.fac[bmp] = d                               # target straight ahead: inside the front arc
    inside, _ = s.hit_modifiers(bmp, brad, row, True)
    s.fac[bmp] = (d + 3) % 6                     # target behind: Overwatch Adjust
    outside, _ = s.hit_modifiers(bmp, brad, row, True)
    assert inside - outside == 2 and inside == -1 + g.units[brad].type.target_size


def test_M90_brewup_smoke_on_line():
    g, s, a, b, d = _duel()
    bmp, brad = g.uindex["BMP"], g.uindex["BRAD"]
    mid = neighbour(a, d)
    s.wreck[a] = 2
    s.wreck[mid] = 2
    s.bu_new = set()
    assert s.brewup_on_line(a, b) == 2
    s.bu_new = {mid}
    assert s.brewup_on_line(a, b) == 1          # created this step: not yet


def test_M91_owner_chooses_along_the_divide():
    assert hit_aspect((0, 0), 0, (2, -1)) is Aspect.OWNER_CHOOSES


# ---------------------------------------------------------------- 6. movement
def _mover(code="C", card_id="t-80bv"):
    g = new_game()
    h = find(g, lambda x: terrain(g, x) == code and all(n in g.map.label_of for n in
                                                          [neighbour(x, k) for k in range(6)]))
    s = place(g, 1, {"V": (0, card_id, g.label(h), 0), "E": (1, "t-72a", "4T1", 3)})
    return g, s, g.uindex["V"], h


def test_M93_terrain_costs():
    g, s, v, h = _mover()
    clear = find(g, lambda x: terrain(g, x) == "C" and any(terrain(g, neighbour(x, k)) == "C" and
                                                          g.elev[neighbour(x, k)] == g.elev[x] and
                                                          not g.features.get(G.edge_key(x, neighbour(x, k)))
                                                          and not g.roads.get(G.edge_key(x, neighbour(x, k)))
                                                          for k in range(6)))
    k = next(k for k in range(6) if terrain(g, neighbour(clear, k)) == "C" and g.elev[neighbour(clear, k)] ==
             g.elev[clear] and not g.features.get(G.edge_key(clear, neighbour(clear, k))) and
             not g.roads.get(G.edge_key(clear, neighbour(clear, k))))
    assert s.step_cost(v, clear, neighbour(clear, k)) == 1
    rough = find(g, lambda x: terrain(g, x) == "R" and any(
        g.elev[n] == g.elev[x] and not g.roads.get(G.edge_key(x, n)) and not g.features.get(G.edge_key(x, n))
        for n in g.map.neighbours(x)))
    n = next(n for n in g.map.neighbours(rough) if g.elev[n] == g.elev[rough] and
             not g.roads.get(G.edge_key(rough, n)) and not g.features.get(G.edge_key(rough, n)))
    assert s.step_cost(v, n, rough) == 4


def test_M94_M95_height_change():
    g, s, v, h = _mover()
    g.elev[h] = 0
    b = neighbour(h, 0)
    g.elev[b] = 1
    g.cost[b] = {"t": 2.0}                        # scrub
    g.features[G.edge_key(h, b)] = next(f for f in g.ruleset.hexside_features if f.id == "slope")
    g.roads.pop(G.edge_key(h, b), None)
    assert s.step_cost(v, h, b) == 3
    g.elev[b] = 3
    g.clear_caches()                          # the map changed under the game: drop its cached crossings
    assert s.step_cost(v, h, b) is None          # T: at most 2 heights per hex
    g.elev[b] = 2
    g.units[v].type.traction = "w"
    g.clear_caches()
    assert s.step_cost(v, h, b) is None          # W: at most 1


def test_M97_one_free_hexside_per_hex():
    g, s, v, h = _mover()
    play_commands(s, {"V": "MOVE"})
    s.play(A("initiative second"))               # V's side moves first as Second Player
    while s.phase != G.P_MOVE or s.cp != 0:
        s.play(s.legal_actions()[0])
    s.play(A("move V"))
    s.play(A("turn V right"))
    assert s.mv_left == s.msa(v, 8)
    s.play(A("turn V left"))                     # a second hexside in the same hex costs the Turn value
    assert s.mv_left == s.msa(v, 8) - int(g.turn_cost[h])


def _to_movement(s, orders, mover_side=0):
    play_commands(s, orders)
    if s.phase == G.P_INIT:
        s.play(A("initiative second" if s.cp == mover_side else "initiative first"))
    while s.phase != G.P_MOVE:
        s.play(s.legal_actions()[0])
    movers = [a for a in s.legal_actions() if a[0] == "move"]
    if movers:
        s.play(movers[0])


def test_M102_one_hex_beyond_the_allowance():
    g, s, v, h = _mover()
    b = neighbour(h, 0)
    g.cost[b] = {"t": 40.0}
    g.roads.pop(G.edge_key(h, b), None)
    g.features.pop(G.edge_key(h, b), None)
    g.elev[b] = g.elev[h]
    _to_movement(s, {"V": "MOVE"})
    assert A("fwd V") in s.legal_actions()
    s2 = s.clone()
    s.play(A("fwd V"))
    assert s.hex[v] == b and A("fwd V") not in s.legal_actions()
    g.turn_cost[h] = 2
    s2.play(A("turn V right"))
    s2.play(A("turn V left"))                    # paid a turn cost: no exception any more
    assert A("fwd V") not in s2.legal_actions()


def test_M103_reverse_costs_double():
    g, s, v, h = _mover()
    b = neighbour(h, 3)
    g.cost[b] = {"t": 1.0}
    g.roads.pop(G.edge_key(h, b), None)
    g.features.pop(G.edge_key(h, b), None)
    g.elev[b] = g.elev[h]
    assert s.step_cost(v, h, b, reverse=True) == 2


def test_M105_exit_counts_not_eliminated():
    g = new_game("delaying-action")
    west = g.map.edge_hexes("west")[5]
    s = place(g, 1, {"V": (1, "t-72a", g.label(west), 5), "E": (0, "m1", "4T1", 3)})
    _to_movement(s, {"V": "MOVE"}, mover_side=1)
    s.play(A("exit V"))
    v = g.uindex["V"]
    assert s.st[v] == G.EXITED and s.lost == [0, 0] and s.exits == [(v, "west")]


def test_M106_may_not_end_in_enemy_hex():
    g, s, v, h = _mover()
    e = g.uindex["E"]
    s.hex[e] = h
    _to_movement(s, {"V": "MOVE"})
    assert A("done V") not in s.legal_actions() or s.hex[v] != h


def test_M107_half_track_wall_and_hedgerow():
    g, s, v, h = _mover()
    b = neighbour(h, 0)
    g.elev[b] = g.elev[h]
    g.roads.pop(G.edge_key(h, b), None)
    g.features[G.edge_key(h, b)] = next(f for f in g.ruleset.hexside_features if f.id == "wall")
    g.units[v].type.traction = "h"
    assert s.step_cost(v, h, b) is None


def test_M109_second_player_moves_first():
    g, s, v, h = _mover()
    e = g.uindex["E"]
    s.dice.force(90, 10)
    play_commands(s, {"V": "MOVE", "E": "MOVE"})
    s.play(A("initiative first"))                # side 0 is First Player
    while s.phase != G.P_MOVE:
        s.play(s.legal_actions()[0])
    assert s.cp == 1 and s.legal_actions() == [A("move E")]


def test_M110_M111_spot_counters_after_moving_and_adjustment():
    g, s, v, h = _mover()
    e = g.uindex["E"]
    s.mk[v] = G.MFIRE
    _to_movement(s, {"V": "SH"} if "SH" in [c[2] for c in s.legal_actions()] else {"V": "MOVE"})
    s.play(A("turn V right"))                    # even without leaving the hex: Spot/Move replaces Spot/Fire
    assert s.mk[v] == G.MMOVE
    # M111: an unexecuted Move becomes Spot/Move at the Adjustment Phase
    g2, s2, v2, h2 = _mover()
    s2.cmd[v2] = G.MOVE
    s2.moved[v2] = False
    s2.turn = g2.max_turns                       # last turn: no Spotting Phase afterwards
    s2._adjust()
    assert s2.mk[v2] == G.MMOVE and s2.cmd[v2] == 0


def test_M13_objective_control():
    g = new_game()
    obj = g.objectives[0]
    s = place(g, 1, {"X": (0, "m1", g.label(obj), 0), "Y": (0, "m1", g.label(neighbour(obj, 0)), 0),
                     "E": (1, "t-72a", "4T1", 3)})
    s.occ_start = {obj: 0}
    s.hex[g.uindex["X"]] = neighbour(obj, 3)
    s.hex[g.uindex["Y"]] = obj                   # another friendly vehicle is there at the end of the turn
    s._adjust()
    assert s.control.get(obj) == 0
    s.hex[g.uindex["Y"]] = neighbour(obj, 0)     # leaving does not lose control
    s._adjust()
    assert s.control.get(obj) == 0


def test_M21_scrub_is_light_cover():
    g = new_game()
    scrub = find(g, lambda h: terrain(g, h) == "S")
    s = place(g, 1, {"X": (0, "m1", g.label(scrub), 0), "E": (1, "t-72a", "4T1", 3)})
    assert s.cover_of(scrub) == "light"


def test_M26_new_spot_fire_counts_at_once_for_overwatch_and_movement():
    g, s, b, woods, clear = _spot_setup()
    s.mk[b] = G.MFIRE                            # just fired: pending Spot/Fire
    s.mkdf[b] = G.NOMARK
    assert s.spot_range(b) == 30 and s.spot_range(b, df=True) == 7


def test_M99_road_rate_lost_through_a_wreck():
    g = new_game()
    a, b = next((x, y) for (x, y), t in sorted(g.roads.items()) if t == "road")
    d = next(k for k in range(6) if neighbour(a, k) == b)
    s = place(g, 1, {"V": (0, "t-80bv", g.label(a), d), "E": (1, "t-72a", "4T1", 3)})
    v = g.uindex["V"]
    s.mv_mode = (16, 10, 0, 0, 0)
    assert s.step_cost(v, a, b) is not None
    s.wreck[b] = 1
    assert s.step_cost(v, a, b) is None          # must move cross-country instead
    s.mv_mode = "xc"
    assert s.step_cost(v, a, b) is not None


def test_M101_prohibited_terrain_only_along_the_road():
    g = new_game()
    a, b = next((x, y) for (x, y), t in sorted(g.roads.items()) if t == "road")
    s = place(g, 1, {"V": (0, "t-80bv", g.label(a), 0), "E": (1, "t-72a", "4T1", 3)})
    v = g.uindex["V"]
    g.cost[b] = {"t": None}                      # heavy woods
    assert s.step_cost(v, a, b) is not None      # along the road: allowed
    off = next(n for n in g.map.neighbours(b) if G.edge_key(b, n) not in g.roads and n != a)
    g.cost[off] = {"t": None}
    assert s.step_cost(v, b, off) is None        # leaving the road into heavy woods: prohibited


def test_M98_road_rate_by_majority_of_hexes():
    g = new_game()
    s = place(g, 1, {"V": (0, "t-80bv", "2C5", 0), "E": (1, "t-72a", "4T1", 3)})
    v = g.uindex["V"]
    s.mv_mode = (s.msa(v, 16), s.msa(v, 10), 0, 0, 0)
    s.cmd[v] = G.MOVE
    s.mv_mode = (16, 10, 10, 5, 15)
    assert s._road_left_after("road", 1) == 0        # 11 road + 5 path hexes: the Road rate 16
    s.mv_mode = (16, 10, 5, 5, 10)
    assert s._road_left_after("path", 1) < 0         # more path hexes: the Path rate 10
    s.mv_mode = (16, 10, 0, 0, 0)
    assert s._road_left_after(None, 0) == 10          # a tie (0-0) uses the Path rate


def test_blind_zone_sizes_and_symmetry():
    """4.1.4.2.4: D/2, D/4, D/8 or 1 hex for an obstacle 1, 2, 3 or 4+ heights below the higher unit, never less
    than 1; the same line seen from the lower end is blind too (LOS is symmetric)."""
    assert [blind_zone(16, n) for n in (1, 2, 3, 4, 5)] == [8, 4, 2, 1, 1] and blind_zone(3, 2) == 1
    for target_range, visible in ((15, False), (21, False), (22, True)):
        cells = [(0, 0)] + [(0, 0)] * (target_range - 15) + [(1, 0)] + [(0, 0)] * 13 + [(2, 0)]
        los = _line_los(cells)
        assert los.clear((0, 0), (target_range, 0)) is visible, target_range


def test_gully_sees_level_targets_and_one_up_along_a_gully_line():
    """4.1.4.1.6: the gully limit is for targets above; along gully hexes one height up is seen normally."""
    level = _line_los([(0, -1), (0, -1), (0, -1)], gully=[(0, 0), (2, 0)])
    assert level.clear((0, 0), (2, 0))
    along = _line_los([(0, -1), (0, -1), (0, 0)], gully=[(0, 0), (1, 0)])
    assert along.clear((0, 0), (2, 0))



def test_overwatch_spots_a_mover_at_exactly_its_spotting_range():
    """4.4.2, 4.1.3: overwatch fire needs the moving target spotted now: at exactly its spotting range it is (the
    scenario visibility caps every range at 6 here), one hex farther it is not."""
    for start, seen in ((7, True), (8, False)):
        g = new_game()
        g.visibility = 6
        a, b, d = line_pair(g, "C", "C", start)
        s = place(g, 1, {"V": (0, "m1", g.label(a), d), "S": (1, "t-72a", g.label(b), (d + 3) % 6)})
        _to_movement(s, {"V": "MOVE", "S": "OW"})
        v = g.uindex["V"]
        s.play(A("fwd V"))
        assert distance(s.hex[v], b) == start - 1 and s.spot_range(v) == 6
        shots = [a for a in s.legal_actions() if a[0] == "ow"]
        assert bool(shots) == seen, start
