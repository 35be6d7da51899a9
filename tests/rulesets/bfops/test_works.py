"""Update 1.1 procedures of the second engine pass: fencing (p.10, B33-B35), oil slicks (p.10, B37/B38), sniper
teams (9.0, p.15-16, B77-B79), barrage groupings (p.13, B63) and engineers clearing wire (p.19). Through
positions, legal actions and play; dice forced in the engine's order."""
from __future__ import annotations

import math

import pytest

from studio.rulesets.bfops.engine import fire as F
from studio.rulesets.bfops.engine import works as W
from studio.rulesets.bfops.engine.state import Fire, Hold, Pass

from .conftest import unit

VILLAGE = "bfops-village-defence"
FAR = unit("z", "wp-t62", "warpac", 69, 47, 180)          # hidden behind the ridge: keeps the game going


def _turn(state):
    """Play one Turn from the command step: both sides pass, every fire decision holds."""
    turn = state.turn
    while state.turn == turn and state.legal_actions():
        acts = state.legal_actions()
        state.play(Pass() if Pass() in acts else next(a for a in acts if isinstance(a, Hold)))
    return state


def _move(state):
    """Both sides pass the command step of this Turn: its Move Phase runs (and the Turn may end)."""
    turn = state.turn
    while state.phase == "command" and state.turn == turn and state.legal_actions():
        state.play(Pass())
    return state


# ------------------------------------------------------------------ fencing (B33-B35)

def test_b33_infantry_stopped_three_move_phases_at_fencing_then_pass_at_that_spot(position):
    """B33: a squad heading east out of the paddock (fence along x = 8) is stopped for 3 Move Phases; then the
    spot is breached and it passes on the 4th; the breach lets a later unit through at once."""
    s = position([unit("a", "nato-us-rifle-squad", "nato", 6.5, 12.5, 90, order="to-ford", element="sq"), FAR],
                 phase="command")
    xs = []
    for _ in range(3):
        _turn(s)
        xs.append(s.unit("a").x)
        assert 7.5 < s.unit("a").x < 8.0                     # walked up to the fence, still inside the paddock
    assert s.breaches.get("paddock-fence")                   # cut after the third Move Phase
    _move(s)
    assert s.unit("a").x > 8.0                               # passes freely at that spot (p.10)


def test_b34_b35_vehicles_pass_fencing_only_faster_than_cruise(position):
    """B34/B35: vehicles must move faster than Cruise at fencing: at Cruise an M60A1 stops before it; moving
    double-time it passes (tanks: no Bog check, no roll used); an M113 (tracked APC) rolls at Bog 6 - 2."""
    at_cruise = _move(position([unit("a", "nato-m60a1", "nato", 6.0, 12.5, 90, order="to-ford", element="t"), FAR],
                               phase="command"))
    assert at_cruise.unit("a").x < 8.0 and not at_cruise.unit("a").bogged
    fast = _move(position([unit("a", "nato-m60a1", "nato", 6.0, 12.5, 90, order="to-ford", element="t",
                                double_time=True), FAR], phase="command", turn=2))
    assert fast.unit("a").x > 8.0 and not fast.unit("a").bogged
    assert not any(r[0].startswith("bog a paddock") for r in fast.dice.history)
    apc = [unit("a", "nato-m113", "nato", 6.0, 12.5, 90, order="to-ford", element="t", double_time=True), FAR]
    passes = _move(position(apc, phase="command", turn=2, dice=[4]))      # 4 <= 6 - 2
    bogs = _move(position(apc, phase="command", turn=2, dice=[5]))        # 5 > 4: bogged at the fence
    assert passes.unit("a").x > 8.0 and not passes.unit("a").bogged
    assert bogs.unit("a").bogged and bogs.unit("a").x < 8.5


# ------------------------------------------------------------------ oil slicks (B37, B38)

SLICK_GUARD = unit("g", "nato-us-rifle-squad", "nato", 31.5, 33.6, 0)      # 0.1" from the slick's north edge


