"""Conformance probes for the MBT air rules of the Advanced Game (MBT 6.7): fixed-wing aircraft and helicopter
altitudes, exposing the air options and tables. (The optional rules of the air chapter, 7.26.2 bomb scatter and
7.38 air bursts, are ARTY's functions; their probes are ARTY's.)

All on the air-strike scenario (US Veteran with two A-10As: bomb, cluster, rockets, drop tank; Soviet Regulars),
turn 3, 1st Air Phase. Column 2B is Clear/Brush far from any woods: an aircraft entering at 2B1 heading S flies
down it. 2G4 is 2 hexes from the nearest Woods (height 3). Sample values: a T-80BV is GPD 8A; the A-10A strafe
is GP 12 (N 37 / S 73 against GPD 8); strafing at Slow/Low: +20 Low, Veteran +10 at Extreme range, A-Type -20 =
net +10."""
from __future__ import annotations

SCENARIO = "mbt-adv-air-strike"
FAR = "4T14"  # a US tank far away keeps the game going


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(units: list, dice=(), turn: int = 3) -> dict:
    return {"scenario": SCENARIO, "phase": "air-1", "to_act": "us", "turn": turn,
            "units": units + [_unit("U0", "m1", "us", FAR, 5)], "dice": list(dice)}


def _fw_probes() -> list:
    from studio.rules.conformance import Probe

    enter = ("sortie A-10A-1 slow low", "arrive A-10A-1 2B1 S")
    strafe = enter + ("wing A-10A-1 ahead", "attack A-10A-1 strafe T")
    pair = [_unit("T", "t-80bv", "sov", "2B3", 0), _unit("V", "t-80bv", "sov", "2B6", 0)]
    fast = ("sortie A-10A-1 fast low", "arrive A-10A-1 2B1 S", "wing A-10A-1 ahead", "attack A-10A-1 strafe T")
    bomb = ("sortie A-10A-1 slow medium", "arrive A-10A-1 2B1 S", "wing A-10A-1 ahead", "attack A-10A-1 bomb T")
    return [
        # MBT 6.7.3.2, 6.7.3.8: roll 27 + 10 = 37, N-Effect at N 37; one more on the modifiers Suppresses; a
        # 4-hex strafe (air-values strafe-slow-hexes + 1) also hits V at 2B6
        Probe("air-fw-strafe", _position(pair, [27, 1, 1]), strafe, (), ("aircraft-modifiers", "air-values")),
        # option fw-fast-speed-sign: roll 50 - 10 = 40 Suppresses (minus); 50 + 30 = 80 is Effective (plus)
        Probe("air-fw-fast-sign", _position(pair[:1], [50, 99, 99, 99]), fast, ("fw-fast-speed-sign",)),
        # MBT 6.7.3.1.1: T 6 hexes ahead of the entry hex is not acquired on entry at Slow/Low (Acquire 6); with 7
        # it is, and the rockets (6-30, straight ahead) may fire at once
        Probe("air-fw-acquire", _position([_unit("T", "t-80bv", "sov", "2B7", 0)]), enter, (),
              ("aa-aircraft-spotting",)),
        # MBT 6.7.3.1.3: 2G4 is 2 hexes from Woods: out of a Low aircraft's sight (base 2); base 3 sees it
        Probe("air-fw-los", _position([_unit("T", "t-80bv", "sov", "2G4", 0)]),
              ("sortie A-10A-1 slow low", "arrive A-10A-1 2G1 S"), (), ("aircraft-los",)),
        # MBT 6.7.3.3.1: the Medium iron bomb pattern (2 hexes, placeholder) misses V at 2B5; 3 hexes wide hit it
        Probe("air-fw-bomb", _position([pair[0], _unit("V", "t-80bv", "sov", "2B5", 0)], [1, 1, 1, 1]), bomb, (),
              ("fw-bomb-patterns",)),
    ]


