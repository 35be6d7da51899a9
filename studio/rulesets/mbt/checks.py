"""Static checks of MBT data (rules digest d.1-d.3). Codes are stable: ``mbt.<name>``.

Each check takes a valid document (``doc.model``) and the project index and yields diagnostics located by JSON
pointer, with the rule reference they enforce. Unit-card checks run on the card model of ``cards.py``; scenario
checks expand forces through their TO&Es and look hexes up on the placed boards.
"""
from __future__ import annotations

import re
import weakref
from collections import Counter, defaultdict
from typing import Iterator

from studio.model.diagnostics import Diagnostic
from studio.model.forces import expand_force
from studio.model.project import LoadedDocument, ProjectIndex

from .cards import BANDS, VehicleBody
from .checks_advanced import ANY_BODY, CARD_CHECKS, INDEX_CHECKS, weapons_of
from .checks_forces import check_advanced_scenario, check_toe_units
from .checks_tables import check_tables

R = "MBT "

# ------------------------------------------------------------------ helpers


def _body(doc: LoadedDocument):
    """The MBT card body of a unit document (any category of ``cards.CARD_BODIES``), or None."""
    body = getattr(doc.model, "body", None)
    return body if isinstance(body, ANY_BODY) else None


def _resolve(data, pointer: str) -> bool:
    node = data
    for raw in pointer.lstrip("/").split("/") if pointer else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


# ------------------------------------------------------------------ unit cards (d.1)

def check_card(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """Unit-card checks (digest d.1), one helper per rule check."""
    body = _body(doc)
    if body is None:
        return
    if isinstance(body, VehicleBody):
        for check in _CARD_CHECKS:
            yield from check(doc, body)
    else:
        yield from _card_placeholders(doc, body)
        for base, w in weapons_of(body):
            yield from _check_weapon(doc, base, w)
    for check in CARD_CHECKS:          # Advanced Game card checks (checks_advanced.py)
        yield from check(doc, body)
    for check in INDEX_CHECKS:
        yield from check(doc, body, index)


def _card_placeholders(doc, body) -> Iterator[Diagnostic]:
    """Placeholder bookkeeping."""
    card = doc.model
    for i, pointer in enumerate(card.placeholder_fields):
        if not pointer.startswith("/body") or not _resolve(doc.data, pointer):
            yield doc.error("mbt.placeholder-pointer", f"placeholder field '{pointer}' does not name a value of "
                            "this card's body", f"/placeholder_fields/{i}")


def _card_movement(doc, body) -> Iterator[Diagnostic]:
    """V1 movement."""
    mv = body.general.movement
    if mv.cross_country < 1:
        yield doc.error("mbt.movement", "a vehicle needs a cross-country movement factor of at least 1",
                        "/body/general/movement/cross_country", R + "4.5.1.1.1")
    if mv.road < mv.path:
        yield doc.error("mbt.movement", f"road rate {mv.road} is below the path rate {mv.path} (written "
                        f"'{mv.cross_country}{mv.traction} {mv.path}-{mv.road}')", "/body/general/movement/road",
                        R + "4.5.1.1.1")
    if mv.path < mv.cross_country:
        yield doc.warning("mbt.movement", f"path rate {mv.path} is below the cross-country factor "
                          f"{mv.cross_country}", "/body/general/movement/path", R + "4.5.1.1.1")


def _card_soft_armor(doc, body) -> Iterator[Diagnostic]:
    """V4 GP defense / S-type armor 0."""
    gpd = body.defensive.gp_defense
    if gpd.target_type == "S":
        armor = body.notes.basic_armor
        if armor is not None and (armor.front or armor.rear):
            yield doc.error("mbt.soft-armor", "S-type (soft) vehicles have an armor factor of 0 everywhere, "
                            f"not {armor.front}/{armor.rear}", "/body/notes/basic_armor", R + "6.5.2.3", at_key=True)
        ag = body.defensive.armor_ag
        if ag is not None:
            for angle in ("front", "front_side", "rear_side", "rear"):
                for elev in ("level", "rising", "falling"):
                    locs = getattr(getattr(ag, angle), elev).model_dump(exclude_none=True)
                    bad = [loc for loc, v in locs.items() if v]
                    if bad:
                        yield doc.error("mbt.soft-armor", f"S-type vehicle has armor at {', '.join(bad)} "
                                        f"({angle}, {elev})", f"/body/defensive/armor_ag/{angle}/{elev}",
                                        R + "6.5.2.3", at_key=True)
            if ag.deck:
                yield doc.error("mbt.soft-armor", "S-type vehicle has deck armor", "/body/defensive/armor_ag/deck",
                                R + "6.5.2.3")


def _card_basic_armor(doc, body) -> Iterator[Diagnostic]:
    """V6 basic armor for AP-targetable vehicles (every vehicle but S-type)."""
    gpd = body.defensive.gp_defense
    if body.notes.basic_armor is None and gpd.target_type != "S":
        yield doc.error("mbt.basic-armor", "an AP-targetable vehicle needs Basic Game armor Front/Rear in its "
                        "Notes", "/body/notes", R + "4.4.3.2.5", at_key=True)
    elif body.notes.basic_armor is not None and body.notes.basic_armor.rear > body.notes.basic_armor.front:
        yield doc.warning("mbt.basic-armor", f"rear armor {body.notes.basic_armor.rear} is above front armor "
                          f"{body.notes.basic_armor.front}", "/body/notes/basic_armor/rear", R + "4.4.3.2.5")


def _card_armor_table(doc, body) -> Iterator[Diagnostic]:
    """V7 AG armor table layout."""
    ag = body.defensive.armor_ag
    if ag is not None:
        for angle, wanted in (("front", {"TF", "TR", "HF", "HR"}), ("front_side", {"TF", "TS", "TR", "HF", "HS", "HR"}),
                              ("rear_side", {"TF", "TS", "TR", "HF", "HS", "HR"}), ("rear", {"TF", "TR", "HF", "HR"})):
            for elev in ("level", "rising", "falling"):
                have = set(getattr(getattr(ag, angle), elev).model_dump(exclude_none=True))
                if have != wanted:
                    missing, extra = sorted(wanted - have), sorted(have - wanted)
                    parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
                        [f"unexpected {', '.join(extra)}"] if extra else [])
                    yield doc.error("mbt.armor-table", f"armor at the {angle} angle ({elev}) must list exactly "
                                    f"{', '.join(sorted(wanted))}: {'; '.join(parts)}",
                                    f"/body/defensive/armor_ag/{angle}/{elev}", R + "6.5.2.3.2", at_key=True)


