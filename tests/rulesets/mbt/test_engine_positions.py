"""MBT positions as documents (``Game.state_from_position`` through ``studio.rules.position.load_position``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.rules.position import PositionError, load_position

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES: dict = {}


def duel(phase="direct-fire-first", to_act="us", us_status=None, sov_status=None, dice=(), **extra):
    return {"scenario": "meeting-engagement", "phase": phase, "to_act": to_act, "dice": list(dice),
            "units": [{"id": "M1", "card": "m1", "side": "us", "hex": "2C5", "facing": 2,
                       "status": {"command": "FIRE"} if us_status is None else us_status},
                      {"id": "T", "card": "t-72a", "side": "sov", "hex": "2H5", "facing": 5,
                       "status": sov_status or {}}], **extra}


def setup(position):
    return load_position(position, DATA, games=GAMES).state


def test_direct_fire_position_fires_with_forced_dice():
    s = setup(duel(dice=[1]))
    assert s.phase_id() == "direct-fire-first"
    assert [str(a) for a in s.legal_actions()] == ["fire M1 at T main:APFSDS", "fire M1 at T main:HEAT"]
    s.play(s.game.parse_action("fire M1 at T main:APFSDS"))
    while s.current_player() == 1 and s.phase_id().startswith("direct-fire"):
        s.play(s.legal_actions()[0])
    assert s.st[s.game.uindex["T"]] != 1 or s.dmg[s.game.uindex["T"]]   # roll 1 always hits


@pytest.mark.parametrize("phase,to_act,expect", [
    ("command", None, "command"), ("spotting", None, "command"), ("move-second", "sov", "move-second"),
    ("move-first", "us", "move-first"), ("initiative", "sov", "initiative"), ("overwatch", "us", "overwatch")])
def test_every_phase_can_be_set_up(phase, to_act, expect):
    us = {"command": "MOVE"} if phase.startswith("move") else ({} if phase in ("spotting", "command") else
                                                                {"command": "OW"})
    sov = {"command": "FIRE", "fired": True, "revealed": True} if phase == "overwatch" else {}
    if phase == "move-second":
        us, sov = {}, {"command": "MOVE"}
    s = setup(duel(phase, to_act, us, sov))
    assert s.phase_id() == expect
    assert s.legal_actions()


def test_marks_and_wrecks_from_the_position():
    s = setup(duel(sov_status={"mark": "spot-fire", "damaged": True}, extension={"wrecks": {"2E5": "brewed-up"}}))
    t = s.game.uindex["T"]
    assert s.mk[t] == 1 and s.dmg[t] and s.wreck[s.game.map.hex("2E5")] == 2


@pytest.mark.parametrize("bad,pointer", [
    ({"units": [{"id": "X", "card": "m1", "side": "us", "hex": "9Z99"}]}, "/units/0/hex"),
    ({"units": [{"id": "X", "card": "m1", "side": "us", "hex": "2C5", "facing": 6}]}, "/units/0/facing"),
    ({"units": [{"id": "X", "card": "m1", "side": "us", "hex": "2C5"}, {"id": "X", "card": "m1", "side": "us",
                                                                        "hex": "2C6"}]}, "/units/1/id"),
    ({"extension": {"wrecks": {"2C5": "burning"}}}, "/extension/wrecks/2C5"),
    ({"extension": {"control": {"2C5": "nato"}}}, "/extension/control/2C5"),
    ({"units": [{"id": "X", "card": "m1", "side": "us", "hex": "2C5", "status": {"speed": 3}}]},
     "/units/0/status/speed"),
    ({"units": [{"id": "X", "card": "m1", "side": "us", "hex": "2C5", "status": {"command": "RUN"}}],
      "phase": "command"}, "/units/0/status/command"),
    ({"extension": {"smoke": {}}}, "/extension/smoke"),
])
def test_bad_positions_are_refused_with_a_pointer(bad, pointer):
    position = {**duel(), **bad}
    with pytest.raises(PositionError) as err:
        setup(position)
    assert any(d.pointer == pointer for d in err.value.diagnostics), [d.format_text() for d in err.value.diagnostics]
