"""The fire-decision optional rules through positions and the public API: 7.14 Fire Priority, 7.15 Defensive
Fire, 7.18 Pinning Fire (MA94), 7.25 Weapon Malfunction (MA99), 7.44 Quickdraw (MA118), 7.48 Commander
Independent Sight (MA122) and 7.50 NATO Target Acquisition Bonus (MA123)."""
from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import (A, B, D, FACE_SHOOTER, act, idx_of, legal_texts, opt_game, opt_state,  # noqa: E402
                               unit)

from studio.hexgrid.coords import neighbour  # noqa: E402


def _net(event: str) -> int:
    return int(re.search(r"net ([+-]\d+)", event).group(1))


def _gp_net(event: str) -> int:
    return int(re.search(r"roll \d+([+-]\d+) =", event).group(1))


def _hex_at(k: int) -> str:
    g = opt_game()
    h = g.map.hex(A)
    for _ in range(k):
        h = neighbour(h, D)
    return g.label(h)


# ---------------------------------------------------------------- 7.14
def _priority(options=None, rules=("fire-priority",)):
    near = _hex_at(3)
    # F on Short Halt: it does not share S's Fire counter (shared commands, 6.2.1.1.4, would tie S to F's target)
    return opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("F", "m1", "us", A, D, command="SH"),
                      unit("N", "t-80bv", "sov", near, FACE_SHOOTER), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                     rules, options=options)


def test_fire_priority_closest_vehicle_first():
    # MBT 7.14: a vehicle with Fire or Short Halt must fire at the closest opposing vehicle combat unit
    texts = legal_texts(_priority())
    assert "fire S at N main:APFSDS" in texts and not any(t.startswith("fire S at T ") for t in texts)
    off = legal_texts(_priority(rules=()))
    assert "fire S at T main:APFSDS" in off


@pytest.mark.parametrize("mode, may_n, may_t", [("next-closest", False, True), ("any", True, True)])
def test_fire_priority_when_the_closest_is_engaged(mode, may_n, may_t):
    # MBT 7.14: unless another vehicle of the same formation already engages it (option fire-priority-engaged)
    st = _priority({"fire-priority-engaged": mode})
    act(st, "fire F at N main:APFSDS")
    texts = legal_texts(st)
    assert ("fire S at N main:APFSDS" in texts) is may_n and ("fire S at T main:APFSDS" in texts) is may_t


# ---------------------------------------------------------------- 7.15
def _defensive(rules=("defensive-fire",), command="NC", dice=(100, 100, 1, 100)):
    """S fires at T (N/C), U at W (N/C); nobody else acts before the Combat Phase's Overwatch (the T-80BV's
    Ammo Limit roll A9: 1)."""
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("U", "m1", "us", A, D, command="FIRE"),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command=command),
                    unit("W", "t-80bv", "sov", B, FACE_SHOOTER, command="NC")], rules, dice=list(dice))
    act(st, "fire S at T main:APFSDS")
    act(st, "fire U at W main:APFSDS")
    return st


def test_defensive_fire_at_the_firer_only():
    # MBT 7.15: an N/C unit fired on by direct fire may fire back, as if overwatching, at one firing unit
    st = _defensive()
    texts = legal_texts(st)
    assert "ow T at S main:APFSDS" in texts and not any(t.startswith("ow T at U ") for t in texts), texts
    assert not any(t.startswith("ow T ") for t in legal_texts(_defensive(rules=())))


def test_defensive_fire_minus_two_on_the_overwatch_modifiers():
    st = _defensive()
    act(st, "ow T at S main:APFSDS")
    defensive = _net(next(e for e in st.events if e.startswith("T fires")))
    # the same shot as a real Overwatch: the unit had an OW command
    ow = opt_state([unit("S", "m1", "us", A, D, command="FIRE", revealed=True, fired=True),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command="OW")], ("defensive-fire",),
                   phase="overwatch", to_act="sov", dice=[1, 100])
    act(ow, "ow T at S main:APFSDS")
    assert defensive == _net(next(e for e in ow.events if e.startswith("T fires"))) - 2


