"""Rule deviations found when the engine was checked against the rulebook (issue 10); each test fails on the
engine before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_fixtures import find, line_pair, new_game, place, terrain  # noqa: E402

from studio.hexgrid.coords import distance, neighbour  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402


def A(text):
    return G._parse(text)


def test_4_2_1_illegal_command_becomes_nc_not_refused():
    """MBT 4.2.1: a vehicle given a command it cannot execute (Fire with no spotted target) gets N/C."""
    g = new_game()
    a = find(g, lambda h: terrain(g, h) == "C")
    far = find(g, lambda h: distance(h, a) > 36)
    s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(far), 0)})
    assert "FIRE" not in {x[2] for x in s.legal_actions()}
    s.play(A("command X FIRE"))                          # accepted ...
    assert s.observation(0).cmd[g.uindex["X"]] == G.NC   # ... as N/C
    s.play(A("command Y SH"))
    assert s.observation(1).cmd[g.uindex["Y"]] == G.NC
    assert s.phase != G.P_CMD


def test_4_5_1_1_5_cross_country_along_a_road_gets_no_elevation_bonus():
    """MBT 4.5.1.1.5: a vehicle moving cross-country along a road pays 1 per hex but the full height change; only
    the road/path rate treats a height change as 1 less."""
    g = new_game()
    a, b = g.map.hex("2A8"), g.map.hex("2B8")          # a road up one level over a slope hexside
    assert g.roads.get(G.edge_key(a, b)) and g.elev[b] - g.elev[a] == 1
    d = next(k for k in range(6) if neighbour(a, k) == b)
    s = place(g, 1, {"V": (0, "t-80bv", "2A8", d), "E": (1, "t-72a", "4T1", 3)})
    v = g.uindex["V"]
    added, road_added, _ = g.tables.height_change[1]
    assert s.step_cost(v, a, b) == 1 + added                  # cross-country: 1 per hex + 1 level
    s.mv_mode = (16, 10, 0, 0, 0)
    assert s.step_cost(v, a, b) == 1 + road_added             # road rate: the level counts 1 less


def _overwatch_setup():
    g = new_game()
    a, b, _ = line_pair(g, "C", "C", 6)
    s = place(g, 1, {"OW": (0, "m1", g.label(a), 0), "MV": (1, "t-72a", g.label(b), 0)}, first=0)
    s.play(A("command OW OW"))
    s.play(A("command MV MOVE"))
    while s.phase == G.P_INIT:
        s.play(A("initiative first"))
    while s.legal_actions() == [G.PASS]:
        s.play(G.PASS)
    return g, s


def test_4_5_1_1_8_no_move_move_is_subject_to_overwatch():
    """MBT 4.5.1.1.8: a Move vehicle that stays in its hex without turning is still moving and subject to
    Overwatch Fire."""
    g, s = _overwatch_setup()
    assert s.phase == G.P_MOVE and [str(x) for x in s.legal_actions()] == ["move MV"]
    s.play(A("move MV"))
    s.play(A("done MV"))
    shots = [str(x) for x in s.legal_actions() if x[0] == "ow"]
    assert shots and all(x.startswith("ow OW at MV") for x in shots)


def test_a_vehicle_that_moved_is_not_fired_on_again_at_done():
    """The No Move rule adds one chance only when nothing else exposed the vehicle: after a hex entered, 'done'
    opens no further overwatch."""
    g, s = _overwatch_setup()
    s.play(A("move MV"))
    s.play(A("fwd MV"))
    while s.legal_actions() and s.legal_actions()[0] == G.PASS and s.current_player() == 0:
        s.play(G.PASS)
    s.play(A("done MV"))
    assert not any(x[0] == "ow" for x in s.legal_actions())
