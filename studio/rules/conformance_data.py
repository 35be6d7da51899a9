"""Conformance checks of what a ruleset plugin declares: options and tables are read, states are whole and
private, phases are named. Re-exported by :mod:`studio.rules.conformance`.

- :class:`Probe`: a position (document as a dict) plus action texts, listing the options and tables it exposes.
  :func:`probe_signature` = legal actions (text, sorted) at the start and after each action, the fingerprint
  after each action, the outcome if terminal (an action the rules refuse ends it with the rule named).
- :func:`check_options_real`: every ruleset option with >= 2 choices plays differently (pairwise different
  signatures) under each choice in some probe listing it, or is in ``plugin.unexposable_options``; an option of
  one choice belongs in ``readings``.
- :func:`check_tables_read`: perturbing any one numeric cell of an ``engine_tables`` table changes
  ``Game.data_fingerprint()``. :func:`check_tables_played`: perturbing a whole table (+1 on each numeric cell)
  changes the signature of some probe listing it. Both honour ``plugin.unexposable_tables``.
- :func:`check_optional_rules_real`: every optional rule of the ruleset plays differently switched on than off
  in some probe listing it (``Probe.optional_rules``), or is in ``plugin.unexposable_optional_rules``;
  :func:`optional_rules_report` gives the per-rule verdicts without failing (rules no probe lists yet).
- :func:`check_environment_real`: each field of ``plugin.environment_fields`` changes play in some probe whose
  ``environment`` sets it (``{field: value}``: the probe is played with the scenario's environment and with
  that value).
- :func:`check_fingerprint_complete`: perturbing any slot of a state (dataclass fields, ``__slots__``,
  attributes, nested records) on a clone changes ``fingerprint()``, unless listed in ``DERIVED_SLOTS``.
- :func:`check_observation_private`: ``observation(player)`` (and its ``clone()``) is the same whatever
  ``scramble_hidden(player, seed)`` randomizes, and its dice do not reproduce the real next rolls.
- :func:`check_phase_ids`: ``State.phase_id()`` is always one of ``Game.phases``.

A hook the plugin has not declared raises :class:`NotDeclared` (not a failure). Rule-system neutral.
"""
from __future__ import annotations

import copy
import dataclasses
import random
from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterator

from pydantic import BaseModel

from .api import Game, RulesError, State
from .stepping import ConformanceError
from .stepping import step as _step
from .dice import Dice
from .load import LoadedGame, ScenarioRefused, load_game, rebuild_game
from .position import PositionSetup, load_position, position_state

__all__ = ["NotDeclared", "Probe", "check_environment_real", "check_fingerprint_complete",
           "check_observation_private", "check_optional_rules_real", "check_options_real", "check_phase_ids",
           "check_tables_played", "check_tables_read", "check_tables_real", "optional_rule_variants",
           "optional_rules_report", "probe_signature", "run_declared", "sample_states"]


class NotDeclared(Exception):
    """The plugin has not declared the hook a check needs (``str`` names it); reported, not failed."""


@dataclass(frozen=True)
class Probe:
    """A position built to expose options and tables: ``position`` (a position document as a dict), ``actions``
    (texts played in order with ``play`` after set-up), the option ids and table ids it exposes."""

    name: str
    position: dict
    actions: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    #: scenario environment field -> a value that must make this probe play differently from the scenario's own
    environment: dict = dataclasses.field(default_factory=dict)
    #: optional rule ids this probe exposes: it must play differently with each switched on and off
    optional_rules: tuple[str, ...] = ()


# ------------------------------------------------------------------ probes

def _legal(state: State) -> tuple[str, ...]:
    return tuple(sorted(str(a) for a in state.legal_actions()))


def probe_signature(game: Game, position, actions: tuple[str, ...] | list[str] = ()) -> tuple:
    """What a probe shows of ``game``: legal actions at the start and after each action, the fingerprint after
    each action, the outcome if terminal. ``position`` is a Position model or dict."""
    state = position_state(game, position)
    sig: list[tuple] = [("legal", _legal(state))]
    for text in actions:
        try:
            action = game.parse_action(text)
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError(f"probe action '{text}' does not parse: {exc}") from exc
        try:
            state.play(action)
        except RulesError as exc:
            sig.append(("refused", text, exc.rule, exc.reason))
            break
        sig.append(("after", text, _legal(state), state.fingerprint()))
    if state.is_terminal():
        out = state.outcome()
        sig.append(("outcome", out.winner, tuple(out.victory_points), out.reason))
    return tuple(sig)


