"""A replay walked step by step for the replay viewer, with what each action did. Qt-free, rule-system neutral.

``ReplayWalk(loaded, replay)`` re-plays a replay's action log (``studio.rules.replay``) once, through the public
engine API, and keeps one :class:`Step` per action (step 0 is the set-up):

- ``turn``, ``phase`` (``State.phase_id()``) and ``phase_name`` (the game's ``PhaseSpec.name``), acting side;
- ``action``, its die rolls (``state.dice.history`` when the engine keeps one) and the units it names (units
  of ``game.units``, else of the initial state's ``units``; named by ``name``, else ``id``);
- ``range``: hexes between the first two named units of different sides, before the action (when the state
  exposes ``hex``, one axial hex per unit in ``game.units`` order);
- ``losses``: units lost by the action (``outcome().losses`` grew for a side; the unit of that side the
  narration names last, else the one the action names), and ``outcome``: a line such as
  ``hit: M1-2 destroyed (range 7)`` or ``no loss (range 12)`` for an action naming units of two sides;
- ``events``: what the engine itself reports for the action, when it keeps a list of events (``state.events``
  or ``state.log`` entries added by the action; strings, or dicts/objects with ``text`` and any of ``hit``,
  ``penetration``, ``result``, ``range``, ``aspect``, ``observer``, ``target``): shown as they are. Engines that
  record richer outcomes (penetration, aspect, spotting) show them this way without changes here;
- ``moments``: the same events, each with the die rolls made since the previous one (the roll that decided it),
  in order; rolls after the last event form a moment without text. The walk learns the order by watching the
  engine append to its event list (so nothing is asked of the engine beyond the narration contract);
- ``narrated``: on the walk, whether the engine keeps an event list at all (False: "this engine gives no
  narration", only rolls and the outcome read from the losses);
- ``positions``: unit name -> (axial hex, side, card id) of the units still in play after the action.

``losses()`` lists every loss of the game with its step, so a viewer can jump to the event that killed a unit.
Never raises on a bad log: the failing action ends the walk with ``error`` set on its step.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

EVENT_FIELDS = ("hit", "penetration", "result", "range", "aspect", "observer", "target")


@dataclass
class Loss:
    step: int
    turn: Any
    phase_name: str
    unit: str
    side: int
    by: str = ""


@dataclass
class Moment:
    """One narrated result and the die rolls (``(label, value)``) made for it; ``text`` '' for rolls no event
    followed."""

    text: str
    rolls: list = field(default_factory=list)


@dataclass
class Step:
    index: int
    turn: Any = None
    phase: str = ""
    phase_name: str = ""
    player: Any = None
    action: str = ""
    rolls: list = field(default_factory=list)
    named: list[str] = field(default_factory=list)
    range: int | None = None
    losses: list[str] = field(default_factory=list)
    outcome: str = ""
    events: list[str] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    positions: dict = field(default_factory=dict)
    error: str = ""
    terminal: bool = False


class _Narration(list):
    """The engine's event list, noting how many die rolls had been made when each event was appended."""

    def __init__(self, items, state):
        super().__init__(items)
        self.state = state
        self.rolls_at: list[int] = [0] * len(items)

    def _rolls(self) -> int:
        return len(getattr(getattr(self.state, "dice", None), "history", None) or [])

    def append(self, item) -> None:
        self.rolls_at.append(self._rolls())
        super().append(item)

    def extend(self, items) -> None:
        for item in items:
            self.append(item)

    def __iadd__(self, items):
        self.extend(items)
        return self


def label_of(roll: Any) -> tuple[str, Any]:
    """``(label, value)`` of a dice-history entry (an unlabelled one gets its kind, e.g. 'roll')."""
    if isinstance(roll, (tuple, list)) and len(roll) >= 2:
        return str(roll[0]), roll[-1]
    return "roll", roll


def card_id(unit: Any) -> str | None:
    """The unit card a game unit stands for (``card``, ``type.id`` or ``unit_type``), when the engine says."""
    for value in (getattr(unit, "card", None), getattr(getattr(unit, "type", None), "id", None),
                  getattr(unit, "unit_type", None)):
        if isinstance(value, str) and value:
            return value
    return None


