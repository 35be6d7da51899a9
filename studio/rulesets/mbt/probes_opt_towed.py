"""Conformance probes of towed units (MBT 5.2, 6.6.5, 6.6.7) and Optional Rule 7.16 Platform Gun Mounts (issues 12
and 13); see `probes.optional_probes`.

On the Advanced sample scenario (US Seasoned, Soviet Regulars) unless named: 2A1 -> 2B2 -> 2C2 -> 2D3 -> 2E3 is a line of
level Clear hexes along hexside 2; 2A2 and 2B3 are adjacent Clear hexes. Sample-table values are in the comments."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
FAR = "4T13"  # an enemy far away (no spotting, no overwatch)


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(units: list, phase: str, to_act: str, dice=(), rules=()) -> dict:
    return {"scenario": SCENARIO, "phase": phase, "to_act": to_act, "units": units, "dice": list(dice),
            "optional_rules": list(rules)}


def probes() -> list:
    """The probes of this area: towed-unit tables and 7.16."""
    from studio.rules.conformance import Probe

    behind = [_unit("N", "nsv-hmg", "sov", "2A1", 5, command="FIRE"),
              _unit("T", "us-mech-squad", "us", "2E3", 5)]
    melee = [_unit("S", "us-mech-squad", "us", "2A2", 2, command="MOVE"),
             _unit("G", "spg-9", "sov", "2B3", 5, command="MOVE")]
    carried = [_unit("S", "m1", "us", "2A1", 2, command="FIRE"), _unit("T", "bmp-1", "sov", "2F4", 5),
               _unit("P", "spg-9", "sov", "2F4", 0, carried_by="T")]
    hedge = [_unit("G", "spg-9", "sov", "7N5", 3, command="MOVE"), _unit("E", "m1", "us", "7A1", 0)]
    across = {"scenario": "mbt-opt-everything", "phase": "move-first", "to_act": "sov", "units": hedge, "dice": [],
              "optional_rules": []}
    return [
        # MBT 6.6.5: on board 7 of the everything-on scenario the SPG-9 in 7N5 faces the hedgerow hexside to 7N6
        # (hexside 3): it may not manhandle across it (table towed-prohibited-hexsides has no number to perturb)
        Probe("adv-towed-hedgerow", across, ("move G",), (), ("towed-prohibited-hexsides",)),
        # MBT 7.16: the NSV HMG faces away from the squad 4 hexes behind it: off, it may not fire; on, it fires
        # (and pivots to face the squad)
        Probe("opt-platform-gun-mount", _position(behind, "direct-fire-first", "sov", [50, 50],
                                                  ("platform-gun-mounts",)),
              ("fire N at T hmg:GP",), optional_rules=("platform-gun-mounts",)),
        # MBT 6.6.1.2: US Seasoned 50 against the SPG-9's 100 - 10 (Regulars) - 40 (towed) = 50: a tie, rolled
        # again (50 against 1 - 50); one higher (-39), the gun wins the first round
        Probe("adv-towed-hand-to-hand", _position(melee, "close-combat", "us", [50, 100, 50, 1, 50, 1]),
              ("assault S G",), (), ("towed-units",)),
        # MBT 6.5.2.7.2: the BMP-1 is Knocked Out (hit roll 1, damage 75); its SPG-9 survives on 61+ (roll 61);
        # one higher, it is eliminated
        Probe("adv-towed-bail-out", _position(carried, "direct-fire-first", "us", [1, 75, 61]),
              ("fire S at T main:APFSDS",), (), ("towed-units",)),
    ]
