"""Static checks of MBT Advanced Game card data (rules digest d.1: V5, V17, V18, V21-V23, V25-V27, V30 and the
aircraft / helicopter / battery checks of the Advanced digest, V11-V13). Codes are stable: ``mbt.<name>``.

Every check takes a loaded unit document whose body is one of the ``cards.py`` bodies and yields diagnostics
located by JSON pointer, with the rule it enforces. ``checks.py`` runs them from ``check_card``.
"""
from __future__ import annotations

from typing import Iterator

from studio.model.diagnostics import Diagnostic

from .cards import (BatteryBody, CrewServedBody, FixedWingBody, HelicopterBody, LegBody, TowedBody, VehicleBody,
                    Weapon)

R = "MBT "
_GP_KINDS = ("GP", "GP-DF", "GP-IF")
_MISSION_PREFIX = {"P": "CLGP", "C": "ICM", "M": "FASCAM", "S": "smoke", "I": "illumination"}   # MBT 5.16.2.4
ANY_BODY = (VehicleBody, LegBody, CrewServedBody, TowedBody, FixedWingBody, HelicopterBody, BatteryBody)


def weapons_of(body) -> list[tuple[str, Weapon]]:
    """``(JSON pointer, weapon)`` of every weapon of a card body (one ``weapon`` or a ``weapons`` list)."""
    if isinstance(body, (CrewServedBody, BatteryBody)):
        return [("/body/weapon", body.weapon)]
    return [(f"/body/weapons/{i}", w) for i, w in enumerate(getattr(body, "weapons", []))]


def shoots_ap(w: Weapon) -> bool:
    return any(a.kind in ("AP", "ATGM") for a in w.ammo)


# ------------------------------------------------------------------ every category


def check_ap_damage(doc, body) -> Iterator[Diagnostic]:
    """V17: an AP-capable weapon has AP Damage for unit results 1..10, on its rows or at card level (MBT 6.5.2.6).
    A warning on the card (a Basic Game card needs none); Advanced scenarios fielding it report an error."""
    if isinstance(body, VehicleBody) and body.ap_damage is not None:
        return
    for base, w in weapons_of(body):
        for j, row in enumerate(w.ammo):
            if row.kind in ("AP", "ATGM") and row.ap_damage is None:
                yield doc.warning("mbt.ap-damage", f"AP row '{row.ammo_type}' of weapon '{w.id}' has no AP Damage "
                                  "(unit results 1..10) and the card gives none: the Advanced Game needs it",
                                  f"{base}/ammo/{j}", R + "6.5.2.6", at_key=True)
                return


def check_gp_effectiveness(doc, body) -> Iterator[Diagnostic]:
    """V18: a non-small-arms GP weapon of a vehicle, towed unit or helicopter has a GP Effectiveness (MBT
    6.5.4.4.2: its maximum decides Effective results against A and P vehicles)."""
    if not isinstance(body, (VehicleBody, TowedBody, HelicopterBody)):
        return
    for base, w in weapons_of(body):
        gp = any(a.kind in ("GP", "GP-DF") for a in w.ammo)
        if gp and not w.small_arms and w.gp_effectiveness is None:
            yield doc.warning("mbt.gp-effectiveness", f"weapon '{w.id}' fires GP (not Small Arms) but has no GP "
                              "Effectiveness 'a-b' (the Advanced Game needs it against vehicles)", base,
                              R + "6.5.4.4.2", at_key=True)


def check_short_halt(doc, body) -> Iterator[Diagnostic]:
    """V21: crew-served ATGMs (any class) and crew-served grenade launchers may not have a Short Halt command
    (MBT 5.1.3.3.3, 5.1.3.5); CL 3/4 ATGMs of vehicles are checked with the vehicle's rows."""
    if isinstance(body, CrewServedBody) and body.weapon_type in ("atgm", "grenade_launcher") \
            and not body.weapon.restrictions.no_short_halt:
        rule = R + ("5.1.3.3.3" if body.weapon_type == "atgm" else "5.1.3.5")
        yield doc.error("mbt.short-halt", f"a crew-served {body.weapon_type.replace('_', ' ')} may not have a Short "
                        "Halt command: flag restrictions.no_short_halt", "/body/weapon/restrictions", rule, at_key=True)


