"""World at War actions: small immutable values whose ``str()`` is the text form.

Text forms (units are ``<force>.<n>``, hexes are printed labels, formations their scenario ids)::

    activate <formation>        skip <formation>                       (WaW 3.1)
    move <unit> <hex>           one hex step (WaW 5.0)
    fire <unit> <target> <fire>      fire: ap | he | aa                (WaW 6.1; Moving Fire after moving)
    opfire <unit> <target> <fire>    pass                              (WaW 6.2)
    assault <unit>[+<unit>] <hex>                                      (WaW 6.3; a stack assaults together)
    overrun <unit> <hex> <exit>                                        (WaW 6.4)
    load <unit> <carrier>       unload <unit>                          (WaW 5.2)
    call <unit> <asset> <hex>                                          (WaW 8.0: an HQ or recon unit calls)
    indirect <unit> <hex>       mortar or on-map artillery             (WaW 1.3.4.3, 8.7)
    strike <asset> <hex>|none   an airstrike                           (WaW 9.5)
    volley <unit> <supports> <target>   supports: <unit>+<unit>        (Volley Fire, Chaos 12)
    snipe <unit> <target>       the unit is sniper1, sniper2 ...       (WaW 1.3.8)
    popup <unit> <target> <fire>                                       (WaW 9.2.1)
    cover <target>              Air Cover at an enemy helicopter       (WaW 9.6)
    mode <unit>                 Flying <-> Hovering                    (WaW 9.1)
    end                         end of the formation impulse

Every field has one meaning whatever the kind: ``formation``, ``unit`` (the acting unit, or the stack
``a+b``), ``target`` (the unit attacked), ``hex`` (entered or attacked), ``exit`` (an Overrun's exit hex),
``fire`` (ap/he/aa), ``carrier``, ``asset`` (artillery or airstrike id), ``supports``; a field the kind does not
use is "".
"""
from __future__ import annotations

#: the fields of each kind's text form, in order
FORMS: dict[str, tuple[str, ...]] = {
    "activate": ("formation",), "skip": ("formation",), "move": ("unit", "hex"), "fire": ("unit", "target", "fire"),
    "opfire": ("unit", "target", "fire"), "pass": (), "assault": ("unit", "hex"), "overrun": ("unit", "hex", "exit"),
    "load": ("unit", "carrier"), "unload": ("unit",), "call": ("unit", "asset", "hex"), "mode": ("unit",),
    "end": (), "indirect": ("unit", "hex"), "strike": ("asset", "hex"), "volley": ("unit", "supports", "target"),
    "snipe": ("unit", "target"), "popup": ("unit", "target", "fire"), "cover": ("target",)}
KINDS = {kind: len(form) for kind, form in FORMS.items()}
_POSITION = {kind: {name: i for i, name in enumerate(form)} for kind, form in FORMS.items()}


def _field(name: str):
    def get(self) -> str:
        i = _POSITION[self.kind].get(name)
        return self.args[i] if i is not None and i < len(self.args) else ""
    get.__name__ = name
    return property(get)


class Action:
    """``Action(kind, *values)``: the values in the order of the kind's text form (``FORMS``), read back by
    name (``action.unit``, ``action.hex`` ...)."""

    __slots__ = ("kind", "args")

    def __init__(self, kind: str, *args: str):
        self.kind = kind
        self.args = args

    formation = _field("formation")
    unit = _field("unit")
    target = _field("target")
    hex = _field("hex")
    exit = _field("exit")
    fire = _field("fire")
    carrier = _field("carrier")
    asset = _field("asset")
    supports = _field("supports")

    def __eq__(self, other) -> bool:
        return isinstance(other, Action) and self.kind == other.kind and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.kind, self.args))

    def __str__(self) -> str:
        return " ".join((self.kind,) + tuple(a for a in self.args if a))

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


def parse_action(text: str) -> Action:
    parts = text.split()
    if not parts or parts[0] not in KINDS:
        raise ValueError(f"unknown action '{text}'; kinds: {', '.join(KINDS)}")
    n = KINDS[parts[0]]
    if len(parts) - 1 != n:
        raise ValueError(f"'{parts[0]}' takes {n} argument(s): '{text}'")
    return Action(parts[0], *parts[1:])
