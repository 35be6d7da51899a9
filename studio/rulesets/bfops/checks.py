"""Battlefield Ops! static checks (digest d), codes ``bfops.*``: small functions, one per rule check."""
from __future__ import annotations

from typing import Iterator

from pydantic import ValidationError

from .cards import BfopsCard, BfopsScenario


def _card(doc):
    try:
        return BfopsCard.model_validate(doc.model.body)
    except ValidationError:
        return None  # the schema check reports it


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
    if ext.prepared.tactics and not ext.prepared.agreed:
        yield doc.error("bfops.prepared", "prepared defences need the pre-game agreement (prepared.agreed)",
                        "/extension/prepared", "BfOps 5.3")


#: fixed widths of the rules (BfOps p.9-10; digest d.21): terrain -> allowed widths in inches
FIXED_WIDTHS = {"trench": (0.25, 0.5), "oil_slick": (0.5,), "minefield": (1.0,)}
MINE_ATTRIBUTES = {"density": ("low", "high"), "mine_type": ("AP", "AT")}


def check_map(doc, index) -> Iterator:
    """d.21, d.23, d.24: trench, oil-slick and minefield widths; minefield density and type; water with an exact
    depth; ground types."""
    table = getattr(doc.model, "table", None)
    if table is None:
        return
    for i, f in enumerate(table.features):
        where = f"/table/features/{i}"
        widths = FIXED_WIDTHS.get(f.terrain)
        if widths and f.width_in is not None and f.width_in not in widths:
            yield doc.error("bfops.width", f"{f.terrain} '{f.id}' is {f.width_in:g}\" wide; the rules allow "
                            + " or ".join(f'{w:g}"' for w in widths), f"{where}/width_in", "BfOps p.9-10")
        if f.terrain == "minefield":
            yield from _mine_attributes(doc, f, where)
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


def _table(doc, index):
    if not doc.model.boards:
        return None
    m = index.model("map", doc.model.boards[0].map)
    return getattr(m, "table", None)


CHECKS = {"unit": [check_card], "scenario": [check_scenario], "map": [check_map]}
