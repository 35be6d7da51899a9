"""MBT 6.2.1.1.2 / 6.2.1.1.4 Executing Shared Commands (``engine/shared_commands.py``): Command Range 0 is the same
hex; sharers' targets within Command Range of one another; shared moves end within Command Range; shared Overwatch
on one target. Positions on the Advanced sample scenario, commands placed in the Command Phase (where the shared
counters are made)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, clear_pair, unit  # noqa: E402

from studio.hexgrid.coords import distance, neighbour  # noqa: E402

REGULARS = {"us": "seasoned", "sov": "regulars"}


def _commanded(units, orders, grades=REGULARS, **kw):
    """A position in the Command Phase, the ``orders`` placed, then the Initiative to the first to choose."""
    st = adv_state(units, phase="command", grades=grades, **kw)
    for text in orders:
        act(st, text)
    act(st, "initiative first")
    return st


def _names(actions, verb: str, name: str) -> set:
    return {tuple(a) for a in actions if a[0] == verb and a[1] == name}


def test_command_range_zero_is_the_same_hex_by_default():
    # MBT 6.2.1.1.2: Regulars' Command Range is 0 (same hex): two T-80BVs in one hex share one Move counter
    assert adv_game().options["command-range-zero"] == "same-hex"
    a, _, d = clear_pair(3)
    st = adv_state([unit("A", "t-80bv", "sov", a, d), unit("B", "t-80bv", "sov", a, d),
                    unit("U", "m1", "us", "4T14", 0)], phase="command", grades=REGULARS)
    f = st.game.formation_of[0]
    before = st.budget[f]
    act(st, "command A MOVE")
    act(st, "command B MOVE")
    assert st.budget[f] == before - 1 and st.grp[0] == st.grp[1] == 0


def test_regulars_sharing_a_move_end_in_the_same_hex():
    # MBT 6.2.1.1.4 example: three Regulars sharing one Move "must all be in the same hex at the completion of
    # their move": after A moved 3 hexes, B may not end its move until it is in A's hex
    a, b, d = clear_pair(3)
    units = [unit("A", "t-80bv", "sov", a, d), unit("B", "t-80bv", "sov", a, d), unit("U", "m1", "us", "4T14", 0)]
    st = _commanded(units, ("command A MOVE", "command B MOVE", "command U NC"))
    act(st, "move A")
    for _ in range(3):
        act(st, "fwd A")
    act(st, "done A")
    act(st, "move B")
    for _ in range(2):
        assert ("done", "B") not in {tuple(x) for x in st.legal_actions()}
        act(st, "fwd B")
    assert ("done", "B") not in {tuple(x) for x in st.legal_actions()}
    act(st, "fwd B")
    assert st.game.label(st.hex[1]) == b
    assert ("done", "B") in {tuple(x) for x in st.legal_actions()}


#: two more Regulars T-80BVs far away (N/C): four active units give the formation two Available Commands
SPARE = [unit("C", "t-80bv", "sov", "4T1", 5), unit("D", "t-80bv", "sov", "4T3", 5)]


def test_a_move_not_shared_ends_anywhere():
    # the same move on two counters (option no-spreading: Regulars never share): B ends where it likes
    a, b, d = clear_pair(3)
    units = [unit("A", "t-80bv", "sov", a, d), unit("B", "t-80bv", "sov", a, d), unit("U", "m1", "us", "4T14", 0)]
    st = _commanded(units + SPARE, ("command A MOVE", "command B MOVE", "command U NC", "command C NC",
                                    "command D NC"), options={"command-range-zero": "no-spreading"})
    assert st.grp[0] != st.grp[1]
    act(st, "move A")
    for _ in range(3):
        act(st, "fwd A")
    act(st, "done A")
    act(st, "move B")
    assert ("done", "B") in {tuple(x) for x in st.legal_actions()}


def test_a_sharer_that_cannot_reach_ends_where_it_is():
    # ENGINE_POLICIES 'shared-move': a Suppressed sharer (allowance halved, MBT 6.6.2) whose co-sharer ended 5
    # hexes away cannot reach it: it may end its move anyway
    a, b, d = clear_pair(5)
    units = [unit("A", "t-80bv", "sov", a, d), unit("B", "t-80bv", "sov", a, d, suppression="on"),
             unit("U", "m1", "us", "4T14", 0)]
    st = _commanded(units, ("command A MOVE", "command B MOVE", "command U NC"))
    assert st.grp[0] == st.grp[1]
    act(st, "move A")
    for _ in range(5):
        act(st, "fwd A")
    act(st, "done A")
    act(st, "move B")
    assert ("done", "B") in {tuple(x) for x in st.legal_actions()}


def _fire_layout():
    """Hex ``a`` for the firers and three clear hexes in their view: t1, t2 next to t1, t3 three hexes from t1."""
    g = adv_game()
    a, t1, d = clear_pair(4)
    ha, h1 = g.map.hex(a), g.map.hex(t1)
    near = [neighbour(h1, f) for f in range(6)]
    t2 = next(h for h in near if g.map.terrain.get(h) == "C" and g.los.clear(ha, h) and distance(ha, h) <= 5)
    far = [h for h in g.map.label_of if g.map.terrain.get(h) == "C" and distance(h, h1) == 3 and
           distance(h, t2) >= 2 and 2 <= distance(ha, h) <= 6 and g.los.clear(ha, h)]
    return a, t1, g.label(t2), g.label(sorted(far)[0]), d


@pytest.mark.parametrize("grade, allowed", [("seasoned", {"T1", "T2"}), ("regulars", {"T1"})])
def test_sharers_fire_at_targets_within_command_range_of_one_another(grade, allowed):
    # MBT 6.2.1.1.4 example: Seasoned Soviets sharing a Fire counter pick targets within 1 hex of one another
    # (A1-A3, not A4); Regulars only the one target (its hex)
    a, t1, t2, t3, d = _fire_layout()
    units = [unit("S1", "t-80bv", "sov", a, d), unit("S2", "t-80bv", "sov", a, d),
             unit("T1", "m113", "us", t1, (d + 3) % 6), unit("T2", "m113", "us", t2, (d + 3) % 6),
             unit("T3", "m113", "us", t3, (d + 3) % 6)]
    orders = ("command S1 FIRE", "command S2 FIRE", "command T1 NC", "command T2 NC", "command T3 NC")
    st = adv_state(units, phase="command", grades={"us": "seasoned", "sov": grade})
    for text in orders:
        act(st, text)
    assert st.grp[0] == st.grp[1] >= 0
    act(st, "initiative first")
    while not st.phase_id().startswith("direct-fire"):
        st.play(st.legal_actions()[0])
    before = {a[2] for a in st.legal_actions() if a[0] == "fire" and a[1] == "S2"}
    assert before == {"T1", "T2", "T3"}  # before S1 announces, any spotted target
    row = next(a[3] for a in st.legal_actions() if a[0] == "fire" and a[1] == "S1" and a[2] == "T1")
    act(st, f"fire S1 at T1 {row}")
    assert {a[2] for a in st.legal_actions() if a[0] == "fire" and a[1] == "S2"} == allowed


def test_unshared_fire_picks_any_target():
    # without a shared counter (no-spreading: Regulars never share) S2 may fire at T3 after S1 fired at T1
    a, t1, t2, t3, d = _fire_layout()
    units = [unit("S1", "t-80bv", "sov", a, d), unit("S2", "t-80bv", "sov", a, d),
             unit("T1", "m113", "us", t1, (d + 3) % 6), unit("T2", "m113", "us", t2, (d + 3) % 6),
             unit("T3", "m113", "us", t3, (d + 3) % 6)] + SPARE
    st = adv_state(units, phase="command", grades=REGULARS, options={"command-range-zero": "no-spreading"})
    for text in ("command S1 FIRE", "command S2 FIRE", "command T1 NC", "command T2 NC", "command T3 NC",
                 "command C NC", "command D NC"):
        act(st, text)
    act(st, "initiative first")
    while not st.phase_id().startswith("direct-fire"):
        st.play(st.legal_actions()[0])
    row = next(a[3] for a in st.legal_actions() if a[0] == "fire" and a[1] == "S1" and a[2] == "T1")
    act(st, f"fire S1 at T1 {row}")
    assert "T3" in {a[2] for a in st.legal_actions() if a[0] == "fire" and a[1] == "S2"}


def test_state_contract_keeps_the_overwatch_targets():
    # sh_ow (the target of each sharer's Overwatch shot this turn) is copied by clone and in the fingerprint
    a, _, d = clear_pair(3)
    st = adv_state([unit("A", "t-80bv", "sov", a, d), unit("U", "m1", "us", "4T14", 0)], phase="command")
    st.sh_ow[0] = 1
    other = st.clone()
    assert other.sh_ow == [1, -1] and other.fingerprint() == st.fingerprint()
    other.sh_ow[0] = -1
    assert st.sh_ow[0] == 1 and other.fingerprint() != st.fingerprint()


def play_overwatch_turn(st, s1: int) -> tuple[set, set]:
    """From initiative, play the movement phase: S1 (unit index ``s1``) fires Overwatch at T1 when offered, T1
    moves first, then T3. Returns the Overwatch shots S2 was offered at T3 and the targets recorded for S1
    (``sh_ow[s1]``) along the way."""
    act(st, "initiative first")
    offered, aims = set(), set()
    for _ in range(60):
        aims.add(st.sh_ow[s1])
        legal = [tuple(x) for x in st.legal_actions()]
        if not st.phase_id().startswith("move"):
            break
        offered |= {x for x in legal if x[0] == "ow" and x[1] == "S2" and x[2] == "T3"}
        ow_s1 = [x for x in legal if x[0] == "ow" and x[1] == "S1" and x[2] == "T1"]
        moves = [x for x in legal if x[0] == "move"]
        if ow_s1:
            pick = ow_s1[0]
        elif legal and legal[0][0] == "pass":
            pick = legal[0]
        elif moves:
            pick = min(moves, key=lambda x: x[1] != "T1")
        elif st.mv_steps < 1 and ("fwd", st.game.units[st.mv_u].name) in legal:
            pick = ("fwd", st.game.units[st.mv_u].name)
        else:
            pick = next(x for x in legal if x[0] == "done")
        text = f"ow {pick[1]} at {pick[2]} {pick[3]}" if pick[0] == "ow" else " ".join(pick)
        st.play(st.game.parse_action(text))
    return offered, aims


def _overwatch_run(shared: bool) -> set:
    """S1 and S2 in one hex on Overwatch; T1 moves first (S1 fires at it), then T3 three hexes from T1: the
    Overwatch shots S2 is offered at T3."""
    a, t1, _, t3, d = _fire_layout()
    units = [unit("S1", "t-80bv", "sov", a, d), unit("S2", "t-80bv", "sov", a, d),
             unit("T1", "m113", "us", t1, (d + 3) % 6), unit("T3", "m113", "us", t3, (d + 3) % 6),
             unit("X", "m113", "us", "2A13", 0)] + SPARE
    options = None if shared else {"command-range-zero": "no-spreading"}  # Regulars on two counters
    st = adv_state(units, phase="command", grades=REGULARS, options=options)
    for text in ("command S1 OW", "command S2 OW", "command T1 MOVE", "command T3 MOVE", "command X NC",
                 "command C NC", "command D NC"):
        act(st, text)
    assert (st.grp[0] == st.grp[1]) == shared
    offered, aims = play_overwatch_turn(st, 0)
    assert 2 in aims  # S1 fired Overwatch at T1 (sh_ow: its target this turn)
    return offered


def test_sharers_on_overwatch_fire_at_the_same_target():
    # MBT 6.2.1.1.4 Overwatch: units sharing an Overwatch command fire on the same target: once S1 fired at T1,
    # S2 is not offered T3; on two counters (option no-spreading) it is
    assert not _overwatch_run(shared=True)
    assert _overwatch_run(shared=False)
