"""Variants side by side: the same seeds played under each variant (game ``i`` gets the same seed in every run),
and the differences from the first variant as paired means with 95% intervals.

For each game ``i`` and measure ``m`` (a side won: 1/0, end turn, a side's VP, a side's losses) the difference
``d_i = m(variant, i) - m(first, i)`` is taken; the report gives ``mean(d)`` and ``mean(d) +- 1.96 sd(d)/sqrt(n)``
(normal approximation; pairing removes the spread the seeds share). Only games that finished without an engine
error in both runs are paired. Also usable for two runs of the same scenario with different settings
(the test-play panel's "compare with the previous run").
"""
from __future__ import annotations

import math
from typing import Any

from .report import BalanceReport

Z = 1.959964


def paired(a: list[float], b: list[float]) -> dict[str, Any]:
    """Mean of ``b - a`` and its 95% interval.

    >>> paired([0, 0, 1, 1], [1, 0, 1, 1])["mean"]
    0.25
    """
    d = [y - x for x, y in zip(a, b)]
    n = len(d)
    if n == 0:
        return {"mean": 0.0, "ci95": [0.0, 0.0], "n": 0}
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n)
    return {"mean": m, "ci95": [m - half, m + half], "n": n}


def _measures(report: BalanceReport) -> dict[int, dict[str, float]]:
    out = {}
    for r in report.ok:
        row = {"turns": float(r.turn)}
        for i, s in enumerate(report.sides):
            row[f"win {s}"] = 1.0 if r.winner == i else 0.0
            row[f"VP {s}"] = float(r.victory_points[i]) if i < len(r.victory_points) else 0.0
            row[f"losses {s}"] = float(r.losses[i]) if i < len(r.losses) else 0.0
        out[r.index] = row
    return out


def compare_reports(runs: dict[str, BalanceReport]) -> dict[str, Any]:
    """The runs' statistics and, for every run after the first, its paired differences from the first."""
    names = list(runs)
    first = runs[names[0]]
    base = _measures(first)
    out: dict[str, Any] = {"scenario": first.scenario, "seed": first.seed, "variants": names,
                           "runs": {n: runs[n].statistics() for n in names}, "differences": {}}
    for name in names[1:]:
        other = _measures(runs[name])
        common = [i for i in base if i in other]
        keys = list(base[common[0]]) if common else []
        diffs = {k: paired([base[i][k] for i in common], [other[i][k] for i in common]) for k in keys}
        for k, d in diffs.items():
            if k.startswith("win "):                 # a difference of two rates lies within -1..1
                d["ci95"] = [max(-1.0, d["ci95"][0]), min(1.0, d["ci95"][1])]
        out["differences"][name] = diffs
        out["differences"][name]["losses by type"] = _type_deltas(first, runs[name])
    return out


def _type_deltas(a: BalanceReport, b: BalanceReport) -> dict[str, dict[str, float]]:
    """Mean losses per game by unit type: variant minus first, per side."""
    ta, tb = a.casualty_tables()["losses_by_type"], b.casualty_tables()["losses_by_type"]
    na, nb = max(1, len(a.ok)), max(1, len(b.ok))
    out = {}
    for side in a.sides:
        types = sorted(set(ta.get(side, {})) | set(tb.get(side, {})))
        out[side] = {t: tb.get(side, {}).get(t, 0) / nb - ta.get(side, {}).get(t, 0) / na for t in types}
    return out


def format_comparison(data: dict[str, Any]) -> str:
    names = data["variants"]
    runs = data["runs"]
    first = runs[names[0]]
    sides = list(first["win_rate"])
    lines = [f"{data['scenario']}: {first['games']} paired games per variant (seed {data['seed']})",
             "  " + f"{'':<22}" + "".join(f"{n[:24]:>26}" for n in names)]
    for s in sides:
        cells = [f"{100 * runs[n]['win_rate'][s]['p']:5.1f}% ({100 * runs[n]['win_rate'][s]['ci95'][0]:.0f}-"
                 f"{100 * runs[n]['win_rate'][s]['ci95'][1]:.0f}%)" for n in names]
        lines.append("  " + f"{s + ' wins':<22}" + "".join(f"{c:>26}" for c in cells))
    for label, get in (("turns (mean)", lambda d: d["turns"]["mean"]),
                       *[(f"VP {s} (mean)", lambda d, s=s: d["vp"][s]["mean"]) for s in sides],
                       *[(f"losses {s} (mean)", lambda d, s=s: d["losses"][s]) for s in sides]):
        lines.append("  " + f"{label:<22}" + "".join(f"{get(runs[n]):>26.2f}" for n in names))
    for name, diffs in data["differences"].items():
        lines.append(f"  {name} minus {names[0]} (paired by seed, 95% CI):")
        for key, v in diffs.items():
            if key == "losses by type":
                continue
            scale = 100 if key.startswith("win ") else 1
            unit = " points" if scale == 100 else ""
            lines.append(f"    {key:<20} {scale * v['mean']:+8.2f}{unit} ({scale * v['ci95'][0]:+.2f} to "
                         f"{scale * v['ci95'][1]:+.2f})")
        for side, types in diffs.get("losses by type", {}).items():
            moved = {t: d for t, d in types.items() if abs(d) > 1e-9}
            if moved:
                lines.append(f"    {side} losses by type per game: "
                             + ", ".join(f"{t} {d:+.2f}" for t, d in moved.items()))
    return "\n".join(lines)
