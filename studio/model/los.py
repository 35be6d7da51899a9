"""Line of sight on an assembled hex map, parameterized by a ruleset document.

:class:`LosService` answers "can hex A see hex B?" for one :class:`~studio.model.maps.AssembledMap` and one
:class:`~studio.model.documents.Ruleset`. Its data-driven answer is the height profile of
``studio.hexgrid.los.check_los``, fed from the documents:

* ground of a hex = elevation level x ``los.level_height``, lowered by a terrain with a negative ``los.height``
  when ``los.sunken_terrain`` (units in a gully sit below the level);
* obstacle of a hex = its terrain's ``los.height`` when the terrain ``los.blocks`` (``los.blocking_height``
  when it blocks without a height); non-blocking terrain adds nothing;
* top of a hexside = the higher (``los.hexside_base``) ground of its two hexes + the feature's ``los.height``
  when the feature ``los.blocks`` (a crest on a level-1 hill stands at 2);
* the ruleset's ``los`` block (:class:`~studio.model.documents.LosSpec`) chooses the line rules: edge policy
  along hex spines (optionally from a rule option), whether end hexes block, whether an obstacle exactly on the
  line blocks, eye heights, adjacent hexes, and a range limit that grows with the levels of both ends.

What a straight sight line cannot express (a blind zone of fixed length behind an obstacle, counting rules such
as "two or more hexes of broken terrain", exceptions next to a ridge) belongs to the ruleset plugin's
``los_check`` hook (``studio.model.registry.RulesetPlugin``); the service calls it first and falls back to the
profile when it returns None.

``visibility`` computes the same answers from one hex to every hex at once: the plugin's own whole-map engine
when its hook provides one (``service.batch``, see :meth:`LosService._batch`; the sample plugins judge every
target of an observer with numpy over ``studio.hexgrid.fan``), else the numpy
``studio.hexgrid.visibility.visibility_map`` of the height profile (per-pair checks when a hook decides without a
whole-map engine).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np

from studio.hexgrid import coords
from studio.hexgrid.lines import EdgePolicy, hex_line
from studio.hexgrid.los import LosRules, check_los
from studio.hexgrid.visibility import visibility_map

from .documents import LosSpec, Ruleset
from .maps import AssembledMap, edge_key
from .references import suggest

Hex = tuple[int, int]


class LabelError(ValueError):
    """A hex label that is not on the map (the message says so, with a did-you-mean)."""


@dataclass(frozen=True)
class Sight:
    """One LOS answer.

    ``blocker``: printed label of the blocking hex, ``"A|B"`` for the hexside between A and B or the two hexes
    flanking a spine, None when clear. ``kind``: ``"hex"``, ``"hexside"``, ``"spine"``, ``"range"`` (beyond the
    longest sight line), ``"rule"`` (a plugin rule) or None. ``rule``: rule reference; ``reason``: plain words;
    ``hindrance``: sum of the intervening hexes' terrain ``los.hindrance``.
    """

    clear: bool
    observer: str
    target: str
    range: int
    blocker: str | None = None
    kind: str | None = None
    rule: str = ""
    reason: str = ""
    hindrance: int = 0

    def __bool__(self) -> bool:
        return self.clear

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        """One line for people: ``2B5 -> 2K9 (range 9): blocked by hex 2H7: ... [rule]``."""
        head = f"{self.observer} -> {self.target} (range {self.range}): "
        if self.clear:
            body = "clear"
        else:
            what = {"hex": "hex ", "hexside": "hexside ", "spine": "hexes along the spine ",
                    "range": "", "rule": ""}.get(self.kind or "", "")
            body = f"blocked by {what}{self.blocker}" if self.blocker else "blocked"
        if self.reason:
            body += f": {self.reason}"
        return head + body + (f" [{self.rule}]" if self.rule else "")


def edge_policy_of(name: str) -> EdgePolicy | None:
    """``EdgePolicy`` named ``name`` ('block-if-both' and 'block_if_both' alike), None when there is none."""
    try:
        return EdgePolicy(str(name).replace("-", "_").lower())
    except ValueError:
        return None


class LosService:
    """LOS of one assembled map under one ruleset (and a scenario's chosen rule options).

    >>> from studio.model.documents import Map, Ruleset
    >>> rs = Ruleset(id="demo", name="Demo", version="1", terrain=[
    ...     {"id": "clear", "code": "C", "name": "Clear"},
    ...     {"id": "woods", "code": "W", "name": "Woods", "los": {"height": 2, "blocks": True}}])
    >>> m = Map(id="strip", name="Strip", ruleset="demo", hex={"orientation": "pointy", "columns": 5, "rows": 1},
    ...         terrain=["C C W C C"], elevation=["0 0 0 0 0"])
    >>> from studio.model.maps import assemble_single
    >>> los = LosService(assemble_single(m), rs, use_plugin=False)
    >>> los.check("0101", "0501").text()
    '0101 -> 0501 (range 4): blocked by hex 0301: Woods on level 0: top 2 is above the sight line (0) at range 2'
    >>> los.check("0101", "0201").clear, los.check("0101", "0501", observer_height=5).clear
    (True, True)
    """

    def __init__(self, amap: AssembledMap, ruleset: Ruleset, options: dict[str, Any] | None = None,
                 spec: LosSpec | None = None, use_plugin: bool = True):
        self.map = amap
        self.ruleset = ruleset
        self.spec = spec or ruleset.los
        self.options: dict[str, Any] = {o.id: o.default for o in ruleset.options}
        self.options.update(options or {})
        self.notes: list[str] = []
        policy = edge_policy_of(self.spec.edge_policy) or EdgePolicy.BLOCK_IF_EITHER
        if self.spec.edge_policy_option:
            chosen = self.options.get(self.spec.edge_policy_option)
            from_option = edge_policy_of(chosen) if chosen is not None else None
            if from_option is None:
                self.notes.append(f"rule option '{self.spec.edge_policy_option}' does not name an edge policy "
                                  f"({chosen!r}); using '{policy.value}'")
            else:
                policy = from_option
        s = self.spec
        self.rules = LosRules(rule=s.rule, edge_policy=policy, equal_blocks=s.equal_blocks,
                              observer_hex_blocks=s.observer_hex_blocks, target_hex_blocks=s.target_hex_blocks,
                              adjacent_always_clear=s.adjacent_always_clear,
                              along_hexside_blocks=s.along_hexside_blocks)
        self._build_heights()
        self.hook: Callable[..., Any] | None = None
        #: the plugin's whole-map LOS engine, set by its ``los_check`` hook (see :meth:`_batch`)
        self.batch: Any = None
        self._batch_asked = False
        if use_plugin:
            from .registry import plugin

            plug = plugin(ruleset.id)
            self.hook = plug.los_check if plug is not None else None

    @classmethod
    def for_scenario(cls, scenario, index, **kw) -> "LosService":
        """The service of a scenario's assembled boards, its ruleset and its chosen rule options (``index``: a
        ProjectIndex). Raises ``maps.AssemblyError`` / KeyError when the documents are missing or do not fit."""
        from .maps import assemble_scenario

        ruleset = index.model("ruleset", scenario.ruleset)
        if ruleset is None:
            raise KeyError(f"ruleset '{scenario.ruleset}' is not available")
        return cls(assemble_scenario(scenario, index), ruleset, dict(scenario.options), **kw)

    # ---- heights from the documents
    def _build_heights(self) -> None:
        s = self.spec
        catalogue = {t.code: t for t in self.ruleset.terrain}
        features = {f.id: f for f in self.ruleset.hexside_features}
        self.level: dict[Hex, float] = {}
        self.ground: dict[Hex, float] = {}
        self.obstacle: dict[Hex, float] = {}
        self.hindrance: dict[Hex, int] = {}
        for h in self.map.label_of:
            level = self.map.elevation.get(h, 0) * s.level_height
            t = catalogue.get(self.map.terrain.get(h, ""))
            height = t.los.height if t else 0
            self.level[h] = level
            self.ground[h] = level + (height if (height < 0 and s.sunken_terrain) else 0)
            self.obstacle[h] = (height if height > 0 else s.blocking_height) if (t and t.los.blocks) else 0.0
            self.hindrance[h] = t.los.hindrance if t else 0
        self.side_top: dict[tuple[Hex, Hex], float] = {}
        pick = max if s.hexside_base == "higher" else min
        for (a, b), fid in self.map.hexsides.items():
            f = features.get(fid)
            if f is None or not f.los.blocks:
                continue
            base = pick(self.level.get(a, -math.inf), self.level.get(b, -math.inf))
            if base == -math.inf:  # a hexside on the map's outer edge: stands on its one hex
                base = max(self.level.get(a, -math.inf), self.level.get(b, -math.inf))
            self.side_top[(a, b)] = base + (f.los.height if f.los.height > 0 else s.blocking_height)

    def terrain(self, h: Hex) -> tuple[float, float]:
        """``(ground, obstacle)`` of a hex for ``check_los``; off the map: never blocks."""
        if h in self.ground:
            return (self.ground[h], self.obstacle[h])
        return (-math.inf, 0.0)

    def hexside(self, a: Hex, b: Hex) -> float | None:
        """Absolute top of the blocking hexside between a and b, or None."""
        return self.side_top.get(edge_key(a, b))

    # ---- labels
    def hex(self, ref: str | Hex) -> Hex:
        """Hex of a printed label (or an axial tuple on the map); LabelError with a did-you-mean otherwise."""
        if isinstance(ref, tuple):
            if ref not in self.map.label_of:
                raise LabelError(f"hex {ref!r} is not on this map")
            return ref
        label = str(ref).strip()
        h = self.map.hex_of.get(label) or self.map.hex_of.get(label.upper())
        if h is None:
            raise LabelError(f"no hex '{ref}' on this map{suggest(label, sorted(self.map.hex_of))}")
        return h

    def label(self, h: Hex) -> str:
        return self.map.label_of.get(h, f"{h}")

    def _blocker_label(self, kind: str | None, blocker: Any) -> str | None:
        if blocker is None:
            return None
        if kind == "hex":
            return self.label(blocker)
        return "|".join(self.label(h) for h in blocker)

    # ---- range limit
    def max_range(self, a: Hex, b: Hex) -> int | None:
        """Longest sight line between the levels of a and b (``max_range + per_level x (levels)``), or None."""
        s = self.spec
        if s.max_range is None:
            return None
        return s.max_range + s.max_range_per_level * (self.map.elevation.get(a, 0) + self.map.elevation.get(b, 0))

    # ---- answers
    def profile(self, observer: str | Hex, target: str | Hex, observer_height: float | None = None,
                target_height: float | None = None) -> Sight:
        """The data-driven answer (range limit, then the height profile), without the plugin hook."""
        a, b = self.hex(observer), self.hex(target)
        n = coords.distance(a, b)
        la, lb = self.label(a), self.label(b)
        limit = self.max_range(a, b)
        if limit is not None and n > limit:
            s = self.spec
            why = f"range {n} is beyond the longest sight line, {limit} hexes"
            if s.max_range_per_level:
                why += (f" ({s.max_range} + {s.max_range_per_level} x (level {self.map.elevation.get(a, 0)}"
                        f" + level {self.map.elevation.get(b, 0)}))")
            return Sight(False, la, lb, n, None, "range", s.rule, why)
        oh = self.spec.observer_height if observer_height is None else observer_height
        th = self.spec.target_height if target_height is None else target_height
        found = check_los(a, b, self.terrain, self.hexside if self.side_top else None, oh, th, self.rules)
        hindrance = sum(self.hindrance.get(h, 0) for h in hex_line(a, b)[1:-1]) if n > 1 else 0
        reason = found.reason
        if not found.clear:
            eye = self.ground[a] + oh
            tgt = self.ground[b] + th
            top = self._top_of(found.kind, found.blocker)
            at = self._range_of(a, found.kind, found.blocker)
            line = eye + (tgt - eye) * at / n
            verb = "reaches" if self.rules.equal_blocks else "is above"
            reason = (f"{self._describe(found.kind, found.blocker)}: top {top:g} {verb} the sight line "
                      f"({line:.3g}) at range {at:g}")
        elif found.reason.startswith(("adjacent", "same")):
            reason = found.reason
        else:
            reason = "nothing reaches the sight line" if self.rules.equal_blocks else \
                "nothing rises above the sight line"
        return Sight(found.clear, la, lb, n, self._blocker_label(found.kind, found.blocker), found.kind,
                     self.rules.rule, reason, hindrance)

    def _describe(self, kind: str | None, blocker: Any) -> str:
        names = {t.code: t.name for t in self.ruleset.terrain}
        features = {f.id: f.name for f in self.ruleset.hexside_features}

        def hex_words(h: Hex) -> str:
            code = self.map.terrain.get(h, "")
            return f"{names.get(code, code or 'off-map')} on level {self.map.elevation.get(h, 0)}"

        if kind == "hex":
            return hex_words(blocker)
        if kind == "hexside":
            fid = self.map.hexside(*blocker) or ""
            return features.get(fid, fid)
        return " and ".join(hex_words(h) for h in blocker)

    def _top_of(self, kind: str | None, blocker: Any) -> float:
        if kind == "hex":
            return sum(self.terrain(blocker))
        if kind == "hexside":
            return self.hexside(*blocker) or 0.0
        return max(sum(self.terrain(h)) for h in blocker)

    def _range_of(self, a: Hex, kind: str | None, blocker: Any) -> float:
        if kind == "hex":
            return coords.distance(a, blocker)
        if kind == "hexside":
            return (coords.distance(a, blocker[0]) + coords.distance(a, blocker[1])) / 2
        return coords.distance(a, blocker[0])

    def check(self, observer: str | Hex, target: str | Hex, observer_height: float | None = None,
              target_height: float | None = None) -> Sight:
        """LOS from ``observer`` to ``target`` (labels or axial hexes): the plugin hook, else :meth:`profile`.

        Explicit observer/target heights ask for the height profile itself (the hook models the rule
        system's own unit heights).

        Raises :class:`LabelError` for a label that is not on the map.
        """
        a, b = self.hex(observer), self.hex(target)
        if self.hook is not None and observer_height is None and target_height is None:
            answer = self.hook(self, a, b)
            if answer is not None:
                return answer
        return self.profile(a, b, observer_height, target_height)

    # ---- whole map
    def _batch(self, a: Hex):
        """The plugin's whole-map LOS engine: a ``los_check`` hook may set ``service.batch`` to an object whose
        ``visibility(hex) -> bool[row, col]`` gives the hook's own answers for every target at once (it is asked
        once, with ``a`` to ``a``, so that it can build it); None when it offers none."""
        if self.batch is None and not self._batch_asked:
            self._batch_asked = True
            self.hook(self, a, a)
        return self.batch

    def _arrays(self):
        cached = getattr(self, "_cached_arrays", None)
        if cached is not None:
            return cached
        rows, cols = self.map.rows, self.map.columns
        ground = np.full((rows, cols), -np.inf)
        obstacle = np.zeros((rows, cols))
        levels = np.zeros((rows, cols), dtype=np.int64)
        on = np.zeros((rows, cols), dtype=bool)
        for h in self.map.label_of:
            c, r = self.map.offset(h)
            ground[r, c], obstacle[r, c] = self.ground[h], self.obstacle[h]
            levels[r, c] = self.map.elevation.get(h, 0)
            on[r, c] = True
        sides = None
        if self.side_top:
            sides = np.full((rows, cols, 6), np.nan)
            for (a, b), top in self.side_top.items():
                for x, y in ((a, b), (b, a)):
                    if x in self.map.label_of:
                        c, r = self.map.offset(x)
                        sides[r, c, coords.direction_between(x, y)] = top
        cc, rr = np.meshgrid(np.arange(cols), np.arange(rows))
        q = np.zeros((rows, cols), dtype=np.int64)
        r_ = np.zeros((rows, cols), dtype=np.int64)
        for row in range(rows):
            for col in range(cols):
                q[row, col], r_[row, col] = coords.offset_to_axial(col, row, self.map.kind)
        self._cached_arrays = (ground, obstacle, sides, levels, on, q, r_)
        return self._cached_arrays

    def visibility(self, observer: str | Hex, observer_height: float | None = None,
                   target_height: float | None = None) -> np.ndarray:
        """Bool array ``[row, col]`` over the map's bounding offset grid: True where ``observer`` sees the hex
        (always False off the map). Same answers as :meth:`check` for every target."""
        a = self.hex(observer)
        if self.hook is not None and observer_height is None and target_height is None:
            batch = self._batch(a)
            if batch is not None:
                return batch.visibility(a)
        ground, obstacle, sides, levels, on, q, r = self._arrays()
        if self.hook is not None:
            out = np.zeros_like(on)
            for h in self.map.label_of:
                c, row = self.map.offset(h)
                out[row, c] = self.check(a, h, observer_height, target_height).clear
            return out
        oh = self.spec.observer_height if observer_height is None else observer_height
        th = self.spec.target_height if target_height is None else target_height
        seen = visibility_map(self.map.offset(a), ground, obstacle, self.map.kind, oh, th, self.rules, sides)
        seen &= on
        if self.spec.max_range is not None:
            dq, dr = q - a[0], r - a[1]
            dist = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
            limit = self.spec.max_range + self.spec.max_range_per_level * (self.map.elevation.get(a, 0) + levels)
            seen &= dist <= limit
        return seen

    def visible_labels(self, observer: str | Hex, **heights: float) -> list[str]:
        """Printed labels of every hex ``observer`` sees (its own hex included), sorted."""
        seen = self.visibility(observer, **heights)
        rows, cols = np.nonzero(seen)
        return sorted(self.map.label_of[self.map.axial(int(c), int(r))] for r, c in zip(rows, cols))
