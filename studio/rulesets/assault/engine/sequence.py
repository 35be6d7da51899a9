"""The sequence of play as PhaseSpecs (Assault 2 and the Expanded Sequence of Play).

One artillery phase for both players, then the Soviet player turn and the U.S. player turn, each a first
movement phase, a fire phase (both players fire) and a second movement phase."""
from __future__ import annotations

from studio.rules.api import PhaseSpec

SIDES = ("soviet", "us")   # Assault 2: the Soviet player turn comes first


def _player_turn(side: str) -> tuple[PhaseSpec, ...]:
    name = "Soviet" if side == "soviet" else "U.S."
    return (PhaseSpec(f"{side}-move-1", f"{name} first movement phase", "Assault 2, 7", "active"),
            PhaseSpec(f"{side}-fire", f"{name} fire phase", "Assault 2, 12", "both"),
            PhaseSpec(f"{side}-move-2", f"{name} second movement phase", "Assault 2, 7", "active"))


PHASES: tuple[PhaseSpec, ...] = (PhaseSpec("artillery", "Artillery phase", "Assault 2, 19", "both"),
                                 *_player_turn("soviet"), *_player_turn("us"))


def next_phase(phase_id: str) -> tuple[str, bool]:
    """The phase after ``phase_id`` and whether a new turn starts there (Assault 2)."""
    ids = [p.id for p in PHASES]
    i = ids.index(phase_id)
    return (ids[0], True) if i + 1 == len(ids) else (ids[i + 1], False)
