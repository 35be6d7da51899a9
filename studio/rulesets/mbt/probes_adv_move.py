"""Conformance probes of the Advanced movement chapter (MBT 6.6.3, 6.6.4.3, 6.6.8; issue 12), on the Advanced
sample scenario: 2I10 (Clear) -> 2I9 (a brick building, the scenario's default construction) along hexside 0."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
FAR = "4T13"


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def probes() -> list:
    """This chapter's probes (``studio.rules.conformance.Probe``)."""
    from studio.rules.conformance import Probe

    # MBT 6.6.3: a BMP-2 (GPD 1A, MBT 6.6.3) drives into the brick building 2I9: roll 60 + 5 x 1 = 65 is within HIT# 01-65;
    # the second roll 66 is above TK 01-65: Damaged (roll 9: Hull). With the multiplier one higher (6) 66 misses
    # the range; with TK one higher (66) it is a Track hit and the BMP-2 stays outside.
    units = [_unit("V", "bmp-2", "sov", "2I10", 0, command="MOVE"), _unit("E", "m1", "us", FAR, 3)]
    pos = {"scenario": SCENARIO, "phase": "move-first", "to_act": "sov", "units": units, "dice": [60, 66, 9]}
    # MBT 6.6.4.4: the motorcycle section (placeholder card, W 6) advancing on the squad at 4G2 through the Rough
    # hex 4F2 (W cost 6): more than half its allowance under option motorcycle-advance 'half-allowance'
    mc = [_unit("M", "frg-mc-recon-section", "us", "4E1", 2, command="MOVE"),
          _unit("T", "sov-mr-squad", "sov", "4G2", 5)]
    mc_pos = {"scenario": SCENARIO, "phase": "close-combat", "to_act": "us", "units": mc}
    # MBT 6.6.7.2: the squad riding the Overwatch M113 at 2A1 fires in the Direct Fire Step at the squad at 2D3
    # (option passenger-overwatch 'direct-fire-step'), or only as Overwatch ('with-carrier')
    ride = [_unit("C", "m113", "us", "2A1", 2, command="OW"),
            _unit("P", "us-mech-squad", "us", "2A1", 2, carried_by="C"), _unit("T", "sov-mr-squad", "sov", "2D3", 5)]
    ride_pos = {"scenario": SCENARIO, "phase": "direct-fire-first", "to_act": "us", "units": ride}
    # MBT 6.6.4.4: on board 7 of the everything-on scenario the motorcycle section in 7N5 faces the hedgerow hexside
    # to 7N6 (hexside 3): it may not cross it (table motorcycle-prohibited-hexsides has no number to perturb)
    hedge = {"scenario": "mbt-opt-everything", "phase": "move-first", "to_act": "us", "optional_rules": [],
             "units": [_unit("M", "frg-mc-recon-section", "us", "7N5", 3, command="MOVE"),
                       _unit("E", "t-80bv", "sov", "7A1", 0)]}
    return [Probe("adv-motorcycle-hedgerow", hedge, ("move M",), (), ("motorcycle-prohibited-hexsides",)),
            Probe("adv-building-entry", pos, ("move V", "fwd V"), (), ("building-vehicle-into", "advanced-movement")),
            Probe("adv-motorcycle-advance", mc_pos, (), ("motorcycle-advance",)),
            Probe("adv-passenger-overwatch", ride_pos, (), ("passenger-overwatch",))]


__all__ = ["probes"]
