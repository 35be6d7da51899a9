"""Conformance probes for the MBT command rules of the Optional Rules and the Advanced Game (issue 13): each probe
lists the optional rules (``Probe.optional_rules``) it exposes; the core plays it with and without each of them.

All on the Advanced sample scenario. 2A1 -> 2B1 is Clear along hexside 1; 2L10 is Woods with Clear hexes 2F11 (6
hexes), 2B12 and 2B13 (10), 2H11 and 2H12 (4) seeing into it; 2E5 -> 2O5 is 10 hexes, 2P5 11. Rolls are chosen
on the boundaries of the (sample) table values given in the comments, so that the tables one higher change play."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
FAR = "4T13"  # an enemy far away (no spotting, no overwatch)
WOODS, AT6, AT10, AT10B, AT4, AT4B = "2L10", "2F11", "2B12", "2B13", "2H11", "2H12"


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(units: list, phase: str, to_act: str, dice=(), rules=(), options=None, **extension) -> dict:
    out = {"scenario": SCENARIO, "phase": phase, "to_act": to_act, "units": units, "dice": list(dice),
           "optional_rules": list(rules)}
    if options:
        out["options"] = options
    if extension:
        out["extension"] = extension
    return out


MOVER = _unit("X", "m1", "us", "4T1", 0, command="MOVE")
NEXT_TURN = ("move X", "done X")  # the turn ends: the next Spotting / Command Phase rolls the forced dice


def _morale_probes() -> list:
    from studio.rules.conformance import Probe

    mover = [_unit("M", "m1", "us", "2A1", 1, command="MOVE"), _unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    reached = {"cohesion_point": {"us": 1, "sov": 9}, "morale_losses": {"us": 1}}
    moves = ("move M", "fwd M", "done M")
    a = "2A1"
    squad = [_unit("I", "us-mech-squad", "us", a, 1, command="MOVE"), _unit("T", "t-80bv", "sov", "2B1", 0)]
    return [
        # MBT 7.1.2: past the Cohesion Point the mover checks: roll 71, Seasoned, Clear, MOVE -20 = 51: Hesitate
        # (USA Break 01-50); the Break Point Table one higher makes it Break
        Probe("opt-morale-moved-break-point", _position(mover, "move-first", "us", [71], ("morale",), **reached),
              moves, (), ("break-point",), optional_rules=("morale",)),
        # the same with roll 90: 70 Hesitates; the modifiers one higher (MOVE -19) make it 71: no effect
        Probe("opt-morale-moved-modifiers", _position(mover, "move-first", "us", [90], ("morale",), **reached),
              moves, (), ("morale-check-modifiers",), optional_rules=("morale",)),
        # MBT 7.1.1.1 option cohesion-timing first-loss: the CP is rolled at the first check: roll 45 + US Int +10
        # + Seasoned 0 = 55 Good (1 unit: 1/2 -> CP 0); one higher (57) Excellent (CP 1)
        Probe("opt-morale-cohesion-roll", _position(mover, "move-first", "us", [45, 71], ("morale",),
                                                    {"cohesion-timing": "first-loss"}, morale_losses={"us": 1}),
              moves, ("cohesion-timing",), ("cohesion-point-modifiers", "morale-grade-modifiers",
                                            "numeric-cohesion-point"), optional_rules=("morale",)),
        # MBT 7.1.5.2: a Broken tank moves at 1/2 (the move fraction one higher: 1 1/2)
        Probe("opt-morale-broken-move", _position([_unit("M", "m1", "us", "2A1", 1, command="MOVE",
                                                         morale="break-off"), mover[1]], "move-first", "us",
                                                  [], ("morale",), cohesion_point={"us": 9, "sov": 9}),
              ("move M",), (), ("morale-effects",), optional_rules=("morale",)),
        # MBT 7.1.5.1: a Hesitating FO's Called Fire Response roll 2 - 1 misses the 2 it needs; option
        # hesitation-if-response none: it responds
        Probe("opt-morale-if-response", _position(
            [_unit("M", "m106", "us", "2A1", 2, command="FIRE"),
             _unit("F", "m981", "us", "4B1", 2, command="OW", morale="hesitation-on"),
             _unit("T", "t-80bv", "sov", "4E1", 5)], "indirect-fire", "us", [2, 50, 99, 99], ("morale",),
            cohesion_point={"us": 9, "sov": 9}), ("call M by F at 4E1",), ("hesitation-if-response",),
              optional_rules=("morale",)),
        # MBT 7.6: a Green squad's tank fright check: roll 60 - 20 = 40: Break -> Suppression/On, no assault
        Probe("opt-tank-fright", _position(squad, "close-combat", "us", [60, 50, 5], ("tank-fright",),
                                           force_grades={"us": "green"}),
              ("assault I T",), optional_rules=("tank-fright",)),
    ]


def _hidden_probes() -> list:
    from studio.rules.conformance import Probe

    units = [_unit("H", "m1", "us", "2A1", 3), _unit("T", "t-80bv", "sov", "2A13", 0)]
    hidden = [{"id": "H1", "side": "us", "hex": "2A1", "units": ["H"]}, {"id": "F1", "side": "sov", "hex": "2P5",
                                                                          "units": []}]
    leg = [_unit("I", "us-mech-squad", "us", "2A1", 3), _unit("R", "bmp-2", "sov", "2A13", 0)]
    return [
        # MBT 7.2.2.1: the hidden M1 is spotted at 12 (vehicle range 20) and revealed; the fake stays hidden
        Probe("opt-hidden-units", _position(units + [MOVER], "move-first", "us", [], ("hidden-units",),
                                            hidden_units=hidden), NEXT_TURN, optional_rules=("hidden-units",)),
        # MBT 7.46: a hidden squad at 12 (beyond its range 10) is found by an active ground radar (20)
        Probe("opt-ground-radar-hidden", _position(leg + [MOVER], "move-first", "us", [], ("hidden-units",
                                                   "ground-radar"), hidden_units=[{"id": "H1", "side": "us",
                                                                                   "hex": "2A1", "units": ["I"]}],
                                                   ground_radar=["R"]), NEXT_TURN + ("cover I off",),
              optional_rules=("ground-radar",)),
    ]


def _spotting_probes() -> list:
    from studio.rules.conformance import Probe

    removal = [_unit("S", "sov-mr-squad", "sov", WOODS, 0, mark="spot-fire"), _unit("A", "m2a1", "us", AT10, 0),
               _unit("B", "m2a1", "us", AT10B, 0), _unit("M", "m1", "us", AT6, 0), MOVER]
    limited = [_unit("T", "t-80bv", "sov", WOODS, 0), _unit("A", "m1", "us", AT4, 0), _unit("B", "m1", "us", AT4B, 0),
               MOVER]
    camo = [_unit("T", "t-80bv", "sov", WOODS, 0), _unit("A", "m1", "us", AT4, 0), MOVER]
    radar = [_unit("T", "t-80bv", "sov", WOODS, 0), _unit("R", "m113", "us", AT10, 0), MOVER]
    vet = {"us": "veteran", "sov": "seasoned"}
    return [
        # MBT 7.4 / MA82: a squad with Spot/Fire in Woods (range 15, as the example's SPG-9): Medium, 3-5
        # spotters, one at 6 <= 15 // 2: 20; Veteran +10: roll 10 removes (the modifier one higher keeps it)
        Probe("opt-spot-removal", _pos_grades(removal, [10], ("spot-removal",), vet), NEXT_TURN + ("cover S off",), (),
              ("spot-removal-modifiers",), optional_rules=("spot-removal",)),
        # roll 21 + 10 = 31 keeps it; the table one higher (3 spotters in the 2-2 row, now 3-3: 31) removes it
        Probe("opt-spot-removal-table", _pos_grades(removal, [21], ("spot-removal",), vet), NEXT_TURN + ("cover S off",),
              (),
              ("spot-removal",), optional_rules=("spot-removal",)),
        # MBT 7.7 / MA83: two Veteran M1s at 4 (> 7 // 2): 60 + 10 = 70; roll 71 fails (one higher spots)
        Probe("opt-limited-spotting", _pos_grades(limited, [71], ("limited-spotting",), vet), NEXT_TURN, (),
              ("spotting-table", "command-optional-values"), optional_rules=("limited-spotting",)),
        # MBT 7.24: camouflaged T-80BV in Woods (range 7): roll (10) 8 fails
        Probe("opt-camouflage", _position(camo, "move-first", "us", [8], ("camouflage",), camouflaged=["T"]),
              NEXT_TURN, optional_rules=("camouflage",)),
        # MBT 7.46: an active ground radar spots the camouflaged tank without a roll
        Probe("opt-ground-radar-camouflage", _position(radar, "move-first", "us", [10], ("camouflage",
                                                       "ground-radar"), camouflaged=["T"], ground_radar=["R"]),
              NEXT_TURN, optional_rules=("ground-radar",)),
    ]


def _pos_grades(units, dice, rules, grades) -> dict:
    """A Movement Phase position with the Force Grades ``grades``."""
    return _position(units, "move-first", "us", dice, rules, force_grades=grades)


def _command_probes() -> list:
    from studio.rules.conformance import Probe

    pair = [_unit("A", "m1", "us", "2A1", 0), _unit("B", "m1", "us", "2A2", 0), _unit("T", "t-80bv", "sov", FAR, 0)]
    sov = [_unit(f"T{k}", "t-80bv", "sov", f"2{c}13", 0, command="NC") for k, c in enumerate("ADGJ")]
    company = [_unit("C", "t-80bv", "sov", "2E5", 0)] + \
        [_unit(f"U{k}", "t-80bv", "sov", h, 0) for k, h in enumerate(("2E7", "2F5", "2O5", "2P5"))] + \
        [_unit("E", "m1", "us", FAR, 0)]
    return [
        # MBT 7.3: different platoons: the second MOVE takes its own counter
        Probe("opt-platoon-command-control", _position(pair, "command", "us", [], ("platoon-command-control",),
                                                       platoons={"A": "1", "B": "2"}),
              ("command A MOVE", "command B MOVE"), optional_rules=("platoon-command-control",)),
        # MBT 7.40: a delayed unit has N/C only
        Probe("opt-delayed-reaction", _position(pair, "command", "us", [], ("delayed-reaction",),
                                                delayed_reaction=[{"units": ["A"], "until_turn": 2}]),
              optional_rules=("delayed-reaction",)),
        # MBT 7.42 example: Moderate (Dif 50, 01-30): Veteran 64 + 20 vs Seasoned 29: 55 > 50; the Soviet
        # formation rolls 31: not disrupted (one higher, 01-31: disrupted)
        Probe("opt-disrupted-communications", _position([MOVER] + sov, "move-first", "us", [64, 29, 31],
                                                        ("disrupted-communications",),
                                                        force_grades={"us": "veteran", "sov": "seasoned"},
                                                        disrupted_communications={"level": "moderate"}),
              NEXT_TURN, (), ("disrupted-communications",), optional_rules=("disrupted-communications",)),
        # MBT 7.43: U3 at 11 hexes from the CHQ (span 10): Move/Short Halt counters at most 1/2 (one higher: in
        # span, no limit)
        Probe("opt-command-span", _position(company, "command", "sov", [], ("command-span",),
                                            command_units={"C": "CHQ"}),
              ("command C MOVE",), (), ("command-span",), optional_rules=("command-span",)),
    ]


def _weather_probes() -> list:
    from studio.rules.conformance import Probe

    mover = [_unit("M", "m1", "us", "2A1", 1, command="MOVE"), _unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    # MBT 7.36.3: snow adds 1 to the cost of the Clear hex entered (one higher: 2)
    return [Probe("opt-snow", _position(mover, "move-first", "us", [], ("terrain-time-weather",),
                                        ground_conditions="snow"),
                  ("move M", "fwd M"), (), ("ground-conditions",), optional_rules=("terrain-time-weather",))]


def _stagger_probes() -> list:
    from studio.rules.conformance import Probe

    names = {"A1": "a", "A2": "b", "T1": "c", "T2": "d"}
    duel = [_unit("A1", "m1", "us", "2A2", 2, command="FIRE"), _unit("A2", "m1", "us", "2A3", 2, command="FIRE"),
            _unit("T1", "t-80bv", "sov", "2G5", 5, command="FIRE"), _unit("T2", "t-80bv", "sov", "2G6", 5,
                                                                       command="FIRE")]
    movers = [_unit("A1", "m1", "us", "2A2", 2, command="MOVE"), _unit("T1", "t-80bv", "sov", FAR, 5, command="MOVE")]
    return [
        # MBT 7.5.1: the initial First Player names formation a, which alone announces; after its fire (a miss,
        # 99) the forces roll: 30 vs 60 - 20 (Regulars): the Soviet force names its formation next
        Probe("opt-staggered-initiative", _position(duel, "direct-fire-first", "us", [99, 30, 60] + [99] * 8,
                                                    ("staggered-initiative",), formations=names),
              ("formation a", "fire A1 at T1 main:APFSDS"), optional_rules=("staggered-initiative",)),
        # MBT 7.5.2: reverse-order movement (formations never called move first, in order: a of the US) against
        # 7.5.3 streamlined (the Second Player, Soviet, first)
        Probe("opt-staggered-movement", _position(movers, "move-second", "sov", [], ("staggered-initiative",),
                                                  {"staggered-movement": "reverse-order"},
                                                  formations={"A1": "a", "T1": "c"}),
              (), ("staggered-movement",)),
    ]


def probes() -> list:
    """This area's probes (``studio.rules.conformance.Probe``)."""
    return _morale_probes() + _hidden_probes() + _spotting_probes() + _command_probes() + _weather_probes() + \
        _stagger_probes()
