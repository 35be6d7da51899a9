"""Static checks of the Assault digest, section d (checks 1-32). Codes are stable: ``assault.<name>``.

Unit checks (d.1-11) read one counter type; organisation checks (d.12-18) read a TO&E with its slot
designations; scenario checks (d.19-32) read a scenario with its forces expanded (``studio.model.forces``) and
its extension block. One function per rule check; each finding names its rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from studio.model.diagnostics import Diagnostic
from studio.model.forces import expand_force
from studio.model.project import LoadedDocument, ProjectIndex

from .cards import ANTI_ARMOUR, AssaultCounter
from .designations import parse

PAIR = re.compile(r"^(\d{1,2}):(\d{1,2})$")
VEHICLE = ("T", "W", "R")
SIZE_STEPS = {"platoon": "platoon-steps", "section": "section-steps"}
ENTRY_EDGE = {"soviet": "east", "us": "west"}   # Assault 24.A
RATING_POSITIONS = {"us": "us-battalions", "soviet": "soviet-battalions"}   # Assault 4.B.2


def _body(doc: LoadedDocument) -> AssaultCounter | None:
    body = getattr(doc.model, "body", None)
    return body if isinstance(body, AssaultCounter) else None


def _card(index: ProjectIndex, unit_id: str) -> AssaultCounter | None:
    body = getattr(index.model("unit", unit_id), "body", None)
    return body if isinstance(body, AssaultCounter) else None


def _table(rs, table_id: str):
    if rs is None:
        return None
    try:
        return rs.table(table_id)
    except KeyError:
        return None


def _constant(rs, name: str, default: int) -> int:
    """A value of the ruleset's ``constants`` table (``default`` when the ruleset or row is missing)."""
    t = _table(rs, "constants")
    for row in (t.rows if t else []):
        if row and row[0] == name and isinstance(row[1], int) and not isinstance(row[1], bool):
            return row[1]
    return default


def _range_columns(rs) -> int | None:
    t = _table(rs, "fire-ranges")
    return len(t.rows) if t else None


# ------------------------------------------------------------------ d.1-11 unit / counter type

