"""Update 1.1 procedures beyond the first engine: double-time (11.0, p.16, B87), compulsory movement near an
unspotted minefield (p.10, B41), minefield spotting (p.10-11, B42/B43), bailout from a collapsing structure
(p.16, p.23, B81/B82). Through positions, legal actions and play; dice forced in the engine's order."""
from __future__ import annotations

import math

from studio.rulesets.bfops.engine.state import Double, Order, Pass

from .conftest import unit


def _run_moves(state):
    """Both sides pass the command step: the Move Phase and spotting run."""
    while state.phase == "command":
        state.play(Pass())
    return state


def test_b87_double_time_doubles_movement_for_a_standing_order(position):
    """B87: an element under a command from a previous Turn may move double-time: 2 x Cruise 8 = 16", at the
    'faster than Cruise' band; it spots at -3 (table spot-modifiers 'fast')."""
    units = [unit("a", "nato-m60a1", "nato", 40, 5, 0, order="to-village", element="tanks"),
             unit("b", "wp-t62", "warpac", 69, 47, 180)]
    s = position(units, phase="command", turn=2)
    assert Double("tanks") in s.legal_actions()
    s.play(Double("tanks"))
    assert Double("tanks") not in s.legal_actions()          # once a turn
    _run_moves(s)
    normal = _run_moves(position(units, phase="command", turn=2))
    assert 7.0 < normal.unit("a").moved <= 8.0 + 1e-6          # Cruise 8 on the planned path (costs per cell)
    assert 14.0 < s.unit("a").moved <= 16.0 + 1e-6             # twice that


def test_b87_a_command_issued_this_turn_cannot_double(position):
    s = position([unit("a", "nato-m60a1", "nato", 40, 5, 0, element="tanks"),
                  unit("b", "wp-t62", "warpac", 69, 47, 180)], phase="command", turn=2)
    assert not any(isinstance(a, Double) for a in s.legal_actions())     # standing order 'hold'
    s.play(Order("tanks", "to-village"))
    s.player = 0
    s.hand = [1, 0]
    s.legal_cache = None
    assert Double("tanks") not in s.legal_actions()          # issued this turn (p.16)


