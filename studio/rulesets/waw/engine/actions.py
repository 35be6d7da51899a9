"""World at War actions: small immutable values whose ``str()`` is the text form.

Text forms (units are ``<force>.<n>``, hexes are printed labels, formations their scenario ids)::

    activate <formation>        skip <formation>                       (WaW 3.1)
    move <unit> <hex>           one hex step (WaW 5.0)
    fire <unit> <target> ap|he|aa                                      (WaW 6.1; Moving Fire after moving)
    opfire <unit> <target> ap|he|aa          pass                      (WaW 6.2)
    assault <unit>[+<unit>] <hex>                                      (WaW 6.3; a stack assaults together)
    overrun <unit> <hex> <exit hex>                                    (WaW 6.4)
    load <unit> <carrier>       unload <unit>                          (WaW 5.2)
    call <caller> <asset> <hex>                                        (WaW 8.0)
    indirect <mortar or on-map artillery> <hex>                        (WaW 1.3.4.3, 8.7)
    strike <airstrike> <hex>                                           (WaW 9.5)
    volley <leading unit> <support>+<support> <target>                 (Volley Fire, Chaos 12)
    snipe <sniper> <target>                                            (WaW 1.3.8; snipers are sniper1, ...)
    popup <helicopter> <target> ap|he                                  (WaW 9.2.1)
    cover <enemy helicopter>                                           (WaW 9.6: Air Cover against helicopters)
    mode <helicopter>                                                  (WaW 9.1)
    end                                                                (end of the formation impulse)
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = {"activate": 1, "skip": 1, "move": 2, "fire": 3, "opfire": 3, "pass": 0, "assault": 2, "overrun": 3,
         "load": 2, "unload": 1, "call": 3, "mode": 1, "end": 0,
         "indirect": 2, "strike": 2, "volley": 3, "snipe": 2, "popup": 3, "cover": 1}


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    a: str = ""
    b: str = ""
    c: str = ""

    def __str__(self) -> str:
        return " ".join(x for x in (self.kind, self.a, self.b, self.c) if x)


def parse_action(text: str) -> Action:
    parts = text.split()
    if not parts or parts[0] not in KINDS:
        raise ValueError(f"unknown action '{text}'; kinds: {', '.join(KINDS)}")
    n = KINDS[parts[0]]
    if len(parts) - 1 != n:
        raise ValueError(f"'{parts[0]}' takes {n} argument(s): '{text}'")
    return Action(parts[0], *parts[1:])
