"""Formation play of the MBT Advanced heuristic bot (``bots_advanced.AdvancedHeuristicBot``): using one unique Command
counter for several units (MBT 6.2.1.1.2) and moving them as the shared command requires (6.2.1.1.4).

- Stack formations: a formation whose Command Range is 0 (Regulars, Green, Raw: the same hex) has about one command
  per three units. Its units head for one goal (the formation's). The first to enter (the slowest) moves toward
  it; each later one enters and moves to that unit's hex (the stack), the units due to enter taking the
  formation's command before the ones already on the map, which wait; then the stack moves and fires on one
  shared counter. A unit apart from the stack rejoins it.
- Sharers: a unit whose co-sharer has finished its move heads for that unit's hex (it must end within Command Range
  of it, 6.2.1.1.4), and of the sharers still to move the slowest moves first (the others can always follow it).
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .engine.codes import ON, WAIT

#: the command priority of a unit waiting to enter a stack formation's assembly hex (above any shot's value)
ENTRY_PRIORITY = 5.0


def stack_formation(state, f: int) -> bool:
    """Does formation ``f`` share commands only in one hex (Command Range 0, MBT 6.2.1.1.2)?"""
    return state.command_range(f) == 0 and state.game.options["command-range-zero"] == "same-hex"


def _members(game, f: int) -> list[int]:
    return [j for j in range(game.n) if game.formation_of[j] == f]


def due_waiting(state, i: int) -> list[int]:
    """The units of ``i``'s stack formation other than ``i`` still off the map and due to enter (MBT 4.5.1.1.9)."""
    g = state.game
    f = g.formation_of[i]
    if not stack_formation(state, f):
        return []
    return [j for j in _members(g, f) if j != i and state.st[j] == WAIT and g.units[j].entry_turn <= state.turn]


def anchor(state, i: int) -> int:
    """The unit whose goal ``i``'s stack formation follows: its first unit on the map or waiting to enter."""
    g = state.game
    f = g.formation_of[i]
    if not stack_formation(state, f):
        return i
    alive = [j for j in _members(g, f) if state.st[j] in (ON, WAIT) and not g.units[j].type.ag.leg]
    return alive[0] if alive else i


def moved_mate_hex(state, i: int):
    """The hex of a co-sharer of ``i`` that finished its move this phase (its end hex joins the shared move), or
    None."""
    grp = state.grp[i]
    if grp < 0:
        return None
    for j, x in enumerate(state.grp):
        if x == grp and j != i and state.moved[j] and state.st[j] == ON and not state.track[j]:
            return state.hex[j]
    return None


def stack_hex(state, i: int):
    """The hex of ``i``'s stack formation: where most of its other vehicles on the map are (the first unit's hex
    on a tie), or None."""
    g = state.game
    f = g.formation_of[i]
    count: dict = {}
    for j in _members(g, f):
        if j != i and state.st[j] == ON and not g.units[j].type.ag.leg:
            count.setdefault(state.hex[j], [0, j])[0] += 1
    if not count:
        return None
    return max(count.items(), key=lambda x: (x[1][0], -x[1][1]))[0]


def group_goal(bot, state, i: int, base_goal):
    """The hex unit ``i`` heads for: its moved co-sharer's hex; in a stack formation, the stack's hex (waiting
    there while due units of the formation are still off the map); else the formation's goal
    (``base_goal(anchor)``)."""
    mate = moved_mate_hex(state, i)
    if mate is not None:
        return mate
    g = state.game
    if g.units[i].type.ag.leg or not stack_formation(state, g.formation_of[i]):
        return base_goal(anchor(state, i))
    here = stack_hex(state, i)
    if here is None:
        return base_goal(anchor(state, i))
    if state.st[i] == ON and state.hex[i] == here and not due_waiting(state, i):
        return base_goal(anchor(state, i))
    return here  # join the stack, or wait in it for the units still to enter


def formation_goal(bot, state, i: int, base_goal):
    """The objective of ``i``'s formation (``base_goal`` of its anchor), whatever the stack does this turn."""
    return base_goal(anchor(state, i))


def entry_priority(state, i: int) -> float:
    """Extra command priority of unit ``i``: a stack formation's unit due to enter gets the command first."""
    g = state.game
    if state.st[i] == WAIT and g.units[i].entry_turn <= state.turn and stack_formation(state, g.formation_of[i]):
        return ENTRY_PRIORITY + 1.0 / (1 + g.units[i].type.cc)  # the slowest first: the others can join it
    return 0.0


def hex_mates(state, i: int, later: list[int]) -> list[int]:
    """The units of ``later`` that could share ``i``'s counter (in the same hex of a stack formation)."""
    if state.st[i] != ON or not stack_formation(state, state.game.formation_of[i]):
        return []
    return [j for j in later if state.st[j] == ON and state.hex[j] == state.hex[i]]


def mover_key(state, i: int) -> tuple:
    """Order of the units to move (MBT 4.5: the owner chooses): units with no co-sharer moved yet before the ones
    joining a co-sharer, the slowest first (the faster sharers can follow it), then unit order."""
    joining = moved_mate_hex(state, i) is not None
    return (joining, state.game.units[i].type.cc if state.grp[i] >= 0 else 0, i)