def test_defensive_fire_counts_as_a_command_in_recovery():
    # MBT 7.15: later suppression recovery applies the Command-other-than-N/C modifier
    def recovery(fire_back: bool):
        st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"),
                        unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command="NC", suppression="off")],
                       ("defensive-fire",), dice=[100, 1, 100, 50] if fire_back else [100, 50])
        act(st, "fire S at T main:APFSDS")
        act(st, "ow T at S main:APFSDS" if fire_back else "pass")
        e = next(e for e in st.events if "T Suppression recovery" in e)
        return int(re.search(r"net (\d+)", e).group(1))

    mod = opt_game().ag.recovery_mod["command-not-nc"]
    assert recovery(True) - recovery(False) == mod


# ---------------------------------------------------------------- 7.18
def _pin(action, dice=(100,), rules=("pinning-fire",)):
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "sov-mr-squad", "sov", B, FACE_SHOOTER)],
                   rules, dice=list(dice))
    texts = legal_texts(st)
    act(st, action)
    return st, texts


def test_ma94_pinning_fire_only_suppresses():
    # MA94 (MBT 7.18): small-arms GP fire at a leg unit may be Pinning Fire: +20, an Effective result is treated
    # as Suppressed (the roll 100 would reduce the squad)
    st, texts = _pin("fire S at T cdr-hmg:GP+pin")
    assert "fire S at T main:HEAT-MP+pin" not in texts  # not small arms
    t = idx_of(st, "T")
    assert st.sup[t] and not st.red[t], st.events
    plain, _ = _pin("fire S at T cdr-hmg:GP")
    assert plain.red[t]
    assert _gp_net(next(e for e in st.events if " fires " in e)) == \
        _gp_net(next(e for e in plain.events if " fires " in e)) + 20
    _, off = _pin("fire S at T cdr-hmg:GP", rules=())
    assert "fire S at T cdr-hmg:GP+pin" not in off


def test_pinning_fire_not_at_vehicles():
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "bmp-2", "sov", B, FACE_SHOOTER)],
                   ("pinning-fire",))
    assert not any(t.endswith("+pin") for t in legal_texts(st))


# ---------------------------------------------------------------- 7.25
MALF = ("weapon-malfunction",)


def test_ma99_ap_roll_00_malfunctions_the_weapon():
    # MA99 (MBT 7.25): an AP direct fire roll of 00 malfunctions the weapon; the shot resolves normally
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   MALF, dice=[100])
    act(st, "fire S at T main:APFSDS")
    s, t = idx_of(st, "S"), idx_of(st, "T")
    assert "main" in st.ofire.malf[s] and any("malfunctions (roll 100)" in e for e in st.events)
    row = next(r for r in st.game.units[s].type.ap if r.key == "main:APFSDS")
    assert not st.weapon_ok(s, t, row)
    off = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                    (), dice=[100])
    act(off, "fire S at T main:APFSDS")
    assert off.weapon_ok(s, t, row)


@pytest.mark.parametrize("roll, malf", [(1, True), (2, False)])
def test_ma99_gp_unmodified_01_malfunctions(roll, malf):
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "sov-mr-squad", "sov", B, FACE_SHOOTER)],
                   MALF, dice=[roll])
    act(st, "fire S at T cdr-hmg:GP")
    assert ("cdr-hmg" in st.ofire.malf[idx_of(st, "S")]) is malf


@pytest.mark.parametrize("command, roll, outcome", [("FIRE", 2, "repaired"), ("FIRE", 3, "out"), ("NC", 4, "repaired"),
                                                    ("FIRE", 10, "permanent"), ("NC", 10, "out")])
