"""Incremental legal-action generation for World at War (issue 19): per-unit action lists kept between listings
and invalidated explicitly.

A unit's **move list** (5.0: the hexes it may step into), **fire list** (6.1; a helicopter's Pop-Up attacks,
9.2.1, follow the same rule) and **close list** (6.3 Assault, 6.4 Overrun, 5.2.1 loading) are computed once and
reused until something they depend on changes (a list is dropped when a change it depends on is seen, so a kept
list is valid as it stands). What changed is found by comparing, at each listing, every
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
  the fire list (its targets, 6.1), the artillery call list (8.0: enemy hexes in LOS; kept per number of calls
  made and missions left), and the move list of a Disrupted unit (6.1.7: it may not come closer to any
  enemy); an enemy that only became Ops Complete or acted changes neither; friendly units never change the fire
  list (fire legality reads only the firer and the target);
* the global signature changed: every list.

The listing also keeps the per-hex occupancy (:func:`build_occupancy`) between listings, moving only the units
that changed (placed, removed, moved, loaded or unloaded); the derived per-side lists (living units, targets)
are dropped when a unit is placed, removed, loaded or unloaded.

The uncached computation stays the reference: ``WawState.legal_actions_uncached()`` and the tests in
``tests/rulesets/waw/test_cache.py`` compare both on random playouts (same actions, same games).
"""
from __future__ import annotations

from bisect import insort
from itertools import compress
from operator import attrgetter, ne

#: per-unit fields of the state record that make up a unit's signature
UNIT_FIELDS = ("hex", "strength", "disr", "ops_complete", "out_of_command", "mp_used", "mp_cap", "mfired",
               "depleted", "carrier", "hover", "mode_changed", "heli_moves", "acted", "breakdown", "fresh",
               "locked", "one_hex")
#: the fields of a unit that another unit's fire, targeting (6.1, 9.3) or 6.1.7 closing-in check reads
TARGET_FIELDS = ("hex", "strength", "hover", "carrier")
_TARGET_AT = tuple(UNIT_FIELDS.index(f) for f in TARGET_FIELDS)
_HEX, _STRENGTH, _CARRIER = (UNIT_FIELDS.index(f) for f in ("hex", "strength", "carrier"))
#: occupancy keys derived from the unit lists, dropped when a unit is placed, removed or (un)loaded
DERIVED_KEYS = ("alive", "targets")


def unit_signatures(st) -> list[tuple]:
    """Every unit's signature (the tuple of its ``UNIT_FIELDS``), in unit order."""
    return list(zip(*(getattr(st, name) for name in UNIT_FIELDS)))


def global_signature(st) -> tuple:
    """The markers every list may read (copies: compared with ``==`` at the next listing)."""
    return (st.thor, dict(st.smoke), set(st.wrecks), set(st.chem), {k: id(v) for k, v in st.xleaders.items()},
            set(st.hallowed), set(st.overrun_done))


def _same_globals(st, glob: tuple | None) -> bool:
    """Are the markers of ``global_signature`` as in ``glob`` (no copies made)?"""
    if glob is None:
        return False
    thor, smoke, wrecks, chem, xleaders, hallowed, overrun = glob
    return (st.thor == thor and st.smoke == smoke and st.wrecks == wrecks and st.chem == chem
            and len(st.xleaders) == len(xleaders) and all(id(v) == xleaders.get(k) for k, v in st.xleaders.items())
            and st.hallowed == hallowed and st.overrun_done == overrun)


_unit_lists = attrgetter(*UNIT_FIELDS)


def build_occupancy(st) -> dict:
    """The per-hex occupancy from scratch: ``hex`` -> units there, ``(hex, side)`` -> that side's units there
    (unit order), ``("g", hex, side)`` -> how many of them are uncarried ground units (not helicopters or HQs: what
    an Assault or Overrun meets, 6.3, 6.4), ``("G", side)`` -> the set of hexes where that count is not 0, and
    ``("s", hex, side)`` -> how many count for stacking (1.4)."""
    g = st.game
    occ: dict = {("G", s): set() for s in (0, 1, *g.side_of)}     # both sides (1 - side), even with no units
    hx, st_, carrier = st.hex, st.strength, st.carrier
    sides, ground, stacks = g.side_of, g.ground_unit, g.stacking_unit
    for i in range(len(hx)):
        h = hx[i]
        if st_[i] < 2 and h is not None:
            occ.setdefault(h, []).append(i)
            occ.setdefault((h, sides[i]), []).append(i)
            if carrier[i] < 0:
                _count(occ, i, h, sides, ground, stacks, 1)
    return occ


