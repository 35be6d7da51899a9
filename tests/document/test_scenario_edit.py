"""Scenario edits without Qt: the drop's side by nation, entry zones, the automatic spread."""
from studio.document.ops import apply_all
from studio.document.scenario_edit import entry_hexes_ops, side_for, spread
from studio.hexgrid import coords

SIDES = {"sides": [{"id": "us", "nation": "United States"}, {"id": "sov", "nation": "USSR"}]}


def test_a_toe_goes_to_the_side_of_its_nation_whatever_the_spelling():
    assert side_for(SIDES, "SOV", preferred=0) == 1
    assert side_for(SIDES, "Soviet Union", preferred=0) == 1
    assert side_for(SIDES, "US", preferred=1) == 0
    assert side_for(SIDES, "u.s.a.", preferred=1) == 0
    assert side_for(SIDES, "Sweden", preferred=1) == 1 and side_for(SIDES, "", preferred=1) == 1


def test_the_first_entry_hex_makes_a_set_up_force_a_reinforcement():
    data = {"sides": [{"forces": [{"id": "f", "toe": "t", "setup": {"hexes": ["2C5"]}}]}]}
    ops = entry_hexes_ops(data, "/sides/0/forces/0", ["4A1", "4A2", "4A1"], True)
    apply_all(data, ops)
    force = data["sides"][0]["forces"][0]
    assert force["entry"] == {"turn": 1, "hexes": ["4A1", "4A2"]} and "setup" not in force
    apply_all(data, entry_hexes_ops(data, "/sides/0/forces/0", ["4A3"], True))
    apply_all(data, entry_hexes_ops(data, "/sides/0/forces/0", ["4A1"], False))
    assert force["entry"]["hexes"] == ["4A2", "4A3"]


class Grid:
    """A 6 x 6 flat-topped board whose column 1 is woods."""

    def __init__(self):
        self.hexes = {(q, r - q // 2) for q in range(6) for r in range(6)}

    def key_at(self, x, y):
        return (x, y) if (x, y) in self.hexes else None

    def centre(self, key):
        return key


def test_spread_prefers_hexes_every_unit_can_enter():
    grid = Grid()
    start = (0, 2)
    woods = {h for h in grid.hexes if h[0] == 1}
    keys = spread(grid, start, 4, allowed=lambda h: h not in woods)
    assert keys[0] == start and len(set(keys)) == 4 and not (set(keys[1:]) & woods)
    assert all(k in grid.hexes for k in keys)
    cramped = spread(grid, start, 4, allowed=lambda h: h == start)
    assert len(cramped) == 4 and cramped[0] == start, "falls back to other hexes when it must"
    assert max(coords.distance(start, k) for k in cramped) <= 2
