"""Sweeps to the 50/50 point: play a scenario at each value of one parameter (a JSON pointer into the scenario,
or ``KIND:ID/pointer`` into another document such as a ruleset variant), fit the win rate of one side against
the value with a logistic regression, and report the value that gives 50% with its 95% interval.

The fit is maximum likelihood on the binomial counts (Newton/IRLS, numpy only) with a tiny ridge so that a
sweep where one side always wins still converges; the covariance is the inverse Fisher information. The 50%
value is ``x50 = -b0 / b1``; its interval comes from the delta method (gradient ``(-1/b1, b0/b1^2)``), and the
curve's band from ``logit^-1(eta +- 1.96 se(eta))``. Draws count as "not won" for the side tuned.

>>> fit = logistic_fit([1, 2, 3, 4, 5], [1, 3, 5, 7, 9], [10, 10, 10, 10, 10])
>>> round(fit.x50, 2), fit.x50_ci[0] < 3 < fit.x50_ci[1]
(3.0, True)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .charts import XYChart
from .report import wilson_interval

Z = 1.959964


def parse_values(text: str) -> list[Any]:
    """``1..10`` (integers, inclusive), ``1..10:2`` (with a step), ``0.5..2:0.5`` or ``1,2,5`` (a list; words
    stay text). ValueError when it is none of those.

    >>> parse_values("1..4"), parse_values("0..1:0.5"), parse_values("3,5,x")
    ([1, 2, 3, 4], [0.0, 0.5, 1.0], [3, 5, 'x'])
    """
    m = re.fullmatch(r"\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*(?::\s*([\d.]+))?\s*", text)
    if m:
        lo, hi, step = m.group(1), m.group(2), m.group(3)
        ints = all(re.fullmatch(r"-?\d+", v or "1") for v in (lo, hi, step))
        conv = int if ints else float
        a, b, s = conv(lo), conv(hi), conv(step) if step else conv(1)
        if s <= 0 or b < a:
            raise ValueError(f"'{text}': the range must go up with a positive step")
        count = int(math.floor((b - a) / s + 1e-9)) + 1
        if count > 200:
            raise ValueError(f"'{text}': {count} values is too many for a sweep (at most 200)")
        return [conv(round(a + i * s, 10)) for i in range(count)]
    items = [v.strip() for v in text.split(",") if v.strip()]
    if len(items) < 2:
        raise ValueError(f"'{text}': give a range (1..10, 1..10:2) or at least two values (1,2,5)")
    return [_number(v) for v in items]


def _number(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


@dataclass
class LogisticFit:
    b0: float
    b1: float
    cov: list[list[float]]
    x50: float | None
    x50_ci: tuple[float, float] | None
    converged: bool

    def p(self, x: float) -> float:
        return 1.0 / (1.0 + math.exp(-(self.b0 + self.b1 * x)))

    def band(self, x: float) -> tuple[float, float]:
        """95% interval of the fitted win rate at ``x``."""
        v = np.array([1.0, x])
        se = math.sqrt(max(0.0, float(v @ np.array(self.cov) @ v)))
        eta = self.b0 + self.b1 * x
        return (1 / (1 + math.exp(-(eta - Z * se))), 1 / (1 + math.exp(-(eta + Z * se))))

    def to_json(self) -> dict:
        return {"b0": self.b0, "b1": self.b1, "cov": self.cov, "x50": self.x50,
                "x50_ci95": list(self.x50_ci) if self.x50_ci else None, "converged": self.converged,
                "method": "logistic regression (maximum likelihood, IRLS), delta-method interval for -b0/b1"}


def logistic_fit(xs: list[float], wins: list[int], games: list[int], ridge: float = 1e-6) -> LogisticFit:
    """Fit ``P(win) = 1 / (1 + exp(-(b0 + b1 x)))`` to ``wins[i]`` of ``games[i]`` at ``xs[i]``."""
    x = np.asarray(xs, dtype=float)
    k = np.asarray(wins, dtype=float)
    n = np.asarray(games, dtype=float)
    X = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    converged = False
    for _ in range(100):
        eta = np.clip(X @ beta, -30, 30)
        p = 1 / (1 + np.exp(-eta))
        w = n * p * (1 - p)
        info = X.T @ (X * w[:, None]) + ridge * np.eye(2)
        step = np.linalg.solve(info, X.T @ (k - n * p) - ridge * beta)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-9:
            converged = True
            break
    eta = np.clip(X @ beta, -30, 30)
    p = 1 / (1 + np.exp(-eta))
    info = X.T @ (X * (n * p * (1 - p))[:, None]) + ridge * np.eye(2)
    cov = np.linalg.inv(info)
    b0, b1 = float(beta[0]), float(beta[1])
    x50 = ci = None
    if abs(b1) > 1e-9:
        x50 = -b0 / b1
        g = np.array([-1 / b1, b0 / b1 ** 2])
        se = math.sqrt(max(0.0, float(g @ cov @ g)))
        ci = (x50 - Z * se, x50 + Z * se)
    return LogisticFit(b0, b1, cov.tolist(), x50, ci, converged)


@dataclass
class SweepPoint:
    value: Any
    games: int
    wins: int
    draws: int
    report: dict = field(default_factory=dict)

    @property
    def p(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict:
        lo, hi = wilson_interval(self.wins, self.games)
        return {"value": self.value, "games": self.games, "wins": self.wins, "draws": self.draws, "p": self.p,
                "ci95": [lo, hi], "turns_mean": self.report.get("turns", {}).get("mean"),
                "vp": self.report.get("vp")}


@dataclass
class Sweep:
    scenario: str
    param: str
    side: str
    seed: int
    bots: list[str]
    points: list[SweepPoint]
    fit: LogisticFit | None = None
    check: dict | None = None

    def fitted(self) -> "Sweep":
        numeric = [pt for pt in self.points if isinstance(pt.value, (int, float)) and not isinstance(pt.value, bool)]
        if len(numeric) >= 2:
            self.fit = logistic_fit([float(pt.value) for pt in numeric], [pt.wins for pt in numeric],
                                    [pt.games for pt in numeric])
        return self

    def within_range(self) -> bool:
        values = [float(pt.value) for pt in self.points if isinstance(pt.value, (int, float))]
        return bool(self.fit and self.fit.x50 is not None and values and min(values) <= self.fit.x50 <= max(values))

    def to_json(self) -> dict:
        return {"scenario": self.scenario, "param": self.param, "side": self.side, "seed": self.seed,
                "bots": self.bots, "points": [pt.to_json() for pt in self.points],
                "fit": self.fit.to_json() if self.fit else None, "x50_within_sweep": self.within_range(),
                "check": self.check}

    def chart(self) -> XYChart:
        pts = [(float(pt.value), pt.p, *wilson_interval(pt.wins, pt.games)) for pt in self.points
               if isinstance(pt.value, (int, float))]
        chart = XYChart(f"{self.scenario}: {self.side} win rate against {self.param}", self.param,
                        f"{self.side} win rate", {"measured (95% interval)": pts}, y_range=(0.0, 1.0))
        if self.fit and pts:
            lo, hi = min(p[0] for p in pts), max(p[0] for p in pts)
            xs = [lo + (hi - lo) * i / 60 for i in range(61)]
            chart.lines["logistic fit"] = [(x, self.fit.p(x)) for x in xs]
            if self.fit.x50 is not None and self.within_range():
                chart.marks.append((self.fit.x50, f"50% at {self.fit.x50:.2f} (shaded: its 95% interval)"))
                chart.band = self.fit.x50_ci
        return chart

    def format_text(self) -> str:
        lines = [f"{self.scenario}: {self.side} win rate against {self.param} (seed {self.seed}, bots "
                 f"{', '.join(self.bots)})"]
        for pt in self.points:
            lo, hi = wilson_interval(pt.wins, pt.games)
            lines.append(f"  {str(pt.value):>8}  {pt.wins:>4}/{pt.games:<4} {100 * pt.p:5.1f}% "
                         f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)  draws {pt.draws}")
        fit = self.fit
        if fit is None or fit.x50 is None:
            lines.append("  no logistic fit (the win rate does not change with the value)")
        elif not self.within_range():
            se = math.sqrt(max(0.0, fit.cov[1][1]))
            lines.append(f"  no 50/50 value within the swept values (fit slope b1 {fit.b1:.3f} per unit, 95% CI "
                         f"{fit.b1 - Z * se:.3f} to {fit.b1 + Z * se:.3f}): sweep other values")
        else:
            lines.append(f"  50/50 at {fit.x50:.3f} (95% CI {fit.x50_ci[0]:.3f} to {fit.x50_ci[1]:.3f}); "
                         f"fit b0 {fit.b0:.3f}, b1 {fit.b1:.3f}")
        if self.check:
            c = self.check
            lines.append(f"  check at {c['value']}: {c['wins']}/{c['games']} = {100 * c['p']:.1f}% (95% CI "
                         f"{100 * c['ci95'][0]:.1f}-{100 * c['ci95'][1]:.1f}%); the fitted "
                         f"{100 * c['fitted']:.1f}% is {'inside' if c['consistent'] else 'OUTSIDE'} it, and 50% is "
                         f"{'inside' if c['contains_half'] else 'OUTSIDE'} it")
        return "\n".join(lines)


PlayValue = Callable[[Any], dict]


def sweep(scenario: str, param: str, side: str, values: list[Any], play_value: PlayValue, *, seed: int,
          bots: list[str], check: bool = False, round_to: type | None = None) -> Sweep:
    """Play every value (``play_value(value) -> report JSON``), fit, and with ``check`` play again at the 50%
    value (rounded to an integer when every value is one): ``consistent`` says whether the fitted rate there lies
    inside the measured 95% interval, ``contains_half`` whether 50% does."""
    points = []
    for value in values:
        d = play_value(value)
        points.append(SweepPoint(value, d["games"], d["wins"].get(side, 0), d["draws"], d))
    result = Sweep(scenario, param, side, seed, bots, points).fitted()
    if check and result.fit and result.fit.x50 is not None and result.within_range():
        ints = all(isinstance(v, int) for v in values)
        at = int(round(result.fit.x50)) if ints or round_to is int else round(result.fit.x50, 6)
        d = play_value(at)
        wins, games = d["wins"].get(side, 0), d["games"]
        lo, hi = wilson_interval(wins, games)
        fitted = result.fit.p(float(at))
        band = result.fit.band(float(at))
        result.check = {"value": at, "games": games, "wins": wins, "p": wins / games if games else 0.0,
                        "ci95": [lo, hi], "fitted": fitted, "fitted_ci95": list(band),
                        "consistent": lo <= fitted <= hi,
                        "contains_half": lo <= 0.5 <= hi}
    return result
