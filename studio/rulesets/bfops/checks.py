"""Battlefield Ops! static checks (digest d), codes ``bfops.*``: small functions, one per rule check."""
from __future__ import annotations

import math
from typing import Iterator

from pydantic import ValidationError

from .cards import BfopsCard, BfopsScenario


def _card(doc):
    return _card_of(doc.model)


def _card_of(unit):
    """The card body of a unit document (None when it does not validate: the schema check reports it)."""
    try:
        return BfopsCard.model_validate(unit.body)
    except (ValidationError, AttributeError):
        return None


def check_card(doc, index) -> Iterator:
    """d.2-d.7: Unit Rating range, armour/propulsion consistency, axles, multiple fire rates tagged, calibres."""
    c = _card(doc)
    if c is None:
        return
    if c.infantry is not None and c.unit_rating != 6:
        yield doc.warning("bfops.unit-rating", f"infantry normally have Unit Rating 6, this card has {c.unit_rating}",
                          "/body/unit_rating", "BfOps p.16")
    if not 5 <= c.unit_rating <= 7:
        yield doc.warning("bfops.unit-rating", f"Unit Rating {c.unit_rating} is outside the usual 5-7",
                          "/body/unit_rating", "BfOps p.16")
    if c.armor.tracks is not None and c.propulsion != "tracked":
        yield doc.error("bfops.tracks", "track armour on a vehicle that is not tracked", "/body/armor/tracks",
                        "BfOps 4.2")
    if c.armor.tires is not None and c.propulsion != "wheeled":
        yield doc.error("bfops.tires", "tire armour on a vehicle that is not wheeled", "/body/armor/tires",
                        "BfOps 4.2")
    if c.propulsion == "wheeled" and c.axles is None:
        yield doc.error("bfops.axles", "a wheeled vehicle needs axles (2-4): wire and trench Bog checks use them",
                        "/body/axles", "BfOps p.9-10")
    for i, w in enumerate(c.weapons):
        if len(w.fire_rates) > 1 and len({f.mode for f in w.fire_rates}) < len(w.fire_rates):
            yield doc.error("bfops.fire-rates", f"weapon '{w.name}' lists several Fire Rates without a distinct "
                            "mode each", f"/body/weapons/{i}/fire_rates", "BfOps 5.1")
        if w.weapon_class in ("cannon", "mortar", "artillery", "howitzer", "field_gun") and not w.caliber_mm:
            yield doc.error("bfops.caliber", f"weapon '{w.name}' needs caliber_mm (infantry-hit tables)",
                            f"/body/weapons/{i}", "BfOps p.14")
        if any(a.type == "AP" for a in w.ammo) and w.ranges.max is None:
            yield doc.warning("bfops.max-range", f"weapon '{w.name}' fires AP but has no max range (second-target "
                              "rule)", f"/body/weapons/{i}/ranges", "BfOps p.22")


def check_scenario(doc, index) -> Iterator:
    """d.22, d.27, d.28: prepared defences agreed, victory objectives exist, placements and zones on the table."""
    try:
        ext = BfopsScenario.model_validate(doc.model.extension)
    except ValidationError:
        return
    ids = {o.id for o in ext.objectives}
    if not ext.victory:
        yield doc.error("bfops.victory", "the rules give no victory conditions: the scenario must author at least "
                        "one (extension.victory)", "/extension", "BfOps p.10")
    for i, v in enumerate(ext.victory):
        if v.kind == "hold_objective" and v.objective not in ids:
            yield doc.error("bfops.objective", f"victory '{v.id}' names objective '{v.objective}', which the "
                            "scenario does not define", f"/extension/victory/{i}/objective", "BfOps p.10")
    sides = {s.id for s in doc.model.sides}
    for i, z in enumerate(ext.deployment):
        if z.side not in sides:
            yield doc.error("bfops.side", f"deployment zone for unknown side '{z.side}'",
                            f"/extension/deployment/{i}/side")
    table = _table(doc, index)
    if table is None:
        return
    for i, z in enumerate(ext.deployment):
        x0, y0, x1, y1 = z.rect
        if not (0 <= x0 < x1 <= table.width_in and 0 <= y0 < y1 <= table.depth_in):
            yield doc.error("bfops.zone", f"deployment zone {z.rect} is not a rectangle on the table",
                            f"/extension/deployment/{i}/rect")
    for i, o in enumerate(ext.objectives):
        if not (0 <= o.at[0] <= table.width_in and 0 <= o.at[1] <= table.depth_in):
            yield doc.error("bfops.objective", f"objective '{o.id}' is off the table", f"/extension/objectives/{i}/at")
    yield from _placement_problems(doc, ext, table)
    if ext.prepared.tactics and not ext.prepared.agreed:
        yield doc.error("bfops.prepared", "prepared defences need the pre-game agreement (prepared.agreed)",
                        "/extension/prepared", "BfOps 5.3")
    yield from check_prepared_works(doc, index, ext, table)
    yield from check_deck(doc, index, ext)