def _card_special_armor(doc, body) -> Iterator[Diagnostic]:
    """V8 special armor locations; V9 ERA => TR 0-0."""
    has_era = False
    for loc, spec in body.defensive.special_armor.items():
        pointer = f"/body/defensive/special_armor/{loc}"
        if spec.ce_multiplier is None and spec.era is None:
            yield doc.error("mbt.special-armor", f"special armor at {loc} names neither a CE multiplier nor ERA",
                            pointer, R + "6.5.2.4", at_key=True)
        if spec.era_front_only and spec.era is None:
            yield doc.error("mbt.special-armor", f"'era_front_only' at {loc} without ERA", pointer + "/era_front_only",
                            R + "6.5.2.4.2")
        if spec.era_front_only and loc not in ("HS", "TS", "DK"):
            yield doc.warning("mbt.special-armor", f"front-only (half-coloured) ERA at {loc}; the rules use it "
                              "on side and deck locations", pointer + "/era_front_only", R + "6.5.2.4.2")
        has_era = has_era or spec.era is not None
    tr = body.general.transport
    if has_era and (tr.towed or tr.leg):
        yield doc.error("mbt.era-transport", f"a vehicle with ERA carries no passengers (TR: 0-0), not "
                        f"TR: {tr.towed}-{tr.leg}", "/body/general/transport", R + "6.5.2.4.2", at_key=True)


def _card_under_cover(doc, body) -> Iterator[Diagnostic]:
    """V28 under cover."""
    if body.general.transport_protection == "under_cover":
        yield doc.warning("mbt.under-cover", "MBT has no Under Cover transport vehicles; check the card",
                          "/body/general/transport_protection", R + "6.5.4.2.3")


def _card_flags(doc, body) -> Iterator[Diagnostic]:
    """V19 combat unit / unarmed; V20 buildings."""
    armed = any(w.ammo for w in body.weapons)
    sighting = any(w.sight.primary == "D" or w.sight.secondary == "D" for w in body.weapons) or \
        "fo" in body.labels or body.laser_designator
    if body.unarmed and armed:
        yield doc.error("mbt.combat-unit", "an unarmed vehicle lists weapons", "/body/unarmed", R + "4.1.1")
    if body.is_combat_unit and not (armed or sighting):
        yield doc.error("mbt.combat-unit", "a combat unit needs an AP or GP row or a fire-support sighting "
                        "capability", "/body/is_combat_unit", R + "4.1.1")
    if body.unarmed and body.is_combat_unit and not sighting:
        yield doc.error("mbt.combat-unit", "a vehicle cannot be both unarmed and a combat unit",
                        "/body/is_combat_unit", R + "4.1.1")
    if (body.open_topped or body.aa_vehicle) and body.overhead_protection:
        what = "open-topped" if body.open_topped else "AA"
        yield doc.error("mbt.buildings", f"an {what} vehicle cannot have overhead protection (it may not enter "
                        "buildings)", "/body/overhead_protection", R + "6.1.4.3.1")


def _card_weapons(doc, body) -> Iterator[Diagnostic]:
    """Weapons."""
    dual = [i for i, w in enumerate(body.weapons) if w.dual_fire]
    for i in dual[1:]:
        yield doc.error("mbt.dual-fire", "only one weapon per vehicle may be the Dual Fire weapon",
                        f"/body/weapons/{i}/dual_fire", R + "5.14")
    for i, w in enumerate(body.weapons):   # duplicate weapon ids: core check ref.duplicate-id
        yield from _check_weapon(doc, f"/body/weapons/{i}", w)


_CARD_CHECKS = (_card_placeholders, _card_movement, _card_soft_armor, _card_basic_armor, _card_armor_table,
                _card_special_armor, _card_under_cover, _card_flags, _card_weapons)


def _check_weapon(doc, base: str, w) -> Iterator[Diagnostic]:
    """One weapon at JSON pointer ``base`` (V10-V16, V21, V24) and each of its ammo rows."""
    names = {a.ammo_type for a in w.ammo}
    for name in w.exclusive_with:
        if name not in names:
            yield doc.error("mbt.dual-fire", f"exclusive ammo '{name}' is not an ammo type of weapon '{w.id}'",
                            f"{base}/exclusive_with", R + "5.14")
    for lim_i, lim in enumerate(w.ammo_limits):
        if lim.value >= 10 and not any(a.kind == "ATGM" for a in w.ammo):
            yield doc.warning("mbt.ammo-limit", f"ammo limit {lim.prefix}{lim.value} can never fail a roll (10)",
                              f"{base}/ammo_limits/{lim_i}/value", R + "5.16.2")
    prefixes = Counter(lim.prefix for lim in w.ammo_limits)
    for lim_i, lim in enumerate(w.ammo_limits):
        if prefixes[lim.prefix] > 1:
            yield doc.error("mbt.ammo-limit", f"ammo limit prefix '{lim.prefix}' is listed twice",
                            f"{base}/ammo_limits/{lim_i}/prefix", R + "5.16.2")
            break
    for j, row in enumerate(w.ammo):
        if w.weapon_type == "flamethrower":
            yield from _flame_row(doc, f"{base}/ammo/{j}", row)
        else:
            yield from _check_row(doc, w, base, f"{base}/ammo/{j}", row)