_TYPE_ROWS = {   # weapon type -> (row kinds it needs, row kinds it may not have, rule)
    "atgm": ({"ATGM"}, set(), "5.1.3.3.1"),
    "hhatw": ({"AP"}, {"ATGM"}, "5.1.3.4"),
    "mortar": ({"GP-IF"}, {"AP", "ATGM"}, "5.1.3.1"),
    "hmg": (set(), {"AP", "ATGM"}, "5.1.3.2"),
}


def check_weapon_type(doc, body) -> Iterator[Diagnostic]:
    """V22: a crew-served (or typed) weapon carries the rows of its type: ATGMs an ATGM row, HHATWs an AP row
    with the fixed GP in the Ammo Type column, mortars a GP-IF row and no AP row, HMGs no AP row (MBT 5.1.3)."""
    for base, w in weapons_of(body):
        wtype = body.weapon_type if isinstance(body, CrewServedBody) else w.weapon_type
        if wtype not in _TYPE_ROWS:
            continue
        need, banned, rule = _TYPE_ROWS[wtype]
        kinds = {a.kind for a in w.ammo}
        if need - kinds:
            yield doc.error("mbt.weapon-type", f"a {wtype} weapon needs a {', '.join(sorted(need - kinds))} row",
                            f"{base}/ammo", R + rule, at_key=True)
        for j, row in enumerate(w.ammo):
            if row.kind in banned:
                yield doc.error("mbt.weapon-type", f"a {wtype} weapon has no {row.kind} fire (row "
                                f"'{row.ammo_type}')", f"{base}/ammo/{j}/kind", R + rule)
            if wtype == "hhatw" and row.kind == "AP" and row.fixed_gp is None:
                yield doc.error("mbt.weapon-type", f"HHATW row '{row.ammo_type}' needs its fixed GP factor "
                                "(Ammo Type column)", f"{base}/ammo/{j}", R + rule, at_key=True)


def check_manpads(doc, body) -> Iterator[Diagnostic]:
    """V23 (and Advanced V9): MANPADS and SAMs have an aspect (MT/MA) and, usually, a CM rating; radar and SACLOS
    SAMs are all-aspect (MBT 5.1.3.6, 6.7.8.1.1)."""
    for base, w in weapons_of(body):
        wtype = body.weapon_type if isinstance(body, CrewServedBody) else w.weapon_type
        sam = w.aa.sam if w.aa is not None else None
        if wtype in ("manpads", "sam") and sam is None:
            yield doc.error("mbt.manpads", f"{wtype.upper()} weapon '{w.id}' needs its SAM data (aspect MT/MA, "
                            "guidance, CM rating) under aa.sam", base, R + "5.1.3.6", at_key=True)
        elif sam is not None:
            if sam.guidance in ("radar", "SACLOS") and sam.aspect != "MA":
                yield doc.error("mbt.manpads", f"{sam.guidance} guided SAMs are all-aspect (MA), not MT",
                                f"{base}/aa/sam/aspect", R + "6.7.8.1.1")
            if sam.cm_rating is None:
                yield doc.warning("mbt.manpads", f"SAM weapon '{w.id}' has no CM rating (most have one)",
                                  f"{base}/aa/sam", R + "5.1.3.6", at_key=True)


def check_smoke(doc, body) -> Iterator[Diagnostic]:
    """V25: a weapon flagged SMK has a GP range row (smoke uses the GP range, MBT 6.1.4.3.10); a battery's special
    ammo limits are for missions it can fire (MBT 5.16.2.4)."""
    for base, w in weapons_of(body):
        if w.smoke_capable and not any(a.kind in _GP_KINDS for a in w.ammo):
            yield doc.error("mbt.smoke", f"weapon '{w.id}' is SMK (smoke) but has no GP row for its range",
                            f"{base}/smoke_capable", R + "6.1.4.3.10")
    if isinstance(body, BatteryBody):
        for k, lim in enumerate(body.weapon.ammo_limits):
            mission = _MISSION_PREFIX.get(lim.prefix)
            if mission is None:
                yield doc.error("mbt.smoke", f"an off-map battery has unlimited GP ammo; ammo limit prefix "
                                f"'{lim.prefix}' is not a special mission (P, C, M, S, I)",
                                f"/body/weapon/ammo_limits/{k}/prefix", R + "5.16.2.4")
            elif mission not in body.missions:
                yield doc.error("mbt.smoke", f"ammo limit {lim.prefix}{lim.value} is for {mission} missions, which "
                                "the battery does not list", f"/body/weapon/ammo_limits/{k}/prefix", R + "5.16.2.4")


