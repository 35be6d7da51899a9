"""Positions as documents: set up any game situation from a small YAML file or dict, for any rule system.

``load_position(source, project=None) -> PositionSetup`` reads the position (a file path or a dict, see
:class:`studio.model.position.Position`), validates it, loads its scenario's game with the position's optional
rules (replacing the scenario's list) and options (both checked like :func:`studio.rules.load.load_game`'s, at the
position's own lines), checks what the core
can check (turn within the scenario, ``phase`` a PhaseSpec id of the game, ``to_act`` and unit sides side ids,
unit cards known to the project), then calls the plugin hook ``Game.state_from_position(position) -> State``
and finally forces the position's dice (``state.dice.force(*dice)``).

Every problem, the plugin's included, is a :class:`PositionError` carrying diagnostics (file and line from the
JSON pointer); nothing here lets a traceback out. Plugins raise ``PositionError(message, pointer)`` from
``state_from_position``; :func:`position_state` does the same set-up on an already built Game (the conformance
probes use it). Rule-system neutral.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.model.diagnostics import Diagnostic, Severity
from studio.model.position import Position
from studio.model.project import (LoadedDocument, default_project, display_path, find_project_root,
                                  read_document, validation_diagnostics)
from studio.model.requirements import merged_options, option_problems, optional_rule_problems

from .api import Game, State
from .load import LoadedGame, ScenarioRefused, load_game, rebuild_game, with_optional_rules

DICT_SOURCE = "<position>"


class PositionError(ScenarioRefused):
    """A position that cannot be set up. Plugins raise ``PositionError(message, pointer)``; the core adds the
    diagnostics (``.diagnostics``, file and line from ``pointer``) before it reaches the caller."""

    def __init__(self, message: str, pointer: str = "", diagnostics: list[Diagnostic] | None = None,
                 code: str = "position.invalid", rule: str = ""):
        super().__init__(message, diagnostics)
        self.pointer = pointer
        self.code = code
        self.rule = rule


@dataclass
class PositionSetup:
    """A set-up position: the loaded game (with the position's options), the state, and the position model."""

    loaded: LoadedGame
    state: State
    position: Position
    #: the position file, when it was read from one
    source: str | None = None

    def as_loaded(self) -> LoadedGame:
        """A LoadedGame whose ``game.new_initial_state(seed)`` is this position (see :class:`PositionGame`), so
        ``studio.sim`` plays N games from here; its ``spec`` rebuilds it in worker processes (file positions)."""
        return dataclasses.replace(self.loaded, game=PositionGame(self.loaded.game, self.state, self.position),
                                   position=self.source)


class PositionGame(Game):
    """The Game of a position: ``new_initial_state(seed)`` is a clone of the position's state with dice
    ``Dice(seed)`` (the position's forced dice first); everything else is the underlying game's."""

    def __init__(self, game: Game, state: State, position: Position):
        self.base = game
        self.start = state
        self.forced = tuple(position.dice)

    def __getattr__(self, name: str) -> Any:
        if name in ("base", "start", "forced"):
            raise AttributeError(name)
        return getattr(self.base, name)

    def new_initial_state(self, seed: int) -> State:
        from .dice import Dice  # noqa: PLC0415

        state = self.start.clone()
        old = getattr(state, "dice", None)
        if old is not None:
            state.dice = Dice(seed, record=getattr(old, "record", True))
            state.dice.force(*self.forced)
        return state

    def parse_action(self, text: str):
        return self.base.parse_action(text)

    # attributes the Game base class defines, so __getattr__ would never forward them
    phases = property(lambda self: self.base.phases)
    placeholder_tables = property(lambda self: self.base.placeholder_tables)
    environment_rules_applied = property(lambda self: self.base.environment_rules_applied)
    optional_rules = property(lambda self: self.base.optional_rules)

    def bot_names(self) -> list[str]:
        return self.base.bot_names()

    def make_bot(self, name: str, side: int, seed: int) -> Any:
        return self.base.make_bot(name, side, seed)


def _document(source: Path | str | dict) -> LoadedDocument:
    if isinstance(source, dict):
        return LoadedDocument(Path(DICT_SOURCE), DICT_SOURCE, data=source)
    path = Path(source)
    return read_document(path, display_path(path))


def _fail(doc: LoadedDocument, message: str, pointer: str = "", code: str = "position.invalid",
          rule: str = "", at_key: bool = False, extra: list[Diagnostic] | None = None) -> PositionError:
    if pointer and not at_key:
        at_key = isinstance(_value_at(doc.data, pointer), (dict, list))  # a block: point at its key
    found = [doc.error(code, message, pointer, rule, at_key=at_key)] + list(extra or [])
    return PositionError(f"{doc.display}: {message}", pointer, found, code, rule)


def _value_at(data: Any, pointer: str) -> Any:
    from studio.model.pointers import resolve  # noqa: PLC0415

    try:
        return resolve(data, pointer)
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def _model(doc: LoadedDocument) -> Position:
    if doc.diagnostics:
        raise PositionError(f"{doc.display}: cannot read the position", "", list(doc.diagnostics))
    data = doc.data
    if not isinstance(data, dict) or data.get("kind", "position") != "position":
        raise _fail(doc, "a position is a mapping with 'kind: position'", "/kind" if isinstance(data, dict) else "",
                    "schema.type")
    try:
        return Position.model_validate({"kind": "position", **data})
    except ValidationError as exc:
        found = validation_diagnostics(doc, exc)
        raise PositionError(f"{doc.display}: the position fails validation ({len(found)} error(s))", "", found)
    except RecursionError:
        raise _fail(doc, "position nesting is too deep", code="syntax.too-deep") from None


def _scenario_source(position: Position, doc: LoadedDocument, project) -> tuple[str | Path, Path | None]:
    """The scenario (a path, relative to the position file, or an id) and the project folder."""
    ref = position.scenario
    base = doc.path.parent if doc.display != DICT_SOURCE else Path.cwd()
    as_path = base / ref
    if ("/" in ref or ref.endswith((".yaml", ".yml"))) and as_path.is_file():
        ref = as_path
    if project is not None:
        return ref, Path(project)
    if doc.display != DICT_SOURCE:
        root = find_project_root(doc.path)
        if root is not None:
            return ref, root
    return ref, (None if isinstance(ref, Path) else default_project())


def load_position(source: Path | str | dict, project: str | Path | None = None, *,
                  games: dict | None = None) -> PositionSetup:
    """Set up the position ``source`` (file or dict); raises :class:`PositionError` with diagnostics.
    ``games`` (optional) caches the validated scenario games between calls (the conformance probes use it)."""
    doc = _document(source)
    position = _model(doc)
    ref, root = _scenario_source(position, doc, project)
    key = (str(ref), str(root))
    loaded = games.get(key) if games is not None else None
    if loaded is None:
        try:
            loaded = load_game(ref, root)
        except ScenarioRefused as exc:
            raise _fail(doc, f"scenario '{position.scenario}' cannot be played: {exc}", "/scenario",
                        "position.scenario", extra=exc.diagnostics) from None
        if games is not None:
            games[key] = loaded
    loaded = _with_optional_rules(loaded, position, doc)
    loaded = _with_options(loaded, position, doc)
    _check_cards(loaded, position, doc)
    position, state = _set_up(loaded.game, position, doc)
    return PositionSetup(loaded, state, position, None if isinstance(source, dict) else str(source))


def _with_optional_rules(loaded: LoadedGame, position: Position, doc: LoadedDocument) -> LoadedGame:
    """``loaded`` with the position's optional rules in force in place of the scenario's (checked at the
    position's own lines: unknown ids, duplicates, rules switched on without one they need)."""
    if position.optional_rules is None:
        return loaded
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    if ruleset is not None:
        _refuse(doc, optional_rule_problems(ruleset, position.optional_rules), "optional rule(s)", "/optional_rules")
    scenario = with_optional_rules(None, loaded.scenario, position.optional_rules)  # checked above, at its lines
    game = rebuild_game(loaded, scenario=scenario)
    return dataclasses.replace(loaded, game=game, scenario=scenario, optional_rules=tuple(scenario.optional_rules))


def _refuse(doc: LoadedDocument, problems, what: str, pointer: str) -> None:
    """Raise :class:`PositionError` with ``problems`` (requirement problems) located in ``doc``, if any."""
    found = [doc.error(p.code, p.message, p.pointer, p.rule, at_key=p.at_key) for p in problems]
    if found:
        raise PositionError(f"{doc.display}: {len(found)} bad {what}", pointer, found)


def _with_options(loaded: LoadedGame, position: Position, doc: LoadedDocument) -> LoadedGame:
    if not position.options:
        return loaded
    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    if ruleset is not None:
        _refuse(doc, option_problems(ruleset, position.options), "rule option(s)", "/options")
    overrides = {**loaded.overrides, **position.options}
    game = rebuild_game(loaded, overrides)
    merged = merged_options(ruleset, loaded.scenario.options, overrides) if ruleset else dict(overrides)
    return dataclasses.replace(loaded, game=game, overrides=overrides, options=merged)


def _check_cards(loaded: LoadedGame, position: Position, doc: LoadedDocument) -> None:
    for i, unit in enumerate(position.units or []):
        if loaded.index.get("unit", unit.card) is None:
            from studio.model.references import suggest  # noqa: PLC0415

            raise _fail(doc, f"unit card '{unit.card}' is not in the project"
                        f"{suggest(unit.card, loaded.index.ids('unit'))}", f"/units/{i}/card", "position.card")


def _core_checks(game: Game, position: Position, doc: LoadedDocument) -> Position:
    """Turn, phase, side to act and unit sides against the game; returns the position with its default phase."""
    limit = getattr(game, "max_turns", None)
    if isinstance(limit, int) and position.turn > limit:
        raise _fail(doc, f"turn {position.turn} is after the scenario's last turn ({limit})", "/turn",
                    "position.turn")
    phases = [p.id for p in getattr(game, "phases", ()) or ()]
    if position.phase is not None and phases and position.phase not in phases:
        raise _fail(doc, f"phase '{position.phase}' is not a phase of these rules ({', '.join(phases)})", "/phase",
                    "position.phase")
    sides = list(getattr(game, "sides", []) or [])
    if position.to_act is not None and position.to_act not in sides:
        raise _fail(doc, f"to_act '{position.to_act}' is not a side ({', '.join(sides)})", "/to_act",
                    "position.side")
    for i, unit in enumerate(position.units or []):
        if unit.side not in sides:
            raise _fail(doc, f"unit {unit.id or i}: side '{unit.side}' is not a side ({', '.join(sides)})",
                        f"/units/{i}/side", "position.side")
    if position.phase is None and phases:
        position = position.model_copy(update={"phase": phases[0]})
    return position


def position_state(game: Game, position: Position | dict, doc: LoadedDocument | None = None) -> State:
    """The state of ``position`` in ``game`` (core checks, plugin hook, forced dice); :class:`PositionError`."""
    if doc is None:
        doc = _document(position if isinstance(position, dict) else {})
    if isinstance(position, dict):
        position = _model(doc)
    return _set_up(game, position, doc)[1]


def _set_up(game: Game, position: Position, doc: LoadedDocument) -> tuple[Position, State]:
    """The position with its defaults filled in, and its state."""
    position = _core_checks(game, position, doc)
    hook = getattr(game, "state_from_position", None)
    if hook is None:
        raise _fail(doc, f"the rules engine of '{getattr(game, 'ruleset_id', '?')}' cannot set up positions "
                    "(its Game has no state_from_position)", "", "position.unsupported")
    try:
        state = hook(position)
    except PositionError as exc:
        if exc.diagnostics:
            raise
        raise _fail(doc, str(exc), exc.pointer, exc.code, exc.rule) from None
    except Exception as exc:  # noqa: BLE001 - a plugin bug is reported, never a traceback
        raise _fail(doc, f"the rules engine failed to set up the position: {type(exc).__name__}: {exc}", "",
                    "position.engine-failed") from None
    _force_dice(state, position, doc)
    return position, state


def _force_dice(state: State, position: Position, doc: LoadedDocument) -> None:
    if not position.dice:
        return
    dice: Any = getattr(state, "dice", None)
    if dice is None or not hasattr(dice, "force"):
        raise _fail(doc, "this rules engine keeps no dice in its state: forced dice cannot be applied", "/dice",
                    "position.dice")
    dice.force(*position.dice)
