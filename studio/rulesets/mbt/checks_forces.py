"""Static checks of MBT Advanced Game forces, TO&Es and scenario extensions (rules digest d.3: V47, V49-V51,
V54-V56, V58-V60; Advanced digest V11 for aircraft assignments). Codes are stable: ``mbt.<name>``.

``checks.py`` calls :func:`check_advanced_scenario` from its scenario check (with the boards and the terrain
lookup it already built) and :func:`check_toe_units` from its TO&E check.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterator

from studio.hexgrid.coords import distance
from studio.model.diagnostics import Diagnostic
from studio.model.forces import expand_force

from .cards import (BatteryBody, CrewServedBody, FixedWingBody, HelicopterBody, LegBody, TowedBody, VehicleBody,
                    assign_passengers)

R = "MBT "
_OFF_MAP = (FixedWingBody, BatteryBody)
_SHEAVES = {"GP": {"open", "closed", "closed_linear"}, "smoke": {"open", "closed", "closed_linear"},
            "ICM": {"open"}, "illumination": {"closed"}, "FASCAM": {"closed"}}          # MBT 6.5.1.5-6.5.1.6
_MISSION_PREFIX = {"CLGP": "P", "ICM": "C", "FASCAM": "M", "smoke": "S", "illumination": "I"}


def _body(index, unit_id):
    return getattr(index.model("unit", unit_id), "body", None)


def _units(force, index):
    """``(force unit, card body)`` of a force, in TO&E order."""
    return [(u, _body(index, u.unit)) for u in expand_force(force, index)]


# ------------------------------------------------------------------ TO&E


def check_toe_units(doc, index) -> Iterator[Diagnostic]:
    """V49: crew-served weapons are never a TO&E slot of their own (MBT 5.1.3); V50: a half-squad is fielded at
    set-up only when the scenario says so (MBT 5.1.1); V47: TO&Es read top down, HQ slots first (6.5.1.3)."""
    for pointer, ech in doc.model.root.walk():
        seen_line = False
        for k, slot in enumerate(ech.slots):
            body = _body(index, slot.unit)
            where = f"{pointer}/slots/{k}/unit"
            if isinstance(body, CrewServedBody):
                yield doc.error("mbt.crew-served", f"'{slot.unit}' is a crew-served weapon: it is never fielded "
                                "alone, attach it to a leg unit (attached_weapons)", where, R + "5.1.3")
            elif isinstance(body, _OFF_MAP):
                yield doc.error("mbt.off-map", f"'{slot.unit}' is an off-map unit (aircraft or battery): list it in a "
                                "scenario's extension.aircraft or extension.artillery, not in a TO&E", where, R + "5.3")
            elif isinstance(body, LegBody) and body.leg_size == "half_squad":
                yield doc.warning("mbt.half-squad", f"'{slot.unit}' is a half-squad: squads never split voluntarily; "
                                  "field a half-squad at set-up only when the scenario says so", where, R + "5.1.1")
            if slot.role == "hq" and seen_line:
                yield doc.warning("mbt.formation", f"HQ slot '{slot.id}' comes after line slots: TO&Es read from the "
                                  "top down, HQs first", f"{pointer}/slots/{k}/role", R + "6.5.1.3")
            seen_line = seen_line or slot.role == "line"


# ------------------------------------------------------------------ scenario


def check_advanced_scenario(doc, sc, index, boards: dict, terrain_at: Callable) -> Iterator[Diagnostic]:
    """The Advanced Game checks of one MBT scenario (``terrain_at(boards, hex) -> (map, terrain code)``)."""
    ext = sc.extension
    yield from _check_game_layer(doc, sc, index, ext)
    yield from _check_off_map_in_forces(doc, sc, index)
    yield from _check_mounted(doc, sc, index, ext)
    yield from _check_attachments(doc, sc, index, ext)
    yield from _check_artillery(doc, sc, index, ext)
    yield from _check_aircraft(doc, sc, index, ext)
    yield from _check_planned_fire(doc, sc, index, ext, boards, terrain_at)
    yield from _check_towed_buildings(doc, sc, index, boards, terrain_at)
    yield from _check_terrain_gpd(doc, sc, ext, boards, terrain_at)
    yield from _check_observers(doc, sc, index, ext)


def _check_game_layer(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """The Basic Game fields vehicles only (MBT 4.0); leg, towed, air and artillery units need ``game: advanced``."""
    if ext.game == "advanced":
        return
    for name in ("artillery", "aircraft", "mounted", "attachments", "planned_fire", "pre_registered"):
        if getattr(ext, name):
            yield doc.error("mbt.game", f"extension.{name} is Advanced Game data; this scenario plays the Basic "
                            "Game (extension.game: basic)", f"/extension/{name}", R + "4.0", at_key=True)
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            kinds = {type(b).__name__ for _u, b in _units(force, index) if b is not None
                     and not isinstance(b, VehicleBody)}
            if kinds:
                yield doc.error("mbt.game", f"force '{force.id}' fields non-vehicle units (leg, towed, aircraft): the "
                                "Basic Game is vehicles only; set extension.game: advanced",
                                f"/sides/{si}/forces/{fi}/toe", R + "4.0")


def _check_off_map_in_forces(doc, sc, index) -> Iterator[Diagnostic]:
    """Fixed-wing aircraft never stay on the map and batteries are off-map (MBT 5.3, 6.7.2): not in forces."""
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            for sub_i, sub in enumerate(force.substitutions):
                body = _body(index, sub.unit)
                if isinstance(body, _OFF_MAP + (CrewServedBody,)):
                    yield doc.error("mbt.off-map", f"substitution unit '{sub.unit}' is an aircraft, battery or "
                                    "crew-served weapon card and cannot be a force slot",
                                    f"/sides/{si}/forces/{fi}/substitutions/{sub_i}/unit", R + "5.3")


def _force_index(sc):
    return {force.id: (si, fi, side, force) for si, side in enumerate(sc.sides)
            for fi, force in enumerate(side.forces)}


def _capacity(body):
    """Transport capacity of a carrier body (vehicles and helicopters), or None."""
    if isinstance(body, VehicleBody):
        return body.general.transport
    if isinstance(body, HelicopterBody):
        return body.transport
    return None


def _check_mounted(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """V51: passengers at set-up fit their carriers (capacity, one towed unit each, ERA: none; MBT 6.6.7.1,
    6.5.2.4.2) and set up in their carrier's hex."""
    forces = _force_index(sc)
    for k, m in enumerate(ext.mounted):
        base = f"/extension/mounted/{k}"
        cid = m.carriers or m.force
        if m.force not in forces or cid not in forces:
            bad = m.force if m.force not in forces else m.carriers
            yield doc.error("mbt.passengers", f"mounted: no force '{bad}' in this scenario", base, R + "6.6.7",
                            at_key=True)
            continue
        if forces[m.force][2].id != forces[cid][2].id:
            yield doc.error("mbt.passengers", "passengers ride vehicles of their own side", base + "/carriers",
                            R + "6.6.7")
            continue
        p_all, c_all = _units(forces[m.force][3], index), _units(forces[cid][3], index)
        passengers = [(i, b) for i, (_u, b) in enumerate(p_all) if isinstance(b, (LegBody, TowedBody))]
        carriers = [(i, b) for i, (_u, b) in enumerate(c_all) if _capacity(b) is not None]
        if not passengers:
            yield doc.warning("mbt.passengers", f"force '{m.force}' has no leg or towed units to mount", base,
                              R + "6.6.7", at_key=True)
            continue
        seats, left = assign_passengers([(i, _capacity(b)) for i, b in carriers],
                                        [(i, b.passenger_capacity) for i, b in passengers])
        if left:
            names = [p_all[i][0].path for i in left]
            yield doc.error("mbt.passengers", f"{len(left)} passenger(s) of force '{m.force}' find no carrier with "
                            f"room ({', '.join(names[:3])}): transport capacity must cover passenger capacity, one "
                            "towed unit per vehicle", base, R + "6.6.7.1", at_key=True)
        yield from _mounted_hexes(doc, forces[m.force], forces[cid][3], p_all, c_all, seats)


