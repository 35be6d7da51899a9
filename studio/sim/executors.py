"""Where the games of a run are played: this process, local worker processes, any ``concurrent.futures``
executor, or a Dask cluster (``distributed``, the optional ``cluster`` extra, imported only when asked for).

Every backend takes batches of games (indices and their seeds) and hands back ``(GameResult, replay)`` pairs in
any order; :func:`studio.sim.runner.run_games` merges them in game order. Workers rebuild the game from a
*recipe* (an object with ``load()``: :class:`studio.rules.load.GameSpec` for local processes, a serialized
:class:`studio.sim.bundle.Bundle` for Dask, so no shared filesystem is assumed), once per worker process.

Lost workers: a local process that dies breaks the pool; the pool is started again and the unfinished batches
are submitted again (at most ``MAX_ATTEMPTS`` times each). On Dask the scheduler re-runs a dead worker's tasks
itself; a task it gives up on (``KilledWorker``) is submitted again the same way. Games are seeded by their
number, so a re-run game gives the same result.
"""
from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .runner import play_batch

MAX_ATTEMPTS = 3
#: how long to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = "20s"
_LOADED: dict[Any, Any] = {}


def _recipe_key(recipe) -> Any:
    digest = getattr(recipe, "digest", None)
    return digest if isinstance(digest, str) else recipe


def _load(recipe):
    key = _recipe_key(recipe)
    hit = _LOADED.get(key)
    if hit is None:
        if len(_LOADED) > 8:
            _LOADED.clear()
        hit = _LOADED[key] = recipe.load()
    return hit


def _init_worker(recipe) -> None:
    _load(recipe)


def recipe_batch(recipe, indices, seeds, bots, replays) -> list:
    """Worker entry point: play a batch of the game ``recipe`` builds (built once per worker process)."""
    return play_batch(_load(recipe), list(indices), list(seeds), list(bots), replays)


class SerialBackend:
    """Plays in the calling thread, one batch per ``collect`` (cancel is checked between games)."""

    name = "local"

    def __init__(self, loaded):
        self.loaded = loaded
        self.chunk = 1
        self.workers = 1
        self.restarts = 0
        self.reported = 0
        self.pending: list[tuple] = []

    def busy(self) -> bool:
        return bool(self.pending)

    def has_room(self) -> bool:
        return not self.pending

    def submit(self, indices, seeds, bots, replays) -> None:
        self.pending.append((indices, seeds, bots, replays))

    def collect(self, timeout: float) -> list:
        if not self.pending:
            return []
        indices, seeds, bots, replays = self.pending.pop(0)
        return play_batch(self.loaded, indices, seeds, bots, replays)

    def cancel_all(self) -> None:
        self.pending.clear()

    def close(self) -> None:
        pass


