"""Seeded playouts and the N-game balance runner.

``play_game(game, seed, bots)`` plays one game: side ``i`` is played by ``bots[i]`` (names, see ``bots``), each
bot is seeded from the game seed, and chance nodes (``State.current_player() == CHANCE``, if a ruleset uses
them; their outcomes come from ``State.chance_outcomes() -> [(action, probability)]``) are sampled with a seeded
generator. Engine exceptions are caught and returned as ``GameResult.error``. Casualties come from the engine
(``State.casualties()``) or are derived as the game is played (:mod:`studio.sim.casualties`).

``run_games(loaded, n, seed, bots, ...)`` derives game ``i``'s seed from the master seed and ``i`` only
(``derive_seed``) and merges the results in game order, so the same seed gives the same report whatever runs the
games (:mod:`studio.sim.executors`: this process, ``jobs`` local processes, any ``concurrent.futures`` executor
or a Dask cluster), however many workers it has and in whatever order they finish. A lost worker's games are
played again (same seeds, same results). ``progress(done, total)`` is called as games finish; ``cancel`` (a
``threading.Event`` or a callable returning True) stops the run at once: the games already finished are kept
and reported (the report says ``cancelled``). With ``precision`` the run stops at the first game count (in game
order) whose anytime-valid intervals are within +-precision (:mod:`studio.sim.sequential`), ``games`` being the
most it plays.
"""
from __future__ import annotations

import hashlib
import random
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence

from studio.rules.api import CHANCE, Game

from .bots import make_bot
from .casualties import CasualtyTracker, engine_casualties
from .report import BalanceReport, GameResult
from .sequential import StoppingRule

Progress = Callable[[int, int], None]


def derive_seed(master: int, *parts: Any) -> int:
    """A 63-bit seed derived from ``master`` and ``parts`` (stable across processes and platforms).

    >>> derive_seed(1, 0) == derive_seed(1, 0), derive_seed(1, 0) == derive_seed(1, 1)
    (True, False)
    """
    text = "/".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def cancelled(cancel) -> bool:
    """Whether ``cancel`` (None, a ``threading.Event`` or a callable) asks to stop."""
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    return bool(is_set() if callable(is_set) else cancel())


def _chance_action(state, chance: random.Random):
    outcomes = state.chance_outcomes()
    r, acc = chance.random(), 0.0
    for a, p in outcomes:
        acc += p
        if r < acc:
            return a
    return outcomes[-1][0]


def play_game(game: Game, seed: int, bots: Sequence[str], *, index: int = 0, record: bool = False,
              max_steps: int = 200_000) -> tuple[GameResult, Any]:
    """Play one game to the end; returns ``(result, final_state)`` (state None after an engine error)."""
    result = GameResult(index=index, seed=seed, bots=tuple(bots))
    actions: list[str] | None = [] if record else None
    state = None
    steps = 0
    try:
        players = [make_bot(name, game, side, derive_seed(seed, "bot", side)) for side, name in enumerate(bots)]
        chance = random.Random(derive_seed(seed, "chance"))
        state = game.new_initial_state(seed)
        tracker = None if callable(getattr(state, "casualties", None)) else CasualtyTracker(game, state)
        while True:
            player = state.current_player()
            if player < 0 and player != CHANCE:
                break  # terminal
            if player == CHANCE:
                action = _chance_action(state, chance)
            else:
                action = players[player].choose(state.observation(player), state.legal_actions())
            if actions is not None:
                actions.append(str(action))
            if tracker is not None:
                tracker.before(state, action)
            state.apply(action)
            if tracker is not None:
                tracker.after(state)
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"game did not end within {max_steps} steps")
        out = state.outcome()
        result.winner, result.victory_points, result.turn = out.winner, list(out.victory_points), out.turn
        result.losses, result.reason, result.steps = list(out.losses), out.reason, steps
        result.final_hash = state.state_hash()
        own = engine_casualties(state)
        result.casualties = own if own is not None else tracker.casualties
        result.casualty_source = "engine" if own is not None else "derived"
        result.decided_turn = tracker.decided if tracker is not None and tracker.leader == out.winner else out.turn
    except Exception:  # noqa: BLE001 - an engine error is a finding of the run
        result.error = traceback.format_exc()
        result.steps = steps
    result.actions = actions
    return result, state


def play_batch(loaded, indices: list[int], seeds: list[int], bots: list[str],
               replays: bool) -> list[tuple[GameResult, dict | None]]:
    """Play the games ``indices`` (seeds ``seeds``) of ``loaded``; with ``replays`` each result comes with its
    replay dict (written by the caller, so workers never write files)."""
    out = []
    for i, seed in zip(indices, seeds):
        result, state = play_game(loaded.game, seed, list(bots), index=i, record=replays)
        replay = None
        if replays and result.actions is not None and state is not None:
            from studio.rules.replay import record

            replay = record(loaded, seed, result.actions, state, list(bots))
        result.actions = None
        out.append((result, replay))
    return out


