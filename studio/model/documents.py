"""Models of the core document kinds: project, ruleset, unit card, TO&E, map, scenario.

Rule-system specifics never appear here: a unit card's ``body`` and a scenario's ``extension`` are validated by
the models that the ruleset plugin registers (see ``registry``). Maps are either ``hex`` boards or ``measured``
tables (continuous coordinates in inches).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from .base import Cell, Document, Id, Ref, RuleRef, StrictModel
from .table import MeasuredTable, TableFeature  # noqa: F401 - the measured-table models (studio.model.table)

HexLabel = Annotated[str, Field(min_length=1, max_length=24, description="hex label, e.g. '2E9' or '0405'")]


# ------------------------------------------------------------------ project

class PrintDefaults(StrictModel):
    paper: Literal["letter", "a4"] = "letter"
    counter_size: str = Field("5/8in", description="counter size, e.g. '1/2in', '9/16in', '5/8in', '3/4in', '1in'")
    bleed: str = Field("0.125in", description="bleed around each counter, e.g. '0.125in' or '3mm'")
    duplex: Literal["long", "short", "none"] = "long"
    back_offset_mm: Annotated[list[float], Field(min_length=2, max_length=2)] = [0.0, 0.0]


class Project(Document):
    kind: Literal["project"] = "project"
    name: str
    description: str = ""
    rulesets: list[Ref] = Field(default_factory=list, description="rule systems used by the project")
    print: PrintDefaults = Field(default_factory=PrintDefaults)

    def references(self):
        return [(f"/rulesets/{i}", "ruleset", r) for i, r in enumerate(self.rulesets)]


# ------------------------------------------------------------------ ruleset definition

class Table(StrictModel):
    """A published table as data. ``placeholder: true`` marks values the rulebook text does not give."""

    id: Id
    title: str
    rule: RuleRef
    placeholder: bool = False
    placeholder_rows: list[int] = Field(default_factory=list,
                                        description="indices of rows that are placeholders in a partly published table")
    notes: str = ""
    columns: list[str]
    rows: list[list[Cell]]

    @model_validator(mode="after")
    def _placeholder_rows_exist(self):
        for i in self.placeholder_rows:
            if not 0 <= i < len(self.rows):
                raise ValueError(f"placeholder_rows names row {i}, which does not exist")
        return self


class TerrainLos(StrictModel):
    height: int = Field(0, description="levels the terrain adds above the ground for line of sight")
    blocks: bool = Field(False, description="blocks line of sight through the hex")
    hindrance: int = Field(0, ge=0, description="hindrance/degradation points per hex, where the system uses them")


class TerrainType(StrictModel):
    id: Id
    code: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9]{0,2}$", description="code used in map rows")]
    name: str
    rule: RuleRef = ""
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#d8d0a8"
    move_cost: dict[str, float | None] = Field(
        default_factory=dict, description="movement cost per mobility class; null = prohibited")
    cover: str = "none"
    los: TerrainLos = Field(default_factory=TerrainLos)
    placeholder: bool = False
    notes: str = ""


class HexsideFeature(StrictModel):
    id: Id
    name: str
    rule: RuleRef = ""
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#3060c0"
    move_cost: dict[str, float | None] = Field(default_factory=dict,
                                               description="extra cost to cross per mobility class; null = prohibited")
    los: TerrainLos = Field(default_factory=TerrainLos)
    placeholder: bool = False
    notes: str = ""


class RoadType(StrictModel):
    id: Id
    name: str
    rule: RuleRef = ""
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#805020"
    notes: str = ""


class ElevationSpec(StrictModel):
    min: int = 0
    max: int = 0
    metres_per_level: float | None = None
    rule: RuleRef = ""


class RuleOption(StrictModel):
    """A named choice for a rule ambiguity, with its documented default."""

    id: Id
    title: str
    rule: RuleRef
    description: str
    choices: list[str | int | float | bool]
    default: str | int | float | bool

    @model_validator(mode="after")
    def _default_is_a_choice(self):
        if self.default not in self.choices:
            raise ValueError(f"default {self.default!r} is not one of the choices {self.choices!r}")
        return self


class Reading(StrictModel):
    """A documented one-way reading of the rulebook (an erratum, a fixed interpretation): a note, not an option.

    Options with two or more choices are read by the engine; a point where the studio simply follows one reading
    is listed here so that the ruleset editor and the scenario sheet can show it.
    """

    id: Id
    title: str
    rule: RuleRef
    description: str
    reading: str = Field(description="the reading the studio follows, e.g. 'follow_body'")


class OptionalRuleNeeds(StrictModel):
    """What an optional rule reads besides the core data: the rule system's plugin checks a scenario that switches
    the rule on against it (e.g. minefields without a minefield plot is an error naming what is missing)."""

    card_fields: list[str] = Field(default_factory=list, description="unit card fields the rule reads, e.g. "
                                   "'weight_tons' (a dotted path into the card body, e.g. 'weapons.ammo'; 'a|b' = either; "
                                   "'extension.X' = a scenario extension field that can give it instead)")
    tables: list[Id] = Field(default_factory=list, description="ruleset tables the rule reads besides its own")
    scenario: list[str] = Field(default_factory=list, description="scenario data the rule needs (extension "
                                "block keys such as 'minefields' or 'hidden_counters'; 'a|b' = either will do)")
    map_features: list[str] = Field(default_factory=list, description="terrain codes or hexside features the "
                                    "rule is about (e.g. 'hedgerow'); informative")


class OptionalRule(StrictModel):
    """A switch a scenario may turn on (``Scenario.optional_rules``): a rulebook optional rule with its reference,
    what it needs and the ruleset tables that belong to it. Engines read the switches by ``id``."""

    id: Id
    rule: RuleRef
    title: str
    description: str
    tables: list[Id] = Field(default_factory=list, description="ids of the ruleset tables that belong to this "
                             "rule (they exist in tables[])")
    needs: OptionalRuleNeeds = Field(default_factory=OptionalRuleNeeds)
    requires: list[Id] = Field(default_factory=list, description="other optional rules that must be on with it")


class LosSpec(StrictModel):
    """How line of sight is traced on this ruleset's hex maps (``studio.model.los``).

    A straight sight line from the observer's eye to the target over a height profile: each intervening hex's top
    (ground + its terrain's ``los.height`` when the terrain ``los.blocks``) and each crossed hexside's top (ground +
    the feature's ``los.height``) blocks when it is above the line. Ground = elevation level x ``level_height``.
    The defaults are the common case (end hexes never block, an obstacle exactly on the line is clear), so ruleset
    files without a ``los`` block stay valid. Rules that a height profile cannot express come from the ruleset
    plugin's ``los_check`` hook (``studio.model.registry``).
    """

    rule: RuleRef = Field("", description="rule reference reported with every LOS result, e.g. 'XYZ 7.3'")
    edge_policy: Literal["block_if_either", "block_if_both", "firer_chooses"] = Field(
        "block_if_either",
        description="a sight line running exactly along a hexside (hex spine): 'block_if_either' = blocked when "
                    "either flanking hex blocks; 'block_if_both' = blocked only where both flanking hexes block; "
                    "'firer_chooses' = clear when the observer can keep to one side of the spine all the way")
    edge_policy_option: Id | None = Field(
        None, description="id of a rule option (options[]) whose value, as chosen by a scenario or its default, "
                          "overrides edge_policy; its choices are edge policy names ('-' or '_' separated)")
    along_hexside_blocks: bool = Field(True, description="a blocking hexside feature that the sight line runs "
                                                         "along (not across) blocks too")
    equal_blocks: bool = Field(False, description="an obstacle whose top is exactly on the sight line blocks "
                                                  "(false: 'on or below the line' is clear)")
    observer_hex_blocks: bool = Field(False, description="the observer's own hex terrain can block")
    target_hex_blocks: bool = Field(False, description="the target's own hex terrain can block")
    adjacent_always_clear: bool = Field(False, description="adjacent hexes always see each other, even across a "
                                                           "blocking hexside")
    observer_height: float = Field(0.0, description="observer eye height above its hex's ground, in levels")
    target_height: float = Field(0.0, description="target height above its hex's ground, in levels")
    level_height: float = Field(1.0, gt=0, description="height of one elevation level, in the units of terrain "
                                                       "los.height")
    blocking_height: float = Field(1.0, ge=0, description="height of a terrain or hexside feature that blocks "
                                                          "(los.blocks) but gives no los.height")
    sunken_terrain: bool = Field(True, description="a terrain with a negative los.height lowers the ground of "
                                                   "its hex (units in a gully or stream sit below the level)")
    hexside_base: Literal["higher", "lower"] = Field(
        "higher", description="a hexside obstacle stands on the higher (or lower) ground of its two hexes")
    max_range: int | None = Field(None, ge=0, description="longest sight line in hexes at level 0; null = "
                                                          "unlimited")
    max_range_per_level: int = Field(0, ge=0, description="hexes added to max_range per elevation level of "
                                                          "the observer and of the target")
    symmetric: bool = Field(True, description="the rules say LOS is the same in both directions (tests check it)")


class Ruleset(Document):
    kind: Literal["ruleset"] = "ruleset"
    name: str
    version: str = Field(description="data version; replays record it")
    source: str = ""
    dice: str = ""
    mobility_classes: list[Id] = Field(default_factory=list)
    elevation: ElevationSpec = Field(default_factory=ElevationSpec)
    terrain: list[TerrainType] = Field(default_factory=list)
    hexside_features: list[HexsideFeature] = Field(default_factory=list)
    road_types: list[RoadType] = Field(default_factory=list)
    los: LosSpec = Field(default_factory=LosSpec, description="how line of sight is traced on hex maps")
    options: list[RuleOption] = Field(default_factory=list)
    readings: list[Reading] = Field(default_factory=list, description="errata and fixed interpretations the "
                                    "studio follows (one choice: a note, not an option)")
    optional_rules: list[OptionalRule] = Field(default_factory=list, description="the rulebook's optional rules, "
                                               "switched on per scenario (Scenario.optional_rules)")
    tables: list[Table] = Field(default_factory=list)
    notes: str = ""

    def table(self, table_id: str) -> Table:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise KeyError(table_id)

    def optional_rule(self, rule_id: str) -> OptionalRule:
        for o in self.optional_rules:
            if o.id == rule_id:
                return o
        raise KeyError(rule_id)

    def option_default(self, option_id: str):
        for o in self.options:
            if o.id == option_id:
                return o.default
        raise KeyError(option_id)


# ------------------------------------------------------------------ unit card

class YearSpan(StrictModel):
    start: int = Field(ge=1900, le=2100)
    end: int | None = Field(None, ge=1900, le=2100)


class UnitSymbol(StrictModel):
    """NATO (APP-6/MIL-STD-2525 style) symbol: frame by affiliation, icon by branch, echelon mark."""

    affiliation: Literal["friend", "hostile", "neutral", "unknown"] = "friend"
    branch: str = Field("armor", description="icon, e.g. armor, mech_infantry, infantry, recon, anti_armor, "
                                             "artillery, air_defense, engineer, hq, helicopter, supply")
    echelon: str | None = Field(None, description="echelon mark, e.g. team, squad, section, platoon, company")
    modifier: str | None = None


class UnitCard(Document):
    """Common envelope of a unit data card; ``body`` is validated by the ruleset's card model."""

    kind: Literal["unit"] = "unit"
    ruleset: Ref
    name: str
    short_name: str | None = Field(None, min_length=1, max_length=24,
                                   description="abbreviation printed when the name does not fit on a counter")
    nation: str
    years: YearSpan | None = None
    category: str = Field("vehicle", description="what the card describes, e.g. vehicle, leg, towed, helicopter")
    symbol: UnitSymbol = Field(default_factory=UnitSymbol)
    image: str | None = None
    placeholder: bool = Field(False, description="true when the card's game values are placeholders")
    placeholder_fields: list[str] = Field(default_factory=list,
                                          description="JSON pointers (under /body) of placeholder values")
    sources: list[str] = Field(default_factory=list)
    notes: str = ""
    body: dict[str, Any]

    def references(self):
        return [("/ruleset", "ruleset", self.ruleset)]


# ------------------------------------------------------------------ TO&E

class Slot(StrictModel):
    id: Id
    unit: Ref
    count: Annotated[int, Field(ge=1, le=999)] = 1
    role: Literal["hq", "line", "support", "attached"] = "line"
    designation: str | None = None


class Echelon(StrictModel):
    id: Id
    name: str = ""
    echelon: str = Field(description="e.g. team, section, platoon, company, battalion")
    designation: str = Field("", description="designation pattern; {n} is the sibling number, {parent} the parent's")
    template: Ref | None = Field(None, description="another TO&E whose root this echelon instantiates")
    count: Annotated[int, Field(ge=1, le=99)] = 1
    slots: list[Slot] = Field(default_factory=list)
    children: list["Echelon"] = Field(default_factory=list)

    def walk(self, pointer: str = "/root"):
        """Yield ``(pointer, echelon)`` depth-first."""
        yield pointer, self
        for i, child in enumerate(self.children):
            yield from child.walk(f"{pointer}/children/{i}")


class Toe(Document):
    kind: Literal["toe"] = "toe"
    ruleset: Ref
    name: str
    nation: str
    years: YearSpan | None = None
    notes: str = ""
    root: Echelon

    def references(self):
        refs = [("/ruleset", "ruleset", self.ruleset)]
        for pointer, ech in self.root.walk():
            if ech.template:
                refs.append((f"{pointer}/template", "toe", ech.template))
            refs.extend((f"{pointer}/slots/{i}/unit", "unit", s.unit) for i, s in enumerate(ech.slots))
        return refs


# ------------------------------------------------------------------ map

class HexGridSpec(StrictModel):
    orientation: Literal["flat", "pointy"] = "flat"
    columns: Annotated[int, Field(ge=1, le=500)]
    rows: Annotated[int, Field(ge=1, le=500)]
    offset: Literal["odd", "even"] = Field("even", description="which columns (flat) or rows (pointy) are shifted")
    labels: Literal["alphanumeric", "four_digit"] = Field("four_digit", description="alphanumeric: board + column letters + row (e.g. 2E9); four_digit: CCRR (e.g. 0405)")
    board: str = Field("", max_length=8, description="board id used as label prefix, e.g. '2' on board 2")
    hex_m: float = Field(100.0, gt=0, description="hex size on the ground in metres")
    hex_mm: float = Field(19.0, gt=0, description="printed hex size flat-to-flat in millimetres")


class HexsideEntry(StrictModel):
    hex: HexLabel
    side: Literal["N", "NE", "SE", "S", "SW", "NW", "E", "W"]
    feature: Ref


class RoadEntry(StrictModel):
    id: Id
    type: Ref
    hexes: Annotated[list[HexLabel], Field(min_length=2)]


class MapLabel(StrictModel):
    hex: HexLabel
    text: str


class Map(Document):
    """A hex board (``hex`` + row-encoded ``terrain``/``elevation``) or a measured table (``table``)."""

    kind: Literal["map"] = "map"
    name: str
    ruleset: Ref = Field(description="the ruleset whose terrain catalogue the codes come from")
    notes: str = ""
    hex: HexGridSpec | None = None
    terrain: list[str] = Field(default_factory=list, description="one row per hex row; space-separated codes")
    elevation: list[str] = Field(default_factory=list, description="one row per hex row; space-separated levels")
    hexsides: list[HexsideEntry] = Field(default_factory=list)
    roads: list[RoadEntry] = Field(default_factory=list)
    labels: list[MapLabel] = Field(default_factory=list)
    table: MeasuredTable | None = None

    @model_validator(mode="after")
    def _one_geometry(self):
        if (self.hex is None) == (self.table is None):
            raise ValueError("a map needs exactly one of 'hex' (a hex board) or 'table' (a measured table)")
        return self

    def references(self):
        return [("/ruleset", "ruleset", self.ruleset)]


# ------------------------------------------------------------------ scenario

class BoardPlacement(StrictModel):
    map: Ref
    at: Annotated[list[int], Field(min_length=2, max_length=2, description="[column, row] offset in hexes")] = [0, 0]
    rotate: Literal[0, 180] = 0


class Setup(StrictModel):
    hexes: list[HexLabel] = Field(default_factory=list, description="setup hexes, one per unit or shared")
    zone: list[HexLabel] = Field(default_factory=list, description="hexes of a setup zone")
    facing: str | None = None


class Entry(StrictModel):
    turn: Annotated[int, Field(ge=1)]
    edge: Literal["north", "east", "south", "west"] | None = None
    hexes: list[HexLabel] = Field(default_factory=list)

    @model_validator(mode="after")
    def _somewhere(self):
        if self.edge is None and not self.hexes:
            raise ValueError("an entry needs an edge or entry hexes")
        return self


class Substitution(StrictModel):
    slot: str = Field(description="slot path inside the TO&E, e.g. 'plt-1/m3' (with or without the root's id)")
    unit: Ref
    count: Annotated[int, Field(ge=1)] | None = Field(
        None, description="how many of the slot's vehicles to replace (default: all of them)")


class Force(StrictModel):
    id: Id
    toe: Ref
    name: str = ""
    designation: str = ""
    grade: str | None = None
    setup: Setup | None = None
    entry: Entry | None = None
    substitutions: list[Substitution] = Field(default_factory=list)

    @model_validator(mode="after")
    def _placed(self):
        set_up = self.setup is not None and bool(self.setup.hexes or self.setup.zone)
        if not set_up and self.entry is None:
            raise ValueError("a force needs a setup (hexes or zone) or an entry (turn and edge or hexes)")
        return self


class Side(StrictModel):
    id: Id
    name: str
    nation: str
    forces: list[Force] = Field(default_factory=list)


class VictoryCondition(StrictModel):
    id: Id
    type: Literal["hold_hexes", "exit_units", "destroy_units", "destroy_percent", "survive", "custom"]
    side: Ref
    points: int = 0
    hexes: list[HexLabel] = Field(default_factory=list)
    edge: Literal["north", "east", "south", "west"] | None = None
    percent: Annotated[int, Field(ge=1, le=100)] | None = None
    text: str = ""


class Wind(StrictModel):
    direction: Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW", "none"] = "none"
    strength: Literal["calm", "light", "moderate", "strong"] = "calm"


class Environment(StrictModel):
    weather: str = "clear"
    visibility: int | None = Field(None, ge=0, description="maximum visibility in hexes, null = unlimited")
    light: Literal["day", "dusk", "night"] = "day"
    night_turns: list[Annotated[int, Field(ge=1)]] = Field(default_factory=list)
    wind: Wind = Field(default_factory=Wind)


class SpecialRule(StrictModel):
    id: Id
    title: str
    text: str
    rule: RuleRef = ""


class Scenario(Document):
    kind: Literal["scenario"] = "scenario"
    ruleset: Ref
    name: str
    designer: str = ""
    date: str = ""
    description: str = ""
    boards: Annotated[list[BoardPlacement], Field(min_length=1)]
    turns: Annotated[int, Field(ge=1, le=200)]
    first_player: str = Field(description="side id, or 'initiative' when the rules decide each turn")
    sides: Annotated[list[Side], Field(min_length=2)]
    victory: list[VictoryCondition] = Field(default_factory=list)
    environment: Environment = Field(default_factory=Environment)
    special_rules: list[SpecialRule] = Field(default_factory=list)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)
    optional_rules: list[Id] = Field(default_factory=list, description="ids of the ruleset's optional rules in "
                                     "force in this scenario")
    extension: dict[str, Any] = Field(default_factory=dict, description="ruleset-specific block")

    def references(self):
        refs = [("/ruleset", "ruleset", self.ruleset)]
        refs += [(f"/boards/{i}/map", "map", b.map) for i, b in enumerate(self.boards)]
        for si, side in enumerate(self.sides):
            for fi, force in enumerate(side.forces):
                base = f"/sides/{si}/forces/{fi}"
                refs.append((f"{base}/toe", "toe", force.toe))
                refs += [(f"{base}/substitutions/{k}/unit", "unit", s.unit) for k, s in enumerate(force.substitutions)]
        return refs
