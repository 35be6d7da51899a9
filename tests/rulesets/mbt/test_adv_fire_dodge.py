"""ATGM Dodge (MBT 5.1.3.3.4) against Combat Phase ATGM Direct Fire, through positions and the public API: the
rulebook's situation (a BMP-1's Spigot, SP 12, at an M2A1 Bradley with a Move command at range 13) on the sample
boards, 2A1 -> 2A14, where the hex ahead of the Bradley (facing 1) is out of the BMP-1's LOS."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import act, idx_of, legal_texts, opt_state, unit  # noqa: E402

SPIGOT = "fire S at T main:Spigot_(Fagot)"


def _duel(command="MOVE"):
    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE"),
                    unit("T", "m2a1", "us", "2A14", 1, command=command)], to_act="sov", dice=[1, 1, 50, 50, 50])
    act(st, SPIGOT)
    if "reveal T" in legal_texts(st):
        act(st, "reveal T")
    return st


def test_dodge_into_a_hex_out_of_sight_is_an_automatic_miss():
    # MBT 5.1.3.3.4: range 13 > SP 12: one increment, the Bradley (allowance 7 or more) may spend 2; the hex
    # ahead blocks the LOS: the ATGM misses, the BMP-1 still fired, and the Bradley's move starts there
    st = _duel()
    assert legal_texts(st) == {"fwd T", "hold T"}
    act(st, "fwd T")
    s, t = idx_of(st, "S"), idx_of(st, "T")
    assert any("dodges" in e and "automatic miss" in e for e in st.events), st.events
    assert not any(" hit " in e for e in st.events) and st.fired[s] and st.st[t] == 1
    act(st, "move T")
    assert legal_texts(st) == {"fwd T"}  # committed to the dodge hex
    act(st, "fwd T")
    assert "done T" in legal_texts(st)  # once there it may go on


def test_no_dodge_the_shot_resolves():
    st = _duel()
    act(st, "hold T")
    assert any(e.startswith("S fires Spigot") for e in st.events)


def test_short_halt_may_not_dodge():
    st = _duel("SH")
    assert any(e.startswith("S fires Spigot") for e in st.events), st.events


def test_gun_fire_is_not_dodged():
    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE"),
                    unit("T", "m2a1", "us", "2A14", 1, command="MOVE", revealed=True)], to_act="sov", dice=[100])
    act(st, "fire S at T main:HEAT")
    assert "fwd T" not in legal_texts(st)


def _overwatched(answer: str):
    """The Bradley turns in 2A14 in the Movement Phase; the BMP-1 overwatches it with its Spigot."""
    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="OW"),
                    unit("T", "m2a1", "us", "2A14", 0, command="MOVE")], phase="move-second", to_act="us",
                   dice=[1, 1, 50, 50, 50])
    act(st, "move T")
    act(st, "turn T right")
    act(st, "ow S at T main:Spigot_(Fagot)")
    assert st.cp == st.game.sides.index("us") and legal_texts(st) == {"fwd T", "hold T"}
    act(st, answer)
    return st


def test_dodge_of_overwatch_moves_at_once():
    # MBT 5.1.3.3.4: against Overwatch fire in the Movement Phase the vehicle moves into the dodge hex now
    st = _overwatched("fwd T")
    t, s = idx_of(st, "T"), idx_of(st, "S")
    assert st.game.label(st.hex[t]) == "2B14" and st.st[t] == 1 and st.fired[s], st.events
    assert any("dodges" in e for e in st.events) and not any(" hit " in e for e in st.events)
    assert "done T" in legal_texts(st)  # and it may move on


def test_overwatch_without_dodge_resolves():
    st = _overwatched("hold T")
    assert any(e.startswith("S fires Spigot") for e in st.events), st.events


def test_dodge_in_reverse():
    # MBT 5.1.3.3.4: the dodge hex may lie behind: the Bradley faces away (hexside 4), 2B14 is its reverse hex
    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE"),
                    unit("T", "m2a1", "us", "2A14", 4, command="MOVE", revealed=True)], to_act="sov",
                   dice=[1, 1, 50, 50, 50])
    act(st, SPIGOT)
    assert st.cp == st.game.sides.index("us") and legal_texts(st) == {"rev T", "hold T"}
    act(st, "rev T")
    act(st, "move T")
    assert legal_texts(st) == {"rev T"}