def test_b37_adjacent_unit_ignites_on_its_rating_and_may_retry_next_priority(position):
    """B37: a UR-6 squad adjacent to its side's slick: roll 7 fails and it may try again at the next Weapon
    Priority; roll 6 ignites it, burning 4 Turns (through Turn 4 from Turn 1)."""
    s = position([SLICK_GUARD, FAR], scenario=VILLAGE, dice=[7, 6])
    ignite = W.Ignite("g", "west-slick")
    assert ignite in s.legal_actions()
    s.play(ignite)
    assert not W.burning(s, "west-slick") and s.priority == 1
    assert ignite in s.legal_actions()                          # retry at the next priority
    s.play(ignite)
    assert W.burning(s, "west-slick") and s.burning["west-slick"] == 4
    assert ignite not in s.legal_actions()


def test_b37_only_the_preparing_side_ignites_and_only_adjacent(position):
    far = unit("g", "nato-us-rifle-squad", "nato", 31.5, 34.2, 0)         # 0.7" away
    enemy = unit("w", "wp-rifle-squad", "warpac", 31.5, 33.6, 0)
    s = position([far, enemy, unit("c", "nato-chieftain", "nato", 60, 46, 180)], scenario=VILLAGE, to_act="warpac")
    assert not any(isinstance(a, W.Ignite) for a in s.legal_actions())


def _burning_village(position, units, dice=()):
    """Village, Turn 1 fire: the guard ignites the slick (roll 1), everything else holds; Turn 2 command."""
    s = position([SLICK_GUARD, *units], scenario=VILLAGE, dice=[1, *dice])
    s.play(W.Ignite("g", "west-slick"))
    while s.phase == "fire" and s.turn == 1:
        s.play(next(a for a in s.legal_actions() if isinstance(a, Hold)))
    assert W.burning(s, "west-slick")
    return s


def test_b38_burning_slick_stops_infantry(position):
    """B38: infantry cannot pass a burning slick; an unlit slick has no effect."""
    sq = unit("w", "wp-rifle-squad", "warpac", 30.5, 35.5, 180, order="to-ford", element="sq")
    lit = _move(_turn(_move(_burning_village(position, [sq]))))
    assert lit.unit("w").y > 33.25                               # stopped before it, two Move Phases
    unlit = _move(_turn(position([SLICK_GUARD, sq], scenario=VILLAGE, phase="command")))
    assert unlit.unit("w").y < 32.75                              # crossed it


def test_b38_burning_slick_immobilizes_wheeled_armour_beyond_it_tracked_pass(position):
    """B38: Pen 2 on the BTR-60's tires (armour 2): immobilized, it passes the slick and stops just beyond;
    a BMP-1 (tracked) is not affected."""
    btr = unit("w", "wp-btr60", "warpac", 30.5, 35.5, 180, order="to-ford", element="b")
    s = _move(_burning_village(position, [btr]))
    u = s.unit("w")
    assert u.immobilized and 32.5 < u.y < 32.75                  # just beyond the slick's south edge (32.75)
    bmp = unit("w", "wp-bmp1", "warpac", 30.5, 35.5, 180, order="to-ford", element="b")
    t = _move(_burning_village(position, [bmp]))
    assert not t.unit("w").immobilized and t.unit("w").y < 32.0


def test_b38_spotting_and_fire_through_a_burning_slick_at_minus_three(position):
    """B38: a sight line through the burning slick spots and hits at -3 (spot-modifiers / hit-modifiers
    burning_slick), and 1970s night vision looking through it is nullified."""
    tank = unit("c", "nato-chieftain", "nato", 31.5, 37.0, 180)
    t55 = unit("t", "wp-t55", "warpac", 31.5, 29.0, 0, spotted=True)
    cold = position([SLICK_GUARD, tank, t55], scenario=VILLAGE)
    shot = Fire("c", "t", 0, "AP")
    before = cold.shot_odds(shot)[0]
    hot = _burning_village(position, [tank, t55])
    assert hot.shot_odds(shot)[0] == before - 3
    c, t = hot.unit("c"), hot.unit("t")
    sg = hot.sight(c, t)
    assert W.through_fire(hot, sg)
    plain = F.spot_number(hot.game, c, t, sg, False)
    # -3 for the fire, and at dusk the Chieftain's Gen 1 night vision (+2) is nullified through it (p.10, p.12)
    assert F.spot_number(hot.game, c, t, sg, False, through_fire=True) == plain - 3 - 2


def test_slick_burns_four_turns(position):
    """p.10: ignited in Turn 1, it burns in Turns 1-4 and is out in Turn 5 (it cannot be extinguished)."""
    s = _burning_village(position, [unit("c", "nato-chieftain", "nato", 60, 46, 180), FAR])
    seen = {}
    while s.turn <= 5:
        seen[s.turn] = W.burning(s, "west-slick")
        _turn(s)
    assert seen == {2: True, 3: True, 4: True, 5: False}


