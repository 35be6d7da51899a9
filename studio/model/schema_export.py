"""JSON Schema (draft 2020-12) generation from the models into ``schemas/``, and the staleness check.

Layout: ``schemas/<kind>.schema.json`` for every core kind, and ``schemas/<ruleset>/<kind>[-<category>].schema.json``
for every model a ruleset plugin refines. Output is deterministic so the committed files can be compared.
"""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from . import yamlio
from .kinds import CORE_KINDS, scenario_model, unit_model
from .position import Position
from .registry import plugins

#: documents that are not project kinds but have a schema (positions are set up by ``studio.rules.position``)
EXTRA_SCHEMAS: dict[str, type[BaseModel]] = {"position": Position}

DIALECT = "https://json-schema.org/draft/2020-12/schema"
REGENERATE = "studio schema export"


def schemas_dir() -> Path:
    """The repository's ``schemas/`` folder (beside the ``studio`` package)."""
    return Path(__file__).resolve().parents[2] / "schemas"


def unit_schema_name(ruleset: str, category: str, has_categories: bool) -> str:
    return f"{ruleset}/unit-{category}.schema.json" if has_categories else f"{ruleset}/unit.schema.json"


def schema_targets() -> dict[str, type[BaseModel]]:
    """Relative schema path -> model, for every core kind and every plugin refinement."""
    targets: dict[str, type[BaseModel]] = {f"{kind}.schema.json": model for kind, model in CORE_KINDS.items()}
    targets.update({f"{kind}.schema.json": model for kind, model in EXTRA_SCHEMAS.items()})
    for plug in plugins():
        categories = sorted(c for c in plug.card_bodies if c != "*")
        if "*" in plug.card_bodies:
            targets[f"{plug.id}/unit.schema.json"] = unit_model(plug.id, "*")
        for category in categories:
            targets[f"{plug.id}/unit-{category}.schema.json"] = unit_model(plug.id, category)
        if plug.scenario_extension is not None:
            targets[f"{plug.id}/scenario.schema.json"] = scenario_model(plug.id)
    return targets


def schema_for_data(data: dict) -> str:
    """Relative schema path (under ``schemas/``) that validates raw document ``data``."""
    kind = data.get("kind")
    ruleset = data.get("ruleset")
    targets = schema_targets()
    if kind == "unit" and isinstance(ruleset, str):
        category = data.get("category", "vehicle")
        for name in (f"{ruleset}/unit-{category}.schema.json", f"{ruleset}/unit.schema.json"):
            if name in targets:
                return name
    if kind == "scenario" and isinstance(ruleset, str) and f"{ruleset}/scenario.schema.json" in targets:
        return f"{ruleset}/scenario.schema.json"
    return f"{kind}.schema.json"


def render(name: str, model: type[BaseModel]) -> str:
    schema = model.model_json_schema(mode="validation")
    schema = {"$schema": DIALECT, "$id": f"https://studio.invalid/schemas/{name}", **schema}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def generate() -> dict[str, str]:
    return {name: render(name, model) for name, model in sorted(schema_targets().items())}


def export(out_dir: Path | None = None) -> list[Path]:
    """Write every schema; remove stale ``*.schema.json`` files. Returns the files written or changed."""
    out_dir = out_dir or schemas_dir()
    wanted = generate()
    changed = []
    for name, text in wanted.items():
        path = out_dir / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            yamlio.atomic_write(path, text)
            changed.append(path)
    for path in out_dir.rglob("*.schema.json"):
        if path.relative_to(out_dir).as_posix() not in wanted:
            path.unlink()
            changed.append(path)
    return changed


def stale(out_dir: Path | None = None) -> list[str]:
    """Schema files that differ from the models: ``'missing x'``, ``'stale x'``, ``'extra x'``."""
    out_dir = out_dir or schemas_dir()
    wanted = generate()
    problems = []
    for name, text in wanted.items():
        path = out_dir / name
        if not path.exists():
            problems.append(f"missing {name}")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"stale {name}")
    if out_dir.exists():
        for path in sorted(out_dir.rglob("*.schema.json")):
            rel = path.relative_to(out_dir).as_posix()
            if rel not in wanted:
                problems.append(f"extra {rel}")
    return problems