class _Runner:
    """Sets up probes and plays their variants; the project is validated once per scenario."""

    def __init__(self, plugin, project):
        self.plugin = plugin
        self.project = project
        self.games: dict = {}
        self.setups: dict[str, PositionSetup] = {}

    def setup(self, probe: Probe) -> PositionSetup:
        if probe.name not in self.setups:
            try:
                self.setups[probe.name] = load_position(probe.position, self.project, games=self.games)
            except ScenarioRefused as exc:
                shown = "; ".join(d.format_text() for d in exc.diagnostics[:3])
                raise ConformanceError(f"probe '{probe.name}' cannot be set up: {exc} {shown}") from None
        return self.setups[probe.name]

    def game(self, loaded: LoadedGame, options: dict | None = None, ruleset=None, scenario=None,
             optional_rules=None) -> Game:
        """A game of ``loaded`` built by the checked plugin's own factory (never the registry's)."""
        return rebuild_game(loaded, {**loaded.overrides, **(options or {})}, ruleset, scenario,
                            self.plugin.game_factory, optional_rules=optional_rules)

    def signature(self, probe: Probe, options: dict | None = None, ruleset=None, scenario=None,
                  optional_rules=None) -> tuple:
        base = self.setup(probe)
        try:
            game = self.game(base.loaded, options, ruleset, scenario, optional_rules)
        except ScenarioRefused as exc:  # the engine refuses the variant's data: a visible effect
            return (("refused", str(exc)),)
        try:
            return probe_signature(game, base.position, probe.actions)
        except ConformanceError:
            raise
        except ScenarioRefused as exc:
            shown = "; ".join(d.message for d in exc.diagnostics[:2])
            raise ConformanceError(f"probe '{probe.name}': {exc} {shown}") from None
        except Exception as exc:  # noqa: BLE001 - engines must not raise on data that passes validation
            raise ConformanceError(f"probe '{probe.name}' raised {type(exc).__name__}: {exc}") from exc

    def loaded(self) -> LoadedGame:
        """The game of the first probe's scenario, else of the project's first scenario of this ruleset."""
        probes = self.plugin.probes() if self.plugin.probes else []
        if probes:
            return self.setup(probes[0]).loaded
        from studio.model.project import default_project  # noqa: PLC0415
        from studio.model.validate import validate_paths  # noqa: PLC0415

        index = validate_paths([self.project or default_project()]).index
        ids = sorted(d.id for d in index.of_kind("scenario") if d.model is not None
                     and d.model.ruleset == self.plugin.id)
        if not ids:
            raise NotDeclared(f"no probes, and no scenario of ruleset '{self.plugin.id}' in the project")
        return load_game(ids[0], self.project)


def _probes(plugin) -> list[Probe]:
    if plugin.probes is None:
        raise NotDeclared(f"plugin '{plugin.id}' declares no probes")
    probes = list(plugin.probes())
    if not probes:
        raise NotDeclared(f"plugin '{plugin.id}' declares an empty probe list")
    return probes