def _flame_row(doc, p: str, row) -> Iterator[Diagnostic]:
    """A flamethrower is only a close combat modifier (MBT 5.1.3.7): its row has no range band or factor."""
    given = [f for f in ("penetration", "gp_factor", "atgm", "fixed_gp") if getattr(row, f) is not None]
    if any(v is not None for v in row.range.values()) or given:
        yield doc.warning("mbt.flamethrower", f"flamethrower row '{row.ammo_type}' gives a range or factor the "
                          "rules never use (it is a close combat modifier only)", p, R + "5.1.3.7")


def _check_row(doc, w, base: str, p: str, row) -> Iterator[Diagnostic]:
    yield from _row_fof(doc, w, p, row)
    present = [(b, v) for b, v in zip(BANDS, row.range.values()) if v is not None]
    if not present:
        yield doc.error("mbt.range-bands", f"ammo row '{row.ammo_type}' has no range band", f"{p}/range",
                        R + "4.4.3.2.1")
        return
    yield from _row_bands(doc, p, row, present)
    max_range = max(v for _, v in present)
    if w.min_range > max_range:  # V13 minimum range
        yield doc.error("mbt.min-range", f"minimum range {w.min_range} is beyond the maximum range "
                        f"{max_range} of '{row.ammo_type}'", f"{base}/min_range", R + "5.6")
    if row.kind == "AP":
        yield from _row_penetration(doc, p, row)
    yield from _row_atgm(doc, w, base, p, row)
    if row.kind in ("GP", "GP-DF", "GP-IF"):
        yield from _row_gp(doc, p, row)


def _row_fof(doc, w, p: str, row) -> Iterator[Diagnostic]:
    """V15 fields of fire: non-turreted rows are marked front or rear, all-round rows are not."""
    limited = w.tt_factor in (60, 120, 180)
    if limited and row.fof_side is None:
        yield doc.error("mbt.fof", f"weapon '{w.id}' is non-turreted (TT {w.tt_factor}); ammo row "
                        f"'{row.ammo_type}' must be marked front (underscored) or rear (overscored)",
                        p, R + "4.4.3.1.4")
    if not limited and row.fof_side is not None:
        yield doc.error("mbt.fof", f"weapon '{w.id}' has TT {w.tt_factor} (all-round); ammo row "
                        f"'{row.ammo_type}' must not be limited to the {row.fof_side} arc",
                        f"{p}/fof_side", R + "4.4.3.1")


def _row_bands(doc, p: str, row, present) -> Iterator[Diagnostic]:
    """V10 range bands increase in reading order; gun rows need an E band (their maximum range)."""
    if row.kind == "ATGM":
        order = list(reversed(present))          # E first
        rule = R + "5.1.3.3.2"
        direction = "right to left (E smallest)"
    else:
        order = present
        rule = R + "4.4.3.2.1"
        direction = "left to right (P smallest)"
        if row.range.E is None:
            yield doc.error("mbt.range-bands", f"ammo row '{row.ammo_type}' needs an E band (its maximum "
                            "range)", f"{p}/range", R + "3.5.2", at_key=True)
    for (b1, v1), (b2, v2) in zip(order, order[1:]):
        if v2 <= v1:
            yield doc.error("mbt.range-bands", f"range bands of '{row.ammo_type}' must increase {direction}: "
                            f"{b2} {v2} is not above {b1} {v1}", f"{p}/range/{b2}", rule)
            break


def _row_penetration(doc, p: str, row) -> Iterator[Diagnostic]:
    """V11 an AP row has a penetration for each band it has, and an energy type."""
    vals = row.range.values()
    if row.penetration is None:
        yield doc.error("mbt.penetration", f"AP row '{row.ammo_type}' has no penetration row", p, R + "4.4.3.2.5")
    else:
        for b, v in zip(BANDS, vals):
            pen = getattr(row.penetration, b)
            if v is not None and pen is None:
                yield doc.error("mbt.penetration", f"AP row '{row.ammo_type}' has range band {b} but "
                                f"no penetration for it", f"{p}/penetration/{b}", R + "4.4.3.2.5")
            elif v is None and pen is not None:
                yield doc.warning("mbt.penetration", f"penetration for band {b} of '{row.ammo_type}' "
                                  "but the band is skipped", f"{p}/penetration/{b}", R + "4.4.3.2.5")
        pens = [getattr(row.penetration, b) for b, v in zip(BANDS, vals) if v is not None]
        pens = [x for x in pens if x is not None]
        if any(b > a for a, b in zip(pens, pens[1:])):
            yield doc.warning("mbt.penetration", f"penetration of '{row.ammo_type}' rises with range",
                              f"{p}/penetration", R + "4.4.3.2.5")
    if row.energy is None:
        yield doc.error("mbt.penetration", f"AP row '{row.ammo_type}' needs an energy type (KE or CE)",
                        p, R + "6.5.2.4")


