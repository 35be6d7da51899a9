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


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


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

    def statistics(self) -> dict[str, Any]:
        """Everything but timing: identical for the same seed whatever the number of processes."""
        ok = self.ok
        n = len(ok)
        wins = self.wins()
        turns = [r.turn for r in ok]
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "games": n,
            "seed": self.seed,
            "bots": list(self.bots),
            "wins": wins,
            "draws": self.draws(),
            "win_rate": {s: {"p": (wins[s] / n if n else 0.0),
                             "ci95": [round(x, 6) for x in wilson_interval(wins[s], n)]}
                         for s in self.sides},
            "turns": {"mean": _mean(turns), "min": min(turns) if turns else 0, "max": max(turns) if turns else 0},
            "vp": {s: {"mean": _mean([r.victory_points[i] for r in ok]),
                       "sd": _sd([r.victory_points[i] for r in ok])} for i, s in enumerate(self.sides)},
            "losses": {s: _mean([r.losses[i] if i < len(r.losses) else 0 for r in ok])
                       for i, s in enumerate(self.sides)},
            "placeholder_tables": list(self.placeholder_tables),
            "environment_rules": list(self.environment_rules),
        }

    def to_json(self) -> dict[str, Any]:
        data = self.statistics()
        steps = sum(r.steps for r in self.ok)
        data["elapsed_s"] = round(self.elapsed_s, 3)
        data["steps"] = steps
        data["steps_per_s"] = round(steps / self.elapsed_s, 1) if self.elapsed_s > 0 else 0.0
        return data

    def format_text(self) -> str:
        d = self.to_json()
        lines = [f"{d['scenario']} ({d['ruleset']} {d['ruleset_version']}): {d['games']} game(s), seed {d['seed']}, "
                 f"bots {' vs '.join(d['bots'])}" + (" [cancelled]" if self.cancelled else "")]
        for s in self.sides:
            w = d["win_rate"][s]
            lines.append(f"  {s:<12} wins {d['wins'][s]:>5}  {100 * w['p']:5.1f}%  "
                         f"(95% CI {100 * w['ci95'][0]:.1f}-{100 * w['ci95'][1]:.1f}%)  "
                         f"VP {d['vp'][s]['mean']:.2f} sd {d['vp'][s]['sd']:.2f}  "
                         f"losses {d['losses'][s]:.2f}")
        lines.append(f"  draws {d['draws']}; turns mean {d['turns']['mean']:.2f} "
                     f"(min {d['turns']['min']}, max {d['turns']['max']})")
        if d["placeholder_tables"]:
            lines.append(f"  placeholder tables used: {', '.join(d['placeholder_tables'])}")
        if d["environment_rules"]:
            lines.append("  environment rules applied:")
            lines += [f"    - {rule}" for rule in d["environment_rules"]]
        if self.errors:
            lines.append(f"  ENGINE ERRORS in {len(self.errors)} game(s); first (game {self.errors[0].index}, "
                         f"seed {self.errors[0].seed}): {self.errors[0].error.strip().splitlines()[-1]}")
        lines.append(f"  {d['steps']} steps in {d['elapsed_s']:.2f} s ({d['steps_per_s']:.0f} steps/s)")
        return "\n".join(lines)