def _fail(what: str, problems: list[str]) -> None:
    if problems:
        raise ConformanceError(f"{what}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))


# ------------------------------------------------------------------ options

def _option_exposed(runner: _Runner, option, probes: list[Probe]) -> str:
    """"" when some probe plays pairwise differently under every choice of ``option``, else why not."""
    if not probes:
        return "no probe lists it (add one, or list it in unexposable_options with the reason)"
    notes = []
    for probe in probes:
        sigs = [(choice, runner.signature(probe, {option.id: choice})) for choice in option.choices]
        same = [(a, b) for i, (a, sa) in enumerate(sigs) for b, sb in sigs[i + 1:] if sa == sb]
        if not same:
            return ""
        notes.append(f"probe '{probe.name}' plays the same under {same[0][0]!r} and {same[0][1]!r}")
    return "; ".join(notes)


def check_options_real(plugin, project=None) -> None:
    """Every ruleset option with two or more choices changes play in a probe listing it (or is declared
    unexposable); raises :class:`ConformanceError` naming each failing option."""
    probes = _probes(plugin)
    runner = _Runner(plugin, project)
    loaded = runner.setup(probes[0]).loaded
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    known = {o.id: o for o in ruleset.options}
    problems = [f"probe '{p.name}' lists option '{o}', which ruleset '{ruleset.id}' does not define"
                for p in probes for o in p.options if o not in known]
    problems += [f"unexposable_options names '{o}', which ruleset '{ruleset.id}' does not define"
                 for o in plugin.unexposable_options if o not in known]
    for option in ruleset.options:
        if len(option.choices) < 2:
            problems.append(f"option '{option.id}' [{option.rule}] has one choice: it is a reading, move it to "
                            "'readings'")
            continue
        if option.id in plugin.unexposable_options:
            continue
        why = _option_exposed(runner, option, [p for p in probes if option.id in p.options])
        if why:
            problems.append(f"option '{option.id}' [{option.rule}]: {why}")
    _fail(f"options of ruleset '{ruleset.id}' that change nothing", problems)


# ------------------------------------------------------------------ tables

def _perturbed_cell(value: Any) -> Any:
    """A number one higher, a boolean flipped; None for cells that are not perturbed (text, empty)."""
    if isinstance(value, bool):
        return not value
    if not isinstance(value, (int, float)):
        return None
    return value + 1


def _cells(spec, table, booleans: bool = False) -> Iterator[tuple[int, int, str]]:
    """``(row, column index, column name)`` of each cell a spec lets the checks perturb: numbers in its numeric
    and integer columns (and, with ``booleans``, booleans in any column it names); a key column (the first,
    when the spec has keys) is not perturbed."""
    numeric = set(spec.numeric + spec.integer)
    for name in [c for c in spec.required_columns() if c in table.columns]:
        col = table.columns.index(name)
        if col == 0 and spec.keys:
            continue
        for r, row in enumerate(table.rows):
            value = row[col] if col < len(row) else None
            if (booleans and isinstance(value, bool)) or (name in numeric and not isinstance(value, bool)
                                                          and _perturbed_cell(value) is not None):
                yield r, col, name


def _with_cells(ruleset, table_index: int, cells: list[tuple[int, int]]):
    """A copy of ``ruleset`` in which each cell ``(row, col)`` of table ``table_index`` is perturbed (numbers +1,
    booleans flipped)."""
    table = ruleset.tables[table_index]
    rows = [list(row) for row in table.rows]
    for r, c in cells:
        rows[r][c] = _perturbed_cell(rows[r][c])
    tables = list(ruleset.tables)
    tables[table_index] = table.model_copy(update={"rows": rows})
    return ruleset.model_copy(update={"tables": tables})


def _unexposable(plugin, table, r: int, name: str) -> bool:
    key = table.rows[r][0] if table.rows[r] else r
    return any(k in plugin.unexposable_tables for k in (table.id, f"{table.id}:{r}:{name}",
                                                         f"{table.id}:{key}:{name}"))


def _spread(items: list, limit: int | None) -> list:
    if limit is None or len(items) <= limit:
        return items
    step = (len(items) - 1) / max(1, limit - 1)
    return [items[round(i * step)] for i in range(limit)]


def check_tables_read(plugin, project=None, max_cells_per_table: int | None = None,
                      booleans: bool = False) -> None:
    """Perturbing any one numeric cell of an engine table changes ``Game.data_fingerprint()``; raises
    :class:`ConformanceError` listing unread cells as ``table:row:column``. ``max_cells_per_table`` samples
    (evenly spread) for a fast run; ``booleans`` also flips the boolean cells of the spec's columns (beyond the
    contract: a flip can make data the spec cannot call invalid). An engine that refuses the perturbed data
    with :class:`ScenarioRefused` has read the cell."""
    if not plugin.engine_tables:
        raise NotDeclared(f"plugin '{plugin.id}' declares no engine_tables")
    runner = _Runner(plugin, project)
    loaded = runner.loaded()
    game = runner.game(loaded)
    if not hasattr(game, "data_fingerprint"):
        raise NotDeclared("the Game has no data_fingerprint()")
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    base = game.data_fingerprint()
    where = {t.id: i for i, t in reversed(list(enumerate(ruleset.tables)))}  # the first of an id wins
    problems = [f"unexposable_tables names '{k}', which is not an engine table"
                for k in plugin.unexposable_tables if k.split(":")[0] not in {s.id for s in plugin.engine_tables}]
    for spec in plugin.engine_tables:
        if spec.id not in where or spec.id in plugin.unexposable_tables:
            continue
        ti = where[spec.id]
        table = ruleset.tables[ti]
        cells = [c for c in _cells(spec, table, booleans) if not _unexposable(plugin, table, c[0], c[2])]
        for r, col, name in _spread(cells, max_cells_per_table):
            try:
                changed = runner.game(loaded, None, _with_cells(ruleset, ti, [(r, col)])).data_fingerprint()
            except ScenarioRefused:
                continue  # the engine checks the cell and refuses the changed value: it reads it
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{spec.id}:{r}:{name}: the engine raised {type(exc).__name__}: {exc}")
                continue
            if changed == base:
                problems.append(f"{spec.id}:{r}:{name} (cell {table.rows[r][col]!r}) is never read")
    _fail(f"engine table cells of ruleset '{ruleset.id}' that data_fingerprint() ignores", problems)


def check_tables_played(plugin, project=None, booleans: bool = False) -> None:
    """Perturbing a whole engine table (+1 on each numeric cell; with ``booleans`` boolean cells flipped too)
    changes the signature of some probe listing it; raises :class:`ConformanceError` naming each table that
    plays the same. A table with nothing to perturb is not checked here (only its shape is, by validation)."""
    probes = _probes(plugin)
    runner = _Runner(plugin, project)
    loaded = runner.setup(probes[0]).loaded
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    where = {t.id: i for i, t in reversed(list(enumerate(ruleset.tables)))}  # the first of an id wins
    ids = {s.id for s in plugin.engine_tables}
    problems = [f"probe '{p.name}' lists table '{t}', which is not in engine_tables"
                for p in probes for t in p.tables if t not in ids]
    for spec in plugin.engine_tables:
        if spec.id not in where or spec.id in plugin.unexposable_tables:
            continue
        exposing = [p for p in probes if spec.id in p.tables]
        if not exposing:
            problems.append(f"table '{spec.id}': no probe lists it (add one, or list it in unexposable_tables)")
            continue
        ti = where[spec.id]
        cells = [(r, c) for r, c, _ in _cells(spec, ruleset.tables[ti], booleans)]
        if not cells:
            continue
        changed = _with_cells(ruleset, ti, cells)
        if all(runner.signature(p) == runner.signature(p, ruleset=changed) for p in exposing):
            what = "numbers one higher and booleans flipped" if booleans else "numeric cells one higher"
            problems.append(f"table '{spec.id}': every probe listing it plays the same with all its {what}")
    _fail(f"engine tables of ruleset '{ruleset.id}' that change nothing in play", problems)


def check_tables_real(plugin, project=None, max_cells_per_table: int | None = None) -> None:
    """:func:`check_tables_read` then :func:`check_tables_played` (each needs its own declarations)."""
    check_tables_read(plugin, project, max_cells_per_table)
    check_tables_played(plugin, project)


# ------------------------------------------------------------------ optional rules

def _closure(ruleset, rule_id: str) -> list[str]:
    """``rule_id`` and every optional rule it needs (``requires``, transitively), in a stable order."""
    known = {o.id: o for o in ruleset.optional_rules}
    out: list[str] = []
    stack = [rule_id]
    while stack:
        rid = stack.pop()
        if rid in out or rid not in known:
            continue
        out.append(rid)
        stack.extend(reversed(known[rid].requires))
    return out


def _dependents(ruleset, rule_id: str) -> set[str]:
    """The optional rules that need ``rule_id`` (directly or transitively), ``rule_id`` included."""
    return {o.id for o in ruleset.optional_rules if rule_id in _closure(ruleset, o.id)}


def optional_rule_variants(ruleset, base: list[str], rule_id: str) -> tuple[list[str], list[str]]:
    """The optional rules in force ``(on, off)`` to compare for ``rule_id``: ``on`` is ``base`` plus the rule and
    what it requires; ``off`` is ``on`` without the rule and without the rules that need it."""
    on = list(dict.fromkeys([*base, *_closure(ruleset, rule_id)]))
    gone = _dependents(ruleset, rule_id)
    return on, [r for r in on if r not in gone]


def _optional_exposed(runner: _Runner, ruleset, rule_id: str, probes: list[Probe]) -> str:
    """"" when some probe plays differently with ``rule_id`` on than off, else why not."""
    if not probes:
        return "no probe lists it (add one, or list it in unexposable_optional_rules with the reason)"
    notes = []
    for probe in probes:
        base = list(runner.setup(probe).loaded.scenario.optional_rules)
        on, off = optional_rule_variants(ruleset, base, rule_id)
        if runner.signature(probe, optional_rules=on) != runner.signature(probe, optional_rules=off):
            return ""
        notes.append(f"probe '{probe.name}' plays the same with it on and off")
    return "; ".join(notes)


def optional_rules_report(plugin, project=None) -> dict[str, str]:
    """``{optional rule id: verdict}`` for every optional rule of the probes' ruleset: ``""`` (a probe shows it
    changes play), ``"unexposable: <reason>"``, or why no probe exposes it. Never raises for a rule."""
    probes = _probes(plugin)
    runner = _Runner(plugin, project)
    loaded = runner.setup(probes[0]).loaded
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    unexposable = getattr(plugin, "unexposable_optional_rules", {}) or {}
    out: dict[str, str] = {}
    for rule in ruleset.optional_rules:
        if rule.id in unexposable:
            out[rule.id] = f"unexposable: {unexposable[rule.id]}"
            continue
        out[rule.id] = _optional_exposed(runner, ruleset, rule.id, [p for p in probes if rule.id in p.optional_rules])
    return out


def check_optional_rules_real(plugin, project=None, listed_only: bool = False) -> None:
    """Every optional rule of the ruleset changes play in a probe listing it (switched on against switched off),
    or is declared in ``plugin.unexposable_optional_rules``; raises :class:`ConformanceError` naming each
    failing rule. ``listed_only`` checks only the rules some probe lists (rules still being built are then
    reported by :func:`optional_rules_report`, not failed)."""
    probes = _probes(plugin)
    runner = _Runner(plugin, project)
    loaded = runner.setup(probes[0]).loaded
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    known = {o.id: o for o in ruleset.optional_rules}
    unexposable = getattr(plugin, "unexposable_optional_rules", {}) or {}
    problems = [f"probe '{p.name}' lists optional rule '{o}', which ruleset '{ruleset.id}' does not define"
                for p in probes for o in p.optional_rules if o not in known]
    problems += [f"unexposable_optional_rules names '{o}', which ruleset '{ruleset.id}' does not define"
                 for o in unexposable if o not in known]
    listed = {o for p in probes for o in p.optional_rules}
    for rule in ruleset.optional_rules:
        if rule.id in unexposable or (listed_only and rule.id not in listed):
            continue
        why = _optional_exposed(runner, ruleset, rule.id, [p for p in probes if rule.id in p.optional_rules])
        if why:
            problems.append(f"optional rule '{rule.id}' [{rule.rule}]: {why}")
    _fail(f"optional rules of ruleset '{ruleset.id}' that change nothing", problems)


# ------------------------------------------------------------------ environment

def _with_environment(scenario, name: str, value: Any):
    """A copy of the scenario model with environment field ``name`` set to ``value`` (validated)."""
    from studio.model.documents import Environment  # noqa: PLC0415

    environment = Environment.model_validate({**scenario.environment.model_dump(), name: value})
    return scenario.model_copy(update={"environment": environment})


def check_environment_real(plugin, project=None) -> None:
    """Every environment field the plugin says its rules use (``environment_fields``) changes play: some probe
    whose ``environment`` maps the field to a value plays differently with it than with the scenario's own."""
    probes = [p for p in _probes(plugin) if p.environment]
    if not probes:
        raise NotDeclared(f"plugin '{plugin.id}' has no probe with an environment")
    runner = _Runner(plugin, project)
    problems = [f"probe '{p.name}' sets environment field '{f}', which the plugin does not list in "
                "environment_fields" for p in probes for f in p.environment if f not in plugin.environment_fields]
    for name in sorted(plugin.environment_fields):
        exposing = [p for p in probes if name in p.environment]
        if not exposing:
            problems.append(f"environment field '{name}': no probe sets it")
            continue
        if all(runner.signature(p) == runner.signature(
                p, scenario=_with_environment(runner.setup(p).loaded.scenario, name, p.environment[name]))
               for p in exposing):
            problems.append(f"environment field '{name}': every probe setting it plays the same")
    _fail(f"environment fields of '{plugin.id}' that change nothing in play", problems)


# ------------------------------------------------------------------ fingerprint

_UNCHANGED = object()


def _is_record(value: Any) -> bool:
    if isinstance(value, (Game, BaseModel, Enum, type, Dice)) or callable(value):
        return False
    if dataclasses.is_dataclass(value):
        return True
    cls = type(value)
    return cls.__module__ != "builtins" and (hasattr(value, "__dict__") or bool(_slot_names(cls)))


def _slot_names(cls: type) -> list[str]:
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s not in ("__weakref__", "__dict__")]
    return names