def check_laser(doc, body) -> Iterator[Diagnostic]:
    """V26: a laser-guided ATGM needs a laser (L) or designator (D) sight; a Hellfire a designator somewhere in
    the force, which only the scenario knows (MBT 5.1.3.3, 6.5.2.2.5)."""
    for base, w in weapons_of(body):
        for j, row in enumerate(w.ammo):
            if row.atgm is None or not row.atgm.laser_guided:
                continue
            sight = row.sight or w.sight
            if "L" not in (sight.primary, sight.secondary) and "D" not in (sight.primary, sight.secondary):
                yield doc.error("mbt.laser", f"laser-guided ATGM '{row.ammo_type}' needs a laser (L) or designator "
                                f"(D) sight, not {sight.primary}{sight.secondary or ''}", f"{base}/ammo/{j}/atgm/laser_guided",
                                R + "5.1.3.3")


def check_transport(doc, body) -> Iterator[Diagnostic]:
    """V27: towed units always have a leg component in their passenger capacity (MBT 5.2, 6.6.7.1); a towed
    capacity with no leg capacity can never carry a towed unit."""
    if isinstance(body, TowedBody) and body.passenger_capacity.leg < 1:
        yield doc.error("mbt.transport", "a towed unit's passenger capacity has a leg component (its crew): "
                        f"not {body.passenger_capacity.towed}-{body.passenger_capacity.leg}",
                        "/body/passenger_capacity/leg", R + "6.6.7.1")
    tr = body.general.transport if isinstance(body, VehicleBody) else getattr(body, "transport", None)
    if tr is not None and tr.towed and not tr.leg:
        pointer = "/body/general/transport" if isinstance(body, VehicleBody) else "/body/transport"
        yield doc.warning("mbt.transport", f"TR: {tr.towed}-{tr.leg} tows but has no leg capacity; every towed unit "
                          "needs leg capacity for its crew", pointer, R + "6.6.7.1", at_key=True)


_SMALL_ARMS_TYPES = ("hmg", "mortar")
_SMALL_ARMS_NAMES = ("MMG", "HMG", "LMG")


def check_small_arms(doc, body) -> Iterator[Diagnostic]:
    """V30: HMGs, MMGs and mortars are Small Arms (MBT 5.1.3.1-2, 5.7); a weapon listed as Small Arms in Notes is
    flagged as such."""
    for base, w in weapons_of(body):
        wtype = body.weapon_type if isinstance(body, CrewServedBody) else w.weapon_type
        named = any(w.name.upper().startswith(n) for n in _SMALL_ARMS_NAMES)
        if (wtype in _SMALL_ARMS_TYPES or named) and not w.small_arms:
            yield doc.warning("mbt.small-arms", f"weapon '{w.id}' ({w.name}) is usually Small Arms: flag small_arms",
                              f"{base}/small_arms" if "small_arms" in _keys(doc, base) else base, R + "5.7",
                              at_key="small_arms" not in _keys(doc, base))
    if isinstance(body, VehicleBody):
        ids = {w.id: w for w in body.weapons}
        for k, wid in enumerate(body.notes.small_arms_weapons):
            if wid not in ids or not ids[wid].small_arms:
                yield doc.error("mbt.small-arms", f"Notes list '{wid}' as Small Arms, but no weapon of that id is "
                                "flagged small_arms", f"/body/notes/small_arms_weapons/{k}", R + "5.7")


def _keys(doc, pointer: str) -> set:
    node = doc.data
    for part in pointer.lstrip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node.get(part, {}) if isinstance(node, dict) else {}
    return set(node) if isinstance(node, dict) else set()


# ------------------------------------------------------------------ leg and towed


