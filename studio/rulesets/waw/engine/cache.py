"""Incremental legal-action generation for World at War (issue 19): per-unit action lists kept between listings
and invalidated explicitly.

A unit's **move list** (5.0: the hexes it may step into), **fire list** (6.1; a helicopter's Pop-Up attacks,
9.2.1, follow the same rule) and **close list** (6.3 Assault, 6.4 Overrun, 5.2.1 loading) are computed once and
reused until something they depend on changes. What changed is found by comparing, at each listing, every
unit's **signature** (all its per-unit fields: hex, strength, Disrupted, Ops Complete, OOC, MP used and cap,
Moving Fire, Depleted, carrier, mode, helicopter moves, acted, breakdown, fresh, locked, one-hex) with the
previous listing's, and a **global signature** (Thor's Hammer, Smoke, Wrecks, Chemical,
Chaos Leaders, Hallowed Ground, Overruns done): any state write, whatever rule made it, is seen.

Invalidation rules (each a dependency of the uncached computation):

* a unit's own signature changed: all its lists;
* a unit whose old or new hex is within 1 hex changed: the move list (occupancy of the neighbour hexes: enemies,
  1.4 stacking, one HQ per hex; 1.3.3.1 the HQ following from the unit's own hex); within 2 hexes: the close list
  (adjacent enemies, the Overrun exit hexes beyond them, the Assault partner and carriers in the hex);
* an enemy changed anywhere in a field fire or targeting reads (hex, strength, mode, carrier; ``TARGET_FIELDS``):
  the fire list (its targets, 6.1), and the move list of a Disrupted unit (6.1.7: it may not come closer to any
  enemy); an enemy that only became Ops Complete or acted changes neither; friendly units never change the fire
  list (fire legality reads only the firer and the target);
* the global signature changed: every list.

The uncached computation stays the reference: ``WawState.legal_actions_uncached()`` and the tests in
``tests/rulesets/waw/test_cache.py`` compare both on random playouts (same actions, same games).
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

#: per-unit fields of the state record that make up a unit's signature
UNIT_FIELDS = ("hex", "strength", "disr", "ops_complete", "out_of_command", "mp_used", "mp_cap", "mfired",
               "depleted", "carrier", "hover", "mode_changed", "heli_moves", "acted", "breakdown", "fresh",
               "locked", "one_hex")
#: the fields of a unit that another unit's fire, targeting (6.1, 9.3) or 6.1.7 closing-in check reads
TARGET_FIELDS = ("hex", "strength", "hover", "carrier")
_TARGET_AT = tuple(UNIT_FIELDS.index(f) for f in TARGET_FIELDS)
#: a list entry checked against more changes than this is recomputed instead (cheaper than scanning)
MAX_SCAN = 48


def unit_signatures(st) -> list[tuple]:
    return list(zip(*(getattr(st, name) for name in UNIT_FIELDS)))


def global_signature(st) -> tuple:
    return (st.thor, frozenset(st.smoke.items()), frozenset(st.wrecks), frozenset(st.chem),
            tuple(sorted((k, id(v)) for k, v in st.xleaders.items())), frozenset(st.hallowed),
            frozenset(st.overrun_done))


class ListingCache:
    """The per-unit lists of one state (never shared between states: clones and views start empty)."""

    __slots__ = ("sigs", "glob", "log", "moves", "fire", "close", "popup", "sides", "live")

    def __init__(self):
        self.sigs: list[tuple] | None = None
        self.glob: tuple | None = None
        self.log: list[tuple] = []             # (unit, old hex, new hex, target fields changed) per change
        # table -> unit -> (log position when made, actions); the table's rule: (near hexes, enemies matter)
        self.moves: dict[int, tuple[int, list]] = {}
        self.fire: dict[int, tuple[int, list]] = {}
        self.close: dict[int, tuple[int, list]] = {}
        self.popup: dict[int, tuple[int, list]] = {}
        self.sides: list[int] = []
        self.live = False                      # True only while an impulse is being listed (after refresh)

    def refresh(self, st) -> None:
        """Record what changed since the last listing (called at the start of every impulse listing)."""
        sigs = unit_signatures(st)
        glob = global_signature(st)
        old = self.sigs
        if old is None or glob != self.glob or len(old) != len(sigs):
            self.moves.clear()
            self.fire.clear()
            self.close.clear()
            self.popup.clear()
            self.log.clear()
            self.glob = glob
            self.sides = [u.side for u in st.game.units]
        elif old != sigs:
            log = self.log
            for i, (a, b) in enumerate(zip(old, sigs)):
                if a != b:
                    log.append((i, a[0], b[0], any(a[k] != b[k] for k in _TARGET_AT)))
        self.sigs = sigs

    def get(self, table: dict, u: int, st):
        """The cached list of ``u`` in ``table`` when no change since it was made can alter it, else None."""
        entry = table.get(u)
        if entry is None:
            return None
        pos, lst = entry
        log = self.log
        if pos == len(log):
            return lst
        if len(log) - pos > MAX_SCAN:
            return None
        h = st.hex[u]
        side = self.sides[u]
        if table is self.fire or table is self.popup:
            near, enemies = -1, True
        elif table is self.moves:
            near, enemies = 1, st.disr[u]
        else:
            near, enemies = 2, False
        sides = self.sides
        for k in range(pos, len(log)):
            c, oh, nh, seen = log[k]
            if c == u or (enemies and seen and sides[c] != side):
                return None
            if near >= 0 and ((oh is not None and distance(oh, h) <= near) or
                              (nh is not None and distance(nh, h) <= near)):
                return None
        table[u] = (len(log), lst)
        return lst

    def put(self, table: dict, u: int, lst: list) -> list:
        table[u] = (len(self.log), lst)
        return lst
