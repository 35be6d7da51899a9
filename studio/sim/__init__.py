"""Test-play: bots, seeded playouts, balance statistics and local-process executors. Rule-system neutral.

- ``bots``: the :class:`~studio.sim.bots.Bot` protocol (``choose(view, legal) -> action``, where ``view`` is
  ``state.observation(player)``: a bot sees only what its side may see), the generic :class:`RandomBot`, and
  :func:`~studio.sim.bots.make_bot` which builds ``"random"`` itself and asks the game for any other name
  (``Game.make_bot(name, side, seed)``, names listed by ``Game.bot_names()``).
- ``runner``: :func:`~studio.sim.runner.play_game` (one seeded game, optional action log) and
  :func:`~studio.sim.runner.run_games` (N games, ``jobs`` processes via ``concurrent.futures``; per-game seeds are
  derived from the master seed and results are aggregated in game order, so the report does not depend on
  ``jobs``; ``progress(done, total)`` callback; ``cancel`` is a ``threading.Event`` or a callable).
- ``report``: :class:`~studio.sim.report.BalanceReport` (wins, draws, 95% intervals, turns, victory
  points, losses, losses by unit type and range band, kills by weapon, turn of decision, VP distribution,
  placeholder tables, timing) with the JSON form of ``studio play --format json``.
- ``executors``: where games run (this process, local processes, any executor, a Dask cluster), lost workers'
  games played again; ``bundle``: a project serialized for workers without a shared filesystem, and changed
  copies (JSON pointer, variant); ``sequential``: the confidence sequence behind ``--precision``;
  ``casualties``: who was lost to what at what range; ``tune``: logistic sweeps to the 50/50 point;
  ``compare``: variants side by side, paired by seed; ``variants``: playing under a ``kind: variant``;
  ``charts`` / ``html``: labelled SVG charts and the self-contained HTML report; ``files``: the balance file.
  See docs/BALANCE.md.
"""
from .bots import Bot, RandomBot, bot_names, make_bot
from .report import BalanceReport, GameResult, wilson_interval
from .runner import derive_seed, play_game, run_games

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "BalanceReport", "GameResult", "wilson_interval",
           "derive_seed", "play_game", "run_games"]