# ------------------------------------------------------------------ snipers (B77-B79)

def _sniper_position(position, **sniper):
    """The sniper's decision in the Weapon Priority sequence (the T-62 holds its cannon first)."""
    s = position([unit("s", "nato-sniper-team", "nato", 30, 10, 0, **sniper),
                     unit("q", "wp-rifle-squad", "warpac", 30, 20, 180, spotted=True, element="plt"),
                     unit("r", "wp-rifle-squad", "warpac", 34, 22, 180, element="plt"),
                     unit("t", "wp-t62", "warpac", 26, 20, 180, spotted=True)])
    while s.deciding_unit().id != "s":
        s.play(Hold(s.deciding_unit().id))
    return s


def test_b77_sniper_targets_only_infantry_and_gun_crews(position):
    s = _sniper_position(position)
    fires = [a for a in s.legal_actions() if isinstance(a, Fire) and not a.target.startswith("@")]
    assert [(a.unit, a.target) for a in fires] == [("s", "q")]      # the spotted T-62 is not a sniper target
    with pytest.raises(Exception):
        s.play(Fire("s", "t", 0, "AP"))


def test_b79_stationary_sniper_hits_at_plus_three(position):
    still = _sniper_position(position).shot_odds(Fire("s", "q", 0, "AP"))[0]
    moving = _sniper_position(position, moved=1.0).shot_odds(Fire("s", "q", 0, "AP"))[0]
    assert still == moving + 3


def test_b78_first_sniper_hit_suppresses_the_whole_element(position):
    """B78: the hit squad's platoon-mate 'r' (not fired at) is suppressed too."""
    s = _sniper_position(position)
    s.dice.force(1)
    s.play(Fire("s", "q", 0, "AP"))
    assert s.unit("q").hits == 1 and s.unit("q").suppressed and s.unit("r").suppressed


def test_b78_once_engaged_a_sniper_hit_has_its_normal_effect(position):
    """B78: the platoon was fired at earlier (a missed M60A1 shot): the sniper's hit suppresses only the squad
    it hits."""
    s = position([unit("s", "nato-sniper-team", "nato", 30, 10, 0),
                  unit("m", "nato-m60a1", "nato", 36, 10, 0),
                  unit("q", "wp-rifle-squad", "warpac", 30, 20, 180, spotted=True, element="plt"),
                  unit("r", "wp-rifle-squad", "warpac", 34, 22, 180, element="plt")], dice=[10])
    while not any(isinstance(a, Fire) and a.unit == "s" for a in s.legal_actions()):
        acts = s.legal_actions()
        s.play(next((a for a in acts if isinstance(a, Fire) and a.unit == "m"), None) or
               next(a for a in acts if isinstance(a, Hold)))
    assert "plt" in s.in_combat
    s.dice.force(1)
    s.play(Fire("s", "q", 0, "AP"))
    while s.priority == 3 and s.phase == "fire" and s.legal_actions():
        s.play(next(a for a in s.legal_actions() if isinstance(a, Hold)))
    assert s.unit("q").suppressed and not s.unit("r").suppressed


def test_stationary_sniper_is_spotted_defilade_and_hunkered_down(position):
    """p.16: spotting a stationary sniper: Defilade and Hunkered Down (placeholder -2); an enemy sniper team
    spots it without the Hunkered Down modifier."""
    numbers = []
    for status in ({}, {"moved": 1.0}):
        s = _sniper_position(position, **status)
        q, sn, t62 = s.unit("q"), s.unit("s"), s.unit("t")
        numbers.append((F.spot_number(s.game, q, sn, s.sight(q, sn), False),
                        F.spot_number(s.game, t62, sn, s.sight(t62, sn), False)))
    mods = s.game.tables.spot_mod
    assert numbers[0][0] == numbers[1][0] + mods["defilade"] + mods["hunkered_down"]
    s = position([unit("s", "nato-sniper-team", "nato", 30, 10, 0),
                  unit("q", "wp-rifle-squad", "warpac", 30, 20, 180),
                  unit("k", "wp-sniper-team", "warpac", 30, 20, 180)], phase="command")
    q, k, sn = s.unit("q"), s.unit("k"), s.unit("s")
    by_squad = F.spot_number(s.game, q, sn, s.sight(q, sn), False)
    by_sniper = F.spot_number(s.game, k, sn, s.sight(k, sn), False)
    assert by_sniper == by_squad - mods["hunkered_down"]          # no Hunkered Down for an enemy sniper


