"""Test-play support for the window, without Qt: histograms and tables of a balance report.

- ``histogram(values, bins)`` -> ``[(low, high, count)]`` for VP and end-turn charts.
- ``losses_rows`` / ``range_rows``: a report's losses by unit type and by range band as table rows;
  ``compare_runs(before, after)``: two runs side by side (paired by seed when they played the same seeds).

Replays are walked by :mod:`studio.document.replay_walk` (the one replay viewer's model).
"""
from __future__ import annotations

from dataclasses import dataclass


def histogram(values: list[float], bins: int = 10) -> list[tuple[float, float, int]]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    if lo == hi:
        return [(lo, hi, len(values))]
    width = (hi - lo) / bins
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    return [(lo + i * width, lo + (i + 1) * width, c) for i, c in enumerate(counts)]


# ------------------------------------------------------------------ balance runs, for the test-play panel
def losses_rows(stats: dict) -> list[tuple[str, str, float]]:
    """``(side, unit type, units lost per game)`` rows of a report's statistics, most lost first per side."""
    games = max(1, stats.get("games", 0))
    return [(side, kind, count / games) for side, types in stats.get("losses_by_type", {}).items()
            for kind, count in types.items()]


def range_rows(stats: dict) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """Band labels and ``(side, count per band)`` rows (totals over the games)."""
    bands = stats.get("losses_by_range", {})
    labels = list(next(iter(bands.values()), {}))
    return labels, [(side, [counts.get(b, 0) for b in labels]) for side, counts in bands.items()]


@dataclass
class ComparisonRow:
    measure: str
    before: str
    after: str
    difference: str


def _rate(d: dict, side: str) -> str:
    w = d["win_rate"][side]
    return f"{100 * w['p']:.1f}% ({100 * w['ci95'][0]:.0f}–{100 * w['ci95'][1]:.0f}%)"


def compare_runs(before, after) -> tuple[str, list[ComparisonRow]]:
    """Two balance reports side by side (story 1 step 7: the same scenario before and after a change).

    When both runs played the same seeds (same master seed, same number of games, same sides) the differences
    are paired by seed (:func:`studio.sim.compare.compare_reports`); otherwise they are independent-sample
    differences of means with a normal 95% interval."""
    from studio.sim.compare import compare_reports

    a, b = before.statistics(), after.statistics()
    same = before.seed == after.seed and before.games == after.games and before.sides == after.sides
    title = ("paired by seed" if same else "independent runs") + \
        f": previous {a['games']} games (seed {a['seed']}) vs this run {b['games']} games (seed {b['seed']})"
    diffs = compare_reports({"before": before, "after": after})["differences"]["after"] if same else None
    rows = []
    for side in after.sides:
        rows.append(ComparisonRow(f"{side} wins", _rate(a, side) if side in a["win_rate"] else "–", _rate(b, side),
                                  _difference(diffs, f"win {side}", before, after, side, 100, " points")))
    rows.append(ComparisonRow("turns (mean)", f"{a['turns']['mean']:.2f}", f"{b['turns']['mean']:.2f}",
                              _difference(diffs, "turns", before, after, None, 1, "")))
    for side in after.sides:
        for key, title_ in (("VP", "VP"), ("losses", "losses")):
            va = a["vp"][side]["mean"] if key == "VP" and side in a["vp"] else a.get("losses", {}).get(side, 0.0)
            vb = b["vp"][side]["mean"] if key == "VP" else b["losses"][side]
            rows.append(ComparisonRow(f"{title_} {side} (mean)", f"{va:.2f}", f"{vb:.2f}",
                                      _difference(diffs, f"{key} {side}", before, after, side, 1, "")))
    return title, rows


def _values(report, key: str, side: str | None) -> list[float]:
    i = report.sides.index(side) if side in report.sides else 0
    out = []
    for r in report.ok:
        if key.startswith("win"):
            out.append(1.0 if r.winner == i else 0.0)
        elif key == "turns":
            out.append(float(r.turn))
        elif key.startswith("VP"):
            out.append(float(r.victory_points[i]) if i < len(r.victory_points) else 0.0)
        else:
            out.append(float(r.losses[i]) if i < len(r.losses) else 0.0)
    return out


def _difference(diffs, key, before, after, side, scale, unit) -> str:
    if diffs is not None:
        d = diffs[key]
    else:
        import math
        xa, xb = _values(before, key, side), _values(after, key, side)
        if not xa or not xb:
            return "–"

        def var(xs):
            m = sum(xs) / len(xs)
            return sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
        mean = sum(xb) / len(xb) - sum(xa) / len(xa)
        half = 1.959964 * math.sqrt(var(xa) / len(xa) + var(xb) / len(xb))
        d = {"mean": mean, "ci95": [mean - half, mean + half]}
    return f"{scale * d['mean']:+.1f}{unit} ({scale * d['ci95'][0]:+.1f} to {scale * d['ci95'][1]:+.1f})"
