"""Optional rule 7.28 Counter Battery Fire: the scenario's dedicated counter-battery assets (extension
``counter_battery``) each try, once per turn, to locate an opposing off-map battery after it fired this turn
(responded to a call, continued, or arrived as planned fire; resolved after that battery's mission, 7.28.1).
Announcing is free and unlimited, so it is always announced (``ENGINE_POLICIES['counter-battery']``).

Locate (7.28.2): roll (100) + ``cb-consecutive-2-3`` / ``cb-consecutive-4`` (the battery's current mission has run
2-3 / 4+ consecutive turns) + ``cb-self-propelled`` (SP battery) at or under the battery card's
``counter_battery.location_max``. Effect roll (100): up to ``cb-suppressed-max`` Suppressed (GP fire with the
Shooter Suppressed modifier, recovery at the Adjustment Phase on roll (100) up to ``cb-recovery-max``, no
modifiers), up to ``cb-damaged-max`` Damaged (Shooter Damaged GP modifier, ``cb-damaged-response`` on Fire
Response; a second Damaged is a Knock Out), else Knocked Out (fires no more). Counter-counter battery (7.28.3):
then one counter-battery asset of the battery's side tries the same against the asset that fired (with the
asset card's location range and SP modifier): Suppression is ignored, Damaged or Knocked Out eliminates it.
Victory points (7.28.2-3): a battery Knocked Out or an asset eliminated gives its card's listed
``counter_battery.victory_points`` to the opposing side (``bonus_vp``, added to the scenario's conditions by
``AdjustmentRules.outcome``); the loss is not a unit loss (``lost``: not for morale)."""
from __future__ import annotations

from .if_data import if_data

CB_RESULTS = ("Suppressed", "Damaged", "Knocked Out")