# ------------------------------------------------------------------ barrage groupings (B63)

def _battery(position, grouping):
    return position([unit("a", "wp-120mm-mortar", "warpac", 30, 40, 180, element="battery"),
                     unit("b", "wp-120mm-mortar", "warpac", 31, 40, 180, element="battery"),
                     unit("p", "nato-us-rifle-squad", "nato", 30, 15, 0, spotted=True),
                     unit("q", "nato-us-rifle-squad", "nato", 34, 15, 0, spotted=True)],
                    to_act="warpac", options={"barrage-grouping": grouping})


@pytest.mark.parametrize("grouping, targets", [("individual", {"p", "q"}), ("element", {"p"})])
def test_b63_element_barrages_share_one_target_marker(position, grouping, targets):
    s = _battery(position, grouping)
    s.play(Fire("a", "p", 0, "HE"))
    assert {a.target for a in s.legal_actions() if isinstance(a, Fire) and a.unit == "b"
            and not a.target.startswith("@")} == targets
    if grouping == "element":           # the marker holds for the structures too
        assert not any(isinstance(a, Fire) and a.target.startswith("@") for a in s.legal_actions())


# ------------------------------------------------------------------ engineers (p.19)

def test_earthmoving_engineer_clears_a_section_of_wire_and_others_pass_there(position):
    """p.19: an earthmoving engineer vehicle (IMR) moving into the village wire clears a 1" section, with no Bog
    check; a BTR-60 crossing there later drives through at full Cruise with no check (elsewhere: half Cruise and a
    Bog check, B34). An ordinary squad only crosses at Swim speed and clears nothing."""
    guard = unit("c", "nato-chieftain", "nato", 60, 46, 180)
    imr = unit("e", "wp-imr", "warpac", 31.5, 30.5, 0, order="to-village", element="eng")
    cleared = _move(position([imr, guard], scenario=VILLAGE, phase="command"))
    assert cleared.breaches.get("south-wire")
    assert not any(r[0].startswith("bog e south-wire") for r in cleared.dice.history)
    sq = unit("e", "wp-rifle-squad", "warpac", 31.5, 30.5, 0, order="to-village", element="eng")
    plain = _move(position([sq, guard], scenario=VILLAGE, phase="command"))
    assert not plain.breaches
    assert math.dist((31.5, 30.5), (plain.unit("e").x, plain.unit("e").y)) <= 1.0 + 1e-6
    btr = unit("b", "wp-btr60", "warpac", 31.5, 30.5, 0, order="to-village", element="btr")
    through = position([btr, guard], scenario=VILLAGE, phase="command")
    through.breaches.update({k: list(v) for k, v in cleared.breaches.items()})
    _move(through)
    blocked = _move(position([btr, guard], scenario=VILLAGE, phase="command", dice=[1]))
    assert not any(r[0].startswith("bog b south-wire") for r in through.dice.history)
    assert any(r[0].startswith("bog b south-wire") for r in blocked.dice.history)


# ------------------------------------------------------------------ recovery (B105)

@pytest.mark.parametrize("card, freed", [("nato-m60a1", True),     # its chassis (M60)
                                         ("nato-m113", True),      # lighter than the M88's 51 t rating
                                         ("nato-chieftain", False)])   # 55 t, another chassis
def test_b105_recovery_vehicle_frees_a_bogged_vehicle_it_may_recover(position, card, freed):
    s = position([unit("a", card, "nato", 40, 5, 0, bogged=True, element="a"),
                  unit("r", "nato-m88", "nato", 40.7, 5, 0, element="arv"), FAR], phase="command")
    _move(s)
    assert s.unit("a").bogged is not freed


