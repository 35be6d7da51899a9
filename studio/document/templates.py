"""New documents: a unit card from its ruleset's card schema (the template), and duplicates with a new id."""
from __future__ import annotations

from typing import Any

from studio.model.kinds import unit_model
from studio.model.registry import plugin, plugins

from .schema import skeleton
from .session import ID_PATTERN, ProjectSession


def card_rulesets(session: ProjectSession) -> list[str]:
    """Rule systems a card can be made for: the project's (ids only: a listed path such as ``../x`` is not
    offered, since the ruleset names a folder the new file goes in), then any registered plugin."""
    project = next(iter(session.current_index().of_kind("project")), None)
    listed = project.data.get("rulesets", []) if project and isinstance(project.data, dict) else []
    listed = listed if isinstance(listed, list) else []
    out = [r for r in listed if isinstance(r, str) and ID_PATTERN.match(r)]
    return out + [p.id for p in plugins() if p.id not in out]


def card_categories(ruleset: str) -> list[str]:
    """The card classes of ``ruleset`` in the order its plugin declares them (its main class first: a new card
    starts as that); ``["vehicle"]`` for a plugin with one body for every category."""
    plug = plugin(ruleset)
    categories = [c for c in (plug.card_bodies if plug else {}) if c != "*"]
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


NEW_KINDS = ("unit", "toe", "map", "scenario")
FOLDERS = {"unit": "units/{ruleset}", "toe": "toe/{ruleset}", "map": "maps", "scenario": "scenarios/{ruleset}"}


def folder_for(kind: str, ruleset: str) -> str:
    """The project folder new documents of ``kind`` go in; ValueError for a ruleset that is not an id."""
    if not ID_PATTERN.match(ruleset):
        raise ValueError(f"'{ruleset}' is not a ruleset id (lower-case letters, digits, '.', '_' and '-')")
    return FOLDERS[kind].format(ruleset=ruleset)


def new_document(session: ProjectSession, kind: str, ruleset: str, new_id: str) -> dict[str, Any]:
    """A new, valid-as-far-as-possible document of ``kind`` for ``ruleset`` (cards via :func:`new_card`)."""
    if not ID_PATTERN.match(new_id):
        raise ValueError(f"'{new_id}' is not a valid id (lower-case letters, digits, '.', '_' and '-')")
    name = new_id.replace("-", " ").capitalize()
    if kind == "unit":
        return new_card(ruleset, card_categories(ruleset)[0], new_id)
    if kind == "toe":
        return {"kind": "toe", "schema_version": 1, "id": new_id, "ruleset": ruleset, "name": name, "nation": "",
                "root": {"id": "plt", "name": "Platoon", "echelon": "platoon", "designation": "{n}",
                         "slots": []}}
    if kind == "map":
        index = session.current_index()
        rs = index.model("ruleset", ruleset)
        code = rs.terrain[0].code if rs is not None and rs.terrain else "C"
        columns, rows = 20, 14
        return {"kind": "map", "schema_version": 1, "id": new_id, "name": name, "ruleset": ruleset,
                "hex": {"orientation": "flat", "columns": columns, "rows": rows, "offset": "even",
                        "labels": "alphanumeric", "board": "", "hex_mm": 19.0},
                "terrain": [" ".join([code] * columns)] * rows, "elevation": [" ".join(["0"] * columns)] * rows}
    if kind == "scenario":
        maps = [d.id for d in session.current_index().of_kind("map")
                if d.model is not None and d.model.ruleset == ruleset]
        return {"kind": "scenario", "schema_version": 1, "id": new_id, "ruleset": ruleset, "name": name,
                "boards": [{"map": maps[0] if maps else "board"}], "turns": 10, "first_player": "initiative",
                "sides": [{"id": "blue", "name": "Blue", "nation": "US", "forces": []},
                          {"id": "red", "name": "Red", "nation": "SOV", "forces": []}]}
    raise ValueError(f"cannot create a new {kind}")
