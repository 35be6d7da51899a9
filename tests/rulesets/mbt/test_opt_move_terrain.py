"""MBT Optional Rules 7.29 Bogging Down, 7.32 Weight Limitations, 7.33 Dual Driving Controls, 7.34 Amphibious
Movement, through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit, with_terrain  # noqa: E402

from studio.hexgrid import coords  # noqa: E402
from studio.rulesets.mbt.engine.codes import DEAD  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import CardMove, move_opt  # noqa: E402

ENEMY = "4T13"


def _pair(code_from: str, code_to: str = "C", feature: str | None = None):
    """Two adjacent hexes (labels) of the given terrain at the same height, the hexside direction between them,
    with a hexside feature ``feature`` (None: no feature)."""
    g = opt_game()
    for a in sorted(g.map.label_of):
        if g.map.terrain.get(a, "") != code_from:
            continue
        for d in range(6):
            b = coords.neighbour(a, d)
            f = g.features.get(coords_edge(a, b))
            if b in g.map.label_of and g.map.terrain.get(b, "") == code_to and g.elev.get(a) == g.elev.get(b) and \
                    (f.id if f is not None else None) == feature:
                return g.label(a), g.label(b), d
    raise LookupError((code_from, code_to, feature))


def coords_edge(a, b):
    from studio.model.maps import edge_key

    return edge_key(a, b)


ROUGH, CLEAR, RD = _pair("R")


def _bogger(dice, rules=("bogging-down",), card="t-80bv", command="MOVE"):
    g = opt_game(rules)
    st = opt_state(g, [unit("V", card, "sov", ROUGH, RD, command=command), unit("E", "m1", "us", "2A1", 2)],
                   to_act="sov", dice=dice)
    act(st, "move V")
    return st


def test_bog_range_rough_01_35_and_the_card_modifier():
    # MBT 7.29: a T-80BV (B +5) leaving Rough bogs on a net result within 01-35: roll 30 + 5 = 35 bogs
    g = opt_game()
    assert move_opt(g).bog_max["R"] == 35
    from studio.rulesets.mbt.engine.opt_move_data import card_move

    assert card_move(g, g.uindex.get("T-80BV-1", 0)).bog in (0, 5)
    st = _bogger([30])
    bog = card_move(st.game, 0).bog
    st2 = _bogger([35 - bog])
    act(st2, "fwd V")
    assert st2.bogged[0] and st2.hex[0] == st2.game.map.hex(ROUGH)
    assert legal(st2) == ["done V"]  # no pivot, no further move (MBT 7.29)
    assert any("bog check" in e and "bogged down" in e for e in st2.events)
    free = _bogger([36 - bog])
    act(free, "fwd V")
    assert not free.bogged[0] and free.hex[0] == free.game.map.hex(CLEAR)


def test_bogging_off_or_entering_does_not_check():
    st = _bogger([1], rules=())
    act(st, "fwd V")
    assert st.hex[0] == st.game.map.hex(CLEAR)
    # entering a Rough hex from Clear does not check (MBT 7.29)
    g = opt_game(("bogging-down",))
    enter = opt_state(g, [unit("V", "t-80bv", "sov", CLEAR, (RD + 3) % 6, command="MOVE"),
                          unit("E", "m1", "us", "2A1", 2)], to_act="sov", dice=[1])
    act(enter, "move V")
    act(enter, "fwd V")
    assert enter.hex[0] == g.map.hex(ROUGH) and not enter.bogged[0]


def test_bogged_vehicle_moves_next_turn():
    st = _bogger([1])
    act(st, "fwd V")
    assert st.bogged[0]
    st._start_turn()
    assert not st.bogged[0]


# ------------------------------------------------------------------ 7.32 weight limits

S1, S2, SD = _pair("C", "C", "stream")


def _crossing(rules, tons, kind="bridge", card="t-80bv", weight=42.5):
    side = coords.FLAT_DIRECTION_NAMES[SD]
    g = opt_game(rules, weight_limits=[{"hex": S1, "side": side, "tons": tons, "kind": kind}])
    move_opt(g).cards[card] = CardMove(weight=weight)  # the sample cards give no weight (placeholder here)
    st = opt_state(g, [unit("V", card, "sov", S1, SD, command="MOVE"), unit("E", "m1", "us", "2A1", 2)],
                   to_act="sov")
    act(st, "move V")
    return st


def test_too_heavy_for_the_bridge_may_not_cross():
    # MBT 7.32: a unit too heavy for the bridge's limit may not enter it (T-80BV 42.5 t)
    heavy = _crossing(("weight-limits",), 40)
    assert "fwd V" not in legal(heavy)
    assert "fwd V" in legal(_crossing(("weight-limits",), 40, weight=None))  # no weight on the card: crosses
    assert "fwd V" in legal(_crossing(("weight-limits",), 50))
    assert "fwd V" in legal(_crossing((), 40))  # rule off


def test_ice_within_the_limit_is_clear_too_heavy_may_not_cross():
    # MBT 7.32: a frozen stream is crossed as Clear by units within its ice limit; heavier ones only at a ford
    light = _crossing(("weight-limits",), 50, kind="ice")
    normal = _crossing((), 50, kind="ice")
    b = light.game.map.hex(S2)
    assert light.step_cost(0, light.game.map.hex(S1), b) < normal.step_cost(0, normal.game.map.hex(S1), b)
    assert "fwd V" not in legal(_crossing(("weight-limits",), 40, kind="ice"))


# ------------------------------------------------------------------ 7.33 dual driving controls

def test_dual_driving_controls_reverse_at_the_forward_cost():
    # MBT 7.33: an R vehicle pays the forward cost in reverse
    g = opt_game(("dual-driving-controls",))
    move_opt(g).cards["brdm-2-at5"] = CardMove(dual=True)
    st = opt_state(g, [unit("V", "brdm-2-at5", "sov", CLEAR, RD, command="MOVE"), unit("E", "m1", "us", "2A1", 2)],
                   to_act="sov")
    a, b = g.map.hex(CLEAR), g.map.hex(ROUGH)
    assert st.step_cost(0, a, b, reverse=True) == st.step_cost(0, a, b)
    off = opt_game()
    move_opt(off).cards["brdm-2-at5"] = CardMove(dual=True)
    st2 = opt_state(off, [unit("V", "brdm-2-at5", "sov", CLEAR, RD, command="MOVE"),
                          unit("E", "m1", "us", "2A1", 2)], to_act="sov")
    assert st2.step_cost(0, a, b, reverse=True) > st2.step_cost(0, a, b)


# ------------------------------------------------------------------ 7.34 amphibious

def _line3():
    g = opt_game()
    for a in sorted(g.map.label_of):
        for d in range(6):
            b, c = coords.neighbour(a, d), coords.neighbour(coords.neighbour(a, d), d)
            if all(x in g.map.label_of and g.map.terrain.get(x, "") == "C" and g.elev.get(x) == g.elev.get(a)
                   and g.features.get(coords_edge(a, b)) is None and g.features.get(coords_edge(b, c)) is None
                   for x in (a, b, c)):
                return g.label(a), g.label(b), g.label(c), d
    raise LookupError


W0, W1, W2, WD = _line3()


def _swimmer(rules=("amphibious",), dice=()):
    g = with_terrain(opt_game(rules), [W2], "L")
    move_opt(g).cards["m113"] = CardMove(amphibious=True)
    st = opt_state(g, [unit("V", "m113", "us", W1, WD, command="MOVE"),
                       unit("P", "us-mech-squad", "us", W1, WD, carried_by="V"),
                       unit("E", "t-80bv", "sov", ENEMY, 5)], dice=dice)
    act(st, "move V")
    return st


def test_amphibious_vehicle_swims_one_hex_per_turn():
    # MBT 7.34: an A vehicle may enter water, one hex per turn (the M113A2, UM-3A)
    st = _swimmer()
    assert "fwd V" in legal(st)
    act(st, "fwd V")
    assert st.hex[0] == st.game.map.hex(W2) and legal(st)[0] == "done V" and "fwd V" not in legal(st)
    assert "fwd V" not in legal(_swimmer(rules=()))
    # not after moving: the swim is the whole move
    g = st.game
    other = opt_state(g, [unit("V", "m113", "us", W0, WD, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    act(other, "move V")
    act(other, "fwd V")
    assert "fwd V" not in legal(other)


def test_amphibious_vehicle_hit_in_water_sinks_with_its_passengers():
    # MBT 7.34: a Track hit, Hull Damage, KO or BU in water sinks it: eliminated, no Bail Out
    st = _swimmer()
    act(st, "fwd V")
    st.track_hit(0)
    assert st.st[0] == DEAD and st.st[1] == DEAD and any("sinks" in e for e in st.events)
    st2 = _swimmer()
    act(st2, "fwd V")
    st2.apply_damage(0, "DM", "TF")  # turret damage does not sink it
    assert st2.st[0] != DEAD and st2.tdmg[0]


def test_mud_doubles_the_bog_range():
    # MA103 / MBT 7.29, 7.36.3: mud doubles the listed range (Rough 01-35 -> 01-70): 36 + 5 = 41 bogs in mud only
    from opt_command_fixtures import pos_state

    units = [unit("V", "t-80bv", "sov", ROUGH, RD, command="MOVE"), unit("E", "m1", "us", "2A1", 2)]
    mud = pos_state(units, ("bogging-down", "terrain-time-weather"), phase="move-first", to_act="sov", dice=[36],
                    ground_conditions="mud")
    act(mud, "move V")
    act(mud, "fwd V")
    assert mud.bogged[0]
    dry = pos_state(units, ("bogging-down", "terrain-time-weather"), phase="move-first", to_act="sov", dice=[36])
    act(dry, "move V")
    act(dry, "fwd V")
    assert not dry.bogged[0]
