"""Caches of the Assault engine (issue 19: speed), each with its invalidation stated, as a mixin of
``AssaultState``. Nothing here is a rule: every cached answer is the answer the uncached code gives, and
``AssaultGame.caches = False`` turns every cache off (``tests/rulesets/assault/test_speed_caches.py`` plays seeded
random games both ways and compares the legal actions and the fingerprints at every step).

- Per decision (``Decision``): while ``legal_actions`` runs nothing in the state changes, so what it asks many
  times is worked out once: the counters in each hex, the HQ and TOC posts of each side (4.C.1), the payment of
  each order (4.C), and whether any company is broken (17.A.2). The cache lives for one call of
  ``legal_actions`` and is dropped when it returns (nothing outlives the decision, so nothing to invalidate).
- Per game (static map and cards): the terrain-effects cell of an entry by card, formation, from-hex, to-hex and
  road (7.B-7.E, ``entry_cells``; emptied when a terrain-effects row is edited in place, checked once per
  decision: ``AssaultGame.entry_table``); the LOS graph per pair of hexes (``los_cache``, ``game.py``, never
  invalidated: terrain and elevation do not change in play).
- Per smoke (``smoke_los``): whether the screens on the map block a sight line (20.B), keyed by the screens
  themselves, so a change of smoke is a new key (at most ``SMOKE_KEYS`` kept, the oldest dropped); the last one
  used is found by the identity of the state's ``smoke`` list (the engine assigns a new list when the screens
  change; nothing edits one in place).
- Per game: the Soviet battle-drill group keys of a designation (4.D.2, ``drill_keys``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: smoke configurations whose blocked sight lines are kept per game (the oldest is dropped beyond it)
SMOKE_KEYS = 32


@dataclass(slots=True)
class Decision:
    """What one call of ``legal_actions`` asks many times (see the module docstring)."""

    occupants: dict                                  # hex -> the counters in it, in counter order
    entries: dict                                    # the game's entry_cells (checked once per decision)
    posts: dict = field(default_factory=dict)        # side -> designation -> hexes of its HQ/TOC counters
    payments: dict = field(default_factory=dict)     # order key -> ``_payment`` answer
    broken: bool | None = None                       # whether any company is broken (None: not asked yet)


def occupancy(counters: list) -> dict:
    """Hex -> the counters in it (counter order)."""
    out: dict = {}
    for c in counters:
        out.setdefault(c.hex, []).append(c)
    return out


class Caches:
    """Methods of ``AssaultState`` that read the caches (see the module docstring)."""

    def _decision(self):
        """The cache of the ``legal_actions`` call under way, None outside one or with caches off."""
        return self.__dict__.get("_deciding")

    def legal_actions(self) -> list[str]:
        """The legal actions (``_legal_actions``), worked out with one ``Decision`` cache."""
        if not self.game.caches or self.__dict__.get("_deciding") is not None:
            return self._legal_actions()
        self._deciding = Decision(occupancy(self.counters), self.game.entry_table())
        try:
            return self._legal_actions()
        finally:
            del self._deciding

    def _here(self, h) -> list:
        """The counters in hex ``h`` (counter order)."""
        d = self._decision()
        if d is None:
            return [c for c in self.counters if c.hex == h]
        return d.occupants.get(h, ())

    def _any_broken(self) -> bool:
        """Whether any company is broken (Assault 17.A.2)."""
        d = self._decision()
        if d is None:
            return any(m.state == "broken" for m in self.morale.values())
        if d.broken is None:
            d.broken = any(m.state == "broken" for m in self.morale.values())
        return d.broken

    def _posts(self, side: int) -> dict:
        """Designation (without '-') -> the hexes of ``side``'s counters with it, in counter order (4.C.1)."""
        d = self._decision()
        if d is not None and side in d.posts:
            return d.posts[side]
        out: dict = {}
        for h in self.counters:
            if h.side == side and h.designation:
                out.setdefault(h.designation.replace("-", ""), []).append(h.hex)
        if d is not None:
            d.posts[side] = out
        return out

    def _payment(self, c, hexes: list | None = None) -> dict | None:
        """``_payment_now`` (Assault 4.C), once per order and decision."""
        d = self._decision()
        if d is None:
            return self._payment_now(c, hexes)
        key = (c.id, c.side, c.card, c.hex, c.designation, c.attached, c.dummy, None if hexes is None
               else tuple(hexes))
        if key not in d.payments:
            d.payments[key] = self._payment_now(c, hexes)
        return d.payments[key]

    def _smoke_table(self) -> dict | None:
        """(from, to, thermal) -> whether the screens on the map block that line (20.B); None with caches off.
        The last table is found again by the identity of the ``smoke`` list (the engine replaces the list when
        the screens change, never edits it in place); else by the screens themselves."""
        if not self.game.caches:
            return None
        last = self.game.smoke_last
        if last is not None and last[0] is self.smoke:
            return last[1]
        key = tuple(self.smoke)
        tables = self.game.smoke_los
        if key not in tables:
            if len(tables) >= SMOKE_KEYS:
                del tables[next(iter(tables))]
            tables[key] = {}
        self.game.smoke_last = (self.smoke, tables[key])
        return tables[key]
