"""Worked examples of assault-examples.md not covered elsewhere, each through positions and the public API with
its rule: A2, A37, A39, A50, A54, A57, A58, A59, A62, A63, A65, A81, A90, A131, A133."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]
PAID = {"c31-offboard-ops-visibility": "visible"}


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, dice=(), extension=None, scenario="assault-probe", **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario,
                                   "phase": phase, "units": units, "extension": extension or {}})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def u(uid, card, side, hexlabel, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status}


FAR = u("far", "su-t80-platoon", "soviet", "B2220")


def rolls(state, word):
    return [r for r in state.dice.history if word in str(r)]


def test_A2_hex_scale_and_the_base_spotting_range(index):
    """A2 (1.A): a hex is 250 m side to side; the 18-hex base spotting range is 4,500 m."""
    state = state_of(index, [FAR], "us-move-1")
    assert index.model("map", "assault-a").hex.hex_m == 250
    assert state.game.data.constant("spotting-range-base") * 250 == 4500


def test_A39_a_vehicle_may_always_move_one_hex(index):
    """A39 (7.B): with 1 MP left of 11 it still enters clear (2 in combat), but not a prohibited lake, and no
    second hex."""
    state = state_of(index, [u("m1", "us-m1-platoon", "us", "A0103", mp_used=10), FAR], "us-move-1", **PAID)
    legal = [a for a in state.legal_actions() if a.startswith("move m1 ")]
    assert "move m1 A0104" in legal and "move m1 A0203" not in legal          # A0203: full lake (P)
    state.play("move m1 A0104")
    assert not any(a.startswith("move m1 ") for a in state.legal_actions())


def _road_state(index, loss: bool):
    """A march M-113 entering A1111 across country draws opportunity fire from a T-80 in cover in A1110 (KP, roll 1:
    two hits, a loss) or none; then a march M-113 follows the road A1011 -> A1111 (town)."""
    units = [u("victim", "us-m113-platoon", "us", "A1112", formation="march", spotted=True),
             u("next", "us-m113-platoon", "us", "A1011", formation="march"),
             u("su", "su-t80-platoon", "soviet", "A1110", cover=True, spotted=True)]
    state = state_of(index, units, "us-move-1", dice=[1, 1, 1, 10, 10])
    state.play("move victim A1111")
    if loss:
        state.play("fire su KP victim")
    state.play("end")
    return state


def test_A50_a_march_units_opportunity_fire_loss_closes_the_road_in_its_hex(index):
    """A50 (9.A): after a march unit's opportunity-fire loss in A1111 no unit moves into it by road this phase:
    the follower pays the town's march cost (2) instead of the road's (1)."""
    hit = _road_state(index, loss=True)
    assert hit.lost_steps[1] >= 1 and hit.road_closed == (hit.game.map.hex("A1111"),)
    hit.play("move next A1111")
    assert hit._by_id("next").mp_used == 2 and not hit._by_id("next").road_used
    calm = _road_state(index, loss=False)
    calm.play("move next A1111")
    assert calm._by_id("next").mp_used == 1 and calm._by_id("next").road_used


def test_A54_a_dismounted_spotter_in_town_spots_from_a_level_up(index):
    """A54 (10.B.1): infantry in town A1111 (level 0) counts as level 1: 22 hexes instead of 18; an M-1 in the
    same hex does not. The target is 20 hexes away."""
    units = [u("inf", "us-mech-infantry-platoon", "us", "A1111"), u("m1", "us-m1-platoon", "us", "A1111"),
             u("su", "su-t80-platoon", "soviet", "B0913")]
    state = state_of(index, units, "us-move-1")
    inf, m1, su = state.counters
    assert state._best_spot([inf], su, moving=False) is not None
    assert state._best_spot([m1], su, moving=False) is None


def test_A57_one_spotting_attempt_per_enemy_unit_per_phase(index):
    """A57 (10.C): the missile firer's attempt at declaration (roll 10 fails) is its one attempt of the fire phase:
    the end-of-phase attempt against units that fired is not made again."""
    units = [u("su", "su-t80-platoon", "soviet", "A0520", spotted=True), u("m901", "us-m901-section", "us", "A0120")]
    state = state_of(index, units, "soviet-fire", dice=[10, 10, 10, 10, 10, 10])
    state.play("end")
    state.play("fire m901 Msl su")
    state.play("end")
    assert len(rolls(state, "spotting m901")) == 1


def test_A58_A59_spotting_modifiers_and_recon(index):
    """A58-A59 (10.D): an armoured spotter takes -1, a recon one +1 and not the armoured penalty (the M-3 is an
    armoured recon unit); an HQ is an asterisk unit but no recon; 'moving' counts in a movement phase only."""
    units = [u("inf", "us-mech-infantry-platoon", "us", "A0120"), u("m1", "us-m1-platoon", "us", "A0121"),
             u("m3", "us-m3-section", "us", "A0119"), u("hq", "us-hq", "us", "A0118"),
             u("su", "su-t80-platoon", "soviet", "A0520", cover=True)]
    state = state_of(index, units, "us-move-1")
    inf, m1, m3, hq, su = state.counters
    base = state._spot_number(inf, su, moving=False)
    mods = state.game.spotter_mod
    assert state._spot_number(m1, su, moving=False) == base + mods["armored-vehicle"]
    assert state._spot_number(m3, su, moving=False) == base + mods["recon"]
    assert state._spot_number(hq, su, moving=False) == base
    su.moved = True
    assert state._spot_number(inf, su, moving=True) == base + state.game.status_mod["moving"]
    assert state._spot_number(inf, su, moving=False) == base


def test_A62_a_suppressed_enemys_sight_keeps_a_unit_spotted(index):
    """A62 (10.G): at the end of a phase a spotted unit seen only by a suppressed enemy stays spotted; seen by no
    enemy it is flipped back."""
    seen = state_of(index, [u("m1", "us-m1-platoon", "us", "A0120", spotted=True),
                            u("su", "su-t80-platoon", "soviet", "A0520", suppressed=True)], "soviet-move-1")
    seen.play("end")
    assert seen._by_id("m1").spotted
    alone = state_of(index, [u("m1", "us-m1-platoon", "us", "A0120", spotted=True), FAR], "soviet-move-1")
    alone.play("end")
    assert not alone._by_id("m1").spotted


def test_A63_a_hit_on_a_two_step_unit(index):
    """A63 (11.B): a hit leaves one step and suppresses; a second hit removes it; a hit on one step removes it."""
    state = state_of(index, [u("m1", "us-m1-platoon", "us", "A0120"), FAR], "us-move-1")
    m1 = state._by_id("m1")
    state._apply_result(m1, "H")
    assert (m1.steps, m1.suppressed) == (1, True)
    state._apply_result(m1, "H")
    assert m1.steps == 0 and state.lost_steps == [0, 2]


def test_A65_no_effect_still_checks_morale(index):
    """A65 (11.D): a miss changes no strength, but the target's company checks morale (its roll is made)."""
    units = [u("m1", "us-m1-platoon", "us", "A0120", spotted=True),
             u("su", "su-t80-platoon", "soviet", "A0520", spotted=True, company="A1")]
    state = state_of(index, units, "us-fire", dice=[10, 10, 10, 10])
    state.play("fire m1 KP su")
    state.play("end")
    state.play("end")
    su = state._by_id("su")
    assert su.steps == 2 and not su.suppressed and rolls(state, "morale A1")


