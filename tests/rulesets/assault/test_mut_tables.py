"""The engine's compiled tables hold exactly the ruleset's cells, looked up by column name (Assault 4.B.1,
10.D, 14.C, 19.B.3, 19.C.3, 20.A): a mutation run found the row/column positions of the compilation untested
(COVERAGE.md, Measurements)."""
from pathlib import Path

import pytest

from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


@pytest.fixture(scope="module")
def rs(index):
    return index.model("ruleset", "assault")


@pytest.fixture(scope="module")
def game(index, rs):
    return create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options})


def rows(rs, table_id):
    t = rs.table(table_id)
    return [dict(zip(t.columns, r)) for r in t.rows]


def test_status_modifiers(game, rs):
    """10.D: target and spotter status modifiers by status name."""
    assert game.status_mod == {r["status"]: r["modifier"] for r in rows(rs, "target-status")}
    assert game.spotter_mod == {r["status"]: r["modifier"] for r in rows(rs, "spotter-status")}
    assert game.status_mod["firing-missiles"] == 3 and game.spotter_mod["armored-vehicle"] == -1


@pytest.mark.parametrize("table_id, key, attr", [("command-ratings", "roll", "command_ratings"),
                                                 ("indirect-defence", "terrain", "indirect_defence"),
                                                 ("indirect-delay", "observer", "delay"),
                                                 ("terrain-spotting", None, "terrain_spot"),
                                                 ("terrain-effects", None, "effects")])
def test_keyed_tables(game, rs, table_id, key, attr):
    t = rs.table(table_id)
    key = key or t.columns[0]
    assert getattr(game, attr) == {r[key]: r for r in rows(rs, table_id)}


def test_command_levels_and_wind(game, rs):
    """19.B.3 the ordered command levels; 20.A.1-2 wind direction by roll and velocity by highest roll."""
    assert game.command_levels == {r["level"]: r["order"] for r in rows(rs, "soviet-command-levels")}
    assert game.command_levels["battery"] == 0 and game.command_levels["front"] == 5
    assert game.wind_direction == {r["roll"]: r["direction"] for r in rows(rs, "wind-direction")}
    assert game.wind_velocity == sorted((r["roll_max"], r["velocity"]) for r in rows(rs, "wind-velocity"))
    assert game.wind_velocity[0] == (5, "light")


def test_smoke_duration(game, rs):
    """20.A.4: (smoke, wind) -> (turns, drifts)."""
    assert game.smoke_duration == {(r["smoke"], r["wind"]): (r["turns"], bool(r["drifts"]))
                                   for r in rows(rs, "smoke-duration")}
    assert game.smoke_duration[("chemical", "moderate")] == (3, True)


def test_crt_columns_are_odds_ratios(game, rs):
    """14.C: the columns after the roll are odds 'a:b' read as a / b; the rows are keyed by the roll."""
    t = rs.table("conventional-crt")
    assert game.crt_columns == [(i, int(c.split(":")[0]) / int(c.split(":")[1]))
                                for i, c in enumerate(t.columns) if i > 0]
    assert game.crt_columns[0] == (1, 0.5) and game.crt_columns[-1][1] == 6
    assert {roll: list(r) for roll, r in game.crt.items()} == {r[0]: list(r) for r in t.rows}


# ------------------------------------------------------------------ the shape the engine requires (ENGINE_TABLES)
@pytest.mark.parametrize("table_id, key", [("command-ratings", 1), ("command-ratings", 10), ("wind-direction", 1),
                                           ("wind-direction", 10), ("indirect-defence", "entrenchment"),
                                           ("soviet-command-levels", "front")])
def test_a_row_the_engine_reads_may_not_be_missing(rs, table_id, key):
    """4.B.1 and 20.A.1 are read on a decimal die (rolls 1-10, 1.E): a ruleset without the row of roll 1 or 10
    (or another row the engine reads) is refused (ruleset.engine-table), naming the table and the row."""
    from studio.model.requirements import table_problems
    from studio.rulesets.assault.engine.data import ENGINE_TABLES
    assert not list(table_problems(rs, ENGINE_TABLES))
    tables = [t.model_copy(update={"rows": [r for r in t.rows if r[0] != key]}) if t.id == table_id else t
              for t in rs.tables]
    edited = rs.model_copy(update={"tables": tables})
    problems = list(table_problems(edited, ENGINE_TABLES))
    assert [p.code for p in problems] == ["ruleset.engine-table"]
    assert f"'{table_id}'" in problems[0].message and f"'{key}'" in problems[0].message
