"""Helpers for the tests of the MBT optional rules of morale, hidden units, spotting and command: positions on the
Advanced sample scenario with optional rules switched on, rule options and position extension data."""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import SCENARIO, clear_pair, index  # noqa: E402

from studio.rules.position import position_state  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402

__all__ = ["game_with", "pos_state", "unit", "act", "legal", "clear_pair", "events", "end_turn_decisions"]


@lru_cache(maxsize=64)
def _game(rules: tuple, options: tuple, grades: tuple, ext: tuple, light: str = "day") -> G.MbtGame:
    idx = index()
    sc = idx.model("scenario", SCENARIO)
    update = {k: json.loads(v) for k, v in ext}
    if grades:
        update["force_grades"] = dict(grades)
    e = sc.extension
    if update:
        e = e.model_validate({**e.model_dump(), **update})
    env = sc.environment.model_copy(update={"light": light})
    sc = sc.model_copy(update={"extension": e, "optional_rules": list(rules), "environment": env})
    return G.create_game(sc, idx, dict(options) or None)


def game_with(rules=(), options=None, grades=None, light="day", **ext) -> G.MbtGame:
    """The Advanced sample game with optional ``rules`` on, ``options``, Force ``grades`` and scenario-extension
    fields ``ext`` (JSON values)."""
    return _game(tuple(rules), tuple(sorted((options or {}).items())), tuple(sorted((grades or {}).items())),
                 tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in ext.items())), light)


def pos_state(units: list, rules=(), phase: str = "direct-fire-first", to_act: str | None = "us", dice=(),
              options=None, grades=None, turn: int = 1, record: bool = True, light: str = "day", **extension):
    """The state of a position with its own ``units`` and position ``extension`` (e.g. ``cohesion_point``)."""
    game = game_with(rules, options, grades, light)
    pos = {"scenario": SCENARIO, "phase": phase, "turn": turn, "units": units, "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    if extension:
        pos["extension"] = extension
    state = position_state(game, pos)
    state.dice.record = record
    return state


def unit(uid: str, card: str, side: str, hex_: str, facing: int = 0, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def act(state, text: str):
    state.play(state.game.parse_action(text))
    return state


def legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def end_turn_decisions(state) -> None:
    """Answer the Advanced Adjustment Phase's decisions (Full Cover of leg units: stay out) to end the turn."""
    while state.current_player() >= 0 and state.phase_id() == "adjustment":
        act(state, next(a for a in legal(state) if a.startswith("cover ") and a.endswith(" off")))


def events(state, word: str) -> list[str]:
    return [e for e in state.events if word in e]