def check_leg_movement(doc, body) -> Iterator[Diagnostic]:
    """V5: '2L 3' movement; sections with attached weapons also have '1L 0' (MBT 5.1.2); towed units quickmarch 0
    (MBT 6.6.5); GP Defense does not fall as cover improves (MBT 6.5.4.2.2)."""
    if isinstance(body, LegBody):
        if body.movement.cross_country < 1:
            yield doc.error("mbt.leg-movement", "a leg unit needs a cross-country movement factor of at least 1",
                            "/body/movement/cross_country", R + "6.6.4.1")
        if body.leg_size == "section" and body.attached_weapons and body.movement_with_weapons is None:
            yield doc.error("mbt.leg-movement", "a section with attached weapons needs its second movement factor "
                            "(movement_with_weapons, '1L 0')", "/body/attached_weapons", R + "5.1.2")
        if body.leg_size != "section" and body.movement_with_weapons is not None:
            yield doc.error("mbt.leg-movement", f"only sections have a second movement factor, not a "
                            f"{body.leg_size.replace('_', '-')}", "/body/movement_with_weapons", R + "5.1.2",
                            at_key=True)
    if isinstance(body, TowedBody) and body.movement.quickmarch != 0:
        yield doc.error("mbt.leg-movement", f"towed units never quickmarch: quickmarch must be 0, not "
                        f"{body.movement.quickmarch}", "/body/movement/quickmarch", R + "6.6.5")
    if isinstance(body, (LegBody, TowedBody)):
        values = [body.gp_defense.none, body.gp_defense.light, body.gp_defense.medium, body.gp_defense.heavy]
        if any(b < a for a, b in zip(values, values[1:])):
            yield doc.warning("mbt.leg-movement", f"GP Defense falls as cover improves ({values[0]}/{values[1]}/"
                              f"{values[2]}/{values[3]} for none/light/medium/heavy)", "/body/gp_defense",
                              R + "6.5.4.2.2", at_key=True)


def check_half_squad(doc, body, index) -> Iterator[Diagnostic]:
    """V50: a squad's half-squad side is a half-squad card of the same unit type (MBT 5.1.1)."""
    if not isinstance(body, LegBody) or body.half_squad is None:
        return
    if body.leg_size != "squad":
        yield doc.error("mbt.half-squad", f"only squads are reduced to a half-squad, not a "
                        f"{body.leg_size.replace('_', '-')}", "/body/half_squad", R + "5.1.1")
        return
    other = index.model("unit", body.half_squad)
    ob = getattr(other, "body", None)
    if other is None:
        return   # the core reference check reports a missing card
    if not isinstance(ob, LegBody) or ob.leg_size != "half_squad" or ob.unit_type != body.unit_type:
        yield doc.error("mbt.half-squad", f"'{body.half_squad}' is not a {body.unit_type} half-squad card",
                        "/body/half_squad", R + "5.1.1")


def check_attached(doc, body, index) -> Iterator[Diagnostic]:
    """V49: a leg unit's attached weapons are crew-served weapon cards (MBT 5.1.3)."""
    if not isinstance(body, LegBody):
        return
    for k, wid in enumerate(body.attached_weapons):
        other = index.model("unit", wid)
        if other is None:
            yield doc.error("mbt.crew-served", f"attached weapon '{wid}' is not a unit card of the project",
                            f"/body/attached_weapons/{k}", R + "5.1.3")
        elif not isinstance(getattr(other, "body", None), CrewServedBody):
            yield doc.error("mbt.crew-served", f"attached weapon '{wid}' is not a crew-served weapon card "
                            "(category crew_served)", f"/body/attached_weapons/{k}", R + "5.1.3")


# ------------------------------------------------------------------ aircraft, helicopters, batteries


def check_fixed_wing(doc, body) -> Iterator[Diagnostic]:
    """Advanced V11, V13: load ids unique, rockets range 6-30 or 6-40, PGM only for iron and cluster bombs (MBT
    6.7.1, 6.7.3.4, 6.7.3.7); GP Defense type S (6.5.4.2.4)."""
    if not isinstance(body, FixedWingBody):
        return
    if body.gp_defense.target_type != "S":
        yield doc.error("mbt.aircraft", "aircraft are target type S", "/body/gp_defense/target_type", R + "6.5.4.2.4")
    seen = set()
    for k, load in enumerate(body.loads):
        base = f"/body/loads/{k}"
        if load.id in seen:
            yield doc.error("mbt.aircraft", f"load id '{load.id}' is listed twice", f"{base}/id", R + "6.7.1")
        seen.add(load.id)
        if load.kind == "rockets" and load.range not in ("6-30", "6-40"):
            yield doc.error("mbt.aircraft", f"rockets have a range of 6-30 or 6-40, not {load.range}", base,
                            R + "6.7.3.4", at_key=True)
        if load.pgm_points is not None and load.kind not in ("bomb", "cluster_bomb"):
            yield doc.error("mbt.aircraft", f"only iron and cluster bombs may be PGMs, not {load.kind}",
                            f"{base}/pgm_points", R + "6.7.3.7")
        if load.kind not in ("drop_tank", "ECM_pod", "ARM", "FASCAM") and load.gp_factor is None:
            yield doc.error("mbt.aircraft", f"{load.kind} load '{load.id}' needs a GP factor", base, R + "6.7.3",
                            at_key=True)


