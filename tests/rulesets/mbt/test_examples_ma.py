"""The MA* worked examples of the MBT Advanced Game and Optional Rules (MBT 6.5.4.4 - 7.24) that no other test
names, played through positions, forced dice, legal actions and the narration. Each test's docstring names its
example and rule; the expected values come from the rulebook text (or, for a placeholder table cell, only the
relation the text pins down). Test-only cards (an S-Type and an unarmed vehicle, built from the M113) cover the
vehicle classes no sample card has."""
from __future__ import annotations

import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401  (autouse: every roll on its rule's die)
from mbt_adv_fixtures import DATA, SCENARIO, act, adv_state, clear_pair, unit  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.model.project import load_document, load_project  # noqa: E402
from studio.rules.position import position_state  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402
from studio.rulesets.mbt.engine.codes import CARRIED, DEAD, ON  # noqa: E402


# ---------------------------------------------------------------- helpers
def _ids(st, *names):
    return [st.game.uindex[n] for n in names]


def gp_shot(st, shooter: str, target: str, key: str, x: int, extra=()) -> str:
    """``shooter`` fires row ``key`` at ``target`` with the GP roll (100) forced so that the modified result is
    ``x`` (MBT 6.5.4.4), then the ``extra`` rolls; returns the shot's narration line."""
    s, t = _ids(st, shooter, target)
    row = next(r for r in st.game.units[s].type.ap if r.key == key)
    band, _ = st.gp_factor(row, distance(st.hex[s], st.hex[t]))
    net = st.gp_modifiers(s, t, row, band, False)
    ammo = (1,) if st.ammo_limit(s, row) is not None else ()   # the Ammo Limit roll (10), within it (5.16.2)
    st.dice.force(*ammo, x - net, *extra)
    act(st, f"fire {shooter} at {target} {key}")
    line = next(e for e in st.events if f" at {target} " in e and " vs N " in e)
    assert f"= {x} vs N" in line, line
    return line


def rolls(st, label: str) -> list:
    """The values of the rolls whose label starts with ``label``."""
    return [v for lab, v in st.dice.history if lab.startswith(label)]


def _card(src: str, new_id: str, edit) -> dict:
    doc = yaml.load((DATA / "units" / "mbt" / f"{src}.yaml").read_text(), Loader=yaml.CSafeLoader)
    doc["id"] = new_id
    doc["name"] = new_id
    edit(doc["body"])
    return doc


def _thermal(body: dict) -> None:
    body["spotting_aids"] = ["T"]                                          # a Thermal Imager (MBT 7.36.4)


def _soft(body: dict) -> None:
    body["defensive"]["gp_defense"] = {"value": 1, "target_type": "S"}   # an S-Type (soft) vehicle, GPD 1S


def _msa(cc: int):
    def edit(body: dict) -> None:
        body["general"]["movement"].update(cross_country=cc, path=cc, road=cc)
    return edit


def _under_cover(body: dict) -> None:
    body["general"]["transport"] = {"towed": 0, "leg": 2}
    body["general"]["transport_protection"] = "under_cover"


def _noncombat(body: dict) -> None:
    body["is_combat_unit"] = False                                         # armed, but not a combat unit


def _carrier2(body: dict) -> None:
    body["general"]["transport"] = {"towed": 0, "leg": 2}                 # room for two half-squads


def _unarmed(body: dict) -> None:
    body["unarmed"] = True
    body["is_combat_unit"] = False
    body["weapons"] = []


@lru_cache(maxsize=1)
def _index():
    """The sample project plus the test-only cards ``test-soft`` (the M113 as an S-Type, GPD 1S),
    ``test-unarmed`` (the M113 without weapons), ``test-msa5`` / ``test-msa3`` (the M113 with allowances 5 / 3) and
    ``test-thermal`` (the M1 with a Thermal Imager), ``test-carrier2`` (the M113 with leg capacity 2),
    ``test-noncombat`` (the M113, armed, as a non-combat unit) and ``test-uc`` (``test-carrier2`` Under Cover)."""
    idx = load_project(DATA)
    tmp = Path(tempfile.mkdtemp(prefix="ma-cards-"))
    for doc in (_card("m113", "test-soft", _soft), _card("m113", "test-unarmed", _unarmed),
                _card("m113", "test-msa5", _msa(5)), _card("m113", "test-msa3", _msa(3)),
                _card("m1", "test-thermal", _thermal), _card("m113", "test-carrier2", _carrier2),
                _card("m113", "test-noncombat", _noncombat), _card("m113", "test-uc", _under_cover)):
        path = tmp / f"{doc['id']}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        loaded = load_document(path)
        assert loaded.model is not None, [d.format_text() for d in loaded.diagnostics]
        idx.add(loaded)
    return idx


@lru_cache(maxsize=8)
def _game(grades: tuple = (), rules: tuple = ()):
    idx = _index()
    sc = idx.model("scenario", SCENARIO)
    if grades:
        sc = sc.model_copy(update={"extension": sc.extension.model_copy(update={"force_grades": dict(grades)})})
    if rules:
        sc = sc.model_copy(update={"optional_rules": list(rules)})
    return G.create_game(sc, idx, None)


def card_state(units: list, to_act: str, grades: dict | None = None, phase: str = "direct-fire-first", rules=(),
               **extension):
    """A position with the test-only cards available, optional ``rules`` on and the position ``extension``
    (narration on)."""
    pos = {"scenario": SCENARIO, "phase": phase, "units": units, "to_act": to_act}
    if rules:
        pos["optional_rules"] = list(rules)
    if extension:
        pos["extension"] = extension
    st = position_state(_game(tuple(sorted((grades or {}).items())), tuple(rules)), pos)
    st.dice.record = True
    return st


# ---------------------------------------------------------------- MBT 6.5.4.4 GP Fire Determination
def test_ma1_gp_5_against_gpd_3_reads_43_and_72():
    """MA1 (MBT 6.5.4.4): GP Factor 5 against GP Defense 3 gives N-Effect 43 and S-Effect 72, in a shot: the
    T-62MV's HE at range 13 (range factor L, GP 5) at an M2 (GPD 3A)."""
    a, b, d = clear_pair(13)
    st = adv_state([unit("S", "t-62mv", "sov", a, d, command="FIRE"), unit("T", "m2", "us", b, (d + 3) % 6)],
                   to_act="sov")
    line = gp_shot(st, "S", "T", "main:HE", 43)
    assert "(GP 5, L)" in line and "(GPD 3A)" in line and "vs N 43 / S 72" in line
    assert "N-Effect -> NE" in line and st.sup[1] == 0


def test_ma2_ma3_crt_cells_the_examples_pin():
    """MA2, MA3 (MBT 6.5.4.4): the text gives no cells for GP 7 / GPD 5 and GP 2 / GPD 9, only outcomes: a
    modified 60 at 7/5 Suppresses (N < 60 <= S), 109 at 2/9 is Effective (S < 109); and -1 at 15/2 has No
    Effect (-1 <= N). The table (placeholder cells) must honour them."""
    st = adv_state([unit("T", "m2", "us", "2A1")], phase="command")
    crt = st.game.ag.gp_crt
    n, s = crt[(7, 5)]
    assert n < 60 <= s
    assert crt[(2, 9)][1] < 109
    assert -1 <= crt[(15, 2)][0]


def test_ma2_gp_7_gpd_5_modified_60_is_suppressed():
    """MA2 (MBT 6.5.4.4): GP 7 against GP Defense 5 with a modified result of 60 Suppresses: a Motor Rifle
    squad's rifles at range 1 (P, GP 7) at a US half-squad in Woods (Medium Cover: GPD 5)."""
    a, b, d = clear_pair(1, "C", "W")
    st = adv_state([unit("S", "sov-mr-squad", "sov", a, d, command="FIRE"),
                    unit("T", "us-mech-half-squad", "us", b, (d + 3) % 6)], to_act="sov")
    line = gp_shot(st, "S", "T", "rifles:GP", 60)
    assert "(GP 7, P)" in line and "(GPD 5S)" in line
    assert "S-Effect -> Suppressed" in line and st.sup[1] != 0 and st.st[1] == ON


def test_ma3_gp_2_gpd_9_modified_109_is_effective():
    """MA3 (MBT 6.5.4.4): a modified result above 100 is legal; GP 2 against GP Defense 9 with 109 is
    Effective: an Elite FO section's rifles at range 1 (P, GP 2, Elite +10) at a US half-squad in Full Cover in
    the Heavy Cover of an Improved Position (7 + 2 = GPD 9; a building is Medium for GP Defense, MBT 6.5.4.2.2)
    is eliminated."""
    from mbt_move_fixtures import opt_game, opt_state

    a, b, d = clear_pair(1)
    st = opt_state(opt_game(improved_positions=[b], grades={"sov": "elite", "us": "seasoned"}),
                   [unit("S", "sov-fo-section", "sov", a, d, command="FIRE"),
                    unit("T", "us-mech-half-squad", "us", b, (d + 3) % 6, full_cover=True)], phase="direct-fire-first",
                   to_act="sov")
    line = gp_shot(st, "S", "T", "rifles:GP", 109)
    assert "(GP 2, P)" in line and "(GPD 9S)" in line
    assert "E-Effect -> eliminated" in line and st.st[1] == DEAD


# a T-80BV (Elite: +15 at L, so results up to 105 are reachable) at an M2 (GPD 3A) at range 13: GP 6 vs 3, 39/69
def _elite_he(x: int, extra=(), **status):
    a, b, d = clear_pair(13)
    st = adv_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"),
                    unit("T", "m2", "us", b, (d + 3) % 6, **status)],
                   to_act="sov", grades={"sov": "elite", "us": "seasoned"})
    return st, gp_shot(st, "S", "T", "main:HE", x, extra)


