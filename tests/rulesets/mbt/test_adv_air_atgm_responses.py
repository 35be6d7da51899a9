"""ATGM Overwatch Response and Under Fire (MBT 5.1.3.3.5-5.1.3.3.6), through positions and the public API: the
BMP-1 (Spigot, CL 2) of the ATGM Dodge tests at 2A1 overwatching an M2A1 Bradley turning in 2A14, an M1 on
Overwatch at 2A11."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import act, idx_of, legal_texts, opt_state, unit  # noqa: E402

SPIGOT = "main:Spigot_(Fagot)"


def _overwatch(dice, m1_command="OW", answer="hold T"):
    """The Bradley turns in 2A14; the BMP-1 fires its Spigot on Overwatch; the Bradley does not dodge."""
    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="OW"),
                    unit("T", "m2a1", "us", "2A14", 0, command="MOVE"),
                    unit("M", "m1", "us", "2A11", 0, command=m1_command)], phase="move-second", to_act="us",
                   dice=dice)
    act(st, "move T")
    act(st, "turn T right")
    act(st, f"ow S at T {SPIGOT}")
    act(st, answer)
    return st


def test_overwatch_response_fires_before_the_atgm():
    # MBT 5.1.3.3.5: an unrevealed Overwatch unit that can fire at the ATGM unit with a non-ATGM weapon inside
    # its Overwatch arc fires first, whatever the player order; ATGM rows are not offered
    st = _overwatch([1] * 10)
    us = st.game.sides.index("us")
    got = legal_texts(st)
    assert st.cp == us and "pass" in got and "ow M at S main:HEAT-MP" in got
    assert not any("Spigot" in a or " at T " in a for a in got)
    assert any("may fire at it first" in e for e in st.events)


def test_no_response_without_an_overwatch_unit():
    # MBT 5.1.3.3.5: only units with an unrevealed Overwatch command respond: with the M1 on N/C the ATGM resolves
    st = _overwatch([1] * 10, m1_command="NC")
    assert any(e.startswith("S fires Spigot") for e in st.events), st.events


def test_no_response_from_a_revealed_or_unsighted_overwatch_unit():
    # MBT 5.1.3.3.5: the Overwatch command must be unrevealed, and the responder must spot the ATGM unit
    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="OW"),
                    unit("T", "m2a1", "us", "2A14", 0, command="MOVE"),
                    unit("M", "m1", "us", "2A11", 0, command="OW", revealed=True)], phase="move-second",
                   to_act="us", dice=[1] * 10)
    for a in ("move T", "turn T right", f"ow S at T {SPIGOT}", "hold T"):
        act(st, a)
    assert any(e.startswith("S fires Spigot") for e in st.events)
    from studio.hexgrid.coords import distance

    g = st.game
    far = next(g.label(h) for h in sorted(g.hexes) if distance(h, g.map.hex("2A1")) > 30)
    st2 = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="OW"),
                     unit("T", "m2a1", "us", "2A14", 0, command="MOVE"),
                     unit("M", "m1", "us", far, 0, command="OW")], phase="move-second", to_act="us", dice=[1] * 10)
    for a in ("move T", "turn T right", f"ow S at T {SPIGOT}", "hold T"):
        act(st2, a)
    assert st2.ow_resp is None and any(e.startswith("S fires Spigot") for e in st2.events)


def test_pass_lets_the_atgm_resolve():
    st = _overwatch([1] * 10)
    act(st, "pass")
    assert any(e.startswith("S fires Spigot") for e in st.events), st.events


def _gp_roll_for(st, effect: str, overwatch: bool = True) -> int:
    """A roll (100) of the M1's HEAT-MP at the BMP-1 giving ``effect`` (N or S) on the GP Combat Results Table."""
    from studio.hexgrid.coords import distance

    g = st.game
    m, s = idx_of(st, "M"), idx_of(st, "S")
    row = next(r for r in g.units[m].type.ap if r.key == "main:HEAT-MP")
    band, factor = st.gp_factor(row, distance(st.hex[m], st.hex[s]))
    net = st.gp_modifiers(m, s, row, band, overwatch)
    n_eff, s_eff = g.ag.gp_crt[(factor, g.units[s].type.ag.gp_value)]
    return (n_eff - net) if effect == "N" else (s_eff - net)


