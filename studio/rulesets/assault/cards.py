"""Assault counter bodies and the scenario extension block.

A unit card is one counter type (Assault 1.C, 12.A): a platoon (2 steps, black lettering) or a section (1 step,
white lettering) of one equipment type, with its mobility class and movement allowance (7.D), transport circle
(8.B), armour front/flank with the armour type of each aspect (13.B), fire rows per ammunition type with ROF and
one cell per range column of the ruleset's ``fire-ranges`` table (12.A-D: ``"hit:pen"`` for KP/TP/Msl/API,
a number for HE/SA/APERS/IS, ``"X"`` = cannot fire), an indirect-fire row (19), thermal sights (20.B.2) and the
asterisk role (4.D.1, 10.D).

The models fix types only; rule-level consistency (a section with 2 steps, a leg unit with a movement
allowance, an open circle carrying static units ...) is reported by ``checks.py`` with ``assault.*`` codes.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from studio.model.base import Id, Ref, StrictModel, ref_to
from studio.model.documents import HexLabel

# ------------------------------------------------------------------ enumerations (digest b.1)

SideName = Literal["us", "soviet"]
Size = Literal["platoon", "section"]
Mobility = Literal["T", "W", "R", "L", "S"]
DefenceClass = Literal["afv", "personnel", "weapons", "nav"]
SpottingType = Literal["personnel", "weapon", "vehicle"]
TransportCircle = Literal["none", "open", "filled"]
ArmourType = Literal["chobham", "laminate", "other"]
Role = Literal["line", "recon", "hq", "op", "toc"]
Thermal = Literal["none", "full", "dragon-only"]
AntiArmourAmmo = Literal["KP", "TP", "Msl", "API"]
ConventionalAmmo = Literal["HE", "SA", "APERS", "IS"]
IndirectAmmo = Literal["HE", "ICM", "smoke-chemical", "smoke-incendiary", "CLGP"]
CommandLevel = Literal["battery", "battalion", "regiment", "division", "army", "front"]

ANTI_ARMOUR: tuple[str, ...] = ("KP", "TP", "Msl", "API")
CONVENTIONAL: tuple[str, ...] = ("HE", "SA", "APERS", "IS")

Small = Annotated[int, Field(ge=0, le=999)]
#: a fire cell: "hit:pen" (anti-armour), a fire value (conventional), or "X" (cannot fire at that range)
FireCell = int | str


class Armour(StrictModel):
    """Two armour values, frontal then flank, each with its armour type (Assault 13.B.2-3)."""

    front: Small
    flank: Small
    front_type: ArmourType = "other"
    flank_type: ArmourType = "other"


class FireRow(StrictModel):
    """One ammunition type of the fire data chart (Assault 12.A-D, 13, 14, 23)."""

    ammo: AntiArmourAmmo | ConventionalAmmo
    rof: Annotated[int, Field(ge=0, le=20)] = Field(description="fires per step per phase (Assault 12.D)")
    cells: list[FireCell] = Field(description="one cell per range column of table fire-ranges: 'hit:pen' for "
                                              "KP/TP/Msl/API, a fire value for HE/SA/APERS/IS, 'X' = no fire")
    ammo_supply: Small | None = Field(None, description="basic load in fires (optional rule, Assault 23.A)")
    ammo_pool: Id | None = Field(None, description="shared supply id, e.g. the M-1's TP and HE (Assault 12.C.2.a)")


class IndirectFire(StrictModel):
    """The unit's row of the indirect fire data chart (Assault 19, 20, 22, 23)."""

    fire_value: dict[Literal["HE"], Small] = Field(default_factory=dict, description="fire value per step")
    max_rof_multiplier: Annotated[int, Field(ge=0, le=20)] = Field(1, description="once per scenario (19.D.1)")
    icm_multiplier: Small | None = Field(None, description="U.S. only, some weapons (Assault 19.D.2)")
    smoke: list[Literal["chemical", "incendiary"]] = Field(default_factory=list)
    smoke_screens: Small | None = Field(None, description="screens per step per turn (Assault 19.D.3, option c12)")
    range_hexes: Small = Field(description="printed range; on-map range = range - hexes off board (19.F)")
    ammo_supply: Small | None = None
    self_propelled: bool = Field(False, description="may leave deployment in either movement phase (19.E)")
    calibre_mm: Small | None = Field(None, description="calibre; CLGP only for U.S. 155 mm (Assault 22.A)")
    clgp: bool = Field(False, description="may fire CLGP (optional rule, Assault 22)")
    command_level: CommandLevel | None = Field(
        None, description="Soviet command level of the non-artillery unit it serves (Assault 19.B.3)")


class AssaultCounter(StrictModel):
    """Body of an Assault unit card: one counter type (digest b.2-b.3)."""

    side: SideName
    size: Size = Field(description="platoon (2 steps) or section (1 step, white lettering) (Assault 1.C)")
    steps: Annotated[int, Field(ge=1, le=2)]
    defence_class: DefenceClass = Field(description="class on the conventional fire defence table (14.A)")
    spotting_type: SpottingType = Field(description="target type on the terrain (spotting) table (10.D)")
    armoured: bool = Field(False, description="armoured vehicle: AFV target, adverse spotter (10.D, 11.A.1)")
    mobility: Mobility = Field(description="T tracked, W cross-country wheeled, R road-bound wheeled, L leg, "
                                           "S static (Assault 7.D)")
    amphibious: bool = Field(False, description="'A' beside the mobility class (Assault 7.E.1)")
    movement_allowance: Small | None = Field(None, description="T/W/R only; none for L and S (Assault 7.D)")
    transport: TransportCircle = Field("none", description="open circle: leg units; filled: leg or static (8.B)")
    asterisk: bool = Field(False, description="asterisk unit: moves without OPs (Assault 4.D.1)")
    role: Role = "line"
    hq_transport: bool = Field(False, description="the APC carrying a mechanized HQ (Assault 3.B.5)")
    infantry: bool = Field(False, description="may fire SA from transport; mech-inf morale (8.D, 17.A.1)")
    apc: bool = Field(False, description="armoured personnel carrier (mech-inf company, Assault 17.A.1)")
    armour: Armour | None = None
    cover_divisor: Annotated[int, Field(ge=1, le=9)] = Field(
        2, description="hit number divisor when covered (M-901: 3, Assault 13.A.2)")
    thermal_sights: Thermal = Field("none", description="ignores chemical smoke (Assault 20.B.2)")
    can_call_fire: bool | None = Field(None, description="observer for indirect fire; default from side and "
                                                         "role (Assault 19.B.2)")
    direct_fire: list[FireRow] = Field(default_factory=list)
    indirect_fire: IndirectFire | None = None


