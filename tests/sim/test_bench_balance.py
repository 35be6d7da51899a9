"""Benchmark (``pytest -m bench -s tests/sim/test_bench_balance.py``): engine steps per second of a balance run
played locally (1 and 2 processes) and on a 2-worker Dask LocalCluster, each beside the python-chess anchor of
the same run. No timed assertion; the reports must be equal (timing aside)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

GAMES = 200


@pytest.mark.bench
def test_bench_balance_executors(meeting):
    from anchor import anchor, report

    from simhelp import strip
    from studio.sim.runner import run_games

    ref = anchor()
    runs = {}
    for label, kwargs in (("local 1 process", {"jobs": 1}), ("local 2 processes", {"jobs": 2})):
        runs[label] = run_games(meeting, GAMES, seed=1, bots=["random", "random"], **kwargs)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0",
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        runs["dask 2 workers"] = run_games(meeting, GAMES, seed=1, bots=["random", "random"], scheduler=client)
    for label, r in runs.items():
        report(f"balance run, {GAMES} games, {label}", r.steps / r.elapsed_s, ref, "engine steps/s")
        assert r.elapsed_s > 0
    first = strip(next(iter(runs.values())).to_json())
    assert all(strip(r.to_json()) == first for r in runs.values())
