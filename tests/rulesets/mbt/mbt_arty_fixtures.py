"""Helpers for the MBT indirect-fire, smoke and artillery optional-rule tests: the Advanced sample scenario with
extension fields (Pre-Registered Points, Planned Fire, counter-battery assets) and optional rules switched on, and
positions on it through the public position API."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import SCENARIO, act, index, unit  # noqa: E402,F401

from studio.rules.position import position_state  # noqa: E402
from studio.rulesets.mbt.cards import MbtScenarioExtension  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402

# an M106 mortar 24 hexes from the target (beyond its own spotting range), the FIST 3 hexes from it; FAR is 7 hexes
# from the target (outside Danger Close range) in its line of sight
MORTAR, TARGET, FO, FAR = "2A1", "4E1", "4B1", "4L1"


@lru_cache(maxsize=32)
def _game(optional: tuple, ext: str, grades: tuple, light: str):
    import json

    idx = index()
    sc = idx.model("scenario", SCENARIO)
    data = sc.extension.model_dump()
    data.update(json.loads(ext))
    if grades:
        data["force_grades"] = dict(grades)
    update = {"extension": MbtScenarioExtension.model_validate(data), "optional_rules": list(optional)}
    if light:
        update["environment"] = sc.environment.model_copy(update={"light": light})
    return G.create_game(sc.model_copy(update=update), idx)


def arty_game(optional=(), grades: dict | None = None, light: str = "", **ext):
    """The Advanced sample scenario with ``ext`` replacing extension fields, ``optional`` rules on and, if given,
    the ``light`` of every turn (day, dusk, night)."""
    import json

    return _game(tuple(optional), json.dumps(ext, sort_keys=True), tuple(sorted((grades or {}).items())), light)


def arty_state(units: list, phase: str = "indirect-fire", to_act: str | None = "us", dice=(), optional=(),
               turn: int = 1, record: bool = True, grades: dict | None = None, position_ext: dict | None = None,
               light: str = "", **ext):
    """A position on :func:`arty_game`; narration on (``record``)."""
    game = arty_game(optional, grades, light, **ext)
    pos = {"scenario": SCENARIO, "phase": phase, "turn": turn, "units": units, "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    if position_ext:
        pos["extension"] = position_ext
    state = position_state(game, pos)
    state.dice.record = record
    return state


def if_units(target: str = "t-80bv", fo_hex: str = FO, fo_status=None, extra=()) -> list:
    return [unit("M", "m106", "us", MORTAR, 2, command="FIRE"),
            unit("F", "m981", "us", fo_hex, 2, command="OW", **(fo_status or {})),
            unit("T", target, "sov", TARGET, 5)] + list(extra)


def calls(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def events(state, prefix: str = "") -> list[str]:
    return [e for e in state.events if e.startswith(prefix)]


def to_next_indirect_step(state, side_cmds: dict | None = None):
    """Play on with 'pass' / 'hold' / 'done' actions until the next turn's first decision after the Initiative
    Phase (its Indirect Fire Step if a side may act there); ``side_cmds`` maps a unit name to the command it gets
    in the Command Phase (others N/C when possible)."""
    side_cmds = side_cmds or {}
    turn = state.turn
    guard = 0
    while not (state.turn > turn and state.phase_id() not in ("command", "initiative", "spotting", "air-1")):
        guard += 1
        assert guard < 2000 and not state.is_terminal(), state.phase_id()
        acts = state.legal_actions()
        pick = None
        if acts[0][0] == "command":
            name = acts[0][1]
            want = side_cmds.get(name, "NC")
            pick = next((a for a in acts if a[0] == "command" and a[2] == want), None)
            pick = pick or next(a for a in acts if a[0] == "command")
        elif state.phase_id() == "indirect-fire":
            pick = next(a for a in acts if a[0] == "pass")
        else:
            pick = next((a for a in acts if a[0] in ("pass", "hold", "done", "initiative")), acts[0])
        state.play(pick)
    return state