class CounterBatteryRules:
    """Mixed into :class:`~.advanced.AdvState` before ``IndirectRules`` (its battery hooks)."""

    __slots__ = ()

    def battery_response_modifier(self, b: int) -> int:
        """A Damaged battery's Fire Response modifier (MBT 7.28.2)."""
        if self.arty.bat[b] == 2:
            return if_data(self.game).opt["cb-damaged-response"]
        return 0

    def battery_gp_modifier(self, b: int) -> int:
        """Shooter Suppressed / Shooter Damaged GP modifiers of a battery (MBT 7.28.2, 6.5.4.3)."""
        m = self.game.ag.gp_mod
        a = self.arty
        return (m["shooter-suppressed"] if a.bat_sup[b] else 0) + (m["shooter-damaged"] if a.bat[b] == 2 else 0)

    def _consecutive(self, b: int) -> int:
        """Consecutive turns of battery ``b``'s current mission, this turn included."""
        g = self.game
        name = g.batteries[b].name
        for m in self.arty.missions:
            if any(f.source == name for f in m.fires):
                return m.turns
        for k, p in enumerate(if_data(g).plans):
            start = self.arty.plans[k]
            if p.battery == b and start > 0:
                return self.turn - start + 1
        return 1

    def _locate(self, target: str, sp: bool, turns: int, location_max: int, label: str) -> bool:
        opt = if_data(self.game).opt
        mod = (opt["cb-consecutive-4"] if turns >= 4 else opt["cb-consecutive-2-3"] if turns >= 2 else 0)
        mod += opt["cb-self-propelled"] if sp else 0
        roll = self.dice.roll(100, f"CB locate {label}>{target}")
        ok = roll + mod <= location_max
        self.narrate(f"{label} tries to locate {target} (7.28.2): roll {roll}{mod:+d} vs {location_max}: "
                     f"{'located' if ok else 'not located'}")
        return ok

    def _cb_effect(self, label: str, target: str) -> int:
        """0 Suppressed, 1 Damaged, 2 Knocked Out (MBT 7.28.2)."""
        opt = if_data(self.game).opt
        roll = self.dice.roll(100, f"CB effect {label}>{target}")
        k = 0 if roll <= opt["cb-suppressed-max"] else 1 if roll <= opt["cb-damaged-max"] else 2
        self.narrate(f"counter-battery fire at {target}: roll {roll}: {CB_RESULTS[k]}")
        return k

    def after_battery_fire(self, b: int) -> None:
        """Counter-battery fire at battery ``b`` after its mission this turn (MBT 7.28.1-3)."""
        g = self.game
        if not g.optional_on("counter-battery"):
            return
        ifd = if_data(g)
        a = self.arty
        bat = g.batteries[b]
        c = next((c for c, x in enumerate(ifd.cb_assets) if x.side != bat.side and a.cb[c] and c not in a.cb_used),
                 None)
        facts = ifd.batteries[b]
        if c is None or facts.location_max is None or a.bat[b] == 3:
            return
        a.cb_used = a.cb_used | {c}
        label = ifd.cb_assets[c].name
        if not self._locate(bat.name, facts.self_propelled, self._consecutive(b), facts.location_max, label):
            return
        k = self._cb_effect(label, bat.name)
        if k == 0:
            a.bat_sup = a.bat_sup[:b] + (True,) + a.bat_sup[b + 1:]
        else:
            a.bat = a.bat[:b] + (3 if k == 2 or a.bat[b] == 2 else 2,) + a.bat[b + 1:]
        self._counter_counter(c, bat.side, facts.location_max)

    def _counter_counter(self, c: int, side: int, location_max: int) -> None:
        """MBT 7.28.3: one asset of ``side`` fires back at asset ``c``; Damaged or Knocked Out eliminates it."""
        ifd = if_data(self.game)
        a = self.arty
        d = next((d for d, x in enumerate(ifd.cb_assets) if x.side == side and a.cb[d] and d not in a.cb_used), None)
        if d is None:
            return
        a.cb_used = a.cb_used | {d}
        asset = ifd.cb_assets[c]
        label, target = ifd.cb_assets[d].name, asset.name
        top = asset.location_max if asset.location_max is not None else location_max
        if self._locate(target, asset.self_propelled, 1, top, label) and self._cb_effect(label, target) > 0:
            a.cb = a.cb[:c] + (False,) + a.cb[c + 1:]
            self.narrate(f"{target} is eliminated (7.28.3)")

    def bonus_vp(self) -> list | None:
        """Victory points per side for opposing batteries Knocked Out and counter-battery assets eliminated by
        counter-battery fire: their cards' listed points (MBT 7.28.2, 7.28.3); None when the rule is off."""
        base = super().bonus_vp()
        g = self.game
        if not g.optional_on("counter-battery"):
            return base
        ifd = if_data(g)
        a = self.arty
        vp = list(base) if base else [0.0] * len(g.sides)
        lost = [(g.batteries[b].side, ifd.batteries[b].victory_points) for b, dmg in enumerate(a.bat) if dmg == 3]
        lost += [(ifd.cb_assets[c].side, ifd.cb_assets[c].victory_points) for c, alive in enumerate(a.cb) if not alive]
        for side, points in lost:
            for s in range(len(vp)):
                vp[s] += points if s != side else 0
        return vp

    def _battery_recovery(self) -> None:
        """Suppressed batteries recover on roll (100) up to cb-recovery-max, no modifiers (MBT 7.28.2)."""
        a = self.arty
        if not any(a.bat_sup):
            return
        top = if_data(self.game).opt["cb-recovery-max"]
        sup = list(a.bat_sup)
        for b, on in enumerate(sup):
            if on:
                roll = self.dice.roll(100, f"battery recovery {self.game.batteries[b].name}")
                sup[b] = roll > top
                self.narrate(f"{self.game.batteries[b].name} recovery roll {roll} vs {top}: "
                             f"{'still Suppressed' if sup[b] else 'recovers'}")
        a.bat_sup = tuple(sup)


__all__ = ["CounterBatteryRules"]