@pytest.mark.parametrize("x, effect", [(39, "N"), (40, "S"), (69, "S"), (70, "E")])
def test_ma5_outcome_bands_at_the_boundaries(x, effect):
    """MA5 (MBT 6.5.4.4): at or under N No Effect, above N up to S Suppressed, above S Effective: with N 39 and
    S 69 (GP 6 vs GPD 3, a published cell), 39 NE, 40 and 69 Suppressed, 70 Effective (a Track hit: ends in
    10; the crew's Bail Out roll 99 stays)."""
    st, line = _elite_he(x, extra=(99,) if effect == "E" else ())
    assert "vs N 39 / S 69" in line and f"{effect}-Effect" in line
    assert (st.sup[1] != 0) == (effect == "S")
    assert st.track[1] == (effect == "E")


@pytest.mark.parametrize("x, result", [(75, "DAMAGE"), (95, "DAMAGE"), (100, "TRACK"), (71, "KILL"), (76, "KILL"),
                                       (65, "SUP"), (40, "SUP")])
def test_ma6_rule_of_5s_and_10s(x, result):
    """MA6 (MBT 6.5.4.4.2): only an Effective result ending in 5 (75, 95) Damages and one ending in 10 (100)
    is a Track hit; any other Effective result is a KO or Brew Up; Suppressed results ending in 5 or 10 (65, 40)
    only Suppress (S-Effect 69)."""
    extra = {"DAMAGE": (5, 99), "TRACK": (99,), "KILL": (6,), "SUP": ()}[result]
    st, line = _elite_he(x, extra)
    assert line.endswith(f"-> {result}"), line
    assert st.track[1] == (result == "TRACK")
    assert bool(st.dmg[1] or st.tdmg[1]) == (result == "DAMAGE")
    assert (st.st[1] == DEAD) == (result == "KILL")


@pytest.mark.parametrize("die, turret", [(4, True), (5, False)])
def test_ma7_damage_location_roll_4_turret_5_hull(die, turret):
    """MA7 (MBT 6.5.4.4.2): an Effective result ending in 5 Damages: the shooter's roll (10) of 4 or less is
    Turret Dmgd, otherwise Hull Dmgd; the crew checks Bail Out (DM row)."""
    st, line = _elite_he(75, extra=(die, 99))
    assert st.tdmg[1] == turret and st.dmg[1] == (not turret)
    assert rolls(st, "GP damage") == [die] and rolls(st, "Bail Out") == [99]
    assert any("crew Bail Out check (DM)" in e and "stays" in e for e in st.events), st.events


def test_ma7_damaged_crew_may_bail_out():
    """MA7 (MBT 6.5.4.4.2, 6.5.2.7.1): the Damaged vehicle's crew bails out on a roll at or under the DM value."""
    st, _ = _elite_he(75, extra=(4, 1))
    assert st.bail[1] and st.st[1] == DEAD


def test_ma7_unarmed_vehicle_is_always_hull_damaged():
    """MA7 (MBT 6.5.4.4.2): an unarmed vehicle that is Damaged suffers Hull Damage whatever the roll (10): the
    test-only unarmed M113 (GPD 3A) with a roll of 1."""
    a, b, d = clear_pair(13)
    st = card_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", "test-unarmed", "us", b, 0)],
                    "sov", grades={"sov": "elite", "us": "seasoned"})
    gp_shot(st, "S", "T", "main:HE", 75, extra=(1, 99))
    assert st.dmg[1] and not st.tdmg[1]


def test_ma7_an_armed_non_combat_vehicle_may_take_turret_damage():
    """MA7 (MBT 6.5.4.4.2): only an unarmed vehicle is always Hull Damaged: an armed vehicle that is not a combat
    unit (the test-only M113 with is_combat_unit false) takes Turret damage on a roll of 1."""
    a, b, d = clear_pair(13)
    st = card_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", "test-noncombat", "us", b, 0)],
                    "sov", grades={"sov": "elite", "us": "seasoned"})
    gp_shot(st, "S", "T", "main:HE", 75, extra=(1, 99))
    assert st.tdmg[1] and not st.dmg[1]


