"""The declaration checks of issue 10 pass for a sound toy rule system and FAIL for each fault they exist to
catch: an option never read, a table cell never read, a fingerprint that omits a field, an observation that
leaks hidden values or dice. Toy: tests/rules/toyalpha.py over the fixture project's 'alpha' ruleset."""
import dataclasses
import shutil
import sys
from pathlib import Path

import pytest

from studio.model import registry
from studio.rules import conformance
from studio.rules.api import State
from studio.rules.conformance import (ConformanceError, NotDeclared, Probe, check_environment_real,
                                      check_fingerprint_complete,
                                      check_observation_private, check_options_real, check_phase_ids,
                                      check_tables_played, check_tables_read, check_tables_real)
from studio.rules.dice import Dice
from studio.rules.load import load_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toyalpha import AlphaState, Flags, alpha_plugin  # noqa: E402
from toygame import RaceGame  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "project"


def units(blue_pos=0, red_pos=0, blue_order=1, red_order=1):
    return [{"card": "tank", "side": "blue", "status": {"pos": blue_pos, "order": blue_order}},
            {"card": "tank", "side": "red", "status": {"pos": red_pos, "order": red_order}}]


STEP = Probe("step", {"scenario": "clash", "units": units()}, ("step",), options=("edge-los",))
DASH = Probe("dash", {"scenario": "clash", "units": units(), "dice": [8]}, ("dash",), tables=("hit",),
             environment={"light": "night"})
SHOOT = Probe("shoot", {"scenario": "clash", "units": units(3, 3), "phase": "fire", "dice": [7]}, ("shoot",),
              tables=("hit",))
PROBES = (STEP, DASH, SHOOT)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root)
    return root


@pytest.fixture
def toy():
    made = []

    def make(flags=Flags(), probes=PROBES, **fields):
        made.append(alpha_plugin(flags, probes, **fields))
        return made[-1]

    yield make
    registry.unregister("alpha")


def states(project):
    game = load_game("clash", project).game
    return conformance.sample_states(game, seed=3, count=4, spacing=3)


def test_sound_toy_passes_every_check(project, toy):
    plugin = toy()
    game = load_game("clash", project).game
    assert conformance.run_all(game, plugin, project) == {name: None for name in [
        *conformance.CHECKS, "options_real", "tables_real", "environment_real", "optional_rules_real",
        "fingerprint_complete", "observation_private", "phase_ids"]}


def test_option_never_read_fails(project, toy):
    toy(Flags(read_option=False))
    with pytest.raises(ConformanceError, match=r"option 'edge-los' \[X 1.1\]: probe 'step' plays the same"):
        check_options_real(registry.plugin("alpha"), project)


def test_option_without_probe_fails_unless_declared_unexposable(project, toy):
    with pytest.raises(ConformanceError, match="option 'edge-los'.*no probe lists it"):
        check_options_real(toy(probes=(DASH,)), project)
    registry.unregister("alpha")
    check_options_real(toy(probes=(DASH,), unexposable_options={"edge-los": "only changes LOS"}), project)
    registry.unregister("alpha")
    with pytest.raises(ConformanceError, match="unexposable_options names 'nothing'"):
        check_options_real(toy(unexposable_options={"nothing": "x"}), project)


def test_single_choice_option_must_be_a_reading(project, toy):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("choices: [block-if-either, block-if-both]",
                                                   "choices: [block-if-both]"), encoding="utf-8")
    with pytest.raises(ConformanceError, match="has one choice: it is a reading"):
        check_options_real(toy(), project)


def test_table_cell_never_read_fails(project, toy):
    toy(Flags(read_all_cells=False))
    with pytest.raises(ConformanceError) as err:
        check_tables_read(registry.plugin("alpha"), project)
    assert "hit:1:hit (cell 7) is never read" in str(err.value)
    assert "hit:0:hit" not in str(err.value)
    registry.unregister("alpha")
    check_tables_read(toy(Flags(read_all_cells=False), unexposable_tables={"hit:2:hit": "documented"}), project)


def test_table_not_played_fails(project, toy):
    with pytest.raises(ConformanceError, match="table 'hit': no probe lists it"):
        check_tables_played(toy(probes=(STEP,)), project)
    registry.unregister("alpha")
    blind = Probe("blind", STEP.position, ("step",), tables=("hit",))
    with pytest.raises(ConformanceError, match="table 'hit': every probe listing it plays the same"):
        check_tables_real(toy(probes=(STEP, blind)), project)