def _count(occ: dict, i: int, h, sides, ground, stacks, step: int) -> None:
    """Count unit ``i`` in (``step`` 1) or out of (-1) the ground and stacking counts of hex ``h`` (no zeros)."""
    if ground[i]:
        key = ("g", h, sides[i])
        if _add(occ, key, step):
            occ[("G", sides[i])].add(h)
        else:
            occ[("G", sides[i])].discard(h)
        if stacks[i]:
            _add(occ, ("s", h, sides[i]), step)


def _add(occ: dict, key: tuple, step: int) -> int:
    """Add ``step`` to the count ``key`` (deleted at 0); the new count."""
    n = occ.get(key, 0) + step
    if n:
        occ[key] = n
    else:
        del occ[key]
    return n


def _place(occ: dict, i: int, h, carried: bool, g, step: int) -> None:
    """Add (``step`` 1) or remove (-1) unit ``i`` at hex ``h`` in an occupancy made by :func:`build_occupancy`."""
    side = g.side_of[i]
    for key in (h, (h, side)):
        if step > 0:
            insort(occ.setdefault(key, []), i)
        else:
            lst = occ[key]
            lst.remove(i)
            if not lst:
                del occ[key]
    if not carried:
        _count(occ, i, h, g.side_of, g.ground_unit, g.stacking_unit, step)


