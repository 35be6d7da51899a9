"""MBT Advanced Game Command Control and Shared Commands, second round of mutation-aimed cases (issue 12): the reach
of a sharer that must end its move within Command Range of a finished co-sharer (MBT 6.2.1.1.4 Moving,
``ENGINE_POLICIES['shared-move']``). Positions on the Advanced sample scenario, commands placed in the Command Phase;
the expected values from the rule (Regulars: Command Range 0, the same hex; a Suppressed vehicle's allowance
halved, 6.6.2) and the terrain costs of the ruleset."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

REGULARS = {"us": "seasoned", "sov": "regulars"}


def _shared_move(start: str, facing: int, steps: int):
    """Two Regulars T-80BVs in ``start`` share one Move counter; A moves ``steps`` hexes straight ahead and ends
    there; B (Suppressed: allowance 8 halved to 4) begins its move."""
    units = [unit("A", "t-80bv", "sov", start, facing), unit("B", "t-80bv", "sov", start, facing, suppression="on"),
             unit("U", "m1", "us", "4T14", 0)]
    st = adv_state(units, phase="command", grades=REGULARS)
    for text in ("command A MOVE", "command B MOVE", "command U NC", "initiative first"):
        act(st, text)
    assert st.grp[0] == st.grp[1] >= 0
    act(st, "move A")
    for _ in range(steps):
        act(st, "fwd A")
    act(st, "done A")
    act(st, "move B")
    assert st.mv_left == 4
    return st


def _may_end(st) -> bool:
    return ("done", "B") in {tuple(a) for a in st.legal_actions()}


def test_a_sharer_with_just_enough_allowance_must_join():
    # four clear hexes (cost 1 each) to A with 4 left: B can reach A's hex exactly, so it may not end short of it
    a, b, d = clear_pair(4)
    st = _shared_move(a, d, 4)
    for _ in range(4):
        assert not _may_end(st)
        act(st, "fwd B")
    assert st.game.label(st.hex[1]) == b and _may_end(st)


def test_a_sharer_one_point_short_ends_where_it_is():
    # 2G1 -> 2G4 (hexside 3): A ended in a K hex, which costs a T-80BV 3 to enter; any way there is at least two
    # hexes before it: 5 > 4, B cannot get there, so it may end its move at once (policy shared-move)
    st = _shared_move("2G1", 3, 3)
    assert st.game.label(st.hex[0]) == "2G4"
    assert _may_end(st)
    act(st, "fwd B")
    act(st, "fwd B")
    assert ("fwd", "B") not in {tuple(a) for a in st.legal_actions()}  # 2 left: the K hex is out of reach


def test_the_shared_overwatch_target_holds_for_one_turn_only():
    # MBT 6.2.1.1.4 Overwatch: sharers fire on the same target, this turn: S1 fired at T1 in turn 1; in turn 2,
    # on a new shared Overwatch counter, S2 may fire at T3 again (the targets are recorded anew each turn)
    from test_adv_adv_shared_commands import SPARE, _fire_layout, play_overwatch_turn

    a, t1, _, t3, d = _fire_layout()
    units = [unit("S1", "t-80bv", "sov", a, d), unit("S2", "t-80bv", "sov", a, d),
             unit("T1", "m113", "us", t1, (d + 3) % 6), unit("T3", "m113", "us", t3, (d + 3) % 6),
             unit("X", "m113", "us", "2A13", 0)] + SPARE
    st = adv_state(units, phase="command", grades=REGULARS)
    orders = ["command S1 OW", "command S2 OW", "command T1 MOVE", "command T3 MOVE", "command X NC",
              "command C NC", "command D NC"]
    for text in orders:
        act(st, text)
    offered, aims = play_overwatch_turn(st, 0)
    assert 2 in aims and not offered  # turn 1: S1 fired at T1, S2 was kept to T1
    for _ in range(200):
        if st.turn == 2 and st.phase_id() == "command":
            break
        legal = st.legal_actions()
        st.play(next((x for x in legal if x[0] in ("pass", "done", "hold")), legal[0]))
    orders[2] = "command T1 NC"
    for text in orders:
        act(st, text)
    assert st.grp[0] == st.grp[1] >= 0
    offered, _ = play_overwatch_turn(st, 0)
    assert offered  # turn 2: T1 stays, T3 moves: S2 may fire at it