def test_environment_field_never_read_fails(project, toy):
    with pytest.raises(ConformanceError, match="environment field 'light': every probe setting it plays the same"):
        check_environment_real(toy(Flags(read_light=False)), project)
    registry.unregister("alpha")
    check_environment_real(toy(), project)
    registry.unregister("alpha")
    with pytest.raises(ConformanceError, match="'light': no probe sets it"):
        windy = Probe("windy", STEP.position, environment={"wind": {"strength": "strong"}})
        check_environment_real(toy(probes=(STEP, windy)), project)
    registry.unregister("alpha")
    with pytest.raises(NotDeclared):
        check_environment_real(toy(probes=(STEP,)), project)


def test_tables_read_needs_data_fingerprint(project, toy, monkeypatch):
    from toyalpha import AlphaGame

    monkeypatch.delattr(AlphaGame, "data_fingerprint")
    with pytest.raises(NotDeclared, match="data_fingerprint"):
        check_tables_read(toy(), project)


def test_fingerprint_that_omits_a_field_fails(project, toy):
    toy(Flags(fingerprint_order=False))
    with pytest.raises(ConformanceError, match=r"units\[0\]\.order"):
        check_fingerprint_complete(states(project)[0])


def test_undeclared_derived_slot_fails(project, toy):
    toy(Flags(declare_cache=False))
    with pytest.raises(ConformanceError) as err:
        check_fingerprint_complete(states(project)[0])
    assert "legal_cache" in str(err.value) and "order" not in str(err.value)


def test_observation_leaking_hidden_orders_fails(project, toy):
    toy(Flags(hide_orders=False))
    with pytest.raises(ConformanceError, match="changes when hidden parts are scrambled"):
        check_observation_private(states(project)[0], 0)


def test_observation_leaking_dice_fails(project, toy):
    toy(Flags(reseed_dice=False))
    with pytest.raises(ConformanceError, match="reproduce the real next rolls"):
        check_observation_private(states(project)[0], 1)


class CloneLeak(AlphaState):
    """An observation that hides orders but whose clone() gives the real state back."""

    def observation(self, player):
        view = super().observation(player)
        view.__dict__["real"] = self
        return view

    def clone(self):
        real = self.__dict__.get("real")
        if real is not None:
            return AlphaState.clone(real)  # the real state, hidden orders and dice included
        base = AlphaState.clone(self)
        return CloneLeak(base.game, base.dice, base.units, base.turn, base.phase, base.player)


def test_observation_whose_clone_leaks_fails(project, toy):
    toy()
    state = states(project)[0]
    leaky = CloneLeak(state.game, state.dice.clone(), state.units, state.turn, state.phase, state.player)
    with pytest.raises(ConformanceError, match="clone of observation"):
        check_observation_private(leaky, 0)


def test_phase_ids(project, toy):
    toy()
    game = load_game("clash", project).game
    check_phase_ids(game)
    with pytest.raises(NotDeclared):
        check_phase_ids(RaceGame())          # no PhaseSpec ids reported by its states

    class Wrong(AlphaState):
        def phase_id(self):
            return "melee"

    base = game.new_initial_state
    game.new_initial_state = lambda seed: Wrong(**{f.name: getattr(base(seed), f.name)
                                                   for f in dataclasses.fields(AlphaState)})
    with pytest.raises(ConformanceError, match="'melee'"):
        check_phase_ids(game)


def test_not_declared_is_reported_not_crashed(project):
    plugin = alpha_plugin(Flags(), None)
    try:
        game = RaceGame()
        report = conformance.run_all(game, plugin, project)
        assert report["terminal_has_no_actions"] is None
        for name in ("options_real", "environment_real", "fingerprint_complete", "observation_private",
                     "phase_ids"):
            assert report[name].startswith("not declared: "), (name, report[name])
        assert report["tables_real"] is None or report["tables_real"].startswith("not declared")
    finally:
        registry.unregister("alpha")


class SlotRecord:
    __slots__ = ("hexes", "marks", "seen", "pairs", "flags", "cache")

    def __init__(self):
        self.hexes, self.marks, self.seen = [3, 4], {"a": 1}, {5}
        self.pairs, self.flags, self.cache = ((1, 2), (3, 4)), [True], None


