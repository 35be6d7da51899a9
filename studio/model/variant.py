"""A ruleset variant (house rules): ``kind: variant``, a copy of some of a rule system's tables and options
with every changed cell marked, referencing the base ruleset.

``tables`` holds full copies of the tables it changes (same id, same columns as the base) and, per table, the
``changed`` cells as ``[row, column]`` (0-based, data rows); ``options`` the option values it sets. ``scenarios``
lists the scenarios these house rules are in force for (the scenario sheet names them). :func:`variant_problems`
compares a variant with its base ruleset: marks on cells that equal the base and changed cells left unmarked are
reported, so the marks stay honest. Rule-system neutral.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Cell, Document, Id, StrictModel, ref_to

Index = Annotated[int, Field(ge=0, le=100_000)]


class VariantTable(StrictModel):
    """A copy of one base table with changed cells marked."""

    id: Id = Field(description="id of the base ruleset's table this copy replaces")
    columns: list[str] = Field(default_factory=list, description="the base table's columns (a copy, checked)")
    rows: list[list[Cell]] = Field(description="all rows of the table, with the house values")
    changed: list[Annotated[list[Index], Field(min_length=2, max_length=2)]] = Field(
        default_factory=list, description="[row, column] of every cell that differs from the base table")
    note: str = Field("", description="the house rule in words (shown on the scenario sheet)")


class Variant(Document):
    """``kind: variant``: house rules over a base ruleset."""

    kind: Literal["variant"] = "variant"
    name: str = Field(min_length=1, max_length=200)
    ruleset: ref_to("ruleset") = Field(description="the base ruleset")
    base_version: str = Field("", description="the base ruleset's version the copy was taken from")
    description: str = ""
    scenarios: list[ref_to("scenario")] = Field(default_factory=list, description="scenarios these house rules "
                                                "are in force for (the scenario sheet names them)")
    tables: list[VariantTable] = Field(default_factory=list)
    options: dict[str, Cell] = Field(default_factory=dict, description="rule option id -> value in force")

    def changes(self) -> list[str]:
        """The house rules in words: one line per changed table and option."""
        out = []
        for t in self.tables:
            cells = ", ".join(f"row {r + 1} {t.columns[c] if c < len(t.columns) else c}" for r, c in t.changed)
            out.append(f"table {t.id}: {t.note or 'changed'} ({cells or 'no cell marked'})")
        out += [f"option {k} = {v}" for k, v in self.options.items()]
        return out


def variant_problems(variant: Variant, ruleset) -> list[tuple[str, str, str]]:
    """``(code, message, json pointer)`` for every way ``variant`` disagrees with its base ``ruleset`` model:
    unknown tables or options, other columns or row counts, changed cells left unmarked, marks on unchanged
    cells, an option value that is not one of its choices."""
    out: list[tuple[str, str, str]] = []
    base = {t.id: t for t in getattr(ruleset, "tables", [])}
    for ti, table in enumerate(variant.tables):
        where = f"/tables/{ti}"
        original = base.get(table.id)
        if original is None:
            out.append(("variant.table-unknown", f"ruleset '{variant.ruleset}' has no table '{table.id}'", where))
            continue
        out += _table_problems(table, original, where)
    options = {o.id: o for o in getattr(ruleset, "options", [])}
    for key, value in variant.options.items():
        option = options.get(key)
        if option is None:
            out.append(("variant.option-unknown", f"ruleset '{variant.ruleset}' has no option '{key}'",
                        f"/options/{key}"))
            continue
        choices = list(getattr(option, "choices", []) or [])
        if choices and (value not in choices or not any(type(value) is type(c) for c in choices)):
            out.append(("variant.option-choice", f"'{value}' is not a choice of option '{key}' "
                        f"({', '.join(map(str, choices))})", f"/options/{key}"))
    return out


def _table_problems(table: VariantTable, original, where: str) -> list[tuple[str, str, str]]:
    out = []
    if table.columns and table.columns != list(original.columns):
        out.append(("variant.columns", f"columns differ from table '{table.id}' of the base ruleset "
                    f"({', '.join(original.columns)})", f"{where}/columns"))
    if len(table.rows) != len(original.rows) or any(len(a) != len(b) for a, b in zip(table.rows, original.rows)):
        out.append(("variant.shape", f"table '{table.id}' must keep the base table's {len(original.rows)} rows "
                    "and their cell counts", f"{where}/rows"))
        return out
    marked = {(r, c) for r, c in table.changed}
    for r, (row, base_row) in enumerate(zip(table.rows, original.rows)):
        for c, (cell, base_cell) in enumerate(zip(row, base_row)):
            differs = cell != base_cell or type(cell) is not type(base_cell)
            if differs and (r, c) not in marked:
                out.append(("variant.unmarked-change", f"cell row {r + 1}, column {c + 1} of '{table.id}' differs "
                            f"from the base ({base_cell!r} -> {cell!r}) but is not in 'changed'",
                            f"{where}/rows/{r}/{c}"))
            elif not differs and (r, c) in marked:
                out.append(("variant.unchanged-mark", f"cell row {r + 1}, column {c + 1} of '{table.id}' is "
                            f"marked changed but equals the base ({base_cell!r})", f"{where}/changed"))
    for r, c in marked:
        if r >= len(table.rows) or c >= len(table.rows[r]):
            out.append(("variant.mark-outside", f"changed cell [{r}, {c}] is outside table '{table.id}'",
                        f"{where}/changed"))
    return out


def check_variant(doc, index):
    """Core check of a ``variant`` document against its base ruleset in the project (for ``CORE_CHECKS``)."""
    model = doc.model
    ruleset = index.model("ruleset", model.ruleset) if model is not None else None
    if ruleset is None:
        return
    for code, message, pointer in variant_problems(model, ruleset):
        yield doc.error(code, message, pointer)


def house_rules(index, scenario_id: str) -> list[tuple[str, list[str]]]:
    """``(variant name, its changes in words)`` for every variant of ``index`` in force for ``scenario_id``
    (listed in its ``scenarios``): the house rules the scenario sheet names."""
    out = []
    for doc in getattr(index, "documents", []):
        model = doc.model
        if doc.kind == "variant" and model is not None and scenario_id in model.scenarios:
            out.append((f"{model.name} ({model.id})", model.changes()))
    return out