def _fields(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        names = [f.name for f in dataclasses.fields(obj)]
    else:
        names = _slot_names(type(obj))
    names += [n for n in getattr(obj, "__dict__", {}) if n not in names]
    return [n for n in dict.fromkeys(names) if not n.startswith("__")]


def _changed(value: Any) -> Any:
    """A different value of the same shape, or ``_UNCHANGED`` when none can be made."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, Enum):
        return next((m for m in type(value) if m != value), _UNCHANGED)
    if isinstance(value, (int, float)):
        return value + 1 if value == value and abs(value) != float("inf") else 0
    if isinstance(value, str):
        return value + "~"
    if value is None:
        return 1
    if isinstance(value, Dice):
        other = value.clone()
        other.randrange(2)
        return other
    return _changed_container(value)


def _changed_container(value: Any) -> Any:
    if isinstance(value, (list, deque)):
        first = _changed(value[0]) if value else 0
        return _UNCHANGED if first is _UNCHANGED else type(value)([first, *list(value)[1:]])
    if isinstance(value, tuple):
        if not value:
            return (0,)
        first = _changed(value[0])
        if first is _UNCHANGED:
            return _UNCHANGED
        items = [first, *value[1:]]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if isinstance(value, dict):
        if not value:
            return type(value)({0: 0}) if type(value) is dict else _UNCHANGED
        key = next(iter(value))
        new = _changed(value[key])
        return _UNCHANGED if new is _UNCHANGED else type(value)({**value, key: new})
    if isinstance(value, (set, frozenset)):
        candidate = _changed(next(iter(value))) if value else 0
        for _ in range(8):
            if candidate is _UNCHANGED or candidate not in value:
                break
            candidate = _changed(candidate)
        return _UNCHANGED if candidate is _UNCHANGED else type(value)([*value, candidate])
    return _UNCHANGED


def _slot_paths(obj: Any, derived: dict, prefix: tuple = (), name: str = "", depth: int = 0) -> Iterator[tuple]:
    """Paths ``(("attr", name) | ("item", key), ...)`` to every perturbable value of a state record."""
    own = getattr(obj, "DERIVED_SLOTS", None) or {} if depth else {}
    for field in _fields(obj):
        dotted = f"{name}.{field}" if name else field
        if field in own or dotted in derived or field in ("DERIVED_SLOTS",):
            continue
        try:
            value = getattr(obj, field)
        except AttributeError:
            continue
        if isinstance(value, (Game, BaseModel, type)) or (callable(value) and not isinstance(value, Dice)):
            continue
        path = prefix + (("attr", field),)
        yield from _value_paths(value, derived, path, dotted, depth)


def _value_paths(value: Any, derived: dict, path: tuple, dotted: str, depth: int) -> Iterator[tuple]:
    if depth < 4 and _is_record(value):
        yield from _slot_paths(value, derived, path, dotted, depth + 1)
        return
    yield path
    items = value if isinstance(value, (list, tuple, deque)) else ()
    if depth < 4 and items and _is_record(items[0]):
        yield from _slot_paths(items[0], derived, path + (("item", 0),), dotted, depth + 1)
    elif depth < 4 and isinstance(value, dict) and value:
        key = next(iter(value))
        if _is_record(value[key]):
            yield from _slot_paths(value[key], derived, path + (("item", key),), dotted, depth + 1)


def _with(obj: Any, path: tuple, leaf: Callable[[Any], Any]) -> Any:
    """A copy of ``obj`` with the value at ``path`` replaced by ``leaf(value)``; copies along the path, so
    nothing the original shares is mutated."""
    if not path:
        return leaf(obj)
    kind, key = path[0]
    if kind == "attr":
        new = copy.copy(obj)
        object.__setattr__(new, key, _with(getattr(obj, key), path[1:], leaf))
        return new
    rebuilt = _with(obj[key], path[1:], leaf)
    if isinstance(obj, tuple):
        items = list(obj)
        items[key] = rebuilt
        return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
    new = copy.copy(obj)
    new[key] = rebuilt
    return new


def _describe(path: tuple) -> str:
    text = ""
    for kind, key in path:
        text += f".{key}" if kind == "attr" else f"[{key!r}]"
    return text.lstrip(".")


def check_fingerprint_complete(state: State, max_slots: int = 400) -> None:
    """For each slot of ``state`` (and of nested records, the first element of record lists), a perturbation on
    a clone changes ``fingerprint()`` unless ``DERIVED_SLOTS`` lists it (``slot`` or ``record.slot``); raises
    :class:`ConformanceError` naming each slot the fingerprint misses (or that ``clone()`` shares)."""
    if not hasattr(state, "DERIVED_SLOTS"):
        raise NotDeclared(f"{type(state).__name__} declares no DERIVED_SLOTS (use {{}} when nothing is derived)")
    derived = dict(state.DERIVED_SLOTS or {})
    base = state.fingerprint()
    missed: list[str] = []
    for path in list(_slot_paths(state, derived))[:max_slots]:
        clone = state.clone()
        (kind, key), rest = path[0], path[1:]
        leaf_value = _UNCHANGED

        def leaf(value):
            nonlocal leaf_value
            leaf_value = _changed(value)
            return value if leaf_value is _UNCHANGED else leaf_value

        try:
            object.__setattr__(clone, key, _with(getattr(clone, key), rest, leaf))
        except (AttributeError, LookupError, TypeError):
            missed.append(f"{_describe(path)} (clone() does not copy it)")
            continue
        if leaf_value is _UNCHANGED:
            continue
        try:
            changed = clone.fingerprint() != base
        except Exception:  # noqa: BLE001 - it read the slot (and choked on the new value)
            changed = True
        if not changed:
            missed.append(_describe(path))
        if state.fingerprint() != base:
            raise ConformanceError(f"perturbing {_describe(path)} on a clone changed the original: clone() shares it")
    _fail(f"{type(state).__name__}.fingerprint() misses slots (perturbed, same hash; list derived ones in "
          "DERIVED_SLOTS)", missed)


# ------------------------------------------------------------------ observation

def _next_rolls(dice: Any, count: int = 8) -> list:
    twin = dice.clone()
    out = []
    for _ in range(count):
        try:
            out.append(twin.roll(1000))
        except ValueError:
            out.append(None)
    return out


def _dice_private(state: State, view: State, what: str) -> None:
    real, seen = getattr(state, "dice", None), getattr(view, "dice", None)
    if real is None or seen is None or not hasattr(seen, "clone"):
        return
    if seen is real:
        raise ConformanceError(f"the {what} shares the real dice object")
    if _next_rolls(seen) == _next_rolls(real):
        raise ConformanceError(f"the dice of the {what} reproduce the real next rolls (reseed them)")


def _difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"...{a[max(0, i - 40):i + 40]}... vs ...{b[max(0, i - 40):i + 40]}..."


def check_observation_private(state: State, player: int, seeds=(1, 2, 3)) -> None:
    """``observation(player)`` and its ``clone()`` do not change when ``scramble_hidden(player, seed)``
    randomizes what ``player`` may not know, and their dice do not predict the real rolls."""
    scramble = getattr(state, "scramble_hidden", None)
    if scramble is None:
        raise NotDeclared(f"{type(state).__name__} has no scramble_hidden(player, seed)")
    before = state.fingerprint()
    view = state.observation(player)
    _dice_private(state, view, f"observation({player})")
    _dice_private(state, view.clone(), f"clone of observation({player})")
    seen, seen_clone = view.fingerprint(), view.clone().fingerprint()
    for seed in seeds:
        other = scramble(player, seed).observation(player)
        if other.fingerprint() != seen:
            raise ConformanceError(f"observation({player}) changes when hidden parts are scrambled (seed {seed}): "
                                   f"{_difference(seen, other.fingerprint())}")
        if other.clone().fingerprint() != seen_clone:
            raise ConformanceError(f"the clone of observation({player}) changes when hidden parts are scrambled "
                                   f"(seed {seed}): {_difference(seen_clone, other.clone().fingerprint())}")
    if state.fingerprint() != before:
        raise ConformanceError("observation() or scramble_hidden() changed the real state")


# ------------------------------------------------------------------ phases and the whole set

def check_phase_ids(game: Game, seed: int = 0, steps: int = 300) -> None:
    """Along a random playout, ``State.phase_id()`` is always the id of one of ``Game.phases``."""
    ids = {p.id for p in getattr(game, "phases", ()) or ()}
    if not ids:
        raise NotDeclared("the Game lists no phases")
    state = game.new_initial_state(seed)
    if type(state).phase_id is State.phase_id:
        raise NotDeclared(f"{type(state).__name__} does not implement phase_id()")
    rng = random.Random(seed)
    unknown: set[str] = set()
    for _ in range(steps):
        if state.is_terminal():
            break
        phase = state.phase_id()
        if phase not in ids:
            unknown.add(repr(phase))
        _step(state, rng)
    _fail(f"phase_id() values that are not phases ({', '.join(sorted(ids))})", sorted(unknown))


def sample_states(game: Game, seed: int = 0, count: int = 4, spacing: int = 17) -> list[State]:
    """The initial state and up to ``count - 1`` later non-terminal states of a random playout."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = [state.clone()]
    while len(out) < count:
        for _ in range(spacing):
            if state.is_terminal():
                return out
            _step(state, rng)
        if state.is_terminal():
            break
        out.append(state.clone())
    return out


def run_declared(game: Game, plugin, project=None, max_cells_per_table: int | None = 20) -> dict[str, str | None]:
    """The declaration checks for ``plugin``: ``{name: None | "not declared: ..." | error text}``."""
    states = sample_states(game)
    checks: dict[str, Callable[[], Any]] = {
        "options_real": lambda: check_options_real(plugin, project),
        "tables_real": lambda: check_tables_real(plugin, project, max_cells_per_table),
        "environment_real": lambda: check_environment_real(plugin, project),
        "optional_rules_real": lambda: check_optional_rules_real(plugin, project),
        "fingerprint_complete": lambda: [check_fingerprint_complete(s) for s in states],
        "observation_private": lambda: [check_observation_private(s, p) for s in states
                                        for p in range(len(game.sides))],
        "phase_ids": lambda: check_phase_ids(game),
    }
    out: dict[str, str | None] = {}
    for name, check in checks.items():
        try:
            check()
            out[name] = None
        except NotDeclared as exc:
            out[name] = f"not declared: {exc}"
        except Exception as exc:  # noqa: BLE001
            out[name] = f"{type(exc).__name__}: {exc}"
    return out