def _distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return int((abs(dq) + abs(dr) + abs(dq + dr)) // 2)


def _event_text(entry: Any) -> str:
    if isinstance(entry, dict):
        text = str(entry.get("text") or entry.get("kind") or "")
        extra = [f"{k} {entry[k]}" for k in EVENT_FIELDS if entry.get(k) not in (None, "")]
    else:
        text = str(getattr(entry, "text", None) or getattr(entry, "action", None) or entry)
        extra = [f"{k} {getattr(entry, k)}" for k in EVENT_FIELDS if getattr(entry, k, None) not in (None, "")]
    return "; ".join([t for t in [text] if t] + extra)


class ReplayWalk:
    def __init__(self, loaded: Any, replay: dict):
        self.loaded = loaded
        self.game = loaded.game
        self.replay = replay
        self.actions: list[str] = [a for a in replay.get("actions", []) if isinstance(a, str)]
        self._index_units(list(getattr(self.game, "units", None) or []))
        self.phase_names = {getattr(p, "id", ""): getattr(p, "name", "") for p in getattr(self.game, "phases", ())}
        self.steps: list[Step] = []
        self._lost: set[int] = set()
        self.narrated = False
        self._walk()

    def _index_units(self, units: list) -> None:
        """Names (``name``, else ``id``), sides and cards of the game's units, and the pattern that finds names."""
        self.units = units
        self.names = [str(getattr(u, "name", None) or getattr(u, "id", None) or i) for i, u in enumerate(units)]
        self.sides = [int(getattr(u, "side", 0) or 0) for u in units]
        self.cards = [card_id(u) for u in units]
        # longest names first so that "M1-10" is not read as "M1-1"
        self._pattern = re.compile("|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))) \
            if self.names else None

    # ---------------------------------------------------------------- walking
    def _walk(self) -> None:
        try:
            state = self.game.new_initial_state(int(self.replay.get("seed", 0)))
            dice = getattr(state, "dice", None)
            if dice is not None and hasattr(dice, "record"):
                dice.record = True
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.steps.append(Step(0, error=f"cannot start the game: {type(exc).__name__}: {exc}"))
            return
        self.narrated = isinstance(getattr(state, "events", None), list)
        if not self.units and isinstance(getattr(state, "units", None), list):  # units kept by the state only
            self._index_units(list(state.units))
        self.steps.append(self._describe(Step(0), state))
        for i, text in enumerate(self.actions, 1):
            step = self._apply(state, i, text)
            self.steps.append(step)
            if step.error or step.terminal:
                break

    def _apply(self, state: Any, i: int, text: str) -> Step:
        step = Step(i, action=text)
        step.turn, step.phase = getattr(state, "turn", None), self._phase_id(state)
        step.phase_name = self.phase_names.get(step.phase, step.phase)
        try:
            step.player = state.current_player()
        except Exception:  # noqa: BLE001
            pass
        step.named = self._named(text)
        hexes = getattr(state, "hex", None)
        step.range = self._range(step.named, hexes)
        dice = getattr(state, "dice", None)
        self._watch(state)
        rolls_before = len(getattr(dice, "history", None) or [])
        events_before = len(self._events(state))
        losses_before = self._losses(state)
        try:
            state.apply(self.game.parse_action(text))
        except Exception as exc:  # noqa: BLE001 - a bad log is shown, not raised
            step.error = f"{type(exc).__name__}: {exc}"
            return step
        step.rolls = list((getattr(dice, "history", None) or [])[rolls_before:])
        new = self._events(state)[events_before:]
        step.events = [_event_text(e) for e in new]
        step.moments = self._moments(state, step, events_before, rolls_before)
        self._note_losses(step, losses_before, self._losses(state))
        return self._describe(step, state, keep_phase=True)

    def _phase_id(self, state: Any) -> str:
        try:
            return str(state.phase_id() or "")
        except Exception:  # noqa: BLE001
            return ""

    def _describe(self, step: Step, state: Any, keep_phase: bool = False) -> Step:
        """Positions after the step (and the phase for the set-up frame)."""
        if not keep_phase:
            step.turn, step.phase = getattr(state, "turn", None), self._phase_id(state)
            step.phase_name = self.phase_names.get(step.phase, step.phase)
        try:
            step.terminal = state.is_terminal()
        except Exception:  # noqa: BLE001
            pass
        hexes = getattr(state, "hex", None)
        if isinstance(hexes, list) and len(hexes) == len(self.units):
            for k, h in enumerate(hexes):
                if k not in self._lost and isinstance(h, tuple) and len(h) == 2:
                    step.positions[self.names[k]] = (tuple(h), self.sides[k], self.cards[k])
        return step

    @staticmethod
    def _watch(state: Any) -> None:
        """Put a :class:`_Narration` in place of the engine's event list (again if the engine replaced it)."""
        events = getattr(state, "events", None)
        if isinstance(events, list) and not isinstance(events, _Narration):
            try:
                state.events = _Narration(events, state)
            except (AttributeError, TypeError):  # a read-only attribute: events stay ungrouped
                pass

    def _moments(self, state: Any, step: Step, events_before: int, rolls_before: int) -> list[Moment]:
        """The step's events with the rolls made before each (all in one moment when the order is unknown)."""
        events = self._events(state)
        if not isinstance(events, _Narration) or len(events.rolls_at) != len(events):
            moments = [Moment(text) for text in step.events]
            if step.rolls:
                (moments[0].rolls.extend(step.rolls) if moments else moments.append(Moment("", list(step.rolls))))
            return moments
        moments, taken = [], rolls_before
        history = list(getattr(getattr(state, "dice", None), "history", None) or [])
        for text, at in zip(step.events, events.rolls_at[events_before:]):
            rolls = history[taken:max(taken, at)]
            taken = max(taken, at)
            names = self._named(text)
            others = [r for r in rolls if names and not _roll_fits(r, text)]
            if others:  # e.g. failed spotting rolls of other units, which no event reports
                moments.append(Moment("", others))
            moments.append(Moment(text, [r for r in rolls if r not in others]))
        if len(history) > taken:
            moments.append(Moment("", history[taken:]))
        return _merged(moments)

    @staticmethod
    def _events(state: Any) -> list:
        for name in ("events", "log"):
            value = getattr(state, name, None)
            if isinstance(value, list):
                return value
        return []

    @staticmethod
    def _losses(state: Any) -> list[int]:
        try:
            return list(state.outcome().losses or [])
        except Exception:  # noqa: BLE001 - an engine without an outcome mid-game
            return []

    def _named(self, text: str) -> list[str]:
        if self._pattern is None:
            return []
        return list(dict.fromkeys(m.group(0) for m in self._pattern.finditer(text)
                                  if _whole(text, m.start(), m.end())))

    def _range(self, named: list[str], hexes: Any) -> int | None:
        if len(named) < 2 or not isinstance(hexes, list) or len(hexes) != len(self.units):
            return None
        a, b = self.names.index(named[0]), self.names.index(named[1])
        if self.sides[a] == self.sides[b] or not isinstance(hexes[a], tuple) or not isinstance(hexes[b], tuple):
            return None
        return _distance(hexes[a], hexes[b])

    def _note_losses(self, step: Step, before: list[int], after: list[int]) -> None:
        # one entry per unit lost: a side that lost two units in one step is listed twice
        grew = [s for s in range(len(after)) for _ in range(after[s] - (before[s] if s < len(before) else 0))]
        lines = [self._named(text) for text in step.events]
        # a line names its subject first and its object last ("A fires at B", "B takes a hit"): the victim is
        # the last line's object on the losing side, then any unit the narration names (last first), then the
        # action's units
        told = [names[-1] for names in lines[::-1] if names] + [n for names in lines[::-1] for n in names[::-1]]
        for side in grew:
            alive = [n for n in told + step.named if self.sides[self.names.index(n)] == side
                     and self.names.index(n) not in self._lost]
            victim = alive[0] if alive else None
            if victim is None:
                step.losses.append(f"a unit of side {side}")
                continue
            self._lost.add(self.names.index(victim))
            step.losses.append(victim)
        sides = {self.sides[self.names.index(n)] for n in step.named}
        where = f" (range {step.range})" if step.range is not None else ""
        if step.losses:
            step.outcome = f"hit: {', '.join(step.losses)} destroyed{where}"
        elif len(sides) > 1:
            step.outcome = f"no loss{where}"

    # ---------------------------------------------------------------- reading
    def losses(self) -> list[Loss]:
        out = []
        for step in self.steps:
            for unit in step.losses:
                side = self.sides[self.names.index(unit)] if unit in self.names else -1
                named = step.named + [n for text in step.events for n in self._named(text)]
                by = next((n for n in named if self.sides[self.names.index(n)] != side), "")  # an enemy
                out.append(Loss(step.index, step.turn, step.phase_name, unit, side, by))
        return out

    def phase_starts(self) -> list[int]:
        """Indexes of the steps that begin a new (turn, phase)."""
        out, last = [], None
        for step in self.steps:
            key = (step.turn, step.phase)
            if key != last:
                out.append(step.index)
                last = key
        return out

    def first_step_of_turn(self, turn: int) -> int | None:
        return next((s.index for s in self.steps if s.turn == turn), None)


def _roll_fits(roll: Any, text: str) -> bool:
    """Whether a roll belongs to an event's text (one that names units): a label ending in ``A>B`` (shooter>target,
    spotter>spotted) belongs to events that name both units, or one of them and the rolled number (``M1-2 hit at
    HF (roll 97)`` after ``AP location T-80-1>M1-2: 97``); any other label to the event it precedes."""
    label, value = label_of(roll)
    last = label.split()[-1] if label.split() else ""
    if ">" not in last:
        return True
    named = [bool(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)) for n in last.split(">") if n]
    rolled = re.search(rf"(?<![\w.]){re.escape(str(value))}(?![\w.])", text) is not None
    return all(named) or (any(named) and rolled)


def _merged(moments: list[Moment]) -> list[Moment]:
    """Adjacent text-less moments joined (their rolls in order)."""
    out: list[Moment] = []
    for moment in moments:
        if out and not moment.text and not out[-1].text:
            out[-1].rolls.extend(moment.rolls)
        else:
            out.append(moment)
    return out


def _whole(text: str, start: int, end: int) -> bool:
    """A name match that is not part of a longer word or number."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "-") and not (after.isalnum() or after == "-")