@pytest.mark.parametrize("card, turret", [("test-unarmed", False), ("test-noncombat", True)])
def test_ma7_close_assault_damage_location_of_an_unarmed_vehicle(card, turret):
    """MA7 with MBT 6.6.1.1.3: a Close Assault's Damaged result uses the same location roll: 1 is the turret,
    except on an unarmed vehicle (hull). Roll 85 against CRT(8,3) (a Seasoned squad, GPD 3A) ends in 5."""
    st = card_state([unit("I", "us-mech-squad", "us", CA_A, CA_D, command="MOVE"), unit("T", card, "sov", CA_B, 0)],
                    "us", grades=SEASONED, phase="close-combat")
    st.dice.force(85, 1, 99)
    act(st, "assault I T")
    assert any("close assaults" in e and e.endswith("DAMAGE") for e in st.events), st.events
    assert st.tdmg[1] == turret and st.dmg[1] == (not turret)


@pytest.mark.parametrize("die, wreck", [(5, 2), (6, 1)])
def test_ma9_ko_or_brew_up_by_the_max_gp_effectiveness(die, wreck):
    """MA9 (MBT 6.5.4.4.2): an Effective result not ending in 5 or 10 by non-small arms: the shooter's roll (10)
    at or under its max GP Effectiveness (the T-80BV's 125mm: 5) Brews Up, else Knocks Out."""
    st, line = _elite_he(71, extra=(die,))
    assert line.endswith("-> KILL") and rolls(st, "GP KO/BU") == [die]
    assert st.wreck.get(st.hex[1]) == wreck


@pytest.mark.parametrize("die, survives", [(99, True), (1, False)])
def test_ma9_passengers_check_bail_out_after_a_gp_knock_out(die, survives):
    """MA9 (MBT 6.5.4.4.2, 6.5.2.7.2, 5.15): the passengers of a vehicle Knocked Out by GP fire use the Knock
    Out row: at or above the value they bail out (Suppressed), else they are eliminated; the GP fire makes no
    separate attack on them."""
    a, b, d = clear_pair(13)
    st = adv_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", "m113", "us", b, (d + 3) % 6),
                    unit("P", "us-mech-squad", "us", b, 0, carried_by="T")], to_act="sov",
                   grades={"sov": "elite", "us": "seasoned"})
    gp_shot(st, "S", "T", "main:HE", 71, extra=(6, die))
    assert st.wreck.get(st.hex[1]) == 1
    assert rolls(st, "Bail Out P") == [die] and not rolls(st, "GP S>P")
    if survives:
        assert st.st[2] == ON and st.sup[2] != 0
    else:
        assert st.st[2] == DEAD


def test_ma9_a_mortar_is_small_arms_only_for_spotting():
    """MA9 with MBT 5.1.3.1, 5.7: mortars count as Small Arms for spotting purposes only: an Elite M106's 107mm
    direct fire (GP 9 at P, max GP Effectiveness 2) Effective at a BMP-2 (GPD 1A) not ending in 5 or 10 is a KO or
    Brew Up by the GP Effectiveness (roll 2: Brew Up), not the Small Arms limit (which would only Suppress an
    A-Type); the mortar is then marked Spot/Fire as Small Arms."""
    from studio.rulesets.mbt.engine.codes import MFIRE_SA

    a, b, d = clear_pair(6)
    st = adv_state([unit("S", "m106", "us", a, d, command="FIRE"), unit("T", "bmp-2", "sov", b, (d + 3) % 6)],
                   to_act="us", grades={"us": "elite", "sov": "seasoned"})
    line = gp_shot(st, "S", "T", "mortar:HE", 71, extra=(2,))
    assert "(GP 9, P)" in line and line.endswith("-> KILL"), line
    assert st.wreck.get(st.hex[1]) == 2 and st.mk[0] == MFIRE_SA


@pytest.mark.parametrize("shooter, key, rng, gp, die, wreck", [
    ("sov-heavy-mr-squad", "rifles:GP", 3, 8, 4, 2), ("sov-heavy-mr-squad", "rifles:GP", 3, 8, 5, 1),
    ("us-mech-squad", "rifles:GP", 4, 3, 1, 2), ("us-mech-squad", "rifles:GP", 4, 3, 2, 1),
    ("t-80bv", "mmg:GP", 4, 1, 1, 2), ("t-80bv", "mmg:GP", 4, 1, 2, 1)])
def test_ma10_small_arms_against_an_s_type_brew_up_at_half_the_gp(shooter, key, rng, gp, die, wreck):
    """MA10 (MBT 6.5.4.4.2): small arms Effective against an S-Type, not ending in 5 or 10: the roll (10) at or
    under half the firing GP Factor (round down, at least 1: [P1] 5.12) Brews Up, else Knocks Out: GP 8 -> 4,
    GP 3 -> 1, GP 1 -> 1 (the test-only S-Type M113, GPD 1S)."""
    a, b, d = clear_pair(rng)
    sides = ("sov", "us") if shooter.startswith(("sov", "t-")) else ("us", "sov")
    st = card_state([unit("S", shooter, sides[0], a, d, command="FIRE"), unit("T", "test-soft", sides[1], b, 0)],
                    sides[0])
    n, s = st.game.ag.gp_crt[(gp, 1)]
    x = next(v for v in range(s + 1, s + 12) if v % 5)
    line = gp_shot(st, "S", "T", key, x, extra=(die,))
    assert f"(GP {gp}," in line and line.endswith("-> KILL")
    assert any(f"KO/BU roll {die} vs {max(1, gp // 2)}" in e for e in st.events), st.events
    assert st.wreck.get(st.hex[1]) == wreck


@pytest.mark.parametrize("hull_down, result", [("hd", "NE"), ("phd", "NE"), ("none", "TRACK")])
def test_ma11_gp_direct_fire_track_hit_on_a_hull_down_vehicle_has_no_effect(hull_down, result):
    """MA11 (MBT 6.5.4.4.2): an Effective non-small-arms result ending in 10 (here 100) by GP Direct Fire at a
    vehicle in Hull Down or Partial Hull Down (facing the shooter) is No Effect: no Track hit, no Bail Out."""
    st, line = _elite_he(100, extra=(99,), hull_down=hull_down)
    assert "E-Effect" in line and line.endswith(f"-> {result}"), line
    assert st.track[1] == (result == "TRACK")
    assert len(rolls(st, "Bail Out")) == (result == "TRACK")


def test_ma11_indirect_fire_track_hit_on_a_hull_down_vehicle_stands():
    """MA11 (MBT 6.5.4.4.2): the Hull Down exception is for GP Direct Fire only: an indirect GP Effective result
    ending in 10 on a Hull Down vehicle is a Track hit (the test-only S-Type M113: the battery's card gives no GP
    Effectiveness, so only an S-Type takes Effective results from it; the crew's Bail Out roll 99 stays)."""
    units = [unit("F", "m981", "us", "4B1", 2, command="OW"), unit("T", "test-soft", "sov", "4E1", 5, hull_down="hd")]
    probe = card_state(units, "us", phase="indirect-fire")
    probe.dice.force(6, 50)   # the battery's response roll (10), then the attack
    act(probe, "call m109-battery-1 by F at 4E1")
    line = next(e for e in probe.events if e.startswith("IF at T"))
    net = int(line.split("roll 50")[1].split(" = ")[0])
    s_eff = int(line.split(" / S ")[1].split(":")[0])
    x = next(v for v in range(s_eff + 1, s_eff + 11) if v % 10 == 0)
    st = card_state(units, "us", phase="indirect-fire")
    st.dice.force(6, x - net, 99)
    act(st, "call m109-battery-1 by F at 4E1")
    assert st.hd[1] and st.track[1]
    assert any(e.startswith("IF at T") and e.endswith("-> TRACK") for e in st.events), st.events