def _heli_probes() -> list:
    from studio.rules.conformance import Probe

    units = [_unit("H", "ah-1s", "us", "2A1", 2), _unit("Z", "zsu-23-4", "sov", "2A8", 0, command="OW")]
    return [
        # MBT 6.7.8.1.1 (no fixed-wing sortie first): a helicopter flying 2 hexes at Low is tracked by active
        # radar (Track 3 halved, at least 2), not optically (3)
        Probe("air-heli-radar", _position(units, [50]), ("pass", "fly H 2A3 low", "hold H"), ("aa-radar-state",)),
        # MBT 6.7.5.3.1: landing in Clear 2A3 (terrain codes only: table heli-landing-terrain lists the codes)
        Probe("air-heli-landing", _position(units[:1]), ("pass", "fly H 2A3 land", "hold H"), (),
              ("heli-landing-terrain",)),
        # MBT 6.7.5.2: the flights offered are the hexes the manoeuvres reach within NOE 10 / Low 24 (one more on
        # every manoeuvre cost reaches fewer)
        Probe("air-heli-manoeuvres", _position(units[:1]), ("pass",), (), ("heli-movement-costs",)),
    ] + _rappel_probes()


def _rappel_probes() -> list:
    """MBT 6.7.5.3.4 on the combined-arms scenario (no fixed-wing aircraft): a Mi-24 hovering at NOE lets its
    Regulars squad rappel (Quickmarch range 01-50). In the Rough hex 2C9 +20 rappelling -20 Rough nets 0: roll
    50 Suppresses; one more on either table's modifiers does not. In the Clear hex 2A1 roll 51: +20 on the roll
    (option rappel-modifiers 'roll') leaves it unsuppressed, a range widened by 20 ('range') suppresses it."""
    from studio.rules.conformance import Probe

    def pos(hex_: str, roll: int) -> dict:
        units = [_unit("H", "mi-24", "sov", hex_, 2), _unit("P", "sov-mr-squad", "sov", hex_, 2, carried_by="H"),
                 _unit("U0", "m1", "us", FAR, 5)]
        return {"scenario": "mbt-adv-combined-arms", "phase": "air-1", "to_act": "sov", "turn": 1, "units": units,
                "dice": [roll]}

    return [
        Probe("air-heli-rappel", pos("2C9", 50), ("fly H 2C9", "rappel H P"), (),
              ("rappel-modifiers", "rappel-terrain")),
        Probe("air-heli-rappel-option", pos("2A1", 51), ("fly H 2A1", "rappel H P"), ("rappel-modifiers",)),
    ]


def _atgm_probes() -> list:
    """MBT 5.1.3.3.5-6 on the combined-arms scenario: the M2A1 turning in 2A14 draws the Overwatch Spigot (CL 2) of
    the BMP-1 at 2A1; the M1 on Overwatch at 2A11 responds first with HEAT-MP, roll 63 (net -20): no effect, so
    the BMP-1 is Under Fire: its Spigot at net -7 (hit number 28) misses on 30; one more on table atgm-under-fire
    (net -6, 36) hits."""
    from studio.rules.conformance import Probe

    units = [_unit("S", "bmp-1", "sov", "2A1", 0, command="OW"), _unit("T", "m2a1", "us", "2A14", 0, command="MOVE"),
             _unit("M", "m1", "us", "2A11", 0, command="OW")]
    pos = {"scenario": "mbt-adv-combined-arms", "phase": "move-second", "to_act": "us", "turn": 1, "units": units,
           "dice": [63, 30] + [50] * 8}
    return [Probe("adv-atgm-under-fire", pos, ("move T", "turn T right", "ow S at T main:Spigot_(Fagot)", "hold T",
                                               "ow M at S main:HEAT-MP"), (), ("atgm-under-fire",))]


def probes() -> list:
    """This area's probes (``studio.rules.conformance.Probe``)."""
    return _fw_probes() + _heli_probes() + _atgm_probes()
