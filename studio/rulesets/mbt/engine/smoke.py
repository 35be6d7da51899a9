"""Smoke, Barrages and Illumination on the map (MBT 5.11, 6.1.4.3.10, 6.5.1.5, 6.8.6, 7.9, 7.22, 7.27): the
artillery part of the Advanced state (``ArtyState``, one slot ``arty`` of ``AdvState``) and the functions other
chapters call:

* :meth:`SmokeRules.hindrance_modifier` (s, t, 'ap' | 'gp', thermal=False): the net AP or GP modifier of the
  Smoke clouds and Barrages the line of fire starts in, passes through or enters, per unique occurrence (MBT
  6.5.2.5, 6.5.4.3), the larger of smoke and barrage where both share a hex (5.11); Thermal Imager shooters take
  the -1/-2 (AP) and -5/-10 (GP) smoke values of 7.36.4.3 instead. Smoke does not block line of sight (6.1.4.3.10).
* :meth:`SmokeRules.laser_blocked` (a, b): smoke of any kind (Brew-Up and DS included) on the line: laser sights,
  laser-guided ATGMs and designators do not work (MBT 5.1.3.3, 6.5.2.2.5).
* :meth:`SmokeRules.smoke_between` (a, b): smoke strictly between two hexes (night aids spot into but not through
  smoke, MBT 7.36.4).
* :meth:`SmokeRules.observer_hindrances` (a, b): unique Brew-Up Smoke, Smoke and Barrage occurrences on the
  observer's line (Fire Response, MBT 6.5.1.12.1).

Smoke made in a player step takes effect when that step is over (6.1.4.3.10): a cloud records the (turn, phase) it
was made in. Discharger smoke (7.9) counts only for fire to or from its vehicle and the vehicle's passengers, and
goes when the vehicle moves or turns.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from studio.hexgrid import hex_line
from studio.hexgrid.coords import neighbour, within

from .codes import CARRIED, ON
from .if_data import if_data


class Cloud(NamedTuple):
    """A Smoke, Smoke/DS or Illumination counter group: ``kind`` smoke | ds | illum, its hexes, SHEAF (open or
    closed: on-map smoke is closed), On (False = Off), the (turn, phase) it was made in; for DS the vehicle and the
    hex and facing it was made at."""

    kind: str
    hexes: frozenset
    sheaf: str
    on: bool
    made: tuple
    unit: int = -1
    at: tuple = ()


class Barrage(NamedTuple):
    """The SHEAF area of an indirect-fire impact this turn (MBT 6.1.4.3.10): open or closed."""

    hexes: frozenset
    sheaf: str
    made: tuple


class ArtyState:
    """The artillery part of the Advanced state; every field holds immutable values, so a copy is shallow.

    ``clouds`` Smoke/Illumination counters; ``barrages`` this turn's impact areas; ``missions`` running Called
    missions (``indirect.Mission``); ``plans`` per Planned Fire plot the turn it arrived (0 not yet, -1 over);
    ``rest`` per battery the first turn it may fire again (MBT 6.5.1.11.1); ``bat`` per battery its
    counter-battery damage (0 none, 2 Damaged, 3 Knocked Out, MBT 7.28.2) and ``bat_sup`` its Suppression;
    ``specials`` (battery, prefix) -> special missions fired;
    ``cb`` per counter-battery asset: False eliminated; ``cb_used`` assets used this turn; ``checked`` units of
    missions checked this turn (MBT 6.5.1.9); ``ds_under`` vehicles whose DS counter lies under them, ``ds_tried``
    vehicles that tried the dischargers this turn (7.9); ``fo_out`` dismounted FO sections (7.39); ``inf_smoked``
    squads that made infantry smoke this turn and may still fire their attached weapons (7.22.1)."""

    __slots__ = ("clouds", "barrages", "missions", "plans", "rest", "bat", "bat_sup", "specials", "cb", "cb_used",
                 "checked", "ds_under", "ds_tried", "fo_out", "inf_smoked")

    def __init__(self, batteries: int = 0, plans: int = 0, cb: int = 0):
        self.clouds: tuple = ()
        self.barrages: tuple = ()
        self.missions: tuple = ()
        self.plans = (0,) * plans
        self.rest = (0,) * batteries
        self.bat = (0,) * batteries
        self.bat_sup = (False,) * batteries
        self.specials: tuple = ()
        self.cb = (True,) * cb
        self.cb_used: frozenset = frozenset()
        self.checked: frozenset = frozenset()
        self.ds_under: frozenset = frozenset()
        self.ds_tried: frozenset = frozenset()
        self.fo_out: frozenset = frozenset()
        self.inf_smoked: frozenset = frozenset()

    def copy(self) -> "ArtyState":
        return copy.copy(self)

    def fingerprint(self) -> str:
        return repr(tuple(getattr(self, k) for k in self.__slots__))


def sheaf_hexes(tp, sheaf: str, direction: int, values: dict) -> frozenset:
    """The hexes of a SHEAF (MBT 6.5.1.5): on-map (the Target Point), Closed (radius closed-radius), Open (radius
    open-radius), Closed Linear (the Target Point and linear-length hexes on in ``direction``)."""
    if sheaf == "onmap":
        return frozenset((tp,))
    if sheaf == "linear":
        out, h = [tp], tp
        for _ in range(values["linear-length"]):
            h = neighbour(h, direction)
            out.append(h)
        return frozenset(out)
    return frozenset(within(tp, values["open-radius" if sheaf == "open" else "closed-radius"]))


class SmokeRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState` (field ``arty``)."""

    __slots__ = ()

    def step_key(self) -> tuple:
        """The player step smoke is made in: (turn, phase); (turn, 0) while a position is being set up."""
        return (self.turn, getattr(self, "phase", 0))

    def place_cloud(self, kind: str, hexes, sheaf: str, unit: int = -1) -> None:
        """A new Smoke/On (or Illumination/On, Smoke/DS) counter group (MBT 6.1.4.3.10, 7.9, 7.27): an Off
        counter of the same kind in those hexes turns On again instead."""
        hexes = frozenset(h for h in hexes if h in self.game.map.label_of)
        at = (self.hex[unit], self.fac[unit]) if unit >= 0 else ()
        a = self.arty
        keep = tuple(c for c in a.clouds if not (c.kind == kind and c.unit == unit and c.hexes <= hexes))
        a.clouds = keep + (Cloud(kind, hexes, sheaf, True, self.step_key(), unit, at),)

    def _live(self, c: Cloud) -> bool:
        """In effect: made in an earlier step; a DS cloud while its vehicle has not moved or turned (MBT 7.9)."""
        if c.made == self.step_key():
            return False
        if c.kind == "ds":
            u = c.unit
            return self.st[u] in (ON, CARRIED) and (self.hex[u], self.fac[u]) == c.at
        return True

    def live_clouds(self, kind: str = "smoke", s: int = -1, t: int = -1) -> list:
        """Clouds of ``kind`` in effect; ``smoke`` includes the DS clouds of ``s``, ``t`` or their carriers."""
        if not self.arty.clouds:
            return []
        own = {s, t} | {self.carrier[x] for x in (s, t) if x >= 0}
        return [c for c in self.arty.clouds if self._live(c) and
                (c.kind == kind or (kind == "smoke" and c.kind == "ds" and c.unit in own))]

    def live_barrages(self) -> list:
        key = self.step_key()
        return [b for b in self.arty.barrages if b.made != key]

    def _touched(self, a, b, s: int = -1, t: int = -1) -> tuple[list, list]:
        """The smoke clouds and barrages the line a -> b starts in, passes through or enters."""
        clouds = self.live_clouds("smoke", s, t)
        bars = self.live_barrages()
        if not clouds and not bars:
            return [], []
        line = set(hex_line(a, b))
        return [c for c in clouds if c.hexes & line], [x for x in bars if x.hexes & line]

    def hindrance_modifier(self, s: int, t: int, kind: str = "ap", thermal: bool = False) -> int:
        """Smoke and Barrage modifier of a direct shot ``s`` -> ``t`` (MBT 6.5.2.5 AP, 6.5.4.3 GP; thermal
        imagers 7.36.4.3), per unique occurrence; a barrage whose touched hexes all hold smoke gives way to the
        smoke (5.11). Not for indirect fire."""
        if not self.arty.clouds and not self.arty.barrages:
            return 0
        a, b = self.hex[s], self.hex[t]
        clouds, bars = self._touched(a, b, s, t)
        if not clouds and not bars:
            return 0
        col = 0 if kind == "ap" else 1
        hind = if_data(self.game).hind
        if thermal:
            net = sum(hind["thermal-first" if k == 0 else "thermal-next"][col] for k in range(len(clouds)))
        else:
            net = sum(hind[f"smoke-{c.sheaf}"][col] for c in clouds)
        line = set(hex_line(a, b))
        smoky = set().union(*(c.hexes for c in clouds)) if clouds else set()
        for x in bars:
            if (x.hexes & line) - smoky:
                net += hind[f"barrage-{x.sheaf}"][col]
        return net

    def laser_blocked(self, a, b, s: int = -1, t: int = -1) -> bool:
        """Smoke (Brew-Up and DS included) from, into or through the line: no laser sight, laser-guided ATGM or
        designator (MBT 5.1.3.3, 6.5.2.2.5)."""
        if self.brewup_on_line(a, b):
            return True
        return bool(self._touched(a, b, s, t)[0])

    def smoke_between(self, a, b) -> bool:
        """Smoke (or Brew-Up Smoke) strictly between ``a`` and ``b`` (night aids spot into, not through smoke,
        MBT 7.36.4)."""
        inner = set(hex_line(a, b)) - {a, b}
        if any(self.wreck.get(h) == 2 for h in inner):
            return True
        return any(c.hexes & inner for c in self.live_clouds("smoke"))

    def observer_hindrances(self, a, b) -> int:
        """Unique Brew-Up Smoke, Smoke and Barrage occurrences (the observer's own barrage included) on the
        observer-to-Target-Point line (MBT 6.5.1.12.1)."""
        clouds, bars = self._touched(a, b)
        return self.brewup_on_line(a, b) + len(clouds) + len(bars)

    def illuminated(self, h) -> bool:
        """``h`` lies in an Illumination SHEAF in effect (MBT 7.27)."""
        return any(h in c.hexes for c in self.live_clouds("illum"))

    def _smoke_adjust(self) -> None:
        """Adjust/Remove Counters (MBT 6.8.6): Smoke/Off and Illumination/Off go, On turns Off; a Smoke/DS counter
        goes under its vehicle (it may not discharge next turn) and last turn's goes (7.9)."""
        a = self.arty
        a.ds_under = frozenset(c.unit for c in a.clouds if c.kind == "ds")
        a.clouds = tuple(c._replace(on=False) for c in a.clouds if c.on and c.kind != "ds")
        a.ds_tried = frozenset()

    def _arty_turn_start(self) -> None:
        """A new turn: last turn's barrages are lifted (their missions continue or not in the Indirect Fire
        Step), checks and counter-battery uses are this turn's."""
        a = self.arty
        a.barrages = ()
        a.checked = frozenset()
        a.cb_used = frozenset()
        a.inf_smoked = frozenset()


__all__ = ["ArtyState", "Cloud", "Barrage", "SmokeRules", "sheaf_hexes"]
