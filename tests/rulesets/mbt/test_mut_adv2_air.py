"""MBT Advanced Game air rules and terrain targets (MBT 6.7.3, 6.5.4.4.3): cases found by the second round of
mutation testing (issue 12) that no other test pinned down, through positions, legal actions, play, the narration
and the rolls' labels. Expected values come from the rule text."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402
from mbt_move_fixtures import opt_state  # noqa: E402
from test_adv_air_fw import fly, fw_state, legal  # noqa: E402
from test_adv_terrain_targets import BANK, BRIDGE, _bridge_fire, _game, _he_factor, _s_eff  # noqa: E402


def test_after_an_attack_the_aircraft_acquires_anew():
    # MBT 6.7.3.1.1: after completing an attack the aircraft starts acquiring its next target from that point; it
    # never has more than one acquired target: the T-80BV it strafed without effect (the edge credit acquired it)
    # and the one further south are not acquired, so no attack is offered
    units = [unit("T", "t-80bv", "sov", "2B3", 0), unit("S", "t-80bv", "sov", "2B7", 0)]
    st = fly(fw_state(units, dice=[5] * 12), "A-10A-1", "slow", "low", "2B1", "S", hexes=1)
    assert st.fw_acquired() == [0]
    act(st, "attack A-10A-1 strafe T")
    assert any(e.startswith("A-10A-1>T (GPD 8A): roll 5+10 = 15 ") and e.endswith("-> NE") for e in st.events)
    assert st.st[0] == 1 and st.fw_acquired() == []
    assert not [a for a in legal(st) if a.startswith("attack ")]


def test_the_second_roll_against_terrain_is_the_second(dice_sides):
    # MBT 6.5.4.4.3: an Effective result against the bridge rolls again; that roll is the second of the two
    st = _bridge_fire([1])
    s_eff = _s_eff(st.game, _he_factor(st, 0, 1), 5)
    st = _bridge_fire([1, 1, s_eff + 1, s_eff + 1])
    act(st, "fire T at Q main:HE")
    terrain = [label for label, _ in dice_sides if " vs terrain " in label]
    assert terrain == [f"T vs terrain {BRIDGE}", f"T vs terrain {BRIDGE} (second roll)"]


def test_a_destroyed_bridge_leaves_other_states_of_the_game_crossing_it():
    # MBT 6.5.4.4.3: the bridge destroyed in one game's state is gone there only; another state of the same game
    # (the bots' step table, shared by the game) still crosses it
    g = _game()
    units = [unit("V", "m1", "us", BANK, 0, command="MOVE"), unit("E", "t-80bv", "sov", "7A1", 3)]
    st = opt_state(g, units, phase="move-first", to_act="us")
    other = opt_state(g, units, phase="move-first", to_act="us")
    a, b = g.map.hex(BANK), g.map.hex(BRIDGE)
    st.destroy_terrain(b)
    assert dict(st.xc_steps(0)[a])[b] is None
    assert dict(other.xc_steps(0)[a])[b] is not None
    assert dict(st.xc_steps(0)[a])[b] is None


def test_a_helicopter_without_transport_carries_nobody():
    # MBT 6.7.5.3.3: leg units board helicopters with a Transport Capacity; the AH-1S card has none, so the FO section
    # in the hex where it lands (Move command, not moved) is offered no boarding (the Mi-24 test boards one)
    units = [unit("H", "ah-1s", "us", "2A1", 2), unit("M", "t-80bv", "sov", "4T14", 5),
             unit("P", "us-fo-section", "us", "2A3", 2, command="MOVE")]
    st = adv_state(units, phase="air-1", to_act="us")
    act(st, "fly H 2A3 land")
    assert st.events[-1] == "helicopter H lands in 2A3"
    assert legal(st) == ["hold H"]
