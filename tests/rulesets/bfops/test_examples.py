"""Worked examples of bfops-examples.md (B items) through the public API: positions, legal actions, play.

Dice are forced (``dice``) in the order the engine rolls: at the start of a fire-phase position there is no
spotting roll (units marked ``spotted`` are known), then per shot to-hit, then the effect roll."""
from __future__ import annotations

import math

import pytest

from studio.rulesets.bfops.engine import fire as F
from studio.rulesets.bfops.engine.command import FOG, build_deck
from studio.rulesets.bfops.engine.state import Fire, Hold

from .conftest import unit


def _shots(state):
    return [a for a in state.legal_actions() if isinstance(a, Fire)]


def test_b7_target_speed_bands(position):
    """B7 (p.7): up to 4" no modifier, 5-8 -1, 9-13 -2, 14-19 -3; between bands rounds up (option)."""
    s = position([unit("a", "nato-m60a1", "nato", 10, 10), unit("b", "wp-t62", "warpac", 10, 30, 180)])
    g = s.game
    got = [F.speed_modifier(g, m) for m in (0, 4, 5, 8, 9, 13, 14, 19)]
    assert got == [0, 0, -1, -1, -2, -2, -3, -3]
    assert F.speed_modifier(g, 4.5) == -1                    # ceil: 5
    floor = position([unit("a", "nato-m60a1", "nato", 10, 10), unit("b", "wp-t62", "warpac", 10, 30, 180)],
                     options={"speed-rounding": "floor"})
    assert F.speed_modifier(floor.game, 4.5) == 0            # floor: 4


def test_b5_b6_firing_from_within_terrain(position):
    """B5/B6 (3.0, p.7): a firer 1" or less inside woods takes no terrain modifier; deeper, the full depth
    (woods -1 per inch, placeholder)."""
    for x, deep in ((7.6, False), (15.0, True)):
        s = position([unit("a", "nato-m60a1", "nato", x, 34, 90), unit("b", "wp-t62", "warpac", 40, 34, 270)])
        a, b = s.unit("a"), s.unit("b")
        depth = s.game.geometry.depth_inside(a.x, a.y, s.game.geometry.by_id["north-woods"])
        assert (depth > 1.0) is deep and depth > 0
        mods = F.terrain_mods(s.game, a, s.sight(a, b).los, "hit_per_in")
        assert mods == (pytest.approx(-depth) if deep else 0.0)


def test_depth_mode_option_along_los(position):
    """A24 (option depth-mode): along the line of sight the depth is the distance to the edge on the line."""
    s = position([unit("a", "nato-m60a1", "nato", 15, 34, 90), unit("b", "wp-t62", "warpac", 40, 34, 270)],
                 options={"depth-mode": "along-los"})
    a, b = s.unit("a"), s.unit("b")
    los = s.sight(a, b).los
    woods = s.game.geometry.by_id["north-woods"]
    along = s.game.depth(a, woods, los)
    assert along == pytest.approx(s.game.geometry.depth_along(15, 34, 40, 34, woods))
    assert along != pytest.approx(s.game.geometry.depth_inside(15, 34, woods))


def test_b17_track_armour_threshold(position):
    """B17 (4.2, p.8) and B45 (p.11): AT mine Pen 8 vs T-62A tracks 4 -> immobilized without a roll; disable on
    d10 <= 8 - bottom 3 = 5."""
    s = position([unit("a", "wp-t62", "warpac", 10, 10), unit("b", "nato-m60a1", "nato", 60, 40)])
    t = s.unit("a")
    s.dice.force(5)
    s._mine_at_vehicle(t, s.game.card_of(t), 8)
    assert t.immobilized and t.disabled
    s2 = position([unit("a", "wp-t62", "warpac", 10, 10), unit("b", "nato-m60a1", "nato", 60, 40)])
    t2 = s2.unit("a")
    s2.dice.force(6)
    s2._mine_at_vehicle(t2, s2.game.card_of(t2), 3)         # Pen 3 < tracks 4: no effect, and 3-3 = 0 to disable
    assert not t2.immobilized and not t2.disabled


