"""New documents: a unit card from its ruleset's card schema (the template), and duplicates with a new id."""
from __future__ import annotations

from typing import Any

from studio.model.kinds import unit_model
from studio.model.registry import plugin, plugins

from .schema import skeleton
from .session import ID_PATTERN, ProjectSession


def card_rulesets(session: ProjectSession) -> list[str]:
    """Rule systems a card can be made for: the project's, then any registered plugin."""
    project = next(iter(session.current_index().of_kind("project")), None)
    listed = project.data.get("rulesets", []) if project and isinstance(project.data, dict) else []
    out = [r for r in listed if isinstance(r, str)]
    return out + [p.id for p in plugins() if p.id not in out]


def card_categories(ruleset: str) -> list[str]:
    plug = plugin(ruleset)
    categories = sorted(c for c in (plug.card_bodies if plug else {}) if c != "*")
    return categories or ["vehicle"]


def new_card(ruleset: str, category: str, new_id: str, name: str = "") -> dict[str, Any]:
    """A card that has every required field, filled from the card schema's defaults."""
    if not ID_PATTERN.match(new_id):
        raise ValueError(f"'{new_id}' is not a valid id (lower-case letters, digits, '.', '_' and '-')")
    model = unit_model(ruleset, category)
    schema = model.model_json_schema()
    data = skeleton(schema, schema)
    body = data.pop("body", {}) if isinstance(data, dict) else {}
    card: dict[str, Any] = {"kind": "unit", "schema_version": 1, "id": new_id, "ruleset": ruleset,
                            "name": name or new_id.upper(), "nation": "", "category": category}
    for key, value in (data or {}).items():
        card.setdefault(key, value)
    card["body"] = body if isinstance(body, dict) else {}
    return card


def duplicate(data: dict[str, Any], new_id: str) -> dict[str, Any]:
    """A copy of ``data`` with id ``new_id`` and ``(copy)`` after its name."""
    if not ID_PATTERN.match(new_id):
        raise ValueError(f"'{new_id}' is not a valid id (lower-case letters, digits, '.', '_' and '-')")
    out = dict(data)
    out["id"] = new_id
    if isinstance(out.get("name"), str):
        out["name"] = f"{out['name']} (copy)"
    return out
