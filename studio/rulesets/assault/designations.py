"""Unit designations of Assault (Assault 3): the U.S. and Soviet grammars as a parser.

``parse(side, text) -> Designation | None``: the organisation a counter's designation names, or None when the
text is not a designation of that side's grammar. U.S. (Assault 3.B): ``2C1`` platoon 2 of C company of the
1st battalion, ``M3`` the battalion mortar platoon, ``1M2`` / ``3S1`` / ``7AT3`` sections of the battalion
mortar, scout and anti-tank platoons, ``TOC1`` the battalion TOC, ``HQE2`` a company HQ, ``HQ2`` a battalion
HQ. Soviet (Assault 3.C): ``C3`` / ``AT6`` a unit of a company of a battalion, ``AT-91`` (hyphen optional,
reading c3) a company directly under regiment 91 (regimental numbers are two digits beginning with 9),
``HQ3`` a battalion HQ, ``HQ91`` a regimental HQ, ``TOC91`` a regimental TOC; Soviets have no company HQs and
no battalion TOCs (3.C.2-3), so ``HQE2`` and ``TOC3`` are not Soviet designations.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Role = Literal["line", "mortar", "scout", "at", "toc", "company-hq", "battalion-hq", "regiment-hq"]

#: company letters / codes reserved for battalion-level platoons (Assault 3.B.1-3)
US_RESERVED = ("M", "S")


@dataclass(frozen=True, slots=True)
class Designation:
    """What a designation names: role, platoon/section number, company code, battalion or regiment number."""

    side: str
    role: Role
    number: int | None = None      # platoon or section number
    company: str | None = None     # company letter(s) / code
    battalion: int | None = None
    regiment: int | None = None

    @property
    def is_hq(self) -> bool:
        return self.role.endswith("-hq")


_US = [
    (re.compile(r"^HQ(?P<co>[A-Z])(?P<bn>\d)$"), "company-hq"),          # Assault 3.B.5
    (re.compile(r"^HQ(?P<bn>\d)$"), "battalion-hq"),                     # Assault 3.B.5
    (re.compile(r"^TOC(?P<bn>\d)$"), "toc"),                             # Assault 3.B.4
    (re.compile(r"^(?P<n>\d+)AT(?P<bn>\d)$"), "at"),                     # Assault 3.B.3
    (re.compile(r"^M(?P<bn>\d)$"), "mortar"),                            # Assault 3.B.1
    (re.compile(r"^(?P<n>\d+)M(?P<bn>\d)$"), "mortar"),                  # Assault 3.B.1
    (re.compile(r"^(?P<n>\d+)S(?P<bn>\d)$"), "scout"),                   # Assault 3.B.2
    (re.compile(r"^(?P<n>\d+)(?P<co>[A-Z])(?P<bn>\d)$"), "line"),        # Assault 3.B
]

_SOVIET = [
    (re.compile(r"^HQ(?P<reg>9\d)$"), "regiment-hq"),                   # Assault 3.C.1
    (re.compile(r"^TOC(?P<reg>9\d)$"), "toc"),                           # Assault 3.C.3
    (re.compile(r"^HQ(?P<bn>\d)$"), "battalion-hq"),                  # Assault 3.C.2
    (re.compile(r"^(?P<co>[A-Z]{1,3})-?(?P<reg>9\d)$"), "line"),        # Assault 3.C.1 (reading c3)
    (re.compile(r"^(?P<co>[A-Z]{1,3})(?P<bn>\d)$"), "line"),         # Assault 3.C
]


def _build(side: str, role: str, m: re.Match) -> Designation:
    g = m.groupdict()
    num = lambda k: int(g[k]) if g.get(k) else None  # noqa: E731
    return Designation(side=side, role=role, number=num("n"), company=g.get("co"), battalion=num("bn"),
                       regiment=num("reg"))


def parse(side: str, text: str) -> Designation | None:
    """The designation ``text`` of a ``side`` ('us' or 'soviet') counter, or None if the grammar refuses it."""
    grammar = _US if side == "us" else _SOVIET if side == "soviet" else []
    for pattern, role in grammar:
        m = pattern.match(text)
        if m:
            d = _build(side, role, m)
            if side == "us" and d.role == "line" and d.company in US_RESERVED:
                return None  # M and S are the battalion mortar and scout codes (Assault 3.B.1-2)
            if side == "soviet" and d.role == "line" and d.company.startswith(("HQ", "TOC")):
                return None  # no Soviet company HQs or battalion TOCs (Assault 3.C.2-3)
            return d
    return None


def superiors(d: Designation) -> list[str]:
    """Designations of the HQs and TOC a U.S. counter is subordinate to (Assault 3.A); Soviet battalion units
    need the scenario's battalion -> regiment mapping, so only their battalion HQ (or regiment HQ/TOC) is given."""
    if d.side == "us":
        if d.role == "line":
            return [f"HQ{d.company}{d.battalion}", f"HQ{d.battalion}", f"TOC{d.battalion}"]
        if d.role in ("mortar", "scout", "at", "company-hq"):
            return [f"HQ{d.battalion}", f"TOC{d.battalion}"]
        if d.role == "battalion-hq":
            return [f"TOC{d.battalion}"]
        return []
    if d.regiment is not None and d.role == "line":
        return [f"HQ{d.regiment}", f"TOC{d.regiment}"]
    if d.battalion is not None and d.role == "line":
        return [f"HQ{d.battalion}"]
    return []