def test_b87_double_time_spots_at_minus_three(position):
    from studio.rulesets.bfops.engine import fire as F

    s = position([unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-t62", "warpac", 30, 30, 180)])
    a, b = s.unit("a"), s.unit("b")
    sg = s.sight(a, b)
    slow, fast = F.spot_number(s.game, a, b, sg, False), F.spot_number(s.game, a, b, sg, False, True)
    assert fast == slow - 3


def test_b41_compulsory_movement_is_straight_and_lifted_once_spotted(position):
    """B41: within 10" of an unspotted enemy minefield a unit advancing takes the straightest line (it may
    cross the minefield); once its side has spotted the minefield it plans freely again."""
    units = [unit("a", "nato-m60a1", "nato", 47, 20, 0, order="to-village", element="tanks"),
             unit("b", "wp-t62", "warpac", 69, 47, 180)]
    s = position(units, phase="command", dice=[10] * 12)
    a0 = (s.unit("a").x, s.unit("a").y)
    assert s.compulsory_minefield(s.unit("a")).id == "ford-mines"
    goal = s.goal_of(s.unit("a"), "to-village")
    _run_moves(s)
    a1 = (s.unit("a").x, s.unit("a").y)
    cross = (goal[0] - a0[0]) * (a1[1] - a0[1]) - (goal[1] - a0[1]) * (a1[0] - a0[0])
    assert abs(cross) < 1e-3 and math.dist(a0, a1) > 1          # on the straight line to its goal
    free = position(units, phase="command", dice=[10] * 12)
    free.mines_known[0].add("ford-mines")
    assert free.compulsory_minefield(free.unit("a")) is None
    _run_moves(free)
    assert (free.unit("a").x, free.unit("a").y) != a1


def test_b42_minefield_spot_is_a_unit_rating_check_at_minus_three(position):
    """B42: a UR-6 unit in the zone spots the minefield on 3 or less (6 - 3), using one of its Spot checks; the
    spotted minefield then shows in its side's observation (B43)."""
    units = [unit("a", "nato-m60a1", "nato", 47, 22, 0, element="tanks"),
             unit("b", "wp-t62", "warpac", 69, 47, 180)]
    seen = _run_moves(position(units, phase="command", dice=[3]))
    assert "ford-mines" in seen.mines_known[0]
    assert "ford-mines" in {a.id for a in seen.observation(0).game.geometry.areas}
    assert any("spots minefield" in e for e in seen.events)
    missed = _run_moves(position(units, phase="command", dice=[4]))
    assert "ford-mines" not in missed.mines_known[0]
    assert "ford-mines" not in {a.id for a in missed.observation(0).game.geometry.areas}


# ------------------------------------------------------------------ trenches and wire (p.9-10)

VILLAGE = "bfops-village-defence"


class _Moved:
    """The mover after its Move Phase, with ``moved`` the straight distance it covered (the turn may have ended
    and reset the unit's own counter)."""

    def __init__(self, u, x, y):
        self.bogged, self.moved = u.bogged, math.hypot(u.x - x, u.y - y)


def _mover(position, card, x, y, dice):
    s = position([unit("a", "nato-chieftain", "nato", 60, 46, 180),
                  unit("b", card, "warpac", x, y, 0, order="to-village", element="movers")],
                 phase="command", to_act="warpac", dice=dice, scenario=VILLAGE)
    while s.phase == "command" and s.turn == 1:
        s.play(Pass())
    return s, _Moved(s.unit("b"), x, y)


def test_prepared_features_join_the_table(position):
    s = position([unit("a", "nato-chieftain", "nato", 60, 46, 180)], scenario=VILLAGE)
    ids = {a.id for a in s.game.geometry.areas}
    assert {"south-wire", "village-trench"} <= ids
    meeting = position([unit("a", "nato-m60a1", "nato", 30, 10)])
    assert "south-wire" not in {a.id for a in meeting.game.geometry.areas}


def test_b34_wheeled_armour_at_wire_half_cruise_and_bog_by_axles(position):
    """B34: barbed wire is passed at half Cruise (BTR-60 Cruise 11 -> 5.5"); 4 axles: Bog check -1 (6 - 1 = 5):
    roll 5 passes, roll 6 bogs in the wire."""
    s, b = _mover(position, "wp-btr60", 31, 31, [5])
    assert b.moved == __import__("pytest").approx(5.5, abs=1e-3) and not b.bogged
    s, b = _mover(position, "wp-btr60", 31, 31, [6])
    assert b.bogged and b.moved < 1.0
    assert any("Bog check roll 6 > 5" in e for e in s.events)


def test_b35_tracked_at_wire_apcs_minus_one_tanks_no_check(position):
    """B35: a tracked IFV takes a Bog check at -1 (roll 6 bogs: 6 > 5); a tank passes with no check (its dice are
    not touched: the forced 6 is left for later)."""
    _, bmp = _mover(position, "wp-bmp1", 31, 31, [6])
    assert bmp.bogged
    s, tank = _mover(position, "wp-t55", 31, 31, [6])
    assert not tank.bogged and tank.moved > 5
    assert not any(label.startswith("bog b") for label, _ in s.dice.history)


def test_infantry_pass_wire_at_swim_speed(position):
    """p.10: infantry pass barbed wire at their Swim speed (1" on the sample squad card)."""
    _, squad = _mover(position, "wp-rifle-squad", 31, 31, [])
    assert squad.moved == __import__("pytest").approx(1.0, abs=1e-3)


def test_quarter_inch_trench_tank_bog_minus_one_infantry_double_movement(position):
    """p.9: a 1/4" trench: tanks Bog check -1 (T-55 bog 6: roll 5 passes, 6 bogs); infantry use twice the
    movement (To Fight 3 -> 1.5")."""
    _, tank = _mover(position, "wp-t55", 45, 31.5, [6])
    assert tank.bogged
    _, tank = _mover(position, "wp-t55", 45, 31.5, [5])
    assert not tank.bogged and tank.moved > 3
    _, squad = _mover(position, "wp-rifle-squad", 45, 32.0, [])
    assert squad.moved == __import__("pytest").approx(1.5, abs=1e-3)


def test_b29_half_inch_trench_only_infantry_and_tanks(position):
    """B29: a 1/2" trench stops every vehicle but tanks (Bog -2); table obstacle-crossing."""
    t = position([unit("a", "nato-chieftain", "nato", 60, 46, 180)], scenario=VILLAGE).game.tables
    assert not t.crossing[("trench_half", "tracked_apc")]["passes"]
    assert not t.crossing[("trench_half", "wheeled_4")]["passes"]
    assert t.crossing[("trench_half", "tank")]["bog"] == -2 and t.crossing[("trench_half", "infantry")]["passes"]
    assert not t.crossing[("trench_quarter", "wheeled_soft")]["passes"]     # jeeps and trucks never cross


# ------------------------------------------------------------------ CQB (9.4, p.15)

def test_b74_cqb_qualification_by_lowest_armour(position):
    """B74: a squad may close with a vehicle only with a weapon whose Pen exceeds its lowest armour (bottom
    excluded): the rifle squad's RPG (Pen above the T-55's top 2) qualifies; a squad with Pen-1 rifles only
    would not (cqb.qualifies on the card)."""
    from studio.rulesets.bfops.engine import cqb

    s = position([unit("q", "wp-rifle-squad", "warpac", 30, 30, 0),
                  unit("t", "nato-chieftain", "nato", 30, 30.9, 180, spotted=True)], to_act="warpac")
    sq, tank = s.game.card_of(s.unit("q")), s.game.card_of(s.unit("t"))
    assert cqb.lowest_armour(tank) == min(tank.armor.front, tank.armor.side, tank.armor.rear, tank.armor.top)
    assert cqb.qualifies(sq, tank)
    rifles = sq.model_copy(update={"weapons": [w for w in sq.weapons if all(
        max(a.pen.values()) <= cqb.lowest_armour(tank) for a in w.ammo)]})
    assert not cqb.qualifies(rifles, tank)


def test_b75_cqb_dice_per_hit_left_and_grenades(position):
    """B75: a 3-Hit squad (UR 6) rolls one die per hit left, each <= 6 is 1 Hit; Prepared grenades (4 Turns idle)
    make one success 2 Hits; more Hits than the lowest armour (T-55 top 2) disables: rolls [2, 5, 9] -> 2 Hits,
    not more than 2; with grenades 3; [2, 5, 6] -> 3."""
    from studio.rulesets.bfops.engine import cqb

    def play(dice, **status):
        s = position([unit("q", "nato-rifle-section", "nato", 30, 30, 0, **status),
                      unit("t", "wp-t55", "warpac", 30, 30.9, 180, spotted=True)], dice=dice)
        act = cqb.Cqb("q", "t")
        while act not in s.legal_actions():            # earlier priorities: the tank holds
            s.play(next(a for a in s.legal_actions() if str(a).startswith("hold")))
        s.play(act)
        while s.turn == 1 and s.phase == "fire" and s.legal_actions():
            s.play(next(a for a in s.legal_actions() if str(a).startswith("hold")))
        return s

    assert cqb.lowest_armour(position([unit("t", "wp-t55", "warpac", 30, 30.9)]).game.cards["wp-t55"]) == 2
    assert not play([2, 5, 9]).unit("t").disabled
    assert play([2, 5, 9], idle_turns=4).unit("t").disabled
    s = play([2, 5, 6])
    assert s.unit("t").disabled and any("CQB" in e and "3 Hit(s)" in e for e in s.events)
    hurt = play([2, 5, 6], hits=1)                  # 2 hits left: 2 dice, [2, 5] -> 2 Hits: holds
    assert not hurt.unit("t").disabled


# ------------------------------------------------------------------ AGL burst (3.4, p.7-8)

def _agl(position, dice, mode="burst", **status):
    s = position([unit("a", "wp-ags17-team", "warpac", 30, 40, 180, **status),
                  unit("b", "nato-us-rifle-squad", "nato", 30, 29.4, 0, spotted=True)],
                 to_act="warpac", dice=dice, options={"agl-mode": mode})
    from studio.rulesets.bfops.engine.state import Fire

    s.play(Fire("a", "b", 0, "HE"))
    while s.turn == 1 and s.phase == "fire" and s.legal_actions():
        s.play(next(a for a in s.legal_actions() if str(a).startswith("hold")))
    return s


def test_b11_agl_burst_three_dice_each_plus_one(position):
    """B11: a burst rolls to hit with 3 dice, each at +1: the number is one more than the single shot's, and each
    die that hits scores its effect (1 Hit on a Soft Unit): two hits of three on the 3-Hit squad."""
    from studio.rulesets.bfops.engine import fire as F

    single = _agl(position, [1], mode="standard")
    assert [label for label, _ in single.dice.history][:1] == ["HE hit a>b"] and single.unit("b").hits == 1
    s = position([unit("a", "wp-ags17-team", "warpac", 30, 40, 180),
                  unit("b", "nato-us-rifle-squad", "nato", 30, 29.4, 0, spotted=True)], to_act="warpac")
    a, b = s.unit("a"), s.unit("b")
    need = F.hit_number(s.game, a, b, s.game.card_of(a).weapons[0], s.sight(a, b))
    burst = _agl(position, [int(need) + 1, 10, 1])                # the first die hits only thanks to the +1
    labels = [label for label, _ in burst.dice.history]
    assert labels[:3] == ["HE burst 1 a>b", "HE burst 2 a>b", "HE burst 3 a>b"]
    assert burst.unit("b").hits == 2 and burst.unit("a").bursts == 1
    assert any("burst at b: rolls" in e for e in burst.events)


def test_agl_reloads_for_two_move_phases_after_five_bursts(position):
    """p.7-8: 5 bursts a load; the spent launcher reloads during 2 Move Phases (no fire meanwhile), once per
    reload on the card (infantry: 1); with no reload left it fires single shots."""
    from studio.rulesets.bfops.engine.agl import agl_reload, bursting

    s = position([unit("a", "wp-ags17-team", "warpac", 30, 40, 180, agl_bursts=5),
                  unit("b", "nato-us-rifle-squad", "nato", 30, 29.4, 0, spotted=True)], to_act="warpac",
                 options={"agl-mode": "burst"})
    a, w = s.unit("a"), s.game.card_of(s.unit("a")).weapons[0]
    assert not bursting(s, a, w)
    agl_reload(s, a)                       # first Move Phase: starts reloading
    assert a.reloading == 1 and a.reloads == 1 and s._weapons_at(a, s.game.tables.priority[w.weapon_class]) == []
    agl_reload(s, a)                       # second Move Phase: loaded
    assert a.reloading == 0 and a.bursts == 0 and bursting(s, a, w)
    a.bursts = 5
    agl_reload(s, a)                       # no reload left: single shots from now on
    assert a.reloading == 0 and not bursting(s, a, w)


def test_b47_column_follow_through_a_minefield(position):
    """B47: a unit right behind the first of its column (within 1/2") follows its track and crosses the minefield
    safely on the ground the first passed (no roll); a follower 0.6" behind plans and rolls for itself. Two
    M60A1s of one element head south-west across the ford minefield to the ford (the minefield is known to
    them: no compulsory line)."""
    def run(gap):
        s = position([unit("a", "nato-m60a1", "nato", 47, 29.3, 180, order="to-ford", element="tanks"),
                      unit("c", "nato-m60a1", "nato", 47, 29.3 + 1.0 + gap, 180, order="to-ford",
                           element="tanks"),
                      unit("b", "wp-t62", "warpac", 69, 47, 180)], phase="command", dice=[10] * 20)
        s.mines_known[0].add("ford-mines")
        while s.phase == "command" and s.turn == 1:
            s.play(Pass())
        return [label for label, _ in s.dice.history if label.startswith("mine")], s.events
    rolls, events = run(0.4)
    assert rolls and all(label.endswith(">a") for label in rolls)
    assert any("c follows in column" in e for e in events)
    rolls, _ = run(0.6)
    assert any(label.endswith(">c") for label in rolls)


def test_b41_no_stop_short_within_three_inches_of_an_unspotted_minefield(tmp_path):
    """B41: in the compulsory zone, a command that stops (here 'cover', whose spot for a unit at (30, 30) is
    (37.9, 35.1) by the church) within 3" of the unspotted minefield is not legal, unless a victory objective lies
    there; playing it names the rule. A WARPAC minefield laid as a prepared work in a copy of the meeting."""
    import shutil

    import pytest

    from studio.rules.api import RulesError
    from studio.rules.position import load_position

    from .conftest import DATA

    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    scen = root / "scenarios" / "bfops" / "bfops-meeting-at-the-ford.yaml"
    scen.write_text(scen.read_text(encoding="utf-8") + """\
  prepared:
    agreed: true
    side: warpac
    tactics: [minefields]
    features:
      - {id: church-mines, terrain: minefield, shape: polyline, points: [[36.0, 33.0], [40.0, 33.0]], width_in: 1.0,
         hidden_from: [nato], attributes: {density: low, mine_type: AT}}
""", encoding="utf-8")

    def state(x, y):
        doc = {"kind": "position", "schema_version": 1, "scenario": "bfops-meeting-at-the-ford", "phase": "command",
               "units": [unit("a", "nato-m60a1", "nato", x, y, 0, element="tanks"),
                         unit("b", "wp-t62", "warpac", 69, 47, 180)], "extension": {"hand": [1, 0]}}
        return load_position(doc, root).state

    s = state(30, 30)
    assert s.compulsory_minefield(s.unit("a")).id == "church-mines"
    assert Order("tanks", "cover") not in s.legal_actions() and Order("tanks", "advance") in s.legal_actions()
    with pytest.raises(RulesError) as err:
        s.play(Order("tanks", "cover"))
    assert err.value.rule == "BfOps p.10"
    s.mines_known[0].add("church-mines")                     # spotted: free commands again (B43)
    s.legal_cache = None
    assert Order("tanks", "cover") in s.legal_actions()


# ------------------------------------------------------------------ reconnaissance (p.18)

def test_recon_orders_cost_no_card_and_engaging_first_costs_one(position):
    """p.18: Recon enter and move without Command Cards; engaging first needs a card (Engage)."""
    from studio.rulesets.bfops.engine.state import Engage

    s = position([unit("r", "wp-brdm2", "warpac", 30, 30, 180, element="scouts"),
                  unit("t", "wp-t62", "warpac", 40, 40, 180, element="tanks"),
                  unit("a", "nato-m60a1", "nato", 30, 10)], phase="command", to_act="warpac")
    s.hand = [0, 2]
    s.player, s.legal_cache = 1, None
    s.play(Order("scouts", "advance"))
    assert s.hand == [0, 2] and s.orders["scouts"] == "advance"     # free
    assert Engage("scouts") in s.legal_actions() and Engage("tanks") not in s.legal_actions()
    s.play(Engage("scouts"))
    assert s.hand == [0, 1] and "scouts" in s.engaged
    s.play(Order("tanks", "advance"))
    assert s.hand[1] == 0                                            # a combat element's order takes a card


def test_recon_only_returns_fire_unless_ordered_to_engage(position):
    """p.18: a Recon unit never engages first: it may fire only at units that fired at its element."""
    units = [unit("r", "wp-brdm2", "warpac", 30, 30, 180, spotted=True, element="scouts"),
             unit("a", "nato-m113", "nato", 30, 12, 0, spotted=True)]
    s = position(units, to_act="warpac")
    r = s.unit("r")
    mg = s.game.tables.priority["machine_gun"]
    assert s._targets(r, mg) == []
    s.fired_on["r"] = {"a"}
    assert {f.target for f in s._targets(r, mg)} == {"a"}
    engaged = position(units, to_act="warpac")
    engaged.engaged.add("scouts")
    assert {f.target for f in engaged._targets(engaged.unit("r"), mg)} == {"a"}


# ------------------------------------------------------------------ second target behind (p.22)

def test_b129_b130_shot_continues_to_the_unit_directly_behind(position):
    """B129: an AP hit on a BMP-1 broadside goes on to a second BMP-1 directly behind: a second to-hit roll at the
    first number -4, Pen round((Pen - side 3 - side 3) / 3) against its side. B130: only within max range / 10
    (M60A1 105mm max 82": 8.2") beyond the first."""
    from studio.rulesets.bfops.engine import fire as F
    from studio.rulesets.bfops.engine.state import Fire
    from studio.rulesets.bfops.engine.through import behind

    def setup(gap, dice=()):
        return position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
                         unit("b", "wp-bmp1", "warpac", 30, 25, 90, spotted=True),
                         unit("c", "wp-bmp1", "warpac", 30, 25 + 0.45 + gap, 90, spotted=True)], dice=dice)

    s = setup(3.0)
    a, b, c = s.unit("a"), s.unit("b"), s.unit("c")
    w = s.game.card_of(a).weapons[0]
    assert behind(s, a, b, w) is c
    assert behind(setup(8.0), *(setup(8.0).unit(x) for x in ("a", "b")), w) is not None
    far = setup(8.5)
    assert behind(far, far.unit("a"), far.unit("b"), w) is None            # beyond 8.2"
    need = F.hit_number(s.game, a, b, w, s.sight(a, b))
    ap = next(x for x in w.ammo if x.type == "AP")
    pen2 = round((ap.pen[F.band(w, s.sight(a, c).distance)] - 6) / 3)
    second = int(need - 4)
    assert second >= 1
    s = setup(3.0, dice=[1, 1, second, 1])                      # hit, disable b, hit c at need - 4, disable c
    s.play(Fire("a", "b", 0, "AP"))
    while s.turn == 1 and s.phase == "fire" and s.legal_actions():
        s.play(next(x for x in s.legal_actions() if str(x).startswith("hold")))
    assert pen2 == 8                                            # (30 - 6) / 3 at Medium range (B129)
    assert s.unit("b").disabled and s.unit("c").disabled        # 8 - side 3: disabled on 5 or less
    assert any(label == "AP through b>c" for label, _ in s.dice.history)
    miss = setup(3.0, dice=[1, 1, second + 1])
    miss.play(Fire("a", "b", 0, "AP"))
    while miss.turn == 1 and miss.phase == "fire" and miss.legal_actions():
        miss.play(next(x for x in miss.legal_actions() if str(x).startswith("hold")))
    assert not miss.unit("c").disabled
