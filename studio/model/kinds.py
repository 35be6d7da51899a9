"""Document kinds: the model for each ``kind:`` value, and the per-ruleset concrete models."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel, create_model

from .base import Document
from .documents import Map, Project, Ruleset, Scenario, Toe, UnitCard
from .layout import Layout
from .position import Position
from .variant import Variant
from .registry import plugin as get_plugin

CORE_KINDS: dict[str, type[Document]] = {
    "project": Project,
    "ruleset": Ruleset,
    "unit": UnitCard,
    "toe": Toe,
    "map": Map,
    "scenario": Scenario,
    "layout": Layout,
    "position": Position,
    "variant": Variant,
}

#: kinds whose model a ruleset plugin refines, and the field it refines
EXTENSIBLE = {"unit": "body", "scenario": "extension"}


@lru_cache(maxsize=None)
def unit_model(ruleset_id: str, category: str) -> type[Document]:
    """UnitCard whose ``body`` is the plugin's card model (the generic one if the plugin has none)."""
    plug = get_plugin(ruleset_id)
    body = plug.card_body_model(category) if plug else None
    if body is None:
        return UnitCard
    return create_model(f"UnitCard_{ruleset_id}_{category}", __base__=UnitCard, body=(body, ...))


@lru_cache(maxsize=None)
def scenario_model(ruleset_id: str) -> type[Document]:
    plug = get_plugin(ruleset_id)
    ext = plug.scenario_extension if plug else None
    if ext is None:
        return Scenario
    return create_model(f"Scenario_{ruleset_id}", __base__=Scenario, extension=(ext, ext()))


def model_for(data: dict[str, Any]) -> type[BaseModel]:
    """The most specific model for raw document ``data`` (which must have a known ``kind``)."""
    kind = data["kind"]
    ruleset = data.get("ruleset")
    if kind == "unit" and isinstance(ruleset, str):
        category = data.get("category", "vehicle")
        return unit_model(ruleset, category if isinstance(category, str) else "vehicle")
    if kind == "scenario" and isinstance(ruleset, str):
        return scenario_model(ruleset)
    return CORE_KINDS[kind]
