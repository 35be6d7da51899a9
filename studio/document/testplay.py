"""Test-play support for the window, without Qt: histograms of a balance report and a replay stepper.

- ``histogram(values, bins)`` -> ``[(low, high, count)]`` for VP and end-turn charts.
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
