"""MBT (2nd edition) unit card bodies and the scenario extension block.

The field list follows the Data Card sections the rulebook names (General Information, Weapon Data, Offensive
Information, Defensive Information, Notes; MBT 1.5, 4.4.3, 4.5.1.1.1, 5.16.2, 6.5.2.x). The models only fix types
and enumerations; the rule-level consistency checks (band order, FoF marks, S-type armor ...) live in
``checks.py`` so they report stable ``mbt.*`` codes with the rule they enforce.

Range bands are stored as an object ``{P, S, M, L, E}``; a skipped band ("—" on the card) is ``null``.
Gun/GP rows are read left to right (P..E, MBT 4.4.3.2.1); ATGM rows right to left (E..P, MBT 5.1.3.3.2).

Contract (card ``category`` -> body class, ``CARD_BODIES``; the engine reads these fields):

- ``vehicle`` -> :class:`VehicleBody`: Basic and Advanced fields (AG armor ``defensive.armor_ag``, special armor
  and ERA, ATGM rows ``AmmoRow.atgm``, GP rows, ``gp_effectiveness``, ``ap_damage``, ``ammo_limits``, smoke
  dischargers = the D ammo limit (``smoke_discharger_limit()``), CIS ``Weapon.cis``, transport ``general.transport``
  and ``transport_protection``, AA ``Weapon.aa``, ``close_assault_c``, ``self_propelled_artillery``, ``crew_fo``).
- ``leg`` -> :class:`LegBody`: squad / half_squad / section (``leg_size``), ``movement`` '2L 3' and
  ``movement_with_weapons`` '1L 0' (sections), ``gp_defense`` by cover (``CoverGpDefense``), ``size`` S/L,
  ``passenger_capacity``, intrinsic ``weapons``, ``attached_weapons`` (ids of ``crew_served`` cards),
  ``half_squad`` (id of the reduced unit's card).
- ``crew_served`` -> :class:`CrewServedBody`: one ``weapon`` of a ``weapon_type`` (HMG, Dragon, LAW, RPG, AT4,
  Stinger ...); never fielded alone.
- ``towed`` -> :class:`TowedBody`: ``movement`` '1L 0' (manhandling; ``manhandle``), ``gp_defense`` by cover,
  ``size``, ``passenger_capacity``, ``weapons`` (Front 60°: TT 60, front), ``platform_gun_mount``.
- ``fixed_wing`` -> :class:`FixedWingBody`: ``base_points``, ``max_loads`` (LD), ``crew``, ``speeds``,
  ``altitudes``, ``gp_defense`` (S), ``strafe`` (GP factor, attacks), ``loads`` (``LoadOption``: kind, points, GP
  factor, attacks, PGM points, rocket range).
- ``helicopter`` -> :class:`HelicopterBody`: ``movement`` {low, noe}, ``transport`` (Under Armor), ``gp_defense``
  (S), ``weapons``, ``configs`` (weapon fits: weapon id -> count, points), observer / designator flags.
- ``battery`` -> :class:`BatteryBody`: ``battery_class``, ``tubes``, ``missions``, ``weapon`` (GP-IF rows, P/C/M/S/I
  ammo limits), ``self_propelled``, ``counter_battery``.

Scenario extension :class:`MbtScenarioExtension`: ``game``, ``force_grades``, ``artillery``
(``BatteryAssignment``: side, battery card, count, attachment attached/organic/unattached, force, echelon, special
missions), ``aircraft`` (``AircraftAssignment``: side, card, count, load ids, first/last turn), ``mounted``
(``MountedForce``: passengers seated by :func:`assign_passengers`), ``attachments`` (``AttachmentOverride``).
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from studio.model.base import StrictModel

# ------------------------------------------------------------------ enumerations (digest b.1)

Traction = Literal["T", "H", "W"]                       # MBT 4.5.1.1.1 (L = leg, AG)
Rof = Literal["N", "Q", "R", "F"]                       # MBT 6.5.2.1
SightCode = Literal["O", "M", "S", "L", "D", "R", "GR"]  # MBT 6.5.2.2.5
TtFactor = Literal[1, 2, 3, 360, 60, 120, 180]          # MBT 4.4.3.1
FofSide = Literal["front", "rear"]                      # MBT 4.4.3.1.4-5 (underscore / overscore)
TargetType = Literal["A", "P", "S"]                     # MBT 6.5.2.3
Energy = Literal["KE", "CE"]                            # MBT 6.5.2.4
AmmoKind = Literal["AP", "GP", "GP-DF", "GP-IF", "ATGM"]
AmmoLimitPrefix = Literal["A", "G", "H", "P", "C", "M", "S", "I", "D"]  # MBT 5.16.2 (Q30: C = ICM)
ApDamage = Literal["ND", "DM", "KO", "BU"]              # MBT 6.5.2.6
HitLocation = Literal["TF", "TS", "TR", "HF", "HS", "HR", "DK"]   # MBT 6.5.2.2 (TK has no armor)
HitAngle = Literal["front", "front_side", "rear_side", "rear"]   # MBT 6.5.2.2 (left/right mirrored)
ShotElevation = Literal["level", "rising", "falling"]  # MBT 6.5.2.3.1
UnitLabel = Literal["command", "recon", "engineer", "fo"]  # MBT 5.9
CommandLevel = Literal["CHQ", "BHQ", "RHQ"]             # MBT 5.9
TransportProtection = Literal["under_armor", "under_cover", "none"]  # MBT 6.5.4.2.3
SpottingAid = Literal["IR", "WL", "P", "I2", "T"]       # MBT 7.36.4 (optional rules): searchlights, Passive IR, I2, TI
Grade = Literal["elite", "veteran", "seasoned", "regulars", "green", "raw"]  # MBT 5.8
WeaponType = Literal["gun", "mortar", "hmg", "atgm", "hhatw", "grenade_launcher", "manpads", "sam",
                     "flamethrower", "laser_designator", "rockets"]   # MBT 5.1.3, 5.4.3
SamAspect = Literal["MT", "MA"]                         # MBT 5.1.3.6
SamGuidance = Literal["IR", "radar", "SACLOS"]          # MBT 5.4.3
LegSize = Literal["squad", "half_squad", "section"]     # MBT 5.1
SpotSize = Literal["S", "L"]                            # MBT 6.1.3 (leg and towed size)
BatteryClass = Literal["light", "medium", "heavy", "super_heavy"]   # MBT 6.5.1.2
IfMission = Literal["GP", "smoke", "illumination", "FASCAM", "CLGP", "ICM"]   # MBT 6.5.1.6
Attachment = Literal["attached", "organic", "unattached"]            # MBT 6.5.1.3
LoadKind = Literal["bomb", "high_drag_bomb", "incendiary_bomb", "cluster_bomb", "rockets", "ARM", "FASCAM",
                   "drop_tank", "ECM_pod"]              # MBT 6.7.1, 6.7.3.3-6.7.3.7
Speed = Literal["slow", "fast"]                         # MBT 6.7.2.2
Altitude = Literal["low", "medium", "high"]             # MBT 6.7.2.2
Band = Literal["P", "S", "M", "L", "E"]
BANDS: tuple[str, ...] = ("P", "S", "M", "L", "E")

BandValue = Annotated[int, Field(ge=0, le=999)]


class Bands(StrictModel):
    """One value per range band; ``null`` = band skipped ("—" on the card)."""

    P: BandValue | None = None
    S: BandValue | None = None
    M: BandValue | None = None
    L: BandValue | None = None
    E: BandValue | None = None

    def values(self) -> list[int | None]:
        return [self.P, self.S, self.M, self.L, self.E]


# ------------------------------------------------------------------ general information

class Movement(StrictModel):
    """Written ``M: 8T 10-16`` on the card: cross-country 8, tracked, path 10, road 16 (MBT 4.5.1.1.1)."""

    cross_country: Annotated[int, Field(ge=0, le=99)]
    traction: Traction
    amphibious: bool = Field(False, description="'A' suffix after the traction letter (MBT 7.34)")
    dual_driving: bool = Field(False, description="'R' suffix after the traction letter: dual driving controls "
                                                  "(MBT 7.33, optional rule)")
    path: Annotated[int, Field(ge=0, le=99)]
    road: Annotated[int, Field(ge=0, le=99)]


class Transport(StrictModel):
    """``TR: t-l`` on the Movement row: towed units and leg units carried (MBT 6.6.7.1)."""

    towed: Annotated[int, Field(ge=0, le=9)] = 0
    leg: Annotated[int, Field(ge=0, le=9)] = 0


class CommandVariant(StrictModel):
    """A command version of the vehicle (e.g. Command 'K' with lower ammo limits, MBT 5.16.2)."""

    name: str
    ammo_limits: list["AmmoLimit"] = Field(default_factory=list)


class General(StrictModel):
    movement: Movement
    transport: Transport = Field(default_factory=Transport)
    transport_protection: TransportProtection = "none"
    stabilization: Literal[0, 1, 2, 3] = Field(description="SB rating; 1 best, 0 non-stabilized (MBT 4.4.3.2.2)")
    bog_modifier: int | None = Field(None, description="'B: +5' (MBT 7.29, optional rule)")
    bu_notation: bool = Field(False, description="+2 BU modifier notation (MBT 7.11)")
    mine_plow: bool = Field(False, description="equipped with a mine plow (plough), identified when spotted "
                                               "(MBT 7.31.3.4, optional rule)")
    command_variant: CommandVariant | None = None


# ------------------------------------------------------------------ weapons and ammunition

class Sight(StrictModel):
    """Sight type, written primary then secondary, e.g. ``LO`` (MBT 6.5.2.2.5)."""

    primary: SightCode
    secondary: SightCode | None = None


class AmmoLimit(StrictModel):
    """``A: A9 G9 D5``: a limit per ammunition group, compared against a roll (10) (MBT 5.16.2)."""

    prefix: AmmoLimitPrefix
    value: Annotated[int, Field(ge=0, le=99)]


class GpEffectiveness(StrictModel):
    """GP Effectiveness ``a-b`` against vehicles; only the maximum is used (MBT 6.5.4.4.2)."""

    min: Annotated[int, Field(ge=0, le=10)]
    max: Annotated[int, Field(ge=0, le=10)]


class Restrictions(StrictModel):
    no_short_halt: bool = Field(False, description="CL 3/4 ATGMs, crew-served ATGMs/GLs (MBT 5.1.3.3.3, 5.1.3.5)")
    no_fire_transported: bool = False
    no_fire_upper_floor: bool = False
    no_fire_in_building: bool = False
    no_fire_in_ip: bool = False


class Atgm(StrictModel):
    """The four ATGM factors listed below the range row (MBT 5.1.3.3.1)."""

    penetration: Annotated[int, Field(ge=0, le=999)]
    tandem: bool = Field(False, description="'TW' tandem warhead")
    gp: Annotated[int, Field(ge=0, le=30)]
    guidance_class: Literal[1, 2, 3, 4] = Field(description="CL 1-2 SACLOS, 3-4 MCLOS")
    speed: Annotated[int, Field(ge=1, le=99)] = Field(description="SP: hexes flown per turn")
    laser_guided: bool = Field(False, description="cannot fire through smoke or fire (MBT 5.1.3.3)")
    hellfire: bool = Field(False, description="homes on reflected laser; needs a designator (MBT 6.7.6.5)")


class AmmoRow(StrictModel):
    """One Ammo Type row of a weapon: range sub-row plus penetration (AP) or factor (GP) sub-row."""

    ammo_type: str = Field(description="APFSDS, APDS, HEAT, HE, an ATGM name ...")
    kind: AmmoKind
    energy: Energy | None = Field(None, description="KE or CE for AP and ATGM rows (MBT 6.5.2.4)")
    fof_side: FofSide | None = Field(None, description="front (underscored) or rear (overscored) arc for "
                                                       "non-turreted TT 60/120/180 weapons (MBT 4.4.3.1.4)")
    sight: Sight | None = Field(None, description="sight of this row when it differs from the weapon's, e.g. a "
                                                  "gun-launched ATGM (no secondary sight, MBT 6.5.2.2.5)")
    range: Bands
    penetration: Bands | None = Field(None, description="AP penetration per band (MBT 4.4.3.2.5)")
    gp_factor: Bands | None = Field(None, description="GP factor per band (MBT 6.5.4.1)")
    atgm: Atgm | None = None
    fixed_gp: Annotated[int, Field(ge=0, le=30)] | None = Field(None, description="HHATW fixed GP (MBT 5.1.3.4)")
    ap_damage: Annotated[list[ApDamage], Field(min_length=10, max_length=10)] | None = Field(
        None, description="AP Damage for unit results 1..10 (MBT 6.5.2.6, AG; Q22: per ammo row)")


class Sam(StrictModel):
    """SAM / MANPADS data (MBT 5.1.3.6, 5.4.3, 6.7.8.1.1-2)."""

    aspect: SamAspect = Field(description="MT tail chase or MA all aspect (radar and SACLOS SAMs are MA)")
    guidance: SamGuidance
    cm_rating: Annotated[int, Field(ge=1, le=10)] | None = Field(
        None, description="countermeasures rating; 'most' MANPADS have one (MBT 5.1.3.6, 6.7.8.2.1)")


class AntiAircraft(StrictModel):
    """AA fire capability of a weapon (MBT 6.7.8): the weapon's GP rows are its AA rows; radar-tracked rows need
    an R sight."""

    modifier: int = Field(0, ge=-50, le=50, description="data-card AA modifier, e.g. 9K22 +10 (MBT 6.7.8.2)")
    radar: bool = Field(False, description="radar-tracked AA fire (needs an R sight, MBT 6.7.8.1.1)")
    limited_radar_tracking: bool = Field(False, description="e.g. US M163A1 PIVADS (MBT 6.7.8.1.1)")
    high_altitude_na: bool = Field(False, description="'N/A vs High Altitude' (MBT 6.7.8.1.2)")
    sam: Sam | None = None


class Weapon(StrictModel):
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,39}$", description="weapon id within the card")]
    name: str = Field(description="e.g. '120mm M256', '125mm L/48', 'MMG'")
    rof: Rof = "N"
    sight: Sight
    cis: bool = Field(False, description="special colour of sight type (MBT 7.48)")
    tt_factor: TtFactor = Field(description="turret turn factor / field of fire (MBT 4.4.3.1)")
    dual_fire: bool = Field(False, description="Dual Fire weapon, shown as a reverse image (MBT 5.14)")
    coax_mg: bool = False
    small_arms: bool = Field(False, description="Small Arms weapon (MBT 5.7)")
    smoke_capable: bool = Field(False, description="'SMK' direct-fire smoke (MBT 6.1.4.3.10)")
    min_range: Annotated[int, Field(ge=1, le=99)] = Field(1, description="'min-5' (MBT 5.6)")
    ammo_limits: list[AmmoLimit] = Field(default_factory=list, description="empty = unlimited (MBT 5.16.2)")
    gp_effectiveness: GpEffectiveness | None = None
    restrictions: Restrictions = Field(default_factory=Restrictions)
    exclusive_with: list[str] = Field(default_factory=list,
                                      description="ammo types that cannot fire in the same turn, e.g. APDS or "
                                                  "Konkurs (MBT 5.14)")
    weapon_type: WeaponType | None = Field(None, description="crew-served / special weapon class (MBT 5.1.3); "
                                                             "gun = any other gun or cannon")
    calibre_mm: Annotated[int, Field(ge=1, le=999)] | None = Field(
        None, description="calibre in mm (MBT 7.50: the NATO bonus needs 25 mm or more)")
    aa: AntiAircraft | None = Field(None, description="AA capability of this weapon (MBT 6.7.8)")
    stabilization: Annotated[int, Field(ge=0, le=3)] | None = Field(
        None, description="SB factor of a helicopter gun (MBT 6.7.6.2; a vehicle's is general.stabilization)")
    ammo: Annotated[list[AmmoRow], Field(min_length=1)]


# ------------------------------------------------------------------ defensive information and notes

class GpDefense(StrictModel):
    """Written ``8A``, ``1P``, ``1S`` (MBT 6.5.2.3, 6.5.4.2.1)."""

    value: Annotated[int, Field(ge=1, le=10)]
    target_type: TargetType


ArmorValue = Annotated[int, Field(ge=0, le=999)]


class ArmorAngle(StrictModel):
    """Armor per hit location for one hit angle and shot elevation (MBT 6.5.2.3.2-3)."""

    TF: ArmorValue | None = None
    TS: ArmorValue | None = None
    TR: ArmorValue | None = None
    HF: ArmorValue | None = None
    HS: ArmorValue | None = None
    HR: ArmorValue | None = None


class ArmorElevations(StrictModel):
    level: ArmorAngle
    rising: ArmorAngle
    falling: ArmorAngle


class ArmorTable(StrictModel):
    """AG armor (Defensive Information); not used in the Basic Game (MBT 4.4.3.2.5)."""

    front: ArmorElevations
    front_side: ArmorElevations
    rear_side: ArmorElevations
    rear: ArmorElevations
    deck: ArmorValue = Field(description="Deck armor; single value per card (Q21)")


class SpecialArmor(StrictModel):
    """CE multiplier and/or ERA at one hit location (MBT 6.5.2.4.1-2)."""

    ce_multiplier: Literal[1.25, 1.5, 2.0] | None = None
    era: Literal["L", "H"] | None = None
    era_front_only: bool = Field(False, description="half-coloured location: ERA only toward the front")


class Defensive(StrictModel):
    target_size: Literal[-2, -1, 0, 1, 2] = Field(description="AP Target Size modifier (MBT 4.4.3.2.2)")
    gp_defense: GpDefense
    armor_ag: ArmorTable | None = None
    special_armor: dict[HitLocation, SpecialArmor] = Field(default_factory=dict)


class BasicArmor(StrictModel):
    """Armor Front Factor / Rear Factor in the Notes section (MBT 4.4.3.2.5)."""

    front: ArmorValue
    rear: ArmorValue


class Notes(StrictModel):
    basic_armor: BasicArmor | None = Field(None, description="required for AP-targetable vehicles (MBT 4.4.3.2.5)")
    small_arms_weapons: list[str] = Field(default_factory=list, description="weapon ids flagged Small Arms (5.7)")
    open_turret_required: bool = False
    long_gun: bool = False
    small_turret: bool = Field(False, description="'Small Turret': some turret hit locations read as hull locations "
                                                  "(optional rule 7.45)")
    text: str = ""


# ------------------------------------------------------------------ card bodies

class VehicleBody(StrictModel):
    """Body of an MBT vehicle data card (one vehicle type)."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = Field(
        None, description="Data Card reference, e.g. 'SM-1B', 'UM-4A' (MBT 1.6.1)")
    is_combat_unit: bool = Field(True, description="has offensive firepower or fire-support sighting (MBT 4.1.1)")
    unarmed: bool = Field(False, description="may not spot or capture objectives (MBT 4.1.1, 3.6)")
    open_topped: bool = Field(False, description="cannot enter buildings (MBT 6.1.4.3.1)")
    aa_vehicle: bool = Field(False, description="AA tracked vehicle; cannot enter buildings (MBT 6.1.4.3.1)")
    overhead_protection: bool = Field(True, description="lets a tracked vehicle enter buildings (MBT 6.1.4.3.1)")
    labels: list[UnitLabel] = Field(default_factory=list)
    command_level: CommandLevel | None = None
    general: General
    weapons: list[Weapon] = Field(default_factory=list)
    defensive: Defensive
    notes: Notes = Field(default_factory=Notes)
    spotting_aids: list[SpottingAid] = Field(default_factory=list)
    ap_damage: Annotated[list[ApDamage], Field(min_length=10, max_length=10)] | None = Field(
        None, description="card-level AP Damage for unit results 1..10 (Offensive Information, MBT 6.5.2.6): the "
                          "fallback of rows without their own (Q22, option ap-damage-source)")
    close_assault_c: bool = Field(False, description="'C' Close Assault indicator in Notes (+20, MBT 6.6.1.1.2)")
    self_propelled_artillery: bool = Field(False, description="SP artillery vehicle, e.g. 2S1 (MBT 7.28, "
                                                              "6.5.1.3.4)")
    crew_fo: bool = Field(False, description="integrated crew FO that may dismount (MBT 7.39)")
    crew_fo_card: str | None = Field(None, description="leg card (a section with the FO label) the crew FO "
                                                       "dismounts as (optional rule 7.39)")
    laser_designator: bool = Field(False, description="Laser Designator (D) sight: guides CLGP and is a fire-support "
                                                      "sighting capability, e.g. M981 FISTV (MBT 6.5.1.13.3, 4.1.1)")
    weight_tons: Annotated[float, Field(gt=0, le=999)] | None = Field(
        None, description="weight for bridges, pushing, AVLB (MBT 7.30, 7.32, 7.49)")
    avlb_tons: Annotated[float, Field(gt=0, le=999)] | None = Field(
        None, description="an AVLB: the weight limit of the bridge it launches (MBT 7.49, optional rule avlb)")
    installations: list[Literal["radar", "sam", "atgm"]] = Field(
        default_factory=list, description="'Radar', 'SAM' or 'ATGM damage' in Notes: exposed installations GP fire "
                                          "may damage (optional rule 7.47)")

    def smoke_discharger_limit(self) -> int | None:
        """Smoke dischargers (MBT 7.9) are written as the D ammo limit of a weapon: its value, or None."""
        return next((lim.value for w in self.weapons for lim in w.ammo_limits if lim.prefix == "D"), None)


