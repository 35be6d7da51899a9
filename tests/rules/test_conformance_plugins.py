"""The declaration checks of issue 10 for every registered plugin with a rules engine, on the sample project
``data/``. A plugin that has not declared a hook yet (probes, engine_tables, data_fingerprint, DERIVED_SLOTS,
scramble_hidden, phase_id) is skipped with the reason; once it declares it, the check bites. The full per-cell
table run is ``-m slow``; the normal suite runs an evenly spread slice of the cells."""
from functools import lru_cache
from pathlib import Path

import pytest

from studio.model.registry import plugins
from studio.model.validate import validate_paths
from studio.rules import conformance
from studio.rules.conformance import NotDeclared
from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[2] / "data"
ENGINES = [p.id for p in plugins() if p.game_factory is not None]


@lru_cache(maxsize=None)
def scenario_ids(ruleset: str) -> tuple[str, ...]:
    index = validate_paths([DATA]).index
    return tuple(sorted(d.id for d in index.of_kind("scenario") if d.model is not None
                        and d.model.ruleset == ruleset))


@lru_cache(maxsize=None)
def game_of(ruleset: str):
    ids = scenario_ids(ruleset)
    if not ids:
        pytest.skip(f"no scenario of '{ruleset}' in data/")
    return load_game(ids[0], DATA).game


def plugin_of(ruleset: str):
    return next(p for p in plugins() if p.id == ruleset)


def declared(check, *args, **kwargs):
    try:
        return check(*args, **kwargs)
    except NotDeclared as exc:
        pytest.skip(f"not declared yet: {exc}")


@pytest.mark.parametrize("ruleset", ENGINES)
def test_options_are_real(ruleset):
    declared(conformance.check_options_real, plugin_of(ruleset), DATA)


@pytest.mark.parametrize("ruleset", ENGINES)
def test_table_cells_are_read_fast_slice(ruleset):
    declared(conformance.check_tables_read, plugin_of(ruleset), DATA, max_cells_per_table=6)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ENGINES)
def test_table_cells_are_read_every_cell(ruleset):
    declared(conformance.check_tables_read, plugin_of(ruleset), DATA)


@pytest.mark.parametrize("ruleset", ENGINES)
def test_tables_change_play(ruleset):
    declared(conformance.check_tables_played, plugin_of(ruleset), DATA)


@pytest.mark.parametrize("ruleset", ENGINES)
def test_environment_changes_play(ruleset):
    declared(conformance.check_environment_real, plugin_of(ruleset), DATA)


@pytest.mark.parametrize("ruleset", ENGINES)
def test_fingerprint_is_complete(ruleset):
    game = game_of(ruleset)
    for state in conformance.sample_states(game, seed=5, count=3, spacing=25):
        declared(conformance.check_fingerprint_complete, state)


@pytest.mark.parametrize("ruleset", ENGINES)
def test_observation_is_private(ruleset):
    game = game_of(ruleset)
    for state in conformance.sample_states(game, seed=6, count=3, spacing=25):
        for player in range(len(game.sides)):
            declared(conformance.check_observation_private, state, player)


@pytest.mark.parametrize("ruleset", ENGINES)
def test_phase_ids_are_phases(ruleset):
    declared(conformance.check_phase_ids, game_of(ruleset))


@pytest.mark.parametrize("ruleset", ENGINES)
def test_every_scenario_passes_the_engine_table_requirements(ruleset):
    if not plugin_of(ruleset).engine_tables:
        pytest.skip("plugin has not declared engine_tables")
    result = validate_paths([DATA])
    found = [d.format_text() for d in result.diagnostics if d.code == "ruleset.engine-table"]
    assert not found, found