#: fixed widths of the rules (BfOps p.9-10; digest d.21): terrain -> allowed widths in inches
FIXED_WIDTHS = {"trench": (0.25, 0.5), "oil_slick": (0.5,), "minefield": (1.0,)}
MINE_ATTRIBUTES = {"density": ("low", "high"), "mine_type": ("AP", "AT")}


def check_map(doc, index) -> Iterator:
    """d.21, d.23, d.24: trench, oil-slick and minefield widths; minefield density and type; water with an exact
    depth; ground types."""
    table = getattr(doc.model, "table", None)
    if table is None:
        return
    yield from _hidden_minefields(doc, table.features, None, set(), "/table/features")
    for i, f in enumerate(table.features):
        where = f"/table/features/{i}"
        yield from _feature_rules(doc, f, where)
        if f.terrain == "stream" and f.depth_in is None:
            yield doc.error("bfops.water-depth", f"water '{f.id}' needs its exact depth (depth_in)", where,
                            "BfOps p.11")
        if f.terrain in ("rough", "extreme") and f.ground not in ("", f.terrain):
            yield doc.warning("bfops.ground", f"'{f.id}' is {f.terrain} terrain but says ground '{f.ground}'",
                              f"{where}/ground", "BfOps p.11")


def _mine_attributes(doc, f, where: str):
    for key, allowed in MINE_ATTRIBUTES.items():
        value = f.attributes.get(key)
        if value not in allowed:
            yield doc.error("bfops.minefield", f"minefield '{f.id}' needs attributes.{key} in {list(allowed)} "
                            f"(it has {value!r})", f"{where}/attributes", "BfOps p.10")


# ------------------------------------------------------------------ prepared works (d.21, d.22)

#: terrain of a prepared feature -> the tactic of ``prepared.tactics`` and table ``prepared-allowances`` it uses
TACTIC_OF = {"camouflage": "camouflage", "foxhole": "foxholes", "trench": "trenches", "wire": "wire",
             "minefield": "minefields", "fencing": "fencing", "oil_slick": "oil_slicks"}


def check_prepared_works(doc, index, ext, table) -> Iterator:
    """d.21/d.22: prepared features need the agreement and a tactic agreed, ids of their own on the table,
    the fixed widths; the totals per tactic stay within the allowance of the preparing side's force (BfOps 5.3,
    table ``prepared-allowances``)."""
    features = ext.prepared.features
    if not features:
        return
    base = "/extension/prepared"
    if not ext.prepared.agreed or ext.prepared.side is None:
        yield doc.error("bfops.prepared", "prepared features need the pre-game agreement and the preparing side "
                        "(prepared.agreed, prepared.side)", base, "BfOps 5.3")
        return
    taken = {f.id for f in table.features} | {h.id for h in table.elevations}
    totals: dict[str, float] = {}
    for i, f in enumerate(features):
        where = f"{base}/features/{i}"
        tactic = TACTIC_OF.get(f.terrain)
        if f.id in taken:
            yield doc.error("bfops.prepared", f"prepared feature id '{f.id}' is already used on the table", where)
        if tactic is None or tactic not in ext.prepared.tactics:
            yield doc.error("bfops.prepared", f"feature '{f.id}' ({f.terrain}) is not a prepared tactic agreed "
                            f"in prepared.tactics {ext.prepared.tactics}", f"{where}/terrain", "BfOps 5.3")
            continue
        yield from _feature_rules(doc, f, where)
        totals[tactic] = totals.get(tactic, 0.0) + _measure(f, _allowance_rows(index, doc).get(tactic, {}))
    yield from _hidden_minefields(doc, features, ext.prepared.side, {sd.id for sd in doc.model.sides},
                                  f"{base}/features")
    allowed = _allowances(doc, index, ext.prepared.side)
    for tactic, used in sorted(totals.items()):
        if used > allowed.get(tactic, 0.0) + 1e-6:
            yield doc.error("bfops.allowance", f"prepared {tactic}: {used:g} used, the {ext.prepared.side} force "
                            f"allows {allowed.get(tactic, 0.0):g} (BfOps 5.3)", f"{base}/features", "BfOps 5.3")


