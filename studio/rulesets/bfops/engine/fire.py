"""Spotting and direct fire: to-hit modifiers, Penetration through cover, the damage pipeline (digest c.1-c.24).

Pure functions of the game (static data) and the units; dice are passed in. Every rule's code carries its
reference. Base-rule numbers (to-hit by range band, spotting table, defilade) come from placeholder tables.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from studio.geometry import relative_bearing
from studio.geometry.shapes import bearing

SOLID_THROUGH = ("building", "wall")


#: a unit within this many inches of the firer is fired over; of the target, it is the target's cover (p.21)
FIRE_OVER_IN = 0.25


class Sight:
    """What the firer sees of the target: range, the sight line, the exposure fraction, fire-through faces, and
    the units standing on the line (c.21): ``unit_cover`` makes the target Defilade, ``friendly_screen`` is the
    friendly unit struck on a to-hit roll of 10. ``exposure`` and ``screens`` (the pair unit cover, friendly
    screen) may be given as functions of nothing, called when first read (listing targets needs only range and
    blocking; they read the static geometry and values taken when the sight line was drawn)."""

    __slots__ = ("distance", "los", "_exposure", "through_cover", "blocked", "_screens")

    def __init__(self, distance: float, los, exposure, through_cover: float, blocked: bool,
                 unit_cover: str | None = None, friendly_screen: str | None = None, screens=None):
        self.distance = distance
        self.los = los
        self._exposure = exposure
        self.through_cover = through_cover   # cover of solid faces passed when fire goes through them (c.23), or 0
        self.blocked = blocked               # not visible at all (ground, woods, or solids: fire-through only)
        self._screens = (unit_cover, friendly_screen) if screens is None else screens

    @property
    def exposure(self) -> float:
        """Fraction (0..1) of the target's base the firer sees."""
        if callable(self._exposure):
            self._exposure = self._exposure()
        return self._exposure

    @property
    def unit_cover(self) -> str | None:
        """Id of the unit giving the target Defilade (BfOps p.21)."""
        return self._screen_pair()[0]

    @property
    def friendly_screen(self) -> str | None:
        """Id of the firer's friendly unit on the line > 1/4" from both ends (BfOps p.21)."""
        return self._screen_pair()[1]

    def _screen_pair(self) -> tuple[str | None, str | None]:
        if callable(self._screens):
            self._screens = self._screens()
        return self._screens


@dataclass(frozen=True, slots=True)
class Placed:
    """A unit as it stood when a sight line was drawn (what :func:`unit_screens` reads of it)."""

    id: str
    card: str
    side: int
    x: float
    y: float
    facing: float

    @classmethod
    def of(cls, unit) -> "Placed":
        return cls(unit.id, unit.card, unit.side, unit.x, unit.y, unit.facing)


def sight(game, firer, target, side: int, others=()) -> Sight:
    """LOS from the firer's highest weapon to the target's top (BfOps p.21: firing over obstructions); the
    areas hidden from the firer's side are left out of what it sees (camouflage it has not found), and
    ``others`` (the units on the table) are screened per :func:`unit_screens` (the bases near the line taken
    now, the exact test when first read)."""
    g = game.geometry
    fc, tc = game.card_of(firer), game.card_of(target)
    eye = max([w.mount_height_in for w in fc.weapons] or [fc.base.height_in])
    los = g.los(firer.x, firer.y, target.x, target.y, eye=eye, target=tc.base.height_in, side=game.sides[side])
    dist = game.distance(firer, target)
    blockers = [c for c in los.crossings if c.blocking]
    solids_only = los.ground_block is None and all(c.area.kind in SOLID_THROUGH for c in blockers)
    through = sum(c.area.cover * c.faces for c in blockers) if blockers and solids_only else 0.0   # BfOps p.21
    blocked = bool(blockers) or los.ground_block is not None
    exposure = 0.0 if blocked else functools.partial(
        g.exposure, firer.x, firer.y, eye, game.footprint(target), tc.base.height_in, game.sides[side],
        key=(target.card, target.x, target.y, target.facing))
    near = _near_line(game, firer, target, others) if others and not blocked else []
    screens = functools.partial(unit_screens, game, Placed.of(firer), Placed.of(target), eye,
                                [Placed.of(v) for v in near]) if near else (None, None)
    return Sight(dist, los, exposure, through, blocked, screens=screens)


