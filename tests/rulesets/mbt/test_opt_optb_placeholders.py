"""Play reports name only the placeholder tables a game reads: tables only optional rules that are off list as
theirs (``optional_rules[].tables``) are left out (follow-up of issue 13)."""
from __future__ import annotations

from pathlib import Path

from studio.rules.load import load_game, rebuild_game

DATA = Path(__file__).resolve().parents[3] / "data"


def test_switched_off_optional_rules_tables_are_not_placeholder_tables_used():
    loaded = load_game("opt-everything", DATA)
    everything = rebuild_game(loaded)
    none = rebuild_game(loaded, optional_rules=[])
    assert {"break-point", "minefield-effects", "fire-start", "spotting-table"} <= set(everything.placeholder_tables)
    assert not {"break-point", "minefield-effects", "fire-start", "spotting-table"} & set(none.placeholder_tables)
    assert len(everything.placeholder_tables) == len(set(everything.placeholder_tables))
    mines = rebuild_game(loaded, optional_rules=["mines"])
    assert "minefield-effects" in mines.placeholder_tables and "break-point" not in mines.placeholder_tables