def _placement_problems(doc, ext, table):
    """d.28: placed units stand on the table and not inside a structure or deep water (impassable). Shapely
    judges only the features the plain screen cannot rule out (``studio.model.table_screen.clearly_outside``)."""
    from studio.model.table_screen import clearly_outside

    blocked = [f for f in table.features if f.is_structure or
               (f.is_water and not f.fords and (f.depth_in or 0) > 1.0)]
    for i, p in enumerate(ext.placements):
        x, y = p.at
        where = f"/extension/placements/{i}/at"
        if not (0 <= x <= table.width_in and 0 <= y <= table.depth_in):
            yield doc.error("bfops.placement", f"placement of '{p.unit}' at {p.at} is off the table", where)
            continue
        inside = _covering([f for f in blocked if not clearly_outside((x, y), f)], x, y)
        if inside is not None:
            yield doc.warning("bfops.placement", f"'{p.unit}' is placed inside '{inside.id}', which units cannot "
                              "enter", where, "BfOps p.11")


def _covering(features: list, x: float, y: float):
    """The first of ``features`` whose exact shape covers the point (x, y), or None."""
    if not features:
        return None
    import shapely

    from studio.model.table import feature_geometry

    point = shapely.points(x, y)
    return next((f for f in features for g in [feature_geometry(f)] if g is not None and g.covers(point)), None)


def _hidden_minefields(doc, features, owner: str | None, sides: set, base: str):
    """d.28: a minefield is hidden from the opposing side at set-up."""
    for i, f in enumerate(features):
        if f.terrain != "minefield":
            continue
        enemies = sides - {owner} if owner else set()
        if not f.hidden_from or (enemies and not enemies <= set(f.hidden_from)):
            yield doc.warning("bfops.minefield-hidden", f"minefield '{f.id}' should be hidden from the opposing "
                              f"side at set-up (hidden_from: {sorted(enemies) or ['<side>']})",
                              f"{base}/{i}/hidden_from", "BfOps p.10")


def _feature_rules(doc, f, where: str):
    """d.21: the fixed widths of trenches, oil slicks and minefields; a minefield's density and type."""
    widths = FIXED_WIDTHS.get(f.terrain)
    if widths and f.width_in is not None and f.width_in not in widths:
        yield doc.error("bfops.width", f"{f.terrain} '{f.id}' is {f.width_in:g}\" wide; the rules allow "
                        + " or ".join(f'{w:g}"' for w in widths), f"{where}/width_in", "BfOps p.9-10")
    if f.terrain == "minefield":
        yield from _mine_attributes(doc, f, where)


def _allowance_rows(index, doc) -> dict:
    rs = index.model("ruleset", doc.model.ruleset)
    try:
        t = rs.table("prepared-allowances")
    except (KeyError, AttributeError):
        return {}
    return {str(r[0]): dict(zip(t.columns, r)) for r in t.rows if len(r) == len(t.columns)}


def _measure(f, row: dict) -> float:
    """A feature's use of its allowance: square inches, a count, or inches of line (1"-thick areas by area)."""
    measure = str(row.get("measure", "length"))
    if measure == "count":
        return 1.0
    if measure != "area" and f.shape == "polyline":
        return _line_length(f.points)
    import shapely

    from studio.model.table import feature_geometry

    geom = feature_geometry(f)
    if geom is None:
        return 0.0
    if measure == "area":
        return float(geom.area)
    if f.shape == "polyline":
        return float(shapely.length(shapely.linestrings([tuple(p) for p in f.points])))
    return float(geom.area) / max(f.width_in or 1.0, 1e-9)


def _line_length(points) -> float:
    """The length of a polyline, summed segment by segment in order as GEOS does (no Shapely import for it)."""
    if len(points) < 2:
        return 0.0
    total = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        dx, dy = float(x1) - float(x0), float(y1) - float(y0)
        total += math.sqrt(dx * dx + dy * dy)
    return total