class SlotState(State):
    """A __slots__ state with nested containers; its fingerprint leaves out ``seen`` and ``inner.marks``."""

    __slots__ = ("game", "dice", "turn", "inner", "seen", "ended")
    DERIVED_SLOTS = {"inner.cache": "memo"}

    def __init__(self):
        self.game, self.dice, self.turn, self.inner, self.seen, self.ended = RaceGame(), Dice(1), 1, SlotRecord(), \
            frozenset({1}), False

    def clone(self):
        other = SlotState()
        other.dice, other.turn, other.seen, other.ended = self.dice.clone(), self.turn, self.seen, self.ended
        other.inner = SlotRecord()
        for name in SlotRecord.__slots__:
            setattr(other.inner, name, getattr(self.inner, name))
        return other

    def fingerprint(self):
        i = self.inner
        return f"{self.turn}|{i.hexes}|{i.seen}|{i.pairs}|{i.flags}|{self.ended}|{self.dice.fingerprint()}"

    current_player = legal_actions = apply = outcome = lambda self, *a: None


def test_perturber_walks_slots_nested_records_and_containers():
    with pytest.raises(ConformanceError) as err:
        check_fingerprint_complete(SlotState())
    listed = str(err.value).split("\n  ")[1:]
    assert sorted(listed) == ["inner.marks", "seen"]


def test_seeded_from_gives_view_dice():
    def rolls(text):
        dice = Dice.seeded_from(text)
        return [dice.roll(1000) for _ in range(6)]

    assert rolls("visible|1") == rolls("visible|1")
    assert rolls("visible|1") != rolls("visible|2")
    assert Dice.seeded_from("x", record=False).record is False


def test_slot_that_clone_drops_is_reported():
    class Dropping(SlotState):
        __slots__ = ("extra",)

        def __init__(self):
            super().__init__()
            self.extra = 3

        def fingerprint(self):
            return super().fingerprint() + f"|{getattr(self, 'extra', '-')}"

    state = Dropping()
    state.clone = lambda: SlotState.clone(state)  # noqa: E731 - a clone without 'extra'
    with pytest.raises(ConformanceError, match=r"extra \(clone\(\) does not copy it\)"):
        check_fingerprint_complete(state)


def test_modules_import_in_any_order():
    import subprocess

    for first in ("studio.rules.conformance_data", "studio.rules.conformance", "studio.rules.position"):
        code = f"import {first}; import studio.rules.conformance as c; assert c.Probe and c.ConformanceError"
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]


def test_booleans_are_flipped_only_on_request(project, toy):
    """A boolean column of an engine table the toy never reads: invisible to the contract's numeric
    perturbation, reported when ``booleans=True``."""
    from studio.model.requirements import TableSpec
    from toyalpha import HIT_TABLE

    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    ruleset.write_text(text.replace("columns: [range, hit]", "columns: [range, hit, long]")
                       .replace("- [1, 8]", "- [1, 8, false]").replace("- [2, 7]", "- [2, 7, true]"),
                       encoding="utf-8")
    plugin = toy()
    plugin.engine_tables = (TableSpec("hit", HIT_TABLE.rule, ("range", "hit", "long"), HIT_TABLE.numeric,
                                      HIT_TABLE.integer, keys=HIT_TABLE.keys),)
    check_tables_read(plugin, project)
    with pytest.raises(ConformanceError, match="hit:0:long"):
        check_tables_read(plugin, project, booleans=True)


def test_an_engine_refusing_perturbed_data_has_read_it(project, toy, monkeypatch):
    from studio.rules.load import ScenarioRefused
    from toyalpha import AlphaGame

    original = AlphaGame.__init__

    def strict(self, scenario, index, options, flags=Flags()):
        original(self, scenario, index, options, flags)
        if self.hit.get(2) != 7:
            raise ScenarioRefused("hit of range 2 must be 7 here")

    monkeypatch.setattr(AlphaGame, "__init__", strict)
    check_tables_read(toy(), project)


def test_checks_use_the_given_plugin_not_the_registry(project, toy):
    """A plugin whose factory drops the options (a copy of the registered, sound one) fails the options check:
    every game of the check comes from the plugin under test."""
    sound = toy()
    deaf = dataclasses.replace(sound, game_factory=lambda scenario, index, options: sound.game_factory(
        scenario, index, {}))
    check_options_real(sound, project)
    with pytest.raises(ConformanceError, match="option 'edge-los'"):
        check_options_real(deaf, project)
