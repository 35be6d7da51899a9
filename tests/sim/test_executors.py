"""Same report whatever runs the games (this process, 2 local processes, a 2-worker Dask LocalCluster), a lost
worker's games played again with the same result, progress from the first games, cancel that keeps the
finished games."""
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from simhelp import strip
from studio.sim.runner import run_games
from studio.sim.executors import ProcessBackend

GAMES = 12


def test_jobs_1_and_2_give_the_same_report(meeting):
    a = run_games(meeting, GAMES, seed=4, bots=["random", "random"], jobs=1)
    b = run_games(meeting, GAMES, seed=4, bots=["random", "random"], jobs=2)
    assert a.executor == "local" and b.executor == "processes"
    assert strip(a.to_json()) == strip(b.to_json()) and a.games == GAMES
    assert [r.final_hash for r in a.results] == [r.final_hash for r in b.results]


def _kill_one_worker_after_first_games(backends: list, seen: list) -> threading.Thread:
    def kill():
        deadline = time.monotonic() + 60
        while (not seen or not backends) and time.monotonic() < deadline:
            time.sleep(0.005)
        pids = backends[0].pids() if backends else []
        if pids:
            os.kill(pids[0], signal.SIGKILL)
    t = threading.Thread(target=kill, daemon=True)
    t.start()
    return t


def test_a_killed_local_worker_process_is_replaced_and_its_games_replayed(meeting, monkeypatch):
    backends, seen = [], []
    original = ProcessBackend.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        backends.append(self)
    monkeypatch.setattr(ProcessBackend, "__init__", spy)
    killer = _kill_one_worker_after_first_games(backends, seen)
    report = run_games(meeting, 40, seed=6, bots=["random", "random"], jobs=2,
                       progress=lambda done, total: seen.append(done))
    killer.join()
    reference = run_games(meeting, 40, seed=6, bots=["random", "random"], jobs=1)
    assert report.restarts >= 1, "the pool was broken by the kill and started again"
    assert strip(report.to_json()) == strip(reference.to_json()) and report.games == 40


def test_progress_starts_with_the_first_game_and_cancel_keeps_finished_games(meeting):
    seen = []
    cancel = threading.Event()

    def progress(done, total):
        seen.append(done)
        if done >= 5:
            cancel.set()
    report = run_games(meeting, 2000, seed=2, bots=["random", "random"], jobs=2, progress=progress,
                       cancel=cancel)
    assert seen[0] <= 4, "progress is reported per game, not per batch of 50"
    assert report.cancelled and 5 <= report.games < 2000
    assert report.games >= max(seen), "every finished game is reported"
    assert "all reported" in report.format_text()


distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0",
                                  silence_logs=50) as cl, distributed.Client(cl) as client:
        yield cl, client


def test_dask_cluster_gives_the_same_report_as_local_play(meeting, cluster):
    _, client = cluster
    local = run_games(meeting, GAMES, seed=4, bots=["random", "random"], jobs=1)
    remote = run_games(meeting, GAMES, seed=4, bots=["random", "random"], scheduler=client)
    assert remote.executor == "dask"
    assert strip(remote.to_json()) == strip(local.to_json())


def test_dask_worker_killed_mid_run_same_result(meeting, cluster):
    cl, client = cluster
    seen = []

    def kill():
        while not seen:
            time.sleep(0.005)
        worker = next(iter(cl.workers.values()))
        os.kill(worker.process.pid, signal.SIGKILL)      # the nanny starts a new worker
    t = threading.Thread(target=kill, daemon=True)
    t.start()
    remote = run_games(meeting, 40, seed=8, bots=["random", "random"], scheduler=client,
                       progress=lambda done, total: seen.append(done))
    t.join()
    local = run_games(meeting, 40, seed=8, bots=["random", "random"], jobs=1)
    assert strip(remote.to_json()) == strip(local.to_json()) and remote.games == 40


def test_dask_cancel_keeps_finished_games(meeting, cluster):
    _, client = cluster
    cancel = threading.Event()

    def progress(done, total):
        if done >= 3:
            cancel.set()
    report = run_games(meeting, 3000, seed=1, bots=["random", "random"], scheduler=client, progress=progress,
                       cancel=cancel)
    assert report.cancelled and 3 <= report.games < 3000


def test_dask_replays_are_written_by_the_machine_that_started_the_run(meeting, cluster, tmp_path):
    from studio.rules.replay import verify

    _, client = cluster
    report = run_games(meeting, 3, seed=5, bots=["random", "random"], scheduler=client, replay_dir=tmp_path)
    files = sorted(tmp_path.glob("*.replay.json"))
    assert sorted(Path(p).name for p in report.replay_files.values()) == [f.name for f in files] and len(files) == 3
    assert verify(files[0], meeting.project).status == "ok"
