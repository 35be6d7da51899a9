"""MBT fire and spotting details played from positions (``studio.rules.position``): the penetration band read
under option ``penetration-band`` (MBT 4.4.3.2.5) and unarmed vehicles that may not spot (MBT 4.1.1)."""
from __future__ import annotations

from pathlib import Path

from studio.rules.position import load_position
from studio.rulesets.mbt.engine.data import BANDS

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES: dict = {}


def unit(uid, card, side, hex_, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def setup(phase, units, to_act=None, options=None, dice=()):
    pos = {"scenario": "meeting-engagement", "phase": phase, "turn": 1, "units": units, "options": options or {},
           "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    return load_position(pos, DATA, games=GAMES).state


DUEL = [unit("M1", "m1", "us", "2C5", 2, command="FIRE"), unit("T", "t-72a", "sov", "2H5", 5)]


def test_penetration_of_the_same_band_or_the_next():
    """4.4.3.2.5 (option penetration-band): the penetration of the range factor's band, or of the next band in
    reading order (the last band stays the last)."""
    for option, shift in (("same", 0), ("next", 1)):
        s = setup("direct-fire-first", DUEL, "us", options={"penetration-band": option})
        row = next(r for r in s.game.units[s.game.uindex["M1"]].type.ap if r.key == "main:APFSDS")
        order = s.game.tables.bands
        assert len({row.pens[BANDS.index(b)] for b in order}) == len(order)   # every band different
        for k, band in enumerate(order):
            want = order[min(len(order) - 1, k + shift)]
            assert s.penetration(row, band) == row.pens[BANDS.index(want)], (option, band)


def test_unarmed_vehicles_spot_nothing():
    """4.1.1: only armed combat vehicles spot; an unarmed AVLB beside a tank sees nothing, the tank sees the
    enemy, and an enemy only the AVLB could see keeps no Spot counter (4.1.5)."""
    s = setup("spotting", [unit("AVLB", "m60-avlb", "us", "2C5", 2), unit("M1", "m1", "us", "2C5", 2),
                           unit("T", "t-72a", "sov", "2H5", 5, mark="spot-fire")])
    g = s.game
    assert s.spots[g.uindex["AVLB"]] == () and s.spots[g.uindex["M1"]] == (g.uindex["T"],)
    s = setup("spotting", [unit("AVLB", "m60-avlb", "us", "2C5", 2),
                           unit("T", "t-72a", "sov", "2H5", 5, mark="spot-fire")])
    g = s.game
    assert s.spots[g.uindex["AVLB"]] == () and s.mk[g.uindex["T"]] == 0
    assert [str(a) for a in s.legal_actions()] == ["command AVLB NC", "command AVLB MOVE"]