def check_unit(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """The Assault counter checks (digest d.1-11), one function per check."""
    b = _body(doc)
    if b is None:
        return
    rs = index.model("ruleset", doc.model.ruleset)
    for part in (_check_steps, _check_mobility, _check_transport, _check_armour, _check_fire_rows,
                 _check_ammo_pool, _check_is, _check_indirect, _check_thermal, _check_asterisk, _check_call_fire):
        yield from part(doc, b, rs)


def _check_steps(doc, b, rs) -> Iterator[Diagnostic]:
    """d.1: a platoon has 2 steps, a section 1 (Assault 1.C)."""
    want = _constant(rs, SIZE_STEPS[b.size], 2 if b.size == "platoon" else 1)
    if b.steps != want:
        yield doc.error("assault.steps", f"a {b.size} has {want} step(s), not {b.steps}", "/body/steps",
                        "Assault 1.C")


def _check_mobility(doc, b, rs) -> Iterator[Diagnostic]:
    """d.2: amphibious only for vehicles; a movement allowance for T/W/R and none for L/S (Assault 7.D, 7.E.1)."""
    vehicle = b.mobility in VEHICLE
    if b.amphibious and not vehicle:
        yield doc.error("assault.amphibious", f"only vehicle units (T, W, R) are amphibious, not mobility "
                        f"{b.mobility}", "/body/amphibious", "Assault 7.E.1")
    if vehicle and b.movement_allowance is None:
        yield doc.error("assault.movement-allowance", f"a vehicle unit (mobility {b.mobility}) needs a movement "
                        "allowance", "/body/mobility", "Assault 7.D")
    if not vehicle and b.movement_allowance is not None:
        yield doc.error("assault.movement-allowance", f"leg and static units (mobility {b.mobility}) have no "
                        "movement allowance", "/body/movement_allowance", "Assault 7.D")


def _check_transport(doc, b, rs) -> Iterator[Diagnostic]:
    """d.3: only vehicles carry (a transport circle on a leg or static unit) (Assault 8.A-B)."""
    if b.transport != "none" and b.mobility not in VEHICLE:
        yield doc.error("assault.transport", f"a {b.mobility} unit cannot carry units; only vehicles have a "
                        "transport circle", "/body/transport", "Assault 8.A")


def _check_armour(doc, b, rs) -> Iterator[Diagnostic]:
    """d.4: AFVs have front/flank armour; chobham and laminate appear in the hit confirmation table (13.B)."""
    if b.defence_class == "afv" and b.armour is None:
        yield doc.error("assault.armour", "an AFV needs frontal and flank armour values", "/body/defence_class",
                        "Assault 13.B.2")
    if b.defence_class != "afv" and b.armour is not None:
        yield doc.warning("assault.armour", f"armour on a {b.defence_class}-class unit is never read (only AFVs "
                          "take anti-armour fire)", "/body/armour", "Assault 13")
    t = _table(rs, "hit-confirmation")
    if b.armour is None or t is None:
        return
    known = {row[0] for row in t.rows if row}
    for aspect in ("front_type", "flank_type"):
        kind = getattr(b.armour, aspect)
        if kind not in known:
            yield doc.error("assault.armour-type", f"armour type '{kind}' is not in table hit-confirmation",
                            f"/body/armour/{aspect}", "Assault 13.B.3")


def _check_fire_rows(doc, b, rs) -> Iterator[Diagnostic]:
    """d.5: ROF >= 1; anti-armour cells 'hit:pen' or X, conventional cells numbers or X; one per range column."""
    columns = _range_columns(rs)
    for i, row in enumerate(b.direct_fire):
        ptr = f"/body/direct_fire/{i}"
        if row.rof < 1:
            yield doc.error("assault.rof", f"{row.ammo} fire row has ROF {row.rof}; every row fires at least once",
                            f"{ptr}/rof", "Assault 12.D")
        if columns is not None and len(row.cells) != columns:
            yield doc.error("assault.fire-cells", f"{row.ammo} row has {len(row.cells)} cells but table "
                            f"fire-ranges has {columns} range columns", f"{ptr}/cells", "Assault 12.B.1")
        for k, cell in enumerate(row.cells):
            problem = _cell_problem(row.ammo, cell)
            if problem:
                yield doc.error("assault.fire-cell", problem, f"{ptr}/cells/{k}", "Assault 13, 14")
                break


def _cell_problem(ammo: str, cell) -> str:
    """Why ``cell`` is not a valid fire-chart entry for ``ammo`` ('' when it is)."""
    if cell == "X":
        return ""
    if ammo in ANTI_ARMOUR:
        ok = isinstance(cell, str) and PAIR.match(cell)
        return "" if ok else f"{ammo} is anti-armour ammunition: a cell is 'hit:penetration' or X, not {cell!r}"
    ok = isinstance(cell, int) and not isinstance(cell, bool) and cell >= 0
    return "" if ok else f"{ammo} is conventional ammunition: a cell is a fire value or X, not {cell!r}"


def _check_ammo_pool(doc, b, rs) -> Iterator[Diagnostic]:
    """d.6: a shared ammunition supply names at least two rows (the M-1's TP and HE, Assault 12.C.2.a, 23.A)."""
    uses: dict[str, list[int]] = {}
    for i, row in enumerate(b.direct_fire):
        if row.ammo_pool:
            uses.setdefault(row.ammo_pool, []).append(i)
    for pool, rows in uses.items():
        if len(rows) == 1:
            yield doc.warning("assault.ammo-pool", f"ammunition pool '{pool}' is used by one row only; a shared "
                              "supply joins two ammunition types", f"/body/direct_fire/{rows[0]}/ammo_pool",
                              "Assault 23.A")


def _check_is(doc, b, rs) -> Iterator[Diagnostic]:
    """d.7: IS against AFVs needs an anti-armour row to take its hit number from (Assault 13.C)."""
    ammo = [r.ammo for r in b.direct_fire]
    if "IS" in ammo and not any(a in ANTI_ARMOUR for a in ammo):
        yield doc.warning("assault.is-hit-number", "IS ammunition takes its hit number against AFVs from the "
                          "least accurate anti-armour round, and this unit has none",
                          f"/body/direct_fire/{ammo.index('IS')}", "Assault 13.C")


def _check_indirect(doc, b, rs) -> Iterator[Diagnostic]:
    """d.8: range > 0, max ROF >= 1, ICM and CLGP U.S. only (CLGP 155 mm), smoke with screens (19, 22)."""
    f = b.indirect_fire
    if f is None:
        return
    ptr = "/body/indirect_fire"
    if f.range_hexes < 1:
        yield doc.error("assault.indirect-range", "an indirect fire unit needs a range of at least 1 hex",
                        f"{ptr}/range_hexes", "Assault 19.F")
    if f.max_rof_multiplier < 1:
        yield doc.error("assault.max-rof", "the max ROF multiplier is at least 1", f"{ptr}/max_rof_multiplier",
                        "Assault 19.D.1")
    if f.icm_multiplier is not None and b.side != "us":
        yield doc.error("assault.icm", "only U.S. weapons fire ICM", f"{ptr}/icm_multiplier", "Assault 19.D.2")
    if f.clgp and (b.side != "us" or f.calibre_mm != 155):
        yield doc.error("assault.clgp", "only U.S. 155 mm howitzers fire CLGP", f"{ptr}/clgp", "Assault 22.A")
    if f.smoke and not f.smoke_screens:
        yield doc.error("assault.smoke-screens", "a unit firing smoke needs its screens per step per turn",
                        f"{ptr}/smoke", "Assault 19.D.3")


def _check_thermal(doc, b, rs) -> Iterator[Diagnostic]:
    """d.9: thermal sights only on U.S. units; the Dragon-only scope on U.S. infantry (Assault 20.B.2)."""
    if b.thermal_sights == "none":
        return
    if b.side != "us":
        yield doc.error("assault.thermal", "only U.S. units have thermal sights (M-1, M-2, M-3, M-901 and "
                        "infantry with Dragons)", "/body/thermal_sights", "Assault 20.B.2")
    elif (b.thermal_sights == "dragon-only") != b.infantry:
        want = "dragon-only" if b.infantry else "full"
        yield doc.error("assault.thermal", f"this unit's thermal sights are '{want}' (Dragon-only is the U.S. "
                        "infantry scope)", "/body/thermal_sights", "Assault 20.B.2")


def _check_asterisk(doc, b, rs) -> Iterator[Diagnostic]:
    """d.10: recon, HQ, OP and TOC units carry the asterisk; an asterisk line unit is recon (4.D.1, 10.D)."""
    if b.role != "line" and not b.asterisk:
        yield doc.error("assault.asterisk", f"a {b.role} unit carries the asterisk", "/body/asterisk",
                        "Assault 4.D.1")
    if b.role == "line" and b.asterisk:
        yield doc.error("assault.asterisk", "an asterisk unit that is not an HQ, OP or TOC is a recon unit: set "
                        "role recon", "/body/role", "Assault 10.D")


def _check_call_fire(doc, b, rs) -> Iterator[Diagnostic]:
    """d.11: Soviet observers are HQ and OP units (and IF units for themselves) (Assault 19.B.2)."""
    if b.can_call_fire and b.side == "soviet" and b.role not in ("hq", "op") and b.indirect_fire is None:
        yield doc.error("assault.call-fire", "only Soviet HQ and OP units call indirect fire",
                        "/body/can_call_fire", "Assault 19.B.2")
    if b.can_call_fire is False and b.side == "us":
        yield doc.warning("assault.call-fire", "every U.S. unit may call indirect fire", "/body/can_call_fire",
                          "Assault 19.B.2")


# ------------------------------------------------------------------ d.12-18 organisation (TO&E)

@dataclass(frozen=True)
class _Slot:
    pointer: str
    designation: str | None
    card: AssaultCounter | None
    unit: str


def _slots(toe, index) -> list[_Slot]:
    """Every slot of the TO&E's own echelons (not templates), with its pointer and card."""
    out = []
    for pointer, ech in toe.root.walk():
        for i, s in enumerate(ech.slots):
            out.append(_Slot(f"{pointer}/slots/{i}", s.designation, _card(index, s.unit), s.unit))
    return out


def check_toe(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """The Assault organisation checks (digest d.12-15) on a TO&E."""
    slots = _slots(doc.model, index)
    yield from _check_designations(doc, slots)
    yield from _check_us_org(doc, slots)
    yield from _check_hq_transport(doc, slots)


def _side(slot: _Slot) -> str | None:
    return slot.card.side if slot.card else None


def _check_designations(doc, slots: list[_Slot]) -> Iterator[Diagnostic]:
    """d.12-14: every counter's designation follows its side's grammar (Assault 3.B, 3.C)."""
    for s in slots:
        side = _side(s)
        if side is None:
            continue
        if not s.designation:
            yield doc.error("assault.designation", f"counter '{s.unit}' has no designation", s.pointer,
                            "Assault 3")
        elif parse(side, s.designation) is None:
            grammar = "U.S. (2C1, M3, 1M2, 3S1, 7AT3, TOC1, HQE2, HQ2)" if side == "us" else \
                "Soviet (C3, AT6, AT-91, HQ3, HQ91, TOC91)"
            yield doc.error("assault.designation", f"'{s.designation}' is not a {grammar} designation",
                            f"{s.pointer}/designation", "Assault 3.B" if side == "us" else "Assault 3.C")


def _check_us_org(doc, slots: list[_Slot]) -> Iterator[Diagnostic]:
    """d.13: a U.S. line platoon's company HQ is in the TO&E; a battalion's HQ and TOC too (Assault 3.A-B)."""
    parsed = [(s, parse("us", s.designation or "")) for s in slots if _side(s) == "us"]
    present = {s.designation for s, d in parsed if d is not None}
    battalion_units = any(d and d.role in ("mortar", "scout", "at", "toc") for _, d in parsed)
    for s, d in parsed:
        if d is None:
            continue
        need = []
        if d.role == "line":
            need.append(f"HQ{d.company}{d.battalion}")
        if battalion_units and d.role in ("mortar", "scout", "at"):
            need += [f"HQ{d.battalion}", f"TOC{d.battalion}"]
        for hq in need:
            if hq not in present:
                yield doc.error("assault.us-org", f"'{s.designation}' is subordinate to '{hq}', which this TO&E "
                                "does not hold", f"{s.pointer}/designation", "Assault 3.A")
                present.add(hq)   # report each missing HQ once


def _check_hq_transport(doc, slots: list[_Slot]) -> Iterator[Diagnostic]:
    """d.15: an HQ transport is an APC carrying the HQ of the same designation (Assault 3.B.5)."""
    hqs = {s.designation for s in slots if s.card and s.card.role == "hq" and not s.card.hq_transport}
    for s in slots:
        if not (s.card and s.card.hq_transport):
            continue
        if s.designation not in hqs:
            yield doc.error("assault.hq-transport", f"HQ transport '{s.designation}' has no HQ counter of the same "
                            "designation", f"{s.pointer}/designation", "Assault 3.B.5")
        if not s.card.apc:
            yield doc.error("assault.hq-transport", f"the HQ transport '{s.unit}' is not an APC (M-2 or M-113)",
                            f"{s.pointer}/unit", "Assault 3.B.5")


# ------------------------------------------------------------------ d.19-32 scenario

@dataclass
class _Scenario:
    """What the scenario checks share."""

    doc: LoadedDocument
    sc: object
    ext: object
    index: ProjectIndex
    rs: object
    side_of: dict          # force id -> side id
    counters: dict         # '<force>/<slot path>[/<n>]' -> (card body or None, designation or None)


def _counter_keys(force, index) -> dict:
    """The extension keys of a force's counters (digest b.3): '<force>/<slot path>' or with '/<n>'."""
    toe = index.model("toe", force.toe)
    if toe is None:
        return {}
    paths = expand_force(force, index)
    counts: dict[str, int] = {}
    for fu in paths:
        counts[fu.path] = counts.get(fu.path, 0) + 1
    slots = {f"{p}/{s.id}": s for p, s in _slot_paths(toe.root, "")}
    out = {}
    for fu in paths:
        short = fu.path.split("/", 1)[1] if "/" in fu.path else fu.path
        key = f"{force.id}/{short}" + (f"/{fu.copy + 1}" if counts[fu.path] > 1 else "")
        slot = slots.get(fu.path)
        out[key] = (_card(index, fu.unit), slot.designation if slot else None)
    return out


def _slot_paths(ech, prefix: str):
    here = f"{prefix}{ech.id}"
    for s in ech.slots:
        yield here, s
    for child in ech.children:
        yield from _slot_paths(child, here + "/")


def _context(doc: LoadedDocument, index: ProjectIndex) -> _Scenario | None:
    sc = doc.model
    if not hasattr(sc.extension, "force_levels"):
        return None
    side_of, counters = {}, {}
    for side in sc.sides:
        for f in side.forces:
            side_of[f.id] = side.id
            counters.update(_counter_keys(f, index))
    return _Scenario(doc, sc, sc.extension, index, index.model("ruleset", sc.ruleset), side_of, counters)


def check_scenario(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """The Assault scenario checks (digest d.19-32), one function per check."""
    c = _context(doc, index)
    if c is None:
        return
    for part in SCENARIO_PARTS:
        yield from part(c)


def _check_force_levels(c: _Scenario) -> Iterator[Diagnostic]:
    """d.20: six force levels 1..6 per side, naming the side's own forces (Assault 24.B)."""
    want = _constant(c.rs, "force-levels", 6)
    for side in c.sc.sides:
        levels = c.ext.force_levels.get(side.id)
        if levels is None:
            yield c.doc.error("assault.force-levels", f"side '{side.id}' has no force levels (it draws one of "
                              f"{want})", "/extension/force_levels", "Assault 24.B")
            continue
        numbers = sorted(lv.level for lv in levels)
        if numbers != list(range(1, want + 1)):
            yield c.doc.error("assault.force-levels", f"side '{side.id}' has force levels {numbers}; it needs "
                              f"exactly 1..{want}", f"/extension/force_levels/{side.id}", "Assault 24.B")
        yield from _check_level_forces(c, side.id, levels)
    for side_id in c.ext.force_levels:
        if side_id not in {s.id for s in c.sc.sides}:
            yield c.doc.error("assault.force-levels", f"force levels for unknown side '{side_id}'",
                              f"/extension/force_levels/{side_id}", "Assault 24.B")


def _check_level_forces(c: _Scenario, side_id: str, levels) -> Iterator[Diagnostic]:
    for i, lv in enumerate(levels):
        ptr = f"/extension/force_levels/{side_id}/{i}"
        named = [(f"{ptr}/forces/{k}", f) for k, f in enumerate(lv.forces)]
        for r, rf in enumerate(lv.reinforcements):
            named += [(f"{ptr}/reinforcements/{r}/forces/{k}", f) for k, f in enumerate(rf.forces)]
        for p, f in named:
            if c.side_of.get(f) != side_id:
                yield c.doc.error("assault.force-levels", f"force '{f}' is not a force of side '{side_id}'", p,
                                  "Assault 24.B")


def _check_entry_edges(c: _Scenario) -> Iterator[Diagnostic]:
    """d.21: Soviet reinforcements enter from the east, U.S. from the west (Assault 24.A)."""
    for side_id, levels in c.ext.force_levels.items():
        edge = ENTRY_EDGE.get(side_id)
        for i, lv in enumerate(levels):
            for r, rf in enumerate(lv.reinforcements):
                if edge and rf.edge and rf.edge != edge:
                    yield c.doc.error("assault.entry-edge", f"{side_id} units enter from the {edge}, not the "
                                      f"{rf.edge}", f"/extension/force_levels/{side_id}/{i}/reinforcements/{r}/edge",
                                      "Assault 24.A")
                if rf.turn > c.sc.turns:
                    yield c.doc.error("assault.entry-turn", f"reinforcement turn {rf.turn} is after the last "
                                      f"turn ({c.sc.turns})",
                                      f"/extension/force_levels/{side_id}/{i}/reinforcements/{r}/turn",
                                      "Assault 24.B")


def _check_wind(c: _Scenario) -> Iterator[Diagnostic]:
    """d.23: rolled wind needs the direction and velocity tables; fixed wind names both (Assault 20.A)."""
    if c.ext.wind_rolled:
        for t in ("wind-direction", "wind-velocity"):
            if c.rs is not None and _table(c.rs, t) is None:
                yield c.doc.error("assault.wind", f"the wind is rolled but ruleset '{c.rs.id}' has no table {t}",
                                  "/extension/wind_rolled", "Assault 20.A")
        return
    wind = c.sc.environment.wind
    if wind.strength == "calm" or wind.direction == "none":
        yield c.doc.error("assault.wind", "a scenario that does not roll the wind gives its direction and a "
                          "light, moderate or strong velocity", "/environment/wind", "Assault 20.A.2")


def _check_off_board_artillery(c: _Scenario) -> Iterator[Diagnostic]:
    """d.24: an indirect fire type, on-map range > 0, a Soviet command level, full strength (19.B.3, 19.C.2, 19.F)."""
    for i, art in enumerate(c.ext.off_board_artillery):
        ptr = f"/extension/off_board_artillery/{i}"
        card = _card(c.index, art.unit)
        if card is None:
            continue
        if card.indirect_fire is None:
            yield c.doc.error("assault.off-board-artillery", f"'{art.unit}' has no indirect fire row",
                              f"{ptr}/unit", "Assault 19.A")
        elif art.hexes_off_board >= card.indirect_fire.range_hexes:
            yield c.doc.error("assault.off-board-artillery", f"'{art.unit}' {art.hexes_off_board} hexes off the "
                              f"map cannot reach it (range {card.indirect_fire.range_hexes})",
                              f"{ptr}/hexes_off_board", "Assault 19.F")
        if art.side == "soviet" and art.command_level is None:
            yield c.doc.error("assault.off-board-artillery", "Soviet off-board artillery needs its command level",
                              ptr, "Assault 19.B.3")
        if art.steps != _constant(c.rs, "offboard-steps", 2):
            yield c.doc.error("assault.off-board-artillery", "off-board artillery is always full strength",
                              f"{ptr}/steps", "Assault 19.C.2")


def _check_off_board_ops(c: _Scenario) -> Iterator[Diagnostic]:
    """d.25: off-board OPs per movement phase, one value per turn (Assault 24.D)."""
    for side_id, ops in c.ext.off_board_ops.items():
        if len(ops) != c.sc.turns:
            yield c.doc.error("assault.off-board-ops", f"side '{side_id}' lists off-board OPs for {len(ops)} "
                              f"turns; the scenario has {c.sc.turns}", f"/extension/off_board_ops/{side_id}",
                              "Assault 24.D")


def _banned_entrenchment_terrain(c: _Scenario) -> set[str]:
    """Terrain codes where no entrenchment may be placed: marsh, and swamp under option c8 'same' (Assault 18)."""
    same = c.sc.options.get("c8-marsh-swamp", _default(c.rs, "c8-marsh-swamp")) == "same"
    ids = {"marsh", "swamp"} if same else {"marsh"}
    return {t.code for t in (c.rs.terrain if c.rs else []) if t.id in ids}


def _default(rs, option_id: str):
    for o in (rs.options if rs else []):
        if o.id == option_id:
            return o.default
    return None


def _terrain_at(c: _Scenario):
    from studio.model.maps import assemble_scenario
    try:
        amap = assemble_scenario(c.sc, c.index)
    except Exception:
        return None
    return lambda label: amap.terrain.get(amap.hex_of[label]) if label in amap.hex_of else None


def _check_entrenchments(c: _Scenario) -> Iterator[Diagnostic]:
    """d.27: no more entrenchments than allowed, none in marsh (Assault 18)."""
    banned = _banned_entrenchment_terrain(c)
    terrain = _terrain_at(c)
    for side_id, e in c.ext.entrenchments.items():
        ptr = f"/extension/entrenchments/{side_id}"
        if len(e.hexes) > e.count:
            yield c.doc.error("assault.entrenchments", f"{len(e.hexes)} entrenchments placed but side "
                              f"'{side_id}' has {e.count}", f"{ptr}/hexes", "Assault 18")
        for k, h in enumerate(e.hexes):
            if terrain is not None and terrain(h) in banned:
                yield c.doc.error("assault.entrenchments", f"no entrenchment may be placed in marsh ({h})",
                                  f"{ptr}/hexes/{k}", "Assault 18")


def _check_counters(c: _Scenario) -> Iterator[Diagnostic]:
    """d.28: set-up states name counters; cover in combat formation only; carriers able to carry them (7.G, 8)."""
    carriers = {}
    for key, (card, desig) in c.counters.items():
        if card and card.transport != "none" and desig:
            carriers.setdefault(desig, []).append(card)
    for key, st in c.ext.counters.items():
        ptr = "/extension/counters/" + key.replace("~", "~0").replace("/", "~1")
        if key not in c.counters:
            yield c.doc.error("assault.counter-key", f"'{key}' is not a counter of the scenario's forces",
                              ptr, "Assault 24")
            continue
        card = c.counters[key][0]
        if st.cover and st.formation != "combat":
            yield c.doc.error("assault.cover", "only units in combat formation may be in cover", f"{ptr}/cover",
                              "Assault 7.G")
        if st.carrier is not None:
            yield from _check_carrier(c, ptr, card, st, carriers.get(st.carrier, []))


def _check_carrier(c: _Scenario, ptr: str, card, st, carriers: list) -> Iterator[Diagnostic]:
    """d.28: a carried unit is leg or static, the circle fits it, it is not deployed, steps <= carrier steps."""
    if not carriers:
        yield c.doc.error("assault.carrier", f"no transport counter with designation '{st.carrier}'",
                          f"{ptr}/carrier", "Assault 8.B")
        return
    if card is None:
        return
    if card.mobility not in ("L", "S"):
        yield c.doc.error("assault.carrier", "only leg and static units are transported", f"{ptr}/carrier",
                          "Assault 8.A")
    elif card.mobility == "S" and not any(k.transport == "filled" for k in carriers):
        yield c.doc.error("assault.carrier", "a static unit needs a filled transport circle", f"{ptr}/carrier",
                          "Assault 8.B")
    elif card.steps > max(k.steps for k in carriers):
        yield c.doc.error("assault.carrier", f"{card.steps} steps exceed the carrier's capacity (its steps)",
                          f"{ptr}/carrier", "Assault 8.B")
    if st.deployed:
        yield c.doc.error("assault.carrier", "a deployed unit cannot be mounted", f"{ptr}/deployed",
                          "Assault 8.C")


def _check_dummies(c: _Scenario) -> Iterator[Diagnostic]:
    """d.30: dummies belong to a side of the scenario (Assault 10.F)."""
    sides = {s.id for s in c.sc.sides}
    for side_id in c.ext.dummies:
        if side_id not in sides:
            yield c.doc.error("assault.dummies", f"dummies for unknown side '{side_id}'",
                              f"/extension/dummies/{side_id}", "Assault 10.F")


def _check_timetable(c: _Scenario) -> Iterator[Diagnostic]:
    """d.31: timetable entries only when enabled; turn <= turns; a known firing unit; a hex or 'on call' (21)."""
    tt = c.ext.fire_timetable
    if tt.entries and not tt.enabled:
        yield c.doc.error("assault.timetable", "the fire timetable has entries but the scenario does not enable "
                          "it", "/extension/fire_timetable/enabled", "Assault 21")
    firing = {a.id for a in c.ext.off_board_artillery if a.side == "soviet"}
    firing |= {d for card, d in c.counters.values() if card and card.indirect_fire and card.side == "soviet"}
    for i, e in enumerate(tt.entries):
        ptr = f"/extension/fire_timetable/entries/{i}"
        if e.turn > c.sc.turns:
            yield c.doc.error("assault.timetable", f"turn {e.turn} is after the last turn ({c.sc.turns})",
                              f"{ptr}/turn", "Assault 21")
        if e.unit not in firing:
            yield c.doc.error("assault.timetable", f"'{e.unit}' is not a Soviet indirect fire unit of the "
                              "scenario", f"{ptr}/unit", "Assault 21")
        if e.hex is None and not e.on_call:
            yield c.doc.error("assault.timetable", "an entry names a target hex or is 'on call'", ptr,
                              "Assault 21")


def _check_battalions(c: _Scenario) -> Iterator[Diagnostic]:
    """d.32: rating positions U.S. 1-3, Soviet 1-5, each battalion once; Soviet battalions in play have a regiment."""
    for side_id, ratings in c.ext.battalions.items():
        ptr = f"/extension/battalions/{side_id}"
        top = _constant(c.rs, RATING_POSITIONS.get(side_id, ""), 5)
        seen, bns = set(), set()
        for i, r in enumerate(ratings):
            if r.position > top or r.position in seen:
                yield c.doc.error("assault.battalions", f"rating position {r.position} is repeated or above "
                                  f"{top}", f"{ptr}/{i}/position", "Assault 4.B.2")
            if r.battalion is not None and r.battalion in bns:
                yield c.doc.error("assault.battalions", f"battalion {r.battalion} has two rating positions",
                                  f"{ptr}/{i}/battalion", "Assault 4.B.2")
            seen.add(r.position)
            bns.add(r.battalion)
    yield from _check_soviet_regiments(c)


def _check_soviet_regiments(c: _Scenario) -> Iterator[Diagnostic]:
    """d.14/d.32: every Soviet battalion in play is mapped to its regiment (Assault 3.A)."""
    mapped = {r.battalion for r in c.ext.battalions.get("soviet", []) if r.regiment is not None}
    reported = set()
    for key, (card, desig) in c.counters.items():
        d = parse("soviet", desig or "") if card and card.side == "soviet" else None
        if d and d.battalion is not None and d.battalion not in mapped and d.battalion not in reported:
            reported.add(d.battalion)
            force = key.split("/", 1)[0]
            yield c.doc.error("assault.regiment-mapping", f"Soviet battalion {d.battalion} ('{desig}' in force "
                              f"'{force}') has no regiment in extension battalions", "/extension/battalions",
                              "Assault 3.A")


def _hq_designations(c: _Scenario) -> dict[str, str]:
    """Designation -> side of every HQ counter (not HQ transports) in the scenario's forces."""
    return {d: card.side for card, d in c.counters.values()
            if card and d and card.role == "hq" and not card.hq_transport}


def _platoon_equivalents(c: _Scenario, designation: str) -> float:
    """Platoons a cross-attachment moves: a section is a third of a platoon (Assault 4.C.4)."""
    cards = [card for card, d in c.counters.values() if card and d == designation]
    return sum(1.0 if card.size == "platoon" else 1 / 3 for card in cards)


def _attachment_limit(receiver, constant) -> float | None:
    """Platoon equivalents an HQ may receive (Assault 4.C.4), from the ruleset's constants (``constant(key)``):
    U.S. company HQ ``cross-attach-us-company``, U.S. battalion ``cross-attach-us-battalion``, Soviet battalion
    ``cross-attach-soviet-battalion``; None: no limit stated (Soviet regiment, digest d.17)."""
    if receiver is None:
        return None
    if receiver.side == "us":
        return constant("cross-attach-us-company" if receiver.role == "company-hq" else "cross-attach-us-battalion")
    return constant("cross-attach-soviet-battalion") if receiver.role == "battalion-hq" else None


def _check_cross_attachments(c: _Scenario) -> Iterator[Diagnostic]:
    """d.17: cross-attach to an HQ in play, within the platoon limits of Assault 4.C.4."""
    hqs = _hq_designations(c)
    load: dict[str, float] = {}
    for unit, hq in c.ext.cross_attachments.items():
        ptr = "/extension/cross_attachments/" + unit.replace("~", "~0").replace("/", "~1")
        if hq not in hqs:
            yield c.doc.error("assault.cross-attach", f"'{hq}' is not an HQ counter of the scenario", ptr,
                              "Assault 4.C.4")
            continue
        if _platoon_equivalents(c, unit) == 0:
            yield c.doc.error("assault.cross-attach", f"no counter has designation '{unit}'", ptr, "Assault 4.C.4")
            continue
        load[hq] = load.get(hq, 0.0) + _platoon_equivalents(c, unit)
        limit = _attachment_limit(parse(hqs[hq], hq), lambda key: _constant(c.rs, key, 0))
        if limit and load[hq] > limit + 1e-9:  # a missing row (0) is reported by the engine-table check
            yield c.doc.error("assault.cross-attach", f"'{hq}' receives {load[hq]:g} platoons; at most {limit} "
                              "(3 sections = 1 platoon, 3 platoons = 1 company)", ptr, "Assault 4.C.4")


def _check_designators(c: _Scenario) -> Iterator[Diagnostic]:
    """d.18: one laser designator per U.S. company, a counter of that company (Assault 22.C)."""
    present = {d for card, d in c.counters.values() if card and card.side == "us"}
    for company, desig in c.ext.designators.items():
        ptr = f"/extension/designators/{company}"
        d = parse("us", desig)
        if desig not in present or d is None or f"{d.company}{d.battalion}" != company:
            yield c.doc.error("assault.designator", f"'{desig}' is not a U.S. counter of company '{company}'",
                              ptr, "Assault 22.C")


def _check_objectives(c: _Scenario) -> Iterator[Diagnostic]:
    """d.26: hold-hex objectives are towns (Assault 24.E: towns captured)."""
    terrain = _terrain_at(c)
    towns = {t.code for t in (c.rs.terrain if c.rs else []) if t.id in ("town", "urban-strip")}
    if terrain is None:
        return
    for i, v in enumerate(c.sc.victory):
        if v.type != "hold_hexes":
            continue
        for k, h in enumerate(v.hexes):
            if terrain(h) is not None and terrain(h) not in towns:
                yield c.doc.warning("assault.objective", f"objective hex {h} is not a town or urban strip hex",
                                    f"/victory/{i}/hexes/{k}", "Assault 24.E")


def _terrain_rows(rs) -> dict:
    t = _table(rs, "terrain-effects")
    return {row[0]: dict(zip(t.columns, row)) for row in t.rows} if t else {}


def _entry_cost(rows: dict, terrain_id: str, card, formation: str):
    """The terrain-effects cell for a unit entering ``terrain_id`` (Assault 7.B, 7.E); None for static units."""
    row = rows.get(terrain_id)
    if row is None or card.mobility == "S":
        return None
    if card.mobility == "L":
        return row.get("leg_roll")
    cell = row.get(f"{card.mobility.lower()}_{formation}")
    return None if cell == "P" and card.amphibious and row.get("amphibious") is True else cell


def _check_setup_terrain(c: _Scenario) -> Iterator[Diagnostic]:
    """d.29: no counter sets up in terrain prohibited (P) to its mobility class (Assault 7.B)."""
    terrain = _terrain_at(c)
    rows = _terrain_rows(c.rs)
    by_code = {t.code: t.id for t in (c.rs.terrain if c.rs else [])}
    if terrain is None or not rows:
        return
    for si, side in enumerate(c.sc.sides):
        for fi, force in enumerate(side.forces):
            if force.setup is None or not force.setup.hexes:
                continue
            keys = [k for k in c.counters if k.split("/", 1)[0] == force.id]
            for n, key in enumerate(keys):
                hexes = force.setup.hexes
                k = min(n, len(hexes) - 1)
                card = c.counters[key][0]
                state = c.ext.counters.get(key)
                formation = state.formation if state else "combat"
                if card and _entry_cost(rows, by_code.get(terrain(hexes[k])), card, formation) == "P":
                    yield c.doc.error("assault.setup-terrain", f"{card.mobility} unit '{key}' cannot set up in "
                                      f"{by_code.get(terrain(hexes[k]))} ({hexes[k]})",
                                      f"/sides/{si}/forces/{fi}/setup/hexes/{k}", "Assault 7.B")


SCENARIO_PARTS = (_check_force_levels, _check_entry_edges, _check_wind, _check_off_board_artillery,
                  _check_off_board_ops, _check_entrenchments, _check_counters, _check_dummies, _check_timetable,
                  _check_battalions, _check_cross_attachments, _check_designators, _check_objectives,
                  _check_setup_terrain)

CHECKS = {"unit": [check_unit], "toe": [check_toe], "scenario": [check_scenario]}
