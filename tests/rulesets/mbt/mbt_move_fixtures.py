"""Helpers for the MBT movement optional-rule and Advanced movement tests: the Advanced sample scenario with
optional rules switched on and extension data added (minefields, weight limits), positions on it, and game copies
with edited terrain (water hexes the sample boards lack)."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import SCENARIO, index  # noqa: E402

from studio.rules.position import position_state  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402


def opt_game(rules=(), options=None, scenario: str = SCENARIO, grades=None, **extension) -> G.MbtGame:
    """The Advanced game of ``scenario`` with optional ``rules`` on and the extension fields ``extension`` set."""
    idx = index()
    sc = idx.model("scenario", scenario)
    ext = sc.extension
    update = dict(extension)
    if grades:
        update["force_grades"] = dict(grades)
    if update:
        ext = ext.model_validate({**ext.model_dump(), **update})
    sc = sc.model_copy(update={"extension": ext, "optional_rules": list(rules)})
    return G.create_game(sc, idx, options)


def opt_state(game, units: list, phase: str = "move-first", to_act: str | None = "us", dice=(), turn: int = 1,
              record: bool = True):
    """The state of a position on ``game``'s boards; narration on (``record``)."""
    pos = {"scenario": game.scenario_id, "phase": phase, "turn": turn, "units": units, "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    state = position_state(game, pos)
    state.dice.record = record
    return state


def with_terrain(game, labels, code: str):
    """A copy of ``game`` in which the hexes ``labels`` are of terrain ``code`` (movement costs and cover from the
    ruleset's terrain catalogue); the original game is untouched."""
    twin = copy.copy(game)
    twin.map = copy.copy(game.map)
    twin.map.terrain = dict(game.map.terrain)
    twin.cost, twin.cover, twin.turn_cost = dict(game.cost), dict(game.cover), dict(game.turn_cost)
    terrain = next(t for t in game.ruleset.terrain if t.code == code)
    for label in labels:
        h = game.map.hex(label)
        twin.map.terrain[h] = code
        twin.cost[h] = terrain.move_cost
        twin.cover[h] = terrain.cover
        twin.turn_cost[h] = game.tables.turn_cost[code]
    twin.edge_costs, twin.xc_costs, twin.xc_tables = {}, {}, {}
    return twin


def unit(uid: str, card: str, side: str, hex_: str, facing: int = 0, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def act(state, text: str):
    state.play(state.game.parse_action(text))
    return state


def legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]