def test_b46_minefield_rolls_per_inch(position, tmp_path):
    """B46 (p.11): low density explodes on 4 or less per inch passed (table mines)."""
    s = position([unit("a", "wp-t62", "warpac", 10, 10), unit("b", "nato-m60a1", "nato", 60, 40)])
    assert s.game.tables.mines["low"]["explode_on"] == 4 and s.game.tables.mines["high"]["explode_on"] == 7


def test_b125_b126_through_sums(position):
    """B126 (p.21): fire through a stone building passes two walls of cover 4 = 8."""
    s = position([unit("a", "nato-m60a1", "nato", 34.5, 36.5, 90, spotted=True),
                  unit("b", "wp-t62", "warpac", 50, 36.5, 270, spotted=True)])
    sight = s.sight(s.unit("a"), s.unit("b"))
    church = [c for c in sight.los.crossings if c.area.id in ("house-1", "church")]
    assert church and sight.blocked
    assert sight.through_cover == pytest.approx(sum(4 * c.faces for c in church))
    assert all(c.faces == 2 for c in church)


def test_b127_fire_through_obstruction_pen(position):
    """B127 (p.22): AP Pen 30 through faces summing 8 -> round((30 - 8) / 3) = 7; -4 to hit, AP only (B133)."""
    s = position([unit("a", "nato-m60a1", "nato", 34.5, 38.2, 90), unit("b", "wp-t62", "warpac", 50, 38.2, 270,
                                                                        spotted=True)])
    a, b = s.unit("a"), s.unit("b")
    sight = s.sight(a, b)
    assert sight.blocked and sight.through_cover == 4 * 2      # the church's two walls
    w = s.game.card_of(a).weapons[0]
    ap = next(x for x in w.ammo if x.type == "AP")
    assert F.band(w, sight.distance) == "medium"
    assert F.effective_pen(s.game, a, b, w, ap, sight) == round((30 - 8) / 3)
    base = s.game.tables.to_hit["medium"]
    assert F.hit_number(s.game, a, b, w, sight) == base - 4    # Defilade ignored, -4 (p.22)
    shots = _shots(s)
    assert shots and {x.ammo for x in shots if x.target == "b" and x.weapon == 0} == {"AP"}   # B133: no HE


def test_b83_higher_unit_rating_fires_first(position):
    """B83 (p.16): UR 6 and UR 5 fire at each other in one Weapon Priority: the UR-6 hit disables the UR-5 firer
    before it fires (its declared shot is never rolled)."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
                  unit("b", "wp-t55", "warpac", 30, 30, 180, spotted=True)], dice=[1, 1])
    s.play(Fire("a", "b", 0, "AP"))
    assert s.player == 1
    s.play(Fire("b", "a", 0, "AP"))
    assert s.unit("b").disabled and not s.unit("a").disabled
    assert [label for label, _ in s.dice.history] == ["AP hit a>b", "disable b"]   # only the UR-6 shot was rolled


def test_equal_ratings_fire_simultaneously(position):
    """Same Unit Rating: both shots resolve (BfOps p.16: simultaneous within a Weapon Priority)."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
                  unit("b", "wp-t62", "warpac", 30, 30, 180, spotted=True)], dice=[1, 1, 1, 1])
    s.play(Fire("a", "b", 0, "AP"))
    s.play(Fire("b", "a", 0, "AP"))
    assert s.unit("a").disabled and s.unit("b").disabled