# ------------------------------------------------------------------ leg, crew-served and towed units

class LegMovement(StrictModel):
    """Written ``M: 2L 3`` on a leg or towed card: cross-country 2, Leg traction, quickmarch 3 (MBT 6.6.4.1);
    towed units always have quickmarch 0 (MBT 6.6.5)."""

    cross_country: Annotated[int, Field(ge=0, le=9)]
    traction: Literal["L"] = "L"
    quickmarch: Annotated[int, Field(ge=0, le=9)]


class CoverGpDefense(StrictModel):
    """Leg and towed GP Defense by the cover of the hex (MBT 6.5.4.2.2), target type always S. Full Cover adds
    ``full_cover_bonus`` (the text says "1 or 2"), moving subtracts 2, the net value stays within 1..10."""

    none: Annotated[int, Field(ge=1, le=10)]
    light: Annotated[int, Field(ge=1, le=10)]
    medium: Annotated[int, Field(ge=1, le=10)]
    heavy: Annotated[int, Field(ge=1, le=10)]
    full_cover_bonus: Literal[1, 2] = Field(2, description="added in Full Cover (MBT 6.5.4.2.2, Q28)")

    def for_cover(self, cover: str) -> int:
        """The listed value for a cover class ('none', 'light', 'medium', 'heavy')."""
        return getattr(self, cover)