def test_recovery_needs_the_recovery_vehicle_adjacent_and_holding(position):
    far = position([unit("a", "nato-m60a1", "nato", 40, 5, 0, bogged=True, element="a"),
                    unit("r", "nato-m88", "nato", 42, 5, 0, element="arv"), FAR], phase="command")
    no_arv = position([unit("a", "nato-m60a1", "nato", 40, 5, 0, bogged=True, element="a"),
                       unit("r", "nato-m60a1", "nato", 40.7, 5, 0, element="arv"), FAR], phase="command")
    assert _move(no_arv).unit("a").bogged                    # a tank is no recovery vehicle
    moving = position([unit("a", "nato-m60a1", "nato", 40, 5, 0, bogged=True, element="a"),
                       unit("r", "nato-m88", "nato", 40.7, 5, 0, element="arv", order="to-ford"), FAR],
                      phase="command")
    assert _move(far).unit("a").bogged and _move(moving).unit("a").bogged


# ------------------------------------------------------------------ clearing minefields (B115, B117)

MINE_EDGE = 27.35            # the ford minefield strip runs y 27.5-28.5 along x 44-50


@pytest.mark.parametrize("card, roll, cleared", [("nato-eod-team", 8, True),        # EOD: UR 6 + 2
                                                 ("nato-eod-team", 9, False),
                                                 ("nato-engineer-squad", 7, True),  # demolitions: UR 6 + 1
                                                 ("nato-engineer-squad", 8, False)])
def test_b115_b117_clearing_a_square_after_two_move_phases(position, card, roll, cleared):
    """B115/B117: adjacent to a minefield its side knows for 2 Move Phases, then a Unit Rating check (EOD +2,
    demolitions +1): success clears the 1" square nearest it."""
    s = position([unit("e", card, "nato", 46, MINE_EDGE - 0.25, 0, element="eng"), FAR], phase="command",
                 dice=[roll])
    s.mines_known[0].add("ford-mines")
    _turn(s)
    assert not s.mines_cleared and s.work == {"clear:e:ford-mines": 1}
    _move(s)
    assert bool(s.mines_cleared.get("ford-mines")) is cleared and not s.unit("e").disabled
    assert [r[0] for r in s.dice.history if r[0].startswith("clear mines")] == ["clear mines e>ford-mines"]


def test_b115_a_ten_sets_the_mines_off_unless_a_second_check_succeeds(position):
    units = [unit("e", "nato-eod-team", "nato", 46, MINE_EDGE - 0.25, 0, element="eng"), FAR]
    for second, disabled in ((7, True), (6, False)):
        s = position(units, phase="command", dice=[10, second])
        s.mines_known[0].add("ford-mines")
        _move(_turn(s))
        assert s.unit("e").disabled is disabled and not s.mines_cleared


def test_a_cleared_square_is_passed_without_a_mine_roll(position):
    """The minefield probe's M60A1 crossing (low density, roll 4 would explode) rolls nothing in a cleared
    square: the square cleared where it crosses."""
    tank = unit("a", "nato-m60a1", "nato", 47, 26.2, 0, order="to-village", element="tanks")
    s = position([tank, FAR], phase="command", dice=[1, 1, 1])
    s.mines_cleared["ford-mines"] = [1.5, 2.5, 3.5]       # x 45-48 of the strip
    _move(s)
    assert not any(r[0].startswith("mine ") for r in s.dice.history)
    assert s.unit("a").y > 28.5


# ------------------------------------------------------------------ large-force shortcuts (c.26, p.23)

