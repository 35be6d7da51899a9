"""Battlefield Ops! unit card bodies (front and back) and the scenario extension block.

Field lists follow the rules digest b.1-b.4, b.9 (the cards themselves are in the base rulebook we do not have,
so card values are card data, mostly placeholders in the sample). Values the transcription lost (the X items)
are data-entry fields here (``lost_values``), never guessed. Distances are inches, weights tons.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from studio.model.base import Id, Ref, StrictModel
from studio.model.table import TableFeature

SideName = Literal["NATO", "WARPAC"]
Category = Literal["tank", "light_tank", "tracked_apc", "ifv", "wheeled_armored", "jeep", "truck", "mortar",
                   "artillery_sp", "artillery_towed", "infantry", "command_vehicle", "atgm_carrier", "other"]
WeaponClass = Literal["cannon", "field_gun", "howitzer", "mortar", "artillery", "atgm", "autocannon",
                      "machine_gun", "rifle", "small_arms", "grenade", "auto_grenade_launcher", "rocket_launcher",
                      "recoilless", "sniper_rifle"]
AmmoType = Literal["AP", "HE", "HEAT", "smoke", "illumination"]
Band = Literal["short", "medium", "long"]
Small = Annotated[int, Field(ge=0, le=200)]
Inches = Annotated[float, Field(ge=0, le=500)]


class Ranges(StrictModel):
    """Range band upper limits in inches (digest b.2; the bands are base-rule data on each card)."""

    short: Inches
    medium: Inches
    long: Inches
    max: Inches | None = Field(None, description="maximum range (the 1/10 second-target rule, c.23)")


class Ammo(StrictModel):
    type: AmmoType
    pen: dict[Band, Small] = Field(description="Penetration by range band (BfOps p.22: 'at a Medium range, the Pen "
                                               "is 30')")


class FireRate(StrictModel):
    mode: Literal["direct", "indirect", "single", "burst"] = "direct"
    value: Annotated[int, Field(ge=0, le=50)]


class Agl(StrictModel):
    """Automatic grenade launcher burst data (BfOps 3.4, p.7-8)."""

    bursts_per_load: Annotated[int, Field(ge=1, le=20)] = 5
    reloads: Annotated[int, Field(ge=0, le=20)] = 1


class Weapon(StrictModel):
    """One weapon system of the card's back (digest b.2)."""

    name: str
    weapon_class: WeaponClass
    caliber_mm: float | None = Field(None, gt=0)
    turreted: bool = False
    mount_height_in: float = Field(0.2, ge=0, description="height of the weapon above the ground (firing over, p.21)")
    ranges: Ranges
    ammo: list[Ammo] = Field(min_length=1)
    fire_rates: list[FireRate] = Field(default_factory=lambda: [FireRate(value=1)])
    max_hits_per_unit_per_phase: Small | None = Field(None, description="card maximum for indirect fire (8.2)")
    he_suppression: int = Field(0, ge=0, le=10, description="the card's HE suppression modifier (+2/+3, p.7)")
    agl: Agl | None = None
    is_grenade: bool = False
    correction_adjustment: int = Field(0, ge=-4, le=0, description=(
        "the card's adjustment to the Corrected Fire deviation die (p.13: the total reduction stays at most -4)"))


class Armor(StrictModel):
    """Armour per face; tracks/tires armour for immobilisation (4.2)."""

    front: Small = 0
    side: Small = 0
    rear: Small = 0
    top: Small = 0
    bottom: Small = 0
    tracks: Small | None = None
    tires: Small | None = None


class Movement(StrictModel):
    """Inches per Move Phase. Vehicles: cruise, max, cross-country cruise (fording, p.11). Infantry: to fight, to
    run, swim (p.10, 12, 14)."""

    cruise: Inches = 0
    max: Inches = 0
    cross_country_cruise: Inches = 0
    to_fight: Inches = 0
    to_run: Inches = 0
    swim: Inches = 0