def unit_screens(game, firer, target, eye: float, others) -> tuple[str | None, str | None]:
    """Units on the sight line (BfOps 14.0, p.21): one within 1/4" of the firer is fired over (no effect); one
    within 1/4" of the target, or farther than 1/4" from both (an Obstruction: mutual Defilade), makes the target
    Defilade; a friendly unit of the firer in that middle case is struck on a to-hit roll of 10. A unit screens
    only when it rises above the line from the firer's weapon to the middle of the target's height (it hides more
    than half of the target, the 50% rule of p.21). Returns (cover unit id, friendly screen id)."""
    import shapely

    cands = _near_line(game, firer, target, others)
    if not cands:
        return None, None
    g = game.geometry
    line = shapely.linestrings([(firer.x, firer.y), (target.x, target.y)])
    feet = [game.footprint(v) for v in cands]
    hit = shapely.intersects(line, feet)
    if not hit.any():
        return None, None
    length = math.hypot(target.x - firer.x, target.y - firer.y) or 1e-9
    z0 = g.ground_at(firer.x, firer.y) + eye
    z1 = g.ground_at(target.x, target.y) + game.card_of(target).base.height_in / 2
    ff, tf = game.footprint(firer), game.footprint(target)
    cover = screen = None
    for v, foot, on_line in zip(cands, feet, hit.tolist()):
        if not on_line:
            continue
        t = math.hypot(v.x - firer.x, v.y - firer.y)
        if z0 + (z1 - z0) * min(1.0, t / length) >= g.ground_at(v.x, v.y) + game.card_of(v).base.height_in:
            continue                                                # it hides less than half of the target
        if shapely.distance(foot, ff) <= FIRE_OVER_IN:
            continue                                                # fired over (p.21)
        cover = cover or v.id
        if v.side == firer.side and shapely.distance(foot, tf) > FIRE_OVER_IN:
            screen = screen or v.id                                 # friendly cover > 1/4" away (p.21)
    return cover, screen


def _near_line(game, firer, target, others) -> list:
    """The units of ``others`` (but the firer and the target) whose base may meet the segment from the firer to
    the target: the centre within the base's half diagonal (plus a margin) of it. A cheap bound that only drops
    bases the exact test would."""
    reach = game.__dict__.setdefault("_base_reach", {})     # card id -> (half diagonal + margin) squared
    fx, fy = firer.x, firer.y
    dx, dy = target.x - fx, target.y - fy
    norm = dx * dx + dy * dy
    out = []
    for v in others:
        if v is firer or v is target:
            continue
        r2 = reach.get(v.card)
        if r2 is None:
            b = game.card_of(v).base
            r2 = reach[v.card] = (math.hypot(b.width_in, b.length_in) / 2 + 1e-6) ** 2
        px, py = v.x - fx, v.y - fy
        t = 0.0 if norm <= 0 else max(0.0, min(1.0, (px * dx + py * dy) / norm))
        ex, ey = px - t * dx, py - t * dy
        if ex * ex + ey * ey <= r2:
            out.append(v)
    return out


def band(weapon, distance: float) -> str | None:
    """The weapon's range band at ``distance`` inches, None beyond long range."""
    r = weapon.ranges
    for name in ("short", "medium", "long"):
        if distance <= getattr(r, name):
            return name
    return None


def terrain_mods(game, firer, los, column: str) -> float:
    """Terrain between and around: the firer's own area only when deeper than 1" (BfOps 3.0), then every
    area the line crosses, per inch (base rule 6.1.1, placeholder table ``terrain``)."""
    total = 0.0
    for c in los.crossings:
        per_in = float(game.tables.terrain_row(c.area.kind)[column]) if c.area.kind in game.tables.terrain else 0.0
        if not per_in:
            continue
        if c.at_observer:
            depth = game.depth(firer, c.area, los)
            if depth <= 1.0:                                   # BfOps 3.0: 1" or less: no modifiers
                continue
            total += per_in * depth                            # BfOps 3.0: the full terrain length
        else:
            total += per_in * c.length
    return total


def speed_modifier(game, moved: float) -> float:
    """Target speed to-hit modifier (BfOps p.7), bands on whole inches (option ``speed-rounding``)."""
    rounding = math.floor if game.options.get("speed-rounding") == "floor" else math.ceil
    return game.tables.band_value(game.tables.target_speed, rounding(moved - 1e-9))


def defilade(game, target, sight_: Sight) -> bool:
    """More than 50% exposed is not Defilade (BfOps p.21); a unit on the line screens the target (p.21);
    suppressed infantry are Defilade (p.14); a target in camouflage, a foxhole or a trench is Defilade (p.9)."""
    if sight_.exposure <= 0.5 or sight_.unit_cover is not None:
        return True
    if target.suppressed and game.card_of(target).infantry is not None:
        return True
    return bool(game.prepared_cover(target))


def spot_number(game, observer, target, sight_: Sight, alerted: bool, fast: bool = False,
                through_fire: bool = False, lit: bool = False) -> float:
    """Spot check number: spotting table by distance (base rule) + night (BfOps p.12) + suppressed -3 (p.8) +
    moving double-time -3 (p.16) + recon +1 (p.14) + Placed On Alert +2 (p.18) + defilade + terrain per inch +
    through a burning oil slick -3 (p.10) + a stationary sniper's Defilade and Hunkered Down (p.16); a target lit
    by a star shell is spotted without the night modifiers (p.12-13)."""
    from .sniper import sniper_spot_modifier

    t = game.tables
    n = t.band_value(t.spot, sight_.distance)
    if not lit:
        n += game.night_spot_modifier(observer, through_fire)  # BfOps p.12 (NV nullified through fire, p.10)
    if observer.suppressed:
        n += t.spot_mod["suppressed"]                          # BfOps p.8
    if fast:
        n += t.spot_mod["fast"]                                # BfOps 11.0, p.16: double-time
    card = game.card_of(observer)
    if card.infantry is not None and card.infantry.recon:
        n += t.spot_mod["recon"]                               # BfOps p.14
    if alerted:
        n += t.spot_mod["alert"]                               # BfOps p.18
    hidden_sniper, hunkered = sniper_spot_modifier(game, observer, target)     # BfOps p.16
    if hidden_sniper or defilade(game, target, sight_):
        n += t.spot_mod["defilade"]
    if through_fire:
        n += t.spot_mod["burning_slick"]                       # BfOps p.10
    return n + hunkered + terrain_mods(game, observer, sight_.los, "spot_per_in")


