"""Helpers for the tests of the MBT direct-fire optional rules (MBT 7.8-7.50): the sample Advanced scenario with
optional rules switched on (as a scenario's ``optional_rules`` does), and positions on it through the public
position API."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from studio.rules.position import position_state
from studio.rulesets.mbt.engine import game as G

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import SCENARIO, act, clear_pair, index, unit  # noqa: E402,F401

A, B, D = clear_pair(5)          # shooter hex, target hex at range 5 (band P), direction A -> B
FACE_SHOOTER = (D + 3) % 6       # a target facing the shooter: Front hit angle
FACE_AWAY = D                    # a target facing away: Rear hit angle


@lru_cache(maxsize=64)
def _game(rules: tuple, options: tuple, grades: tuple) -> G.MbtGame:
    idx = index()
    sc = idx.model("scenario", SCENARIO)
    ext = sc.extension
    if grades:
        ext = ext.model_copy(update={"force_grades": dict(grades)})
    sc = sc.model_copy(update={"optional_rules": list(rules), "extension": ext})
    return G.create_game(sc, idx, dict(options) or None)


def opt_game(rules=(), options=None, grades=None) -> G.MbtGame:
    """The Advanced game with the optional rules ``rules`` on (cached: do not change it)."""
    return _game(tuple(sorted(rules)), tuple(sorted((options or {}).items())), tuple(sorted((grades or {}).items())))


def fresh_game(rules=(), options=None, grades=None) -> G.MbtGame:
    """An uncached game, for a test that changes card data in it."""
    return _game.__wrapped__(tuple(sorted(rules)), tuple(sorted((options or {}).items())),
                             tuple(sorted((grades or {}).items())))


def opt_state(units: list, rules=(), phase: str = "direct-fire-first", to_act: str | None = "us", dice=(),
              options=None, grades=None, turn: int = 1, record: bool = True, game=None, **extension):
    """The state of a position with ``rules`` on; narration on (``record``)."""
    g = game or opt_game(rules, options, grades)
    pos = {"scenario": SCENARIO, "phase": phase, "turn": turn, "units": units, "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    if extension:
        pos["extension"] = extension
    state = position_state(g, pos)
    state.dice.record = record
    return state


def idx_of(state, name: str) -> int:
    return state.game.uindex[name]


def legal_texts(state) -> set:
    return {str(a) for a in state.legal_actions()}