def _unit_hex(force, i: int) -> str | None:
    """The set-up hex of the ``i``-th unit of a force (one shared hex or one hex per unit)."""
    hexes = force.setup.hexes if force.setup else []
    if len(hexes) == 1:
        return hexes[0]
    return hexes[i] if i < len(hexes) else None


def _mounted_hexes(doc, pentry, cf, p_all, c_all, seats) -> Iterator[Diagnostic]:
    si, fi, _side, pf = pentry
    if not (pf.setup and pf.setup.hexes and cf.setup and cf.setup.hexes):
        return
    for i, ci in seats.items():
        ph, ch = _unit_hex(pf, i), _unit_hex(cf, ci)
        if ph and ch and ph != ch:
            yield doc.error("mbt.passengers", f"passenger {p_all[i][0].path} sets up in {ph}, its carrier "
                            f"{c_all[ci][0].path} in {ch}: a mounted unit starts in its carrier's hex",
                            f"/sides/{si}/forces/{fi}/setup/hexes", R + "6.6.7")
            return


def _check_attachments(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """V49: attachment overrides name a slot of leg units of the force and crew-served cards (MBT 5.1.3)."""
    forces = _force_index(sc)
    for k, a in enumerate(ext.attachments):
        base = f"/extension/attachments/{k}"
        if a.force not in forces:
            yield doc.error("mbt.crew-served", f"attachments: no force '{a.force}'", base + "/force", R + "5.1.3")
            continue
        units = [(u, b) for u, b in _units(forces[a.force][3], index)
                 if u.path == a.slot or u.path.split("/", 1)[-1] == a.slot]
        if not units or not all(isinstance(b, LegBody) for _u, b in units):
            yield doc.error("mbt.crew-served", f"attachments: slot '{a.slot}' of force '{a.force}' holds no leg units "
                            "(only squads, half-squads and sections take crew-served weapons)", base + "/slot",
                            R + "5.1.3")
        for w, wid in enumerate(a.weapons):
            if not isinstance(_body(index, wid), CrewServedBody):
                yield doc.error("mbt.crew-served", f"attachments: '{wid}' is not a crew-served weapon card",
                                f"{base}/weapons/{w}", R + "5.1.3")


def _echelon_paths(force, index) -> set[str]:
    """Echelon paths of a force's TO&E ('' and the root id name the root)."""
    toe = index.model("toe", force.toe)
    if toe is None:
        return {""}
    out = {""}

    def walk(ech, prefix):
        path = f"{prefix}/{ech.id}" if prefix else ech.id
        out.add(path)
        out.add(path.split("/", 1)[1] if "/" in path else "")
        for child in ech.children:
            walk(child, path)
    walk(toe.root, "")
    return out


def _check_artillery(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """V56: off-map batteries: the card is a battery; organic only at the highest formation (MBT 6.5.1.3.2);
    attached/organic name a force of the side, unattached none (6.5.1.3.3); special missions only of listed
    mission types (V59, MBT 5.16.2.4)."""
    forces = _force_index(sc)
    sides = {s.id for s in sc.sides}
    for k, a in enumerate(ext.artillery):
        base = f"/extension/artillery/{k}"
        body = _body(index, a.battery)
        if a.side not in sides:
            yield doc.error("mbt.attachment", f"artillery: no side '{a.side}'", base + "/side", R + "6.5.1.3")
        if not isinstance(body, BatteryBody):
            yield doc.error("mbt.attachment", f"artillery: '{a.battery}' is not an off-map battery card",
                            base + "/battery", R + "6.5.1.2")
            continue
        yield from _attachment_level(doc, base, a, forces, index)
        for prefix in a.special_missions:
            mission = next(m for m, p in _MISSION_PREFIX.items() if p == prefix)
            if mission not in body.missions:
                yield doc.error("mbt.special-missions", f"{a.battery} cannot fire {mission} missions, so it has no "
                                f"'{prefix}' allocation", f"{base}/special_missions/{prefix}", R + "5.16.2.4",
                                at_key=True)


def _attachment_level(doc, base, a, forces, index) -> Iterator[Diagnostic]:
    if a.attachment == "unattached":
        if a.force is not None or a.echelon:
            yield doc.error("mbt.attachment", "an unattached battery belongs to no formation: drop 'force' and "
                            "'echelon'", base + "/attachment", R + "6.5.1.3.3")
        return
    if a.force is None or a.force not in forces or forces[a.force][2].id != a.side:
        yield doc.error("mbt.attachment", f"an {a.attachment} battery names a force of side '{a.side}'",
                        base + ("/force" if a.force is not None else ""), R + "6.5.1.3", at_key=a.force is None)
        return
    force = forces[a.force][3]
    if a.attachment == "organic" and a.echelon and a.echelon not in ("", index.model("toe", force.toe).root.id
                                                                      if index.model("toe", force.toe) else ""):
        yield doc.error("mbt.attachment", "organic batteries are found only at the highest level of a formation "
                        f"(the force's root), not at '{a.echelon}'", base + "/echelon", R + "6.5.1.3.2")
    elif a.echelon and a.echelon not in _echelon_paths(force, index):
        yield doc.error("mbt.attachment", f"no echelon '{a.echelon}' in the TO&E of force '{a.force}'",
                        base + "/echelon", R + "6.5.1.3.1")


def _check_aircraft(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """Advanced V11: aircraft assignments name fixed-wing cards, their load ids, no more loads than LD (MBT 6.7.1),
    turns inside the scenario; only one side has aircraft (local air superiority, MBT 6.7)."""
    yield from _air_superiority(doc, sc, index, ext)
    sides = {s.id for s in sc.sides}
    for k, a in enumerate(ext.aircraft):
        base = f"/extension/aircraft/{k}"
        body = _body(index, a.aircraft)
        if a.side not in sides:
            yield doc.error("mbt.aircraft", f"aircraft: no side '{a.side}'", base + "/side", R + "6.7")
        if not isinstance(body, FixedWingBody):
            yield doc.error("mbt.aircraft", f"'{a.aircraft}' is not a fixed-wing aircraft card", base + "/aircraft",
                            R + "6.7.1")
            continue
        yield from _aircraft_loads(doc, sc, base, a, body)


def _air_superiority(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """Only the side with local air superiority has aircraft, fixed-wing or helicopters (MBT 6.7)."""
    flying = {a.side for a in ext.aircraft}
    for side in sc.sides:
        if any(isinstance(b, HelicopterBody) for force in side.forces for _u, b in _units(force, index)):
            flying.add(side.id)
    if len(flying) > 1:
        yield doc.error("mbt.aircraft", f"sides {', '.join(sorted(flying))} both field aircraft; only the side with "
                        "local air superiority flies (MBT 6.7)", "/extension/aircraft", R + "6.7", at_key=True)


def _aircraft_loads(doc, sc, base, a, body) -> Iterator[Diagnostic]:
    """Load ids of the card, PGMs on carried bomb loads, no more loads than LD, turns inside the scenario."""
    known = {load.id for load in body.loads}
    for j, lid in enumerate(a.loads):
        if lid not in known:
            yield doc.error("mbt.aircraft", f"'{a.aircraft}' has no load '{lid}' (loads: {', '.join(sorted(known))})",
                            f"{base}/loads/{j}", R + "6.7.1")
    by_id = {load.id: load for load in body.loads}
    for j, lid in enumerate(a.pgm):
        if lid not in by_id or by_id[lid].pgm_points is None or a.pgm.count(lid) > a.loads.count(lid):
            yield doc.error("mbt.aircraft", f"load '{lid}' cannot be fitted as a PGM here (only iron and cluster "
                            "bomb loads carried, one PGM per load)", f"{base}/pgm/{j}", R + "6.7.3.7")
    if len(a.loads) > body.max_loads:
        yield doc.error("mbt.aircraft", f"{len(a.loads)} loads exceed LD {body.max_loads}", base + "/loads",
                        R + "6.7.1", at_key=True)
    last = a.last_turn if a.last_turn is not None else sc.turns
    if a.first_turn > last or last > sc.turns:
        yield doc.error("mbt.aircraft", f"aircraft turns {a.first_turn}-{last} are outside the scenario's "
                        f"{sc.turns} turns", base + "/first_turn", R + "6.7.2.1")


def _check_planned_fire(doc, sc, index, ext, boards, terrain_at) -> Iterator[Diagnostic]:
    """V55: Pre-Registered Points and Planned Fire reference off-map batteries of the side; a plot lasts at most 5
    turns, has no CLGP, matches mission and sheaf, shifts its target at most 5 hexes per turn, and a battery is idle
    the turn after a plot and never booked twice (MBT 6.5.1.4, 6.5.1.11)."""
    batteries = defaultdict(set)
    for a in ext.artillery:
        batteries[a.side].add(a.battery)
    for k, p in enumerate(ext.pre_registered):
        base = f"/extension/pre_registered/{k}"
        if terrain_at(boards, p.hex)[1] is None:
            yield doc.error("mbt.planned-fire", f"pre-registered point {p.hex} is not on the boards", base + "/hex",
                            R + "6.5.1.4")
        for j, b in enumerate(p.batteries):
            if b not in batteries[p.side]:
                yield doc.error("mbt.planned-fire", f"'{b}' is not an off-map battery of side '{p.side}'",
                                f"{base}/batteries/{j}", R + "6.5.1.4")
    amap = _assembled(sc, index)
    booked: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for k, plot in enumerate(ext.planned_fire):
        yield from _check_plot(doc, f"/extension/planned_fire/{k}", plot, batteries, amap, boards, terrain_at)
        end = plot.turn + sum(seg.turns for seg in plot.segments) - 1
        for (start, stop, other) in booked[plot.battery]:
            if plot.turn <= stop + 1 and start <= end + 1:   # overlapping, or inside the idle turn after
                yield doc.error("mbt.planned-fire", f"{plot.battery} is booked by planned_fire {other} on turns "
                                f"{start}-{stop} (and idle on turn {stop + 1}): turns {plot.turn}-{end} overlap",
                                f"/extension/planned_fire/{k}/turn", R + "6.5.1.11.2")
                break
        booked[plot.battery].append((plot.turn, end, k))


def _assembled(sc, index):
    from studio.model.maps import AssemblyError, assemble_scenario

    try:
        return assemble_scenario(sc, index)
    except (AssemblyError, ValueError, KeyError):
        return None


def _check_plot(doc, base, plot, batteries, amap, boards, terrain_at) -> Iterator[Diagnostic]:
    if plot.battery not in batteries[plot.side]:
        yield doc.error("mbt.planned-fire", f"planned fire by '{plot.battery}', which is not an off-map battery of "
                        f"side '{plot.side}' (on-map units never plan fire)", base + "/battery", R + "6.5.1.11")
    total = sum(seg.turns for seg in plot.segments)
    if total > 5:
        yield doc.error("mbt.planned-fire", f"a planned fire plot lasts at most 5 turns, not {total}",
                        base + "/segments", R + "6.5.1.11.1", at_key=True)
    prev = None
    for j, seg in enumerate(plot.segments):
        sp = f"{base}/segments/{j}"
        if seg.mission == "CLGP":
            yield doc.error("mbt.planned-fire", "CLGP is never planned fire", sp + "/mission", R + "6.5.1.11.1")
        elif seg.sheaf not in _SHEAVES[seg.mission]:
            yield doc.error("mbt.planned-fire", f"{seg.mission} fire uses a {' or '.join(sorted(_SHEAVES[seg.mission]))} "
                            f"sheaf, not {seg.sheaf}", sp + "/sheaf", R + "6.5.1.5")
        if terrain_at(boards, seg.hex)[1] is None:
            yield doc.error("mbt.planned-fire", f"target hex {seg.hex} is not on the boards", sp + "/hex",
                            R + "6.5.1.11.1")
        elif prev is not None and amap is not None and _shift(amap, prev, seg.hex) > 5:
            yield doc.error("mbt.planned-fire", f"the target point moves {_shift(amap, prev, seg.hex)} hexes from "
                            f"{prev} to {seg.hex}; at most 5 per turn", sp + "/hex", R + "6.5.1.11.1")
        prev = seg.hex


def _shift(amap, a: str, b: str) -> int:
    try:
        return distance(amap.hex(a), amap.hex(b))
    except (KeyError, ValueError):
        return 0


def _building_codes(index) -> set[str]:
    rs = index.model("ruleset", "mbt")
    return {t.code for t in rs.terrain if t.id in ("town", "building")} if rs is not None else set()


def _check_towed_buildings(doc, sc, index, boards, terrain_at) -> Iterator[Diagnostic]:
    """V54: a towed unit set up inside a building can only pivot; one that cannot be manhandled could never have
    got there (MBT 6.1.4.3.1, 6.6.5)."""
    codes = _building_codes(index)
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            hexes = force.setup.hexes if force.setup else []
            units = _units(force, index)
            for i, (u, b) in enumerate(units):
                label = hexes[0] if len(hexes) == 1 else (hexes[i] if i < len(hexes) else None)
                if not isinstance(b, TowedBody) or label is None or terrain_at(boards, label)[1] not in codes:
                    continue
                pointer = f"/sides/{si}/forces/{fi}/setup/hexes/{0 if len(hexes) == 1 else i}"
                if not b.manhandle:
                    yield doc.error("mbt.towed-building", f"{u.path} cannot be manhandled, so it cannot set up inside "
                                    f"the building at {label}", pointer, R + "6.1.4.3.1")
                else:
                    yield doc.warning("mbt.towed-building", f"{u.path} sets up inside the building at {label}: it "
                                      "may only pivot there", pointer, R + "6.1.4.3.1")


def _check_terrain_gpd(doc, sc, ext, boards, terrain_at) -> Iterator[Diagnostic]:
    """V58: a scenario GP Defense for variable-defense terrain names a hex of the boards with a bridge (blocks and
    wire are not placed by scenarios yet; MBT 6.5.4.2.5)."""
    bridges = set()
    for m in boards.values():
        bridges.update(side.hex for side in m.hexsides if side.feature == "bridge")
    for label in ext.terrain_gpd:
        pointer = f"/extension/terrain_gpd/{label}"
        if terrain_at(boards, label)[1] is None:
            yield doc.error("mbt.terrain-gpd", f"hex {label} is not on the scenario's boards", pointer,
                            R + "6.5.4.2.5", at_key=True)
        elif label not in bridges:
            yield doc.warning("mbt.terrain-gpd", f"hex {label} has no bridge: only blocks, bridges and wire take a "
                              "scenario GP Defense", pointer, R + "6.5.4.2.5", at_key=True)


def _observes(body) -> bool:
    labels = set(getattr(body, "labels", []))
    if labels & {"fo", "command", "recon"}:
        return True
    return bool(getattr(body, "crew_fo", False) or getattr(body, "may_observe", False)
                or getattr(body, "dismounted_fo", False))


def _has_designator(body, index) -> bool:
    """A Laser Designator: a D sight, the card's flag, or an attached crew-served designator (MBT 6.5.1.13.3)."""
    if getattr(body, "laser_designator", False):
        return True
    if any("D" in (w.sight.primary, w.sight.secondary) for w in getattr(body, "weapons", [])):
        return True
    return any(getattr(_body(index, c), "weapon_type", None) == "laser_designator"
               for c in getattr(body, "attached_weapons", []))


def _check_observers(doc, sc, index, ext) -> Iterator[Diagnostic]:
    """V60: a side with off-map artillery has an observer (FO, command, recon; MBT 6.5.1.1); CLGP needs a unit
    with a Laser Designator (D sight) to guide it (MBT 6.5.1.13.3)."""
    for k, a in enumerate(ext.artillery):
        side = next((s for s in sc.sides if s.id == a.side), None)
        if side is None:
            continue
        bodies = [b for force in side.forces for _u, b in _units(force, index) if b is not None]
        if not any(_observes(b) for b in bodies):
            yield doc.warning("mbt.observers", f"side '{a.side}' has off-map artillery but no FO, command or recon "
                              "unit to call it", f"/extension/artillery/{k}", R + "6.5.1.1", at_key=True)
        battery = _body(index, a.battery)
        clgp = isinstance(battery, BatteryBody) and "CLGP" in battery.missions and a.special_missions.get("P", 1) > 0
        if clgp and not any(_has_designator(b, index) for b in bodies):
            yield doc.warning("mbt.observers", f"{a.battery} may fire CLGP, but side '{a.side}' has no unit with a "
                              "Laser Designator (D sight) to guide it", f"/extension/artillery/{k}/battery",
                              R + "6.5.1.13.3")
