"""Conformance probes for the MBT arty rules of the Optional Rules and the Advanced Game (issue 13): each probe
lists the optional rules (``Probe.optional_rules``) it exposes; the core plays it with and without each of them.

All on the Advanced sample scenario (US Seasoned, Soviet Regulars): an M106 mortar at 2A1 (24 hexes from 4E1,
beyond its own spotting), an M981 FIST at 4B1 (3 hexes, its line of sight clear) or at 4L1 (7 hexes, outside
Danger Close), a T-80BV target at 4E1 (Clear, on the board edge; 4E2 is Woods). The M109 battery of the scenario
is Unattached to a position's observer (response 6, placeholder), the mortar Attached (FO / Attached 2)."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
BAT = "m109-battery-1"


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(units: list, phase: str = "indirect-fire", to_act: str | None = "us", dice=(), rules=(),
              **extension) -> dict:
    out = {"scenario": SCENARIO, "phase": phase, "units": units, "dice": list(dice), "optional_rules": list(rules)}
    if to_act:
        out["to_act"] = to_act
    if extension:
        out["extension"] = extension
    return out


def _if_units(fo_hex: str = "4B1", extra=()) -> list:
    return [_unit("M", "m106", "us", "2A1", 2, command="FIRE"), _unit("F", "m981", "us", fo_hex, 2, command="OW"),
            _unit("T", "t-80bv", "sov", "4E1", 5)] + list(extra)


def _indirect_probes() -> list:
    """Advanced Game indirect fire and smoke tables (MBT 6.5.1, 6.5.2.5)."""
    from studio.rules.conformance import Probe

    pre = [{"side": "us", "hex": "4E1", "batteries": ["m109-battery"]}]
    mortars = [_unit(f"M{k}", "m106", "us", h, 2, command="FIRE") for k, h in ((2, "2A2"), (3, "2A3"), (4, "2B1"))]
    return [
        # MBT 6.5.1.12.1: Pre-Registered Point +2 for the M109 battery: roll 4 + 2 = 6 responds (one lower fails)
        Probe("if-pre-registered", _position(_if_units("4L1"), dice=[4, 50, 50, 50, 50, 50, 50],
                                             pre_registered=pre),
              (f"call {BAT} by F at 4E1",), (), ("indirect-fire-values",)),
        # MBT 6.5.1.1.1: a Seasoned FO calls up to 4 sources (observer-capacity): after four calls (all failing on
        # an unmodified 1, no friend within 5 hexes) the fifth source may not be called
        Probe("if-observer-capacity", _position(_if_units("4L1", mortars), dice=[1, 1, 1, 1]),
              ("call M by F at 4E1", "call M2 by F at 4E1", "call M3 by F at 4E1", "call M4 by F at 4E1"), (),
              ("observer-capacity",)),
        # MBT 6.5.2.5: an M1 fires across Closed SHEAF smoke at the T-80BV: AP -5, and its Laser sight has no
        # effect through the smoke (6.5.2.2.5: Optical): hit number 44, roll 45 misses
        Probe("if-smoke-hindrance", _position([_unit("A", "m1", "us", "4H1", 5, command="FIRE"),
                                               _unit("T", "t-80bv", "sov", "4E1", 5)], "direct-fire-first",
                                              dice=[45, 5, 5, 5, 5, 5, 5, 5],
                                              smoke=[{"hexes": ["4F1", "4G1"], "sheaf": "closed"}]),
              ("fire A at T main:APFSDS",), (), ("hindrance-modifiers",)),
    ]


def probes() -> list:
    """This area's probes (``studio.rules.conformance.Probe``)."""
    from studio.rules.conformance import Probe

    cb = [{"side": "sov", "battery": "2s1-battery"}, {"side": "us", "battery": "m109-battery"}]
    squad_woods = [_unit("S", "sov-mr-squad", "sov", "4E2", 5)]
    return _indirect_probes() + [
        # MBT 7.26.1: response 2 equals the FO / Attached factor 2: the impact scatters (roll 3: 1 hex, direction 4)
        Probe("opt-scatter", _position(_if_units(), dice=[2, 3, 4, 50, 50, 50], rules=("scatter",)),
              ("call M by F at 4E1",), (), ("artillery-optional-values",), optional_rules=("scatter",)),
        # MBT 7.38 (MA114): the battery's Closed SHEAF hits a squad in Woods (4E2): +10 (air-burst-terrain)
        Probe("opt-air-bursts", _position(_if_units(extra=squad_woods), dice=[6] + [50] * 8, rules=("air-bursts",)),
              (f"call {BAT} by F at 4E1",), (), ("air-burst-terrain",), optional_rules=("air-bursts",)),
        # MBT 7.37 (MA114): the FO may call the battery on hexes where it spots nobody
        Probe("opt-recon-by-fire", _position(_if_units("4L1"), rules=("recon-by-fire",)), (),
              optional_rules=("recon-by-fire",)),
        # MBT 7.27: illumination missions are offered (Closed SHEAF only)
        Probe("opt-illumination", _position(_if_units("4L1"), rules=("illumination",)), (),
              optional_rules=("illumination",)),
        # MBT 7.28 (MA102): after the M109 battery's mission the Soviet asset locates it (30 + 10 SP <= 40) and
        # damages it (60); the US asset fires back (99: not located)
        Probe("opt-counter-battery", _position(_if_units("4L1"), dice=[6, 50, 30, 60, 99, 5, 5],
                                               rules=("counter-battery",), counter_battery=cb),
              (f"call {BAT} by F at 4E1",), (), ("artillery-optional-values",), optional_rules=("counter-battery",)),
        # MBT 7.9 (MA87): the T-80BV (D5) tries its dischargers before its command: roll 5 places Smoke/DS
        Probe("opt-smoke-dischargers", _position([_unit("T", "t-80bv", "sov", "4E1", 5),
                                                  _unit("A", "m1", "us", "4H1", 2)], "command", None, dice=[5],
                                                 rules=("smoke-dischargers",)),
              (), optional_rules=("smoke-dischargers",)),
        # MBT 7.39: a dismounted FO section may remount its parent M981 (no leg capacity)
        Probe("opt-dismounted-fos", _position([_unit("F", "m981", "us", "4L1", 2, command="MOVE"),
                                               _unit("F-FO", "us-fo-section", "us", "4L1", 2, command="MOVE"),
                                               _unit("T", "t-80bv", "sov", "4E1", 5)], "move-first",
                                              rules=("dismounted-fos",)),
              ("move F-FO",), optional_rules=("dismounted-fos",)),
        # MBT 7.22: a US squad with a FIRE command may smoke its own hex (S5)
        Probe("opt-infantry-smoke", _position([_unit("S", "us-mech-squad", "us", "4B1", 2, command="FIRE"),
                                               _unit("T", "t-80bv", "sov", "4E1", 5)], "direct-fire-first",
                                              dice=[5, 50], rules=("infantry-smoke",)),
              optional_rules=("infantry-smoke",)),
    ]