def test_A81_armour_facing(index):
    """A81 (13.B.2): march faces a hexside, combat a vertex (its two hexsides); same hex or broken: flank."""
    target = u("su", "su-t80-platoon", "soviet", "A0520", 5, spotted=True)
    east = u("e", "us-m1-platoon", "us", "A0720")            # across hexside 2 (east-south-east)
    north = u("n", "us-m1-platoon", "us", "A0518")           # across hexside 0 (north)
    state = state_of(index, [target, east, north, u("same", "us-m1-platoon", "us", "A0520")], "us-fire")
    su = state._by_id("su")
    su.formation, su.facing = "march", 0
    assert state._front(su, state._by_id("n")) and not state._front(su, state._by_id("e"))
    su.formation, su.facing = "combat", 5                    # vertex 5: hexsides 5 and 0
    assert state._front(su, state._by_id("n")) and not state._front(su, state._by_id("e"))
    assert not state._front(su, state._by_id("same"))
    state.morale["A0"] = state._company_record(su)
    state._company_record(su).state = "broken"
    assert not state._front(su, state._by_id("n"))


def test_A90_conventional_fire_only_suppresses_an_afv(index):
    """A90 (14.C): a CRT result other than no effect only suppresses an AFV (16 HE at a T-80, roll 1)."""
    units = [u("m1", "us-m1-platoon", "us", "A0120", spotted=True),
             u("su", "su-t80-platoon", "soviet", "A0121", spotted=True)]
    state = state_of(index, units, "us-fire", dice=[1, 10])
    state.play("fire m1 HE su")
    state.play("end")
    state.play("end")
    su = state._by_id("su")
    assert su.steps == 2 and su.suppressed