class LegBody(StrictModel):
    """Body of an MBT leg unit card: squad, half-squad or section (MBT 5.1, Leg Data Card Key).

    ``weapons`` are the intrinsic weapons (usually one GP row); ``attached_weapons`` the crew-served weapon cards
    (category ``crew_served``) the unit fields by default (MBT 5.1.3; a scenario may override them with
    ``extension.attachments``). A squad's counter carries its half-squad on the reverse: ``half_squad`` names
    that card (MBT 5.1.1)."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = None
    unit_type: str = Field(description="e.g. 'Motor Rifle', 'Heavy Motor Rifle', 'Mech Infantry' (MBT 5.1.1)")
    leg_size: LegSize
    half_squad: str | None = Field(None, description="unit id of the half-squad this squad is reduced to "
                                                     "(MBT 5.1.1); squads only")
    is_combat_unit: bool = True
    labels: list[UnitLabel] = Field(default_factory=list)
    command_level: CommandLevel | None = None
    movement: LegMovement = Field(description="'2L 3' (squads, half-squads; sections without attached weapons)")
    movement_with_weapons: LegMovement | None = Field(
        None, description="sections with attached crew-served weapons: '1L 0' (MBT 5.1.2)")
    size: SpotSize = Field(description="spotting size S or L (MBT 6.1.3)")
    gp_defense: CoverGpDefense
    passenger_capacity: Transport = Field(description="reverse-image 't-l' passenger capacity (MBT 6.6.7.1)")
    weapons: list[Weapon] = Field(default_factory=list, description="intrinsic weapons (MBT 5.1.1)")
    attached_weapons: list[str] = Field(default_factory=list, description="crew-served card ids (MBT 5.1.3)")
    smoke_limit: Annotated[int, Field(ge=0, le=10)] | None = Field(
        None, description="infantry smoke ammo limit, S5 for squads and half-squads (optional rule 7.22)")
    motorcycle: bool = Field(False, description="moves as a wheeled vehicle (MBT 6.6.4.4, FRG)")
    motorcycle_movement: Movement | None = Field(
        None, description="the W=Wheeled Movement Factors a motorcycle unit moves by instead of 'movement', e.g. "
                          "'8W 12-20' (MBT 6.6.4.4); required with 'motorcycle'")
    dismounted_fo: bool = Field(False, description="dismounted FO (optional rule 7.39)")
    notes: str = ""


class CrewServedBody(StrictModel):
    """Body of a crew-served weapon card (Crew-Served Weapons Data Card Key, MBT 5.1.3): HMG, ATGM (Dragon), HHATW
    (AT4, LAW, RPG), grenade launcher, MANPADS, mortar, flamethrower. Never fielded alone: a leg unit lists it in
    ``attached_weapons`` (MBT 5.1.3). Its firing restrictions (transported, upper floors, Short Halt) are the
    weapon's ``restrictions``; ATGM and HHATW GP factors sit in the ammo row (``atgm.gp``, ``fixed_gp``)."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = None
    weapon_type: WeaponType
    weapon: Weapon
    passenger_capacity: Transport = Field(default_factory=Transport, description="extra capacity the weapon needs "
                                                                                 "when transported (usually 0-0)")
    notes: str = ""


