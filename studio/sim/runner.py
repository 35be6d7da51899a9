"""Seeded playouts and the N-game balance runner.

``play_game(game, seed, bots)`` plays one game: side ``i`` is played by ``bots[i]`` (names, see ``bots``), each
bot is seeded from the game seed, and chance nodes (``State.current_player() == CHANCE``, if a ruleset uses
them; their outcomes come from ``State.chance_outcomes() -> [(action, probability)]``) are sampled with a seeded
generator. Engine exceptions are caught and returned as ``GameResult.error``.

``run_games(loaded, n, seed, bots, jobs)`` derives game ``i``'s seed from the master seed (``derive_seed``), runs
the games in ``jobs`` worker processes (``concurrent.futures.ProcessPoolExecutor``; each worker rebuilds the game
once from the picklable ``GameSpec``) and aggregates the results in game order, so the same seed gives the same
report whatever ``jobs`` is. ``progress(done, total)`` is called as games finish; ``cancel`` (a
``threading.Event`` or a callable returning True) stops the run early and the report says ``cancelled``.
"""
from __future__ import annotations

import hashlib
import random
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Sequence

from studio.rules.api import CHANCE, Game

from .bots import make_bot
from .report import BalanceReport, GameResult

Progress = Callable[[int, int], None]


def derive_seed(master: int, *parts: Any) -> int:
    """A 63-bit seed derived from ``master`` and ``parts`` (stable across processes and platforms).

    >>> derive_seed(1, 0) == derive_seed(1, 0), derive_seed(1, 0) == derive_seed(1, 1)
    (True, False)
    """
    text = "/".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def _cancelled(cancel) -> bool:
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    return bool(is_set() if callable(is_set) else cancel())


def play_game(game: Game, seed: int, bots: Sequence[str], *, index: int = 0, record: bool = False,
              max_steps: int = 200_000) -> tuple[GameResult, Any]:
    """Play one game to the end; returns ``(result, final_state)`` (state None after an engine error)."""
    result = GameResult(index=index, seed=seed, bots=tuple(bots))
    actions: list[str] | None = [] if record else None
    state = None
    try:
        players = [make_bot(name, game, side, derive_seed(seed, "bot", side)) for side, name in enumerate(bots)]
        chance = random.Random(derive_seed(seed, "chance"))
        state = game.new_initial_state(seed)
        steps = 0
        while True:
            player = state.current_player()
            if player < 0 and player != CHANCE:
                break  # terminal
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                r, acc = chance.random(), 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        action = a
                        break
            else:
                legal = state.legal_actions()
                action = players[player].choose(state.observation(player), legal)
            if actions is not None:
                actions.append(str(action))
            state.apply(action)
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"game did not end within {max_steps} steps")
        out = state.outcome()
        result.winner, result.victory_points, result.turn = out.winner, list(out.victory_points), out.turn
        result.losses, result.reason, result.steps = list(out.losses), out.reason, steps
        result.final_hash = state.state_hash()
    except Exception:  # noqa: BLE001 - an engine error is a finding of the run
        result.error = traceback.format_exc()
        result.steps = locals().get("steps", 0)
    result.actions = actions
    return result, state


# ------------------------------------------------------------------ worker side

_WORKER: dict[str, Any] = {}


def _init_worker(spec) -> None:
    _WORKER["loaded"] = spec.load()
    _WORKER["spec"] = spec


def _play_batch_spec(spec, indices, seeds, bots, replay_dir) -> list[GameResult]:
    """Batch entry point for executors without an initializer (e.g. a Dask client's executor)."""
    if _WORKER.get("spec") != spec:
        _init_worker(spec)
    return _play_batch(indices, seeds, bots, replay_dir)