class FuturesBackend:
    """Batches as futures of an executor (``submit(fn, *args)``); failed batches are submitted again."""

    name = "executor"

    def __init__(self, executor, recipe, workers: int, games: int):
        self.executor = executor
        self.recipe = recipe
        self.workers = max(1, workers)
        self.chunk = max(1, min(8, games // (self.workers * 16) or 1))
        self.room = self.workers * 3
        self.pending: dict[Any, tuple] = {}
        self.restarts = 0
        self.reported = 0

    def busy(self) -> bool:
        return bool(self.pending)

    def has_room(self) -> bool:
        return len(self.pending) < self.room

    def _submit(self, args: tuple):
        return self.executor.submit(recipe_batch, self.recipe, *args)

    def submit(self, indices, seeds, bots, replays, attempts: int = 0) -> None:
        args = (list(indices), list(seeds), list(bots), replays)
        self.pending[self._submit(args)] = (args, attempts)

    def _done(self, timeout: float) -> set:
        done, _ = wait(list(self.pending), timeout=timeout, return_when=FIRST_COMPLETED)
        return set(done)

    def _recoverable(self, exc: BaseException) -> bool:
        return isinstance(exc, BrokenProcessPool) or type(exc).__name__ in ("KilledWorker", "CancelledError")

    def _restart(self) -> None:
        """Start a fresh pool after a worker was lost (backends with a pool override)."""

    def collect(self, timeout: float) -> list:
        if not self.pending:
            return []
        out, retry = [], []
        for fut in self._done(timeout):
            args, attempts = self.pending.pop(fut)
            try:
                out.extend(fut.result())
            except BaseException as exc:  # noqa: BLE001 - a lost worker: play its games again
                if not self._recoverable(exc) or attempts + 1 >= MAX_ATTEMPTS:
                    raise
                retry.append((args, attempts + 1))
        if retry:
            self._restart()
            for args, attempts in retry:
                self.submit(*args, attempts=attempts)
        return out

    def cancel_all(self) -> None:
        for fut in self.pending:
            fut.cancel()
        self.pending.clear()

    def close(self) -> None:
        self.cancel_all()


class ProcessBackend(FuturesBackend):
    """``jobs`` local worker processes (each builds the game once from the recipe)."""

    name = "processes"

    def __init__(self, recipe, jobs: int, games: int):
        super().__init__(None, recipe, jobs, games)
        self.executor = self._pool()

    def _pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, initializer=_init_worker, initargs=(self.recipe,))

    def _submit(self, args: tuple):
        return self.executor.submit(recipe_batch, self.recipe, *args)

    def _restart(self) -> None:
        if getattr(self.executor, "_broken", False):
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._pool()
            self.restarts += 1
            # the surviving batches of the broken pool failed too: they are among the pending futures
            broken = [(f, v) for f, v in self.pending.items()]
            self.pending.clear()
            for fut, (args, attempts) in broken:
                fut.cancel()
                self.pending[self._submit(args)] = (args, attempts)

    def pids(self) -> list[int]:
        return [p.pid for p in (getattr(self.executor, "_processes", None) or {}).values()]

    def cancel_all(self) -> None:
        """Stop at once: queued batches are dropped and the pool is shut down without waiting (a worker busy
        with a batch, at most ``chunk`` games, ends it in the background; its results are not used)."""
        super().cancel_all()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self.pending:
            self.cancel_all()
        else:
            self.executor.shutdown(wait=True)


class DaskBackend(FuturesBackend):
    """The games of a run as tasks on a Dask cluster; the bundle is scattered to every worker once."""

    name = "dask"

    def __init__(self, scheduler, recipe, games: int):
        try:
            import distributed
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise RuntimeError("a Dask scheduler needs the 'cluster' extra: pip install -e '.[cluster]'") from exc
        self.own = not isinstance(scheduler, distributed.Client)
        self.client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT) if self.own else scheduler
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        super().__init__(None, recipe, workers, games)
        self.room = max(8, workers * 3)
        self.shared = self.client.scatter(recipe, broadcast=True, hash=False)

    def _submit(self, args: tuple):
        return self.client.submit(recipe_batch, self.shared, *args, pure=False)

    def _done(self, timeout: float) -> set:
        deadline = time.monotonic() + timeout
        while True:
            done = {f for f in self.pending if f.done()}
            if done or time.monotonic() >= deadline:
                return done
            time.sleep(0.02)

    def cancel_all(self) -> None:
        if self.pending:
            self.client.cancel(list(self.pending))
        self.pending.clear()

    def close(self) -> None:
        self.cancel_all()
        if self.own:
            self.client.close()


def choose_backend(loaded, *, jobs: int = 1, executor=None, scheduler=None, recipe=None, games: int = 1):
    """The backend for a run (see :func:`studio.sim.runner.run_games` for the order of preference)."""
    if scheduler is not None:
        from .bundle import Bundle

        return DaskBackend(scheduler, recipe if recipe is not None else Bundle.from_loaded(loaded), games)
    if executor is not None:
        workers = getattr(executor, "_max_workers", 2) or 2
        return FuturesBackend(executor, recipe if recipe is not None else loaded.spec, workers, games)
    if jobs > 1 and games > 1:
        return ProcessBackend(recipe if recipe is not None else loaded.spec, jobs, games)
    if recipe is not None and getattr(loaded, "game", None) is None:
        loaded = _load(recipe)
    return SerialBackend(loaded)
