"""MBT (2nd edition) unit card bodies and the scenario extension block.

The field list follows the Data Card sections the rulebook names (General Information, Weapon Data, Offensive
Information, Defensive Information, Notes; MBT 1.5, 4.4.3, 4.5.1.1.1, 5.16.2, 6.5.2.x). The models only fix types
and enumerations; the rule-level consistency checks (band order, FoF marks, S-type armor ...) live in
``checks.py`` so they report stable ``mbt.*`` codes with the rule they enforce.

Range bands are stored as an object ``{P, S, M, L, E}``; a skipped band ("—" on the card) is ``null``.
Gun/GP rows are read left to right (P..E, MBT 4.4.3.2.1); ATGM rows right to left (E..P, MBT 5.1.3.3.2).
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
SpottingAid = Literal["IR", "WL"]                       # MBT 7.36.4 (optional rules)
Grade = Literal["elite", "veteran", "seasoned", "regulars", "green", "raw"]  # MBT 5.8
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


# ------------------------------------------------------------------ scenario extension

class MbtScenarioExtension(StrictModel):
    """MBT-specific scenario block (digest b.11)."""

    game: Literal["basic", "advanced"] = Field("basic", description="rule layer (MBT 1.0)")
    force_grades: dict[str, Grade] = Field(default_factory=dict, description="side id -> Force Grade (MBT 5.8)")
    objective_turns: Annotated[int, Field(ge=1, le=20)] = Field(
        1, description="complete turns a hex must be occupied to be held (MBT 3.6)")
    building_stories: dict[str, Annotated[int, Field(ge=1, le=9)]] = Field(
        default_factory=dict, description="hex -> stories; default 1 (MBT 4.1.4.1.3)")
    building_construction: dict[str, Literal["wood", "brick", "stone"]] = Field(
        default_factory=dict, description="building hex -> construction; others take the ruleset's default "
                                          "(table building-cover, option building-spotting-cover, MBT 6.1.4.3.9)")
    heat_haze: bool = False


CommandVariant.model_rebuild()
