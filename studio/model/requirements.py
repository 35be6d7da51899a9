"""What a rules engine requires of its ruleset data and of the options it is given, checked generically.

A plugin declares the tables its engine reads as :class:`TableSpec` values (``RulesetPlugin.engine_tables``);
:func:`table_problems` lists every way a ruleset fails them, so validation reports ``ruleset.engine-table``
errors before an engine could crash on the data. :func:`option_problems` checks option overrides (from a
scenario, a position or the API) against the ruleset's options; :func:`merged_options` gives the dict an engine
receives (defaults <- scenario <- overrides). Rule-system neutral.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from .documents import Environment, Ruleset, RuleOption, Table
from .references import suggest


@dataclass(frozen=True)
class TableSpec:
    """A ruleset table an engine reads.

    ``columns`` must exist; cells of ``numeric`` columns must be finite int/float (never bool, text, NaN or inf);
    cells of ``integer`` columns must be whole ints; ``nullable`` lists numeric/integer columns whose cells may
    also be empty (null); the table needs at least ``min_rows`` rows and a row for every key in ``keys`` (values
    of the first column).
    """

    id: str
    rule: str = ""
    columns: tuple[str, ...] = ()
    numeric: tuple[str, ...] = ()
    integer: tuple[str, ...] = ()
    min_rows: int = 1
    keys: tuple[str, ...] = ()
    nullable: tuple[str, ...] = ()

    def required_columns(self) -> tuple[str, ...]:
        """Every column the spec names, in first-mention order."""
        return tuple(dict.fromkeys(self.columns + self.numeric + self.integer))


@dataclass(frozen=True)
class Problem:
    """One failed requirement: ``pointer`` into the document, ``at_key`` to point at the key rather than the
    value, ``code`` and ``message`` for the diagnostic, ``rule`` the rule reference."""

    code: str
    message: str
    pointer: str
    rule: str = ""
    at_key: bool = False


def _bad_cell(value: Any, integer: bool, nullable: bool) -> str:
    """Why ``value`` is not a valid numeric (or integer) cell, or "" when it is."""
    if value is None:
        return "" if nullable else "is empty"
    if isinstance(value, bool):
        return f"is a boolean ({value!r}), not a number"
    if isinstance(value, str):
        return f"is text ({value!r}), not a number"
    if not isinstance(value, (int, float)):
        return f"is {type(value).__name__}, not a number"
    if isinstance(value, float) and not math.isfinite(value):
        return f"is {value!r}, not a finite number"
    if integer and not isinstance(value, int):
        return f"is {value!r}, not a whole number"
    return ""


def _cell_problems(spec: TableSpec, table: Table, ti: int) -> Iterator[Problem]:
    rule = spec.rule or table.rule
    checked = [(c, c in spec.integer) for c in dict.fromkeys(spec.numeric + spec.integer)]
    for name, integer in checked:
        if name not in table.columns:
            continue
        col = table.columns.index(name)
        for r, row in enumerate(table.rows):
            if col >= len(row):
                continue  # a short row is reported by ruleset.table-row
            why = _bad_cell(row[col], integer, name in spec.nullable)
            if why:
                yield Problem("ruleset.engine-table", f"table '{table.id}' row {r} column '{name}' {why}; the "
                              "rules engine reads this cell", f"/tables/{ti}/rows/{r}/{col}", rule)


def _key_matches(cell: Any, key: str) -> bool:
    return not isinstance(cell, bool) and (cell == key or str(cell) == key)


def table_problems(ruleset: Ruleset, specs: tuple[TableSpec, ...] | list[TableSpec]) -> Iterator[Problem]:
    """Every way ``ruleset`` fails the engine's table ``specs``: missing table, column, rows or key, bad cell."""
    where: dict[str, int] = {}
    for i, t in enumerate(ruleset.tables):
        where.setdefault(t.id, i)  # the first table of an id is the one Ruleset.table() returns
    for spec in specs:
        ti = where.get(spec.id)
        if ti is None:
            yield Problem("ruleset.engine-table", f"table '{spec.id}' is missing; the rules engine reads it"
                          f"{suggest(spec.id, sorted(where))}", "/tables" if ruleset.tables else "", spec.rule,
                          at_key=True)
            continue
        table = ruleset.tables[ti]
        rule = spec.rule or table.rule
        for name in spec.required_columns():
            if name not in table.columns:
                yield Problem("ruleset.engine-table", f"table '{spec.id}' has no column '{name}'; the rules engine "
                              f"reads it{suggest(name, table.columns)}", f"/tables/{ti}/columns", rule)
        if len(table.rows) < spec.min_rows:
            yield Problem("ruleset.engine-table", f"table '{spec.id}' has {len(table.rows)} row(s); the rules "
                          f"engine needs at least {spec.min_rows}", f"/tables/{ti}/rows", rule, at_key=True)
        firsts = [row[0] for row in table.rows if row]
        for key in spec.keys:
            if not any(_key_matches(cell, key) for cell in firsts):
                yield Problem("ruleset.engine-table", f"table '{spec.id}' has no row '{key}'; the rules engine "
                              "reads it", f"/tables/{ti}/rows", rule, at_key=True)
        yield from _cell_problems(spec, table, ti)


# ------------------------------------------------------------------ options