class InfantryProfile(StrictModel):
    kind: Literal["squad", "half_squad", "fire_team", "sniper_team", "crew"] = "squad"
    hits: Annotated[int, Field(ge=1, le=6)] = Field(description="squad size in hits (p.15: 2-Hit, 3-Hit squads)")
    recon: bool = False


class Recovery(StrictModel):
    """A recovery vehicle (BfOps p.19): an ARV of a chassis rated to a weight, or a tow truck (for trucks)."""

    chassis: str = Field("", description="the chassis it recovers (e.g. 'M60'); empty for a tow truck")
    max_weight_tons: float = Field(0.0, ge=0, description="rating: it may recover any lighter vehicle (p.19)")
    tow_truck: bool = Field(False, description="a tow truck: recovers trucks (p.19)")


class Bridging(StrictModel):
    """A bridging unit's bridge (BfOps p.19): truck-mounted or an AVLB. Capacity, deploy time and the Cruise limit
    come from table ``bridging`` (by type and bloc) unless the card rates its capacity (cards override, p.6)."""

    type: Literal["truck_mounted", "avlb"]
    capacity_tons: float | None = Field(None, ge=0, le=500, description="the card's rating; null: table bridging")
    span_in: float = Field(3.0, gt=0, le=24, description="the widest gap it spans, inches (card data)")
    width_in: float = Field(0.6, gt=0, le=3, description="the deck's width, inches (card data)")


class Capabilities(StrictModel):
    recon: bool = False
    forward_observer: bool = False
    smoke_countermeasure: bool = Field(False, description="may deploy smoke during Weapon Priority (p.7)")
    command_level: Literal["none", "platoon", "company", "battalion", "regimental", "brigade"] = "none"
    section_pair: bool = Field(False, description="the card notes a pair of vehicles as a Section (p.17)")
    engineer: bool = False
    demolitions: Annotated[int, Field(ge=0, le=20)] = Field(0, description=(
        "charge levels carried (p.20: leg engineer squad 3, engineering jeep 3, medium engineering truck 10)"))
    eod: bool = Field(False, description="an Explosive Ordnance Disposal unit (p.20)")
    earthmoving: bool = Field(False, description="earthmoving or towing equipment: clears wire and fencing (p.19)")
    recovery: Recovery | None = None
    bridging: Bridging | None = Field(None, description="a bridging unit and its bridge (p.19)")
    mine_clearing: bool = Field(False, description="a mine flail or roller (p.20)")
    supply: Literal["none", "jeep", "medium_truck", "heavy_truck"] = Field("none", description=(
        "a supply unit and its size (p.18: a heavy truck carries twice a medium truck's quantity)"))
    medical: bool = Field(False, description="a medical unit: recovers Infantry (p.18)")
    battalion_aid_station: bool = Field(False, description="a Battalion Aid Station (Battalion level, large tent, "
                                                           "p.18)")
    carry_hits: Annotated[int, Field(ge=0, le=30)] = Field(0, description=(
        "infantry Hits the vehicle carries (a jeep 1: a 1-Hit Fire Team; trucks and armoured transports a squad or "
        "more by capacity, p.18)"))
    battery_hq: bool = Field(False, description="a mortar/artillery battery Headquarters vehicle (Full Batteries, "
                                                "Rule 8.5, p.17)")


class Base(StrictModel):
    """The model's footprint and height on the table (6mm scale)."""

    width_in: float = Field(0.5, gt=0, le=6)
    length_in: float = Field(0.75, gt=0, le=6)
    height_in: float = Field(0.3, gt=0, le=6)


class LostValue(StrictModel):
    """A value the transcription lost (an X item of the rules examples): entered by hand from the rulebook."""

    item: str = Field(description="X item id, e.g. X3")
    field: str = Field(description="what the value is")
    value: float | None = Field(None, description="the value from the rulebook; null until entered")