def test_A131_victory_points_times_the_multiplier(index):
    """A131 (24.E): Soviet raw 10 at multiplier 2 (level 3) beats U.S. raw 15 at multiplier 1 (level 6)."""
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "us-move-2", scenario="assault-meeting",
                     extension={"force_levels": {"soviet": 3, "us": 6}})
    state.lost_steps = [15, 10]                             # 1 VP per enemy step lost each (destroy_units)
    state.turn = state.game.max_turns + 1
    out = state.outcome()
    assert out.victory_points == [20, 15] and out.winner == 0


def test_A133_the_beginner_scenario_is_the_probe(index):
    """A133 (24): 'Beginning players should start with the Probe scenario': the sample has one, fully played."""
    scenario = index.model("scenario", "assault-probe")
    assert scenario.name == "Probe" and scenario.ruleset == "assault"


def test_A37_an_eliminated_tocs_track_drains_by_two_each_turn(index):
    """A37 (6.B.3, ESoP): the TOC dies with 7 on its track; its unit HQ may spend it; it loses 2 at the end of
    each of its side's player turns: 5, 3, 1, 0."""
    units = [u("toc", "us-toc", "us", "A0120", designation="TOC1", toc_bank=7),
             u("hq", "us-hq", "us", "A0121", designation="HQ1"), FAR]
    state = state_of(index, units, "us-move-2")
    toc = state._by_id("toc")
    state._apply_result(toc, "E")
    state.counters = [c for c in state.counters if c.steps > 0]
    assert state.orphan_banks == {(1, "TOC1"): 7}
    seen = []
    for _ in range(4):
        state.play("end")
        seen.append(state.orphan_banks[(1, "TOC1")])
        while state.phase_id() != "us-move-1":
            state.play("end")
        if seen[-1]:
            assert state.ops[1]["TOC1"] == seen[-1]            # the HQ's to spend (4.C)
        while state.phase_id() != "us-move-2":
            state.play("end")
    assert seen == [5, 3, 1, 0]


def test_12B2_dismounted_personnel_in_town_may_fire_from_the_rooftops(index):
    """12.B.2: infantry in town A1111 has no sight line to A1209 at ground level; from the rooftops (one level up,
    constant rooftop-levels) it has; having fired so, it is seen and fired at that height until it moves."""
    units = [u("inf", "us-mech-infantry-platoon", "us", "A1111", spotted=True),
             u("su", "su-t80-platoon", "soviet", "A1209", spotted=True)]
    state = state_of(index, units, "us-fire")
    legal = [a for a in state.legal_actions() if a.startswith("fire inf ")]
    assert legal and all(a.endswith(" su roof") for a in legal)
    inf, su = state._by_id("inf"), state._by_id("su")
    assert not state.has_los(su.hex, inf.hex)
    state.play(legal[0])
    assert inf.roof and state.has_los(su.hex, inf.hex, up=state._roof(inf))
    state.play("end")
    assert any(a.startswith("fire su ") and a.endswith(" inf") for a in state.legal_actions())
    m1 = state_of(index, [u("m1", "us-m1-platoon", "us", "A1111", spotted=True), units[1]], "us-fire")
    assert not any(a.endswith(" roof") for a in m1.legal_actions())               # personnel only
