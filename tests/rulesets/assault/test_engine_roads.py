"""Roads (Assault 7.C) and the road-stack rule (9.A), on the Meeting's east-west road (B0113-B0813), with a
ruleset whose clear terrain costs 3 MP in march formation so that the road's 1 MP shows."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.rules.load import load_game, rebuild_game

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def game():
    loaded = load_game("assault-meeting", DATA)
    rs = loaded.index.model("ruleset", "assault")
    tables = []
    for t in rs.tables:
        if t.id == "terrain-effects":
            col = t.columns.index("t_march")
            rows = [list(r) for r in t.rows]
            for r in rows:
                if r[0] == "clear":
                    r[col] = 3
            t = t.model_copy(update={"rows": rows})
        tables.append(t)
    return rebuild_game(loaded, ruleset=rs.model_copy(update={"tables": tables}))


def state_of(game, units):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                   "phase": "us-move-1", "units": units,
                                   "extension": {"ops": {"us": {"default": 9}}}})
    return game.state_from_position(pos)


def tank(uid, hexlabel, formation="march"):
    return {"id": uid, "card": "us-m1-platoon", "side": "us", "hex": hexlabel, "status": {"formation": formation}}


ENEMY = {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B2121"}


def mp_after(state, uid, to):
    state.play(f"move {uid} {to}")
    return next(c for c in state.counters if c.id == uid).mp_used


def test_march_along_a_road_costs_the_road_row(game):
    assert mp_after(state_of(game, [tank("a", "B0113"), ENEMY]), "a", "B0213") == 1
    assert mp_after(state_of(game, [tank("a", "B0113"), ENEMY]), "a", "B0112") == 3      # off the road


def test_combat_formation_does_not_use_roads(game):
    state = state_of(game, [tank("a", "B0113", "combat"), ENEMY])
    assert mp_after(state, "a", "B0213") == 2                                            # clear, combat


def test_9A_one_road_stack_per_hex(game):
    """A unit may not use road movement into a hex holding a unit that used road movement this phase."""
    state = state_of(game, [tank("a", "B0213"), tank("b", "B0113"), ENEMY])
    state.play("move a B0313")
    state.play("move a B0213")                   # back along the road: a has used road movement, now in B0213
    assert mp_after(state, "b", "B0213") == 3