def test_ma13_brew_up_suppresses_the_hex_but_not_passengers_under_armor():
    """MA13 (MBT 6.5.4.4.2, 6.5.2.6): a vehicle Brewed Up by GP fire Suppresses every friendly ground unit in its
    hex: a dismounted squad, another vehicle and the passengers of an unprotected carrier (M113), but not the
    passengers Under Armor (an M2A1's)."""
    a, b, d = clear_pair(13)
    units = [unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", "m113", "us", b, (d + 3) % 6),
             unit("L", "us-mech-squad", "us", b, 0), unit("V", "m2a1", "us", b, 0),
             unit("P", "us-mech-squad", "us", b, 0, carried_by="V"), unit("U", "m113", "us", b, 0),
             unit("Q", "us-mech-half-squad", "us", b, 0, carried_by="U")]
    st = adv_state(units, to_act="sov", grades={"sov": "elite", "us": "seasoned"})
    gp_shot(st, "S", "T", "main:HE", 71, extra=(5,))
    t, leg, v, p, u, q = _ids(st, "T", "L", "V", "P", "U", "Q")
    assert st.wreck.get(st.hex[t]) == 2
    assert st.sup[leg] and st.sup[v] and st.sup[u] and st.sup[q]
    assert st.sup[p] == 0 and st.st[p] == CARRIED and st.st[q] == CARRIED


# ---------------------------------------------------------------- MBT 6.6.1 Close Assault and Hand-to-Hand
CA_A, CA_B, CA_D = clear_pair(1)


def _ca_net(target_card: str, *, attackers=(("I", "us-mech-squad"),), combined=False, grades=None, state=None,
            **target_status) -> int:
    """The net Close Assault modifier of ``attackers`` (the first is primary; all in one hex) against a
    ``target_card`` vehicle next to them, read from the narration (roll 50)."""
    st = state or card_state([unit(n, c, "us", CA_A, CA_D, command="MOVE") for n, c in attackers] +
                             [unit("T", target_card, "sov", CA_B, 0, **target_status)], "us", grades=grades,
                             phase="close-combat")
    st.dice.force(50, 99, 99, 99)
    act(st, f"assault {attackers[0][0]} T{' all' if combined else ''}")
    line = next(e for e in st.events if "close assaults" in e)
    return int(line.split("roll 50")[1].split(" = ")[0])


SEASONED = {"us": "seasoned", "sov": "seasoned"}


@pytest.mark.parametrize("target, status, mod", [
    ("t-80bv", {"command": "MOVE", "revealed": True}, -10),    # vs moving vehicle
    ("t-80bv", {"suppression": "on"}, 20),                      # vs Suppressed vehicle
    ("m981", {}, 20),                                           # C indicator (M981 FISTV)
    ("m106", {}, 20),                                           # P-Type
    ("test-soft", {}, 30)])                                     # S-Type
def test_ma22_close_assault_vehicle_modifiers(target, status, mod):
    """MA22 (MBT 6.6.1.1.2): against a moving vehicle -10, a Suppressed one +20, one with the C indicator
    (M981 FISTV) +20, a P-Type +20, an S-Type +30; a Seasoned squad against a plain A-Type (T-80BV) is 0. The
    M981 and M106 are A-/P-Types too: the M981 is an A-Type (its +20 is the C indicator alone)."""
    base = _ca_net("t-80bv", grades=SEASONED)
    assert base == 0
    assert _ca_net(target, grades=SEASONED, **status) - base == mod


@pytest.mark.parametrize("extra, mod", [
    ((("J", "us-fo-section"),), 5), ((("J", "us-mech-half-squad"),), 10), ((("J", "us-mech-squad"),), 20),
    ((("J", "us-mech-squad"), ("K", "us-fo-section"), ("L", "us-fo-section")), 30)])
def test_ma22_close_assault_additional_attackers(extra, mod):
    """MA22 (MBT 6.6.1.1.2): each additional attacker adds +5 (section), +10 (half-squad), +20 (squad); a squad
    with one more squad and two sections is +20 +5 +5 = +30."""
    base = _ca_net("t-80bv", grades=SEASONED)
    assert _ca_net("t-80bv", attackers=(("I", "us-mech-squad"),) + extra, combined=True, grades=SEASONED) - base == mod


@pytest.mark.parametrize("grade, mod", [("elite", 20), ("veteran", 10), ("regulars", -10)])
def test_ma22_only_the_primary_attackers_grade_counts(grade, mod):
    """MA22 (MBT 6.6.1.1.2, HTH CA column): the primary attacker's grade only (Veteran +10, Regulars -10; the
    table's Elite +20): the same additional half-squad adds +10 whatever its force's grade."""
    alone = _ca_net("t-80bv", grades={"us": grade, "sov": "seasoned"})
    both = _ca_net("t-80bv", attackers=(("I", "us-mech-squad"), ("J", "us-mech-half-squad")), combined=True,
                   grades={"us": grade, "sov": "seasoned"})
    assert both - alone == 10
    if grade != "elite":
        assert alone == mod


@pytest.mark.parametrize("morale, mod", [("hesitation-on", 10), ("hesitation-off", 10), ("break-on", 20),
                                         ("break-off", 20)])
def test_ma22_close_assault_at_a_hesitating_or_broken_vehicle(morale, mod):
    """MA22 (MBT 6.6.1.1.2 with Optional Rule 7.1): a Close Assault at a Hesitating vehicle +10, at a Broken one
    +20."""
    def net(**status):
        st = card_state([unit("I", "us-mech-squad", "us", CA_A, CA_D, command="MOVE"),
                         unit("T", "t-80bv", "sov", CA_B, 0, **status)], "us", grades=SEASONED, phase="close-combat",
                        rules=("morale",))
        return _ca_net("t-80bv", state=st)

    assert net(morale=morale) - net() == mod


def _uphill_pair():
    """Two neighbouring Clear hexes, the second one Height above the first, in line of sight."""
    from studio.hexgrid.coords import neighbour

    g = _game()
    for h in sorted(g.map.label_of):
        for f in range(6):
            b = neighbour(h, f)
            if b in g.map.label_of and g.map.terrain.get(h) == g.map.terrain.get(b) == "C" and \
                    g.elev.get(b, 0) == g.elev.get(h, 0) + 1 and g.los.clear(h, b):
                return g.label(h), g.label(b), f
    raise LookupError("no uphill pair")


def test_ma22_uphill_close_assault_minus_10():
    """MA22 (MBT 6.6.1.1.2): a target 1 Height above the attacker: -10."""
    low, high, f = _uphill_pair()
    st = card_state([unit("I", "us-mech-squad", "us", low, f, command="MOVE"), unit("T", "t-80bv", "sov", high, 0)],
                    "us", grades=SEASONED, phase="close-combat")
    assert _ca_net("t-80bv", state=st) == -10