class ListingCache:
    """The per-unit lists of one state and of its observations (which share its unit lists; clones start
    empty), and the occupancy kept up to date from the changes seen at each listing."""

    __slots__ = ("fields", "glob", "moves", "fire", "close", "popup", "calls", "sides", "live", "occ", "seen",
                 "seen_all")

    def __init__(self):
        self.fields: list[list] | None = None   # copies of the UNIT_FIELDS lists at the last listing
        self.glob: tuple | None = None
        # table -> unit -> (enemy changes seen when made, key, actions): dropped by the locality rules above,
        # stale (for fire, Pop-Up, artillery calls and a Disrupted unit's moves) once an enemy's target field
        # changed since it was made, or when asked with another key (what else the list read: calls, missions)
        self.moves: dict[int, tuple] = {}
        self.fire: dict[int, tuple] = {}
        self.close: dict[int, tuple] = {}
        self.popup: dict[int, tuple] = {}
        self.calls: dict[int, tuple] = {}
        self.sides: list[int] = []
        self.seen: list[int] = []              # per side: changes of its units' target fields (TARGET_FIELDS)
        self.seen_all = 0
        self.live = False                      # True only while an impulse is being listed (after refresh)
        self.occ: dict | None = None           # build_occupancy(st) of the last listing, updated in place

    @property
    def sigs(self) -> list[tuple] | None:
        """Every unit's signature at the last listing (as ``unit_signatures``)."""
        return None if self.fields is None else list(zip(*self.fields))

    def refresh(self, st) -> dict:
        """Drop the lists that what changed since the last listing can alter (called at the start of every
        listing); return the occupancy of ``st`` (kept up to date from the changes)."""
        old = self.fields
        cur = list(_unit_lists(st))
        if old is None or len(old[0]) != len(st.hex):
            self._clear(st, global_signature(st))
            self.fields = [list(x) for x in cur]
            self.occ = build_occupancy(st)
            return self.occ
        if old != cur:                         # one C-level comparison when nothing changed
            self._record(st, old, cur, _changed_units(old, cur))
            for k, (a, b) in enumerate(zip(old, cur)):
                if a != b:
                    old[k] = list(b)           # copies: the state's lists change in place
        if not _same_globals(st, self.glob):
            self._clear(st, global_signature(st))
        return self.occ

    def _clear(self, st, glob: tuple) -> None:
        for table in (self.moves, self.fire, self.close, self.popup, self.calls):
            table.clear()
        self.glob = glob
        self.sides = list(st.game.side_of)
        if len(self.seen) <= max(self.sides, default=0):
            self.seen = [0] * (max(self.sides, default=0) + 1)
            self.seen_all = 0

    def _record(self, st, old: list[list], cur: list[list], changed: list[int]) -> None:
        """Move each changed unit in the occupancy (placed, removed, moved, loaded or unloaded), then drop the
        lists its change can alter."""
        occ, g = self.occ, st.game
        placed = False
        for i in changed:
            oh, nh = old[_HEX][i], cur[_HEX][i]
            was = (oh, old[_STRENGTH][i] < 2 and oh is not None, old[_CARRIER][i] >= 0)
            now = (nh, cur[_STRENGTH][i] < 2 and nh is not None, cur[_CARRIER][i] >= 0)
            if was != now:
                if was[1]:
                    _place(occ, i, oh, was[2], g, -1)
                if now[1]:
                    _place(occ, i, nh, now[2], g, 1)
                placed = placed or was[1:] != now[1:]
        if placed:
            for key in [k for k in occ if type(k) is tuple and k[0] in DERIVED_KEYS]:
                del occ[key]
        for i in changed:
            self._drop(st, i, old[_HEX][i], cur[_HEX][i], _target_changed(old, cur, i))

    def _drop(self, st, c: int, oh, nh, seen: bool) -> None:
        """The invalidation rules for one changed unit ``c`` (old hex ``oh``, new hex ``nh``; ``seen``: a field
        another unit's fire or targeting reads changed)."""
        moves, close, occ = self.moves, self.close, self.occ
        for table in (moves, self.fire, close, self.popup, self.calls):
            table.pop(c, None)
        near1, near2 = _near(st.game, oh, nh)
        keys = occ.keys()
        for x in near1 & keys:                 # only the occupied hexes (one C-level intersection)
            for u in occ[x]:
                moves.pop(u, None)
                close.pop(u, None)
        for x in near2 & keys:
            for u in occ[x]:
                close.pop(u, None)
        if seen:
            self.seen[self.sides[c]] += 1      # the enemies' fire, Pop-Up and Disrupted move lists go stale
            self.seen_all += 1

    def _enemy_changes(self, u: int) -> int:
        return self.seen_all - self.seen[self.sides[u]]

    def get(self, table: dict, u: int, st, key=None):
        """The kept list of ``u`` in ``table`` (valid: no change it depends on was seen since, made for ``key``),
        else None."""
        entry = table.get(u)
        if entry is None:
            return None
        made, kept_key, lst = entry
        if kept_key != key:
            return None
        if made != self._enemy_changes(u) and (table is not self.close and
                                               (table is not self.moves or st.disr[u])):
            return None
        return lst

    def put(self, table: dict, u: int, lst: list, key=None) -> list:
        table[u] = (self._enemy_changes(u), key, lst)
        return lst


def _target_changed(old: list[list], cur: list[list], i: int) -> bool:
    """Did a field another unit's fire or targeting reads (``TARGET_FIELDS``) of unit ``i`` change?"""
    for k in _TARGET_AT:
        if old[k][i] != cur[k][i]:
            return True
    return False


def _near(g, oh, nh) -> tuple[frozenset, frozenset]:
    """The map hexes within 1 of ``oh`` or ``nh`` (None: no hex), and those within 2 but not 1 (per game)."""
    key = (oh, nh)
    hit = g.near_pair.get(key)
    if hit is None:
        ends = [h for h in (oh, nh) if h is not None]
        one = {x for h in ends for x in g.within1.get(h, ())}
        two = {x for h in ends for x in g.ring2.get(h, ())} - one
        hit = g.near_pair[key] = (frozenset(one), frozenset(two))
    return hit


def _changed_units(old: list[list], cur: list[list]) -> list[int]:
    """The units whose signature differs between two sets of field lists (one C-level comparison per field, a
    scan only of the fields that changed; measured faster than comparing blocks of units first)."""
    changed: set[int] = set()
    n = range(len(cur[0]))
    for a, b in zip(old, cur):
        if a != b:
            changed.update(compress(n, map(ne, a, b)))
    return sorted(changed)
