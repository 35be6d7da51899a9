"""The anchor itself: it must measure something (a broken anchor would make every ratio meaningless)."""
from __future__ import annotations

from anchor import chess_plies_per_s, report


def test_anchor_measures_plies():
    rate = chess_plies_per_s(seconds=0.2)
    assert rate > 100
    assert abs(report("probe", rate * 2, rate) - 2.0) < 1e-9
