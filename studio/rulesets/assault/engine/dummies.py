"""Dummy counters (Assault 10.F, 18) as a mixin of ``AssaultState``.

A dummy is a counter with ``dummy`` set. It stands in for a unit of the card it imitates (its ``card``: the
counter it was placed with), so it moves with that card's mobility class and movement allowance (10.F: "with
whatever mobility category and movement allowance desired"); it needs no operations points (it is nobody's
order), never fires, calls fire, carries, is carried or counts for stacking, defence or victory, and takes no
indirect fire. It may spot, as a non-recon armoured vehicle (the spotter-status row 'armored-vehicle'), and may
occupy an entrenchment (18).

- Set-up: the scenario's ``dummies`` (side -> count); the engine places each in the hex of one of the side's
  set-up counters (the last ones first, never a static or carried one) and it imitates that counter's card.
- Removal: a dummy that is spotted, fired at, or shares a hex with an enemy unit is removed (10.F) and goes to
  its side's pool (``dummy_pool``).
- Return (10.F): ``dummy <unit>`` at the start of a friendly movement phase (before any unit moves) puts a
  pooled dummy, unspotted, in the hex of ``<unit>``, an unspotted friendly unit that is not carried.
- Hidden information: dummies are never spotted, so the enemy's observation never holds them; a scrambled state
  (``scramble_hidden``) draws the dummy flag of every hidden enemy counter anew.
"""
from __future__ import annotations


class Dummies:
    """Methods of ``AssaultState`` for Assault 10.F."""

    def _real(self, c) -> bool:
        return not c.dummy

    def _purge_dummies(self) -> None:
        """Assault 10.F: spotted dummies, and dummies sharing a hex with an enemy unit, are removed to the pool."""
        gone = [c for c in self.counters if c.dummy and (c.spotted or self._enemy_at(c.hex, c.side))]
        if not gone:
            return
        for c in gone:
            self.dummy_pool[c.side] += 1
            self.narrate(f"{c.id} is found to be a dummy in {self.game.map.label_of[c.hex]} and is removed (10.F)")
        self.counters = [c for c in self.counters if not any(c is g for g in gone)]

    def _unmask(self, targets: list) -> None:
        """Assault 10.F: a dummy fired at is found out (removed by ``_purge_dummies``; the fire does nothing)."""
        for t in targets:
            if t.dummy:
                t.spotted = True

    def _dummy_actions(self) -> list[str]:
        """Assault 10.F: at the start of a friendly movement phase a pooled dummy returns in the hex of an
        unspotted friendly unit."""
        side = self.phasing()
        if self.dummy_pool[side] <= 0 or self.dummy_closed or self._side_started(side):
            return []
        return [f"dummy {c.id}" for c in self.counters
                if c.side == side and not c.dummy and not c.spotted and not c.carrier]

    def _side_started(self, side: int) -> bool:
        """Whether a counter of ``side`` has moved, changed formation or been paid for this phase. A mover that
        is gone since (a found dummy, a unit lost to opportunity fire, an exit) left ``dummy_closed`` set by
        its move, so the return window does not open again."""
        return any(c.moved or c.changed or c.paid for c in self.counters if c.side == side)

    def _return_dummy(self, host) -> None:
        self.dummy_pool[host.side] -= 1
        self.counters.append(self._new_dummy(host))
        self.narrate(f"a dummy returns with {host.id} (10.F)")

    def _new_dummy(self, host):
        """A dummy imitating ``host``'s card, in its hex, facing and formation."""
        from .game import Counter
        self.dummies_made[host.side] += 1
        sid = self.game.sides[host.side]
        n = self.dummies_made[host.side]
        return Counter(f"{sid}-dummy-{n}", host.card, host.side, host.hex, 1, formation=host.formation,
                       facing=host.facing, company=f"{sid}-dummy-{n}", dummy=True)

    def _place_dummies(self) -> None:
        """Set-up (Assault 10.F, 24): the scenario's dummies, each with one of the side's set-up counters."""
        for side, sid in enumerate(self.game.sides):
            n = self.game.scenario.extension.dummies.get(sid, 0)
            hosts = [c for c in reversed(self.counters) if c.side == side and not c.carrier and not c.dummy
                     and self.game.card(c.card).body.mobility != "S"
                     and self.game.card(c.card).body.indirect_fire is None]
            for k in range(n):
                if not hosts:
                    self.dummy_pool[side] += n - k
                    break
                self.counters.append(self._new_dummy(hosts[k % len(hosts)]))