def test_ma99_repair_roll_at_the_end_of_the_command_phase(command, roll, outcome):
    # MA99 (MBT 7.25): roll (10) at the end of the Command Phase, N/C -2: 2 or less repaired (from the next turn),
    # a final 10 permanently out
    st = opt_state([unit("S", "m1", "us", A, D, command=command, malfunctioned=["main"]),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], MALF, phase="command", to_act="sov", dice=[roll])
    act(st, "command T NC")
    s = idx_of(st, "S")
    rec = st.ofire
    assert ("main" in rec.rep[s], "main" in rec.malf[s], "main" in rec.perm[s]) == \
        {"repaired": (True, False, False), "out": (False, True, False), "permanent": (False, False, True)}[outcome]
    row = next(r for r in st.game.units[s].type.ap if r.key == "main:APFSDS")
    assert not st.weapon_ok(s, idx_of(st, "T"), row)  # a repaired weapon fires from the next turn


# ---------------------------------------------------------------- 7.44
def _quickdraw(grades, spu_status=None, dice=(100, 100), facing=FACE_SHOOTER):
    status = {"command": "FIRE", **(spu_status or {})}
    st = opt_state([unit("F", "bmp-2", "sov", A, D, command="FIRE"), unit("Q", "m3", "us", B, facing, **status)],
                   ("quickdraw",), to_act="sov", grades=grades, dice=list(dice))
    act(st, "fire F at Q main:APDS")
    return st


def test_ma118_quickdraw_by_a_superior_grade():
    # MA118 (MBT 7.44): a Seasoned BMP-2 (First Player) announces fire at a Veteran M3A1 with an unrevealed Fire
    # command: the Bradley fires back at once with its 25mm at ROF N (no ATGM); both results apply after both
    st = _quickdraw({"sov": "seasoned", "us": "veteran"})
    assert st.cp == st.game.sides.index("us") and legal_texts(st) == {"fire Q at F main:APDS", "fire Q at F main:HEI", "fire Q at F mmg:GP",
                                              "hold Q"}
    act(st, "fire Q at F main:APDS")
    shots = [e for e in st.events if " fires " in e]
    assert shots[0].startswith("F fires") and shots[1].startswith("Q fires"), st.events


def _resolved_without_quickdraw(st) -> bool:
    """The First Player's shot resolved at once: the Second Player now announces its own fire (ATGMs too)."""
    return st.phase_id() == "direct-fire-second" and any(e.startswith("F fires") for e in st.events) and \
        "fire Q at F tow:ITOW" in legal_texts(st)


def test_quickdraw_needs_a_superior_grade_and_a_hidden_fire_command():
    assert _resolved_without_quickdraw(_quickdraw({"sov": "veteran", "us": "veteran"}))
    assert _resolved_without_quickdraw(_quickdraw({"sov": "seasoned", "us": "veteran"}, {"revealed": True}))
    assert not _resolved_without_quickdraw(_quickdraw({"sov": "seasoned", "us": "veteran"}))


def test_quickdraw_shots_are_simultaneous():
    # the Bradley knocked out by the BMP-2's shot still fires (both resolve, then both results apply)
    st = _quickdraw({"sov": "seasoned", "us": "veteran"}, dice=(1, 56, 56), facing=D)
    act(st, "fire Q at F main:APDS")  # the BMP-2's first hit (rear HR 9) knocks the Bradley out
    assert any(e.startswith("Q fires") for e in st.events), st.events
    assert st.st[idx_of(st, "Q")] == 3 and st.st[idx_of(st, "F")] == 3, st.events


# ---------------------------------------------------------------- 7.48
def _cis_state(rules=("commander-independent-sight",), **status):
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", **status),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER), unit("T2", "t-80bv", "sov", _hex_at(4), FACE_SHOOTER)],
                   rules, dice=[100, 1, 100])
    s = idx_of(st, "S")
    spec = st.game.units[s]
    rows = tuple(dataclasses.replace(r, cis=True) if r.weapon == "main" else r for r in spec.type.ap)
    st.game.units[s] = dataclasses.replace(spec, type=dataclasses.replace(spec.type, ap=rows))  # a game copy
    return st


