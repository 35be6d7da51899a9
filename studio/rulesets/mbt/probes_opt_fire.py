"""Conformance probes for the MBT fire rules of the Optional Rules and the Advanced Game (issue 13): each probe
lists the optional rules (``Probe.optional_rules``) it exposes; the core plays it with and without each of them.

All on the Advanced sample scenario (US Seasoned, Soviet Regulars): 2A1 -> 2B2 -> 2C2 -> 2D3 -> 2E3 -> 2F4 is a
line of level Clear hexes along hexside 2 (a target at 2F4 facing 5 faces the shooter at 2A1, facing 2 turns its
back); 2L1 (Height 0) sees 2P2 (Height 2) at range 4. Rolls named in the comments come from the sample tables and
cards (placeholders where the cards say so)."""
from __future__ import annotations

SCENARIO = "mbt-adv-combined-arms"
A, B, NEAR, MID = "2A1", "2F4", "2D3", "2E3"   # range 5, 3 and 4 from A along hexside 2
FRONT, BACK = 5, 2                               # target facings toward / away from A


def _unit(uid: str, card: str, side: str, hex_: str, facing: int, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(units: list, rules=(), phase: str = "direct-fire-first", to_act: str | None = "us", dice=(),
              **extra) -> dict:
    out = {"scenario": SCENARIO, "phase": phase, "units": units, "dice": list(dice), "optional_rules": list(rules)}
    if to_act:
        out["to_act"] = to_act
    out.update(extra)
    return out


def _duel(target: str = "t-80bv", facing: int = FRONT, **status) -> list:
    return [_unit("S", "m1", "us", A, 2, command="FIRE"), _unit("T", target, "sov", B, facing, **status)]


def _turret_probes() -> list:
    from studio.rules.conformance import Probe

    away = [_unit("S", "m1", "us", A, 0, command="FIRE"), _unit("T", "t-80bv", "sov", B, FRONT)]
    hit = [_unit("S", "m1", "us", A, 2, command="FIRE"), _unit("T", "t-64bv", "sov", B, BACK, turret=4)]
    pair = [_unit("S", "m1", "us", A, 2, command="NC"), _unit("T", "m113", "sov", B, FRONT)]
    return [
        # MBT 7.8: the M1's hull (and turret) face hexside 0, the target lies along 2: the 105mm may not fire
        # ('turret-arc'), or turns its turret 2 hexsides first ('turn-tt')
        Probe("opt-turret-arc", _position(away, ("turrets",)), (), ("turret-direct-fire",),
              optional_rules=("turrets",)),
        # MBT 7.8.1 / 7.8.3: the Adjust Turret step after the 2nd Air Phase (turret facing, Open or Buttoned)
        Probe("opt-turret-adjust", _position(pair, ("turrets",), phase="air-2", to_act=None),
              ("turn S turret 1 buttoned",), optional_rules=("turrets",)),
        # MBT 7.8.2: hull Rear, turret Front/Side (offset 4): location roll 11 reads TF on the same tens
        # ('same-tens': armor 90 stops the APFSDS 82) or the Front/Side turret face TS (armor 55)
        Probe("opt-turret-hit-reading", _position(hit, ("turrets",), dice=[1, 11, 100, 100]),
              ("fire S at T main:APFSDS",), ("turret-hit-reading",)),
    ]


def _damage_probes() -> list:
    from studio.rules.conformance import Probe

    lower = [_unit("S", "m1", "us", "2L1", 2, command="FIRE"), _unit("T", "t-80bv", "sov", "2P2", 5)]
    squad = [_unit("S", "m1", "us", A, 2, command="FIRE"), _unit("T", "us-mech-squad", "sov", B, FRONT)]
    fuel = [_unit("S", "m1", "us", A, 2, command="FIRE", collateral=["fuel"]),
            _unit("T", "m1", "sov", B, FRONT, command="NC")]
    return [
        # MA89 (MBT 7.11): rear HR hit, damage 6 on the M1's card: KO; BU notation +2: 8, Brew Up
        Probe("opt-bu-modifier", _position(_duel(facing=BACK), ("bu-modifier",), dice=[1, 56]),
              ("fire S at T main:APFSDS",), optional_rules=("bu-modifier",)),
        # MBT 7.12: the 82 row (placeholder) d9 +5, d7 +2: 89 against TF 90 fails; one more on each cell, 91
        Probe("opt-variable-penetration", _position(_duel(), ("variable-ap-penetration",), dice=[1, 9, 7, 11, 100]),
              ("fire S at T main:APFSDS",), (), ("ap-penetration-variation",),
              optional_rules=("variable-ap-penetration",)),
        # MA91 (MBT 7.13.2): 2P2 is two Heights above 2L1 at range 4: the HF hit (roll 51) meets 119 // 2 = 59
        Probe("opt-lower-hull", _position(lower, ("lower-hull-hits",), dice=[1, 51, 100, 100]),
              ("fire S at T main:APFSDS",), optional_rules=("lower-hull-hits",)),
        # MA95 (MBT 7.21): the BMP-2's Track hit (roll 100) on an M1 is a miss (3 x 1 < 8)
        Probe("opt-variable-track", _position([_unit("S", "bmp-2", "sov", A, 2, command="FIRE"),
                                               _unit("T", "m1", "us", B, BACK)], ("variable-track-damage",),
                                              to_act="sov", dice=[1, 100, 100]),
              ("fire S at T main:APDS",), optional_rules=("variable-track-damage",)),
        # MA97 (MBT 7.23.2): a penetrating No Damage TR hit, collateral roll 2: radio (one more: TR 1 ring)
        Probe("opt-collateral", _position(_duel("bmp-2", BACK), ("vehicle-collateral-damage",), dice=[1, 11, 100, 2]),
              ("fire S at T main:APFSDS",), (), ("collateral-damage",), optional_rules=("vehicle-collateral-damage",)),
        # MBT 7.23.4: the fuel roll 1 at the start of the Movement Phase: out of fuel (one more on each roll: none)
        Probe("opt-fuel", _position(fuel, ("vehicle-collateral-damage",), dice=[100, 1, 100]),
              ("fire S at T main:APFSDS",), (), ("fuel-damage",)),
        # MA121 (MBT 7.47): M1 HEAT-MP at a BMP-2 (GPD 1A: N 33 / S 63), roll 78 - 15 = 63 = S: Suppressed and the
        # ATGM damaged
        Probe("opt-installation", _position(_duel("bmp-2"), ("installation-damage",), dice=[78, 100]),
              ("fire S at T main:HEAT-MP",), optional_rules=("installation-damage",)),
        # MA93 (MBT 7.17): the squad reduced (roll 100: Effective), the Dragon chosen first loses on 7 - 2 = 5
        Probe("opt-attached-loss", _position(squad, ("attached-weapon-loss",), dice=[100, 1, 7, 6]),
              ("fire S at T main:HEAT-MP",), optional_rules=("attached-weapon-loss",)),
    ]


def _decision_probes() -> list:
    from studio.rules.conformance import Probe

    # F on Short Halt: not S's shared Fire counter (6.2.1.1.4 would tie S's target to F's)
    two = [_unit("S", "m1", "us", A, 2, command="FIRE"), _unit("F", "m1", "us", A, 2, command="SH"),
           _unit("N", "t-80bv", "sov", NEAR, FRONT), _unit("T", "t-80bv", "sov", B, FRONT)]
    defend = [_unit("S", "m1", "us", A, 2, command="FIRE"), _unit("T", "t-80bv", "sov", B, FRONT, command="NC")]
    qd = [_unit("F", "bmp-2", "sov", A, 2, command="FIRE"), _unit("Q", "m3", "us", B, FRONT, command="FIRE")]
    nato = [_unit("S", "m1", "us", A, 2, command="FIRE"), _unit("T", "t-80bv", "sov", B, FRONT, command="NC")]
    return [
        # MBT 7.14: the closer T-80BV (N, range 3) first; once F engages it, S takes the next closest
        Probe("opt-fire-priority", _position(two, ("fire-priority",)), ("fire F at N main:APFSDS",),
              ("fire-priority-engaged",), optional_rules=("fire-priority",)),
        # MBT 7.15: the N/C T-80BV fired on fires back at its firer in the Combat Phase's Overwatch
        Probe("opt-defensive-fire", _position(defend, ("defensive-fire",), dice=[100, 100]),
              ("fire S at T main:APFSDS",), optional_rules=("defensive-fire",)),
        # MA94 (MBT 7.18): pinning fire at a squad: +20, the roll 100 Effective only suppresses
        Probe("opt-pinning", _position([_unit("S", "m1", "us", A, 2, command="FIRE"),
                                        _unit("T", "sov-mr-squad", "sov", B, FRONT)], ("pinning-fire",), dice=[100]),
              ("fire S at T cdr-hmg:GP+pin",), optional_rules=("pinning-fire",)),
        # MA99 (MBT 7.25): the AP roll 00 malfunctions the 105mm (one more on every value: 101, no malfunction)
        Probe("opt-malfunction", _position(_duel(), ("weapon-malfunction",), dice=[100]), ("fire S at T main:APFSDS",),
              (), ("opt-fire-values",), optional_rules=("weapon-malfunction",)),
        # MA118 (MBT 7.44): the Veteran Bradley quickdraws at the Regular BMP-2 announcing fire at it
        Probe("opt-quickdraw", _position(qd, ("quickdraw",), to_act="sov", dice=[100, 100]),
              ("fire F at Q main:APDS",), optional_rules=("quickdraw",)),
        # MA123 (MBT 7.50): the M1 fires at the same T-80BV two turns running: hit number 95 instead of 92, roll 93
        Probe("opt-nato-bonus", _position(nato, ("nato-target-acquisition",), dice=[100, 60, 40, 93]),
              ("fire S at T main:APFSDS", "command S FIRE", "command T NC", "initiative first",
               "fire S at T main:APFSDS"), (), ("nato-nations",), optional_rules=("nato-target-acquisition",)),
    ]


def _ammo_probes() -> list:
    """Ammo Limits of the Advanced Game (MBT 5.16), no optional rule."""
    from studio.rules.conformance import Probe

    t80 = [_unit("S", "t-80bv", "sov", A, 2, command="FIRE"), _unit("T", "m1", "us", B, FRONT)]
    return [
        # MBT 5.16.2.1: the T-80BV's A9 roll 10: AP -3, hit number 60 (-2 with one more: 68), roll 61 misses
        Probe("adv-ammo-limit", _position(t80, to_act="sov", dice=[10, 61, 100, 100]), ("fire S at T main:APFSDS",),
              (), ("ammo-limits",)),
        # MBT 5.16.2.6 (option atgm-ammo-limits): the Songster shares the gun's A9: rolled (1, then the hit roll
        # 100 misses) or counted (no roll: the hit roll is the 1)
        Probe("adv-atgm-ammo-limits", _position(t80, to_act="sov", dice=[1, 100, 100, 100]),
              ("fire S at T main:Songster_(Kobra)",), ("atgm-ammo-limits",)),
    ]


def probes() -> list:
    """This area's probes (``studio.rules.conformance.Probe``)."""
    return _turret_probes() + _damage_probes() + _decision_probes() + _ammo_probes()
