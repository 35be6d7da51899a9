"""MBT 5.1.3.7 Flamethrowers through positions: an attached crew-served flamethrower (card ``lpo-50``, given to a
squad by the position status ``attachments`` or the scenario's ``attachments``) is only a close-combat modifier:
Close Assault +20 and an automatic Brew Up (6.6.1.1.2-3), Hand-to-Hand +20 per side (6.6.1.2.2), a fire in a
building hex (optional 7.35.1) and a Forced Morale Check for its target (optional 7.1.3)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401  (autouse: each roll's die)
from mbt_adv_fixtures import DATA, act, adv_state, clear_pair, unit  # noqa: E402
from opt_command_fixtures import events, pos_state  # noqa: E402

from studio.rules.load import load_game  # noqa: E402
from studio.rules.position import PositionError  # noqa: E402

A, B, D = clear_pair(1)
SEASONED = {"us": "seasoned", "sov": "seasoned"}
FLAME = ["lpo-50"]


def _attacker(uid="I", flame=True, card="sov-mr-squad", hex_=A, **status):
    extra = {"attachments": FLAME} if flame else {}
    return unit(uid, card, "sov", hex_, D, command="MOVE", **extra, **status)


def _close(target, dice, flame=True, mates=(), **kw):
    units = [_attacker(flame=flame), *mates, unit("T", target, "us", B, 0, **kw)]
    return adv_state(units, phase="close-combat", to_act="sov", dice=dice, grades=SEASONED)


def _line(st, text="close assaults"):
    return next(e for e in st.events if text in e)


def test_the_flamethrower_is_attached_and_has_no_fire_row():
    # MBT 5.1.3.7: attached to a squad; only a close combat modifier: the squad fires its own rows only
    st = _close("m1", [])
    ut = st.game.units[0].type
    assert ut.ag.flamethrower == "lpo-50"
    assert sorted(r.key for r in ut.ap) == ["rifles-h:GP", "rifles:GP"]
    assert not st.game.units[1].type.ag.flamethrower
    plain = _close("m1", [], flame=False)
    assert not plain.game.units[0].type.ag.flamethrower


def test_attachments_status_must_name_crew_served_cards():
    with pytest.raises(PositionError, match="attachments"):
        adv_state([unit("I", "sov-mr-squad", "sov", A, D, attachments="lpo-50"), unit("T", "m1", "us", B, 0)])
    with pytest.raises(PositionError, match="not a crew-served weapon card"):
        adv_state([unit("I", "sov-mr-squad", "sov", A, D, attachments=["m1"]), unit("T", "m1", "us", B, 0)])


@pytest.mark.parametrize("flame, net", [(True, 20), (False, 0)])
def test_close_assault_plus_20_with_a_flamethrower(flame, net):
    # MBT 6.6.1.1.2: any attacking unit with an attached flamethrower +20 (Seasoned: no grade modifier)
    st = _close("m1", [50], flame=flame)
    act(st, "assault I T")
    line = _line(st)
    assert f"roll 50{net:+d} = {50 + net} " in line and ("flamethrower" in line) == flame


def test_an_additional_attacker_with_a_flamethrower_counts():
    # MBT 6.6.1.1.2: "any of the attacking units": the hex-mate's flamethrower +20 beside its own +20 (squad)
    mate = _attacker("J", flame=True)
    st = _close("m1", [30], flame=False, mates=(mate,))
    act(st, "assault I T all")
    assert "roll 30+40 = 70 " in _line(st)
    alone = _close("m1", [30], flame=False, mates=(mate,))
    act(alone, "assault I T")
    assert "roll 30+0 = 30 " in _line(alone)


def test_a_knock_out_by_a_flamethrower_brews_up_without_the_roll(dice_sides):
    # MBT 6.6.1.1.3: Effective not ending in 5 or 10 -> KO or BU; with a flamethrower it Brews Up: no roll (10).
    # 63 + 20 = 83 > S 72 (GP 8 vs GPD 5)
    st = _close("m1", [63, 1])
    n_eff, s_eff = st.game.ag.gp_crt[(8, 5)]
    assert 83 > s_eff and 63 <= s_eff
    act(st, "assault I T")
    assert "KILL" in _line(st) and st.wreck.get(st.hex[1]) == 2
    assert not [lbl for lbl, _ in dice_sides if lbl.startswith("CA KO/BU")]
    # without it the attacker rolls (10): 9 > half of GP 8 -> Knocked Out (83 from the dice alone)
    ko = _close("m1", [83, 9], flame=False)
    act(ko, "assault I T")
    assert "KILL" in _line(ko) and ko.wreck.get(ko.hex[1]) == 1


def _hth(dice, attacker_flame: bool, defender_flame: bool):
    defender = unit("T", "us-mech-squad", "us", B, 0, **({"attachments": FLAME} if defender_flame else {}))
    units = [_attacker(flame=attacker_flame), defender]
    return adv_state(units, phase="close-combat", to_act="sov", dice=dice, grades=SEASONED)


@pytest.mark.parametrize("attacker_flame, defender_flame, first", [
    (True, False, "50 -> 70 vs 60 -> 60: T loses"),
    (False, True, "60 -> 60 vs 50 -> 70: I loses"),
    (True, True, "50 -> 70 vs 60 -> 80: I loses"),
    (False, False, "50 -> 50 vs 60 -> 60: I loses"),
])
def test_hand_to_hand_each_side_with_a_flamethrower_plus_20(attacker_flame, defender_flame, first):
    # MBT 6.6.1.2.2: "any of the attacking units and/or the defending unit": +20 to the side that has one
    a, d = (50, 60) if first.startswith("50") else (60, 50)
    st = _hth([a, d, 99, 1, 99, 1, 99, 1], attacker_flame, defender_flame)
    act(st, "assault I T")
    assert first in _line(st, "hand-to-hand"), st.events


@pytest.mark.parametrize("loss, second", [(1, "50 -> 25 vs 20 -> 20"), (9, "50 -> 45 vs 20 -> 20")])
def test_a_flamethrower_lost_under_7_17_no_longer_counts(loss, second):
    # MBT 7.17 (MA93): the reduced squad rolls (10) for its attached flamethrower, 1-5 destroyed; the next round
    # of Hand-to-Hand it is a half-squad (-25) with (+20) or without it. Round 1: 10 + 20 = 30 vs 60: I reduced
    units = [_attacker(), unit("T", "us-mech-squad", "us", B, 0)]
    st = pos_state(units, ("attached-weapon-loss",), phase="close-combat", to_act="sov", grades=SEASONED,
                   dice=[10, 60, loss, 50, 20, 1, 9, 9, 99, 1, 99, 1])
    act(st, "assault I T")
    rounds = events(st, "hand-to-hand")
    assert "10 -> 30 vs 60 -> 60: I loses" in rounds[0] and second in rounds[1], st.events
    assert events(st, f"attached lpo-50: roll {loss}")


def _to_next_turn(st):
    """Play the rest of the turn passing (leg units keep their cover), up to the next turn's first decision."""
    turn = st.turn
    for _ in range(200):
        if st.turn != turn or st.is_terminal():
            return st
        legal = [str(a) for a in st.legal_actions()]
        pick = next((a for a in legal if a == "pass" or a.startswith(("done", "pass"))), None)
        pick = pick or next((a for a in legal if a.startswith("cover") and a.endswith("off")), legal[0])
        act(st, pick)
    raise AssertionError("the turn did not end")