def _spigot_net(st) -> int:
    import re

    line = next(e for e in st.events if e.startswith("S fires Spigot"))
    return int(re.search(r"net ([-+]?\d+)", line).group(1))


def test_a_response_with_no_effect_puts_the_atgm_unit_under_fire():
    # MBT 5.1.3.3.5-6: the response's GP fire has no effect: the BMP-1 is Under Fire and its Spigot (CL 2) then
    # resolves at -2 (table atgm-under-fire); the counter goes with the ATGM shot
    probe = _overwatch([1] * 10)
    n_roll = _gp_roll_for(probe, "N")
    st = _overwatch([n_roll, 100, 100, 100])  # the M1's GP roll; the Spigot misses
    s = idx_of(st, "S")
    act(st, "ow M at S main:HEAT-MP")
    assert any("S is Under Fire" in e for e in st.events) and s not in st.under_fire
    plain = _overwatch([100, 100, 100])
    act(plain, "pass")
    assert _spigot_net(st) - _spigot_net(plain) == st.game.air.under_fire[2] == -2


def test_a_suppressed_atgm_unit_is_not_under_fire():
    # MBT 5.1.3.3.6: Suppressed by the fire: no Under Fire counter (it takes the Suppressed modifier instead)
    probe = _overwatch([1] * 10)
    s_roll = _gp_roll_for(probe, "S")
    st = _overwatch([s_roll, 100, 100, 100])
    s = idx_of(st, "S")
    act(st, "ow M at S main:HEAT-MP")
    assert st.sup[s] and not any("Under Fire" in e for e in st.events)


def test_under_fire_from_direct_fire_then_the_atgm_shot_clears_it():
    # MBT 5.1.3.3.6: First Player GP direct fire with no effect at a Second Player ATGM unit with a Fire command
    # marks it; its ATGM shot in its own Direct Fire step takes the modifier and the counter goes
    st = opt_state([unit("M", "m1", "us", "2A11", 0, command="FIRE"),
                    unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE"),
                    unit("T", "m2a1", "us", "2A14", 0, command="OW")], phase="direct-fire-first", to_act="us",
                   dice=[1] * 10)
    n_roll = _gp_roll_for(st, "N", overwatch=False)
    st = opt_state([unit("M", "m1", "us", "2A11", 0, command="FIRE"),
                    unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE"),
                    unit("T", "m2a1", "us", "2A14", 0, command="OW")], phase="direct-fire-first", to_act="us",
                   dice=[n_roll] + [100] * 10)
    act(st, "fire M at S main:HEAT-MP")
    s = idx_of(st, "S")
    assert s in st.under_fire
    act(st, f"fire S at M {SPIGOT}")
    if "reveal M" in legal_texts(st):
        act(st, "reveal M")
    assert s not in st.under_fire and any(e.startswith("S fires Spigot") for e in st.events)


