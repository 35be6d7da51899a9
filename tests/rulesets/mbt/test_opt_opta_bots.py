"""The heuristic bot's decisions of this session's optional-rule additions: the formation to fire (7.5.1), hiding
in cover (7.2.3), a fake closing in (7.2.2.2)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import legal, pos_state, unit  # noqa: E402

FAR = "4T13"


def _bot(state, side):
    return state.game.make_bot("heuristic", side, 1)


def test_the_bot_names_the_formation_with_shots():
    # MBT 7.5.1: formation a's tank sees nothing (far away): the bot names b, whose tank has the T-80BV in sight
    units = [unit("A1", "m1", "us", "4T1", 2, command="FIRE"), unit("A2", "m1", "us", "2A3", 2, command="FIRE"),
             unit("T1", "t-80bv", "sov", "2G5", 5, command="FIRE")]
    st = pos_state(units, ("staggered-initiative",), phase="direct-fire-first", to_act="us",
                   formations={"A1": "a", "A2": "b", "T1": "c"})
    assert legal(st) == ["formation a", "formation b"]
    assert str(_bot(st, 0).choose(st.observation(0), st.legal_actions())) == "formation b"


def test_the_bot_hides_a_unit_in_woods_and_not_in_the_open():
    woods = pos_state([unit("A", "m1", "us", "2L10", 0), unit("T", "t-80bv", "sov", FAR, 3)], ("hidden-units",),
                      phase="command", to_act="us")
    assert str(_bot(woods, 0).choose(woods.observation(0), woods.legal_actions())) == "hide A"
    open_ = pos_state([unit("A", "m1", "us", "2A1", 0), unit("T", "t-80bv", "sov", FAR, 3)], ("hidden-units",),
                      phase="command", to_act="us")
    assert str(_bot(open_, 0).choose(open_.observation(0), open_.legal_actions())).startswith("command A")


def test_the_bot_moves_a_fake_towards_the_enemy_at_a_legs_pace_then_passes():
    units = [unit("A", "m1", "us", "2A10", 0), unit("I", "us-mech-squad", "us", "2A11", 0),
             unit("T", "t-80bv", "sov", "4T13", 3)]
    st = pos_state(units, ("hidden-units",), phase="close-combat", to_act="us",
                   hidden_units=[{"id": "F1", "side": "us", "hex": "2D1", "units": []}])
    bot = _bot(st, 0)
    from studio.hexgrid.coords import distance

    far = distance(st.hsp[0].hex, st.hex[2])
    picks = []
    while st.current_player() == 0 and st.phase_id() == "close-combat" and len(picks) < 5:
        a = bot.choose(st.observation(0), st.legal_actions())
        picks.append(str(a))
        st.play(a)
    assert [p for p in picks if p.startswith("fake")] and picks[-1] == "pass"
    assert distance(st.hsp[0].hex, st.hex[2]) < far and st.hkd == [0]  # still a leg unit for spotting
