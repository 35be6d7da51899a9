"""MBT Advanced Game advancing attacks (MBT 6.6.1.2, 6.6.1.2.2 Advance Attack -10), through positions in the Close
Assault / Hand-to-Hand Combat Step, legal actions, play and the narration."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.rulesets.mbt.engine.adv_move_data import adv_move  # noqa: E402

A2, B2, D2 = clear_pair(2)
A1, B1, D1 = clear_pair(1)
DICE = [80, 10, 80, 10, 80, 10, 80, 10]


def _step(pair=(A2, B2, D2), dice=DICE, target="sov-mr-squad", extra=(), **status):
    a, b, d = pair
    units = [unit("L", "us-mech-squad", "us", a, d, command="MOVE", **status),
             unit("T", target, "sov", b, (d + 3) % 6), *extra]
    return adv_state(units, phase="close-combat", to_act="us", dice=list(dice))


def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def _advances(st) -> list[str]:
    return [a for a in _legal(st) if " advance " in a]


def _first_hth(st) -> int:
    """The attacker's modifier in the first hand-to-hand roll-off narrated."""
    ev = next(e for e in st.events if " hand-to-hand with " in e)
    ra, x = map(int, re.search(r": (\d+) -> (-?\d+) vs", ev).groups())
    return x - ra


def test_advance_attack_modifier_from_the_text():
    assert adv_move(_step().game).val["advance-attack"] == -10


def test_a_squad_two_hexes_away_may_advance_next_to_its_target():
    st = _step()
    assert st.phase_id() == "close-combat"
    hexes = [a.split()[-1] for a in _advances(st)]
    g = st.game
    assert hexes and all(distance(g.map.hex(h), g.map.hex(B2)) == 1 and distance(g.map.hex(h), g.map.hex(A2)) == 1
                         for h in hexes)
    assert not [a for a in _legal(st) if a.startswith("assault L T") and " advance " not in a]  # not adjacent
    adjacent = _step((A1, B1, D1))
    assert not _advances(adjacent) and "assault L T" in _legal(adjacent)


def test_the_advancing_attack_moves_and_attacks_at_minus_10():
    st = _step()
    hexes = [a.split()[-1] for a in _advances(st)]
    act(st, _advances(st)[0])
    assert st.game.label(st.hex[0]) in (hexes[0], B2)  # advanced (and took the hex if it won)
    assert any(e.startswith(f"L advances to {hexes[0]} to attack T") for e in st.events)
    near = _step((A1, B1, D1))
    act(near, "assault L T")
    assert _first_hth(st) == _first_hth(near) - 10
    assert st.mk[0] == 2  # Spot/Move


def test_no_advance_when_suppressed():
    assert not _advances(_step(suppression="on"))


def test_the_advance_triggers_overwatch_resolved_before_the_attack():
    # MBT 6.6.1.2: an Advancing Attack triggers Overwatch Fire, resolved before the Hand-to-Hand combat
    ow = unit("O", "t-80bv", "sov", "2A6", 0, command="OW")
    st = _step(extra=[ow])
    act(st, _advances(st)[0])
    got = _legal(st)
    assert "pass" in got and any(a.startswith("ow O at L") for a in got), got
    assert not any(" hand-to-hand with " in e for e in st.events)
    act(st, "pass")
    while "pass" in _legal(st) and not any(" hand-to-hand with " in e for e in st.events):
        act(st, "pass")
    assert any(" hand-to-hand with " in e for e in st.events)


def test_the_hexes_offered_are_every_common_neighbour():
    from studio.hexgrid.coords import neighbour

    st = _step()
    g = st.game
    a, b = g.map.hex(A2), g.map.hex(B2)
    common = {g.label(neighbour(a, f)) for f in range(6) if distance(neighbour(a, f), b) == 1}
    assert {x.split()[-1] for x in _advances(st)} == common


def test_a_winning_advancing_attacker_takes_the_hex():
    # attacker rolls 80 against 10 twice (-10 Advance Attack): the squad is reduced, then eliminated
    st = _step()
    act(st, _advances(st)[0])
    assert st.st[1] != 1 and st.game.label(st.hex[0]) == B2
    assert st.attacked[1]


def test_a_soviet_advance_opens_the_us_overwatch():
    a, b, d = A2, B2, D2
    units = [unit("L", "sov-mr-squad", "sov", a, d, command="MOVE"), unit("T", "us-mech-squad", "us", b, (d + 3) % 6),
             unit("O", "m1", "us", "2A6", 0, command="OW")]
    st = adv_state(units, phase="close-combat", to_act="sov", dice=DICE)
    act(st, _advances(st)[0])
    assert st.current_player() == 0 and any(x.startswith("ow O at L") for x in _legal(st))


def test_the_advanced_unit_has_moved():
    # the advance is the attacker's move: it is not offered a move in the Movement Step
    st = _step(extra=[unit("V", "m113", "us", "2A10", 0, command="MOVE")])
    act(st, _advances(st)[0])
    assert st.moved[0] and st.rev[0]
    while st.phase_id() == "close-combat" and "pass" in _legal(st):
        act(st, "pass")
    assert "move V" in _legal(st) and "move L" not in _legal(st)
