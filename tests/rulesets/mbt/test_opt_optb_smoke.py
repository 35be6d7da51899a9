"""MBT optional rule 7.22 Infantry Smoke, the parts added by OPTB: no smoke from a Hesitating or Broken squad (with
7.1 Morale on), and the attached weapons that may still fire after the squad's smoke (7.22.1)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import FO, TARGET, act, arty_state, calls, unit  # noqa: E402

INF = ("infantry-smoke",)


def _squad(optional=INF, dice=(5,), card="us-mech-squad", **status):
    units = [unit("S", card, "us", FO, 2, command="FIRE", **status), unit("T", "t-80bv", "sov", TARGET, 5)]
    return arty_state(units, phase="direct-fire-first", dice=list(dice), optional=optional)


def _attached(state) -> set:
    return {r.key for r in state.game.units[state.game.uindex["S"]].type.ap if r.half is None}


def test_hesitating_or_broken_squads_make_no_smoke():
    # MBT 7.22: only non-hesitating, non-broken units create smoke (7.1 states)
    both = INF + ("morale",)
    assert "smoke S" in calls(_squad(both))
    for state in ("hesitation-on", "hesitation-off", "break-on", "break-off"):
        assert "smoke S" not in calls(_squad(both, morale=state)), state


def test_attached_weapons_may_fire_after_the_squads_smoke():
    # MBT 7.22.1: "the unit may still utilize any attached weapons": after its smoke the squad (Dragon and LAW
    # attached) is offered only its attached weapons' shots, or hold; then it is done
    st = _squad()
    before = [a for a in calls(st) if a.startswith("fire S ")]
    assert any(a.split()[-1] not in _attached(st) for a in before)  # its small arms, before the smoke
    act(st, "smoke S")
    after = [a for a in calls(st) if a.startswith("fire S ")]
    assert after and all(a.split()[-1] in _attached(st) for a in after), after
    assert "smoke S" not in calls(st)
    act(st, after[0])
    assert not any(a.startswith(("fire S ", "smoke S", "hold S")) for a in calls(st))


def test_a_squad_without_attached_weapons_is_done_after_its_smoke():
    st = _squad(card="us-mech-half-squad")
    assert not _attached(st)
    act(st, "smoke S")
    assert not any(a.startswith(("fire S ", "smoke S", "hold S")) for a in calls(st))


def test_smoke_marks_the_squad_small_arms_fire_and_a_failed_ammo_roll_places_nothing():
    # MBT 7.22: smoke is placed as Small Arms Fire (Spot/Fire small arms marker, the squad revealed); an S5 ammo
    # roll of 6 places nothing (5.16.2.2), and the squad's small arms are spent all the same
    from studio.rulesets.mbt.engine.codes import MFIRE_SA

    st = _squad()
    act(st, "smoke S")
    s = st.game.uindex["S"]
    assert st.rev[s] and st.mk[s] == MFIRE_SA and st.arty.clouds
    failed = _squad(dice=(6,))
    act(failed, "smoke S")
    assert not failed.arty.clouds and any("nothing placed" in e for e in failed.events)
    assert all(a.split()[-1] in _attached(failed) for a in calls(failed) if a.startswith("fire S "))


def test_no_infantry_smoke_in_a_hex_with_a_towed_unit():
    # MBT 7.22: "if it does not contain any other dismounted leg or towed units": a Soviet squad with an SPG-9
    def offered(extra):
        units = [unit("S", "sov-mr-squad", "sov", FO, 2, command="FIRE"), unit("T", "m1", "us", TARGET, 5)] + extra
        st = arty_state(units, phase="direct-fire-first", to_act="sov", dice=[5], optional=INF)
        return "smoke S" in calls(st)

    assert offered([])
    assert not offered([unit("G", "spg-9", "sov", FO, 2)])