class BfopsCard(StrictModel):
    """A Battlefield Ops! Unit Card: front (identity, movement, armour, ratings) and back (weapons)."""

    side: SideName
    branch: str = ""
    card_rules_version: Literal["pre_1_1", "v1_1_plus"] = "v1_1_plus"
    category: Category
    soft: bool = Field(False, description="a Soft Unit (p.14): any Pen of 1 or more scores 1 Hit")
    propulsion: Literal["tracked", "wheeled", "foot", "towed", "none"]
    axles: Annotated[int, Field(ge=2, le=4)] | None = None
    weight_tons: float = Field(0.0, ge=0)
    chassis: str = Field("", description="the chassis family (recovery vehicles match it, p.19)")
    low_profile: bool = False
    armor: Armor = Field(default_factory=Armor)
    movement: Movement
    fording_depth_in: float = Field(0.0, ge=0, description="deepest water forded (front of card, p.11)")
    bog_check: Annotated[int, Field(ge=0, le=10)] = Field(6, description="Bog Check number (base rule)")
    unit_rating: Annotated[int, Field(ge=1, le=10)] = 6
    spots_allowed: Annotated[int, Field(ge=1, le=10)] = 1
    night_vision: Literal["none", "gen0", "gen1", "gen2", "gen3"] = "none"
    weapons: list[Weapon] = Field(default_factory=list)
    infantry: InfantryProfile | None = None
    capabilities: Capabilities = Field(default_factory=Capabilities)
    base: Base = Field(default_factory=Base)
    lost_values: list[LostValue] = Field(default_factory=list)


# ------------------------------------------------------------------ scenario extension (digest b.9)

Rect = Annotated[list[float], Field(min_length=4, max_length=4, description="[x0, y0, x1, y1] inches")]


class DeploymentZone(StrictModel):
    side: Ref
    rect: Rect
    facing: float = Field(0.0, ge=0, lt=360, description="initial facing in degrees clockwise from north")


class Placement(StrictModel):
    """A unit placed at an exact spot: ``unit`` is the force's slot path (as ``studio.model.forces``)."""

    force: Ref
    unit: str
    at: Annotated[list[float], Field(min_length=2, max_length=2)]
    facing: float = Field(0.0, ge=0, lt=360)


class Objective(StrictModel):
    id: Id
    name: str = ""
    at: Annotated[list[float], Field(min_length=2, max_length=2)]
    radius_in: float = Field(3.0, gt=0)


class Victory(StrictModel):
    """A scenario-authored victory predicate (the rules give none, digest e)."""

    id: Id
    side: Ref
    kind: Literal["hold_objective", "enemy_losses", "no_losses_above"]
    objective: Ref | None = None
    percent: Annotated[int, Field(ge=1, le=100)] | None = None
    points: int = 1


class Prepared(StrictModel):
    """Prepared defences by pre-game agreement (5.3): who may prepare and the tactics allowed."""

    agreed: bool = False
    side: Ref | None = None
    tactics: list[Literal["camouflage", "sandbags", "foxholes", "hull_down_ditches", "trenches", "wire",
                          "fencing", "oil_slicks", "minefields"]] = Field(default_factory=list)
    features: list[TableFeature] = Field(default_factory=list, description=(
        "the prepared works on the table (trenches, wire, minefields, camouflage, foxholes), added to the map's "
        "features for this scenario; totals are checked against the allowances of the side's force (d.22)"))


class BfopsScenario(StrictModel):
    rules_version: Literal["1.1"] = "1.1"
    scenario_type: Literal["attack_defend", "meeting", "other"] = "meeting"
    deployment: list[DeploymentZone] = Field(default_factory=list)
    placements: list[Placement] = Field(default_factory=list)
    objectives: list[Objective] = Field(default_factory=list)
    victory: list[Victory] = Field(default_factory=list, description="at least one (check bfops.victory)")
    prepared: Prepared = Field(default_factory=Prepared)
    supreme_commander: dict[Ref, str] = Field(default_factory=dict, description="side -> branch (p.18)")
    recon_in_force: list[str] = Field(default_factory=list, description=(
        "elements ('force/slot path') of Recon-In-Force groups: a Recon element and the combat elements attached "
        "to it, under a compulsory Move to Contact until given a new command, with the Recon spotting (p.18)"))
