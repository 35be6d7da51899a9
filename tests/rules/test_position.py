"""Positions as documents (issue 10 deliverable 8): set-up through Game.state_from_position, and every bad input
a diagnostic with file and line, never a traceback. Uses the toy 'alpha' rule system of toyalpha.py."""
import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest

from studio.model import registry
from studio.model.position import Position
from studio.model.schema_export import schemas_dir
from studio.rules.position import PositionError, load_position

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toyalpha import Flags, alpha_plugin  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "project"

POSITION = """\
kind: position
schema_version: 1
id: near-the-end
scenario: clash
options:
  edge-los: block-if-both
turn: 3
phase: fire
to_act: red
units:
  - id: b1
    card: tank
    side: blue
    hex: '0101'
    status: {pos: 10, order: 2}
  - card: walker
    side: red
    hex: '0202'
    facing: 3
    status: {pos: 4, order: 1}
dice: [9, 2]
"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root)
    return root


@pytest.fixture
def alpha():
    yield alpha_plugin()
    registry.unregister("alpha")


def write(project: Path, text: str, name: str = "pos.yaml") -> Path:
    path = project / "positions" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def refused(source, project=None) -> PositionError:
    with pytest.raises(PositionError) as err:
        load_position(source, project)
    assert err.value.diagnostics, "a refusal carries diagnostics"
    return err.value


def test_file_position_sets_up_the_state(project, alpha):
    setup = load_position(write(project, POSITION))
    state = setup.state
    assert setup.position.id == "near-the-end" and setup.loaded.scenario.id == "clash"
    assert setup.loaded.options["edge-los"] == "block-if-both" and setup.loaded.game.step == 2
    assert (state.turn, state.phase_id(), state.current_player()) == (3, "fire", 1)
    assert [(u.id, u.card, u.side, u.pos, u.order) for u in state.units] == [
        ("b1", "tank", 0, 10, 2), ("red-2", "walker", 1, 4, 1)]
    assert state.legal_actions() == ["hold", "shoot"]
    state.play("shoot")               # forced 9 >= hit 7 of range 2: blue is pushed back
    assert state.units[0].pos == 9
    state.play("dash")                # blue's move, forced 2 < hit 8 of range 1: no move
    assert state.units[0].pos == 9 and state.phase_id() == "fire"


def test_dict_position_defaults(project, alpha):
    setup = load_position({"scenario": "clash"}, project)
    assert setup.position.kind == "position" and setup.position.phase == "move"
    assert setup.state.phase_id() == "move" and setup.state.turn == 1
    assert [u.side for u in setup.state.units] == [0, 1]      # the scenario's own set-up (units: null)
    assert setup.loaded.game.step == 2                         # the ruleset default: block-if-both
    other = load_position({"scenario": "clash", "options": {"edge-los": "block-if-either"}}, project)
    assert other.loaded.game.step == 1 and other.loaded.overrides == {"edge-los": "block-if-either"}


def test_scenario_by_relative_path(project, alpha):
    path = write(project, POSITION.replace("scenario: clash", "scenario: ../scenarios/clash.yaml"))
    assert load_position(path).loaded.scenario.id == "clash"


@pytest.mark.parametrize("old, new, code, needle", [
    ("phase: fire", "phase: melee", "position.phase", "phase: melee"),
    ("to_act: red", "to_act: green", "position.side", "to_act: green"),
    ("    side: blue", "    side: green", "position.side", "side: green"),
    ("card: walker", "card: walkr", "position.card", "card: walkr"),
    ("turn: 3", "turn: 9", "position.turn", "turn: 9"),
    ("  edge-los: block-if-both", "  edge-loss: block-if-both", "scenario.option-unknown", "edge-loss:"),
    ("  edge-los: block-if-both", "  edge-los: never", "scenario.option-choice", "edge-los: never"),
    ("scenario: clash", "scenario: crash", "position.scenario", "scenario: crash"),
    ("status: {pos: 10, order: 2}", "status: {pos: 10, colour: 2}", "position.invalid", "colour"),
    ("dice: [9, 2]", "dice: [9, 0]", "schema.value", "dice:"),
    ("turn: 3", "turn: 3\nweather: rain", "schema.unknown-field", "weather: rain"),
    ("turn: 3", "turn: '3'", "schema.type", "turn: '3'"),
])
def test_bad_position_is_a_diagnostic_at_its_line(project, alpha, old, new, code, needle):
    assert old in POSITION
    path = write(project, POSITION.replace(old, new, 1))
    err = refused(path)
    found = [d for d in err.diagnostics if d.file.endswith("pos.yaml")]
    assert any(d.code.startswith(code.split(".")[0]) and d.line == line_of(path, needle) for d in found), \
        [d.format_text() for d in err.diagnostics]
    if not code.startswith("schema."):
        assert any(d.code == code for d in found), [d.format_text() for d in found]


def test_plugin_error_names_the_pointer(project, alpha):
    path = write(project, POSITION.replace("  - card: walker\n    side: red", "  - card: walker\n    side: blue"))
    err = refused(path)
    assert [(d.code, d.pointer, d.line) for d in err.diagnostics] == [
        ("position.invalid", "/units", line_of(path, "units:"))]
    assert "side 'red' has no unit" in err.diagnostics[0].message


def test_not_a_mapping_and_unreadable(project, alpha):
    assert refused(write(project, "- 1\n- 2\n")).diagnostics[0].code == "schema.type"
    assert refused(write(project, "kind: [\n")).diagnostics[0].code.startswith("syntax")
    assert refused({"kind": "scenario", "scenario": "clash"}, project).diagnostics[0].pointer == "/kind"
    assert refused(project / "positions" / "missing.yaml").diagnostics


def test_scenario_that_fails_validation_is_refused_with_its_diagnostics(project, alpha):
    scenario = project / "scenarios" / "clash.yaml"
    scenario.write_text(scenario.read_text().replace("turns: 8", "turns: 0"), encoding="utf-8")
    err = refused(write(project, POSITION))
    assert err.diagnostics[0].code == "position.scenario"
    assert any(d.file.endswith("clash.yaml") for d in err.diagnostics[1:])


def test_engine_without_hook_or_crashing(project):
    alpha_plugin(Flags(positions=False))
    try:
        assert refused({"scenario": "clash"}, project).code == "position.unsupported"
    finally:
        registry.unregister("alpha")
    alpha_plugin()
    try:
        err = refused({"scenario": "clash", "units": [{"card": "tank", "side": "blue", "status": {"pos": "x"}},
                                                      {"card": "tank", "side": "red"}]}, project)
        assert err.code == "position.engine-failed" and "ValueError" in err.diagnostics[0].message
    finally:
        registry.unregister("alpha")


def test_dice_without_dice_in_state(project, alpha, monkeypatch):
    from toyalpha import AlphaGame

    original = AlphaGame._state_from_position

    def no_dice(self, position):
        state = original(self, position)
        state.dice = None
        return state

    monkeypatch.setattr(AlphaGame, "_state_from_position", no_dice)
    assert refused({"scenario": "clash", "dice": [3]}, project).code == "position.dice"


def test_position_schema_is_exported_and_agrees_with_the_model():
    schema = json.loads((schemas_dir() / "position.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    import yaml

    good = yaml.load(POSITION, Loader=yaml.CSafeLoader)
    assert not list(validator.iter_errors(good))
    Position.model_validate(good)
    for bad in ({**good, "turn": 0}, {**good, "dice": [0]}, {**good, "units": [{"card": "tank"}]},
                {**good, "extra": 1}):
        assert list(validator.iter_errors(bad)), bad
        with pytest.raises(Exception):
            Position.model_validate(bad)


def test_games_start_from_a_position(project, alpha):
    """``PositionSetup.as_loaded()`` plays from the position (the sim runner and ``play --from`` use it), with
    the position's forced dice first and fresh dice per seed; its spec rebuilds it in worker processes."""
    from studio.sim.runner import run_games

    path = write(project, POSITION)
    loaded = load_position(path).as_loaded()
    game = loaded.game
    assert game.sides == ["blue", "red"] and [p.id for p in game.phases] == ["move", "fire"]
    assert game.placeholder_tables == loaded.game.base.placeholder_tables
    first = game.new_initial_state(1)
    assert (first.turn, first.phase_id(), first.current_player()) == (3, "fire", 1)
    first.play("shoot")                 # forced 9: blue pushed back
    assert first.units[0].pos == 9
    a, b = game.new_initial_state(1), game.new_initial_state(2)
    for s in (a, b):
        s.play("shoot")
        s.play("dash")                  # forced 2: no move
    rolls = [[s.dice.roll(10) for _ in range(6)] for s in (a, b)]
    assert rolls[0] != rolls[1]         # the rolls after the forced ones come from each seed
    spec = loaded.spec
    assert spec.position == str(path)
    again = spec.load()
    assert again.game.new_initial_state(1).fingerprint() == game.new_initial_state(1).fingerprint()
    report = run_games(loaded, 4, seed=1)
    assert report.games == 4 and all(r.error is None and r.turn >= 3 for r in report.results)
    assert len({r.final_hash for r in report.results}) > 1
    twice = run_games(loaded, 4, seed=1, jobs=2)      # workers rebuild the position from the spec
    assert [r.final_hash for r in twice.results] == [r.final_hash for r in report.results]


GARBAGE = [None, [], {}, "x", "", -1, 0, 10 ** 6, 1.5, float("nan"), True, [[[]]], {"a": {"b": [1]}}, "0101"]


def test_garbage_in_any_field_is_a_position_error_never_a_traceback(project, alpha):
    import yaml

    good = yaml.load(POSITION, Loader=yaml.CSafeLoader)
    cases = 0
    for key in [*good, "units/0", "units/0/status", "units/0/hex", "units/1/facing", "units/0/passengers"]:
        for value in GARBAGE:
            data = yaml.load(POSITION, Loader=yaml.CSafeLoader)
            node, *path = key.split("/")
            if path:
                target = data[node][int(path[0])]
                if len(path) == 1:
                    data[node][int(path[0])] = value
                else:
                    target[path[1]] = value
            else:
                data[node] = value
            try:
                setup = load_position(data, project)
            except PositionError as exc:
                assert exc.diagnostics and all(d.code and d.message for d in exc.diagnostics)
            else:
                assert setup.state.current_player() in (0, 1, -2)
            cases += 1
    assert cases >= 200
