"""Command control (Assault 4-6): HQ and TOC ratings, operations points per friendly movement phase and what they
pay for, as a mixin of ``AssaultState``.

- Ratings (4.B.1-2): at the start one roll on table command-ratings per HQ (command rating) and per TOC
  (command and planning ratings), for every HQ and TOC of the scenario's forces at every force level, so the
  rolls, which are public, tell nothing of the level drawn.
- Sources (4.B): at the start of each friendly movement phase every HQ and TOC in play and not broken (5, 17.C)
  gets its command rating; a TOC declared to plan (``toc <unit> plan``, at the start of its side's first
  movement phase) gives nothing and adds its command rating to its planning track up to its planning rating
  (6.A.2, each movement phase or once a turn by option c17), one declared to execute gives its track (6.A.3); the
  off-board OPs of the turn (4.B.3); and, when there are no others, the default OPs (4.B.4).
- Costs (4.C): moving in combat formation (once per unit and phase; the engine moves units one by one, so a
  stack pays per unit) and changing formation cost 1 OP when the unit's hex is visible to the HQ or TOC paying,
  2 when not; two sources may pay one each. Marching, firing and entering cover cost nothing; asterisk units
  (4.D.1) never pay. An HQ or TOC pays only for units subordinate to it (3.A); off-board and default OPs count as
  a superior HQ's (4.C.3) and cost as visible or not by option c31.
- Spending is automatic: the lowest superior that can pay (company HQ, battalion HQ, regiment HQ, TOC), then
  off-board, then default OPs. Unused OPs are lost or kept for the next friendly movement phase (option c16).
"""
from __future__ import annotations

from ..designations import parse, superiors

OFF_BOARD, DEFAULT = "off-board", "default"
HQ_ROLES = ("company-hq", "battalion-hq", "regiment-hq", "toc")


def rating_keys(game) -> list[tuple[int, str]]:
    """(side, designation) of every HQ and TOC of the scenario's forces (Assault 4.B.2), sorted."""
    out = set()
    for s, side in enumerate(game.scenario.sides):
        for force in side.forces:
            for text in game._slot_designations(force):
                d = parse(game.sides[s], text) if text else None
                if d is not None and d.role in HQ_ROLES:
                    out.add((s, text.replace("-", "")))
    return sorted(out)


def roll_ratings(game, dice) -> dict:
    """(side, designation) -> (command, planning), one roll each on table command-ratings (Assault 4.B.1-2)."""
    out = {}
    for side, key in rating_keys(game):
        row = game.command_ratings.get(dice.roll(game.data.constant("die-faces"), f"rating {key}"))
        if row is None:
            continue
        toc = key.startswith("TOC")
        out[(side, key)] = (row["toc_command"], row["toc_planning"]) if toc else (row["hq_command"], 0)
    return out


