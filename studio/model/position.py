"""A position document: a game situation (scenario, options, optional rules, turn, phase, side to act, units, forced dice) that
any rule system can set up through its ``Game.state_from_position(position)`` hook.

Positions are for worked examples, tests, teaching a rule and starting ``studio play`` mid-game. The core
checks the envelope and what it can check without a rule system (see :mod:`studio.rules.position`); the plugin
checks card ids, hexes, facings, ``status`` keys and ``extension``. Rule-system neutral.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .base import Document, Id, Ref, StrictModel
from .documents import HexLabel

#: a position's forced dice, returned in order by the next rolls
Die = Annotated[int, Field(ge=1, le=1000)]


class PositionUnit(StrictModel):
    """One unit on the board (or carried) in a position."""

    id: str | None = Field(None, max_length=80, description="unit instance id as the engine names it; "
                           "null = the engine assigns one")
    card: Ref = Field(description="unit card id")
    side: Ref = Field(description="side id from the scenario")
    hex: HexLabel | None = Field(None, description="hex label on hex boards; null when carried or on a measured "
                                 "table")
    x: float | None = Field(None, description="x in inches on a measured table")
    y: float | None = Field(None, description="y in inches on a measured table")
    facing: int | float | None = Field(None, description="hexside 0-5 on hex boards, degrees on a measured "
                                       "table; null = the rules' default")
    status: dict[str, Any] = Field(default_factory=dict, description="rule-system keys, e.g. damage, markers, "
                                   "command")
    passengers: list[str] = Field(default_factory=list, description="ids of the units this unit carries")


class Position(Document):
    """``kind: position``. ``units`` null (or absent) keeps the scenario's own set-up; a list is exactly the
    units on the board. ``phase`` is a PhaseSpec id of the game (default: its first phase); ``to_act`` a side id
    (default: as the rules say for that phase)."""

    kind: Literal["position"] = "position"
    id: Id | None = Field(None, description="position id (optional in dict form)")
    name: str = ""
    description: str = ""
    scenario: str = Field(min_length=1, max_length=400, description="scenario id, or a path to the scenario file "
                          "(relative to the position file): ruleset, boards, sides, victory and turns")
    options: dict[str, str | int | float | bool] = Field(default_factory=dict,
                                                         description="rule option overrides")
    optional_rules: list[Id] | None = Field(None, description="ids of the ruleset's optional rules in force, "
                                            "replacing the scenario's list; null = the scenario's")
    turn: Annotated[int, Field(ge=1, le=200)] = 1
    phase: str | None = Field(None, max_length=80, description="PhaseSpec id; null = the first phase")
    to_act: str | None = Field(None, max_length=80, description="side id to act; null = as the rules say")
    units: list[PositionUnit] | None = Field(None, description="null = the scenario's set-up; a list = exactly "
                                             "these units")
    dice: list[Die] = Field(default_factory=list, description="forced dice, returned in order by the next rolls")
    extension: dict[str, Any] = Field(default_factory=dict, description="rule-system extras (markers on hexes, "
                                      "cup contents, smoke ...)")

    def references(self) -> list[tuple[str, str, str]]:
        refs = [(f"/units/{i}/card", "unit", u.card) for i, u in enumerate(self.units or [])]
        if "/" not in self.scenario and not self.scenario.endswith((".yaml", ".yml")):
            refs.insert(0, ("/scenario", "scenario", self.scenario))
        return refs