class TowedBody(StrictModel):
    """Body of a towed unit card: AT guns, ATGM launchers, infantry guns, AA guns (MBT 5.2, Towed Data Card Key).
    The crew is built in. Front 60° field of fire (weapons TT 60, front) unless ``platform_gun_mount`` (7.16)."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = None
    is_combat_unit: bool = True
    labels: list[UnitLabel] = Field(default_factory=list)
    movement: LegMovement = Field(description="'1L 0': manhandling allowance, quickmarch always 0 (MBT 6.6.5)")
    manhandle: bool = Field(True, description="may move 1 hex without transport; false for very large guns "
                                              "(MBT 5.2, 6.6.5)")
    size: SpotSize
    gp_defense: CoverGpDefense
    passenger_capacity: Transport = Field(description="'t-l'; NSV HMG and SPG-9 have towed 0: carried like leg "
                                                      "units (MBT 6.6.7.1)")
    platform_gun_mount: bool = Field(False, description="360° field of fire (optional rule 7.16)")
    weapons: Annotated[list[Weapon], Field(min_length=1)]
    weight_tons: Annotated[float, Field(gt=0, le=999)] | None = Field(
        None, description="weight for pushing it off a narrow road (optional rule 7.30)")
    notes: str = ""


# ------------------------------------------------------------------ aircraft and helicopters

class LoadOption(StrictModel):
    """One weapon load a fixed-wing aircraft may carry (Load Notations, MBT 6.7.1)."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,39}$")]
    kind: LoadKind
    name: str = ""
    points: Annotated[int, Field(ge=0, le=999)] = Field(description="cost per load, e.g. A-10A Bomb 30")
    gp_factor: Annotated[int, Field(ge=1, le=15)] | None = Field(None, description="GP factor of the attack "
                                                                                   "(none for drop tanks, ECM pods)")
    attacks: Annotated[int, Field(ge=0, le=20)] = Field(1, description="attacks per load (MBT 5.16.2.5)")
    pgm_points: Annotated[int, Field(ge=0, le=99)] | None = Field(
        None, description="extra points to fit the load as a PGM (iron and cluster bombs: +20, MBT 6.7.3.7)")
    modifier: int = Field(0, ge=-50, le=50, description="data-card load modifier (MBT 6.7.3.8)")
    range: Annotated[str, Field(pattern=r"^[0-9]{1,2}-[0-9]{1,2}$")] | None = Field(
        None, description="rockets 6-30 or 6-40 (MBT 6.7.3.4)")


