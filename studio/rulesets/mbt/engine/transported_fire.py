"""Transported fire (MBT 6.6.7.2), Advanced Game: a squad, half-squad or section riding a ground vehicle whose
command is anything but Move fires its GP weapons in the Direct Fire Step like a unit with a Fire command: it
spots for itself from the carrier's hex (its own spotting attempt, the carrier's line of sight), fires at any
target it spots (the carrier's or another), with the Transported modifier (table ``advanced-movement`` row
``transported-gp``, -10) and no Short Halt modifier; from an Under Armor carrier only up to ``transported-ua-range``
(2) hexes. Only its GP rows fire (Direct GP Fire). The carrier, not the passenger, is marked for Small Arms fire
(a Spot/Fire it already has is kept). A passenger with nothing to fire at is not asked. Not from helicopters.
Attached crew-served weapons whose card says ``no_fire_transported`` (HMGs, ATGMs, hand-held anti-tank weapons,
grenade launchers, MANPADS: MBT 5.1.3.2-5.1.3.6) do not fire from the carrier; the squad's own weapons do.
Not modelled: passengers firing Overwatch or observing for indirect fire."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .adv_move_data import adv_move
from .codes import CARRIED, MFIRE, MFIRE_SA, MOVE, ON


class TransportedFireRules:
    """Rules of MBT 6.6.7.2, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def riding(self, p: int, fire: bool = True) -> int:
        """The ground carrier passenger ``p`` rides and may fire from (MBT 6.6.7.2: squads, half-squads and sections,
        not from helicopters; with ``fire``, a carrier command other than Move), or -1."""
        g = self.game
        if self.st[p] != CARRIED or not self.is_leg(p) or self.is_towed(p) or not g.units[p].type.combat:
            return -1
        c = self.carrier[p]
        if c < 0 or self.st[c] != ON or g.units[c].type.ag.heli or (fire and self.cmd[c] == MOVE):
            return -1
        return c

    def _spot_targets(self) -> list[set]:
        """Passengers make their own spotting attempt from the carrier's hex (MBT 6.6.7.2)."""
        out = super()._spot_targets()
        g = self.game
        riders = [p for p in range(g.n) if self.st[p] == CARRIED and self.riding(p, fire=False) >= 0]
        if not riders:
            return out
        clear = g.los.clear
        on = [t for t in range(g.n) if self.st[t] == ON]
        for p in riders:
            hs, side = self.hex[self.carrier[p]], g.units[p].side
            self.spots[p] = tuple(t for t in on if g.units[t].side != side and
                                  distance(hs, self.hex[t]) <= self.spot_range(t, df=True) and clear(hs, self.hex[t]))
        return out

    def _df_shooters(self) -> list[int]:
        out = super()._df_shooters()
        g = self.game
        announced = {s for s, _, _ in self.shots}
        for p in g.units_of(self.df_side):
            if self.st[p] == CARRIED and not self.fired[p] and p not in announced and self.riding(p) >= 0 and \
                    self.fire_options(p, self.df_targets(p)):
                out.append(p)
        return out

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """A passenger fires only its GP rows, from an Under Armor carrier up to 2 hexes (MBT 6.6.7.2)."""
        if self.st[s] != CARRIED:
            return super().weapon_ok(s, t, row)
        c = self.riding(s)
        if c < 0 or row.kind != "GP" or (row.card and transport_barred(self.game, row.card)):
            return False
        if self.game.units[c].type.ag.protection == "under_armor" and \
                distance(self.hex[c], self.hex[t]) > adv_move(self.game).val["transported-ua-range"]:
            return False
        return super().weapon_ok(s, t, row)

    def gp_modifiers(self, s: int, t: int, row, band: str, overwatch: bool) -> int:
        """Transported -10 (MBT 6.6.7.2); crawling +10 (6.6.4.3) and Hasty Entrenchment -10 (6.5.4.3) targets."""
        net = super().gp_modifiers(s, t, row, band, overwatch)
        if self.st[s] == CARRIED:
            net += adv_move(self.game).val["transported-gp"]
        return net + self.target_move_modifiers(t)

    def target_move_modifiers(self, t: int) -> int:
        """GP modifiers of this chapter on a target (direct and indirect fire): crawling, Hasty Entrenchment."""
        return self.crawl_modifier(t) + self.hasty_modifier(t)

    def if_modifiers(self, t: int, fire, tp) -> int:
        return super().if_modifiers(t, fire, tp) + self.target_move_modifiers(t)

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """The carrier is marked for the passenger's Small Arms fire, keeping a full Spot/Fire (MBT 6.6.7.2)."""
        c = self.carrier[s] if self.st[s] == CARRIED else -1
        if c >= 0:
            self.narrate(f"{self.game.units[s].name} fires from {self.game.units[c].name} (transported fire)")
        super()._shoot(s, t, row, overwatch)
        if c >= 0:
            self.mk[c] = MFIRE if self.mk[c] == MFIRE else MFIRE_SA


__all__ = ["TransportedFireRules"]


def transport_barred(game, card_id: str) -> bool:
    """Does attached crew-served card ``card_id`` say it may not fire while transported (MBT 5.1.3.2-5.1.3.6)?
    Cached on the game."""
    cache = game.__dict__.setdefault("_transport_barred", {})
    if card_id not in cache:
        card = game.index.model("unit", card_id)
        body = card.body.model_dump() if hasattr(card.body, "model_dump") else dict(card.body)
        cache[card_id] = bool(((body.get("weapon") or {}).get("restrictions") or {}).get("no_fire_transported"))
    return cache[card_id]