def test_disable_roll_is_pen_minus_armour(position):
    """p.22: Pen 7 vs side armour 3 disables on 4 or less; Pen at or below armour cannot disable."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 90, spotted=True),
                  unit("b", "wp-t62", "warpac", 30, 30, 90, spotted=True)], dice=[1, 5])
    a, b = s.unit("a"), s.unit("b")
    assert F.struck_face(s.game, a, b) == "side"              # b faces east, a is south of it
    s.play(Fire("a", "b", 0, "AP"))                           # 105mm Pen 30 at medium vs side 5 -> 25: disabled
    s.play(Hold("b")) if not s.is_terminal() and s.legal_actions() and isinstance(s.legal_actions()[0], Hold) \
        else None
    assert s.unit("b").disabled


def test_b69_120mm_he_on_squad_with_splash(position):
    """B69 (p.14): 120mm cannon HE on a WARPAC 2-Hit squad: 2 Hits (disabled), +1 Hit to a squad within 1/4"."""
    s = position([unit("a", "nato-chieftain", "nato", 30, 10, 0, spotted=True),
                  unit("b", "wp-rifle-squad", "warpac", 30, 20, 180, spotted=True),
                  unit("c", "wp-rifle-squad", "warpac", 30.6, 20, 180)], dice=[1])
    w = s.game.card_of(s.unit("a")).weapons[0]
    he = next(x for x in w.ammo if x.type == "HE")
    assert F.infantry_hits(s.game, w, he) == (2, 0.25, 1)
    apply = s.resolve_shot(Fire("a", "b", 0, "HE"))
    apply()
    assert s.unit("b").disabled and s.unit("b").hits == 2
    assert s.unit("c").hits == 0                               # 0.6" apart centre to centre: beyond 1/4"? see below
    near = position([unit("a", "nato-chieftain", "nato", 30, 10, 0, spotted=True),
                     unit("b", "wp-rifle-squad", "warpac", 30, 20, 180, spotted=True),
                     unit("c", "wp-rifle-squad", "warpac", 30.2, 20, 180)], dice=[1])
    near.resolve_shot(Fire("a", "b", 0, "HE"))()
    assert near.unit("c").hits == 1 and not near.unit("c").disabled


def test_b73_excess_hits_dissipate(position):
    """B73 (p.14): a 2-Hit squad taking 3 Hits has 2 (the excess dissipates)."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-rifle-squad", "warpac", 30, 20)])
    s._score_hits(s.unit("b"), 3)
    assert s.unit("b").hits == 2 and s.unit("b").disabled


def test_b13_b14_suppression(position):
    """B13/B14 (p.8): a suppressed unit neither moves nor fires through its next Move Phase and next fire
    opportunity, then the marker comes off."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True, suppressed=True),
                  unit("b", "wp-t62", "warpac", 30, 30, 180, spotted=True)])
    assert s.unit("a").suppressed
    assert all(x.unit != "a" for x in s.legal_actions())      # cannot fire: the WP unit decides
    assert s.player == 1