def test_ma122_cis_second_target_on_a_1_or_2():
    # MA122 (MBT 7.48): a CIS vehicle with a Fire command declares CIS (ROF N); a third d10 of 1 or 2 lets it
    # fire at a spotted second target; neither target gets the NATO bonus next turn
    st = _cis_state()
    assert "fire S at T main:APFSDS+cis" in legal_texts(st)
    act(st, "fire S at T main:APFSDS+cis")
    assert legal_texts(st) >= {"fire S at T2 main:APFSDS", "hold S"} and "fire S at T main:APFSDS" not in legal_texts(st)
    act(st, "fire S at T2 main:APFSDS")
    assert sum(1 for e in st.events if e.startswith("S fires")) == 2
    assert st.turn == 2 and st.ofire.prev[idx_of(st, "S")] == -2  # the turn ended: no bonus this turn


def test_cis_lost_with_turret_damage():
    assert not any(t.endswith("+cis") for t in legal_texts(_cis_state(turret_damaged=True)))
    assert not any(t.endswith("+cis") for t in legal_texts(_cis_state(rules=("bu-modifier",))))


# ---------------------------------------------------------------- 7.50
NATO = ("nato-target-acquisition",)


def _nato(shooter="m1", ammo="main:APFSDS", command="FIRE", last="T", side=("us", "sov")):
    status = {"fired_at_last_turn": last} if last else {}
    st = opt_state([unit("S", shooter, side[0], A, D, command=command, **status),
                    unit("T", "t-80bv" if side[1] == "sov" else "m1", side[1], B, FACE_SHOOTER),
                    unit("X", "t-80bv" if side[1] == "sov" else "m1", side[1], _hex_at(4), FACE_SHOOTER)],
                   NATO, to_act=side[0], dice=[1, 100] if shooter == "t-80bv" else [100])  # T-80BV: A9 roll
    act(st, f"fire S at T {ammo}")
    e = next(e for e in st.events if e.startswith("S fires"))
    return (_gp_net(e) if ammo in ("main:HEAT-MP", "mmg:GP") else _net(e)), st


def test_ma123_nato_bonus_at_last_turns_target():
    # MA123 (MBT 7.50): a US vehicle, 25mm or more, Fire command both turns, the same target: +1 AP, +5 GP
    assert _nato()[0] - _nato(last=None)[0] == 1
    assert _nato(ammo="main:HEAT-MP")[0] - _nato(ammo="main:HEAT-MP", last=None)[0] == 5
    assert _nato(last="X")[0] == _nato(last=None)[0]           # another target
    assert _nato(ammo="mmg:GP")[0] == _nato(ammo="mmg:GP", last=None)[0]  # an MMG is not 25mm
    soviet = _nato("t-80bv", side=("sov", "us"))[0] - _nato("t-80bv", last=None, side=("sov", "us"))[0]
    assert soviet == 0


def test_nato_records_this_turns_fire_target():
    _, st = _nato(last=None)
    assert st.turn == 2 and st.ofire.prev[idx_of(st, "S")] == idx_of(st, "T")  # the turn ended


def test_cis_second_target_within_the_turret_turn_rate():
    # MBT 7.48: the second target must fall within the turret turn rate (TT 2 from the first target's direction)
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER),
                    unit("T2", "t-80bv", "sov", _hex_at(4), FACE_SHOOTER)], ("commander-independent-sight",))
    s = idx_of(st, "S")
    first, second = idx_of(st, "T"), idx_of(st, "T2")
    assert {t for t, _ in st.cis_targets(s, first)} == {second}
    st.ofire.d.cards["m1"].tt = 0  # this position's game copy: no turn at all, the same direction still counts
    assert {t for t, _ in st.cis_targets(s, first)} == {second}


def test_defensive_fire_minus_ten_on_gp():
    # MBT 7.15: -10 on Defensive GP fire (the N/C squad fires its rifles back at the M1 ... as overwatch would)
    def net(command, fire_back):
        st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"),
                        unit("T", "sov-mr-squad", "sov", _hex_at(4), FACE_SHOOTER, command=command)],
                       ("defensive-fire",), dice=[1, 50, 50])
        act(st, "fire S at T mmg:GP")  # roll 1: no effect on the squad
        act(st, fire_back)
        e = next(e for e in st.events if e.startswith("T fires"))
        return _gp_net(e)

    assert net("NC", "ow T at S rifles:GP") == net("OW", "ow T at S rifles:GP") - 10