def same_value(a: Any, b: Any) -> bool:
    """Equality that keeps booleans apart from numbers (``True`` is not the choice ``1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def is_choice(value: Any, option: RuleOption) -> bool:
    return any(same_value(value, c) for c in option.choices)


def option_problems(ruleset: Ruleset, options: Mapping[Any, Any], base: str = "/options") -> Iterator[Problem]:
    """``scenario.option-unknown`` for keys that are not option ids of ``ruleset``, ``scenario.option-choice``
    for values that are not one of the option's choices; pointers are ``{base}/{key}``."""
    from .pointers import escape  # noqa: PLC0415

    known = {o.id: o for o in ruleset.options}
    for name, value in options.items():
        pointer = f"{base}/{escape(str(name))}"
        option = known.get(name) if isinstance(name, str) else None
        if option is None:
            readings = {r.id for r in ruleset.readings}
            also = " (it is a fixed reading, not an option)" if name in readings else ""
            yield Problem("scenario.option-unknown", f"rule option '{name}' is not defined by ruleset "
                          f"'{ruleset.id}'{also}{suggest(str(name), sorted(known))}", pointer, at_key=True)
        elif not is_choice(value, option):
            yield Problem("scenario.option-choice", f"rule option '{name}' must be one of {option.choices}, "
                          f"not {value!r}", pointer, option.rule)


def optional_rule_problems(ruleset: Ruleset, rule_ids: Iterable[Any], base: str = "/optional_rules"
                           ) -> Iterator[Problem]:
    """``scenario.optional-rule-unknown`` for ids that are not optional rules of ``ruleset``,
    ``scenario.optional-rule-duplicate`` for an id listed twice, ``scenario.optional-rule-requires`` for a rule
    switched on without a rule it ``requires``; pointers are ``{base}/{position}``."""
    known = {o.id: o for o in ruleset.optional_rules}
    seen: set = set()
    ids = list(rule_ids)
    for k, rid in enumerate(ids):
        pointer = f"{base}/{k}"
        rule = known.get(rid) if isinstance(rid, str) else None
        if rule is None:
            yield Problem("scenario.optional-rule-unknown", f"optional rule '{rid}' is not defined by ruleset "
                          f"'{ruleset.id}'{suggest(str(rid), sorted(known))}", pointer)
            continue
        if rid in seen:
            yield Problem("scenario.optional-rule-duplicate", f"optional rule '{rid}' is listed twice", pointer,
                          rule.rule)
        seen.add(rid)
        for other in rule.requires:
            if other not in ids:
                yield Problem("scenario.optional-rule-requires", f"optional rule '{rid}' ({rule.rule}) needs "
                              f"optional rule '{other}' switched on too", pointer, rule.rule)


def ruleset_optional_rule_problems(ruleset: Ruleset) -> Iterator[Problem]:
    """``ruleset.optional-rule-table`` for a table id an optional rule names that ``tables[]`` lacks,
    ``ruleset.optional-rule-requires`` for a ``requires`` id that is no optional rule, and
    ``ruleset.optional-rule-duplicate`` for a repeated id."""
    tables = {t.id for t in ruleset.tables}
    ids = [o.id for o in ruleset.optional_rules]
    for k, rule in enumerate(ruleset.optional_rules):
        base = f"/optional_rules/{k}"
        if rule.id in ids[:k]:
            yield Problem("ruleset.optional-rule-duplicate", f"optional rule id '{rule.id}' is used twice",
                          f"{base}/id", rule.rule)
        for field_name in ("tables", "needs"):
            names = rule.tables if field_name == "tables" else rule.needs.tables
            where = f"{base}/tables" if field_name == "tables" else f"{base}/needs/tables"
            for j, tid in enumerate(names):
                if tid not in tables:
                    yield Problem("ruleset.optional-rule-table", f"optional rule '{rule.id}' names table '{tid}', "
                                  f"which the ruleset does not define{suggest(tid, sorted(tables))}", f"{where}/{j}",
                                  rule.rule)
        for j, other in enumerate(rule.requires):
            if other not in ids:
                yield Problem("ruleset.optional-rule-requires", f"optional rule '{rule.id}' requires '{other}', "
                              f"which is no optional rule of this ruleset", f"{base}/requires/{j}", rule.rule)


def merged_options(ruleset: Ruleset, scenario_options: Mapping[str, Any] | None = None,
                   overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options an engine receives: the ruleset's defaults, then the scenario's, then ``overrides``."""
    merged: dict[str, Any] = {o.id: o.default for o in ruleset.options}
    merged.update(scenario_options or {})
    merged.update(overrides or {})
    return merged


# ------------------------------------------------------------------ environment

ENVIRONMENT_FIELDS = tuple(Environment.model_fields)


def environment_problems(environment: Environment, used: frozenset[str] | set[str],
                         system: str) -> Iterator[Problem]:
    """``scenario.environment-unused`` for each environment field set away from its default that the rule
    system ``system`` does not use (``used`` = the plugin's ``environment_fields``)."""
    default = Environment()
    for name in ENVIRONMENT_FIELDS:
        if name in used:
            continue
        value = getattr(environment, name)
        if value != getattr(default, name):
            shown = value.model_dump() if hasattr(value, "model_dump") else value
            yield Problem("scenario.environment-unused", f"environment field '{name}' is set ({shown!r}) but the "
                          f"rules of '{system}' do not use it: it changes nothing in play",
                          f"/environment/{name}", at_key=True)
