"""Balance statistics over many games: per-game results and the aggregated report.

>>> lo, hi = wilson_interval(9, 10)
>>> round(lo, 3), round(hi, 3)
(0.596, 0.982)
>>> wilson_interval(0, 0)
(0.0, 0.0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .casualties import DEFAULT_BANDS, UNKNOWN, Casualty, band_labels, range_band


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score 95% interval of a binomial proportion."""
    if n <= 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class GameResult:
    """One finished (or failed) game. ``error`` holds the engine error text when the game crashed."""

    index: int
    seed: int
    bots: tuple[str, ...]
    winner: int | None = None
    victory_points: list[float] = field(default_factory=list)
    turn: int = 0
    losses: list[int] = field(default_factory=list)
    steps: int = 0
    reason: str = ""
    final_hash: str = ""
    error: str | None = None
    actions: list[str] | None = None
    casualties: list[Casualty] = field(default_factory=list)
    #: ``engine`` (``State.casualties()``) or ``derived`` (:mod:`studio.sim.casualties`)
    casualty_source: str = ""
    #: the turn from which the eventual winner (or a draw) was ahead for good
    decided_turn: int = 0


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _counts(values) -> dict[str, int]:
    """``{value: count}`` in ascending value order, values as text (``6``, ``2.5``)."""
    counts: dict[float, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return {f"{k:g}": c for k, c in sorted(counts.items())}


def _sd(xs: list[float]) -> float:
    """Population standard deviation (0 for fewer than two values)."""
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


@dataclass
class BalanceReport:
    scenario: str
    ruleset: str
    ruleset_version: str
    sides: list[str]
    seed: int
    bots: list[str]
    results: list[GameResult] = field(default_factory=list)
    placeholder_tables: list[str] = field(default_factory=list)
    environment_rules: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    games_requested: int = 0
    cancelled: bool = False
    #: the stopping rule of a precision-driven run (:mod:`studio.sim.sequential`), with ``reached``
    stopping: dict[str, Any] | None = None
    #: what was changed from the project's files for this run (parameter values, ruleset variant), in words
    changes: list[str] = field(default_factory=list)
    #: range band upper bounds (:func:`studio.sim.casualties.range_band`), in ``range_unit``
    bands: tuple[int, ...] = DEFAULT_BANDS
    #: what a casualty's range counts: "hexes" on hex maps, "inches" on measured tables (the game's ``range_unit``)
    range_unit: str = "hexes"
    executor: str = "local"
    restarts: int = 0
    #: game index -> replay file written for it (``replay_dir`` runs); not part of the JSON report
    replay_files: dict[int, str] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def ok(self) -> list[GameResult]:
        return [r for r in self.results if r.error is None]

    @property
    def errors(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    @property
    def steps(self) -> int:
        return sum(r.steps for r in self.results)

    def wins(self) -> dict[str, int]:
        out = {s: 0 for s in self.sides}
        for r in self.ok:
            if r.winner is not None:
                out[self.sides[r.winner]] += 1
        return out

    def draws(self) -> int:
        return sum(1 for r in self.ok if r.winner is None)

    def intervals(self) -> dict[str, tuple[float, float]]:
        """95% interval of each side's win rate: Wilson for a fixed number of games, the anytime-valid
        confidence sequence for a precision-driven run (:mod:`studio.sim.sequential`)."""
        wins, n = self.wins(), len(self.ok)
        if self.stopping:
            from .sequential import side_intervals

            lows = side_intervals([wins[s] for s in self.sides], len(self.results))
            return dict(zip(self.sides, lows))
        return {s: wilson_interval(wins[s], n) for s in self.sides}

    def statistics(self) -> dict[str, Any]:
        """Everything but timing: identical for the same seed whatever runs the games."""
        ok = self.ok
        n = len(ok)
        wins = self.wins()
        turns = [r.turn for r in ok]
        ci = self.intervals()
        data = {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "games": n,
            "seed": self.seed,
            "bots": list(self.bots),
            "wins": wins,
            "draws": self.draws(),
            "win_rate": {s: {"p": (wins[s] / n if n else 0.0), "ci95": [round(x, 6) for x in ci[s]]}
                         for s in self.sides},
            "turns": {"mean": _mean(turns), "min": min(turns) if turns else 0, "max": max(turns) if turns else 0},
            "vp": {s: {"mean": _mean([r.victory_points[i] for r in ok]),
                       "sd": _sd([r.victory_points[i] for r in ok])} for i, s in enumerate(self.sides)},
            "losses": {s: _mean([r.losses[i] if i < len(r.losses) else 0 for r in ok])
                       for i, s in enumerate(self.sides)},
            "placeholder_tables": list(self.placeholder_tables),
            "environment_rules": list(self.environment_rules),
        }
        data.update(self.details())
        return data

    def details(self) -> dict[str, Any]:
        """The richer parts of the report: bots per side, distributions, losses by type and range band, kills
        by weapon, the run's stopping rule and changes."""
        ok = self.ok
        data: dict[str, Any] = {
            "bots_by_side": dict(zip(self.sides, self.bots)),
            "games_requested": self.games_requested,
            "cancelled": self.cancelled,
            "engine_errors": len(self.errors),
            "interval": "confidence sequence" if self.stopping else "wilson",
            "decided_turn": _counts(r.decided_turn for r in ok),
            "end_turn": _counts(r.turn for r in ok),
            "vp_distribution": {s: _counts(r.victory_points[i] for r in ok if i < len(r.victory_points))
                                for i, s in enumerate(self.sides)},
        }
        data.update(self.casualty_tables())
        if self.stopping is not None:
            data["stopping"] = dict(self.stopping, games=len(self.results))
        if self.changes:
            data["changes"] = list(self.changes)
        return data

    def casualty_tables(self) -> dict[str, Any]:
        """Units lost per side by unit type and by range band, and kills by weapon (totals over the games)."""
        by_type: dict[str, dict[str, int]] = {s: {} for s in self.sides}
        by_range: dict[str, dict[str, int]] = {s: {b: 0 for b in band_labels(self.bands)} for s in self.sides}
        weapons: dict[str, int] = {}
        sources = set()
        for r in self.ok:
            sources.add(r.casualty_source)
            for c in r.casualties:
                side = self.sides[c.side] if 0 <= c.side < len(self.sides) else str(c.side)
                by_type.setdefault(side, {})
                by_type[side][c.unit_type] = by_type[side].get(c.unit_type, 0) + 1
                band = range_band(c.range, self.bands)
                by_range.setdefault(side, {})
                by_range[side][band] = by_range[side].get(band, 0) + 1
                weapon = c.weapon or UNKNOWN
                weapons[weapon] = weapons.get(weapon, 0) + 1
        return {"losses_by_type": {s: dict(sorted(t.items(), key=lambda kv: (-kv[1], kv[0])))
                                   for s, t in by_type.items()},
                "losses_by_range": by_range,
                "range_bands_hexes": list(self.bands),
                "range_unit": self.range_unit,
                "kills_by_weapon": dict(sorted(weapons.items(), key=lambda kv: (-kv[1], kv[0]))),
                "casualty_source": "+".join(sorted(x for x in sources if x)) or "none"}

    #: keys of :meth:`to_json` that depend on timing or on what ran the games (left out of comparisons)
    TIMING_KEYS = ("elapsed_s", "steps", "steps_per_s", "executor", "restarts")

    def to_json(self) -> dict[str, Any]:
        data = self.statistics()
        steps = sum(r.steps for r in self.ok)
        data["elapsed_s"] = round(self.elapsed_s, 3)
        data["steps"] = steps
        data["steps_per_s"] = round(steps / self.elapsed_s, 1) if self.elapsed_s > 0 else 0.0
        data["executor"] = self.executor
        data["restarts"] = self.restarts
        return data

    def format_text(self) -> str:
        d = self.to_json()
        head = f"{d['scenario']} ({d['ruleset']} {d['ruleset_version']}): {d['games']} game(s), seed {d['seed']}, " \
               f"bots {', '.join(f'{s} {b}' for s, b in d['bots_by_side'].items())}"
        if self.cancelled:
            head += f" [cancelled: {d['games']} of {self.games_requested} games finished, all reported]"
        lines = [head]
        lines += _stopping_lines(d)
        for s in self.sides:
            w = d["win_rate"][s]
            lines.append(f"  {s:<12} wins {d['wins'][s]:>5}  {100 * w['p']:5.1f}%  "
                         f"(95% CI {100 * w['ci95'][0]:.1f}-{100 * w['ci95'][1]:.1f}%)  "
                         f"VP {d['vp'][s]['mean']:.2f} sd {d['vp'][s]['sd']:.2f}  "
                         f"losses {d['losses'][s]:.2f}")
        lines.append(f"  draws {d['draws']}; turns mean {d['turns']['mean']:.2f} "
                     f"(min {d['turns']['min']}, max {d['turns']['max']})")
        lines.append("  game decided on turn: " + ", ".join(f"{t}: {c}" for t, c in d["decided_turn"].items()))
        lines += _casualty_lines(d)
        if d.get("changes"):
            lines.append("  changed for this run: " + "; ".join(d["changes"]))
        if d["placeholder_tables"]:
            lines.append(f"  placeholder tables used: {', '.join(d['placeholder_tables'])}")
        if d["environment_rules"]:
            lines.append("  environment rules applied:")
            lines += [f"    - {rule}" for rule in d["environment_rules"]]
        if self.errors:
            lines.append(f"  ENGINE ERRORS in {len(self.errors)} game(s); first (game {self.errors[0].index}, "
                         f"seed {self.errors[0].seed}): {self.errors[0].error.strip().splitlines()[-1]}")
        lines.append(f"  {d['steps']} steps in {d['elapsed_s']:.2f} s ({d['steps_per_s']:.0f} steps/s) on "
                     f"{d['executor']}" + (f", {d['restarts']} lost worker pool(s) restarted" if d["restarts"] else ""))
        return "\n".join(lines)


def _stopping_lines(d: dict) -> list[str]:
    stop = d.get("stopping")
    if not stop:
        return []
    state = "reached" if stop.get("reached") else "NOT reached (maximum games played)"
    return [f"  precision +-{100 * stop['precision']:.1f} points {state} after {stop['games']} games "
            f"(max {stop['max_games']}); intervals: {stop['rule']}"]


def _casualty_lines(d: dict) -> list[str]:
    lines = []
    games = max(1, d["games"])
    for side, types in d["losses_by_type"].items():
        if types:
            lines.append(f"  {side} losses by unit type (per game): "
                         + ", ".join(f"{t} {c / games:.2f}" for t, c in types.items()))
    for side, bands in d["losses_by_range"].items():
        shown = {b: c for b, c in bands.items() if c}
        if shown:
            lines.append(f"  {side} losses by range band ({d.get('range_unit', 'hexes')}, total): "
                         + ", ".join(f"{b}: {c}" for b, c in shown.items()))
    if d["kills_by_weapon"]:
        top = list(d["kills_by_weapon"].items())[:8]
        lines.append("  kills by weapon (total): " + ", ".join(f"{w} {c}" for w, c in top))
    if d["casualty_source"] == "derived" and lines:
        lines.append("  (casualties derived from the actions: see studio.sim.casualties)")
    return lines