def check_helicopter(doc, body) -> Iterator[Diagnostic]:
    """Advanced V12: a weapon fit names weapons of the card; NOE speed at most the Low speed (MBT 6.7.4, 6.7.5.1);
    GP Defense type S (6.5.4.2.4)."""
    if not isinstance(body, HelicopterBody):
        return
    if body.gp_defense.target_type != "S":
        yield doc.error("mbt.helicopter", "helicopters are target type S", "/body/gp_defense/target_type",
                        R + "6.5.4.2.4")
    if body.movement.noe > body.movement.low:
        yield doc.warning("mbt.helicopter", f"NOE movement {body.movement.noe} is above the Low movement "
                          f"{body.movement.low}", "/body/movement/noe", R + "6.7.5.1")
    ids = {w.id for w in body.weapons}
    for c, config in enumerate(body.configs):
        for k, wc in enumerate(config.weapons):
            if wc.weapon not in ids:
                yield doc.error("mbt.helicopter", f"weapon fit '{config.id}' names weapon '{wc.weapon}', which the "
                                "card does not have", f"/body/configs/{c}/weapons/{k}/weapon", R + "6.7.4")
    if body.weapons and not body.configs:
        yield doc.error("mbt.helicopter", "a helicopter card lists its weapon fits with points (configs)",
                        "/body/weapons", R + "6.7.4", at_key=True)


def check_battery(doc, body) -> Iterator[Diagnostic]:
    """V12 (batteries): an off-map battery fires indirect only: GP-IF rows, no AP or direct-fire rows (MBT 5.3,
    6.5.1); smoke missions need the SMK weapon flag (6.1.4.3.10)."""
    if not isinstance(body, BatteryBody):
        return
    for j, row in enumerate(body.weapon.ammo):
        if row.kind != "GP-IF":
            yield doc.error("mbt.battery", f"off-map batteries fire indirect GP only: row '{row.ammo_type}' is "
                            f"{row.kind}", f"/body/weapon/ammo/{j}/kind", R + "5.3")
    if "smoke" in body.missions and not body.weapon.smoke_capable:
        yield doc.error("mbt.battery", "a battery listing smoke missions has the SMK flag (smoke_capable)",
                        "/body/missions", R + "6.1.4.3.10")


def check_towed_ammo(doc, body) -> Iterator[Diagnostic]:
    """All towed units have Ammo Limits (MBT 5.16.2.3; unlimited only beside their transport or ammo dump)."""
    if not isinstance(body, TowedBody):
        return
    for base, w in weapons_of(body):
        if not w.ammo_limits:
            yield doc.warning("mbt.ammo-limit", f"towed weapon '{w.id}' lists no ammo limits; all towed units have "
                              "them (unlimited only near their transport or ammo dump)", base, R + "5.16.2.3",
                              at_key=True)


_SPECIAL = {"P": "CLGP", "C": "ICM", "M": "FASCAM"}


def check_soviet_attached(doc, body) -> Iterator[Diagnostic]:
    """V56: Soviet attached artillery fielded as individual 2S1/2S3 vehicles has no CLGP, FASCAM or ICM
    (MBT 6.5.1.3.4)."""
    if not isinstance(body, VehicleBody) or not body.self_propelled_artillery or doc.model.nation != "SOV":
        return
    for base, w in weapons_of(body):
        for k, lim in enumerate(w.ammo_limits):
            if lim.prefix in _SPECIAL:
                yield doc.error("mbt.soviet-attached", f"Soviet attached artillery vehicles have no {_SPECIAL[lim.prefix]} "
                                f"(ammo limit {lim.prefix}{lim.value})", f"{base}/ammo_limits/{k}/prefix", R + "6.5.1.3.4")


CARD_CHECKS = (check_soviet_attached, check_towed_ammo, check_ap_damage, check_gp_effectiveness, check_short_halt, check_weapon_type, check_manpads,
               check_smoke, check_laser, check_transport, check_small_arms, check_leg_movement, check_fixed_wing,
               check_helicopter, check_battery)
INDEX_CHECKS = (check_half_squad, check_attached)