# ------------------------------------------------------------------ scenario extension (digest b.8)

class Reinforcement(StrictModel):
    turn: Annotated[int, Field(ge=1)]
    forces: list[Ref] = Field(description="ids of the side's forces entering that turn")
    edge: Literal["north", "east", "south", "west"] | None = Field(
        None, description="entry edge; Soviets enter from the east, U.S. from the west (Assault 24.A)")


class ForceLevel(StrictModel):
    """One of the six numbered force levels a side draws from (Assault 24.B)."""

    level: Annotated[int, Field(ge=1, le=6)]
    forces: list[Ref] = Field(default_factory=list, description="ids of the side's forces set up at the start")
    reinforcements: list[Reinforcement] = Field(default_factory=list)
    vp_multiplier: Annotated[int, Field(ge=0, le=99)]


class BattalionRating(StrictModel):
    """A rating position (U.S. 1-3, Soviet 1-5) and the game battalion it rolls for (Assault 4.B.2)."""

    position: Annotated[int, Field(ge=1, le=9)]
    battalion: Annotated[int, Field(ge=0, le=9)] | None = Field(None, description="battalion number in play, "
                                                                                 "or none (notional)")
    regiment: Annotated[int, Field(ge=90, le=99)] | None = Field(None, description="Soviet: its regiment (3.A)")


class OffBoardArtillery(StrictModel):
    id: Id
    side: SideName
    unit: ref_to("unit") = Field(description="unit card with an indirect fire row")
    count: Annotated[int, Field(ge=1, le=99)] = 1
    hexes_off_board: Small = Field(description="subtracted from the printed range (Assault 19.F)")
    command_level: CommandLevel | None = Field(None, description="Soviet command level, e.g. army (19.B.3)")
    steps: Annotated[int, Field(ge=1, le=2)] = Field(2, description="always full strength (Assault 19.C.2)")


class TimetableEntry(StrictModel):
    turn: Annotated[int, Field(ge=1)]
    unit: str = Field(description="firing unit: an off-board artillery id or a counter designation")
    hex: HexLabel | None = Field(None, description="target hex; none when the line is 'on call'")
    ammo: IndirectAmmo = "HE"
    on_call: bool = False


class FireTimetable(StrictModel):
    """The Soviet fire timetable, written before the U.S. sets up (Assault 21)."""

    enabled: bool = False
    entries: list[TimetableEntry] = Field(default_factory=list)


class Entrenchments(StrictModel):
    count: Small = Field(0, description="entrenchments the side may place (Assault 18)")
    hexes: list[HexLabel] = Field(default_factory=list, description="where they are placed at set-up")


class CounterState(StrictModel):
    """Set-up state of one counter, by designation (Assault 7.C, 7.F, 7.G, 8, 18, 19.E)."""

    formation: Literal["march", "combat"] = "combat"
    facing: Annotated[int, Field(ge=0, le=5)] = Field(0, description="hexside (march) or vertex (combat) 0-5")
    cover: bool = False
    carrier: str | None = Field(None, description="designation of the counter carrying it (Assault 8)")
    deployed: bool = False
    entrenched: bool = False


class AssaultScenarioExtension(StrictModel):
    """Assault-specific scenario block (digest b.8)."""

    force_levels: dict[Id, list[ForceLevel]] = Field(default_factory=dict, description="side id -> six levels")
    battalions: dict[Id, list[BattalionRating]] = Field(default_factory=dict,
                                                        description="side id -> rating positions (4.B.2)")
    off_board_artillery: list[OffBoardArtillery] = Field(default_factory=list)
    off_board_ops: dict[Id, list[Small]] = Field(default_factory=dict, description="side id -> OPs per movement "
                                                                                   "phase, one per turn (24.D)")
    wind_rolled: bool = Field(True, description="roll wind direction and velocity at the start (Assault 20.A); "
                                                "false = use the scenario environment's wind")
    fire_timetable: FireTimetable = Field(default_factory=FireTimetable)
    dummies: dict[Id, Small] = Field(default_factory=dict, description="side id -> dummy counters (10.F)")
    entrenchments: dict[Id, Entrenchments] = Field(default_factory=dict)
    designators: dict[str, str] = Field(default_factory=dict, description="U.S. company -> designator counter's "
                                                                          "designation (Assault 22.C)")
    cross_attachments: dict[str, str] = Field(default_factory=dict, description="counter designation -> "
                                                                                "receiving HQ (4.C.4)")
    counters: dict[str, CounterState] = Field(
        default_factory=dict, description="'<force>/<slot path>' (with '/<n>', 1-based, for a slot of several "
                                          "counters) -> set-up state; counters not listed: combat formation, "
                                          "facing 0, not in cover")
