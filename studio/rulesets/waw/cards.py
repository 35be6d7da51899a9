"""World at War: America Conquered counter bodies and the scenario extension block.

A counter (WaW 1.2) carries, per side (full strength = coloured bar, Reduced = white bar; helicopters have a
Flying and a Hovering side instead, WaW 9.1): AP (red), HE (yellow) and AA (blue) Firepower with underline
(Moving Fire, WaW 6.1.3) and "+" (augmented, WaW 6.3.2) marks, To Hit numbers per fire type (digest C55),
Range with the underline that forbids extended range (WaW 6.1.1), Armor and Save (WaW 6.1), Movement factor and
type with the circled (transport, WaW 5.2), green (amphibious, WaW 5.3) and "T" (towed, WaW 1.3.9) marks, and the
Assault factor (WaW 6.3). HQs add Command range, Leadership and the formation Morale (WaW 1.3.3, 1.6).

The models fix types only; rule-level consistency (a To Hit of 7 cannot be rolled on a d6, an AFV needs both
Armor and Save ...) is reported by ``checks.py`` with stable ``waw.*`` codes so the finding names its rule.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from studio.model.base import Id, Ref, StrictModel, ref_to
from studio.model.documents import HexLabel

# ------------------------------------------------------------------ enumerations (digest B.1)

UnitClass = Literal[
    "infantry", "militia_cav", "rcl", "mortar_crew", "sp_mortar", "towed_gun", "afv", "thin_skinned_vehicle",
    "unarmored_vehicle", "aa_vehicle", "bridging", "on_map_artillery", "helicopter", "hq", "leader", "hero",
    "sniper", "support_weapon"]
MovementType = Literal["tracked", "wheeled", "helicopter", "foot", "towed"]
SideName = Literal["NATO", "Alliance"]
MovingFireLevel = Literal["none", "L1", "L2"]
ArtilleryType = Literal["HE", "Smoke", "FASCAM", "Chemical", "DPICM", "MLRS"]

#: small integers; the checks (not the schema) enforce the d6 limits so the finding can cite the rule
Small = Annotated[int, Field(ge=0, le=99)]

VEHICLE_CLASSES = ("afv", "thin_skinned_vehicle", "unarmored_vehicle", "aa_vehicle", "bridging", "sp_mortar",
                   "on_map_artillery")
INFANTRY_CLASSES = ("infantry", "militia_cav", "rcl", "mortar_crew")


class ToHit(StrictModel):
    """Hit Number per fire type: a die showing this value or more scores a Hit (WaW 1.2.1)."""

    ap: Small | None = None
    he: Small | None = None
    aa: Small | None = None


class Movement(StrictModel):
    mp: Small | None = Field(None, description="Movement Factor; null for towed 'T' units (WaW 1.3.9)")
    type: MovementType = "tracked"
    circled: bool = Field(False, description="circled MF: may transport infantry, SW and T units (WaW 5.2)")
    green: bool = Field(False, description="green MF: amphibious, may cross river/lake hexes (WaW 5.3)")
    towed: bool = Field(False, description="'T' printed instead of a Movement Factor (WaW 1.3.9, 5.2.5)")


class ArtilleryMode(StrictModel):
    fp: Small
    to_hit: Small
    range: Small | None = Field(None, description="null = unlimited (WaW 8.7)")


class OnMapArtillery(StrictModel):
    """On-map artillery (2S1, M198, BM-21): a fixed and an unlimited HE use (WaW 8.7; digest C19)."""

    fixed: ArtilleryMode | None = None
    unlimited: ArtilleryMode | None = None


class SideValues(StrictModel):
    """The values printed on one side of a counter (WaW 1.2.1)."""

    ap_fp: Small | None = Field(None, description="red AP Firepower: d6 rolled against armored targets")
    ap_fp_underlined: bool = Field(False, description="underlined AP FP: Moving Fire capable (WaW 6.1.3)")
    ap_fp_augmented: bool = Field(False, description="'+' augmented (WaW 6.3.2)")
    he_fp: Small | None = Field(None, description="yellow HE Firepower")
    he_fp_underlined: bool = False
    he_fp_augmented: bool = False
    aa_fp: Small | None = Field(None, description="blue AA Firepower, only against air targets (WaW 1.3.4.5)")
    to_hit: ToHit = Field(default_factory=ToHit)
    range: Small | None = Field(None, description="normal range in hexes")
    range_underlined: bool = Field(False, description="underlined Range: no extended range; missile unit "
                                                      "unless a mortar (WaW 6.1.1, 6.1.4)")
    armor: Small | None = Field(None, description="Armor Factor: d6 rolled to cancel Hits")
    save: Small | None = Field(None, description="Save Number: a die >= it cancels one Hit")
    movement: Movement = Field(default_factory=Movement)
    assault_fp: Small | None = Field(None, description="Assault Factor; null = cannot attack or counterattack "
                                                       "in Assault (WaW 6.3)")
    assault_augmented: bool = False
    assault_to_hit: Small | None = Field(None, description="Assault Hit Number (digest C55)")
    command_range: Small | None = Field(None, description="HQ Command range in hexes (WaW 1.3.3)")
    leadership: Small | None = Field(None, description="HQ/Leader Leadership (WaW 1.3.3.2, 1.3.6)")
    artillery: OnMapArtillery | None = None


class Morale(StrictModel):
    """Formation Morale printed on the HQ (WaW 1.6); ``conditional`` = '2+' style Conditional Morale (1.6.1)."""

    value: Small
    conditional: bool = False


class SupportWeapon(StrictModel):
    attaches_to: Literal["infantry", "tank"] = "infantry"
    long_range: bool = Field(False, description="long-range SWs are not used in Assault (WaW 1.3.5)")


class WawCounter(StrictModel):
    """Body of a World at War unit counter."""

    unit_class: UnitClass
    side: SideName
    formation: str = Field("", description="printed Formation name (WaW 1.5)")
    type_label: str = Field("", description="printed Type (vehicle or NATO symbol)")
    recon: bool = Field(False, description="recon symbol (WaW 1.3.4.4)")
    mortar: bool = Field(False, description="mortar symbol (WaW 1.3.4.3)")
    sniper_rifle: bool = False
    single_strength: bool = Field(False, description="one strength level: helicopters, AA units (WaW 1.3.2, "
                                                      "1.3.4.5)")
    moving_fire: MovingFireLevel = Field("none", description="Moving Fire Table level (WaW 6.1.3)")
    moving_fire_qualifier: Literal["none", "he_only", "aa_only"] = "none"
    advanced_imaging: bool = Field(False, description="Advanced Imaging column of the Moving Fire Table")
    cannot_assault: bool = Field(False, description="e.g. Airboats (Targeting Table note 5)")
    no_assault_bonus: bool = Field(False, description="e.g. Cutler Bay Police (Targeting Table note 5)")
    full: SideValues | None = None
    reduced: SideValues | None = None
    flying: SideValues | None = None
    hovering: SideValues | None = None
    morale: Morale | None = Field(None, description="HQ: formation Morale; Leader: own Morale")
    hq_type: str | None = Field(None, description="HQ: unit type (category) it must stay with (WaW 1.3.3.1)")
    support_weapon: SupportWeapon | None = None
    hallowed_ground_reverse: bool = Field(False, description="Leaders and Heroes (WaW 1.3.6.1, 1.3.7)")
    ops_complete_reverse: bool = Field(False, description="Snipers (WaW 1.3.8)")

    def sides(self) -> list[tuple[str, SideValues]]:
        return [(n, v) for n in ("full", "reduced", "flying", "hovering") if (v := getattr(self, n)) is not None]


# ------------------------------------------------------------------ scenario extension (digest B.11)

class FormationSpec(StrictModel):
    """One formation (WaW 1.5): a scenario force with its formation markers (WaW 1.7.1, 4.0)."""

    id: Id
    force: Ref = Field(description="id of the scenario force that is this formation")
    name: str = ""
    kind: Literal["ground", "helicopter", "mob"] = "ground"
    markers: Annotated[int, Field(ge=0, le=9)] = Field(1, description="formation markers in the cup (WaW 4.0)")
    morale: Morale | None = Field(None, description="override of the HQ-printed Morale")


class ArtilleryAsset(StrictModel):
    """Off-board artillery support ``N x FH`` (WaW 8.0), e.g. '1 x 45' = one mission, FP 4, Hit 5."""

    id: Id
    side: Ref
    type: ArtilleryType = "HE"
    formula: str = Field(description="'N x FH', e.g. '2 x 45'")
    nationality: str = ""


class AirStrike(StrictModel):
    id: Id
    side: Ref
    ap_fp: Small | None = None
    he_fp: Small | None = None
    to_hit: Small | None = None
    armor: Small | None = None
    save: Small | None = None
    from_turn: Annotated[int, Field(ge=1)] = 1


class CupSpec(StrictModel):
    end_turn: Annotated[int, Field(ge=0, le=9)] | None = Field(
        None, description="End Turn markers (WaW 1.7.2); null = the ruleset's constants end_turn_markers")
    chaos: Annotated[int, Field(ge=0, le=9)] = Field(0, description="Chaos! markers (WaW 11.0)")
    air_cover: list[Ref] = Field(default_factory=list, description="side ids with an Air Cover marker (9.6)")
    jammed: list[Ref] = Field(default_factory=list, description="side ids with a Jammed counter (10.0)")
    jammed_instructions: str = ""
    air_cover_aa_fp: Small | None = Field(None, description="AA Firepower of the Air Cover marker (9.6)")
    air_cover_to_hit: Small | None = None


class Fortifications(StrictModel):
    improved_positions: list[HexLabel] = Field(default_factory=list, description="WaW 12.1")
    mines: list[HexLabel] = Field(default_factory=list, description="WaW 12.2")


class Attachment(StrictModel):
    """A Leader, Hero or Sniper attached to a unit of a force (WaW 1.3.6-1.3.8)."""

    unit: ref_to("unit")
    force: Ref
    index: Annotated[int, Field(ge=0)] = Field(0, description="which unit of the force (TO&E order, 0-based)")
    hex: HexLabel | None = None


class Passenger(StrictModel):
    """A unit that starts loaded in a transport (WaW 5.2): passenger and carrier as (force, index)."""

    force: Ref
    index: Annotated[int, Field(ge=0)]
    carrier_force: Ref
    carrier_index: Annotated[int, Field(ge=0)]
    disrupted: bool = False


class SideRole(StrictModel):
    side: Ref
    role: SideName


class WawScenarioExtension(StrictModel):
    """The World at War block of a scenario (WaW 2.0, 13.0)."""

    roles: list[SideRole] = Field(default_factory=list, description="which side is NATO and which Alliance")
    formations: list[FormationSpec] = Field(default_factory=list)
    cup: CupSpec = Field(default_factory=CupSpec)
    artillery: list[ArtilleryAsset] = Field(default_factory=list)
    airstrikes: list[AirStrike] = Field(default_factory=list)
    fortifications: Fortifications = Field(default_factory=Fortifications)
    playable_area: list[HexLabel] = Field(default_factory=list, description="empty = the whole map")
    setup_areas: dict[str, list[HexLabel]] = Field(default_factory=dict,
                                                   description="side id -> set-up area hexes (initial control)")
    leaders: list[Attachment] = Field(default_factory=list)
    heroes: list[Attachment] = Field(default_factory=list)
    snipers: list[Attachment] = Field(default_factory=list)
    wrecks: list[HexLabel] = Field(default_factory=list)
    smoke: list[HexLabel] = Field(default_factory=list)
    support_weapons: list[Attachment] = Field(default_factory=list, description="SW counters with the platoon "
                                              "(force/index) they belong to (WaW 1.3.5)")
    passengers: list[Passenger] = Field(default_factory=list)
    disrupted: list[Attachment] = Field(default_factory=list, description="units that start Disrupted; 'unit' "
                                        "is the card id of the unit at force/index")