def _hth(att, dfn, dice, grades=None, **dstatus):
    """A Hand-to-Hand combat of the ``att`` (name, card) list (first primary, combined) against ``dfn`` (card)."""
    st = card_state([unit(n, c, "us", CA_A, CA_D, command="MOVE") for n, c in att] +
                    [unit("T", dfn, "sov", CA_B, 0, **dstatus)], "us", grades=grades or SEASONED,
                    phase="close-combat")
    st.dice.force(*dice)
    act(st, f"assault {att[0][0]} T{' all' if len(att) > 1 else ''}")
    return st, [e for e in st.events if "hand-to-hand" in e]


@pytest.mark.parametrize("att, dfn, status, us, sov", [
    ((("I", "us-mech-squad"),), "sov-mr-squad", {}, 0, 0),
    ((("I", "us-mech-half-squad"),), "sov-mr-half-squad", {}, -25, -25),
    ((("I", "us-fo-section"),), "sov-fo-section", {}, -30, -30),
    ((("I", "us-mech-squad"),), "spg-9", {}, 0, -40),                      # a towed defender
    ((("I", "us-mech-squad"),), "sov-mr-squad", {"suppression": "on"}, 0, -20),
    ((("I", "us-mech-squad"), ("J", "us-fo-section")), "sov-mr-squad", {}, 5, 0),
    ((("I", "us-mech-squad"), ("J", "us-mech-half-squad")), "sov-mr-squad", {}, 10, 0),
    ((("I", "us-mech-squad"), ("J", "us-mech-squad")), "sov-mr-squad", {}, 20, 0)])
def test_ma26_hand_to_hand_modifiers(att, dfn, status, us, sov):
    """MA26 (MBT 6.6.1.2): each side's primary squad / half-squad / section 0 / -25 / -30; a towed defender -40;
    a Suppressed defender -20; additional attackers +5 / +10 / +20 (Seasoned: no grade modifier). Rolls 60 and
    40 (no tie), the first round read."""
    _, lines = _hth(att, dfn, (60, 40) + (99, 1) * 4, **status)
    assert f": 60 -> {60 + us} vs 40 -> {40 + sov}:" in lines[0], lines


@pytest.mark.parametrize("grade, mod", [("veteran", 10), ("regulars", -10)])
def test_ma26_hand_to_hand_grade_each_side(grade, mod):
    """MA26 (MBT 6.6.1.2, HTH CA column): Veteran +10, Regulars -10, for each side's primary unit."""
    _, lines = _hth((("I", "us-mech-squad"),), "sov-mr-squad", (60, 40) + (99, 1) * 4,
                    grades={"us": grade, "sov": grade})
    assert f": 60 -> {60 + mod} vs 40 -> {40 + mod}:" in lines[0], lines


def test_ma26_uphill_hand_to_hand_minus_10_for_the_attacker():
    """MA26 (MBT 6.6.1.2): the attacker whose target is 1 Height above it: -10."""
    low, high, f = _uphill_pair()
    st = card_state([unit("I", "us-mech-squad", "us", low, f, command="MOVE"),
                     unit("T", "sov-mr-squad", "sov", high, 0)], "us", grades=SEASONED, phase="close-combat")
    st.dice.force(60, 40, 99, 1, 99, 1)
    act(st, "assault I T")
    assert ": 60 -> 50 vs 40 -> 40:" in next(e for e in st.events if "hand-to-hand" in e)


def test_ma29_hand_to_hand_round_three_eliminates_the_soviet_half_squad():
    """MA29 (MBT 6.6.1.2 example, round 3): two Veteran US half-squads (the primary reduced: -25 +10 grade +10
    additional half-squad = -5) against a Regulars Soviet half-squad (-25 -10 = -35). A first pair of rolls 30 /
    60 ties (25 vs 25) and is rolled again; then US 48 -> 43, Soviet 62 -> 27: the Soviet half-squad is
    eliminated, the US units may take the hex and are marked Spot/Move."""
    from studio.rulesets.mbt.engine.codes import MMOVE

    st, lines = _hth((("I", "us-mech-half-squad"), ("J", "us-mech-half-squad")), "sov-mr-half-squad",
                     (30, 60, 48, 62), grades={"us": "veteran", "sov": "regulars"})
    assert len(lines) == 1 and "48 -> 43 vs 62 -> 27: T loses" in lines[0], lines
    assert rolls(st, "HTH attacker") == [30, 48]
    i, j, t = _ids(st, "I", "J", "T")
    assert st.st[t] == DEAD and st.st[i] == ON and st.st[j] == ON
    assert st.hex[i] == st.game.map.hex(CA_B)
    assert st.mk[i] == MMOVE and st.mk[j] == MMOVE


# ---------------------------------------------------------------- MBT 6.6.10 Overrun, 6.6.2 suppressed movement
def _line(codes: tuple):
    """Hexes in a straight line with terrain ``codes``, one height, no hexside features or roads."""
    from studio.hexgrid import coords
    from studio.model.maps import edge_key

    g = _game()
    for a in sorted(g.map.label_of):
        for d in range(6):
            hexes = [a]
            for _ in codes[1:]:
                hexes.append(coords.neighbour(hexes[-1], d))
            if all(h in g.map.label_of and g.map.terrain.get(h, "") == c and g.elev.get(h) == g.elev.get(a)
                   for h, c in zip(hexes, codes)) and \
                    all(g.features.get(edge_key(x, y)) is None and edge_key(x, y) not in g.roads
                        for x, y in zip(hexes, hexes[1:])):
                return [g.label(h) for h in hexes], d
    raise LookupError(codes)


def _overrun_approach(ow_roll: int):
    """MA31's approach: a Veteran T-62MV (Move) in Clear, a US unit with an OW command in Scrub 3 hexes ahead over
    two Clear hexes; the tank moves up, the OW unit passes at range 2 and fires as it enters the adjacent hex."""
    hexes, d = _line(("C", "C", "C", "S"))
    st = card_state([unit("V", "t-62mv", "sov", hexes[0], d, command="MOVE"),
                     unit("H", "us-mech-squad", "us", hexes[3], (d + 3) % 6, command="OW")], "sov",
                    grades={"sov": "veteran", "us": "seasoned"}, phase="move-second")
    st.dice.force(ow_roll)
    act(st, "move V")
    assert st.mv_left == 5
    act(st, "fwd V")
    act(st, "pass")
    act(st, "fwd V")
    act(st, "ow H at V rifles:GP")
    return st


