"""Precision-driven runs: an anytime-valid 95% interval for a win rate and the stopping rule built on it.

Looking at a Wilson interval after every game and stopping once it is narrow enough makes it dishonest (the more
looks, the more often it misses). This module uses a *confidence sequence* instead: for each candidate win rate
``p0`` the beta-binomial mixture likelihood ratio (Robbins 1970)

    M_n(p0; c) = B(a + S, b + n - S) / B(a, b) / (p0^S (1 - p0)^(n - S)),   a = c p0, b = c (1 - p0)

is a non-negative martingale with mean 1 when the true rate is ``p0``, and so is the half-and-half mixture
``M_n(p0) = (M_n(p0; 200) + M_n(p0; 4)) / 2`` used here, so by Ville's inequality the probability
that it *ever* exceeds ``1/alpha`` is at most ``alpha``. The interval after ``n`` games (``S`` wins) is the set of
``p0`` with ``M_n(p0) < 1/alpha``: it holds at every ``n`` at once, so stopping whenever it is narrow enough keeps
its coverage (tested by simulation in ``tests/sim/test_sequential.py``). The prior concentrations only shape
the width, never the guarantee: 200 is tuned for runs of a few thousand games near 50%, 4 keeps the interval
useful for short or lopsided runs (0 wins in 40 games: 0-13% instead of 0-53% with 200 alone). The price: a
+-3-point interval at 50% takes about 3,350 games for two sides (2,900 for one rate alone) instead of the
1,067 a single fixed-size look needs.

With several sides, each side's interval is computed at ``alpha / sides`` (Bonferroni), so all hold together.

>>> lo, hi = confidence_sequence(500, 1000)
>>> round(lo, 3), round(hi, 3)
(0.449, 0.551)
>>> precision_reached([500, 500], 1000, 0.06), precision_reached([500, 500], 1000, 0.03)
(True, False)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

#: prior concentrations of the two mixture components, weighted 1/2 each (they shape the width only)
CONCENTRATION = 200.0
BROAD = 4.0
RULE = ("beta-binomial mixture confidence sequence (Robbins 1970; Ville's inequality), priors of concentration "
        f"{CONCENTRATION:g} and {BROAD:g} centred on each candidate rate (half each), alpha 0.05 split over the "
        "sides (Bonferroni)")
#: fewest games before the rule may stop a run
MIN_GAMES = 10


def _log_beta(x: float, y: float) -> float:
    return math.lgamma(x) + math.lgamma(y) - math.lgamma(x + y)


def log_ratio(successes: int, n: int, p0: float, c: float) -> float:
    """log M_n(p0; c) of the module docstring (0 < p0 < 1): one prior concentration."""
    a, b = c * p0, c * (1.0 - p0)
    return (_log_beta(a + successes, b + n - successes) - _log_beta(a, b)
            - successes * math.log(p0) - (n - successes) * math.log1p(-p0))


def log_mixture_ratio(successes: int, n: int, p0: float, c: float | None = None) -> float:
    """log M_n(p0): the half-and-half mixture of concentrations ``CONCENTRATION`` and ``BROAD`` (or the single
    concentration ``c`` when given)."""
    if c is not None:
        return log_ratio(successes, n, p0, c)
    x, y = log_ratio(successes, n, p0, CONCENTRATION), log_ratio(successes, n, p0, BROAD)
    top = max(x, y)
    return top + math.log(0.5 * math.exp(x - top) + 0.5 * math.exp(y - top))


def confidence_sequence(successes: int, n: int, alpha: float = 0.05,
                        c: float | None = None) -> tuple[float, float]:
    """The anytime-valid ``1 - alpha`` interval of a proportion after ``successes`` of ``n`` (``(0, 1)`` for n=0)."""
    if n <= 0:
        return (0.0, 1.0)
    threshold = math.log(1.0 / alpha)
    centre = min(max(successes / n, 1e-9), 1 - 1e-9)

    def edge(inside: float, outside: float) -> float:
        for _ in range(34):
            mid = (inside + outside) / 2
            if log_mixture_ratio(successes, n, mid, c) < threshold:
                inside = mid
            else:
                outside = mid
        return inside

    lo = 0.0 if successes == 0 else edge(centre, 1e-12)
    hi = 1.0 if successes == n else edge(centre, 1 - 1e-12)
    return (max(0.0, lo), min(1.0, hi))


def side_intervals(wins: list[int], n: int, alpha: float = 0.05) -> list[tuple[float, float]]:
    """One confidence-sequence interval per side, each at ``alpha / len(wins)``."""
    k = max(1, len(wins))
    return [confidence_sequence(w, n, alpha / k) for w in wins]


def precision_reached(wins: list[int], n: int, precision: float, alpha: float = 0.05) -> bool:
    """Whether every side's interval is within +-``precision`` (half-width) after ``n`` games."""
    if n < MIN_GAMES:
        return False
    return all((hi - lo) / 2 <= precision for lo, hi in side_intervals(wins, n, alpha))


@dataclass(slots=True)
class StoppingRule:
    """``--precision``: stop at the first game count (in game order) whose intervals are narrow enough.

    Feed the winners in game order (:meth:`feed`); it returns True at the first count that meets the precision.
    A cheap pre-check skips counts where 1.4 times the normal-approximation half-width is still too wide (the
    sequence is at least 1.42 times wider at every count from 10 to 100,000 games): skipping a look can only
    stop later, which a confidence sequence allows. For the same reason, once the pre-check passes the sequence
    is computed at every count up to 25 games and then every 4% more games (at most 4% extra games)."""

    precision: float
    max_games: int
    sides: int = 2
    alpha: float = 0.05
    n: int = 0
    wins: list[int] = field(default_factory=list)
    next_look: int = MIN_GAMES

    def feed(self, winner: int | None) -> bool:
        """Count one more game (``winner`` a side index, None for a draw or a failed game)."""
        if not self.wins:
            self.wins = [0] * self.sides
        self.n += 1
        if winner is not None and 0 <= winner < self.sides:
            self.wins[winner] += 1
        if self.n < self.next_look:
            return False
        z = 1.4 * 1.959964
        if any(z * math.sqrt(max(w * (self.n - w), 1) / self.n ** 3) > self.precision for w in self.wins):
            return False
        self.next_look = self.n + max(1, self.n // 25)
        return precision_reached(self.wins, self.n, self.precision, self.alpha)

    def describe(self) -> dict:
        return {"rule": RULE, "precision": self.precision, "max_games": self.max_games, "alpha": self.alpha}