def force_counts(doc, index, side_id: str) -> dict[str, float]:
    """Squads, infantry platoons, vehicles, armoured vehicle platoons, engineers, mortar/artillery units and
    minelayers of a side's forces (TO&E slots are the platoons)."""
    from studio.model.forces import expand_force

    counts = dict.fromkeys(("squad", "infantry_platoon", "vehicle", "vehicle_platoon", "engineer", "mortar",
                            "minelayer"), 0.0)
    side = next((s for s in doc.model.sides if s.id == side_id), None)
    for force in side.forces if side is not None else []:
        platoons: dict[str, set] = {"infantry": set(), "armour": set()}
        for fu in expand_force(force, index):
            unit = index.model("unit", fu.unit)
            card = _card_of(unit)
            if card is None:
                continue
            if card.infantry is not None:
                counts["squad"] += card.infantry.kind in ("squad", "half_squad")
                platoons["infantry"].add(fu.path)
            else:
                counts["vehicle"] += 1
                if not card.soft:
                    platoons["armour"].add(fu.path)
            counts["engineer"] += card.capabilities.engineer
            counts["mortar"] += any(w.weapon_class in ("mortar", "artillery", "howitzer") for w in card.weapons)
        counts["infantry_platoon"] += len(platoons["infantry"])
        counts["vehicle_platoon"] += len(platoons["armour"])
    return counts


def _allowances(doc, index, side_id: str) -> dict[str, float]:
    counts = force_counts(doc, index, side_id)
    out = {}
    for tactic, row in _allowance_rows(index, doc).items():
        out[tactic] = sum(float(row.get(f"per_{k}", 0) or 0) * v for k, v in counts.items())
    return out


# ------------------------------------------------------------------ deck (d.18)

def check_deck(doc, index, ext) -> Iterator:
    """d.18: the deck each side's order of battle builds (count per level), reported; a side whose forces field
    units but draws no card is an error (BfOps p.17)."""
    from studio.model.forces import expand_force

    from .engine.command import deck_cards

    rs = index.model("ruleset", doc.model.ruleset)
    try:
        deck_t, seq_t, proc_t = rs.table("deck"), rs.table("sequence"), rs.table("procedures")
    except (KeyError, AttributeError):
        return
    deck = {str(r[0]): {"WARPAC": r[1], "NATO": r[2]} for r in deck_t.rows if len(r) >= 3}
    fog = next((r[1] for r in seq_t.rows if r and r[0] == "fog_of_war"), 1)
    elements, blocs = [], []
    for s, side in enumerate(doc.model.sides):
        cards = {}
        for force in side.forces:
            for fu in expand_force(force, index):
                unit = index.model("unit", fu.unit)
                card = _card_of(unit)
                if card is not None:
                    cards.setdefault(f"{force.id}/{fu.path}", card)
        elements += [(s, c) for c in cards.values()]
        blocs.append(next(iter(cards.values())).side if cards else "NATO")
    options = {o.id: o.default for o in rs.options}
    options.update(doc.model.options)
    if "platoon" not in deck:
        return
    per_fog = next((r[1] for r in proc_t.rows if r and r[0] == "large_force_cards_per_fog"), None)
    got = deck_cards(len(doc.model.sides), blocs, elements, deck, options.get("battalion-cards") == "two",
                     int(fog or 1), float(per_fog) if options.get("large-force") == "shortcuts" and per_fog else None)
    for s, side in enumerate(doc.model.sides):
        levels: dict[str, int] = {}
        for c in got:
            if c.side == s:
                levels[c.level] = levels.get(c.level, 0) + 1
        text = ", ".join(f"{n} {lvl}" for lvl, n in sorted(levels.items())) or "no card"
        yield doc.info("bfops.deck", f"side '{side.id}' draws from {text} Command Card(s)", "/sides", "BfOps p.17")
        if not levels and any(sd == s for sd, _ in elements):
            yield doc.error("bfops.deck", f"side '{side.id}' fields units but builds no Command Card", "/sides",
                            "BfOps p.17")


def _table(doc, index):
    if not doc.model.boards:
        return None
    m = index.model("map", doc.model.boards[0].map)
    return getattr(m, "table", None)


CHECKS = {"unit": [check_card], "scenario": [check_scenario], "map": [check_map]}