def _check_bots(game, bots: list[str]) -> None:
    if len(bots) != len(game.sides):
        raise ValueError(f"{len(game.sides)} bots needed (one per side: {', '.join(game.sides)}), got {len(bots)}")
    for side, name in enumerate(bots):
        make_bot(name, game, side, 0)  # unknown names fail before any game starts


def new_report(loaded, seed: int, bots: list[str], games: int) -> BalanceReport:
    game = loaded.game
    return BalanceReport(scenario=game.scenario_id, ruleset=game.ruleset_id,
                         ruleset_version=loaded.ruleset_version, sides=list(game.sides), seed=seed, bots=bots,
                         placeholder_tables=list(dict.fromkeys(loaded.placeholder_tables)),
                         environment_rules=[str(r) for r in getattr(game, "environment_rules_applied", ()) or ()],
                         games_requested=games, range_unit=getattr(game, "range_unit", "hexes"))


class _Writer:
    """Writes each finished game's replay (``<scenario stem>-<game>.replay.json``) into ``folder``."""

    def __init__(self, loaded, folder: str | Path | None):
        self.folder = Path(folder) if folder is not None else None
        self.stem = Path(loaded.path).name.split(".")[0] if getattr(loaded, "path", None) else "game"
        self.written: dict[int, str] = {}

    def __call__(self, index: int, replay: dict | None) -> None:
        if self.folder is not None and replay is not None:
            from studio.rules.replay import write_replay

            path = self.folder / f"{self.stem}-{index:05d}.replay.json"
            write_replay(path, replay)
            self.written[index] = str(path)


def run_games(loaded, games: int, seed: int = 0, bots: Sequence[str] = ("random", "random"), *, jobs: int = 1,
              progress: Progress | None = None, cancel=None, replay_dir: str | Path | None = None,
              executor=None, scheduler: str | Any | None = None, recipe=None,
              precision: float | None = None) -> BalanceReport:
    """Play ``games`` seeded games of ``loaded`` (a :class:`studio.rules.load.LoadedGame`) and report.

    Where they run: ``scheduler`` (a Dask scheduler address, or a ``distributed.Client``) > ``executor`` (any
    ``concurrent.futures.Executor``) > ``jobs`` local processes > this process. Workers rebuild the game from
    ``recipe`` (default: ``loaded.spec`` locally, a serialized :class:`~studio.sim.bundle.Bundle` on Dask).
    ``precision``: stop once every side's interval is within +-precision (``games`` is then the maximum)."""
    from .executors import choose_backend

    bots = list(bots)
    _check_bots(loaded.game, bots)
    report = new_report(loaded, seed, bots, games)
    rule = StoppingRule(precision, games, len(loaded.game.sides)) if precision else None
    if rule is not None:
        report.stopping = rule.describe()
    writer = _Writer(loaded, replay_dir)
    if writer.folder is not None:
        writer.folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    backend = choose_backend(loaded, jobs=jobs, executor=executor, scheduler=scheduler, recipe=recipe,
                             games=games)
    try:
        results, report.cancelled, stop = _drive(backend, games, seed, bots, writer, progress, cancel, rule)
    finally:
        backend.close()
    report.elapsed_s = time.perf_counter() - start
    report.executor = backend.name
    report.restarts = backend.restarts
    report.replay_files = {i: p for i, p in writer.written.items()}
    if stop is not None:
        report.results = [results[i] for i in range(stop)]
        report.stopping["reached"] = True
    else:
        report.results = [results[i] for i in sorted(results)]
        if rule is not None:
            report.stopping["reached"] = False
    return report


def _drive(backend, games: int, seed: int, bots: list[str], writer, progress, cancel, rule):
    """Feed ``backend`` batches of games until all are played, the stopping rule is met or the run is cancelled.
    Returns ``(results by game, cancelled, stop)`` where ``stop`` is the game count the rule stopped at."""
    seeds = [derive_seed(seed, "game", i) for i in range(games)]
    results: dict[int, GameResult] = {}
    todo = list(range(games))
    fed = 0   # games fed to the stopping rule (an unbroken prefix)
    while todo or backend.busy():
        while todo and backend.has_room():
            size = 1 if games - len(todo) < 2 * backend.workers else backend.chunk   # early progress
            batch, todo = todo[:size], todo[size:]
            backend.submit(batch, [seeds[i] for i in batch], bots, writer.folder is not None)
        for result, replay in backend.collect(timeout=0.2):
            results[result.index] = result
            writer(result.index, replay)
        if progress is not None and backend.reported != len(results):
            backend.reported = len(results)
            progress(len(results), games)
        while rule is not None and fed in results:
            fed += 1
            if rule.feed(results[fed - 1].winner if results[fed - 1].error is None else None):
                backend.cancel_all()
                return results, False, fed
        if cancelled(cancel):
            backend.cancel_all()
            for result, replay in backend.collect(timeout=0):
                results[result.index] = result
                writer(result.index, replay)
            return results, True, None
    return results, False, None
