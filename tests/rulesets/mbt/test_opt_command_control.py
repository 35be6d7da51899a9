"""MBT Optional Rules of command through positions: 7.3 Platoon Command Control, 7.40 Delayed Reaction, 7.42
Disrupted Communications (its example) and 7.43 Command Span (MA117)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, events, legal, pos_state, unit  # noqa: E402

FAR = "2P13"


# ---------------------------------------------------------------- 7.3
@pytest.mark.parametrize("rules, platoons, shared", [
    (("platoon-command-control",), {"A": "1", "B": "2"}, False),
    (("platoon-command-control",), {"A": "1", "B": "1"}, True),
    ((), {"A": "1", "B": "2"}, True)])
def test_platoon_command_control(rules, platoons, shared):
    # MBT 7.3: only units of one platoon share a unique command counter (6.2.1.1.2 lets the formation share)
    units = [unit("A", "m1", "us", "2A1", 0), unit("B", "m1", "us", "2A2", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, rules, phase="command", platoons=platoons)
    act(st, "command A MOVE")
    act(st, "command B MOVE")
    assert (st.grp[1] == st.grp[0]) == shared


def test_command_units_share_with_their_platoons():
    units = [unit("A", "m1", "us", "2A1", 0), unit("C", "m1", "us", "2A2", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, ("platoon-command-control",), phase="command", platoons={"A": "1"},
                   command_units={"C": "CHQ"})
    act(st, "command A MOVE")
    act(st, "command C MOVE")
    assert st.grp[1] == st.grp[0]


# ---------------------------------------------------------------- 7.40
def test_delayed_reaction_keeps_nc():
    units = [unit("D", "m1", "us", "2A1", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    ext = {"delayed_reaction": [{"units": ["D"], "until_turn": 3}]}
    assert legal(pos_state(units, ("delayed-reaction",), phase="command", **ext)) == ["command D NC"]
    assert len(legal(pos_state(units, ("delayed-reaction",), phase="command", turn=3, **ext))) > 1
    assert len(legal(pos_state(units, (), phase="command", **ext))) > 1


# ---------------------------------------------------------------- 7.42
def _disrupted(dice, level="moderate"):
    sov = [unit(f"T{k}", "t-80bv", "sov", f"2{c}13", 0, command="NC") for k, c in enumerate("ADGJ")]
    units = [unit("X", "m1", "us", "2A1", 0, command="MOVE")] + sov
    st = pos_state(units, ("disrupted-communications",), phase="move-first", dice=dice,
                   grades={"us": "veteran", "sov": "seasoned"},
                   disrupted_communications={"level": level})
    act(st, "move X")
    act(st, "done X")
    return st


@pytest.mark.parametrize("dice, hit", [([64, 29, 30], True), ([64, 29, 31], False), ([64, 35, 1], False)])
def test_disrupted_communications_example(dice, hit):
    # MBT 7.42 example: Moderate (Dif 50, range 01-30): Veteran NATO 64+20 = 84, Seasoned Soviet 29: 55 > 50, each
    # Soviet formation rolls: 30 or less halves its Available Commands (4 tanks, Seasoned: 2 -> 1)
    st = _disrupted(dice)
    sov = st.game.formation_of[1]
    assert st.dcom[sov] == hit
    assert st.budget[sov] == (1 if hit else 2)
    assert events(st, "difference")


# ---------------------------------------------------------------- 7.43
def _company(far: bool, bhq: str | None = None, rules=("command-span",)):
    hexes = [f"2{c}{r}" for c in "ACEGIKMOQS" for r in (1, 5, 9)][:27]
    if not far:
        hexes = [f"2{c}{r}" for c in "ABCDEFGHI" for r in (1, 3, 5)][:27]
    units = [unit("C", "t-80bv", "sov", "2E5", 0)] + \
        [unit(f"U{k}", "t-80bv", "sov", h, 0) for k, h in enumerate(h for h in hexes if h != "2E5")][:26]
    ext = {"command_units": {"C": "CHQ"}}
    if bhq:
        units.append(unit("B", "brdm-2-at5", "sov", bhq, 0))
        ext["command_units"]["B"] = "BHQ"
    units.append(unit("X", "m1", "us", "2A13", 0))
    return pos_state(units, rules, phase="command", to_act="sov", grades={"us": "seasoned", "sov": "seasoned"}, **ext)


def test_ma117_command_span_limits_move_and_short_halt():
    # MA117 / MBT 7.43: 27 Seasoned combat units -> 16 Available Commands; a unit beyond the CHQ's span limits
    # Move/Short Halt counters to 16 / 2 = 8; the total stays 16
    st = _company(far=True)
    f = st.game.formation_of[0]
    assert st.budget[f] == 16 and st.msh[f] == 8
    names = [st.game.units[i].name for i in range(st.game.n) if st.game.formation_of[i] == f]
    for name in names[:8]:
        assert f"command {name} MOVE" in legal(st)  # one counter each: the 8 allowed
        act(st, f"command {name} MOVE")
    nxt = names[8]
    assert not any(a in legal(st) for a in (f"command {nxt} MOVE", f"command {nxt} SH"))
    assert f"command {nxt} NC" in legal(st)
    off = _company(far=True, rules=())
    assert off.msh[f] == -1


def test_command_span_in_span_and_lost_chq():
    st = _company(far=False)
    f = st.game.formation_of[0]
    assert st.msh[f] == -1
    st.st[0] = 3  # every CHQ lost: Move/Short Halt cut by 1/2 of the total for good
    st._available_commands()
    assert st.msh[f] == st.budget[f] - st.budget[f] // 2


def test_chq_beyond_the_bhq_span_drops_two_rows():
    # MBT 7.43: a CHQ beyond its BHQ's span (20) uses the Available Commands row two rows down (Seasoned -> Green)
    near = _company(far=False, bhq="2E13")
    far = _company(far=False, bhq="2Z5" if False else "2S13")
    f = near.game.formation_of[0]
    assert near.available_grade(f) == "seasoned"
    from studio.hexgrid.coords import distance
    if distance(far.hex[0], far.hex[27]) > 20:
        assert far.available_grade(f) == "green"