def hit_number(game, firer, target, weapon, sight_: Sight, smoked: bool = False,
               through_fire: bool = False) -> float:
    """To-hit number: base by band + target speed (p.7) + terrain (3.0) + camouflage -3 unless within Short
    Range (p.9) + defilade + low profile (p.22) + fire through an obstruction -4 ignoring Defilade (p.22) +
    through a burning oil slick -3 (p.10) + a stationary sniper +3 (p.15)."""
    from .sniper import sniper_hit_modifier

    t = game.tables
    b = band(weapon, sight_.distance) or "long"
    n = float(t.to_hit[b])
    n += speed_modifier(game, target.moved)                   # BfOps p.7
    n += terrain_mods(game, firer, sight_.los, "hit_per_in")  # BfOps 3.0
    if "camouflage" in game.prepared_cover(target) and b != "short":
        n += t.hit_mod["camouflage"]                           # BfOps p.9
    if sight_.blocked:
        n += t.hit_mod["through"]                              # BfOps p.22: Defilade ignored
    elif defilade(game, target, sight_):
        n += t.hit_mod["defilade"]
    if game.card_of(target).low_profile:
        n += t.hit_mod["low_profile"]                          # BfOps p.22 [I]
    if smoked and game.card_of(firer).night_vision != "gen3":
        n += t.hit_mod["smoke"]                                # BfOps p.7; Gen 3 (thermal) sees through (p.12)
    if through_fire:
        n += t.hit_mod["burning_slick"]                        # BfOps p.10
    return n + sniper_hit_modifier(game, firer, weapon)       # BfOps p.15


def adjacent_cover(game, target, sight_: Sight) -> float:
    """Cover of an obstruction the target is inside or within 1/4" of, on the line (BfOps p.21)."""
    best = 0.0
    for c in sight_.los.crossings:
        if c.area.cover and (c.at_target or sight_.los.length - c.exit <= 0.25):
            best = max(best, c.area.cover)
    return best


def struck_face(game, firer, target) -> str:
    """Face struck: angle between the target's facing and the bearing to the firer (table armour-arcs)."""
    angle = relative_bearing(target.facing, bearing(target.x, target.y, firer.x, firer.y))
    return game.tables.face(angle)


def effective_pen(game, firer, target, weapon, ammo, sight_: Sight) -> float:
    """Pen at the band, less cover adjacent to the target (Pen - Cover, p.21); through obstructions
    round((Pen - sum of faces) / 3) (p.22)."""
    b = band(weapon, sight_.distance) or "long"
    pen = float(ammo.pen.get(b, ammo.pen.get("medium", 0)))
    if sight_.blocked:
        return float(round((pen - sight_.through_cover) / 3.0))          # BfOps p.22 steps 2-4
    return pen - adjacent_cover(game, target, sight_)                     # BfOps p.21


def infantry_hits(game, weapon, ammo) -> tuple[int, float, int]:
    """Hits on infantry in the open (p.14-15): cannon/mortar/artillery HE by shell size (table infantry-hits:
    hits, splash radius, splash hits); any other hit with Pen 1+ scores 1 Hit (Soft Unit)."""
    if ammo.type != "HE" or weapon.weapon_class not in ("cannon", "mortar", "artillery", "howitzer", "field_gun") \
            or not weapon.caliber_mm:
        return 1, 0.0, 0
    row = game.tables.infantry_row(weapon.caliber_mm)
    if row is None:
        return 1, 0.0, 0
    hits = row[1] if weapon.weapon_class == "mortar" else row[2]
    return int(hits), float(row[3]), int(row[4])


def max_hits(game, weapon) -> int | None:
    """Mortar and artillery maximum Hits per unit per phase (BfOps 8.2): the card's maximum, else the Fire Rate
    table (indirect rate); None for other weapons or a Fire Rate in a lost band (X1: no cap is invented)."""
    if weapon.weapon_class not in ("mortar", "artillery", "howitzer"):
        return None
    if weapon.max_hits_per_unit_per_phase is not None:
        return weapon.max_hits_per_unit_per_phase                             # BfOps p.13: card first
    rate = next((f.value for f in weapon.fire_rates if f.mode == "indirect"), weapon.fire_rates[0].value)
    cap = game.tables.max_hits_for(rate)
    return None if cap is None else int(cap)
