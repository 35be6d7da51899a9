"""Sight fans (``studio.hexgrid.fan``): every step of every fan is the hex line of ``line_steps``."""
import random

import numpy as np
import pytest

from studio.hexgrid import coords
from studio.hexgrid.fan import PAD, FanTable, fan_table
from studio.hexgrid.lines import line_steps, runs_along_hexsides


def _flat(table, h, kind):
    c, r = coords.axial_to_offset(h, kind)
    return (r + PAD) * table.width + c + PAD


def _side(table, a, b, kind):
    return _flat(table, a, kind) * 6 + coords.direction_between(a, b)


@pytest.mark.parametrize("kind", ["odd-q", "even-q", "odd-r", "even-r"])
def test_fan_steps_are_the_hex_lines(kind):
    cols, rows = 8, 6
    table = FanTable(kind, cols, rows)
    rng = random.Random(5)
    for oc, orow in [(0, 0), (cols - 1, rows - 1)] + [(rng.randrange(cols), rng.randrange(rows)) for _ in range(4)]:
        fan = table.fan(oc, orow)
        h0, h1, side_in = fan.cell("hex0"), fan.cell("hex1"), fan.side("side_in")
        split, spine = fan.flag("split"), fan.flag("spine")
        a = coords.offset_to_axial(oc, orow, kind)
        for tr in range(rows):
            for tc in range(cols):
                b = coords.offset_to_axial(tc, tr, kind)
                steps = line_steps(a, b)
                n = len(steps) - 1
                assert fan.dist[tr, tc] == n
                for k in range(fan.steps):
                    if 0 < k < n:
                        assert {int(h0[k, tr, tc]), int(h1[k, tr, tc])} == {_flat(table, h, kind) for h in steps[k]}
                        assert split[k, tr, tc] == (len(steps[k]) == 2)
                        assert spine[k, tr, tc] == (len(steps[k]) == 2 and runs_along_hexsides(a, b))
                    else:  # end hexes and steps past the target point at the trailing region
                        assert h0[k, tr, tc] >= table.n_cells and h1[k, tr, tc] >= table.n_cells
                    if 1 <= k <= n and len(steps[k]) == 1 and len(steps[k - 1]) == 1:
                        assert side_in[k, tr, tc] == _side(table, steps[k - 1][0], steps[k][0], kind)


def test_crossing_split_enters_hex0_first():
    """A line crossing a hexside at its midpoint passes hex0 then hex1: the entry hexside is hex0's."""
    table = FanTable("odd-q", 9, 5)
    fan = table.fan(0, 2)
    a = coords.offset_to_axial(0, 2, "odd-q")
    found = 0
    for tr in range(5):
        for tc in range(9):
            b = coords.offset_to_axial(tc, tr, "odd-q")
            if runs_along_hexsides(a, b):
                continue
            for k, step in enumerate(line_steps(a, b)):
                if len(step) == 2:
                    prev = line_steps(a, b)[k - 1]
                    first = int(fan.cell("hex0")[k, tr, tc])
                    entered = [h for h in step if _flat(table, h, "odd-q") == first][0]
                    assert len(prev) == 1 and coords.distance(prev[0], entered) == 1
                    found += 1
    assert found


def test_attribute_arrays_and_regions():
    table = fan_table("even-q", 3, 2)
    grid = np.arange(6, dtype=float).reshape(2, 3)
    cells = table.cells(grid, -1.0, 99.0)
    assert cells[table.cell_index(2, 1)] == 5.0 and cells[table.cell_index(-1, 0)] == -1.0
    assert cells[table.n_cells + 3] == 99.0 and table.cell_index(-PAD - 1, 0) is None
    sides = table.sides(np.zeros((2, 3, 6)), -1.0, 7.0, skip=3.0)
    assert sides[table.side_index(0, 0, 4)] == 0.0 and sides[6 * table.n_cells] == 3.0 and sides[-1] == 7.0
    with pytest.raises(ValueError, match="off the 3x2 board"):
        table.fan(3, 0)
    with pytest.raises(ValueError, match="unknown offset kind"):
        FanTable("odd-x", 3, 2)


def test_boards_too_big_for_the_tables_get_none(monkeypatch):
    from studio.hexgrid import fan

    assert fan.table_entries(60, 40) >= FanTable("odd-q", 60, 40).max_steps * 2 * 79 * 119
    assert fan.fan_table("odd-q", 200, 200) is None
    monkeypatch.setattr(fan, "MAX_TABLE_ENTRIES", 10)
    assert fan.fan_table.__wrapped__("odd-q", 4, 3) is None