class Strafe(StrictModel):
    """Integral cannon(s): a GP attack on the strafe pattern (MBT 6.7.3.2)."""

    name: str = Field(description="e.g. '30mm GAU-8/A'")
    gp_factor: Annotated[int, Field(ge=1, le=15)]
    attacks: Annotated[int, Field(ge=0, le=20)] = Field(description="'A' column: strafing attacks available")


class FixedWingBody(StrictModel):
    """Body of a fixed-wing aircraft card (Aircraft Data Card Key, MBT 5.4.1, 6.7.1-6.7.3). Aircraft never stay on
    the map: scenarios list them in ``extension.aircraft`` with the loads chosen."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = None
    base_points: Annotated[int, Field(ge=0, le=9999)] = Field(description="clean aircraft, e.g. A-10A 174")
    max_loads: Annotated[int, Field(ge=0, le=20)] = Field(description="'LD: #' (MBT 6.7.1), e.g. A-10A 6")
    crew: Literal[1, 2] = Field(1, description="Crew: 2 gives a Front 120° field of fire (MBT 6.7.3.1)")
    speeds: list[Speed] = Field(default_factory=lambda: ["slow", "fast"], description="MBT 6.7.2.2")
    altitudes: list[Altitude] = Field(default_factory=lambda: ["low", "medium", "high"], description="MBT 6.7.2.2")
    gp_defense: GpDefense = Field(description="target type S (MBT 6.5.4.2.4)")
    strafe: Strafe
    loads: list[LoadOption] = Field(default_factory=list)
    countermeasures: bool = Field(False, description="flares / ECM notation (MBT 6.7.8.2.1)")
    all_weather: bool = Field(False, description="MBT 6.7.2.4")
    notes: str = ""

    def load_points(self, loads: list[str], pgm: list[str] = ()) -> int:
        """Points of the aircraft with these loads (one id per load carried), ``pgm`` naming the loads fitted as
        PGMs (+``pgm_points`` each): the base value plus each load's points (MBT 6.7.1). KeyError for an id the
        card does not list."""
        by_id = {load.id: load for load in self.loads}
        return self.base_points + sum(by_id[i].points for i in loads) + sum(by_id[i].pgm_points or 0 for i in pgm)


class HelicopterMovement(StrictModel):
    """Low and NOE movement speed allowances, e.g. Mi-24V 26 / 10 (MBT 6.7.5.1)."""

    low: Annotated[int, Field(ge=1, le=99)]
    noe: Annotated[int, Field(ge=1, le=99)]


class WeaponCount(StrictModel):
    """A weapon of the card and the exact number of shots carried (MBT 5.16.2.5); ``null`` = unlimited (guns)."""

    weapon: str = Field(description="weapon id of the card")
    count: Annotated[int, Field(ge=0, le=99)] | None = None


class HelicopterConfig(StrictModel):
    """One weapon fit with its points, e.g. Mi-24V 1xHMG, 4xRockets, 4xSpiral, 168 (MBT 6.7.4)."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,39}$")]
    name: str = ""
    points: Annotated[int, Field(ge=0, le=9999)]
    weapons: Annotated[list[WeaponCount], Field(min_length=1)]


