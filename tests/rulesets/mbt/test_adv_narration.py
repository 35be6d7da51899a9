"""Narration for the replay viewer (COMMON narration contract): the Basic and the Advanced MBT engines append
human-readable results to ``state.events`` only while ``state.dice.record`` is set."""
from __future__ import annotations

from pathlib import Path

from studio.rules.position import load_position

DATA = Path(__file__).resolve().parents[3] / "data"


def _basic_duel(record: bool, dice):
    # T-72A APFSDS at range 3 (band P, penetration 92) at an M1IP's front (armor 92): difference 0 (MBT 4.4.3)
    pos = {"scenario": "meeting-engagement", "phase": "direct-fire-first", "to_act": "sov", "dice": list(dice),
           "units": [{"id": "M", "card": "m1ip", "side": "us", "hex": "2B4", "facing": 0},
                     {"id": "T", "card": "t-72a", "side": "sov", "hex": "2A1", "facing": 0,
                      "status": {"command": "FIRE"}}]}
    st = load_position(pos, DATA).state
    st.dice.record = record
    st.play(st.game.parse_action("fire T at M main:APFSDS"))
    return st


def test_basic_shot_is_narrated_when_recording():
    st = _basic_duel(True, [1])
    assert st.events[0].startswith("T fires APFSDS at M, range 3 (P)") and "hit roll 1" in st.events[0]
    assert st.events[0].endswith(": hit") and st.events[1] == "M: penetration 92 vs armor 92: damaged"
    miss = _basic_duel(True, [100])
    assert miss.events == [miss.events[0]] and miss.events[0].endswith(": miss")


def test_basic_play_without_recording_narrates_nothing():
    st = _basic_duel(False, [1])
    assert st.events == [] and st.clone().events == [] and st.observation(0).materialize().events == []