@pytest.mark.parametrize("flame", [True, False])
def test_a_flamethrower_attack_at_a_building_starts_a_fire(flame):
    # MBT 7.35.1 (optional Fires): a close combat with a flamethrower at a target in a building hex starts a fire
    # there without a roll (the Adjustment Phase); a close combat without one never starts a fire
    from studio.hexgrid.coords import neighbour

    g = adv_state([unit("T", "m1", "us", B, 0)], phase="move-first").game
    town = next(h for h in sorted(g.building_hexes) if any(
        neighbour(h, d) in g.map.label_of and neighbour(h, d) not in g.building_hexes and
        g.elev.get(neighbour(h, d)) == g.elev.get(h) for d in range(6)))
    d = next(d for d in range(6) if neighbour(town, d) in g.map.label_of and neighbour(town, d) not in
             g.building_hexes and g.elev.get(neighbour(town, d)) == g.elev.get(town))
    near = g.label(neighbour(town, d))
    units = [unit("I", "sov-mr-squad", "sov", near, (d + 3) % 6, command="MOVE", **({"attachments": FLAME} if flame
                                                                                      else {})),
             unit("T", "us-mech-squad", "us", g.label(town), d)]
    st = pos_state(units, ("fires",), phase="close-combat", to_act="sov", dice=[99, 1, 99, 1, 99, 1])
    assert [str(a) for a in st.legal_actions()][0] == "assault I T"
    act(st, "assault I T")
    _to_next_turn(st)
    assert (town in st.burning) == flame
    if flame:
        assert events(st, "flamethrower sets")


