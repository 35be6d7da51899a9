"""Test-play support for the window, without Qt: histograms of a balance report and a replay stepper.

- ``histogram(values, bins)`` -> ``[(low, high, count)]`` for VP and end-turn charts.
- ``losses_rows`` / ``range_rows``: a report's losses by unit type and by range band as table rows;
  ``compare_runs(before, after)``: two runs side by side (paired by seed when they played the same seeds).
- ``ReplayStepper(loaded, replay)`` re-plays a replay's action log one action at a time and describes each
  step as a :class:`Frame` (turn, phase, acting side, action text, die rolls of that action, unit positions).
  Positions and phases are read from the engine state when it exposes them (``state.hex`` with ``game.units``;
  ``state.turn``/``state.phase``); otherwise frames carry the action and rolls only. Never raises on a bad log:
  the failing step becomes a frame with ``error`` set and stepping stops there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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


@dataclass
class Frame:
    step: int
    turn: Any = None
    phase: str = ""
    player: Any = None
    action: str = ""
    rolls: list = field(default_factory=list)
    positions: dict = field(default_factory=dict)   # unit name -> (axial hex, side)
    error: str = ""
    terminal: bool = False


class ReplayStepper:
    def __init__(self, loaded: Any, replay: dict):
        self.loaded = loaded
        self.game = loaded.game
        self.replay = replay
        self.actions: list[str] = [a for a in replay.get("actions", []) if isinstance(a, str)]
        self.frames: list[Frame] = []
        self._state = None
        self.reset()

    def reset(self) -> None:
        self.frames = []
        try:
            self._state = self.game.new_initial_state(int(self.replay.get("seed", 0)))
            dice = getattr(self._state, "dice", None)
            if dice is not None and hasattr(dice, "record"):
                dice.record = True
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self._state = None
            self.frames.append(Frame(0, error=f"cannot start the game: {type(exc).__name__}: {exc}"))
            return
        self.frames.append(self._frame(0, "", []))

    def _phase_name(self, state) -> str:
        phase = getattr(state, "phase", None)
        phases = list(getattr(self.game, "phases", ()) or ())
        if isinstance(phase, str):
            spec = next((p for p in phases if getattr(p, "id", None) == phase), None)
            return getattr(spec, "name", phase)
        return "" if phase is None else f"phase {phase}"

    def _frame(self, step: int, action: str, rolls: list) -> Frame:
        state = self._state
        frame = Frame(step, getattr(state, "turn", None), self._phase_name(state), None, action, rolls)
        try:
            frame.player = state.current_player()
            frame.terminal = state.is_terminal()
        except Exception:  # noqa: BLE001
            pass
        hexes = getattr(state, "hex", None)
        units = getattr(self.game, "units", None)
        if isinstance(hexes, list) and isinstance(units, (list, tuple)) and len(units) == len(hexes):
            for i, (unit, h) in enumerate(zip(units, hexes)):
                if not isinstance(h, tuple):
                    continue
                frame.positions[getattr(unit, "name", str(i))] = (tuple(h), getattr(unit, "side", 0))
        return frame

    @property
    def position(self) -> int:
        return self.frames[-1].step

    def step(self) -> Frame | None:
        """Apply the next action; None at the end of the log (or after an error)."""
        if self._state is None or self.frames[-1].error or self.position >= len(self.actions):
            return None
        text = self.actions[self.position]
        dice = getattr(self._state, "dice", None)
        before = len(getattr(dice, "history", []) or [])
        try:
            self._state.apply(self.game.parse_action(text))
        except Exception as exc:  # noqa: BLE001 - a bad log is shown, not raised
            frame = Frame(self.position + 1, action=text, error=f"{type(exc).__name__}: {exc}")
            self.frames.append(frame)
            return frame
        rolls = list((getattr(dice, "history", []) or [])[before:])
        frame = self._frame(self.position + 1, text, rolls)
        self.frames.append(frame)
        return frame

    def goto(self, step: int) -> Frame:
        """Frame after ``step`` actions (re-plays from the start when going back)."""
        step = max(0, min(step, len(self.actions)))
        if step < self.position:
            self.reset()
        while self.position < step:
            if self.step() is None or self.frames[-1].error:
                break
        return self.frames[-1]

    def next_phase(self) -> Frame:
        """Step until the turn or phase changes (or the log ends)."""
        start = (self.frames[-1].turn, self.frames[-1].phase)
        while True:
            frame = self.step()
            if frame is None or frame.error or (frame.turn, frame.phase) != start:
                return self.frames[-1]


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
