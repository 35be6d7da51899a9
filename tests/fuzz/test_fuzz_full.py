"""The full fuzz run (``pytest -m fuzz -s``): the whole corpus through every entry point, the run-time hostile
inputs, and Hypothesis mutants of every sample document, ruleset, scenario, Tiled map, replay and autosave.

At least 10,000 cases (``FUZZ_CASES``, default 10,500 mutants' worth; ``FUZZ_SEED`` fixes the Hypothesis seed).
Prints a table of outcomes per entry point and every distinct failure with its reproducer folder (under the
pytest temporary directory; use ``--basetemp DIR`` to keep it from other sessions' clean-up); fails when there
is any failure.
"""
from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import campaign
import corpus
import generated
from harness import Runner, Workspace

pytestmark = pytest.mark.fuzz

MIN_CASES = 10_000


def test_fuzz_everything(tmp_path_factory):
    seed = int(os.environ.get("FUZZ_SEED") or random.randrange(2 ** 32))
    budget = int(os.environ.get("FUZZ_CASES", "10500"))
    findings = tmp_path_factory.mktemp("fuzz-findings")
    # the workspace lives in a private folder: other pytest sessions prune old numbered pytest-of-* folders
    private = Path(tempfile.mkdtemp(prefix="studio-fuzz-"))
    try:
        _run(Runner(Workspace(private / "ws" / "base"), findings), seed, budget, findings)
    finally:
        shutil.rmtree(private, ignore_errors=True)


def _run(runner: Runner, seed: int, budget: int, findings: Path) -> None:
    started = time.perf_counter()
    timings = {}

    mark = time.perf_counter()
    for item in corpus.items():
        runner.run_chain(corpus.item_cases(item, runner.ws.pristine_bytes, full=True))
    for case in generated.special_document_cases() + generated.special_input_cases():
        runner.run(case)
    timings["corpus and generated"] = time.perf_counter() - mark

    # the mutants fill the rest of the budget: about 1.6 cases per mutant
    remaining = max(0, budget - runner.totals()["cases"])
    mutants = int(remaining / 1.6) + 1
    for name, (family, share) in campaign.FAMILIES.items():
        mark = time.perf_counter()
        family(runner, max(10, int(mutants * share)), seed=seed)
        timings[name] = time.perf_counter() - mark

    total = runner.totals()
    print(f"\n\nfuzz run: seed {seed}, {total['cases']} cases in {time.perf_counter() - started:.0f} s "
          f"({', '.join(f'{k} {v:.0f} s' for k, v in timings.items())})")
    if runner.ws.base_replay_note:
        print(f"note: {runner.ws.base_replay_note}")
    print(runner.table())
    if runner.seen:
        print(f"\n{len(runner.seen)} distinct failure(s) ({total['failure']} failing cases); reproducers in "
              f"{findings}:")
        print(runner.failure_report())
    assert total["cases"] >= MIN_CASES or budget < MIN_CASES, f"only {total['cases']} cases ran"
    assert total["failure"] == 0, f"{len(runner.seen)} distinct failure(s), see the report above"
