"""Bridging and combat engineering units in the turn (BfOps p.19-20, digest c.19/c.20): the one place the State
asks about them.

- Bridging and combat engineering units enter and move freely, without a Command Card (p.19): an order to an
  element made only of them costs no card (:func:`free_element`), and so do their tasks ``bridge U``,
  ``lift U`` (:mod:`.bridging`) and ``demolish U TARGET L`` (:mod:`.demolition`), offered in the command step.
- At the start of each Move Phase the tasks progress: bridges laid and lifted, charges set, trenches filled and
  wire prepared (:mod:`.works`); recovery and minefield clearing stay in :mod:`.support`.
"""
from __future__ import annotations

from . import bridging as BR
from . import demolition as DM
from . import works as W

ACTIONS = (BR.LayBridge, BR.LiftBridge, DM.Demolish)


def parse(parts: list[str]):
    """The engineering action of a split action text, or None."""
    if len(parts) == 2 and parts[0] == "bridge":
        return BR.LayBridge(parts[1])
    if len(parts) == 2 and parts[0] == "lift":
        return BR.LiftBridge(parts[1])
    if len(parts) == 4 and parts[0] == "demolish" and parts[3].isdigit():
        return DM.Demolish(parts[1], parts[2], int(parts[3]))
    return None


def free_element(state, element: str) -> bool:
    """Every unit of the element is a bridging or combat engineering unit (card capability ``bridging`` or
    ``engineer``): its orders need no Command Card (BfOps p.19)."""
    mates = [u for u in state.units if u.element == element]
    caps = [state.game.card_of(u).capabilities for u in mates]
    return bool(mates) and all(c.engineer or c.bridging is not None for c in caps)


def command_actions(state, side: int) -> list:
    """The free engineering tasks ``side`` may start now."""
    return BR.bridge_actions(state, side) + DM.demolish_actions(state, side)


def apply_command(state, action) -> None:
    """Start a task (no card spent, the side keeps the initiative)."""
    if isinstance(action, DM.Demolish):
        DM.order(state, action)
    else:
        BR.order(state, action)


def move_phase(state) -> None:
    """The tasks of this Move Phase, before the units move."""
    BR.progress(state)                                                     # BfOps p.19
    DM.progress(state)                                                     # BfOps p.20
    W.fill_trenches(state)                                                 # BfOps p.20
    W.prepare_wire(state)                                                  # BfOps p.19


# ------------------------------------------------------------------ positions

def load_position(state, ext) -> None:
    """A position's engineering works (``extension.engineering``): ``bridges`` [{unit, from: [x, y], to: [x, y],
    gap}], ``breaches`` {feature: [[x, y], ...]} (fences, wire and walls), ``filled`` {trench: [[position along
    its centre line, inches], ...]} and ``charges`` {unit: levels spent}. Raises PositionError on bad input."""
    from studio.rules.position import PositionError

    eng = ext.get("engineering") if isinstance(ext, dict) else None
    if eng is None:
        return
    where = "/extension/engineering"
    if not isinstance(eng, dict) or set(eng) - {"bridges", "breaches", "filled", "charges"}:
        raise PositionError("extension.engineering holds bridges, breaches, filled and charges", where)
    try:
        ids = {u.id for u in state.units}
        for b in eng.get("bridges", []):
            card = state.game.card_of(state.unit(b["unit"])) if b["unit"] in ids else None
            if card is None or card.capabilities.bridging is None or b["gap"] not in state.game.geometry.by_id:
                raise PositionError(f"extension.engineering bridge {b!r}: unit must be a bridging unit of the "
                                    "position and gap a feature", f"{where}/bridges")
            (x0, y0), (x1, y1) = b["from"], b["to"]
            state.bridges[b["unit"]] = BR.Bridge(b["unit"], float(x0), float(y0), float(x1), float(y1),
                                                 card.capabilities.bridging.width_in, b["gap"],
                                                 *BR.capacity(state.game, card))
        for fid, pts in eng.get("breaches", {}).items():
            state.breaches[str(fid)] = [(float(x), float(y)) for x, y in pts]
        for fid, spans in eng.get("filled", {}).items():
            state.filled[str(fid)] = sorted((float(c), float(n)) for c, n in spans)
        for uid, n in eng.get("charges", {}).items():
            state.charges[str(uid)] = int(n)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PositionError(f"malformed extension.engineering ({type(exc).__name__}: {exc})", where) from None