def test_no_fire_outside_a_building():
    # MBT 7.35.1: only a target in a building (or rubble) hex burns; the flamethrower attack in the open starts none
    st = pos_state([_attacker(), unit("T", "us-mech-squad", "us", B, 0)], ("fires",), phase="close-combat",
                   to_act="sov", dice=[99, 1, 99, 1, 99, 1])
    assert st.hex[1] not in st.game.building_hexes
    act(st, "assault I T")
    _to_next_turn(st)
    assert st.burning == {} and not events(st, "on fire")


@pytest.mark.parametrize("flame, check", [(True, "T Forced Morale Check (flame)"), (False, None)])
def test_the_target_of_a_flame_attack_takes_a_forced_morale_check(flame, check):
    # MBT 7.1.3: before the Cohesion Point a unit that receives a flame attack in a Close Assault or Hand-to-Hand
    # takes a Forced Morale Check; a plain close assault calls for none (7.1.2 needs the Cohesion Point)
    units = [_attacker(flame=flame), unit("T", "m1", "us", B, 0)]
    st = pos_state(units, ("morale",), phase="close-combat", to_act="sov", dice=[10, 99],
                   cohesion_point={"us": 9, "sov": 9})
    act(st, "assault I T")
    assert st.st[1] == 1  # 10 (+20) is No Effect / Suppressed: the M1 is still there to check
    assert bool(events(st, "Forced Morale Check (flame)")) == flame
    if check:
        assert events(st, check)
    else:
        assert not events(st, "Morale Check")


def test_scenario_attachments_give_the_squads_a_flamethrower(tmp_path):
    # MBT 5.1.3: the scenario's ``attachments`` replace a leg slot's weapons: the Soviet squads get the LPO-50
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    path = root / "scenarios/mbt/adv-combined-arms.yaml"
    text = path.read_text(encoding="utf-8")
    assert "extension:\n  game: advanced\n" in text
    game0 = load_game("adv-combined-arms", DATA).game
    force = next(u.force for u in game0.units if u.type.id == "sov-mr-squad")
    block = f"  attachments:\n    - {{force: {force}, slot: sqd, weapons: [lpo-50, rpg-7]}}\n"
    path.write_text(text.replace("extension:\n  game: advanced\n", "extension:\n  game: advanced\n" + block, 1),
                    encoding="utf-8")
    game = load_game("adv-combined-arms", root).game
    squads = [u for u in game.units if u.type.id == "sov-mr-squad"]
    assert squads and all(u.type.ag.flamethrower == "lpo-50" for u in squads)
    assert all({r.card for r in u.type.ap if r.card} == {"rpg-7"} for u in squads)
    assert not any(u.type.ag.flamethrower for u in game0.units)


def test_attached_rows_name_their_card_for_the_errant_rocket_fire_check():
    # MBT 7.35.3 reads a hand-held rocket's fixed GP from its crew-served card: the RPG-7's weapon id ('rpg')
    # differs from its card id ('rpg-7'); the row's card finds its fixed GP 5 (card rpg-7), the LAW's 6 (5.1.3.4)
    from studio.rulesets.mbt.engine.opt_fires import errant_gp

    st = adv_state([unit("I", "sov-mr-squad", "sov", A, D), unit("J", "us-mech-squad", "us", B, 0)])
    gp = {r.key: (r.card, errant_gp(st.game, i, r)) for i in (0, 1) for r in st.game.units[i].type.ap}
    assert gp["rpg:PG-7"] == ("rpg-7", 5) and gp["law:HEAT"] == ("law", 6) and gp["rifles:GP"] == ("", 0)


def test_the_flamethrower_card_check(tmp_path):
    # MBT 5.1.3.7: the LPO-50 card is clean; a flamethrower row with a range or factor is flagged (never used)
    from test_checks_advanced_cases import codes, findings, variant

    from studio.model.project import display_path, load_documents, project_files

    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    files = project_files(root)
    docs = load_documents(files, [display_path(f) for f in files])
    assert "mbt.flamethrower" not in codes(findings(root, docs, variant("lpo-50", lambda d: None)))

    def ranged(d):
        d["body"]["weapon"]["ammo"][0].update(range={"P": 1, "E": 2}, gp_factor={"P": 20, "E": 10})

    assert "mbt.flamethrower" in codes(findings(root, docs, variant("lpo-50", ranged)), "warning")
