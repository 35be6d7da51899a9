"""Optional Rules probes of this area (issue 13); see `probes.optional_probes`.

The parts of the partial optional rules completed this session: On Fire hexes (7.35 with Advanced 6.1.4.3.5) and
missed ATGMs (7.35.3), infantry smoke with attached weapons (7.22.1), Overwatch through an INB unit's hedgerow
(7.10). Positions on the Advanced sample scenario (2A2 -> 2B3 Clear along hexside 2; 2G5 sees the brick building
2H8) and on the everything-on scenario's board 7 (a hedgerow on hexside 0 of 7N6; 7M1 -> 7M2 behind it)."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
FAR = "4T13"  # an enemy far away (no spotting, no overwatch)


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _fire_probes() -> list:
    from studio.rules.conformance import Probe

    # Advanced 6.1.4.3.5: no unit but helicopters enters a Fire hex: the M113 may not move into the burning 2B3
    mover = [_unit("V", "m113", "us", "2A2", 2, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    burning = {"scenario": SCENARIO, "phase": "move-first", "to_act": "us", "units": mover, "dice": [],
               "optional_rules": ["fires"], "extension": {"burning": {"2B3": 1}}}
    # MBT 7.35.3 (option fires-missed-atgm): the BMP-2's Spandrel misses (100) the M1 in the brick building 2H8:
    # with the option the Adjustment Phase checks the hex with the missile's fixed GP Factor 8: roll 5 (01-10,
    # placeholder) sets it on fire
    duel = [_unit("S", "bmp-2", "sov", "2G5", 0, command="FIRE"), _unit("L", "m1", "us", "2H8", 3)]
    atgm = {"scenario": SCENARIO, "phase": "direct-fire-first", "to_act": "sov", "units": duel, "dice": [100, 5],
            "optional_rules": ["fires"]}
    return [Probe("opt-fires-on-fire", burning, ("move V", "fwd V"), optional_rules=("fires",)),
            Probe("opt-fires-missed-atgm", atgm, ("fire S at L main:Spandrel_(Konkurs)",), ("fires-missed-atgm",))]


def _smoke_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.22.1: the squad's smoke (S5 ammo roll 5) spends its small arms; its attached Dragon and LAW may still
    # fire in the step
    units = [_unit("S", "us-mech-squad", "us", "4B1", 2, command="FIRE"), _unit("T", "t-80bv", "sov", "4E1", 5)]
    pos = {"scenario": SCENARIO, "phase": "direct-fire-first", "to_act": "us", "units": units, "dice": [5],
           "optional_rules": ["infantry-smoke"]}
    return [Probe("opt-infantry-smoke-attached", pos, ("smoke S",), optional_rules=("infantry-smoke",))]


def _hedgerow_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.10: the INB squad on Overwatch in 7N6 may fire through its hedgerow at the T-80BV moving into 7M2
    units = [_unit("L", "us-mech-squad", "us", "7N6", 3, command="OW", inb=0),
             _unit("T", "t-80bv", "sov", "7M1", 3, command="MOVE")]
    pos = {"scenario": "mbt-opt-everything", "phase": "move-first", "to_act": "sov", "units": units, "dice": [],
           "optional_rules": ["hedgerow-spotting"]}
    return [Probe("opt-hedgerow-overwatch", pos, ("move T", "fwd T"), optional_rules=("hedgerow-spotting",))]


def _avlb_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.49 on board 7 (Gully hexes 7B2-7B4): the M60 AVLB in 7C2 faces the Gully hex 7B3 (hexside 4) and
    # launches its bridge over it
    launcher = [_unit("B", "m60-avlb", "us", "7C2", 4, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    launch = {"scenario": "mbt-opt-everything", "phase": "move-first", "to_act": "us", "units": launcher,
              "dice": [], "optional_rules": ["avlb"]}
    # MBT 7.49 / 6.5.4.2.5: the M1 in 7B5 fires HEAT-MP (GP 7 at range 2) at the T-80BV on the bridge over 7B3
    # (laid from 7C2): the bridge (GP Defense 6: S 80) is destroyed on roll 81; with a GPD one higher (S 84) not
    duel = [_unit("S", "m1", "us", "7B5", 0, command="FIRE"), _unit("T", "t-80bv", "sov", "7B3", 0),
            _unit("B", "m60-avlb", "sov", "7C2", 4)]
    fire = {"scenario": "mbt-opt-everything", "phase": "direct-fire-first", "to_act": "us", "units": duel,
            "dice": [81], "optional_rules": ["avlb"],
            "extension": {"avlb_bridges": [{"avlb": "B", "hex": "7B3", "from": "7C2"}]}}
    return [Probe("opt-avlb-hex", launch, ("move B", "launch B"), optional_rules=("avlb",)),
            Probe("opt-avlb-bridge-gpd", fire, ("fire S at T main:HEAT-MP",), (), ("avlb-values",),
                  optional_rules=("avlb",))]


def _testbed_probes() -> list:
    """The hypothetical M1 test-bed card (placeholder values) carries the features no real sample card has: dual
    driving controls (7.33), a Long Gun (7.20), a Small Turret (7.45) and a CIS sight (7.48)."""
    from studio.rules.conformance import Probe

    def pos(units, phase, to_act, dice=(), rules=()):
        return {"scenario": SCENARIO, "phase": phase, "to_act": to_act, "units": units, "dice": list(dice),
                "optional_rules": list(rules)}

    enemy = _unit("E", "t-80bv", "sov", FAR, 5)
    # MBT 7.33: reversing from 2B2 (facing away from 2A1) pays the forward cost with dual driving controls
    reverse = pos([_unit("V", "m1-testbed", "us", "2B2", 5, command="MOVE"), enemy], "move-first", "us",
                  rules=("dual-driving-controls",))
    # MBT 7.20: the Long Gun's turret is turned one hexside off the hull: it may not enter the Woods 2I5 ahead
    woods = pos([_unit("V", "m1-testbed", "us", "2H5", 2, command="MOVE", turret=1), enemy], "move-first", "us",
                rules=("turrets", "long-guns"))
    # MBT 7.48: with a CIS sight and a Fire command it may declare CIS (+cis, ROF N)
    cis = pos([_unit("S", "m1-testbed", "us", "2A1", 2, command="FIRE"), _unit("T", "t-80bv", "sov", "2F4", 5)],
              "direct-fire-first", "us", rules=("commander-independent-sight",))
    # MBT 7.45 (MA119): the T-80BV hits the test-bed (roll 1); location roll 21 (tens 2) reads as 6 on a Small
    # Turret vehicle
    small = pos([_unit("S", "t-80bv", "sov", "2F4", 5, command="FIRE"), _unit("T", "m1-testbed", "us", "2A1", 2)],
                "direct-fire-first", "sov", (1, 21, 100, 100), ("small-turrets",))
    return [Probe("opt-dual-driving", reverse, ("move V", "rev V"), optional_rules=("dual-driving-controls",)),
            Probe("opt-long-gun-woods", woods, ("move V",), optional_rules=("long-guns",)),
            Probe("opt-cis-declaration", cis, (), optional_rules=("commander-independent-sight",)),
            Probe("opt-small-turret", small, ("fire S at T main:APFSDS",), optional_rules=("small-turrets",))]


def probes() -> list:
    """The probes of this area: each switches one optional rule on and exposes its effect."""
    groups = (_fire_probes, _smoke_probes, _hedgerow_probes, _avlb_probes, _testbed_probes)
    return [p for group in groups for p in group()]
