"""Conformance probes for the MBT move rules of the Optional Rules and the Advanced Game (issue 13): each probe
lists the optional rules (``Probe.optional_rules``) it exposes; the core plays it with and without each of them.

All on the Advanced sample scenario (US Seasoned, Soviet Regulars): 2A2 -> 2B3 -> 2C3 is a line of Clear hexes
along hexside 2 (2C3 has a stream on its S hexside, towards 2C4); 2C9 is Rough with Clear 2C8 along hexside 0;
2A1 -> 2B2 -> 2C2 -> 2D3 is Clear along hexside 2. Sample-table values are in the comments."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
FAR = "4T13"  # an enemy far away (no spotting, no overwatch)


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(units: list, to_act: str, dice=(), rules=(), **extension) -> dict:
    """A Movement Phase position; ``rules`` the optional rules in force (the checks switch each off and on)."""
    out = {"scenario": SCENARIO, "phase": "move-first", "to_act": to_act, "units": units, "dice": list(dice),
           "optional_rules": list(rules)}
    if extension:
        out["extension"] = extension
    return out


def _field(hexes, mines: str, field: str = "deliberate", side: str = "sov") -> dict:
    return {"side": side, "hexes": list(hexes), "field": field, "mines": mines}


def _mine_probes() -> list:
    from studio.rules.conformance import Probe

    apc = [_unit("V", "m113", "us", "2A2", 2, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    squad = [_unit("L", "us-mech-squad", "us", "2A2", 2, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    return [
        # MBT 7.31.2.1: the M113 (GPD 3) enters a Deliberate AV field, roll 41: TK (41-70); one higher, Damage
        Probe("opt-mines-av", _position(apc, "us", [41, 99], ("mines",), minefields=[_field(["2B3"], "av")]),
              ("move V", "fwd V"), (), ("minefield-effects", "minefield-terrain"), optional_rules=("mines",)),
        # MBT 7.31.2.2: a quickmarching squad enters a Deliberate AP field, roll 90 - 20 = 70: Effective (01-70)
        Probe("opt-mines-ap-quickmarch",
              _position(squad, "us", [90, 99], ("mines",), minefields=[_field(["2B3"], "ap")]),
              ("move L", "quickmarch L", "fwd L"), (), ("minefield-values",), optional_rules=("mines",)),
        # option mines-pivot: entering rolls 80 (no effect); the pivot in the hex is attacked again ('attacks')
        Probe("opt-mines-pivot", _position(apc, "us", [80, 1, 99], ("mines",), minefields=[_field(["2B3"], "av")]),
              ("move V", "fwd V", "turn V left"), ("mines-pivot",), optional_rules=("mines",)),
    ]


def _terrain_probes() -> list:
    from studio.rules.conformance import Probe

    bogger = [_unit("V", "t-80bv", "sov", "2C9", 0, command="MOVE"), _unit("E", "m1", "us", FAR, 2)]
    crosser = [_unit("V", "t-80bv", "sov", "2C3", 3, command="MOVE"), _unit("E", "m1", "us", FAR, 2)]
    return [
        # MBT 7.29: the T-80BV (B +5) leaves Rough (01-35): roll 31 + 5 = 36 moves on; one higher, it bogs
        Probe("opt-bogging", _position(bogger, "sov", [31], ("bogging-down",)), ("move V", "fwd V"), (),
              ("bog-ranges",),
              optional_rules=("bogging-down",)),
        # MBT 7.32: a 40-ton limit on the 2C3/2C4 hexside stops the T-80BV (42.5 t, placeholder weight)
        Probe("opt-weight-limits", _position(crosser, "sov", weight_limits=[{"hex": "2C3", "side": "S", "tons": 40}]),
              ("move V",), optional_rules=("weight-limits",)),
    ]


def _quickmarch_probes() -> list:
    from studio.rules.conformance import Probe

    squad = [_unit("L", "us-mech-squad", "us", "2A1", 2, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    # MBT 6.6.4.2: a Seasoned squad quickmarches (Suppressed on 01-45, placeholder): roll 46 is not; one higher
    # it is; the hexes crossed are Clear (table quickmarch-terrain)
    return [Probe("adv-quickmarch", _position(squad, "us", [46]), ("move L", "quickmarch L", "fwd L", "done L"), (),
                  ("quickmarch-suppression", "quickmarch-terrain"))]


def _hull_down_probes() -> list:
    from studio.rules.conformance import Probe

    searcher = [_unit("V", "m1", "us", "2C9", 0, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    duel = [_unit("S", "m1", "us", "2A1", 2, command="FIRE"), _unit("T", "bmp-2", "sov", "2F4", 0, hull_down="hd")]
    fire = {"scenario": SCENARIO, "phase": "direct-fire-first", "to_act": "us", "units": duel,
            "dice": [1, 51, 99, 99, 99]}
    return [
        # MBT 6.6.9: a Seasoned M1 (size 0) searches in Rough (01-40, placeholder): 41 finds nothing, one higher
        # range finds it; 40 finds it, one higher size or grade modifier does not
        Probe("adv-hull-down-search", _position(searcher, "us", [41]), ("move V", "search V hd 0"), (),
              ("hull-down-ranges",)),
        Probe("adv-hull-down-search-modifiers", _position(searcher, "us", [40]), ("move V", "search V hd 0"), (),
              ("hull-down-modifiers", "hull-down-grade")),
        # MBT 6.5.2.2.3: the M1 hits an HD BMP-2 at Front/Side (2F4 facing 0), location roll 51: rolls 5-10 miss
        # at Front/Side; from 6 on, 5 would strike the hull front
        Probe("adv-hull-down-front-side", fire, ("fire S at T main:APFSDS",), (),
              ("hull-down-front-side", "hull-down-terrain")),
    ]


def _overrun_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 6.6.10: a Regulars T-62MV in Clear 2E4 overruns a half-squad in Scrub 2F5 (GPD 3): GP 12 (placeholder
    # card) reads N 17 / S 53; net +25 (Overrun +20, Coax +10, sample grade and sight cells): roll 28 = 53 is
    # Suppressed, with the Overrun modifier one higher it is Effective
    units = [_unit("V", "t-62mv", "sov", "2E4", 2, command="MOVE"), _unit("T", "us-mech-half-squad", "us", "2F5", 2)]
    return [Probe("adv-overrun", _position(units, "sov", [28]), ("move V", "overrun V T"), (), ("overrun-values",))]


def _engineer_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.19: a Regulars engineer squad (HTH CA -10) attacks the visible Hasty US field next to it (GP 8 vs GPD
    # 3: S 65): roll 70 - 10 = 60 fails ('grade'); unmodified ('none') 70 clears the hex
    units = [_unit("N", "us-engineer-squad", "sov", "2A1", 1, command="MOVE"), _unit("E", "m1", "us", FAR, 2)]
    pos = _position(units, "sov", [70], ("engineers-vs-terrain", "mines"),
                    minefields=[dict(_field(["2B1"], "both", "hasty", "us"), visible=True)])
    pos["phase"] = "close-combat"
    return [Probe("opt-engineers", pos, ("clear N 2B1",), ("engineer-modifiers",),
                  optional_rules=("engineers-vs-terrain",))]


def _fire_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.35.1: an M1 fires HEAT-MP (GP 7) at a squad in the brick building 2H8; the Adjustment Phase checks the
    # hex after the Adjust Full Cover Step: 01-8 for brick at GP 5-7 (placeholder), roll 9 does not start a fire,
    # one higher it does
    units = [_unit("S", "m1", "us", "2G5", 0, command="FIRE"), _unit("L", "sov-mr-squad", "sov", "2H8", 0)]
    pos = {"scenario": SCENARIO, "phase": "direct-fire-first", "to_act": "us", "units": units, "dice": [50, 9],
           "optional_rules": ["fires"]}
    return [Probe("opt-fires", pos, ("fire S at L main:HEAT-MP", "cover L off"), (), ("fire-start",),
                  optional_rules=("fires",))]


def _cover_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.41: an M113 and two half-squads in 2A1 share the Move command: both are covered (1 + 1 of 2 slots) and
    # move with it; with every slot value one higher only one fits (2 + 2 > 3)
    units = [_unit("V", "m113", "us", "2A1", 2, command="MOVE"),
             _unit("L1", "us-mech-half-squad", "us", "2A1", 2, command="MOVE"),
             _unit("L2", "us-mech-half-squad", "us", "2A1", 2, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    return [Probe("opt-assault-cover", _position(units, "us", (), ("vehicle-assault-cover",)), ("move V", "fwd V"),
                  (), ("assault-cover-slots",), optional_rules=("vehicle-assault-cover",))]


def _full_cover_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 6.5.4.2.2 (Q28): an M1 fires HEAT-MP (GP 7) at a Full Cover squad in Clear at range 2: GPD 2 + the bonus;
    # roll 64 + 5 = 69 is Effective against GPD 3 (bonus 1: S 68), Suppressed against GPD 4 (bonus 2: S 71)
    units = [_unit("S", "m1", "us", "2A1", 2, command="FIRE"), _unit("L", "sov-mr-squad", "sov", "2C2", 5,
                                                                     full_cover=True)]
    pos = {"scenario": SCENARIO, "phase": "direct-fire-first", "to_act": "us", "units": units, "dice": [64, 99, 99]}
    return [Probe("adv-full-cover", pos, ("fire S at L main:HEAT-MP",), ("full-cover-bonus",))]


def _narrow_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.30 example: a T-80BV pushes a Track-hit BMP-2 in the narrow hex ahead (2B2): +25 (5 full 5 tons more,
    # placeholder weights); roll 25 = 50 fails, with the push values one higher it succeeds
    units = [_unit("V", "t-80bv", "sov", "2A1", 2, command="MOVE"),
             _unit("F", "bmp-2", "sov", "2B2", 2, track_hit=True), _unit("E", "m1", "us", FAR, 2)]
    return [Probe("opt-narrow-push", _position(units, "sov", [25], ("narrow-roads",), narrow_roads=["2B2"]),
                  ("move V", "push V"), (), ("push-values",), optional_rules=("narrow-roads",))]


def _avlb_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.49: the M60 AVLB in 2C3 faces the stream on its S hexside (towards 2C4) and launches its bridge
    units = [_unit("B", "m60-avlb", "us", "2C3", 3, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    return [Probe("opt-avlb", _position(units, "us", (), ("avlb",)), ("move B", "launch B"), (), ("avlb-span",),
                  optional_rules=("avlb",))]


def _assault_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 6.6.1.1.2: a squad and a half-squad in 2A1 close assault the T-80BV in 2B1 together: GP 8 vs GPD 5
    # (N 40), +10 for the additional half-squad: roll 30 = 40 No Effect; one higher it Suppresses
    units = [_unit("I", "us-mech-squad", "us", "2A1", 1, command="MOVE"),
             _unit("J", "us-mech-half-squad", "us", "2A1", 1, command="MOVE"), _unit("T", "t-80bv", "sov", "2B1", 0)]
    pos = {"scenario": SCENARIO, "phase": "close-combat", "to_act": "us", "units": units, "dice": [30, 5, 5]}
    return [Probe("adv-combined-assault", pos, ("assault I T all",), (), ("close-combat-extra", "support-terrain"))]


def _amphibious_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.34: on the everything-on scenario's board 7 the amphibious M113A2 in Clear 7I2 faces the lake hex 7I3
    # (hexside 3) and swims into it as its whole move; without the rule water is impassable
    units = [_unit("V", "m113", "us", "7I2", 3, command="MOVE"), _unit("E", "t-80bv", "sov", FAR, 5)]
    pos = {"scenario": "mbt-opt-everything", "phase": "move-first", "to_act": "us", "units": units, "dice": [],
           "optional_rules": ["amphibious"]}
    return [Probe("opt-amphibious", pos, ("move V", "fwd V"), optional_rules=("amphibious",))]


def _hedgerow_probes() -> list:
    from studio.rules.conformance import Probe

    # MBT 7.10 on board 7: a squad in 7N6 takes the hedgerow on its hexside 0 (INB); an INB squad's next move ends
    # INB in its own hex or across the hedgerow in 7N5 (option hedgerow-exit)
    def pos(**status):
        units = [_unit("L", "us-mech-squad", "us", "7N6", 3, command="MOVE", **status),
                 _unit("E", "t-80bv", "sov", FAR, 5)]
        return {"scenario": "mbt-opt-everything", "phase": "move-first", "to_act": "us", "units": units,
                "dice": [], "optional_rules": ["hedgerow-spotting"]}

    return [Probe("opt-hedgerow", pos(), ("move L", "inb L 0"), optional_rules=("hedgerow-spotting",)),
            Probe("opt-hedgerow-exit", pos(inb=0), ("move L",), ("hedgerow-exit",))]


def probes() -> list:
    """This area's probes (``studio.rules.conformance.Probe``)."""
    groups = (_mine_probes, _terrain_probes, _quickmarch_probes, _hull_down_probes, _overrun_probes, _engineer_probes,
              _fire_probes, _cover_probes, _full_cover_probes, _narrow_probes, _avlb_probes, _assault_probes,
              _amphibious_probes, _hedgerow_probes)
    return [p for group in groups for p in group()]