def test_cis_declaration_fires_at_rof_n():
    # MBT 7.48: ROF N for the declared first shot (a game copy's CIS gun at ROF R: one hit on a roll of 1)
    st = _cis_state()
    s = idx_of(st, "S")
    spec = st.game.units[s]
    st.game.units[s] = dataclasses.replace(spec, type=dataclasses.replace(
        spec.type, ap=tuple(dataclasses.replace(r, rof="R") if r.weapon == "main" else r for r in spec.type.ap)))
    st.dice = type(st.dice)(0)
    st.dice.record = True
    st.dice.force(1, 11, 3)  # hit, TF (no penetration), CIS roll 3: no second target
    act(st, "fire S at T main:APFSDS+cis")
    assert any(e.startswith("S fires") and ": 1 hit(s)" in e for e in st.events), st.events


def test_fire_priority_ignores_fire_by_leg_units():
    # MBT 7.14: friendly leg units firing at the closest vehicle do not offset the requirement
    near = _hex_at(3)
    st = opt_state([unit("L", "us-mech-squad", "us", A, D, command="FIRE"), unit("S", "m1", "us", A, D, command="FIRE"),
                    unit("N", "t-80bv", "sov", near, FACE_SHOOTER), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   ("fire-priority",))
    leg_shot = next(t for t in legal_texts(st) if t.startswith("fire L at N "))
    act(st, leg_shot)
    texts = legal_texts(st)
    assert "fire S at N main:APFSDS" in texts and "fire S at T main:APFSDS" not in texts


def test_ma123_nato_bonus_from_25mm():
    # MBT 7.50: weapons of 25mm or more: the M2A1's 25mm M242 qualifies (the calibre from the weapon's name)
    def net(last):
        status = {"fired_at_last_turn": "T"} if last else {}
        st = opt_state([unit("S", "m2a1", "us", A, D, command="FIRE", **status), unit("T", "bmp-2", "sov", B, FACE_SHOOTER)],
                       NATO, dice=[100])
        act(st, "fire S at T main:APDS")
        return _net(next(e for e in st.events if e.startswith("S fires")))

    assert net(True) - net(False) == 1


def test_nato_overwatch_fire_is_no_acquisition():
    # MBT 7.50: only Direct Fire under a Fire command counts; an Overwatch shot leaves no target for next turn
    st = opt_state([unit("S", "m1", "us", A, D, command="OW"),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command="FIRE", revealed=True, fired=True)],
                   NATO, phase="overwatch", dice=[100])
    act(st, "ow S at T main:APFSDS")
    assert st.turn == 2 and st.ofire.prev[idx_of(st, "S")] == -1


def test_quickdraw_needs_the_fpu_in_the_current_turret_arc():
    # MBT 7.44 with Turrets: the Bradley's turret faces away from the BMP-2: no Quickdraw (no turret turn first)
    st = opt_state([unit("F", "bmp-2", "sov", A, D, command="FIRE"),
                    unit("Q", "m3", "us", B, FACE_SHOOTER, command="FIRE", turret=2)], ("quickdraw", "turrets"),
                   to_act="sov", grades={"sov": "seasoned", "us": "veteran"}, dice=[100, 100],
                   options={"turret-direct-fire": "turn-tt"})
    act(st, "fire F at Q main:APDS")
    assert st.phase_id() == "direct-fire-second" and any(e.startswith("F fires") for e in st.events)


def test_quickdraw_not_while_hesitating():
    # MBT 7.44: the Second Player's unit must not be hesitating (Optional Rule 7.1 Morale)
    st = opt_state([unit("F", "bmp-2", "sov", A, D, command="FIRE"),
                    unit("Q", "m3", "us", B, FACE_SHOOTER, command="FIRE", morale="hesitation-on")],
                   ("quickdraw", "morale"), to_act="sov", grades={"sov": "seasoned", "us": "veteran"}, dice=[100, 100])
    act(st, "fire F at Q main:APDS")
    assert _resolved_without_quickdraw(st)