def test_b90_deck_company_cards(position):
    """B89/B90 (p.17): NATO company command vehicle 2 cards, WARPAC 1; specialised (section pair) none; one
    Platoon card per combat platoon; the Fog of War card."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-t62", "warpac", 30, 30)])
    g = s.game
    deck = build_deck(g)
    count = lambda side, level: sum(1 for c in deck if c.side == side and c.level == level)  # noqa: E731
    assert count(0, "company") == 2 and count(1, "company") == 1
    # NATO: tanks, mech, squads = 3 platoons; the M901 pair is a Section (no card)
    assert count(0, "platoon") == 3
    assert count(1, "platoon") == 4                           # tanks, bmps, squads, mortar
    assert sum(1 for c in deck if c == FOG) == 1


def test_b51_fording(position):
    """B51 (p.11): a vehicle may cross water no deeper than its fording depth: the stream (1") is impassable to
    an M60A1 (0.4") except at the fords (0.25", 0.3")."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-t62", "warpac", 30, 30)])
    g = s.game
    card = g.card_of(s.unit("a"))
    assert math.isinf(g.cell_cost("tracked", card.fording_depth_in, 24.5, 22.5))
    assert math.isfinite(g.cell_cost("tracked", card.fording_depth_in, 36.2, 24.2))


def test_b49_rough_ground_bog_table(position):
    """B49/B50 (p.11): rough below Cruise no check, at Cruise -1, faster -2; extreme -1/-2/-3."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-t62", "warpac", 30, 30)])
    assert s.game.tables.bog == {"rough": {"below_cruise": None, "cruise": -1, "above_cruise": -2},
                                 "extreme": {"below_cruise": -1, "cruise": -2, "above_cruise": -3}}


def test_b55_night_spotting(position):
    """B55 (p.12): dusk (low light) -4 to Spot checks; the village scenario is at dusk. The T-55 has no night
    vision; the Chieftain's Gen 1 offsets it by NATO +2 (B56, table night-vision)."""
    s = position([unit("a", "nato-chieftain", "nato", 40, 38), unit("b", "wp-t55", "warpac", 30, 5)],
                 scenario="bfops-village-defence")
    assert s.game.night_spot_modifier(s.unit("b")) == -4
    assert s.game.night_spot_modifier(s.unit("a")) == -2
    assert any("Low light" in r for r in s.game.environment_rules_applied)


def test_b59_max_hits_bands():
    """B59 (8.2, p.13): FR 4 -> 1, 6-8 -> 2, 12 -> 3; the lost bands are not invented."""
    from studio.rulesets.bfops.engine.data import Tables
    from studio.model.project import ProjectIndex  # noqa: F401  (import check only)
    import yaml

    from studio.model.documents import Ruleset
    from .conftest import DATA

    rs = Ruleset.model_validate(yaml.load((DATA / "rulesets/bfops/ruleset.yaml").read_text(), Loader=yaml.CSafeLoader))
    t = Tables.compile(rs)
    assert [t.max_hits_for(fr) for fr in (4, 6, 8, 12)] == [1, 2, 2, 3]
    assert t.max_hits_for(20) is None


def test_b9_smoke_screens_later_priorities_not_the_same(position):
    """B9 (p.7): deploying smoke takes the unit's fire opportunity; fire in the same Weapon Priority ignores it,
    later priorities get the smoke modifier (placeholder value)."""
    from studio.rulesets.bfops.engine.state import Smoke

    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
                  unit("b", "wp-bmp1", "warpac", 30, 25, 180, spotted=True)])
    assert Smoke("a") in s.legal_actions()
    s.play(Smoke("a"))
    a, b = s.unit("a"), s.unit("b")
    assert a.fired and s.smoke == {"a": 0}
    sight = s.sight(b, a)
    w = s.game.card_of(b).weapons[0]
    same = F.hit_number(s.game, b, a, w, sight, s.in_smoke(a))
    s.priority = 2                                             # the ATGM priority, later in the sequence
    later = F.hit_number(s.game, b, a, w, sight, s.in_smoke(a))
    assert later == same + s.game.tables.hit_mod["smoke"] and later < same
    assert "smoke" not in {type(x).__name__.lower() for x in
                           position([unit("c", "nato-m113", "nato", 30, 10, spotted=True),
                                     unit("d", "wp-t62", "warpac", 30, 25, 180, spotted=True)]).legal_actions()}


def test_b134_b135_structure_destruction(position):
    """B134/B135 (p.23): only HE whose Pen exceeds the Cover counts; at 10 x Cover the building collapses and the
    infantry inside bail out at -3 (6 - 3: a roll of 4 fails); rubble still blocks (B137)."""
    from studio.rulesets.bfops.engine.state import Fire

    s = position([unit("a", "nato-chieftain", "nato", 41, 30, 0),
                  unit("b", "wp-rifle-squad", "warpac", 43.2, 37.2, 180),
                  unit("c", "wp-t62", "warpac", 70, 2, 0)])
    shots = [x for x in s.legal_actions() if isinstance(x, Fire) and x.target.startswith("@")]
    assert shots and {x.ammo for x in shots} == {"HE"}                       # B134/B133: HE only
    church = next(x for x in shots if x.target == "@church")
    assert church.weapon == 0
    he_pen = s.game.card_of(s.unit("a")).weapons[0].ammo[1].pen["short"]
    assert he_pen > 4                                                         # 120mm HE Pen 8 > cover 4
    from studio.rulesets.bfops.engine.structures import collapse, resolve_structure_shot

    s.dice.force(1)
    resolve_structure_shot(s, church)()
    assert s.damage["church"] == he_pen
    s.damage["church"] = 39.0
    s.dice.force(1, 4)                                                        # hit; then the bailout roll 4
    resolve_structure_shot(s, church)()
    assert "church" in s.rubble and s.unit("b").disabled                      # 4 > 6 - 3: fails
    los = s.game.geometry.los(34.5, 37.2, 50, 37.2, 0.35, 0.35)
    assert any(c.area.id == "church" and c.blocking for c in los.crossings)  # B137: rubble still obstructs
    assert collapse is not None
