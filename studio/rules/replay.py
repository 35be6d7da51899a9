"""Replay files: record a game as (scenario, content hash, ruleset version, seed, action log) and verify it.

A replay is a JSON file (``*.replay.json``)::

    {"format": "studio-replay", "format_version": 1,
     "scenario": "<scenario id>", "scenario_file": "<path relative to the project>",
     "scenario_hash": "<LoadedGame.content_hash>", "ruleset": "<id>", "ruleset_version": "<version>",
     "seed": 123, "bots": ["random", "random"], "options": {},   # the option overrides it was played with
     "optional_rules": ["mines"],                 # only when played with optional rules other than the scenario's
     "actions": ["<action text>", ...],           # the text form of every action, in order
     "final_hash": "<State.state_hash() at the end>", "outcome": {...}}

:func:`verify` re-plays the log with the checked ``State.play`` and compares the final state hash. It never
raises on a bad or outdated replay: a different ruleset version, changed scenario data, an action the rules now
refuse or a different end state are reported as a :class:`ReplayCheck` with a clear status and message.
Rule-system neutral.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .api import CHANCE, RulesError, State

FORMAT = "studio-replay"
FORMAT_VERSION = 1

#: statuses of ReplayCheck; "ok" is the only success
STATUSES = ("ok", "hash-mismatch", "version-mismatch", "scenario-changed", "illegal-action", "refused",
            "unreadable", "engine-error")


@dataclass
class ReplayCheck:
    status: str
    message: str
    steps: int = 0
    expected_hash: str = ""
    actual_hash: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "ok": self.ok, "message": self.message, "steps": self.steps,
                "expected_hash": self.expected_hash, "actual_hash": self.actual_hash, **self.details}


def outcome_json(state: State) -> dict[str, Any]:
    if not state.is_terminal():
        return {}
    o = state.outcome()
    return {"winner": o.winner, "victory_points": list(o.victory_points), "reason": o.reason, "turn": o.turn,
            "losses": list(o.losses)}


def make_replay(*, scenario: str, scenario_file: str, scenario_hash: str, ruleset: str, ruleset_version: str,
                seed: int, actions: list[str], final_hash: str, bots: list[str] | None = None,
                options: dict | None = None, outcome: dict | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "scenario": scenario,
            "scenario_file": scenario_file, "scenario_hash": scenario_hash, "ruleset": ruleset,
            "ruleset_version": ruleset_version, "seed": seed, "bots": list(bots or []), "options": dict(options or {}),
            "actions": list(actions), "final_hash": final_hash, "outcome": outcome or {}}


def write_replay(path: str | Path, replay: dict[str, Any], root: str | Path | None = None) -> Path:
    """Write ``replay`` to ``path`` atomically (:func:`studio.model.safeio.write_atomic`: unique temp name, never
    through a symlink, never outside ``root`` when given)."""
    from studio.model.safeio import write_atomic  # noqa: PLC0415

    return write_atomic(path, json.dumps(replay, indent=1) + "\n", root=root)


#: largest replay file read (a long game is a few thousand short action strings)
MAX_REPLAY_BYTES = 64 * 1024 * 1024
#: the fields every replay has, and the JSON types they must have
_FIELDS: dict[str, tuple[type, ...]] = {"scenario": (str,), "ruleset": (str,), "ruleset_version": (str, int, float),
                                        "seed": (int,), "actions": (list,), "final_hash": (str,)}
_OPTIONAL: dict[str, tuple[type, ...]] = {"scenario_file": (str,), "scenario_hash": (str,)}


class ReplayUnreadable(ValueError):
    """A file that is not a readable studio replay (the message says why)."""


def read_replay(path: str | Path) -> dict[str, Any]:
    """The replay data of ``path``; raises :class:`ReplayUnreadable` (a ValueError) or OSError, never anything
    else: special files, huge files, non-UTF-8, bad or too deep JSON, huge numbers and wrong field types."""
    data = _json_of(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayUnreadable(f"{path} is not a studio replay file")
    problem = _field_problem(data)
    if problem:
        raise ReplayUnreadable(f"{path}: {problem}")
    return data


def _json_of(path: str | Path) -> Any:
    from studio.model.safeio import ReadRefused, read_regular  # noqa: PLC0415

    try:
        return json.loads(read_regular(path, MAX_REPLAY_BYTES).decode("utf-8"))
    except ReadRefused as exc:
        raise ReplayUnreadable(f"{path}: {exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise ReplayUnreadable(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise ReplayUnreadable(f"{path}: JSON nesting is too deep") from None
    except ValueError as exc:  # JSONDecodeError, and int() of a number of more than 4,300 digits
        raise ReplayUnreadable(f"{path}: not valid JSON: {exc}") from None


def _field_problem(data: dict[str, Any]) -> str:
    """What is wrong with the fields of replay ``data`` ("" when nothing)."""
    missing = next((key for key in _FIELDS if key not in data), None)
    if missing:
        return f"replay lacks '{missing}'"
    for key, types in {**_FIELDS, **_OPTIONAL}.items():
        value = data.get(key)
        if key in _OPTIONAL and value is None:
            continue
        if not isinstance(value, types) or isinstance(value, bool):
            return f"'{key}' must be {' or '.join(t.__name__ for t in types)}, not {type(value).__name__}"
    bad = next((i for i, a in enumerate(data["actions"], 1) if not isinstance(a, str)), None)
    return f"action {bad} is not text" if bad is not None else ""


def record(loaded, seed: int, actions: list[str], state: State, bots: list[str] | None = None) -> dict[str, Any]:
    """A replay dict for a game played on ``loaded`` (a :class:`studio.rules.load.LoadedGame`)."""
    try:
        rel = str(loaded.path.resolve().relative_to(Path(loaded.project).resolve())) if loaded.project else \
            str(loaded.path)
    except ValueError:
        rel = str(loaded.path)
    replay = make_replay(scenario=loaded.game.scenario_id, scenario_file=rel, scenario_hash=loaded.content_hash,
                         ruleset=loaded.game.ruleset_id, ruleset_version=loaded.ruleset_version, seed=seed,
                         actions=actions, final_hash=state.state_hash(), bots=bots, outcome=outcome_json(state),
                         options=dict(getattr(loaded, "overrides", {}) or {}))
    switched = getattr(loaded, "optional_rules", None)
    if switched is not None:  # played with optional rules other than the scenario's (load_game override)
        replay["optional_rules"] = list(switched)
    return replay


def replay_actions(game, seed: int, actions: list[str], checked: bool = True) -> State:
    """Play a text action log from a fresh state; raises RulesError / ValueError on a bad log."""
    state = game.new_initial_state(seed)
    for text in actions:
        action = game.parse_action(text)
        if checked and state.current_player() != CHANCE:
            state.play(action)
        else:
            state.apply(action)
    return state


def verify(path: str | Path, project: str | Path | None = None) -> ReplayCheck:
    """Re-play a replay file and compare the final state hash (never raises)."""
    try:
        data = read_replay(path)
    except (OSError, ValueError) as exc:
        return ReplayCheck("unreadable", f"cannot read replay: {exc}")
    try:
        return _verify(data, project)
    except Exception as exc:  # noqa: BLE001 - the promise: a finding, never a crash
        return ReplayCheck("engine-error", f"replay could not be checked: {type(exc).__name__}: {exc}")


def _verify(data: dict[str, Any], project: str | Path | None) -> ReplayCheck:
    loaded = _load(data, project)
    if isinstance(loaded, ReplayCheck):
        return loaded
    game = loaded.game
    expected, scenario = data["final_hash"], data["scenario"]
    if data["ruleset"] != game.ruleset_id or str(data["ruleset_version"]) != str(loaded.ruleset_version):
        return ReplayCheck(
            "version-mismatch",
            f"the replay was recorded with ruleset {data['ruleset']} {data['ruleset_version']}, but the project "
            f"has {game.ruleset_id} {loaded.ruleset_version}; a replay is only valid for the rules version it "
            f"was recorded with", expected_hash=expected,
            details={"recorded_version": data["ruleset_version"], "current_version": loaded.ruleset_version})
    if data.get("scenario_hash") and data["scenario_hash"] != loaded.content_hash:
        return ReplayCheck("scenario-changed",
                           f"scenario '{scenario}' or a document it uses changed since the replay was recorded "
                           f"(content hash {data['scenario_hash']} -> {loaded.content_hash})", expected_hash=expected)
    return _replay_log(game, data["seed"], data["actions"], expected)


def replay_game(data: dict[str, Any], project: str | Path | None):
    """The LoadedGame a replay was played on (its scenario with its option overrides and optional rules), or a
    :class:`ReplayCheck` saying why it cannot be loaded."""
    return _load(data, project)


def _load(data: dict[str, Any], project: str | Path | None):
    """The LoadedGame of the replay's scenario (its recorded file first, then its id; with the recorded option
    overrides and optional rules), or a refusal."""
    from .load import ScenarioRefused, load_game

    scenario = data["scenario"]
    candidates: list[str | Path] = []
    if project and data.get("scenario_file"):
        candidates.append(Path(project) / data["scenario_file"])
    candidates.append(scenario)
    error = ""
    options = data.get("options") if isinstance(data.get("options"), dict) else None
    switched = data.get("optional_rules") if isinstance(data.get("optional_rules"), list) else None
    for cand in candidates:
        try:
            return load_game(cand, project, options or None, switched)
        except ScenarioRefused as exc:
            error = str(exc)
            if exc.diagnostics:
                return ReplayCheck("refused", f"{exc}", details={"diagnostics": [d.to_json() for d in
                                                                                 exc.diagnostics]})
    return ReplayCheck("refused", error or f"scenario '{scenario}' not found")


def _replay_log(game, seed: int, actions: list[str], expected: str) -> ReplayCheck:
    """Play ``actions`` from the initial state of ``seed`` with the rules checks on; compare the final hash."""
    state = game.new_initial_state(seed)
    steps = 0
    try:
        for steps, text in enumerate(actions, start=1):
            try:
                action = game.parse_action(text)
            except Exception as exc:  # noqa: BLE001 - a bad log is a finding, not a crash
                return ReplayCheck("illegal-action", f"action {steps} '{text}' cannot be read: {exc}", steps,
                                   expected)
            if state.is_terminal():
                return ReplayCheck("illegal-action", f"action {steps} '{text}' comes after the end of the game",
                                   steps, expected)
            try:
                if state.current_player() == CHANCE:
                    state.apply(action)
                else:
                    state.play(action)
            except RulesError as exc:
                return ReplayCheck("illegal-action", f"action {steps} '{text}' is illegal: {exc}", steps, expected,
                                   details={"rule": exc.rule})
    except Exception as exc:  # noqa: BLE001
        return ReplayCheck("engine-error", f"engine error at action {steps}: {type(exc).__name__}: {exc}", steps,
                           expected)
    actual = state.state_hash()
    if actual != expected:
        return ReplayCheck("hash-mismatch", f"final state differs after {steps} action(s): expected {expected}, "
                           f"got {actual}", steps, expected, actual)
    return ReplayCheck("ok", f"replay verified: {steps} action(s), final state {actual}", steps, expected, actual)