def _play_batch(indices: list[int], seeds: list[int], bots: list[str], replay_dir: str | None,
                loaded=None) -> list[GameResult]:
    loaded = loaded if loaded is not None else _WORKER["loaded"]
    out = []
    for i, seed in zip(indices, seeds):
        game_bots = list(bots)
        result, state = play_game(loaded.game, seed, game_bots, index=i, record=replay_dir is not None)
        if replay_dir is not None and result.actions is not None and state is not None:
            from studio.rules.replay import record, write_replay

            stem = Path(loaded.path).name.split(".")[0]
            write_replay(Path(replay_dir) / f"{stem}-{i:05d}.replay.json",
                         record(loaded, seed, result.actions, state, game_bots))
        result.actions = None
        out.append(result)
    return out


def _collect(pending: set, results: dict, games: int, progress, cancel) -> bool:
    """Gather finished batches into ``results`` (reporting progress) until all are done or the run is
    cancelled; returns whether it was cancelled (pending batches are then cancelled)."""
    while pending:
        done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        for fut in done:
            for r in fut.result():
                results[r.index] = r
        if done and progress:
            progress(len(results), games)
        if _cancelled(cancel):
            for fut in pending:
                fut.cancel()
            return True
    return False


def run_games(loaded, games: int, seed: int = 0, bots: Sequence[str] = ("random", "random"), *, jobs: int = 1,
              progress: Progress | None = None, cancel=None, replay_dir: str | Path | None = None,
              executor=None) -> BalanceReport:
    """Play ``games`` seeded games of ``loaded`` (a :class:`studio.rules.load.LoadedGame`).

    ``executor``: any ``concurrent.futures.Executor`` to use instead of local processes (for a Dask cluster:
    ``distributed.Client(address).get_executor()``); the game is rebuilt on each worker from ``loaded.spec``.
    """
    game = loaded.game
    bots = list(bots)
    if len(bots) != len(game.sides):
        raise ValueError(f"{len(game.sides)} bots needed (one per side: {', '.join(game.sides)}), got {len(bots)}")
    for side, name in enumerate(bots):
        make_bot(name, game, side, 0)  # unknown names fail before any game starts
    report = BalanceReport(scenario=game.scenario_id, ruleset=game.ruleset_id,
                           ruleset_version=loaded.ruleset_version, sides=list(game.sides), seed=seed, bots=bots,
                           placeholder_tables=list(dict.fromkeys(loaded.placeholder_tables)),
                           environment_rules=[str(r) for r in getattr(game, "environment_rules_applied", ()) or ()],
                           games_requested=games)
    seeds = [derive_seed(seed, "game", i) for i in range(games)]
    rdir = str(replay_dir) if replay_dir is not None else None
    results: dict[int, GameResult] = {}
    start = time.perf_counter()
    if executor is not None:
        chunk = max(1, min(50, games // 64 or 1))
        batches = [list(range(s, min(games, s + chunk))) for s in range(0, games, chunk)]
        pending = {executor.submit(_play_batch_spec, loaded.spec, b, [seeds[i] for i in b], bots, rdir)
                   for b in batches}
        report.cancelled = _collect(pending, results, games, progress, cancel)
    elif jobs <= 1 or games <= 1:
        for i in range(games):
            if _cancelled(cancel):
                report.cancelled = True
                break
            results[i] = _play_batch([i], [seeds[i]], bots, rdir, loaded)[0]
            if progress:
                progress(len(results), games)
    else:
        chunk = max(1, min(50, games // (jobs * 8) or 1))
        batches = [list(range(s, min(games, s + chunk))) for s in range(0, games, chunk)]
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(loaded.spec,)) as pool:
            pending = {pool.submit(_play_batch, b, [seeds[i] for i in b], bots, rdir) for b in batches}
            report.cancelled = _collect(pending, results, games, progress, cancel)
            if report.cancelled:
                pool.shutdown(wait=True, cancel_futures=True)
    report.elapsed_s = time.perf_counter() - start
    # aggregate in game order; a cancelled run keeps the games of an unbroken prefix only
    ordered = []
    for i in range(games):
        if i not in results:
            break
        ordered.append(results[i])
    report.results = ordered
    return report