def test_ma31_overrun_approach_overwatch_no_effect_then_the_overrun_leaves_1():
    """MA31 (MBT 6.6.10 example): the T-62MV (allowance 5) spends 1 + 1 for two Clear hexes; the Overwatch shot
    as it enters the adjacent hex is GP 6 at P (the US squad's rifles, as the example's half-squad) against GPD 7A:
    net -35 (Target Vehicle Moving -10, A-Type -20, Overwatch -5), CRT(6,7) 57/87, roll 83 -> 48: No Effect;
    entering the Scrub hex to overrun costs 2, leaving 1."""
    st = _overrun_approach(83)
    line = next(e for e in st.events if e.startswith("H fires"))
    assert "(GP 6, P)" in line and "(GPD 7A)" in line and "roll 83-35 = 48 vs N 57 / S 87: N-Effect -> NE" in line
    assert st.mv_left == 3 and "overrun V H" in [str(a) for a in st.legal_actions()]
    act(st, "overrun V H")
    assert st.hex[0] == st.hex[1] or st.st[1] != ON or st.mv_left == 1
    assert st.mv_left == 1


def test_ma31_a_suppressed_tank_could_not_enter_the_target_hex():
    """MA31 (MBT 6.6.10 example, 6.6.2): had the Overwatch shot Suppressed the tank (roll 95 -> 60, within
    57-87), its remaining allowance would be half of 3, 1 (round down): not enough for the Scrub hex (2), so no
    overrun."""
    st = _overrun_approach(95)
    assert st.sup[0]
    assert st.mv_left == 1 and "overrun V H" not in [str(a) for a in st.legal_actions()]


def test_ma31_a_suppression_with_1_left_leaves_0():
    """MA31 with MBT 6.6.2 and Q27 (option msa-remaining-floor 'zero', the default): halving a remaining 1 leaves 0;
    the floor of 1 is the turn allowance's. The test-only M113 with allowance 3 has 1 left next to the squad."""
    hexes, d = _line(("C", "C", "C", "S"))
    st = card_state([unit("V", "test-msa3", "sov", hexes[0], d, command="MOVE"),
                     unit("H", "us-mech-squad", "us", hexes[3], (d + 3) % 6, command="OW")], "sov",
                    grades={"sov": "veteran", "us": "seasoned"}, phase="move-second")
    st.dice.force(95)
    act(st, "move V")
    act(st, "fwd V")
    act(st, "pass")
    act(st, "fwd V")
    assert st.mv_left == 1
    act(st, "ow H at V rifles:GP")
    assert st.sup[0] and st.mv_left == 0 and "fwd V" not in [str(a) for a in st.legal_actions()]


@pytest.mark.parametrize("card, command, damaged, msa", [
    ("m113", "MOVE", False, 4), ("m113", "SH", False, 2), ("m113", "SH", True, 1),
    ("test-msa5", "SH", False, 1), ("test-msa3", "SH", True, 1), ("test-msa3", "MOVE", False, 1)])
def test_ma34_suppressed_movement_fractions(card, command, damaged, msa):
    """MA34 (MBT 6.6.2): Suppressed units move at 1/2 (round down); with Short Halt 1/4; also Hull Damaged 1/8;
    never below 1: 8 -> 4, 2, 1 (8/8); 5 with Short Halt -> 1 (5/4); 3 -> 1 (3/8 and 3/2). (SB:0 cards: a Short
    Halt is 1/2.)"""
    st = card_state([unit("a", card, "us", "2A1", 3, command=command, suppression="on", damaged=damaged),
                     unit("t", "t-80bv", "sov", "4T13", 0)], "us", phase="move-second")
    act(st, "move a")
    assert st.mv_left == msa


# ---------------------------------------------------------------- MBT 6.6.4.2 Quickmarch
def _qm_state(codes=("C", "C", "C", "C"), rules=(), grade="veteran", card="us-mech-squad", **status):
    """A US leg unit with a Move command at the start of a line of ``codes`` hexes, its move begun."""
    from opt_command_fixtures import pos_state

    hexes, d = _line(codes)
    st = pos_state([unit("L", card, "us", hexes[0], d, command="MOVE", **status),
                    unit("E", "t-80bv", "sov", "4T13", 5)], rules=rules, phase="move-second", to_act="us",
                   grades={"us": grade, "sov": "regulars"})
    act(st, "move L")
    return st, hexes


@pytest.mark.parametrize("roll, suppressed", [(40, True), (41, False), (1, True)])
def test_ma38_veteran_quickmarch_suppressed_on_01_40(roll, suppressed):
    """MA38 (MBT 6.6.4.2): after a Veteran unit's quickmarch the moving player rolls (100): 01-40 Suppression/On
    (40 and 1 Suppress, 41 does not)."""
    st, hexes = _qm_state()
    st.dice.force(roll)
    act(st, "quickmarch L")
    for _ in range(3):
        act(st, "fwd L")
    assert st.hex[0] == st.game.map.hex(hexes[3]) and not rolls(st, "Quickmarch")
    act(st, "done L")
    assert rolls(st, "Quickmarch") == [roll] and bool(st.sup[0]) == suppressed


@pytest.mark.parametrize("morale", ["hesitation-on", "hesitation-off", "break-on", "break-off"])
def test_ma38_no_quickmarch_when_hesitating_or_broken(morale):
    """MA38 (MBT 6.6.4.2 with Optional Rule 7.1): a Hesitating or Broken unit may not quickmarch (an unbroken,
    non-hesitating one may)."""
    st, _ = _qm_state(rules=("morale",), morale=morale)
    assert "quickmarch L" not in [str(a) for a in st.legal_actions()]
    ok, _ = _qm_state(rules=("morale",))
    assert "quickmarch L" in [str(a) for a in ok.legal_actions()]


def test_ma38_no_quickmarch_for_a_suppressed_unit_or_through_woods():
    """MA38 (MBT 6.6.4.2): a Suppressed unit may not quickmarch; every hex crossed must be Brush, Clear, Crops,
    Path or Road (Woods is not)."""
    st, _ = _qm_state(suppression="on")
    assert "quickmarch L" not in [str(a) for a in st.legal_actions()]
    st, _ = _qm_state(codes=("C", "W"))
    act(st, "quickmarch L")
    assert "fwd L" not in [str(a) for a in st.legal_actions()]


# ---------------------------------------------------------------- MBT 6.8.4 - 6.8.6 Adjustment Phase
def _to_next_turn(st) -> None:
    """Play on to the next turn's first decision: pass, done, and Full Cover off in the Adjustment Phase."""
    turn = st.turn
    for _ in range(60):
        if st.turn != turn:
            return
        acts = [str(a) for a in st.legal_actions()]
        act(st, next((a for a in acts if a.startswith(("pass", "done")) or a.endswith(" off")), acts[0]))
    raise AssertionError("the turn did not end")


@pytest.mark.parametrize("roll, recovered", [(29, False), (20, True), (21, False)])
def test_ma69_suppression_recovery_regulars_fire_command_under_fire(roll, recovered):
    """MA69 (MBT 6.8.4 example): a Regulars Motor Rifle squad with Suppression/Off, a Fire command this turn and
    attacked by direct GP fire (twice here: the +10 is not cumulative) recovers on 01-50 with +30 (+20 command
    other than N/C, +10 under fire): 29 -> 59 keeps its Suppression/Off (not turned On); 20 -> 50 recovers."""
    a, b, d = clear_pair(3)
    st = adv_state([unit("S", "m113", "us", a, d, command="FIRE"), unit("S2", "m901", "us", a, d, command="FIRE"),
                    unit("R", "sov-mr-squad", "sov", b, (d + 3) % 6, command="FIRE", suppression="off")],
                   to_act="us", grades={"us": "seasoned", "sov": "regulars"})
    st.dice.force(1, 1, 1, roll)   # two No Effect attacks on R, R's own shot, then the recovery roll
    act(st, "fire S at R hmg:GP")
    act(st, "fire S2 at R mmg:GP")
    act(st, "fire R at S rifles:GP")
    _to_next_turn(st)
    r = st.game.uindex["R"]
    line = next(e for e in st.events if "R Suppression recovery" in e)
    assert f"roll {roll}, net {roll + 30} vs 01-50" in line, line
    assert st.sup[r] == (0 if recovered else 2)