class HelicopterBody(StrictModel):
    """Body of a helicopter card (Helicopter Data Card Key, MBT 5.4.2, 6.7.4-6.7.9). ``weapons`` are vehicle-type
    weapons (side-mounted ones TT 120 marked front, rockets FOF 0 = TT 60 front); ``configs`` the weapon fits with
    their counts. Passengers always ride Under Armor (MBT 6.7.5.3)."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = None
    is_combat_unit: bool = True
    labels: list[UnitLabel] = Field(default_factory=list)
    movement: HelicopterMovement
    transport: Transport = Field(default_factory=Transport, description="'TR: t-l', e.g. UH-60A 1-3 (6.7.5.3)")
    gp_defense: GpDefense = Field(description="target type S (MBT 6.5.4.2.4)")
    weapons: list[Weapon] = Field(default_factory=list)
    configs: list[HelicopterConfig] = Field(default_factory=list)
    countermeasures: bool = Field(False, description="Unit Identifier notation (MBT 6.7.8.2.1), e.g. Mi-24V")
    may_observe: bool = Field(False, description="'may observe' in Notes (MBT 6.7.7)")
    mast_mounted_sight: bool = Field(False, description="MBT 6.7.6.1.3, e.g. OH-58D")
    laser_designator: bool = Field(False, description="MBT 6.7.6.5, e.g. AH-64A")
    all_weather: bool = Field(False, description="MBT 6.7.5.4")
    notes: str = ""


# ------------------------------------------------------------------ off-map artillery

class CounterBattery(StrictModel):
    """Counter-battery data of an artillery card (optional rule 7.28.2; values beyond the location range
    01-40 are not in the text)."""

    location_max: Annotated[int, Field(ge=0, le=100)] = Field(40, description="location roll 01-40")
    victory_points: Annotated[int, Field(ge=0, le=999)] | None = None


class BatteryBody(StrictModel):
    """Body of an off-map artillery battery card, e.g. UM-7A, SM-7A (MBT 5.3, 6.5.1.2). ``weapon`` holds the GP-IF
    rows (range bands and GP factors) and the special-mission ammo limits P, C, M, S, I (MBT 5.16.2.4: GP ammo is
    unlimited); ``missions`` the fire types it may deliver ('SMK' in the Type of Unit column = smoke). The
    attachment level (attached / organic / unattached) is a scenario matter: ``extension.artillery``."""

    card_ref: Annotated[str, Field(pattern=r"^[A-Z]{2,3}-[0-9]{1,2}[A-Z]?[0-9]?$")] | None = None
    battery_class: BatteryClass
    tubes: Annotated[int, Field(ge=1, le=12)] = Field(description="guns in the battery (MBT 6.5.1.2)")
    self_propelled: bool = Field(False, description="SP battery (+10 counter-battery location, 7.28.2)")
    missions: Annotated[list[IfMission], Field(min_length=1)] = Field(description="MBT 6.5.1.6")
    weapon: Weapon
    counter_battery: CounterBattery | None = None
    notes: str = ""


# ------------------------------------------------------------------ scenario extension

class MbtScenarioExtension(StrictModel):
    """MBT-specific scenario block (digest b.11)."""

    game: Literal["basic", "advanced"] = Field("basic", description="rule layer (MBT 1.0)")
    force_grades: dict[str, Grade] = Field(default_factory=dict, description="side id -> Force Grade (MBT 5.8)")
    formation_grades: dict[str, dict[str, Grade]] = Field(
        default_factory=dict, description="side id -> force id -> Formation Grade (MBT 5.8.2: command control; its "
                                          "units' Unit Grade, 5.8.3); a force without one takes its side's Force Grade")
    objective_turns: Annotated[int, Field(ge=1, le=20)] = Field(
        1, description="complete turns a hex must be occupied to be held (MBT 3.6)")
    building_stories: dict[str, Annotated[int, Field(ge=1, le=9)]] = Field(
        default_factory=dict, description="hex -> stories; default 1 (MBT 4.1.4.1.3)")
    building_construction: dict[str, Literal["wood", "brick", "stone"]] = Field(
        default_factory=dict, description="building hex -> construction; others take the ruleset's default "
                                          "(table building-cover, option building-spotting-cover, MBT 6.1.4.3.9)")
    hasty_entrenchments: dict[str, Literal["1", "2", "3", "hasty"]] = Field(
        default_factory=dict, description="hex -> Hasty Entrenchment counter side at the start: 1-3 construction "
                                          "turns done, or hasty (complete) (MBT 6.6.8)")
    improved_positions: list[str] = Field(default_factory=list,
                                          description="hexes with an Improved Position (MBT 6.1.4.3.7)")
    heat_haze: bool = False
    artillery: list["BatteryAssignment"] = Field(default_factory=list,
                                                 description="off-map batteries of each side (MBT 6.5.1.3)")
    aircraft: list["AircraftAssignment"] = Field(default_factory=list,
                                                 description="fixed-wing aircraft of each side (MBT 6.7.1-6.7.2)")
    mounted: list["MountedForce"] = Field(default_factory=list,
                                          description="forces whose leg/towed units start as passengers (6.6.7)")
    attachments: list["AttachmentOverride"] = Field(default_factory=list,
                                                    description="crew-served weapons per leg slot (MBT 5.1.3)")
    pre_registered: list["PreRegisteredPoint"] = Field(
        default_factory=list, description="Pre-Registered Points, written before set-up (MBT 6.5.1.4)")
    planned_fire: list["PlannedFire"] = Field(default_factory=list,
                                              description="Planned Indirect Fire plots (MBT 6.5.1.11)")
    counter_battery: list["CounterBatteryAsset"] = Field(
        default_factory=list, description="dedicated counter-battery assets of each side (optional rule 7.28)")
    minefields: list["MinefieldPlot"] = Field(
        default_factory=list, description="minefield plots of each side, hidden unless visible (MBT 7.31.1, optional "
                                          "rule mines)")
    narrow_roads: list[str] = Field(
        default_factory=list, description="hexes whose roads and paths are narrow (MBT 7.30, optional rule "
                                          "narrow-roads)")
    weight_limits: list["WeightLimit"] = Field(
        default_factory=list, description="bridge and ice weight limits by hexside (MBT 7.32, optional rule "
                                          "weight-limits); unlisted bridges are unlimited")
    terrain_gpd: dict[str, Annotated[int, Field(ge=1, le=10)]] = Field(
        default_factory=dict, description="hex -> GP Defense of its variable-defense terrain (blocks, bridges, "
                                          "wire); none listed = it cannot be attacked (MBT 6.5.4.2.5)")
    fire_terrain: dict[str, "FireTerrain"] = Field(
        default_factory=dict, description="hex -> how its Brush, Crops, Scrub or Woods terrain burns: as a wood, "
                                          "brick or stone building, with a modifier on the fire roll (optional rule "
                                          "7.35.4, fires)")
    # ---- Optional Rules of morale, hidden units, spotting and command (MBT 7.1-7.7, 7.24, 7.36, 7.40-7.46)
    morale: list["FormationMorale"] = Field(default_factory=list,
                                            description="Cohesion Point of each formation (optional rule 7.1)")
    hidden_units: list["HiddenCounter"] = Field(default_factory=list,
                                                description="HIDDEN UNIT counters at set-up (optional rule 7.2)")
    hidden_limit: dict[str, Annotated[int, Field(ge=0, le=99)]] = Field(
        default_factory=dict, description="side id -> most HIDDEN UNIT counters on the map (optional rule 7.2.2)")
    platoons: dict[str, str] = Field(default_factory=dict,
                                     description="unit name -> platoon/section id (optional rule 7.3)")
    camouflaged: list[str] = Field(default_factory=list,
                                   description="names of units set up camouflaged (optional rule 7.24)")
    delayed_reaction: list["DelayedReaction"] = Field(default_factory=list,
                                                      description="units held to N/C (optional rule 7.40)")
    disrupted_communications: "DisruptedCommunications | None" = Field(
        None, description="level and sides of disrupted communications (optional rule 7.42)")
    command_span: dict[str, Annotated[int, Field(ge=0, le=99)]] = Field(
        default_factory=dict, description="force id -> company (CHQ) Command Span in hexes, default from table "
                                          "command-span (optional rule 7.43)")
    ground_radar: list[str] = Field(default_factory=list,
                                    description="names of units with an active Ground-Based Radar (optional rule 7.46)")
    searchlights_on: list[str] = Field(default_factory=list,
                                       description="names of units starting with an active searchlight (7.36.4.1)")
    ground_conditions: Literal["normal", "snow", "mud"] = Field(
        "normal", description="ground weather (optional rule 7.36.3)")
    cautious_movement: bool = Field(False, description="limited-visibility cautious movement (optional rule 7.36.2)")
    ground_hexes: list[str] = Field(
        default_factory=list, description="hexes the ground conditions apply to; empty = the whole map (optional rule "
                                          "7.36.3: 'only certain portions of the mapboard')")
    very_limited_visibility: bool = Field(
        False, description="the limited-visibility turns are very limited: with cautious movement vehicles get no "
                           "path or road rate (optional rule 7.36.2)")
    command_units: dict[str, CommandLevel] = Field(
        default_factory=dict, description="unit name -> its command level (CHQ, BHQ, RHQ) where the card does not "
                                          "say it (optional rules 7.1, 7.3, 7.43)")
    command_tree: dict[str, str] = Field(
        default_factory=dict, description="force id -> the force id of its superior formation: an HQ (BHQ, RHQ) "
                                          "commands its own formation and every formation below it; formations "
                                          "with no such HQ above them have it off map, in span (optional rule "
                                          "7.43)")


class FormationMorale(StrictModel):
    """The Cohesion Point of a formation (MBT 7.1.1): a listed Numeric Cohesion Point, or a listed level whose
    number follows from the formation's combat units, or neither (rolled, MBT 7.1.1.1)."""

    force: str = Field(description="force id of the formation")
    cohesion: Literal["superb", "exceptional", "outstanding", "superior", "excellent", "good", "adequate", "fair",
                      "poor"] | None = Field(None, description="listed Cohesion Point level")
    cohesion_point: Annotated[int, Field(ge=0, le=99)] | None = Field(None, description="listed Numeric CP")
    deployment: Literal["int", "plus1", "plus2", "plus3", "plus4"] = Field(
        "int", description="deployment column of the Cohesion Point Table when it is rolled (MBT 7.1.1.1)")


