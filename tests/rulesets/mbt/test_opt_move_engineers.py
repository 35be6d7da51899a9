"""MBT Optional Rule 7.19 Engineer vs Terrain Combat, through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

A, B, D = clear_pair(1)
ENEMY = "4T13"


def _engineers(rules=("engineers-vs-terrain", "mines"), dice=(), visible=True, card="us-engineer-squad",
               options=None, terrain_gpd=None, **status):
    ext = {"minefields": [{"side": "sov", "hexes": [B], "field": "hasty", "mines": "both", "visible": visible}]}
    if terrain_gpd:
        ext["terrain_gpd"] = terrain_gpd
    g = opt_game(rules, options=options, **ext)
    status.setdefault("command", "MOVE")
    st = opt_state(g, [unit("N", card, "us", A, D, **status), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   phase="close-combat", dice=dice)
    return st


def test_engineers_clear_a_visible_minefield_hex_with_one_effective_result():
    # MBT 7.19, 7.31.3.3: engineers attack a visible minefield hex by the Close Assault procedure (squad GP 8
    # against the Hasty field's GPD 3); one Effective result clears it
    st = _engineers()
    g = st.game
    assert f"clear N {B}" in legal(st)
    s_eff = g.ag.gp_crt[(g.ag.close["ca-gp-squad"], 3)][1]
    net = g.ag.grade_hth["seasoned"]
    st.dice.force(s_eff - net + 1)
    act(st, f"clear N {B}")
    assert g.map.hex(B) in st.mines[0].gone
    fail = _engineers()
    fail.dice.force(s_eff - net)
    act(fail, f"clear N {B}")
    assert not fail.mines[0].gone


def test_option_engineer_modifiers():
    st = _engineers(options={"engineer-modifiers": "none"})
    g = st.game
    s_eff = g.ag.gp_crt[(g.ag.close["ca-gp-squad"], 3)][1]
    st.dice.force(s_eff)
    act(st, f"clear N {B}")
    assert not st.mines[0].gone and any(f"roll {s_eff}+0" in e for e in st.events)


def test_only_engineers_with_a_move_command_and_visible_hexes():
    assert not any(a.startswith("clear") for a in legal(_engineers(card="us-mech-squad")))
    assert not any(a.startswith("clear") for a in legal(_engineers(visible=False)))
    assert not any(a.startswith("clear") for a in legal(_engineers(rules=("mines",))))
    assert not any(a.startswith("clear") for a in legal(_engineers(command="NC")))


def test_terrain_with_a_gp_defense_needs_two_effective_results():
    # MA125 (MBT 7.19): engineers attack Wire (GPD from the scenario): an Effective result rolls again, a second
    # Effective destroys it; buildings cannot be attacked this way
    st = _engineers(rules=("engineers-vs-terrain",), terrain_gpd={B: 4})
    g = st.game
    s_eff = g.ag.gp_crt[(g.ag.close["ca-gp-squad"], 4)][1]
    st.dice.force(100, 100)
    act(st, f"clear N {B}")
    assert g.map.hex(B) in st.razed
    once = _engineers(rules=("engineers-vs-terrain",), terrain_gpd={B: 4})
    once.dice.force(100, s_eff - g.ag.grade_hth["seasoned"])
    act(once, f"clear N {B}")
    assert not once.razed


def test_ma125_buildings_cannot_be_attacked():
    g = opt_game()
    town = next(g.label(h) for h in sorted(g.building_hexes))
    st = _engineers(rules=("engineers-vs-terrain",), terrain_gpd={town: 4})
    assert st._terrain_gpd(st.game.map.hex(town)) is None
