"""Shared helpers of the Assault engine tests: a state from a position document and the unit rows of one."""
from __future__ import annotations

from studio.model.position import Position
from studio.rulesets.assault.engine.game import create_game

#: off-board OPs visible to the opponent (option c31): the tests' default, so their observations show them
PAID = {"c31-offboard-ops-visibility": "visible"}


def state_of(index, units, phase, dice=(), extension=None, scenario="assault-meeting", turn=1, **options):
    """The state of ``scenario`` set up from a position with ``units`` in ``phase`` of ``turn``, under the ruleset's
    option defaults overridden by ``options``; ``dice`` are forced as the next rolls."""
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario, "turn": turn,
                                   "phase": phase, "units": units, "extension": extension or {}})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def u(uid, card, side, hexlabel, facing=None, passengers=(), **status):
    """A position's unit row."""
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status,
            "passengers": list(passengers)}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


def rolls(state, word) -> list:
    """The rolls of the state's dice history whose label names ``word``."""
    return [r for r in state.dice.history if word in str(r)]


FAR = u("far", "su-t80-platoon", "soviet", "B2220")