def test_small_arms_that_cannot_suppress_mark_nothing():
    # MBT 5.1.3.3.6: a fire that cannot suppress the unit (small arms against a P-Type beyond Short range) marks
    # no Under Fire counter
    st = opt_state([unit("M", "m1", "us", "2A11", 0, command="FIRE"),
                    unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE")], phase="direct-fire-first", to_act="us",
                   dice=[1] * 10)
    hmg = next(a for a in legal_texts(st) if a.startswith("fire M at S ") and "hmg" in a)
    act(st, hmg)
    assert idx_of(st, "S") not in st.under_fire


# ------------------------------------------------------------------ helicopter ATGMs dodged (MBT 5.1.3.3.4)

def _cobra(phase="air-1", dice=(100,) * 6):
    """An AH-1S hovering at 2A1 and the T-80BV with a Move command at 2A14 (range 13 > TOW SP 10; the hex
    ahead of it, facing 1, is out of the helicopter's sight), as in the ATGM Dodge tests."""
    st = opt_state([unit("H", "ah-1s", "us", "2A1", 0), unit("T", "t-80bv", "sov", "2A14", 1, command="MOVE")],
                   phase=phase, to_act="us", dice=list(dice))
    act(st, "fly H 2A1")
    return st


def test_a_helicopter_atgm_in_the_first_air_phase_may_be_dodged():
    # MBT 5.1.3.3.4: dodge is possible against helicopter ATGM fire announced in the 1st Air Phase: an automatic
    # miss, the target committed to the dodge hex; the helicopter's combat goes on (its gun)
    st = _cobra()
    act(st, "fire H at T tow:TOW")
    assert st.cp == st.game.sides.index("sov") and legal_texts(st) == {"fwd T", "hold T"}
    act(st, "fwd T")
    t = idx_of(st, "T")
    assert st.dodge_c[t] == "fwd" and st.st[t] == 1 and any("dodges the TOW of helicopter H" in e for e in st.events)
    assert st.cp == st.game.sides.index("us") and "fire H at T cannon:HEI" in legal_texts(st)
    assert "fire H at T tow:TOW" not in legal_texts(st)  # the missile was its one other weapon


def test_no_dodge_the_helicopter_atgm_resolves():
    st = _cobra()
    act(st, "fire H at T tow:TOW")
    act(st, "hold T")
    assert any("helicopter H attacks T" in e for e in st.events) and any(e.startswith("H fires TOW") for e in st.events)


def test_no_dodge_in_the_second_air_phase_or_against_a_pop_up_attack():
    # MBT 5.1.3.3.4: not in the 2nd Air Phase; not against a pop-up attack (6.7.5.1.2)
    late = _cobra("air-2")
    act(late, "fire H at T tow:TOW")
    assert any(e.startswith("H fires TOW") for e in late.events)
    pop = _cobra()
    act(pop, "popup H")
    act(pop, "fire H at T tow:TOW")
    assert any(e.startswith("H fires TOW") for e in pop.events)


def test_the_heuristic_bot_dodges_a_helicopter_atgm():
    # the heuristic bot answers a dodge it may make with the dodge (an automatic miss)
    st = _cobra()
    act(st, "fire H at T tow:TOW")
    bot = st.game.make_bot("heuristic", st.game.sides.index("sov"), 1)
    assert str(bot.choose(st.observation(st.cp), st.legal_actions())) == "fwd T"


def test_indirect_gp_fire_with_no_effect_marks_under_fire_too():
    # MBT 5.1.3.3.6: GP Indirect Fire resulting in No Effect marks an ATGM unit with a Fire command Under Fire
    from mbt_arty_fixtures import FO, MORTAR, TARGET, arty_state

    def units():
        return [unit("M", "m106", "us", MORTAR, 2, command="FIRE"), unit("F", "m981", "us", FO, 2, command="OW"),
                unit("T", "bmp-1", "sov", TARGET, 5, command="FIRE")]

    need = arty_state(units()).game.ag.if_response[("fo", "unattached")]
    st = arty_state(units(), dice=[need] + [1] * 8)
    act(st, f"call m109-battery-1 by F at {TARGET}")
    assert idx_of(st, "T") in st.under_fire and any("T is Under Fire" in e for e in st.events)
    nc = [unit("M", "m106", "us", MORTAR, 2, command="FIRE"), unit("F", "m981", "us", FO, 2, command="OW"),
          unit("T", "bmp-1", "sov", TARGET, 5, command="NC")]
    st = arty_state(nc, dice=[need] + [1] * 8)
    act(st, f"call m109-battery-1 by F at {TARGET}")
    assert not st.under_fire  # no ATGM fire left to disturb