def _row_atgm(doc, w, base: str, p: str, row) -> Iterator[Diagnostic]:
    """V11 ATGM factors; V21 MCLOS ATGMs may not fire on a Short Halt; V14 no secondary ATGM sight."""
    if row.kind == "ATGM":
        if row.atgm is None:
            yield doc.error("mbt.atgm", f"ATGM row '{row.ammo_type}' needs its factors (penetration, GP, CL, "
                            "SP)", p, R + "5.1.3.3.1")
        if row.penetration is not None:
            yield doc.error("mbt.atgm", f"ATGM row '{row.ammo_type}' has a single penetration in 'atgm', not "
                            "a per-band row", f"{p}/penetration", R + "5.1.3.3.1")
    elif row.atgm is not None:
        yield doc.error("mbt.atgm", f"'atgm' factors on a {row.kind} row", f"{p}/atgm", R + "5.1.3.3.1")
    if row.atgm is not None and row.atgm.guidance_class in (3, 4) and not w.restrictions.no_short_halt:
        yield doc.error("mbt.short-halt", f"'{row.ammo_type}' is a CL {row.atgm.guidance_class} (MCLOS) ATGM; "
                        f"weapon '{w.id}' must be flagged restrictions.no_short_halt",
                        f"{p}/atgm/guidance_class", R + "5.1.3.3.3")
    sight = row.sight or (w.sight if row.kind == "ATGM" else None)
    if row.kind == "ATGM" and sight is not None and sight.secondary is not None:
        where = f"{p}/sight/secondary" if row.sight else f"{base}/sight/secondary"
        yield doc.error("mbt.atgm-sight", f"ATGM '{row.ammo_type}' may have no secondary sight",
                        where, R + "6.5.2.2.5")


def _row_gp(doc, p: str, row) -> Iterator[Diagnostic]:
    """V12 a GP row has a factor for each band it has, and no penetration row."""
    if row.gp_factor is None:
        yield doc.error("mbt.gp-factor", f"GP row '{row.ammo_type}' has no factor row", p, R + "6.5.4.1")
    else:
        for b, v in zip(BANDS, row.range.values()):
            if v is not None and getattr(row.gp_factor, b) is None:
                yield doc.error("mbt.gp-factor", f"GP row '{row.ammo_type}' has range band {b} but no "
                                "factor for it", f"{p}/gp_factor/{b}", R + "6.5.4.1")
    if row.penetration is not None:
        yield doc.error("mbt.gp-factor", f"GP row '{row.ammo_type}' has a penetration row",
                        f"{p}/penetration", R + "6.5.4.1")