class HiddenCounter(StrictModel):
    """A HIDDEN UNIT counter (MBT 7.2.1): units of one formation, or none (a fake)."""

    id: str
    side: str = Field(description="side id of the owner")
    hex: str = Field(description="hex of the counter (one of its units is there, MBT 7.2.2)")
    units: list[str] = Field(default_factory=list, description="unit names it stands for; empty = a fake")


class DelayedReaction(StrictModel):
    """Units that must take N/C until ``until_turn``, and for ``after_spotting`` turns after they first spot an
    opposing unit (MBT 7.40: the delay in responding to sighting)."""

    units: Annotated[list[str], Field(min_length=1)]
    until_turn: Annotated[int, Field(ge=1, le=200)] = Field(1, description="first turn they may take other commands")
    after_spotting: Annotated[int, Field(ge=0, le=20)] = Field(
        0, description="turns of N/C from the turn a unit first spots an opposing unit (0 = no such delay; "
                       "before it spots one it is not yet prepared: N/C)")


class DisruptedCommunications(StrictModel):
    """Disrupted Communications conditions (MBT 7.42)."""

    level: Literal["slight", "moderate", "intense"]
    sides: list[str] = Field(default_factory=list, description="side ids subject to it; empty = every side")


class MinefieldPlot(StrictModel):
    """A minefield plotted at set-up by ``side`` (MBT 7.31.1.1): its hexes, the field type and the mines."""

    side: str
    hexes: Annotated[list[str], Field(min_length=1)]
    field: Literal["hasty", "deliberate"] = Field(description="Hasty or Deliberate (FASCAM is laid in play)")
    mines: Literal["av", "ap", "both"] = Field("both", description="anti-vehicular, anti-personnel or both")
    visible: bool = Field(False, description="the scenario shows it to the enemy (MBT 7.31.1)")
    gp_defense: Annotated[int, Field(ge=1, le=10)] | None = Field(
        None, description="GP Defense for clearing; default by field type (table minefield-values, MBT 7.31.3)")
    contiguous: bool = Field(True, description="its hexes must touch (MBT 7.31.1.1: 'unless otherwise indicated'); "
                                               "false when the scenario allows a scattered plot")


