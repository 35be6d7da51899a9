"""Codes shared by the MBT engine modules: commands (MBT 4.2.1), unit status, Spot counters (MBT 3.4) and the
sequence of play as ``PhaseSpec`` data (MBT 4.0) with the automaton's phase codes."""
from __future__ import annotations

from studio.rules.api import PhaseSpec

NC, FIRE, MOVE, SH, OW = 1, 2, 3, 4, 5
CMD_NAMES = {NC: "NC", FIRE: "FIRE", MOVE: "MOVE", SH: "SH", OW: "OW"}
CMD_CODES = {v: k for k, v in CMD_NAMES.items()}
WAIT, ON, EXITED, DEAD = 0, 1, 2, 3
CARRIED = 4  # a passenger in its carrier (Advanced Game, MBT 6.6.7)
NOMARK, MFIRE, MMOVE = 0, 1, 2
MFIRE_SA = 3  # Spot/Fire of Small Arms only, placed sideways (Advanced Game, MBT 6.1.3)
P_CMD, P_INIT, P_DF, P_OWC, P_MOVE, P_OVER = 1, 2, 3, 4, 5, 9
P_AIR1, P_IF, P_AIR2 = 6, 7, 8  # Advanced Game (MBT 6.4, 6.5.1, 6.7)

PHASES = (
    PhaseSpec("spotting", "Spotting Phase", "MBT 4.1", "none"),
    PhaseSpec("command", "Command Phase: place commands face down", "MBT 4.2.1", "both"),
    PhaseSpec("initiative", "Initiative Phase", "MBT 4.3", "both"),
    PhaseSpec("direct-fire-first", "Combat Phase: First Player Direct Fire", "MBT 4.4.1", "first"),
    PhaseSpec("direct-fire-second", "Combat Phase: Second Player Direct Fire", "MBT 4.4.1", "second"),
    PhaseSpec("overwatch", "Combat Phase: Overwatch Fire", "MBT 4.4.2", "both"),
    PhaseSpec("move-second", "Movement Phase: Second Player moves", "MBT 4.5", "second"),
    PhaseSpec("move-first", "Movement Phase: First Player moves", "MBT 4.5", "first"),
    PhaseSpec("adjustment", "Adjustment Phase", "MBT 4.6", "none"),
)

#: The Advanced Game sequence of play (MBT 6.0; Game Card B is not in the text, order from MBT 6.1-6.8)
ADV_PHASES = (
    PhaseSpec("spotting", "Spotting Phase", "MBT 6.1", "none"),
    PhaseSpec("command", "Command Phase: determine available commands, place commands", "MBT 6.2", "both"),
    PhaseSpec("initiative", "Initiative Phase (Force Grade modifiers)", "MBT 6.3", "both"),
    PhaseSpec("air-1", "1st Air Phase", "MBT 6.4", "both"),
    PhaseSpec("indirect-fire", "Combat Phase: Indirect Fire Step", "MBT 6.5.1", "both"),
    PhaseSpec("direct-fire-first", "Combat Phase: First Player Direct Fire (AP and GP)", "MBT 6.5.2", "first"),
    PhaseSpec("direct-fire-second", "Combat Phase: Second Player Direct Fire (AP and GP)", "MBT 6.5.2", "second"),
    PhaseSpec("overwatch", "Combat Phase: Overwatch Fire (AP and GP)", "MBT 6.5.3", "both"),
    PhaseSpec("close-combat", "Movement Phase: Close Assault / Hand-to-Hand Combat Step", "MBT 6.6.1", "first"),
    PhaseSpec("move-second", "Movement Phase: Second Player moves", "MBT 6.6", "second"),
    PhaseSpec("move-first", "Movement Phase: First Player moves", "MBT 6.6", "first"),
    PhaseSpec("air-2", "2nd Air Phase", "MBT 6.7", "both"),
    PhaseSpec("adjustment", "Advanced Adjustment Phase", "MBT 6.8", "none"),
)

#: PhaseSpec id of each automaton phase code (direct fire and movement split by player in ``MbtState.phase_id``)
PHASE_IDS = {P_CMD: "command", P_INIT: "initiative", P_DF: "direct-fire-first", P_OWC: "overwatch",
             P_MOVE: "move-second", P_OVER: "adjustment", P_AIR1: "air-1", P_IF: "indirect-fire", P_AIR2: "air-2"}
