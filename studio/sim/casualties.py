"""Who was lost, to what and at what range: one :class:`Casualty` per unit lost in a game. Rule-system neutral.

An engine may report its casualties itself: ``State.casualties() -> list[dict]`` with the keys of
:class:`Casualty` (``side``, ``unit``, ``unit_type``, ``turn``, ``weapon``, ``range``, ``by``). When it does not,
:class:`CasualtyTracker` derives them from the game as it is played, through the public API only:

- a loss is seen when ``state.outcome().losses[side]`` grows after an action;
- the unit lost is the unit of that side the action names (actions name units by ``name``/``uid``/``id``, e.g.
  ``fire M1-1 at T-72A-2 main:APFSDS``); the shooter is the named unit of another side;
- the weapon is the shooter's unit type followed by the action's last word when it is not a unit or a hex
  (``T-72A main:APFSDS``), the range the hex distance between shooter and target before the action (when the
  state exposes ``hex``: one axial hex per unit, in ``game.units`` order).

What cannot be derived stays ``None`` and is reported as "unknown" (for example a unit lost to overwatch fire
while moving: the action names the target only), never guessed.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

#: upper bounds (hexes) of the default range bands: 0 (same hex), 1-3, 4-6, 7-10, 11-15, 16-20, 21+
DEFAULT_BANDS = (0, 3, 6, 10, 15, 20)
UNKNOWN = "unknown"


@dataclass(slots=True)
class Casualty:
    side: int
    unit: str
    unit_type: str
    turn: int
    weapon: str | None = None
    range: int | None = None
    by: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


def range_band(hexes: int | None, bands: tuple[int, ...] = DEFAULT_BANDS) -> str:
    """The band label of a range in hexes.

    >>> [range_band(r) for r in (0, 2, 10, 11, 40, None)]
    ['0', '1-3', '7-10', '11-15', '21+', 'unknown']
    """
    if hexes is None:
        return UNKNOWN
    low = 0
    for i, top in enumerate(bands):
        if hexes <= top:
            return str(top) if low == top or (i == 0 and top == 0) else f"{low}-{top}"
        low = top + 1
    return f"{low}+"


def band_labels(bands: tuple[int, ...] = DEFAULT_BANDS) -> list[str]:
    """Every band label in range order, then ``unknown``."""
    probes = sorted({*bands, *(b + 1 for b in bands)})
    out = []
    for r in probes:
        label = range_band(r, bands)
        if label not in out:
            out.append(label)
    return out + [UNKNOWN]


def unit_type(unit: Any) -> str:
    """A unit's type name through common attribute names (``type.name``/``type.id``, ``card``, ``category``),
    else its name without a trailing number."""
    kind = getattr(unit, "type", None)
    for value in (getattr(kind, "name", None), getattr(kind, "id", None), kind if isinstance(kind, str) else None,
                  getattr(unit, "card", None), getattr(unit, "unit_type", None)):
        if isinstance(value, str) and value:
            return value
    name = str(getattr(unit, "name", "") or "?")
    return re.sub(r"[-. ]?\d+$", "", name) or name


def unit_keys(unit: Any) -> list[str]:
    return [k for k in (getattr(unit, a, None) for a in ("uid", "name", "id")) if isinstance(k, str) and k]


def _hex_distance(a: Any, b: Any) -> int | None:
    if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == 2 and len(b) == 2):
        return None
    dq, dr = a[0] - b[0], a[1] - b[1]
    return int((abs(dq) + abs(dr) + abs(dq + dr)) // 2)


class CasualtyTracker:
    """Derives casualties while a game is played: call :meth:`before` with each action before applying it and
    :meth:`after` once it is applied."""

    def __init__(self, game: Any, state: Any):
        self.game = game
        self.units = list(getattr(game, "units", None) or [])
        self.by_key: dict[str, int] = {}
        for i, unit in enumerate(self.units):
            for key in unit_keys(unit):
                self.by_key.setdefault(key, i)
        self.leader: Any = None
        self.decided = 0
        self.losses = self._losses(state)
        self.casualties: list[Casualty] = []
        self._named: list[int] = []
        self._hexes: dict[int, Any] = {}
        self._word: str | None = None
        self._parsed: dict[str, tuple[list[int], str | None]] = {}

    def _losses(self, state: Any) -> list[int]:
        """The losses so far; also notes the turn on which the provisional winner last changed (the turn the
        game was decided: from then on the side ahead stayed ahead)."""
        try:
            out = state.outcome()
        except Exception:  # noqa: BLE001 - an engine without outcome mid-game: no derivation
            return []
        if out.winner != self.leader:
            self.leader = out.winner
            self.decided = int(getattr(out, "turn", 0) or 0)
        return list(out.losses)

    def before(self, state: Any, action: Any) -> None:
        text = str(action)
        parsed = self._parsed.get(text)
        if parsed is None:
            parsed = self._parsed[text] = self._parse(text)
        self._named, self._word = parsed
        hexes = getattr(state, "hex", None)
        self._hexes = {i: hexes[i] for i in self._named} if isinstance(hexes, list) and \
            len(hexes) == len(self.units) else {}

    def _parse(self, text: str) -> tuple[list[int], str | None]:
        """The units an action's text names (in order) and its weapon word (the last word when it is not a unit
        or a hex); remembered per text (a game repeats its action texts)."""
        words = text.split()
        named = [self.by_key[w] for w in words if w in self.by_key]
        last = words[-1] if len(words) > 2 else None
        word = last if last and last not in self.by_key and not re.fullmatch(r"[0-9A-Z]{1,3}\d+", last) else None
        return named, word

    def after(self, state: Any) -> None:
        now = self._losses(state)
        if not now or now == self.losses:
            self.losses = now or self.losses
            return
        turn = int(getattr(state, "turn", 0) or 0)
        for side, (was, is_) in enumerate(zip(self.losses + [0] * len(now), now)):
            for _ in range(max(0, is_ - was)):
                self.casualties.append(self._casualty(side, turn))
        self.losses = now

    def _casualty(self, side: int, turn: int) -> Casualty:
        targets = [i for i in self._named if self.units[i].side == side]
        shooters = [i for i in self._named if self.units[i].side != side]
        t = targets[0] if targets else None
        s = shooters[0] if shooters else None
        if t is None:
            return Casualty(side, UNKNOWN, UNKNOWN, turn)
        target = self.units[t]
        weapon = by = dist = None
        if s is not None:
            shooter = self.units[s]
            by = unit_keys(shooter)[0] if unit_keys(shooter) else None
            weapon = unit_type(shooter) + (f" {self._word}" if self._word else "")
            dist = _hex_distance(self._hexes.get(s), self._hexes.get(t))
        return Casualty(side, unit_keys(target)[0] if unit_keys(target) else UNKNOWN, unit_type(target), turn,
                        weapon, dist, by)


def engine_casualties(state: Any) -> list[Casualty] | None:
    """The engine's own ``State.casualties()`` as :class:`Casualty` records, or None when it has none."""
    hook = getattr(state, "casualties", None)
    if not callable(hook):
        return None
    out = []
    for item in hook() or ():
        data = item if isinstance(item, dict) else asdict(item)
        out.append(Casualty(int(data.get("side", 0)), str(data.get("unit", UNKNOWN)),
                            str(data.get("unit_type", UNKNOWN)), int(data.get("turn", 0) or 0),
                            data.get("weapon"), data.get("range"), data.get("by")))
    return out