def test_large_force_deck_keeps_company_cards_and_mortar_platoons_one_fog_per_twenty(position):
    """p.23: with Company cards a side draws no Platoon cards but for its mortar and artillery elements; one Fog
    of War card per 20 cards (at least one)."""
    from studio.rulesets.bfops.engine.command import FOG, build_deck

    units = [unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-t62", "warpac", 30, 30)]
    plain = build_deck(position(units).game)
    short = build_deck(position(units, options={"large-force": "shortcuts"}).game)
    count = lambda deck, side, level: sum(1 for c in deck if c.side == side and c.level == level)  # noqa: E731
    assert (count(plain, 0, "platoon"), count(plain, 1, "platoon")) == (3, 4)
    assert (count(short, 0, "platoon"), count(short, 1, "platoon")) == (0, 1)     # the WARPAC mortar keeps one
    assert count(short, 0, "company") == 2 and count(short, 1, "company") == 1
    assert sum(1 for c in short if c == FOG) == 1                # 4 cards: ceil(4 / 20)


# ------------------------------------------------------------------ night vision (c.10, p.12)

def test_night_vision_offsets_by_generation_and_bloc_never_above_day(position):
    """p.12: Gen 1 offsets NATO +2 and WARPAC +3 (the T-62's Gen 1 at dusk: -4 + 3 = -1); an offset never makes
    the night better than day (Gen 3 +6 at dusk: 0); looking through a burning oil slick it is nullified."""
    s = position([unit("c", "nato-chieftain", "nato", 31.5, 37.0, 180), unit("t", "wp-t62", "warpac", 31.5, 29, 0),
                  unit("k", "wp-t55", "warpac", 20, 20, 0)], scenario=VILLAGE)
    g = s.game
    assert g.night_spot_modifier(s.unit("c")) == -2 and g.night_spot_modifier(s.unit("t")) == -1
    assert g.night_spot_modifier(s.unit("k")) == -4
    assert g.night_spot_modifier(s.unit("c"), through_fire=True) == -4
    card = g.card_of(s.unit("c")).model_copy(update={"night_vision": "gen3"})
    g.cards["gen3-test"] = card
    s.unit("c").card = "gen3-test"
    assert g.night_spot_modifier(s.unit("c")) == 0


def test_gen3_thermal_sights_are_not_hampered_by_smoke(position):
    """p.12: Gen 3 (thermal imaging): smoke does not hamper its To Hit."""
    s = position([unit("c", "nato-chieftain", "nato", 31.5, 37.0, 180),
                  unit("t", "wp-t55", "warpac", 31.5, 29.0, 0, spotted=True)], scenario=VILLAGE)
    g = s.game
    c, t = s.unit("c"), s.unit("t")
    w = g.card_of(c).weapons[0]
    sg = s.sight(c, t)
    smoked, clear = F.hit_number(g, c, t, w, sg, True), F.hit_number(g, c, t, w, sg, False)
    assert smoked == clear + g.tables.hit_mod["smoke"]
    g.cards["gen3-test"] = g.card_of(c).model_copy(update={"night_vision": "gen3"})
    c.card = "gen3-test"
    assert F.hit_number(g, c, t, w, sg, True) == F.hit_number(g, c, t, w, sg, False)


# ------------------------------------------------------------------ illumination flares (c.10, p.12-13)

def test_star_shell_lights_its_objective_to_daylight_for_three_sequences(position):
    """p.12-13: at dusk an 82mm mortar fires a star shell over the village in its Weapon Priority (its fire
    opportunity); within 2" (calibre up to 100mm) the night Spot modifier is gone for the rest of this sequence
    and the next two."""
    from studio.rulesets.bfops.engine.flares import Flare, lit

    s = position([unit("m", "wp-82mm-mortar", "warpac", 36, 10, 0),
                  unit("c", "nato-chieftain", "nato", 41, 39, 180)], scenario=VILLAGE, to_act="warpac")
    flare = Flare("m", "village", 0)
    while s.deciding_unit().id != "m":
        s.play(Hold(s.deciding_unit().id))                   # the Chieftain's cannon and MG priorities first
    assert flare in s.legal_actions()
    s.play(flare)                                            # the last decision: the priority resolves
    assert s.turn == 2 and lit(s, 41.0, 40.9) and not lit(s, 41.0, 41.5)
    c, m = s.unit("c"), s.unit("m")
    sg = s.sight(m, c)
    assert F.spot_number(s.game, m, c, sg, False, lit=True) == F.spot_number(s.game, m, c, sg, False) + 4
    seen = {}
    while s.turn <= 4 and s.legal_actions():
        seen[s.turn] = lit(s, 41.0, 39.0)
        acts = s.legal_actions()
        s.play(Pass() if Pass() in acts else next(a for a in acts if isinstance(a, Hold)))
    assert seen == {2: True, 3: True, 4: False}              # fired in Turn 1: its sequence and the next two


def test_no_star_shells_by_day_nor_without_illumination_ammunition(position):
    from studio.rulesets.bfops.engine.flares import Flare

    day = position([unit("m", "wp-82mm-mortar", "warpac", 36, 10, 0),
                    unit("c", "nato-m60a1", "nato", 41, 39, 180)], to_act="warpac")
    assert not any(isinstance(a, Flare) for a in day.legal_actions())
    he_only = position([unit("m", "wp-120mm-mortar", "warpac", 36, 10, 0),
                        unit("c", "nato-chieftain", "nato", 41, 39, 180)], scenario=VILLAGE, to_act="warpac")
    assert not any(isinstance(a, Flare) for a in he_only.legal_actions())