class CommandControl:
    """Methods of ``AssaultState`` for Assault 4-6 (needs counters, ratings, ops, game and LOS)."""

    def _grant_ops(self) -> None:
        """Assault 4.B at the start of a friendly movement phase: the phasing side's OP pools."""
        side = self.phasing()
        pools = {}
        for c in self.counters:
            key = c.designation.replace("-", "")
            if c.side == side and (side, key) in self.ratings and self._company(c).state != "broken":  # 5, 17.C
                if self.phase.endswith("move-1"):
                    c.toc_mode = "command"                                              # declared anew (6.A)
                pools.update(self._source_pool(c, key))
        per_turn = self.game.scenario.extension.off_board_ops.get(self.game.sides[side], [])
        if self.turn <= len(per_turn) and per_turn[self.turn - 1] > 0:
            pools[OFF_BOARD] = per_turn[self.turn - 1]                                  # Assault 4.B.3
        if not any(pools.values()):
            pools[DEFAULT] = self.game.data.constant("default-ops")                     # Assault 4.B.4
        if self.game.options.get("c16-unused-ops") == "carry":
            for key, left in self.ops[side].items():
                pools[key] = pools.get(key, 0) + left                                   # option c16
        self.ops[side] = pools

    def _source_pool(self, c, key: str) -> dict:
        """The OPs an HQ or TOC gives this phase (Assault 4.B.1, 6.A): its command rating, nothing while a TOC
        plans (its rating goes to the planning track, option c17), the track while it executes."""
        rating, planning = self.ratings[(c.side, key)]
        if c.toc_mode == "plan":
            if self.game.options.get("c17-plan-accrual", "per-phase") == "per-phase" or \
                    self.phase.endswith("move-1"):
                c.toc_bank = min(c.toc_bank + rating, planning)                         # Assault 6.A.2
            return {}
        if c.toc_mode == "execute":
            return {key: c.toc_bank}                                                    # Assault 6.A.3
        return {key: rating}

    def _toc_actions(self) -> list[str]:
        """Assault 6.A: at the start of its side's first movement phase each TOC commands (the default), plans
        (not when suppressed, 6.B.1) or executes; neither without its unit HQ in play (6.B.4)."""
        side = self.phasing()
        if not self.phase.endswith("move-1") or any(c.moved or c.changed or c.paid or c.rally_tried
                                                    for c in self.counters if c.side == side):
            return []
        out = []
        for c in self.counters:
            key = c.designation.replace("-", "")
            if c.side != side or not key.startswith("TOC") or (side, key) not in self.ratings:
                continue
            if c.toc_mode != "command" or key not in self.ops[side]:
                continue
            if not any(h.side == side and h.designation.replace("-", "") == f"HQ{key[3:]}" for h in self.counters):
                continue                                                                # Assault 6.B.4
            out += [f"toc {c.id} plan"] if not c.suppressed else []                     # Assault 6.B.1
            out += [f"toc {c.id} execute"] if c.toc_bank > 0 else []
        return out

    def _toc_order(self, c, mode: str) -> None:
        key = c.designation.replace("-", "")
        c.toc_mode = mode
        self.ops[c.side].pop(key, None)
        self.ops[c.side].update(self._source_pool(c, key))

    def _chain(self, c) -> list[str]:
        """The designations of the HQs and TOCs that may pay for ``c`` (Assault 3.A, 4.C), lowest first; Soviet
        battalions reach their regiment through the scenario's battalion -> regiment mapping (4.B.2)."""
        key = (c.side, c.designation)
        cache = self.game.chains
        if key not in cache:
            d = parse(self.game.sides[c.side], c.designation) if c.designation else None
            out = superiors(d) if d is not None else []
            regiment = self.game.regiment_of.get(d.battalion) if d and d.side == "soviet" and d.regiment is None \
                else None
            if regiment is not None and d.role in ("line", "battalion-hq"):
                out += [f"HQ{regiment}", f"TOC{regiment}"]
            cache[key] = tuple(out)
        return list(cache[key])

    def _visible_from(self, key: str, hexes: list, posts: dict) -> bool:
        """Assault 4.C.1: one of ``hexes`` is visible (Rule 10 LOS) from the paying HQ or TOC (``posts``: their
        hexes by designation); off-board and default OPs by option c31."""
        if key in (OFF_BOARD, DEFAULT):
            return self.game.options.get("c31-offboard-ops-visibility") == "visible"
        return any(self.has_los(h, t) for h in posts.get(key, ()) for t in hexes)

    def _payment(self, c, hexes: list | None = None) -> dict | None:
        """The OPs to take from each source for one order of ``c`` (Assault 4.C; seen if one of ``hexes``, by
        default its own, is visible), None when it cannot be paid; {} for units that never pay (asterisk units,
        4.D.1; not for a company rally)."""
        if hexes is None and self.game.card(c.card).body.asterisk:
            return {}
        pools = self.ops[c.side]
        sources = [k for k in self._chain(c) + [OFF_BOARD, DEFAULT] if pools.get(k, 0) > 0]
        if not sources:
            return None
        posts: dict = {}
        for h in self.counters:
            if h.side == c.side and h.designation and h.designation.replace("-", "") in sources:
                posts.setdefault(h.designation.replace("-", ""), []).append(h.hex)
        k = self.game.data.constant
        for key in sources:
            if self._visible_from(key, hexes or [c.hex], posts):
                return {key: k("ops-visible")}
        need = k("ops-not-visible")
        taken: dict = {}
        for key in sources:                      # one from each of two sources, or both from one (Assault 4.C)
            part = min(pools[key], need - sum(taken.values()))
            taken[key] = part
            if sum(taken.values()) == need:
                return taken
        return None

    def _pay(self, c, hexes: list | None = None) -> None:
        for key, n in (self._payment(c, hexes) or {}).items():
            self.ops[c.side][key] -= n
            for toc in self.counters:
                if toc.side == c.side and toc.toc_mode == "execute" and toc.designation.replace("-", "") == key:
                    toc.toc_bank -= n                                                   # Assault 6.A.3

    def _needs_orders(self, c) -> bool:
        """Assault 4.C.2: moving in combat formation needs OPs once per phase (march is free, 7.C; a broken
        unit moves like march formation, 17.A.2)."""
        return c.formation == "combat" and not c.paid and self._company(c).state != "broken"   # 17.A.2
