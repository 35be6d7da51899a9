"""Optional Rules probes of this area (issue 13): hidden units (7.2: counters added in play, fakes moving), staggered
initiative (7.5: the force names its formation), Command Span's organisation tree (7.43) and terrain, time of day
and weather (7.36: ground-condition areas, the searchlights' Visualization step). See `probes.optional_probes`.

All on the Advanced sample scenario (helpers of ``probes_opt_command``)."""

from __future__ import annotations

from .probes_opt_command import FAR, _position, _unit


def _hidden_probes() -> list:
    from studio.rules.conformance import Probe

    cmd = [_unit("A", "m1", "us", "2L10", 0), _unit("B", "m1", "us", "2L11", 0), _unit("T", "t-80bv", "sov", FAR, 3)]
    legs = [_unit("A", "m1", "us", "2A10", 0), _unit("I", "us-mech-squad", "us", "2A11", 0),
            _unit("T", "t-80bv", "sov", "4E12", 3)]
    fake = [{"id": "F1", "side": "us", "hex": "2D1", "units": []}]
    return [
        # MBT 7.2.3: A, spotted by no one, hides in the Command Phase; B joins its counter
        Probe("opt-hidden-added", _position(cmd, "command", "us", (), ("hidden-units",), hidden_limit={"us": 1}),
              ("hide A", "command A NC", "hide B us-H1"), optional_rules=("hidden-units",)),
        # MBT 7.2.2.2: a fake moves two hexes as a leg unit, the third as a vehicle: the T-80BV 21 hexes away sees
        # a moving vehicle there (not a leg unit): the fake is revealed
        Probe("opt-hidden-fake-moves", _position(legs, "close-combat", "us", (), ("hidden-units",),
                                                 hidden_units=fake),
              ("fake F1 2D2", "fake F1 2D3", "fake F1 2D4"), optional_rules=("hidden-units",)),
    ]


def _stagger_probes() -> list:
    from studio.rules.conformance import Probe

    names = {"A1": "a", "A2": "b", "T1": "c", "T2": "d"}
    duel = [_unit("A1", "m1", "us", "2A2", 2, command="FIRE"), _unit("A2", "m1", "us", "2A3", 2, command="FIRE"),
            _unit("T1", "t-80bv", "sov", "2G5", 5, command="FIRE"), _unit("T2", "t-80bv", "sov", "2G6", 5,
                                                                        command="FIRE")]
    # MBT 7.5.1: the initial First Player names its formation (b) before any fire is announced
    return [Probe("opt-staggered-formation-named", _position(duel, "direct-fire-first", "us", [99] * 8,
                                                             ("staggered-initiative",), formations=names),
                  ("formation b",), optional_rules=("staggered-initiative",))]


def _span_probes() -> list:
    from studio.rules.conformance import Probe

    coy = [_unit("C", "t-80bv", "sov", "2E5", 0)] + [_unit(f"U{k}", "t-80bv", "sov", f"2E{k + 6}", 0)
                                                     for k in range(4)]
    units = coy + [_unit("B", "brdm-2-at5", "sov", "4F3", 0), _unit("X", "m1", "us", "2A13", 0)]
    # MBT 7.43: the BHQ of formation 'battalion' commands company 'coy' (command_tree); the CHQ is 31 hexes away,
    # beyond the BHQ span (20): coy's 5 units take 2 Available Commands (Green) instead of 3 (Seasoned)
    return [Probe("opt-command-span-tree", _position(units, "command", "sov", (), ("command-span",),
                                                     command_units={"C": "CHQ", "B": "BHQ"},
                                                     formations={**{u["id"]: "coy" for u in coy},
                                                                 "B": "battalion"},
                                                     command_tree={"coy": "battalion"},
                                                     force_grades={"sov": "seasoned"}),
                  ("command C NC",), (), ("command-span",), optional_rules=("command-span",))]


def _weather_probes() -> list:
    from studio.rules.conformance import Probe

    mover = [_unit("M", "m1", "us", "2A1", 1, command="MOVE"), _unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    # MBT 7.36.3: snow in the listed hexes only: the first hex entered (2B1) is one of them (+1). (The
    # searchlights' Visualization step needs a scenario with limited-visibility turns: positions of the daylight
    # sample scenarios cannot show it; test_opt_opta_weather.py plays it at night.)
    return [Probe("opt-snow-area", _position(mover, "move-first", "us", (), ("terrain-time-weather",),
                                             ground_conditions="snow", ground_hexes=["2B1", "2B2"]),
                  ("move M", "fwd M"), optional_rules=("terrain-time-weather",))]


def probes() -> list:
    """The probes of this area: each switches one optional rule on and exposes its effect."""
    return _hidden_probes() + _stagger_probes() + _span_probes() + _weather_probes()