class FireTerrain(StrictModel):
    """A non-building hex that may catch fire (MBT 7.35.4): the building construction it is checked as and any
    additional modifier on the roll (100)."""

    construction: Literal["wood", "brick", "stone"]
    modifier: Annotated[int, Field(ge=-99, le=99)] = 0


class WeightLimit(StrictModel):
    """A weight limit on the hexside ``side`` of ``hex``: a bridge, or the ice of a frozen stream (MBT 7.32)."""

    hex: str
    side: Literal["N", "NE", "SE", "S", "SW", "NW"]
    tons: Annotated[float, Field(gt=0, le=999)]
    kind: Literal["bridge", "ice"] = "bridge"


class BatteryAssignment(StrictModel):
    """An off-map battery available to a side (MBT 6.5.1.3). ``attached``: to the formation named by ``force``
    (and ``echelon``, a TO&E echelon path; empty = the force's root); ``organic``: at the highest formation of the
    force only (6.5.1.3.2); ``unattached``: to no formation, every observer of the side calls it as Unattached
    (6.5.1.3.3)."""

    side: str
    battery: str = Field(description="unit id of a 'battery' card")
    count: Annotated[int, Field(ge=1, le=12)] = 1
    attachment: Attachment
    force: str | None = Field(None, description="force id of the formation (attached, organic)")
    echelon: str = Field("", description="echelon path inside the force's TO&E (attached), e.g. 'coy/plt-2'")
    special_missions: dict[Literal["P", "C", "M", "S", "I"], Annotated[int, Field(ge=0, le=99)]] = Field(
        default_factory=dict, description="special fire missions allocated (MBT 5.16.2.4)")


Sheaf = Literal["open", "closed", "closed_linear"]       # MBT 6.5.1.5 (the on-map/CLGP sheaf is never planned)


class PreRegisteredPoint(StrictModel):
    """A hex some off-map batteries of a side are zeroed on (MBT 6.5.1.4)."""

    side: str
    hex: str
    batteries: list[str] = Field(default_factory=list, description="battery card ids; empty = all of the side's")


class PlannedSegment(StrictModel):
    """One part of a planned fire plot: a mission type, sheaf and target hex for some turns (MBT 6.5.1.11.1)."""

    mission: IfMission
    sheaf: Sheaf
    hex: str
    turns: Annotated[int, Field(ge=1, le=5)] = 1
    direction: Annotated[int, Field(ge=0, le=5)] = Field(
        0, description="hexside the Closed Linear SHEAF runs out along from the hex (the text leaves it open, Q18)")


class PlannedFire(StrictModel):
    """A Planned Indirect Fire plot of an off-map battery: arrives on ``turn``, then its segments in order
    (MBT 6.5.1.11.1, e.g. 'Turn 6, GP, Closed, 1L6, 2 turns; Smoke, Open, 1 turn; GP, Open, 2 turns')."""

    side: str
    battery: str = Field(description="battery card id of the side's extension.artillery")
    turn: Annotated[int, Field(ge=1, le=99)]
    segments: Annotated[list[PlannedSegment], Field(min_length=1)]


class CounterBatteryAsset(StrictModel):
    """Dedicated counter-battery units of a side (optional rule 7.28.1): not the batteries supporting the force;
    each may try to locate one opposing off-map battery per turn."""

    side: str
    battery: str = Field(description="unit id of the 'battery' card the asset fires with (its name)")
    count: Annotated[int, Field(ge=1, le=12)] = 1


class AircraftAssignment(StrictModel):
    """Fixed-wing aircraft of a side with the loads fitted before set-up (MBT 6.7.1) and when they may appear
    (6.7.2.1: default any turn)."""

    side: str
    aircraft: str = Field(description="unit id of a 'fixed_wing' card")
    count: Annotated[int, Field(ge=1, le=12)] = 1
    loads: list[str] = Field(default_factory=list, description="load option ids, one entry per load carried")
    pgm: list[str] = Field(default_factory=list, description="load ids fitted as PGMs, one entry per load "
                                                             "(iron and cluster bombs, +20 points, MBT 6.7.3.7)")
    first_turn: Annotated[int, Field(ge=1, le=99)] = 1
    last_turn: Annotated[int, Field(ge=1, le=99)] | None = None


class MountedForce(StrictModel):
    """The leg and towed units of ``force`` start as passengers of the vehicles of ``carriers`` (default the same
    force), assigned in TO&E order by :func:`assign_passengers` (MBT 6.6.7.1)."""

    force: str
    carriers: str | None = None


class AttachmentOverride(StrictModel):
    """Crew-served weapons of the leg units of one slot of a force (replaces the card's ``attached_weapons``)."""

    force: str
    slot: str = Field(description="slot path inside the force's TO&E, e.g. 'plt/sqd'")
    weapons: list[str] = Field(default_factory=list, description="crew-served card ids")


def assign_passengers(carriers: list[tuple[str, Transport]],
                      passengers: list[tuple[str, Transport]]) -> tuple[dict[str, str], list[str]]:
    """Seat each passenger, in order, on the first carrier (in order) whose remaining capacity holds it (MBT
    6.6.7.1): leg capacity covers the passenger's leg component, towed capacity its towed component, and a
    carrier tows at most one unit. Returns ``(passenger key -> carrier key, keys left unseated)``."""
    room = {key: [cap.towed, cap.leg] for key, cap in carriers}
    towing: set[str] = set()
    seats: dict[str, str] = {}
    left: list[str] = []
    for key, need in passengers:
        for ckey, _cap in carriers:
            towed, leg = room[ckey]
            if need.towed and (ckey in towing or towed < need.towed):
                continue
            if leg < need.leg:
                continue
            room[ckey] = [towed - need.towed, leg - need.leg]
            if need.towed:
                towing.add(ckey)
            seats[key] = ckey
            break
        else:
            left.append(key)
    return seats, left


CommandVariant.model_rebuild()
MbtScenarioExtension.model_rebuild()

#: card category -> body model (``category:`` of a unit document; registered in ``__init__``)
CARD_BODIES = {"vehicle": VehicleBody, "leg": LegBody, "crew_served": CrewServedBody, "towed": TowedBody,
               "fixed_wing": FixedWingBody, "helicopter": HelicopterBody, "battery": BatteryBody}
