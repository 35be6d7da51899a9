"""Fuzz campaigns: Hypothesis draws mutants of the workspace's sample documents and inputs, the runner runs them
through the entry points, new failures are shrunk (ops dropped one by one) before their reproducer is saved.

Families (each ``family(runner, n, seed)`` runs about ``n`` mutants):

- ``documents``: structural mutants of every sample document -> validate --format json, format --check, map info
  for maps, and every third one the session (open + validate);
- ``text``: textual mutants (bytes) of every sample document -> validate --format json, format --check;
- ``rulesets``: structural mutants of both rulesets, mostly in their tables -> project validation, and when it is
  clean, ``play --games 2`` of a scenario of that ruleset ("valid for validation, then played");
- ``scenarios``: structural mutants of every scenario -> map info, project validation, then play when clean;
- ``positions``: mutants of a WaW position document -> validate, ``play --from`` it;
- ``tiled``: structural and textual mutants of the sample board exported to Tiled -> map import;
- ``replays``: structural and textual mutants of a recorded replay -> replay (CLI, JSON) and replay.verify;
- ``autosaves``: mutants of a unit card written as its autosave -> session recovery, and every fourth one the
  window's start-up recovery (``offer_recovery``).
"""
from __future__ import annotations

import json
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

import corpus
import mutators
from harness import (FAILURE, Case, Runner, import_case, map_info_case, play_case, project_validate_case,
                     play_scenario, recovery_case, replay_cli_case, replay_verify_case, ruleset_of, session_case,
                     validate_cases, window_recovery_case)

Build = Callable[[bytes, str], list[Case]]


def _settings(n: int, derandomize: bool):
    return settings(max_examples=n, deadline=None, database=None, derandomize=derandomize,
                    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
                    report_multiple_bugs=False)


def run_mutant(runner: Runner, mutant: mutators.Mutant, build: Build) -> None:
    """Run the cases of one mutant; shrink each new failure to the fewest ops that still give it."""
    outcomes = runner.run_chain(build(mutant.content, mutant.describe()))
    for outcome in outcomes:
        if not runner.is_new(outcome) or len(mutant.ops) < 2:
            continue
        signature = outcome.signature

        def still_fails(ops: list, signature=signature) -> bool:
            found = runner.run_chain(build(mutant.render(ops), mutant.describe(ops)), count=False)
            return any(o.kind == FAILURE and o.signature == signature for o in found)

        smallest = mutant.shrink(still_fails)
        if smallest != mutant.ops:
            cases = build(mutant.render(smallest), mutant.describe(smallest))
            case = _case_for(cases, signature[0])
            if case is not None:
                runner.replace_reproducer(case, outcome, mutant.describe(smallest) + " (shrunk)")


def _case_for(cases: list[Case], entry: str) -> Case | None:
    for case in cases:
        if case.entry == entry:
            return case
        found = _case_for(case.then, entry)
        if found:
            return found
    return None


def _run_family(runner: Runner, n: int, seed: int | None, derandomize: bool,
                draw_mutant: Callable[[Any], tuple[mutators.Mutant, Build]]) -> None:
    @_settings(n, derandomize)
    @given(st.data())
    def family(data):
        mutant, build = draw_mutant(data)
        run_mutant(runner, mutant, build)

    if seed is not None and not derandomize:
        family = hypothesis_seed(seed)(family)
    family()


# ------------------------------------------------------------------ samples

class Samples:
    """The workspace's pristine documents, parsed once."""

    def __init__(self, runner: Runner):
        ws = runner.ws
        self.raw: dict[str, bytes] = {rel: data for rel, data in ws.pristine_bytes.items()
                                      if rel.startswith("project/") and rel.endswith(".yaml")}
        self.data = {rel: corpus.load_yaml(raw) for rel, raw in self.raw.items()}
        self.rulesets = sorted(r for r in self.raw if "/rulesets/" in r)
        self.scenarios = sorted(r for r in self.raw if "/scenarios/" in r)
        self.documents = sorted(self.raw)
        self.tiled = json.loads(ws.pristine_bytes[corpus.TILED_BASE])
        self.tiled_raw = ws.pristine_bytes[corpus.TILED_BASE]
        self.replay = json.loads(ws.pristine_bytes[corpus.REPLAY_BASE])
        self.replay_raw = ws.pristine_bytes[corpus.REPLAY_BASE]


def _structural(data, rel: str, source_data: Any, header: str, focus: tuple = (), max_ops: int = 3):
    ops = data.draw(mutators.op_lists(source_data, focus, max_ops), label="ops")
    return mutators.Mutant(mutators.yaml_renderer(source_data, header), ops, f"{rel} (structural)")


def _textual(data, rel: str, raw: bytes):
    ops = data.draw(mutators.text_op_lists(), label="text ops")
    return mutators.Mutant(mutators.text_renderer(raw), ops, f"{rel} (text)")


def _doc_build(rel: str, session: bool) -> Build:
    def build(content: bytes, label: str) -> list[Case]:
        files = {rel: content}
        cases = validate_cases(rel, label, files, entries=("validate-json", "format-check"))
        if "/maps/" in rel:
            cases.append(map_info_case(label, files, rel))
        return cases + ([session_case(label, files, rel)] if session else [])
    return build