def check_card_refs(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """V29: data-card references are unique across the MBT cards of the project (one table per index: linear
    in the number of cards, not quadratic)."""
    body = _body(doc)
    if body is None or body.card_ref is None:
        return
    for other in _card_ref_users(index, doc, body.card_ref):
        if other is doc or other.model is None:
            continue
        # a card may hold several vehicle types (MBT 1.5): same reference, different vehicles is fine only
        # when both files say so in their notes; flag the first duplicate as a warning
        yield doc.warning("mbt.card-ref", f"data card reference '{body.card_ref}' is also used by unit "
                          f"'{other.id}' (one card may hold several types, MBT 1.5: check)", "/body/card_ref",
                          R + "1.6.1")
        break


_CARD_REFS: dict[int, tuple] = {}  # id(index) -> (weak reference to the index, signature, table)


def _card_ref_table(index: ProjectIndex, fresh: bool = False) -> dict:
    """``(ruleset, card_ref)`` -> the unit documents using it, in index order; rebuilt when the index's unit table
    changes (or ``fresh``)."""
    units = index.by_kind.get("unit", {})
    sig = (len(index.documents), id(units), len(units))
    hit = _CARD_REFS.get(id(index))
    if not fresh and hit is not None and hit[0]() is index and hit[1] == sig:
        return hit[2]
    table: dict = {}
    for other in index.of_kind("unit"):
        ob = _body(other) if other.model is not None else None
        if ob is not None and ob.card_ref is not None:
            table.setdefault((other.ruleset, ob.card_ref), []).append(other)
    for key in [k for k, v in _CARD_REFS.items() if v[0]() is None]:
        del _CARD_REFS[key]
    _CARD_REFS[id(index)] = (weakref.ref(index), sig, table)
    return table


def _card_ref_users(index: ProjectIndex, doc: LoadedDocument, ref: str) -> list[LoadedDocument]:
    """The unit documents of the index (other than ``doc``, in index order) whose card reference is ``ref``
    under ``doc``'s ruleset; a stale table (a document edited or replaced in place) is rebuilt."""
    for fresh in (False, True):
        users = _card_ref_table(index, fresh).get((doc.ruleset, ref), [])
        stale = any(_body(d) is None or _body(d).card_ref != ref or d.ruleset != doc.ruleset for d in users)
        listed = index.get("unit", doc.id) is not doc or any(d is doc for d in users)
        if not stale and listed:
            break
    return [d for d in users if d is not doc]


# ------------------------------------------------------------------ ruleset data (d.2)

_COVERS = ("none", "light", "medium", "heavy", "other")
_HEIGHTS = {"LW": 3, "W": 3, "HW": 4, "R": 0, "G": -1}
_KNOWN_SPOT = {("V", 0): 20, ("V", -2): 7, ("V", 1): 30, ("L", 0): 15, ("S", 0): 10, ("S", 1): 15, ("S", -1): 5}
_KNOWN_HIT = {("S", -2): 56, ("P", -6): 36, ("E", -10): 0}


def check_ruleset(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    rs = doc.model
    if rs.id != "mbt":
        return
    for i, t in enumerate(rs.terrain):
        yield from _check_terrain(doc, i, t)
    for i, h in enumerate(rs.hexside_features):
        if h.id == "wall" and h.move_cost.get("h", 0) is not None:
            yield doc.error("mbt.terrain-prohibited", "a wall hexside must be prohibited (null) to half-tracks",
                            f"/hexside_features/{i}/move_cost/h", R + "4.5.1.1.2")
        if h.id in ("crest", "hedgerow") and h.los.height != 1:
            yield doc.error("mbt.terrain-height", f"hexside '{h.id}' has height 1", f"/hexside_features/{i}/los/height",
                            R + "4.1.4.1.5")
    yield from _check_turn_rows(doc, rs)
    for i, t in enumerate(rs.tables):
        if any(len(row) != len(t.columns) for row in t.rows):
            continue  # the core's ruleset.table-row reports the ragged row at its line
        if t.id == "spotting-ranges":
            yield from _check_spotting(doc, i, t)
        elif t.id == "ap-hit":
            yield from _check_ap_hit(doc, i, t)
    yield from check_tables(doc, rs)     # Advanced Game tables (V36-V39)


def _check_terrain(doc, i: int, t) -> Iterator[Diagnostic]:
    """V31-V33: cover type, a cost per vehicle class, heights given by the rules, heavy woods prohibited."""
    if t.cover not in _COVERS:
        yield doc.error("mbt.terrain-cover", f"terrain '{t.code}' has cover '{t.cover}'; MBT cover is one of "
                        f"{', '.join(_COVERS)}", f"/terrain/{i}/cover", R + "4.1.3")
    missing = [c for c in ("t", "h", "w") if c not in t.move_cost]
    if missing:
        yield doc.error("mbt.terrain-costs", f"terrain '{t.code}' has no movement cost for class(es) "
                        f"{', '.join(missing)} (a number, or null = prohibited)", f"/terrain/{i}/move_cost",
                        R + "4.5.1.1.2", at_key=True)
    want = _HEIGHTS.get(t.code)
    if want is not None and t.los.height != want:
        yield doc.error("mbt.terrain-height", f"terrain '{t.code}' ({t.name}) has height {t.los.height}; the "
                        f"rules give {want}", f"/terrain/{i}/los/height", R + "4.1.4.1")
    if t.los.blocks and t.los.height <= 0:
        yield doc.error("mbt.terrain-height", f"terrain '{t.code}' blocks LOS but has height {t.los.height}; "
                        "non-blocking types have height 0 or less", f"/terrain/{i}/los", R + "4.1.4.1")
    if t.code == "HW":
        for cls in ("t", "h", "w"):
            if t.move_cost.get(cls) is not None:
                yield doc.error("mbt.terrain-prohibited", f"heavy woods must be prohibited (null) to vehicles "
                                f"of class '{cls}'", f"/terrain/{i}/move_cost/{cls}", R + "4.1.4.1.7")


def _check_turn_rows(doc, rs) -> Iterator[Diagnostic]:
    """Every terrain type needs a Terrain Effects row: the engine reads its Turn cost (MBT 4.5.1.1.4)."""
    table = next((t for t in rs.tables if t.id == "terrain-effects"), None)
    if table is None or "code" not in table.columns:
        return  # reported by the core's ruleset.engine-table check
    c = table.columns.index("code")
    codes = {row[c] for row in table.rows if len(row) > c}
    for i, t in enumerate(rs.terrain):
        if t.code not in codes:
            yield doc.error("mbt.terrain-turn", f"terrain '{t.code}' has no row in table 'terrain-effects' (its "
                            "Turn cost)", f"/terrain/{i}/code", R + "4.5.1.1.4")


def _check_spotting(doc, i, t) -> Iterator[Diagnostic]:
    base = f"/tables/{i}"
    if t.columns != ["modifier", "V", "L", "S"]:
        yield doc.error("mbt.spotting-table", "spotting-ranges columns must be modifier, V, L, S",
                        f"{base}/columns", t.rule)
        return
    mods = [r[0] for r in t.rows]
    if mods != list(range(2, -6, -1)):
        yield doc.error("mbt.spotting-table", f"spotting-ranges rows must run +2 .. -5, not {mods}",
                        f"{base}/rows", t.rule)
        return
    for (col, mod), value in _KNOWN_SPOT.items():
        r = 2 - mod
        c = t.columns.index(col)
        if t.rows[r][c] != value:
            yield doc.error("mbt.spotting-table", f"spotting range {col} at modifier {mod:+d} must be {value} "
                            f"(given by the rules), not {t.rows[r][c]}", f"{base}/rows/{r}/{c}", "MBT 4.1.3")
    for c in range(1, 4):
        col = [r[c] for r in t.rows]
        for r in range(1, len(col)):
            if isinstance(col[r], (int, float)) and isinstance(col[r - 1], (int, float)) and col[r] > col[r - 1]:
                yield doc.warning("mbt.spotting-table", f"spotting range {t.columns[c]} rises from {col[r - 1]} to "
                                  f"{col[r]} as the modifier falls", f"{base}/rows/{r}/{c}", t.rule)
                break


def _check_ap_hit(doc, i, t) -> Iterator[Diagnostic]:
    base = f"/tables/{i}"
    if t.columns != ["modifier", "P", "S", "M", "L", "E"]:
        yield doc.error("mbt.ap-hit-table", "ap-hit columns must be modifier, P, S, M, L, E", f"{base}/columns",
                        t.rule)
        return
    mods = [r[0] for r in t.rows]
    if mods != list(range(5, -11, -1)):
        yield doc.error("mbt.ap-hit-table", "ap-hit rows must run +5 .. -10 (16 rows)", f"{base}/rows", t.rule)
        return
    for (col, mod), value in _KNOWN_HIT.items():
        r, c = 5 - mod, t.columns.index(col)
        cell = t.rows[r][c]
        if not (cell == value or (value == 0 and cell is None)):
            yield doc.error("mbt.ap-hit-table", f"hit number ({col}, {mod:+d}) must be {value} (given by the "
                            f"rules), not {cell}", f"{base}/rows/{r}/{c}", "MBT 4.4.3.2.3")
    for r, row in enumerate(t.rows):
        nums = [x for x in row[1:] if isinstance(x, (int, float))]
        if any(b > a for a, b in zip(nums, nums[1:])):
            yield doc.warning("mbt.ap-hit-table", f"hit numbers rise from P to E in row {row[0]:+d}",
                              f"{base}/rows/{r}", t.rule)
    for c in range(1, 6):
        col = [r[c] for r in t.rows]
        for r in range(1, len(col)):
            if isinstance(col[r], (int, float)) and isinstance(col[r - 1], (int, float)) and col[r] > col[r - 1]:
                yield doc.warning("mbt.ap-hit-table", f"hit number {t.columns[c]} rises as the modifier falls",
                                  f"{base}/rows/{r}/{c}", t.rule)
                break


# ------------------------------------------------------------------ maps (d.2)

_LABEL = re.compile(r"^(\d+)([A-Z]+)(\d+)$")
_DIRS = ("N", "NE", "SE", "S", "SW", "NW")


def check_map(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    m = doc.model
    if m.hex is None or m.ruleset != "mbt":
        return
    levels = []
    for r, row in enumerate(m.elevation):
        try:
            levels.append([int(x) for x in row.split()])
        except ValueError:
            return
        if any(v > 5 for v in levels[-1]):
            yield doc.warning("mbt.hill-level", f"elevation row {r} has a level above 5; heights of 4 to 5 are "
                              "typically the limit", f"/elevation/{r}", R + "4.1.4.1.4")
    yield from _check_slopes(doc, m, levels)
    yield from _check_cliffs(doc, m, levels)
    yield from _check_board_id(doc, m)
    yield from _check_bridges(doc, m)


def _check_board_id(doc, m) -> Iterator[Diagnostic]:
    """V40: an MBT mapboard is identified by the number in its directional hex, and its hex ids are that number
    followed by the column letters and the row (MBT 1.2, '1BB8')."""
    if not m.hex.board.isdigit():
        yield doc.error("mbt.board-id", f"board id '{m.hex.board}' is not a number: MBT boards are numbered by "
                        "their directional hex and hex ids read <board><column><row>", "/hex/board", R + "1.2")


def _check_bridges(doc, m) -> Iterator[Diagnostic]:
    """V42: a bridge connects road or path hexes at both ends (MBT 4.5.1.1.6): both hexes of a bridge hexside lie
    on a road or path of the map."""
    on_road = {label for road in m.roads for label in road.hexes}
    for i, side in enumerate(m.hexsides):
        if side.feature != "bridge":
            continue
        here = _cell(m, side.hex)
        there = _neighbour(m, here, side.side) if here else None
        ends = [side.hex] + ([_label(m, *there)] if there else [])
        off = [h for h in ends if h not in on_road]
        if off:
            yield doc.error("mbt.bridge", f"bridge at {side.hex} {side.side}: {', '.join(off)} is on no road or path; "
                            "a bridge joins road or path hexes at both ends", f"/hexsides/{i}", R + "4.5.1.1.6",
                            at_key=True)


def _check_slopes(doc, m, levels) -> Iterator[Diagnostic]:
    """V41: a slope hexside joins two different levels."""
    for i, side in enumerate(m.hexsides):
        if side.feature not in ("slope", "crest"):
            continue
        here = _cell(m, side.hex)
        if here is None:
            continue
        there = _neighbour(m, here, side.side)
        if there is None:
            continue
        (c1, r1), (c2, r2) = here, there
        try:
            a, b = levels[r1][c1], levels[r2][c2]
        except IndexError:
            continue
        if side.feature == "slope" and a == b:
            yield doc.warning("mbt.slope", f"slope hexside {side.hex} {side.side} joins two hexes of the same "
                              f"level ({a})", f"/hexsides/{i}", R + "4.1.4.1.5")


def _check_cliffs(doc, m, levels) -> Iterator[Diagnostic]:
    """V41: a level change with no slope or crest hexside is a cliff, impassable to vehicles (verify intent)."""
    marked = set()
    for side in m.hexsides:
        if side.feature in ("slope", "crest", "cliff"):
            here = _cell(m, side.hex)
            there = _neighbour(m, here, side.side) if here else None
            if there:
                marked.add(frozenset((here, there)))
    unmarked = []
    for r, row in enumerate(levels):
        for c, level in enumerate(row):
            for d in ("NE", "SE", "S"):
                there = _neighbour(m, (c, r), d)
                if there is None or len(levels) <= there[1] or len(levels[there[1]]) <= there[0]:
                    continue
                if levels[there[1]][there[0]] != level and frozenset(((c, r), there)) not in marked:
                    unmarked.append(f"{_label(m, c, r)} {d}")
    if unmarked:
        yield doc.info("mbt.cliff", f"{len(unmarked)} hill level change(s) have no slope or crest hexside, e.g. "
                       f"{', '.join(unmarked[:3])}; the rules make them cliffs, impassable to vehicles (ruleset "
                       "option 'unmarked-level-change' decides)", "/elevation", R + "4.1.4.1.5", at_key=True)


def _cell(m, label: str):
    match = _LABEL.match(label)
    if not match or (m.hex.board and match.group(1) != m.hex.board):
        return None
    letters = match.group(2)
    if len(set(letters)) != 1:
        return None
    col = (ord(letters[0]) - 65) + 26 * (len(letters) - 1)
    row = int(match.group(3)) - 1
    if not (0 <= col < m.hex.columns and 0 <= row < m.hex.rows):
        return None
    return col, row


def _label(m, col: int, row: int) -> str:
    return f"{m.hex.board}{chr(65 + col % 26) * (col // 26 + 1)}{row + 1}"


def _neighbour(m, cell, side):
    """Neighbour across a hexside for flat-topped offset grids (``offset`` = the shifted columns)."""
    col, row = cell
    if m.hex.orientation != "flat" or side not in _DIRS:
        return None
    shifted = (col % 2 == 1) if m.hex.offset == "odd" else (col % 2 == 0)
    # a shifted column sits half a hex lower
    dr_up, dr_down = (0, 1) if shifted else (-1, 0)
    delta = {"N": (0, -1), "S": (0, 1), "NE": (1, dr_up), "SE": (1, dr_down), "NW": (-1, dr_up),
             "SW": (-1, dr_down)}[side]
    c, r = col + delta[0], row + delta[1]
    if 0 <= c < m.hex.columns and 0 <= r < m.hex.rows:
        return c, r
    return None


# ------------------------------------------------------------------ TO&E (d.3)

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_ALLOWED = re.compile(r"n(?:[+-]\d{1,3})?|parent")  # the placeholders studio.model.forces.designate fills


def _designation_problems(pattern: str) -> list[str]:
    problems = []
    names = _PLACEHOLDER.findall(pattern)
    stripped = _PLACEHOLDER.sub("", pattern)
    if "{" in stripped or "}" in stripped:
        problems.append("unbalanced braces")
    for name in names:
        if not _ALLOWED.fullmatch(name):
            problems.append(f"unknown placeholder '{{{name}}}' (use {{n}}, {{n+K}}, {{n-K}} or {{parent}})")
    return problems


def check_toe(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    toe = doc.model
    if toe.ruleset != "mbt":
        return
    yield from check_toe_units(doc, index)
    for pointer, ech in toe.root.walk():
        for problem in _designation_problems(ech.designation):
            yield doc.error("mbt.designation", f"designation '{ech.designation}' of echelon '{ech.id}': {problem}",
                            f"{pointer}/designation")
        if ech.count > 1 and ech.designation and "{n}" not in ech.designation:
            yield doc.warning("mbt.designation", f"echelon '{ech.id}' appears {ech.count} times but its "
                              f"designation '{ech.designation}' has no {{n}}, so the copies share a name",
                              f"{pointer}/designation")
        for k, s in enumerate(ech.slots):
            if s.designation:
                for problem in _designation_problems(s.designation):
                    yield doc.error("mbt.designation", f"designation '{s.designation}' of slot '{s.id}': {problem}",
                                    f"{pointer}/slots/{k}/designation")
        line = any(s.role == "line" for s in ech.slots)
        hq = any(s.role == "hq" for s in ech.slots)
        if ech.echelon in ("platoon", "company", "battalion", "troop", "regiment") and (line or ech.children) \
                and not hq and ech.template is None:
            yield doc.warning("mbt.command", f"{ech.echelon} '{ech.id}' has no HQ slot (role: hq); command "
                              "units carry the Command label", f"{pointer}/slots", R + "5.9", at_key=True)


# ------------------------------------------------------------------ scenario (d.3)

def _boards(sc, index):
    """board id (label prefix) -> Map model, for the scenario's placed hex boards."""
    boards = {}
    for b in sc.boards:
        m = index.model("map", b.map)
        if m is not None and m.hex is not None:
            boards[m.hex.board] = m
    return boards


def _terrain_at(boards, label):
    match = _LABEL.match(label)
    if not match:
        return None, None
    m = boards.get(match.group(1))
    if m is None:
        return None, None
    cell = _cell(m, label)
    if cell is None:
        return m, None
    col, row = cell
    try:
        return m, m.terrain[row].split()[col]
    except IndexError:
        return m, None


def check_scenario(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    sc = doc.model
    if sc.ruleset != "mbt":
        return
    rs = index.model("ruleset", "mbt")
    boards = _boards(sc, index)
    terrain = {t.code: t for t in rs.terrain} if rs is not None else {}
    road_hexes = set()
    for m in boards.values():
        for road in m.roads:
            road_hexes.update(road.hexes)
    sides = {s.id for s in sc.sides}
    pointy = any(m.hex.orientation == "pointy" for m in boards.values())
    dirs = ("NW", "NE", "E", "SE", "SW", "W") if pointy else _DIRS

    yield from _check_extension(doc, sc, boards, sides)
    yield from _check_setups(doc, sc, index, boards, terrain, road_hexes, dirs)
    yield from _check_entries(doc, sc, index, boards, terrain, road_hexes)
    yield from _check_stacking(doc, sc, index, boards, rs)
    yield from check_advanced_scenario(doc, sc, index, boards, _terrain_at)


def _check_extension(doc, sc, boards, sides) -> Iterator[Diagnostic]:
    """Force grades (MBT 5.8) and building hexes of the MBT scenario extension."""
    ext = sc.extension
    for side, _grade in getattr(ext, "force_grades", {}).items():
        if side not in sides:
            yield doc.error("mbt.force-grade", f"force grade for side '{side}', which does not exist",
                            f"/extension/force_grades/{side}", R + "5.8", at_key=True)
    forces = {side.id: {f.id for f in side.forces} for side in sc.sides}
    for side, grades in getattr(ext, "formation_grades", {}).items():
        for force in grades:
            if force not in forces.get(side, ()):
                yield doc.error("mbt.formation-grade", f"formation grade for force '{force}' of side '{side}', which "
                                "does not exist", f"/extension/formation_grades/{side}/{force}", R + "5.8.2",
                                at_key=True)
    if getattr(ext, "game", "basic") == "advanced":
        for si, side in enumerate(sc.sides):
            if side.id not in ext.force_grades:
                yield doc.error("mbt.force-grade", f"side '{side.id}' needs a Force Grade in the Advanced Game",
                                "/extension/force_grades", R + "5.8", at_key=True)
    for hexlabel in getattr(ext, "building_stories", {}):
        _, code = _terrain_at(boards, hexlabel)
        if code is None:
            yield doc.error("mbt.hex", f"building hex '{hexlabel}' is not on the scenario's boards",
                            f"/extension/building_stories/{hexlabel}", at_key=True)


def _check_setups(doc, sc, index, boards, terrain, road_hexes, dirs) -> Iterator[Diagnostic]:
    """Set-up facings, hex counts, prohibited terrain, opposing units and over-stacking (V52, MBT 3.3)."""
    occupants: dict[str, list[tuple[str, str]]] = defaultdict(list)   # hex -> [(side, pointer)]
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            base = f"/sides/{si}/forces/{fi}"
            units = [(u.path, u.unit) for u in expand_force(force, index)]
            if not force.setup:
                continue
            setup = force.setup
            if setup.facing is not None and setup.facing not in dirs:
                yield doc.error("mbt.facing", f"facing '{setup.facing}' is not a hexside direction "
                                f"({', '.join(dirs)}); vehicles always face a hexside", f"{base}/setup/facing",
                                R + "3.3")
            hexes = setup.hexes
            if not hexes:
                continue
            if units and len(hexes) not in (1, len(units)):
                yield doc.error("mbt.setup-count", f"force '{force.id}' has {len(units)} vehicles but "
                                f"{len(hexes)} setup hexes; give one hex per vehicle or one shared hex",
                                f"{base}/setup/hexes")
            for k, label in enumerate(hexes):
                pointer = f"{base}/setup/hexes/{k}"
                code = _terrain_at(boards, label)[1]
                if code is None:
                    continue  # off the boards: the core check scenario.unknown-hex
                placed = units if len(hexes) == 1 else ([units[k]] if k < len(units) else [])
                occupants[label].append((side.id, pointer))
                t = terrain.get(code)
                if t is not None and label not in road_hexes:
                    yield from _prohibited_setup(doc, index, t, label, placed, pointer)
    for label, occ in occupants.items():
        if len({s for s, _ in occ}) > 1:
            yield doc.error("mbt.setup-opposing", f"opposing units set up in the same hex {label}", occ[-1][1],
                            R + "4.5.1.1.10")


def _check_entries(doc, sc, index, boards, terrain, road_hexes) -> Iterator[Diagnostic]:
    """An entry hex off the roads whose terrain no vehicle of the force may enter is an error (the V52 rule
    applied to entry zones, MBT 4.5.1.1.2): those vehicles could never come onto the map there."""
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            if force.entry is None or not force.entry.hexes:
                continue
            tractions = _tractions(force, index)
            if not tractions:
                continue
            for k, label in enumerate(force.entry.hexes):
                code = _terrain_at(boards, label)[1]
                t = terrain.get(code) if code is not None else None
                if t is None or label in road_hexes:
                    continue
                if all(cls in t.move_cost and t.move_cost[cls] is None for cls in tractions):
                    yield doc.error("mbt.entry-prohibited", f"no vehicle of force '{force.id}' can enter at "
                                    f"{label}: {t.name} is prohibited to traction {', '.join(sorted(tractions))}",
                                    f"/sides/{si}/forces/{fi}/entry/hexes/{k}", t.rule or R + "4.5.1.1.2")


def _tractions(force, index) -> set[str]:
    """Traction classes (lower case) of the force's vehicles."""
    out = set()
    for u in expand_force(force, index):
        body = getattr(index.model("unit", u.unit), "body", None)
        if isinstance(body, VehicleBody):
            out.add(body.general.movement.traction.lower())
    return out


def _stacking_limit(rs) -> int | None:
    """Vehicles that make a hex over-stacked (table ``stacking``), or None when the table does not say."""
    table = next((t for t in rs.tables if t.id == "stacking"), None) if rs is not None else None
    if table is None or "vehicles" not in table.columns:
        return None
    c = table.columns.index("vehicles")
    value = table.rows[0][c] if table.rows and len(table.rows[0]) > c else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _check_stacking(doc, sc, index, boards, rs) -> Iterator[Diagnostic]:
    """V53: a set-up hex with as many vehicles as table ``stacking`` gives is over-stacked (MBT 3.8)."""
    limit = _stacking_limit(rs)
    if limit is None:
        return
    counts: Counter = Counter()
    first: dict[str, str] = {}
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            hexes = force.setup.hexes if force.setup else []
            if not hexes:
                continue
            units = expand_force(force, index)
            for k, label in enumerate(hexes):
                if _terrain_at(boards, label)[1] is None:
                    continue
                counts[label] += len(units) if len(hexes) == 1 else int(k < len(units))
                first.setdefault(label, f"/sides/{si}/forces/{fi}/setup/hexes/{k}")
    for label, count in counts.items():
        if count >= limit:
            yield doc.warning("mbt.overstacked", f"hex {label} starts over-stacked with {count} vehicles "
                              f"({limit} or more)", first[label], R + "3.8")


def _prohibited_setup(doc, index, t, label: str, placed, pointer: str) -> Iterator[Diagnostic]:
    """V52: no vehicle sets up in terrain its traction cannot enter (unless on a road)."""
    for path, unit_id in placed:
        card = index.model("unit", unit_id)
        body = getattr(card, "body", None)
        if not isinstance(body, VehicleBody):
            continue
        cls = body.general.movement.traction.lower()
        if cls in t.move_cost and t.move_cost[cls] is None:
            yield doc.error("mbt.setup-prohibited", f"{card.name} ({path}) cannot set up in {label}: "
                            f"{t.name} is prohibited to traction {body.general.movement.traction}",
                            pointer, t.rule or R + "4.5.1.1.2")


CHECKS: dict[str, list] = {
    "unit": [check_card, check_card_refs],
    "toe": [check_toe],
    "scenario": [check_scenario],
    "map": [check_map],
    "ruleset": [check_ruleset],
}
