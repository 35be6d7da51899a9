"""Static checks V1-V50 of the World at War digest (section D). Codes are stable: ``waw.<name>``.

Unit checks (D.1) read one counter; formation checks (D.2) read a TO&E (a formation template) or the scenario's
formation list; set-up and cup checks (D.3, D.4) read a scenario with its forces expanded and placed exactly as
the engine places them (``forces.py``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from studio.model.diagnostics import Diagnostic
from studio.model.forces import expand_toe
from studio.model.project import LoadedDocument, ProjectIndex

from .cards import INFANTRY_CLASSES, VEHICLE_CLASSES, WawCounter
from .forces import STACK_EXEMPT, scenario_units, side_of_force

FORMULA = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d)(\d)\s*$")
GROUND_COMBAT = ("infantry", "militia_cav", "rcl", "mortar_crew", "sp_mortar", "afv", "thin_skinned_vehicle",
                 "unarmored_vehicle", "aa_vehicle", "on_map_artillery")


def _body(doc: LoadedDocument) -> WawCounter | None:
    body = getattr(doc.model, "body", None)
    return body if isinstance(body, WawCounter) else None


def _card(index: ProjectIndex, unit_id: str):
    card = index.model("unit", unit_id)
    body = getattr(card, "body", None)
    return (card, body) if isinstance(body, WawCounter) else (card, None)


# ------------------------------------------------------------------ D.1 unit / counter

def check_unit(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """The World at War counter checks (digest V1-V18), one function per group."""
    b = _body(doc)
    if b is None:
        return
    vehicle = b.unit_class in VEHICLE_CLASSES
    for name, v in b.sides():
        yield from _check_side_numbers(doc, name, v)
        yield from _check_side_kind(doc, b, name, v, vehicle)
    yield from _check_sides(doc, b)
    yield from _check_morale(doc, b, index.model("ruleset", doc.model.ruleset))
    yield from _check_capabilities(doc, b)
    yield from _check_special_counters(doc, b)


def _check_side_numbers(doc, name: str, v) -> Iterator[Diagnostic]:
    """V1: To Hit, Save and Assault Hit numbers a d6 can roll; every Firepower has its To Hit."""
    base = f"/body/{name}"
    # V1
    for key in ("ap", "he", "aa"):
        value = getattr(v.to_hit, key)
        if value is not None and not 1 <= value <= 6:
            yield doc.error("waw.to-hit-range", f"{name} To Hit {key.upper()} {value} can never be rolled "
                            "on a d6 (must be 1..6)", f"{base}/to_hit/{key}", "WaW 1.2.1")
    for key in ("save", "assault_to_hit"):
        value = getattr(v, key)
        if value is not None and not 1 <= value <= 6:
            yield doc.error("waw.to-hit-range", f"{name} {key} {value} must be 1..6 on a d6",
                            f"{base}/{key}", "WaW 1.2.1")
    for fp, hit in (("ap_fp", "ap"), ("he_fp", "he"), ("aa_fp", "aa")):
        if getattr(v, fp) is not None and getattr(v.to_hit, hit) is None:
            yield doc.error("waw.to-hit-missing", f"{name} has {fp} but no {hit.upper()} To Hit",
                            f"{base}/{fp}", "WaW 1.2.1")


def _check_side_kind(doc, b, name: str, v, vehicle: bool) -> Iterator[Diagnostic]:
    """V2 Armor/Save pairs, V3 thin-skinned class, V7 towed, V8 circled MF, Assault Hit Number, V6 underline."""
    base = f"/body/{name}"
    # V2
    if vehicle and b.unit_class not in ("on_map_artillery", "bridging") and (v.armor is None) != (v.save is None):
        yield doc.error("waw.armor-save-pair", f"{name} side has {'Armor' if v.armor is not None else 'Save'} "
                        "without the other: AFVs need both, unarmored vehicles neither",
                        f"{base}/{'armor' if v.armor is not None else 'save'}", "WaW 1.3.4.1")
    # V3
    thin = v.armor == 1 and v.save in (5, 6)
    if name in ("full", "flying") and vehicle:
        if b.unit_class == "afv" and thin:
            yield doc.error("waw.thin-skinned-class", "Armor 1 with Save 5 or 6 is a thin-skinned vehicle, "
                            "not an AFV", "/body/unit_class", "WaW 1.3.4.2")
        if b.unit_class in ("thin_skinned_vehicle", "aa_vehicle") and not thin:
            yield doc.error("waw.thin-skinned-class", f"a {b.unit_class} must have Armor 1 and Save 5 or 6",
                            f"{base}/armor" if v.armor is not None else base, "WaW 1.3.4.2, 1.3.4.5")
    yield from _check_side_movement(doc, b, name, v, vehicle)


def _check_side_movement(doc, b, name: str, v, vehicle: bool) -> Iterator[Diagnostic]:
    """V7 towed, V8 circled MF, the Assault Hit Number, V6 the Range underline."""
    base = f"/body/{name}"
    # V7
    mv = v.movement
    if mv.towed and mv.mp is not None:
        yield doc.error("waw.towed", "a towed 'T' unit has no Movement Factor", f"{base}/movement/mp",
                        "WaW 1.3.9")
    # V8
    if mv.circled and not vehicle and b.unit_class != "helicopter":
        yield doc.error("waw.circled-vehicle", "only vehicles may have a circled (transport) Movement Factor",
                        f"{base}/movement/circled", "WaW 5.2")
    # V1 (HQ / leaders: leadership sane)
    if v.assault_fp is not None and v.assault_to_hit is None and b.unit_class not in ("hq",):
        yield doc.error("waw.to-hit-missing", f"{name} has an Assault factor but no Assault Hit Number",
                        f"{base}/assault_fp", "WaW 6.3")
    # V6
    if v.range_underlined and v.range is None:
        yield doc.error("waw.range-underline", "an underlined Range needs a Range value", f"{base}/range",
                        "WaW 6.1.1")


def _check_sides(doc, b) -> Iterator[Diagnostic]:
    """V6 underline consistency, V4 single strength, helicopter and full-strength sides."""
    sides = b.sides()
    # V6 consistency between sides
    flags = {n: v.range_underlined for n, v in sides if v.range is not None}
    if len(set(flags.values())) > 1 and b.unit_class != "helicopter":
        yield doc.error("waw.range-underline", "the Range underline differs between the counter's sides",
                        "/body", "WaW 6.1.1, 6.1.4")
    # V4
    if b.unit_class in ("helicopter", "aa_vehicle"):
        if not b.single_strength:
            yield doc.error("waw.single-strength", f"{b.unit_class} units have one strength level",
                            "/body/unit_class", "WaW 1.3.2, 1.3.4.5")
        if b.reduced is not None:
            yield doc.error("waw.single-strength", f"{b.unit_class} units have no Reduced side", "/body/reduced",
                            "WaW 1.3.2, 1.3.4.5")
    if b.unit_class == "helicopter":
        for need in ("flying", "hovering"):
            if getattr(b, need) is None:
                yield doc.error("waw.helicopter-sides", f"a helicopter needs a {need.title()} side",
                                "/body/unit_class", "WaW 9.1")
        if b.flying is not None and b.flying.ap_fp:
            yield doc.warning("waw.flying-ap", "the Flying side of a helicopter has no AP Firepower",
                              "/body/flying/ap_fp", "WaW 9.2")
    elif b.unit_class not in ("leader", "hero", "sniper") and b.full is None:
        yield doc.error("waw.full-side", "the counter needs a full-strength side", "/body/unit_class", "WaW 1.2")


def _check_morale(doc, b, rs) -> Iterator[Diagnostic]:
    """V1 Morale: 2..12 on 2d6, a Conditional base 0..the cap (the ruleset's conditional_morale_cap)."""
    cap = _constant(rs, "conditional_morale_cap")
    if b.morale is not None:
        m = b.morale
        if m.conditional and cap is not None and not 0 <= m.value <= cap:
            yield doc.error("waw.morale-range", f"Conditional Morale base {m.value} must be 0..{cap} (capped at "
                            f"{cap})", "/body/morale/value", "WaW 1.6.1")
        elif not m.conditional and not 2 <= m.value <= 12:
            yield doc.error("waw.morale-range", f"Morale {m.value} can never pass or fail on 2d6 (must be 2..12)",
                            "/body/morale/value", "WaW 1.6")


def _check_capabilities(doc, b) -> Iterator[Diagnostic]:
    """V5 AA capability, V7 towed guns, V10 Assault factor, V11 Moving Fire level."""
    sides = b.sides()
    # V5
    if any(v.aa_fp is not None for _, v in sides):
        yield doc.info("waw.aa-capable", "counts as a unit with anti-aircraft weaponry (blue AA Firepower)",
                       "/body", "WaW 9.3")
    # V7
    if b.unit_class == "towed_gun" and b.full is not None and not b.full.movement.towed:
        yield doc.error("waw.towed", "a towed gun shows 'T' instead of a Movement Factor",
                        "/body/full/movement/towed", "WaW 1.3.9")
    # V10
    if b.unit_class in GROUND_COMBAT and b.full is not None:
        if b.full.assault_fp is None and not b.cannot_assault:
            yield doc.error("waw.no-assault", "no Assault factor: set cannot_assault (e.g. SA-9) or give one",
                            "/body/full", "WaW 6.3")
        if b.cannot_assault and b.full.assault_fp is not None:
            yield doc.error("waw.no-assault", "a unit that cannot Assault prints no Assault factor",
                            "/body/full/assault_fp", "WaW 6.3, note 5")
    yield from _check_moving_fire(doc, b)


def _check_moving_fire(doc, b) -> Iterator[Diagnostic]:
    """V11: underlined Firepower and the Moving Fire level go together."""
    sides = b.sides()
    # V11
    underlined_fp = any(v.ap_fp_underlined or v.he_fp_underlined for _, v in sides)
    if underlined_fp and b.moving_fire == "none":
        yield doc.warning("waw.moving-fire-level", "underlined Firepower but no Moving Fire level"
                          + (" (the table has no Alliance rows)" if b.side == "Alliance" else ""),
                          "/body/moving_fire" if "moving_fire" in (doc.data.get("body") or {}) else "/body",
                          "WaW 6.1.3")
    if b.moving_fire != "none" and not underlined_fp:
        yield doc.warning("waw.moving-fire-level", "a Moving Fire level without underlined Firepower",
                          "/body/moving_fire", "WaW 6.1.3")


def _check_special_counters(doc, b) -> Iterator[Diagnostic]:
    """V12-V18: SWs, bridging, HQs, Leaders, Heroes, snipers, on-map artillery, recon."""
    yield from _check_support_counters(doc, b)
    yield from _check_command_counters(doc, b)
    yield from _check_other_counters(doc, b)


def _check_support_counters(doc, b) -> Iterator[Diagnostic]:
    """V12 support weapons, V13 bridging."""
    # V12
    if b.unit_class == "support_weapon":
        if b.support_weapon is None:
            yield doc.error("waw.sw-attach", "a support weapon must say what it attaches to (infantry or tank)",
                            "/body/unit_class", "WaW 1.3.5")
        elif b.support_weapon.attaches_to == "tank":
            yield doc.warning("waw.sw-attach", "tank SWs (ATGM) are not included in America Conquered",
                              "/body/support_weapon/attaches_to", "WaW 1.3.5.1")
    # V13
    if b.unit_class == "bridging":
        yield doc.warning("waw.bridging", "there are no bridging units in America Conquered", "/body/unit_class",
                          "WaW 1.3.4.6")


def _check_command_counters(doc, b) -> Iterator[Diagnostic]:
    """V14 HQ values, V15 Leaders and Heroes, V16 snipers."""
    # V14
    if b.unit_class == "hq":
        v = b.full
        missing = [k for k in ("command_range", "leadership") if v is None or getattr(v, k) is None]
        if b.morale is None:
            missing.append("morale")
        if missing:
            yield doc.error("waw.hq-values", f"an HQ needs {', '.join(missing)}", "/body/unit_class", "WaW 1.3.3")
    # V15
    if b.unit_class == "leader":
        v = b.full
        missing = [k for k in ("leadership",) if v is None or v.leadership is None]
        if b.morale is None:
            missing.append("morale")
        if not b.hallowed_ground_reverse:
            missing.append("a Hallowed Ground reverse")
        if missing:
            yield doc.error("waw.leader-values", f"a Leader needs {', '.join(missing)}", "/body/unit_class",
                            "WaW 1.3.6")
    if b.unit_class == "hero" and not b.hallowed_ground_reverse:
        yield doc.error("waw.leader-values", "a Hero has a Hallowed Ground reverse", "/body/unit_class",
                        "WaW 1.3.7")
    # V16
    if b.unit_class == "sniper" and not b.ops_complete_reverse:
        yield doc.error("waw.sniper-reverse", "a sniper has an Ops Complete reverse", "/body/unit_class",
                        "WaW 1.3.8")


def _check_other_counters(doc, b) -> Iterator[Diagnostic]:
    """V17 on-map artillery, V18 recon on ground units."""
    # V17
    if b.unit_class == "on_map_artillery":
        art = b.full.artillery if b.full else None
        if art is None or art.fixed is None or art.unlimited is None:
            yield doc.error("waw.onmap-artillery", "on-map artillery has a fixed and an unlimited HE use",
                            "/body/full", "WaW 8.7")
    # V18 (recon on a non-ground unit)
    if b.recon and b.unit_class in ("helicopter", "hq", "leader", "hero", "sniper", "support_weapon"):
        yield doc.error("waw.recon-unit", "the recon symbol belongs on a ground unit", "/body/recon",
                        "WaW 1.3.4.4")


# ------------------------------------------------------------------ D.2 formation (TO&E)

def _toe_units(toe, index):
    out = []
    for u in expand_toe(toe, index):
        card, body = _card(index, u.unit)
        out.append((u.path, u.unit, card, body))
    return out


def _constant(rs, name: str):
    """A value of the ruleset's ``constants`` table, or None when the ruleset or the row is missing."""
    try:
        return next((row[1] for row in rs.table("constants").rows if row and row[0] == name), None)
    except (AttributeError, KeyError):
        return None


def _option(sc, rs, option_id: str):
    """The scenario's value of a rule option, else the ruleset's default (None when neither has it)."""
    if option_id in sc.options:
        return sc.options[option_id]
    return next((o.default for o in getattr(rs, "options", ()) if o.id == option_id), None)


def _slot_pointer(toe, path: str) -> str:
    parts = path.split("/")
    pointer, ech = "/root", toe.root
    for name in parts[1:-1]:
        for i, child in enumerate(ech.children):
            if child.id == name:
                pointer, ech = f"{pointer}/children/{i}", child
                break
    for i, s in enumerate(ech.slots):
        if s.id == parts[-1]:
            return f"{pointer}/slots/{i}/unit"
    return pointer


def check_toe(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """The World at War formation checks (digest V18, V21-V25) on a TO&E."""
    toe = doc.model
    known = [(p, u, c, b) for p, u, c, b in _toe_units(toe, index) if b is not None]
    if not known:
        return
    hqs = [x for x in known if x[3].unit_class == "hq"]
    helis = [x for x in known if x[3].unit_class == "helicopter"]
    others = [x for x in known if x[3].unit_class not in ("hq", "helicopter", "support_weapon", "leader", "hero",
                                                           "sniper")]
    yield from _check_toe_hq(doc, toe, hqs, helis, others)
    yield from _check_toe_side(doc, toe, known)
    yield from _check_toe_hq_type(doc, toe, hqs, others)
    yield from _check_toe_recon(doc, toe, known, hqs)


def _check_toe_hq(doc, toe, hqs, helis, others) -> Iterator[Diagnostic]:
    """V21 one HQ (none for helicopters), V25 helicopters in a formation of their own."""
    if helis and not others:
        if hqs:
            yield doc.error("waw.formation-hq", "a helicopter formation has no HQ",
                            _slot_pointer(toe, hqs[0][0]), "WaW 9.0")
    elif len(hqs) != 1:
        yield doc.error("waw.formation-hq", f"a formation has exactly one HQ (found {len(hqs)})",
                        _slot_pointer(toe, hqs[1][0]) if len(hqs) > 1 else "/root", "WaW 1.5")
    if helis and others:
        yield doc.warning("waw.heli-formation", "a helicopter formation contains only helicopters",
                          _slot_pointer(toe, helis[0][0]), "WaW 9.0")


def _check_toe_side(doc, toe, known) -> Iterator[Diagnostic]:
    """V22: one nationality and side per formation."""
    sides = {b.side for _, _, _, b in known}
    for p, u, c, b in known:
        if c.nation != toe.nation or len(sides) > 1 and b.side != known[0][3].side:
            yield doc.error("waw.formation-side", f"unit '{u}' ({c.nation}, {b.side}) does not share the "
                            f"formation's nationality ({toe.nation}) and side", _slot_pointer(toe, p), "WaW 1.5")
            break


def _check_toe_hq_type(doc, toe, hqs, others) -> Iterator[Diagnostic]:
    """V24: the HQ's type is in the formation (1.3.3.1, 1.3.3.3)."""
    for p, u, c, b in hqs:
        if b.hq_type:
            match = [x for x in others if b.hq_type in (x[3].unit_class, x[2].category, x[1], x[3].type_label)]
            if not match:
                yield doc.error("waw.hq-type", f"HQ '{u}' must stay with units of type '{b.hq_type}', and the "
                                "formation has none", _slot_pointer(toe, p), "WaW 1.3.3.1")


def _check_toe_recon(doc, toe, known, hqs) -> Iterator[Diagnostic]:
    """V18: a recon unit in a formation without an HQ."""
    if not hqs:
        for p, u, c, b in known:
            if b.recon:
                yield doc.warning("waw.recon-formation", f"recon unit '{u}' is in a formation without an HQ; its "
                                  "command benefit is twice the HQ's range", _slot_pointer(toe, p), "WaW 1.3.4.4")


# ------------------------------------------------------------------ D.3 / D.4 scenario

@dataclass
class _Scenario:
    """What the scenario checks share: the document, its model parts, the assembled map (None when it does not
    assemble), the set-up placement, roles and the ruleset."""

    doc: LoadedDocument
    sc: object
    ext: object
    index: ProjectIndex
    side_ids: list
    force_side: dict
    force_ptr: dict
    forces: dict
    amap: object
    area: set | None
    rs: object
    tec: dict
    units: dict
    roles: dict


def _scenario_context(doc: LoadedDocument, index: ProjectIndex) -> _Scenario | None:
    from studio.model.maps import AssemblyError, assemble_scenario

    sc = doc.model
    ext = sc.extension
    if not hasattr(ext, "formations"):
        return None
    try:
        amap = assemble_scenario(sc, index)
    except (AssemblyError, Exception):
        amap = None
    rs = index.model("ruleset", sc.ruleset)
    tec = {}
    if rs is not None:
        try:
            t = rs.table("terrain_effects")
            tec = {row[0]: dict(zip(t.columns, row)) for row in t.rows}
        except KeyError:
            pass
    return _Scenario(
        doc=doc, sc=sc, ext=ext, index=index, side_ids=[s.id for s in sc.sides], force_side=side_of_force(sc),
        force_ptr={f.id: f"/sides/{si}/forces/{fi}" for si, s in enumerate(sc.sides) for fi, f in enumerate(s.forces)},
        forces={f.id: f for s in sc.sides for f in s.forces}, amap=amap,
        area=set(ext.playable_area) if ext.playable_area else (set(amap.hex_of) if amap else None), rs=rs, tec=tec,
        units=scenario_units(sc, index), roles={r.side: r.role for r in ext.roles})


def _check_formations(c: _Scenario) -> Iterator[Diagnostic]:
    """V23 formations name forces; every force is a formation."""
    doc, ext, index, force_ptr, forces, units = c.doc, c.ext, c.index, c.force_ptr, c.forces, c.units
    named = set()
    for i, f in enumerate(ext.formations):
        if f.force not in forces:
            yield doc.error("waw.formation-force", f"formation '{f.id}' names force '{f.force}', which does not "
                            "exist", f"/extension/formations/{i}/force", "WaW 1.5")
        named.add(f.force)
        # V42
        entering = f.force in forces and forces[f.force].entry is not None
        if not (1 <= f.markers <= 2) and not (f.markers == 0 and entering):
            yield doc.error("waw.formation-markers", f"formation '{f.id}' has {f.markers} formation markers; a "
                            "formation has 1 or 2", f"/extension/formations/{i}/markers", "WaW 4.0, 1.7.1")
        # V26
        if f.morale is not None and f.morale.conditional and f.force in units:
            if not any((_card(index, u.unit)[1] or None) and _card(index, u.unit)[1].unit_class == "hq"
                       for u in units[f.force]):
                yield doc.warning("waw.conditional-hq", f"formation '{f.id}' uses Conditional Morale but has no HQ",
                                  f"/extension/formations/{i}/morale", "WaW 1.6.1")
    for fid, ptr in force_ptr.items():
        if fid not in named:
            yield doc.error("waw.formation-force", f"force '{fid}' has no formation entry (formation markers)",
                            ptr, "WaW 1.7.1")


def _check_setup_hexes(c: _Scenario) -> Iterator[Diagnostic]:
    """V21-type check on forces: formation kind vs content."""
    doc, ext, force_side, force_ptr, forces, area = c.doc, c.ext, c.force_side, c.force_ptr, c.forces, c.area
    # V27 set-up hexes inside the playable area / set-up area
    for fid, f in forces.items():
        if f.setup is None:
            continue
        side = force_side[fid]
        allowed = set(ext.setup_areas.get(side, [])) or None
        for key in ("hexes", "zone"):
            for k, label in enumerate(getattr(f.setup, key)):
                if area is not None and label not in area:
                    yield doc.error("waw.setup-area", f"set-up hex '{label}' is outside the playable area",
                                    f"{force_ptr[fid]}/setup/{key}/{k}", "WaW 13.0")
                elif allowed is not None and label not in allowed:
                    yield doc.error("waw.setup-area", f"set-up hex '{label}' is outside side '{side}''s set-up "
                                    "area", f"{force_ptr[fid]}/setup/{key}/{k}", "WaW 13.0")


def _setup_ptr(c: _Scenario, fu) -> str:
    """The pointer of the set-up entry that placed unit ``fu``."""
    f = c.forces[fu.force]
    if f.setup and f.setup.hexes:
        n = len(c.units[fu.force])
        k = fu.index if len(f.setup.hexes) == n else fu.index * len(f.setup.hexes) // n
        return f"{c.force_ptr[fu.force]}/setup/hexes/{k}"
    return f"{c.force_ptr[fu.force]}/setup"


def _check_placements(c: _Scenario) -> Iterator[Diagnostic]:
    """V28-V30, V36-V38: what the set-up puts together in one hex."""
    passengers = {(p.force, p.index) for p in c.ext.passengers}
    by_hex: dict[str, list] = {}
    for fid, us in c.units.items():
        for u in us:
            if u.hex is not None:
                by_hex.setdefault(u.hex, []).append(u)
    for label, us in sorted(by_hex.items()):
        bodies = [(u, _card(c.index, u.unit)[1]) for u in us]
        yield from _check_stack(c, label, bodies, passengers)
        yield from _check_sides_in_hex(c, label, us, bodies)
        yield from _check_water_setup(c, label, bodies)


def _check_stack(c: _Scenario, label: str, bodies: list, passengers: set) -> Iterator[Diagnostic]:
    """V28 stacking (the ruleset's stack_limit), V29 one HQ per hex, V30 an HQ with a unit of its formation."""
    doc = c.doc
    limit = _constant(c.rs, "stack_limit")
    counting = [u for u, b in bodies if b is not None and b.unit_class not in STACK_EXEMPT
                and (u.force, u.index) not in passengers]
    if limit is not None and len(counting) > limit:
        yield doc.error("waw.stacking", f"hex {label} holds {len(counting)} units; the limit is {limit}",
                        _setup_ptr(c, counting[limit]), "WaW 1.4")
    hqs = [u for u, b in bodies if b is not None and b.unit_class == "hq"]
    per_hex = _constant(c.rs, "hq_per_hex")
    if per_hex is not None and len(hqs) > per_hex:
        yield doc.error("waw.hq-per-hex", f"hex {label} holds {len(hqs)} HQs; at most {per_hex}",
                        _setup_ptr(c, hqs[per_hex]), "WaW 1.3.3")
    for q in hqs:
        if not any(u.force == q.force and u is not q and b is not None and b.unit_class not in STACK_EXEMPT
                   for u, b in bodies):
            yield doc.error("waw.hq-alone", f"HQ '{q.unit}' in {label} shares its hex with no unit of its "
                            "formation", _setup_ptr(c, q), "WaW 1.3.3.1")


def _check_sides_in_hex(c: _Scenario, label: str, us: list, bodies: list) -> Iterator[Diagnostic]:
    """V38 ground units of both sides, V36 helicopters of both sides in one hex."""
    sides_here = {c.force_side[u.force] for u, b in bodies if b is not None and b.unit_class != "helicopter"}
    if len(sides_here) > 1:
        yield c.doc.error("waw.enemy-hex", f"ground units of both sides set up in {label}", _setup_ptr(c, us[-1]),
                          "WaW 5.1, 6.2")
    heli_sides = {c.force_side[u.force] for u, b in bodies if b is not None and b.unit_class == "helicopter"}
    if len(heli_sides) > 1:
        yield c.doc.warning("waw.heli-start", f"helicopters of both sides in {label}", _setup_ptr(c, us[-1]),
                            "WaW 9.1")


def _water_codes(rs) -> set:
    """Terrain codes of class ``water`` in the ruleset's Terrain Effect Chart (5.3)."""
    try:
        t = rs.table("terrain_effects")
    except (AttributeError, KeyError):
        return set()
    if "terrain_class" not in t.columns:
        return set()
    k = t.columns.index("terrain_class")
    return {row[0] for row in t.rows if len(row) > k and row[k] == "water"}


def _check_water_setup(c: _Scenario, label: str, bodies: list) -> Iterator[Diagnostic]:
    """V37: a unit without green MP sets up in water."""
    amap = c.amap
    if amap is None or label not in amap.hex_of or amap.terrain.get(amap.hex_of[label]) not in _water_codes(c.rs):
        return
    for u, b in bodies:
        if b is not None and b.full is not None and not b.full.movement.green and b.unit_class != "helicopter":
            yield c.doc.warning("waw.water-setup", f"'{u.unit}' without green MP sets up in water ({label})",
                                _setup_ptr(c, u), "WaW 5.3")
            break


def _check_passengers(c: _Scenario) -> Iterator[Diagnostic]:
    """V31 / V9 / V32."""
    doc, ext, index, units = c.doc, c.ext, c.index, c.units
    for i, p in enumerate(ext.passengers):
        ptr = f"/extension/passengers/{i}"
        pu = _unit_at(units, p.force, p.index)
        cu = _unit_at(units, p.carrier_force, p.carrier_index)
        if pu is None or cu is None:
            yield doc.error("waw.passenger-carrier", "passenger or carrier does not exist in its force", ptr,
                            "WaW 5.2")
            continue
        pb, cb = _card(index, pu.unit)[1], _card(index, cu.unit)[1]
        if cb is None or cb.full is None or not cb.full.movement.circled:
            yield doc.error("waw.passenger-carrier", f"carrier '{cu.unit}' has no circled Movement Factor",
                            f"{ptr}/carrier_index", "WaW 5.2")
        if pb is not None and pb.unit_class == "militia_cav":
            yield doc.error("waw.militia-cav-passenger", "Militia Cav cannot be transported", f"{ptr}/index",
                            "WaW 1.3.1")
        elif pb is not None and pb.unit_class not in INFANTRY_CLASSES + ("support_weapon", "towed_gun"):
            yield doc.error("waw.passenger-carrier", f"'{pu.unit}' is not infantry, SW or a towed unit",
                            f"{ptr}/index", "WaW 5.2, 5.2.5")
        if p.disrupted:
            yield doc.warning("waw.disrupted-loaded", "a Disrupted infantry unit cannot load", f"{ptr}/disrupted",
                              "WaW 5.2.1")
    loads: dict[tuple, int] = {}
    for i, p in enumerate(ext.passengers):
        key = (p.carrier_force, p.carrier_index)
        loads[key] = loads.get(key, 0) + 1
        if loads[key] == 2:
            yield doc.warning("waw.passenger-carrier", "more than one infantry platoon in one transport",
                              f"/extension/passengers/{i}", "WaW 5.2, 1.4")


def _check_support_weapons(c: _Scenario) -> Iterator[Diagnostic]:
    """V33 support weapons."""
    doc, ext, index, units = c.doc, c.ext, c.index, c.units
    sw_count: dict[tuple, int] = {}
    for i, a in enumerate(ext.support_weapons):
        ptr = f"/extension/support_weapons/{i}"
        host = _unit_at(units, a.force, a.index)
        hb = _card(index, host.unit)[1] if host else None
        sb = _card(index, a.unit)[1]
        if host is None or (hb is not None and hb.unit_class not in INFANTRY_CLASSES):
            yield doc.error("waw.sw-count", "an SW is attached to an infantry platoon, mortar crew or Militia Cav",
                            f"{ptr}/index", "WaW 1.3.1")
        if sb is not None and sb.unit_class != "support_weapon":
            yield doc.error("waw.sw-count", f"'{a.unit}' is not a support weapon", f"{ptr}/unit", "WaW 1.3.5")
        key = (a.force, a.index)
        sw_count[key] = sw_count.get(key, 0) + 1
        if sw_count[key] > 1:
            yield doc.error("waw.sw-count", "infantry units may use only one SW", ptr, "WaW 1.3.1")


def _check_leaders(c: _Scenario) -> Iterator[Diagnostic]:
    """V34 leaders / heroes."""
    doc, ext, index, units = c.doc, c.ext, c.index, c.units
    seen = set()
    for group in ("leaders", "heroes"):
        for i, a in enumerate(getattr(ext, group)):
            ptr = f"/extension/{group}/{i}"
            host = _unit_at(units, a.force, a.index)
            key = (a.force, a.index)
            if host is None:
                yield doc.error("waw.leader-attach", "the platoon it is attached to does not exist", f"{ptr}/index",
                                "WaW 1.3.6")
                continue
            if key in seen:
                yield doc.error("waw.leader-attach", "a platoon already has a Leader or Hero attached", ptr,
                                "WaW 1.3.6")
            seen.add(key)
            hb = _card(index, host.unit)[1]
            if group == "heroes" and hb is not None and hb.unit_class not in INFANTRY_CLASSES:
                yield doc.error("waw.leader-attach", "a Hero attaches only to an infantry platoon", f"{ptr}/index",
                                "WaW 1.3.7")
    if ext.leaders:
        yield doc.info("waw.leader-in-game", "a Leader is in the game: Chaos results 11 and 13 are re-rolled",
                       "/extension/leaders", "WaW 11.0")


def _check_snipers(c: _Scenario) -> Iterator[Diagnostic]:
    """V35 snipers."""
    doc, ext, amap, tec, units = c.doc, c.ext, c.amap, c.tec, c.units
    for i, a in enumerate(ext.snipers):
        ptr = f"/extension/snipers/{i}"
        host = _unit_at(units, a.force, a.index)
        if host is None or a.hex is None or amap is None or host.hex is None:
            continue
        from studio.hexgrid.coords import distance
        if a.hex not in amap.hex_of or host.hex not in amap.hex_of:
            continue
        d = distance(amap.hex_of[a.hex], amap.hex_of[host.hex])
        code = amap.terrain.get(amap.hex_of[a.hex])
        db = (tec.get(code) or {}).get("db_infantry") or 0
        if d > 2 or not db:
            yield doc.error("waw.sniper-distance", "a sniper is at most 2 hexes from its unit, in a hex with an "
                            "infantry Defensive Bonus", f"{ptr}/hex", "WaW 1.3.8")


def _check_fortifications(c: _Scenario) -> Iterator[Diagnostic]:
    """V39."""
    doc, ext, area = c.doc, c.ext, c.area
    for key in ("improved_positions", "mines"):
        for k, label in enumerate(getattr(ext.fortifications, key)):
            if area is not None and label not in area:
                yield doc.error("waw.fortification-hex", f"{key.replace('_', ' ')} hex '{label}' is not in the "
                                "playable area", f"/extension/fortifications/{key}/{k}", "WaW 12.0")


def _check_start_smoke(c: _Scenario) -> Iterator[Diagnostic]:
    """V40."""
    doc, sc, ext = c.doc, c.sc, c.ext
    if ext.smoke and not sc.special_rules:
        yield doc.warning("waw.start-smoke", "Smoke at the start needs a special scenario rule", "/extension/smoke",
                          "WaW 8.2")


def _check_end_turn(c: _Scenario) -> Iterator[Diagnostic]:
    """V41."""
    doc, ext, rs = c.doc, c.ext, c.rs
    rules_et = _constant(rs, "end_turn_markers")
    if ext.cup.end_turn is not None and ext.cup.end_turn < 1:
        yield doc.error("waw.end-turn-count", "the cup needs End Turn markers; the second one ends the turn",
                        "/extension/cup/end_turn", "WaW 1.7.2")
    elif ext.cup.end_turn is not None and rules_et is not None and ext.cup.end_turn != rules_et:
        yield doc.warning("waw.end-turn-count", f"{ext.cup.end_turn} End Turn markers; the rules use {rules_et} "
                          "unless the scenario says otherwise", "/extension/cup/end_turn", "WaW 1.7.2, 13.0")


def _check_chaos_info(c: _Scenario) -> Iterator[Diagnostic]:
    """V43."""
    doc, ext = c.doc, c.ext
    if ext.cup.chaos:
        yield doc.info("waw.chaos", "a Chaos! marker is in the cup: the America Conquered Chaos table is used",
                       "/extension/cup/chaos", "WaW 11.0")


def _check_airstrikes(c: _Scenario) -> Iterator[Diagnostic]:
    """V44."""
    doc, ext = c.doc, c.ext
    for i, a in enumerate(ext.airstrikes):
        missing = [k for k in ("ap_fp", "he_fp", "to_hit", "armor", "save") if getattr(a, k) is None]
        if missing:
            yield doc.error("waw.airstrike-values", f"airstrike '{a.id}' needs {', '.join(missing)} (not in the "
                            "text: enter them)", f"/extension/airstrikes/{i}", "WaW 9.5")
    if ext.cup.air_cover and ext.cup.air_cover_aa_fp is None:
        yield doc.error("waw.airstrike-values", "an Air Cover marker needs its AA Firepower",
                        "/extension/cup/air_cover", "WaW 9.6")


def _check_chaos_counters(c: _Scenario) -> Iterator[Diagnostic]:
    """V45 / V46."""
    doc, ext, index, roles = c.doc, c.ext, c.index, c.roles
    nato = [s for s, r in roles.items() if r == "NATO"]
    if ext.cup.chaos:
        if not any(a.side in nato for a in ext.airstrikes):
            yield doc.warning("waw.chaos-airstrike", "Chaos 4 needs a NATO airstrike counter (else a 3-4 HE "
                              "mission is given)", "/extension/cup/chaos", "WaW 11.0 #4")
        classes = set()
        for card_id in index.ids("unit"):
            b = _card(index, card_id)[1]
            if b is not None:
                classes.add((b.side, b.unit_class))
        need = [("NATO", "sniper", "18"), ("Alliance", "leader", "11"), ("NATO", "leader", "13")]
        for side, cls, roll in need:
            if (side, cls) not in classes:
                yield doc.warning("waw.chaos-counters", f"Chaos {roll} needs a {side} {cls} counter, and the "
                                  "project has none", "/extension/cup/chaos", f"WaW 11.0 #{roll}")


def _check_jammed(c: _Scenario) -> Iterator[Diagnostic]:
    """V47."""
    doc, ext = c.doc, c.ext
    if ext.cup.jammed and not ext.cup.jammed_instructions:
        yield doc.warning("waw.jammed-instructions", "Jammed counters need placement instructions",
                          "/extension/cup/jammed", "WaW 10.0")


def _formula_ok(formula: str) -> bool:
    """'N x FH' with N >= 1 missions, F >= 1 Firepower and a Hit Number 1..6 (WaW 8.0)."""
    m = FORMULA.match(formula)
    return bool(m) and m.group(1) != "0" and m.group(2) != "0" and m.group(3) not in "0789"


def _has_caller(c: _Scenario, side: str) -> bool:
    """Some HQ, Leader or recon unit of ``side`` can call artillery (8.0, 1.3.4.4)."""
    for fid, us in c.units.items():
        if c.force_side.get(fid) != side:
            continue
        for u in us:
            b = _card(c.index, u.unit)[1]
            if b is not None and (b.unit_class in ("hq", "leader") or b.recon):
                return True
    return False


def _check_artillery(c: _Scenario) -> Iterator[Diagnostic]:
    """V19 / V20 / V48: artillery formulas, Chemical nationality (option c40), a caller."""
    doc, sc, ext = c.doc, c.sc, c.ext
    alliance_may = _option(sc, c.rs, "c40_chemical") == "alliance"     # option c40: any Alliance side
    for i, a in enumerate(ext.artillery):
        ptr = f"/extension/artillery/{i}"
        if not _formula_ok(a.formula):
            yield doc.error("waw.artillery-formula", f"'{a.formula}' is not 'N x FH' (N >= 1 missions, F >= 1 "
                            "Firepower, H 1..6 Hit Number)", f"{ptr}/formula", "WaW 8.0")
        side_nation = next((s.nation for s in sc.sides if s.id == a.side), "")
        if a.type == "Chemical" and "soviet" not in (a.nationality or side_nation).lower() and not (
                alliance_may and c.roles.get(a.side) == "Alliance"):
            yield doc.error("waw.chemical-soviet", "only the Soviets have Chemical artillery (option c40)",
                            f"{ptr}/type", "WaW 8.4")
        if not _has_caller(c, a.side) and not ext.leaders:
            yield doc.warning("waw.artillery-caller", f"side '{a.side}' has artillery but no HQ, recon unit or "
                              "Leader to call it", ptr, "WaW 8.0")


def _check_victory(c: _Scenario) -> Iterator[Diagnostic]:
    """V49."""
    doc, sc, side_ids, amap, area = c.doc, c.sc, c.side_ids, c.amap, c.area
    if sc.turns < 1:
        yield doc.error("waw.victory", "a scenario lasts at least one turn", "/turns", "WaW 13.0")
    vc_sides = {v.side for v in sc.victory}
    for s in side_ids:
        if s not in vc_sides:
            yield doc.error("waw.victory", f"side '{s}' has no victory condition", "/victory", "WaW 13.0")
    for i, v in enumerate(sc.victory):
        for k, label in enumerate(v.hexes):
            if area is not None and amap is not None and label in amap.hex_of and label not in area:
                yield doc.error("waw.victory", f"victory hex '{label}' is outside the playable area",
                                f"/victory/{i}/hexes/{k}", "WaW 13.0")


def _check_reinforcements(c: _Scenario) -> Iterator[Diagnostic]:
    """V50."""
    doc, force_ptr, forces, area = c.doc, c.force_ptr, c.forces, c.area
    for fid, f in forces.items():
        if f.entry is None:
            continue
        if not f.entry.hexes and f.entry.edge is None:
            yield doc.error("waw.reinforcement", f"force '{fid}' enters with no entry hexes", force_ptr[fid] +
                            "/entry", "WaW 13.0")
        for k, label in enumerate(f.entry.hexes):
            if area is not None and label not in area:
                yield doc.error("waw.reinforcement", f"entry hex '{label}' is outside the playable area",
                                f"{force_ptr[fid]}/entry/hexes/{k}", "WaW 13.0")


def _check_roles(c: _Scenario) -> Iterator[Diagnostic]:
    """V19/V2x: roles."""
    doc, ext, side_ids = c.doc, c.ext, c.side_ids
    for i, r in enumerate(ext.roles):
        if r.side not in side_ids:
            yield doc.error("waw.roles", f"role names side '{r.side}', which does not exist",
                            f"/extension/roles/{i}/side", "WaW 11.0")


SCENARIO_PARTS = (_check_formations, _check_setup_hexes, _check_placements, _check_passengers, _check_support_weapons,
                  _check_leaders, _check_snipers, _check_fortifications, _check_start_smoke, _check_end_turn,
                  _check_chaos_info, _check_airstrikes, _check_chaos_counters, _check_jammed, _check_artillery,
                  _check_victory, _check_reinforcements, _check_roles)


def check_scenario(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """The World at War scenario checks (digest V9-V50), one function per rule group."""
    c = _scenario_context(doc, index)
    if c is None:
        return
    for part in SCENARIO_PARTS:
        yield from part(c)


def _unit_at(units, force: str, index: int):
    us = units.get(force) or []
    return us[index] if 0 <= index < len(us) else None


CHECKS = {"unit": [check_unit], "toe": [check_toe], "scenario": [check_scenario]}