def _played_build(rel: str, scenario_rel: str) -> Build:
    """Project validation; when clean, two games of ``scenario_rel`` with random bots."""
    def build(content: bytes, label: str) -> list[Case]:
        files = {rel: content}
        gate = project_validate_case(label, files)
        gate.then = [play_case(label, files, scenario_rel)]
        return [gate] + ([map_info_case(label, files, rel)] if rel == scenario_rel else [])
    return build


# ------------------------------------------------------------------ families

def documents(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)
    counter = {"n": 0}

    def draw(data):
        rel = data.draw(st.sampled_from(s.documents), label="document")
        mutant = _structural(data, rel, s.data[rel], corpus.header_of(s.raw[rel]))
        counter["n"] += 1
        return mutant, _doc_build(rel, session=counter["n"] % 3 == 0)

    _run_family(runner, n, seed, derandomize, draw)


def text(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)

    def draw(data):
        rel = data.draw(st.sampled_from(s.documents), label="document")
        return _textual(data, rel, s.raw[rel]), _doc_build(rel, session=False)

    _run_family(runner, n, seed, derandomize, draw)


def rulesets(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)

    def draw(data):
        rel = data.draw(st.sampled_from(s.rulesets), label="ruleset")
        focus = data.draw(st.sampled_from([("tables",)] * 4 + [("terrain",), ("los",), ("options",),
                                                                ("elevation",), ()]), label="focus")
        mutant = _structural(data, rel, s.data[rel], corpus.header_of(s.raw[rel]), focus, max_ops=2)
        scenario = "project/" + play_scenario(ruleset_of(rel))
        return mutant, _played_build(rel, scenario)

    _run_family(runner, n, seed, derandomize, draw)


def scenarios(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)

    def draw(data):
        rel = data.draw(st.sampled_from(s.scenarios), label="scenario")
        mutant = _structural(data, rel, s.data[rel], corpus.header_of(s.raw[rel]), max_ops=2)
        return mutant, _played_build(rel, rel)

    _run_family(runner, n, seed, derandomize, draw)


def _json_mutant(data, source: Any, raw: bytes, name: str) -> mutators.Mutant:
    if data.draw(st.integers(0, 3), label="textual?") == 0:
        return _textual(data, name, raw)
    ops = data.draw(mutators.op_lists(source, (), 3), label="ops")
    return mutators.Mutant(mutators.json_renderer(source), ops, f"{name} (structural)")


def tiled(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)

    def build(content: bytes, label: str) -> list[Case]:
        return [import_case(label, {corpus.TILED_INPUT: content}, corpus.TILED_INPUT)]

    _run_family(runner, n, seed, derandomize,
                lambda data: (_json_mutant(data, s.tiled, s.tiled_raw, "board-2 exported to Tiled"), build))


def replays(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)

    def build(content: bytes, label: str) -> list[Case]:
        files = {corpus.REPLAY_INPUT: content}
        return [replay_cli_case(label, files, corpus.REPLAY_INPUT),
                replay_verify_case(label, files, corpus.REPLAY_INPUT)]

    _run_family(runner, n, seed, derandomize,
                lambda data: (_json_mutant(data, s.replay, s.replay_raw, "a recorded replay"), build))


def autosaves(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    s = Samples(runner)
    rel = "project/" + corpus.AUTOSAVE_TARGET
    side = "project/" + corpus.AUTOSAVE_SIDE

    counter = {"n": 0}

    def build(content: bytes, label: str) -> list[Case]:
        cases = [recovery_case(label, {side: content}, {side: 10.0})]
        if counter["n"] % 4 == 0:  # every fourth through the window's start-up recovery too
            cases.append(window_recovery_case(label, {side: content}, {side: 10.0}))
        return cases

    def draw(data):
        counter["n"] += 1
        if data.draw(st.booleans(), label="textual?"):
            mutant = _textual(data, rel + " as its autosave", s.raw[rel])
        else:
            mutant = _structural(data, rel + " as its autosave", s.data[rel], corpus.header_of(s.raw[rel]))
        return mutant, build

    _run_family(runner, n, seed, derandomize, draw)


def positions(runner: Runner, n: int, seed: int | None = None, derandomize: bool = False) -> None:
    """Structural and textual mutants of a WaW position -> validate, then ``play --from`` (2 games)."""
    raw = corpus.POSITION_BASE.encode()
    data_ = corpus.load_yaml(raw)

    def draw(data):
        if data.draw(st.integers(0, 3), label="textual?") == 0:
            mutant = _textual(data, "a WaW position", raw)
        else:
            mutant = _structural(data, "a WaW position", data_, "", max_ops=2)
        return mutant, lambda content, label: corpus.position_cases(label, content)

    _run_family(runner, n, seed, derandomize, draw)


#: family -> share of the mutants of a run (the fuzz run multiplies by its total)
FAMILIES: dict[str, tuple[Callable, float]] = {
    "documents": (documents, 0.25), "text": (text, 0.17), "rulesets": (rulesets, 0.14),
    "scenarios": (scenarios, 0.08), "positions": (positions, 0.05), "tiled": (tiled, 0.12),
    "replays": (replays, 0.11), "autosaves": (autosaves, 0.08),
}
