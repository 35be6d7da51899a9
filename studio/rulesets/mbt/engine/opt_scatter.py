"""Optional rule 7.26 Scatter. Indirect fire (7.26.1): a source whose modified response roll equals the observer's
Fire Response factor scatters: roll (10) up to ``scatter-one-hex-max`` 1 hex, else 2, in the direction of a roll
(6) (the mapboard's Directional Hex, direction k -> hexside k-1: ``ENGINE_POLICIES['scatter']``); off the map it
lands nowhere. Fixed-wing loads (7.26.2): :func:`fw_scatter` for the air chapter."""
from __future__ import annotations

from studio.hexgrid.coords import neighbour

from .if_data import if_data

FW_SCATTERING = ("iron", "cluster", "incendiary", "FASCAM")   # MBT 7.26.2 load types that may scatter


def _drift(state, h, hexes: int, label: str):
    """Move ``h`` ``hexes`` hexes in the direction of a roll (6); None off the map."""
    d = state.dice.roll(6, f"scatter direction {label}")
    for _ in range(hexes):
        h = neighbour(h, d - 1)
    return h if h in state.game.map.label_of else None, d


class ScatterRules:
    """Mixed into :class:`~.advanced.AdvState` before ``IndirectRules`` (overrides its ``scatter``)."""

    __slots__ = ()

    def scatter(self, h, source: str):
        """MBT 7.26.1: the impact of ``source`` scatters 1 or 2 hexes; returns the new impact hex or None."""
        g = self.game
        roll = self.dice.roll(10, f"scatter distance {source}")
        n = 1 if roll <= if_data(g).opt["scatter-one-hex-max"] else 2
        x, d = _drift(self, h, n, source)
        self.narrate(f"{source} scatters (7.26.1): roll {roll} -> {n} hex{'es' if n > 1 else ''} in direction {d}: "
                     f"{g.label(x) if x is not None else 'off the map'}")
        return x


def fw_scatter(state, h, load_type: str, altitude: str, aa_result: str | None, grade: str, label: str):
    """MBT 7.26.2: the impact hex of a fixed-wing load dropped at ``h`` from ``altitude`` (medium, high), after
    ``aa_result`` of AA fire within 5 hexes of the drop hex (None: not fired at; 'NE'; 'S' or 'D' Suppressed or
    Damaged). Only iron, cluster, incendiary and FASCAM loads from Medium or High altitude scatter; roll (10) plus
    the aircraft's grade modifier (the IF RSP column of unit-grade-modifiers: Elite +2 ... Raw -3, the same values
    7.26.2 lists) at or under fw-scatter-no-effect-max (NE) or fw-scatter-hit-max (S/D) scatters 1 hex (Medium)
    or 2 (High). Returns the hex (None off the map); ``h`` unchanged without the optional rule."""
    g = state.game
    if not g.optional_on("scatter") or aa_result is None or load_type not in FW_SCATTERING or \
            altitude not in ("medium", "high"):
        return h
    opt = if_data(g).opt
    limit = opt["fw-scatter-no-effect-max" if aa_result == "NE" else "fw-scatter-hit-max"]
    roll = state.dice.roll(10, f"bomb scatter {label}")
    mod = g.ag.if_grade[grade]
    if roll + mod > limit:
        state.narrate(f"{label} does not scatter (7.26.2): roll {roll}{mod:+d} > {limit}")
        return h
    x, d = _drift(state, h, 1 if altitude == "medium" else 2, label)
    state.narrate(f"{label} scatters (7.26.2): roll {roll}{mod:+d} <= {limit}, direction {d}: "
                  f"{g.label(x) if x is not None else 'off the map'}")
    return x


__all__ = ["ScatterRules", "fw_scatter"]
