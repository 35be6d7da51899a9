"""Helpers for the towed-unit tests: positions on the Advanced sample scenario with the sample towed cards (SPG-9,
NSV HMG) and, for towing, four test-only cards built from sample cards in a temporary copy of the project index:
``test-towed-gun`` (the SPG-9 with passenger capacity 1-1: towed, cross-country 3), ``test-big-gun`` (the
SPG-9 without manhandling), ``test-light-mover`` (the M113 with Transport Capacity 1-1) and ``test-mover`` (the M113 with
Transport Capacity 2-2, like the MT-LB of MBT 6.6.7.1). MBT itself fields no towed unit with a towed component
(MBT 6.6.7.1), so towing is only exercised on these test cards."""
from __future__ import annotations

import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import DATA, SCENARIO, act, clear_pair, unit  # noqa: E402,F401

from studio.model.project import load_document, load_project  # noqa: E402
from studio.rules.position import position_state  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402


def _card(src: str, new_id: str, edit) -> dict:
    doc = yaml.load((DATA / "units" / "mbt" / f"{src}.yaml").read_text(), Loader=yaml.CSafeLoader)
    doc["id"] = new_id
    edit(doc["body"])
    return doc


def _gun(body: dict) -> None:
    body["passenger_capacity"] = {"towed": 1, "leg": 1}
    body["movement"]["cross_country"] = 3
    body["weight_tons"] = 3


def _big_gun(body: dict) -> None:
    body["manhandle"] = False


def _mover(body: dict) -> None:
    body["general"]["transport"] = {"towed": 2, "leg": 2}


def _light_mover(body: dict) -> None:
    body["general"]["transport"] = {"towed": 1, "leg": 1}


@lru_cache(maxsize=1)
def towed_index():
    """The sample project plus the test-only towing cards."""
    idx = load_project(DATA)
    tmp = Path(tempfile.mkdtemp(prefix="towed-cards-"))
    for doc in (_card("spg-9", "test-towed-gun", _gun), _card("m113", "test-mover", _mover),
                _card("spg-9", "test-big-gun", _big_gun), _card("m113", "test-light-mover", _light_mover)):
        path = tmp / f"{doc['id']}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        loaded = load_document(path)
        assert loaded.model is not None, loaded.diagnostics
        idx.add(loaded)
    return idx


@lru_cache(maxsize=8)
def towed_game(rules: tuple = (), scenario: str = SCENARIO) -> G.MbtGame:
    idx = towed_index()
    sc = idx.model("scenario", scenario)
    sc = sc.model_copy(update={"optional_rules": list(rules)})
    return G.create_game(sc, idx, None)


def towed_state(units: list, phase: str = "direct-fire-first", to_act: str | None = None, dice=(), rules=(),
                turn: int = 1, scenario: str = SCENARIO, **extension):
    """The state of a position on ``scenario``'s boards (narration on) with ``rules`` in force."""
    game = towed_game(tuple(rules), scenario)
    pos = {"scenario": scenario, "phase": phase, "turn": turn, "units": units, "dice": list(dice),
           "optional_rules": list(rules)}
    if to_act:
        pos["to_act"] = to_act
    if extension:
        pos["extension"] = extension
    state = position_state(game, pos)
    state.dice.record = True
    return state


def legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]