def test_ma71_suppression_on_turns_off_then_is_rolled_for_next_turn():
    """MA71 (MBT 6.8.4, 6.8.6): a unit Suppressed in turn T (Suppression/On) is not rolled for in T's 6.8.4; T's
    6.8.6 turns it Off; in T+1's 6.8.4 it rolls for recovery (Regulars N/C: 01-50, a 50 recovers)."""
    a, b, d = clear_pair(3)
    st = adv_state([unit("S", "m113", "us", a, d, command="FIRE"),
                    unit("R", "sov-mr-squad", "sov", b, (d + 3) % 6, command="NC")],
                   to_act="us", grades={"us": "seasoned", "sov": "regulars"})
    r = st.game.uindex["R"]
    n, s = st.game.ag.gp_crt[(5, st.leg_gp_defense(r))]
    st.dice.force(n + 1)   # Seasoned HMG at S (GP 5), no modifiers: a Suppressed result
    act(st, "fire S at R hmg:GP")
    assert st.sup[r] == 1
    _to_next_turn(st)
    assert st.turn == 2 and st.sup[r] == 2 and not any("R Suppression recovery" in e for e in st.events)
    st.dice.force(60, 40, 50)   # T+1's Initiative rolls, then the recovery roll
    _to_next_turn(st)
    assert st.turn == 3 and st.sup[r] == 0
    assert any("R Suppression recovery: roll 50, net 50" in e for e in st.events), st.events


def test_ma71_hesitation_on_turns_off_then_is_removed_without_a_roll():
    """MA71 (MBT 6.8.5.1, 6.8.6, Optional Rule 7.1): Hesitation/On in turn T turns Off in T's 6.8.6; in T+1's
    6.8.5 the Hesitation/Off counter is removed automatically (no roll)."""
    from opt_command_fixtures import pos_state

    st = pos_state([unit("A", "m1", "us", "2A1", 0, morale="hesitation-on"), unit("E", "t-80bv", "sov", "4T13", 5)],
                   rules=("morale",), phase="move-first", to_act="us")   # nothing moves: turn 1 ends at once
    assert st.turn == 2 and st.morale_status(0) == "hesitation-off"
    before = len(st.dice.history)
    _to_next_turn(st)
    assert st.turn == 3 and st.morale_status(0) == "none"
    assert not any(lab.startswith(("Break", "Morale", "Hesitation")) for lab, _ in st.dice.history[before:])



# ---------------------------------------------------------------- MBT 7.24 Camouflage (optional)
CAMO_WOODS, CAMO_AT4 = "2L10", "2H11"   # a Woods hex and a Clear hex 4 hexes from it in line of sight


def _camouflage_spot(spotter: str, roll: int):
    """A camouflaged T-80BV in Woods; ``spotter`` (US) 4 hexes away; the next Spotting Phase rolls ``roll``."""
    units = [unit("T", "t-80bv", "sov", CAMO_WOODS, 0), unit("A", spotter, "us", CAMO_AT4, 0),
             unit("X", "m1", "us", "2A1", 0, command="MOVE")]
    st = card_state(units, "us", phase="move-first", rules=("camouflage",), camouflaged=["T"])
    st.dice.force(roll)
    act(st, "move X")
    act(st, "done X")
    while st.current_player() >= 0 and st.phase_id() == "adjustment":
        act(st, next(a for a in (str(x) for x in st.legal_actions()) if a.startswith("cover ") and a.endswith(" off")))
    return st


@pytest.mark.parametrize("spotter, roll, mod, seen", [
    ("m1", 7, 0, True), ("m1", 8, 0, False), ("m3", 8, -1, True), ("m3", 9, -1, False),
    ("test-thermal", 9, -2, True), ("test-thermal", 10, -2, False)])
def test_ma98_camouflage_roll_with_recon_and_thermal_modifiers(spotter, roll, mod, seen):
    """MA98 (MBT 7.24): after the range test, a camouflaged vehicle in Woods (spotting range 7) is spotted on a
    roll (10) of 7 or less; a Recon spotter (the M3) subtracts 1 (8 -> 7 spotted), a Thermal Imager 2."""
    st = _camouflage_spot(spotter, roll)
    assert any(f"roll {roll}{mod:+d} vs 7" in e for e in st.events), st.events
    assert (0 in st.spots[1]) == seen and st.camo[0]


def test_ma98_short_halt_loses_camouflage_permanently():
    """MA98 (MBT 7.24): executing a Short Halt (like a Move) command loses the camouflage for good."""
    st = card_state([unit("T", "m1", "us", "2A1", 0, command="SH"), unit("E", "t-80bv", "sov", "2P13", 0)], "us",
                    phase="move-first", rules=("camouflage",), camouflaged=["T"])
    assert st.camo[0]
    act(st, "move T")
    assert not st.camo[0]


# ---------------------------------------------------------------- MBT 6.5.4.5 example (M150 vs Heavy Motor Rifle squad)
def test_ma15_the_m150_example_values_the_engine_plays():
    """MA15 (MBT 6.5.4.5 example, the M150 firing back): the Heavy Motor Rifle squad in Scrub (Light Cover) is GPD
    4S and spotted to 5 hexes (an S-sized target in Light Cover), the M150 in Clear to 20 (a vehicle in no cover);
    the ITOW's CRT(13,4) is 16/53 (35 - 20 = 15: No Effect) and the MMG's CRT(2,4) 60/86 (92 - 25 = 67:
    Suppressed; at -25 no Effective result is possible). A Suppressed shooter is -20: here a Suppressed
    M113's HMG at range 3 (range factor S), roll 35 -> 15. (ATGM GP fire and Dual Fire, -5, are not built.)"""
    a, b, d = clear_pair(3, "C", "S")
    st = adv_state([unit("M", "m113", "us", a, d, command="FIRE", suppression="on"),
                    unit("C", "m150", "us", a, d),
                    unit("H", "sov-heavy-mr-squad", "sov", b, (d + 3) % 6)], to_act="us",
                   grades={"us": "seasoned", "sov": "veteran"})
    m, c, h = _ids(st, "M", "C", "H")
    assert st.spot_range(h) == 5 and st.spot_range(c) == 20
    crt = st.game.ag.gp_crt
    assert crt[(13, 4)] == (16, 53) and 35 - 20 <= crt[(13, 4)][0]
    n, s = crt[(2, 4)]
    assert (n, s) == (60, 86) and n < 92 - 25 <= s and 100 - 25 <= s
    st.dice.force(35)
    act(st, "fire M at H hmg:GP")
    line = next(e for e in st.events if e.startswith("M fires"))
    assert "(GP 5, S)" in line and "(GPD 4S)" in line and "roll 35-20 = 15" in line



