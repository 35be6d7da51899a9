"""Playing under a ruleset variant (``kind: variant``, :mod:`studio.model.variant`) and setting a parameter by
JSON pointer: both produce a :class:`~studio.sim.bundle.Bundle` whose documents carry the change, so the game
is built and validated by the normal loading path (a house value that breaks the ruleset is refused like any
other error). Rule-system neutral.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from studio.model.variant import Variant, variant_problems

from .bundle import Bundle, BundleError, _rel

BASE = "base"


def variants_in(loaded) -> dict[str, Variant]:
    """The project's variants by id."""
    return {d.id: d.model for d in loaded.index.documents if d.kind == "variant" and d.model is not None}


def variants_in_force(loaded) -> list[Variant]:
    """Variants whose ``scenarios`` list the scenario (the house rules the scenario sheet names)."""
    return [v for v in variants_in(loaded).values() if loaded.scenario.id in v.scenarios]


def default_variant(loaded) -> str | None:
    """The variant in force for the scenario when exactly one lists it; BundleError when several do."""
    found = [v.id for v in variants_in_force(loaded)] if getattr(loaded, "index", None) is not None else []
    if len(found) > 1:
        raise BundleError(f"several variants are in force for scenario '{loaded.scenario.id}' "
                          f"({', '.join(found)}): choose one with --variant")
    return found[0] if found else None


def _root(loaded) -> Path:
    return Path(loaded.project) if loaded.project else Path(loaded.path).parent


def variant_bundle(loaded, variant_id: str, bundle: Bundle | None = None) -> Bundle:
    """The bundle of ``loaded`` with variant ``variant_id`` applied (BundleError names what is wrong)."""
    bundle = bundle or Bundle.from_loaded(loaded)
    if variant_id == BASE:
        return bundle
    variants = variants_in(loaded)
    variant = variants.get(variant_id)
    if variant is None:
        raise BundleError(f"no variant '{variant_id}' in the project (variants: {', '.join(variants) or 'none'}; "
                          f"'{BASE}' = the ruleset as published)")
    if variant.ruleset != loaded.scenario.ruleset:
        raise BundleError(f"variant '{variant_id}' changes ruleset '{variant.ruleset}', but scenario "
                          f"'{loaded.scenario.id}' uses '{loaded.scenario.ruleset}'")
    doc = loaded.index.get("ruleset", variant.ruleset)
    source = loaded.index.get("variant", variant_id)
    problems = variant_problems(variant, doc.model)
    if problems:
        where = source.display if source is not None else variant_id
        raise BundleError("; ".join(f"{where} {pointer}: {message} [{code}]" for code, message, pointer in problems))
    rel = _rel(doc.path, _root(loaded))
    data = yaml.load(bundle.text(rel), Loader=yaml.CSafeLoader)
    tables = {t.get("id"): t for t in data.get("tables", []) if isinstance(t, dict)}
    for table in variant.tables:
        tables[table.id]["rows"] = [list(r) for r in table.rows]
    text = yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True)
    out = bundle.with_text(rel, text, f"variant {variant_id}: {variant.name}")
    out = Bundle(out.files, out.scenario, out.options, out.position,
                 out.changes[:-1] + tuple(f"variant {variant_id}: {c}" for c in variant.changes()))
    if variant.options:
        out = out.with_options(dict(variant.options), f"variant {variant_id} options")
    return out


def parameter_bundle(loaded, pointer: str, value: Any, bundle: Bundle | None = None) -> Bundle:
    """The bundle with ``value`` at ``pointer``: ``/victory/0/points`` in the scenario, or
    ``KIND:ID/pointer`` in another document of the project (``variant:house-smoke/tables/0/rows/1/2``,
    ``toe:us-tank-platoon/...``)."""
    bundle = bundle or Bundle.from_loaded(loaded)
    rel, inner = _rel(loaded.path, _root(loaded)), pointer
    if not pointer.startswith("/"):
        target, _, rest = pointer.partition("/")
        kind, _, doc_id = target.partition(":")
        doc = loaded.index.get(kind, doc_id) if doc_id else None
        if doc is None:
            raise BundleError(f"'{pointer}': no {kind or 'document'} '{doc_id}' in the project (write "
                              "/pointer for the scenario or KIND:ID/pointer)")
        rel, inner = _rel(doc.path, _root(loaded)), "/" + rest
    return bundle.with_pointer(rel, inner, value)


def new_variant(ruleset, variant_id: str, name: str, tables: list[str], scenarios: list[str] | None = None) -> dict:
    """The data of a new variant of ``ruleset`` (a Ruleset model) holding copies of ``tables`` (ids), nothing
    changed yet: the first step of story 4 ("copy the rule system's tables into the project as a variant").
    BundleError names an unknown table."""
    by_id = {t.id: t for t in ruleset.tables}
    missing = [t for t in tables if t not in by_id]
    if missing:
        raise BundleError(f"ruleset '{ruleset.id}' has no table {', '.join(missing)} "
                          f"(tables: {', '.join(by_id)})")
    return {"kind": "variant", "schema_version": 1, "id": variant_id, "name": name, "ruleset": ruleset.id,
            "base_version": ruleset.version, "scenarios": list(scenarios or []),
            "tables": [{"id": t, "columns": list(by_id[t].columns), "rows": [list(r) for r in by_id[t].rows],
                        "changed": [], "note": ""} for t in tables], "options": {}}


def mark_changes(data: dict, ruleset) -> dict:
    """``data`` (a variant's raw data) with every table's ``changed`` list recomputed from the cells that differ
    from ``ruleset`` (the base): after editing values, the marks follow the edits exactly."""
    by_id = {t.id: t for t in ruleset.tables}
    for table in data.get("tables", []):
        base = by_id.get(table.get("id"))
        if base is None or not isinstance(table.get("rows"), list):
            continue
        table["changed"] = [[r, c] for r, (row, base_row) in enumerate(zip(table["rows"], base.rows))
                            for c, (cell, base_cell) in enumerate(zip(row, base_row))
                            if cell != base_cell or type(cell) is not type(base_cell)]
    return data