# ---------------------------------------------------------------- MBT 6.5.4.5 Bail Out - GP Fire
def _carrier_shot(dice, p_status=None, us="seasoned", carrier="test-carrier2"):
    """An Elite T-80BV's HE (GP 6 at L) at an unprotected carrier (GPD 3A) with two half-squads P and Q aboard
    (a US M1 with a Fire command waits to answer, so the turn goes on): ``dice`` after the Ammo Limit roll are
    the vehicle's roll, then each passenger's (GPD 1S, net +25: CRT(6,1) N 33 / S 63) with its Bail Out roll."""
    a, b, d = clear_pair(13)
    st = card_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", carrier, "us", b, (d + 3) % 6),
                     unit("P", "us-mech-half-squad", "us", b, 0, carried_by="T", **(p_status or {})),
                     unit("Q", "us-mech-half-squad", "us", b, 0, carried_by="T"),
                     unit("W", "m1", "us", "4T13", 0, command="FIRE")], "sov",
                    grades={"sov": "elite", "us": us})
    st.dice.force(1, *dice)
    act(st, "fire S at T main:HE")
    return st


def test_ma19_a_vehicle_suppressed_by_gp_fire_makes_no_crew_check():
    """MA19 (a) (MBT 6.5.4.5): Suppression applies only to passengers: a vehicle Suppressed by GP fire makes no
    Bail Out roll."""
    st, line = _elite_he(50)
    assert line.endswith("-> SUP") and st.sup[1] and not rolls(st, "Bail Out")


def test_ma19_only_the_suppressed_passenger_checks():
    """MA19 (b) (MBT 6.5.4.5, 5.15): of two passengers only the Suppressed one checks, on the Suppressed - DF
    row (20-): P Suppressed (roll 25 + 25 = 50) bails out on 20 (placed in the hex, Suppressed); Q (No Effect)
    stays aboard without a roll."""
    st = _carrier_shot((1, 25, 20, 1))
    p, q = _ids(st, "P", "Q")
    assert rolls(st, "Bail Out") == [20]
    assert st.st[p] == ON and st.sup[p] and st.carrier[p] == -1
    assert st.st[q] == CARRIED and not st.sup[q]


def test_ma19_a_suppressed_passenger_failing_its_check_stays_aboard():
    """MA19 (MBT 6.5.4.5): a Bail Out roll above the Suppressed - DF value (21 > 20) keeps the Suppressed
    passenger aboard."""
    st = _carrier_shot((1, 25, 21, 1))
    p = st.game.uindex["P"]
    assert st.st[p] == CARRIED and st.sup[p] == 1 and rolls(st, "Bail Out") == [21]


@pytest.mark.parametrize("status, checks", [("on", False), ("off", True)])
def test_ma19_already_suppressed_on_no_check_off_to_on_checks(status, checks):
    """MA19 (c, d) (MBT 6.5.4.5): a passenger already marked Suppression/On makes no check for another
    Suppressed result; one with Suppression/Off turned On must check."""
    st = _carrier_shot((1, 25, 20, 1) if checks else (1, 25, 1), p_status={"suppression": status})
    p = st.game.uindex["P"]
    assert st.sup[p] == 1
    assert bool(rolls(st, "Bail Out")) == checks
    assert (st.st[p] == ON) == checks


def test_ma19_indirect_fire_uses_the_suppressed_if_row():
    """MA19 (MBT 6.5.4.5, 5.15): a passenger Suppressed by GP indirect fire checks on the Suppressed - IF row
    (a placeholder: the DF value)."""
    units = [unit("F", "m981", "us", "4B1", 2, command="OW"), unit("T", "test-carrier2", "sov", "4E1", 5),
             unit("P", "sov-mr-half-squad", "sov", "4E1", 5, carried_by="T")]
    probe = card_state(units, "us", phase="indirect-fire")
    probe.dice.force(6, 1, 50)
    act(probe, "call m109-battery-1 by F at 4E1")
    line = next(e for e in probe.events if e.startswith("P (passenger"))
    net = int(line.split("roll 50")[1].split(" = ")[0])
    n, s = (int(v) for v in line.split(" vs N ")[1].split(":")[0].split(" / S "))
    st = card_state(units, "us", phase="indirect-fire")
    st.dice.force(6, 1, n + 1 - net, 1)
    act(st, "call m109-battery-1 by F at 4E1")
    assert any("Suppressed IF) Bail Out roll 1 vs 20: bails out" in e for e in st.events), st.events


@pytest.mark.parametrize("grade, roll, out", [("green", 25, True), ("green", 26, False), ("elite", 15, True),
                                              ("elite", 16, False)])
def test_ma19_the_passengers_grade_modifies_its_bail_out(grade, roll, out):
    """MA19 (MBT 6.5.4.5, 6.5.2.7.2): the Suppressed passenger's roll takes its grade modifier (Elite +5, Green
    -5) against the Suppressed - DF value 20."""
    st = _carrier_shot((1, 25, roll, 1), us=grade)
    p = st.game.uindex["P"]
    assert rolls(st, "Bail Out") == [roll] and (st.st[p] == ON) == out


def test_ma19_suppressed_at_exactly_the_s_effect_checks():
    """MA19 (MBT 6.5.4.4, 6.5.4.5): a passenger's modified result equal to the S-Effect number (63) Suppresses
    and so checks (20: bails out)."""
    st = _carrier_shot((1, 38, 20, 1))
    p = st.game.uindex["P"]
    assert any("P (passenger of T" in e and "= 63 vs N 33 / S 63: Suppressed" in e for e in st.events), st.events
    assert st.st[p] == ON and rolls(st, "Bail Out") == [20]


def test_ma19_a_passenger_eliminated_aboard_makes_no_check():
    """MA19 (MBT 6.5.4.4.3, 6.5.4.5): an Effective result eliminates a half-squad passenger aboard (64 > S 63):
    no Bail Out roll, it leaves no unit in the hex."""
    st = _carrier_shot((1, 39, 1))
    p, q = _ids(st, "P", "Q")
    assert st.st[p] == DEAD and st.carrier[p] == -1 and p not in st.passengers(1)
    assert st.st[q] == CARRIED and not rolls(st, "Bail Out")


def test_ma19_under_cover_passengers_defend_at_3():
    """MA19 with MBT 6.5.4.2.3: passengers of an Under Cover carrier are attacked at GP Defense 3 (CRT(6,3)
    39/69); a Suppressed one checks like any other (roll 20 bails out)."""
    st = _carrier_shot((1, 40, 20, 1), carrier="test-uc")
    p = st.game.uindex["P"]
    assert any("P (passenger of T, GPD 3S): roll 40+25 = 65 vs N 39 / S 69: Suppressed" in e for e in st.events)
    assert st.st[p] == ON and rolls(st, "Bail Out") == [20]
