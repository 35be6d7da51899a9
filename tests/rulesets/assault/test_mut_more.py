"""More rule details a mutation run of the engine found untested (COVERAGE.md, Measurements), through positions,
legal actions and play, each with its rule."""
import sys
from pathlib import Path

import pytest

from studio.hexgrid import coords
from studio.rulesets.assault.engine import spotting
from studio.rulesets.assault.engine.game import _hexsides_towards, create_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from assault_states import FAR, PAID, by_id, rolls, state_of, u  # noqa: E402



@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)




# ------------------------------------------------------------------ the end of the game (24.E)
def test_a_finished_game_has_no_legal_actions_and_counts_every_turn(index):
    """24: after the last turn nothing more is played; the outcome reports the turns played (the Meeting's 6)."""
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "us-move-2", turn=6)
    while not state.is_terminal():
        state.play("end")
    assert state.legal_actions() == [] and state.outcome().turn == 6 == state.game.max_turns


# ------------------------------------------------------------------ company rally once a phase (17.B)
def test_a_company_tries_to_rally_once_a_phase_even_with_ops_left(index):
    """17.B: a failed company rally is not tried again in the same phase, whatever OPs are left."""
    units = [u("p1", "su-t80-platoon", "soviet", "A0520", suppressed=True, company="A1", designation="A1"),
             u("p2", "su-t80-platoon", "soviet", "A0620", company="A1", designation="A1"),
             u("us", "us-m1-platoon", "us", "A2220")]
    state = state_of(index, units, "soviet-move-1", dice=[10], scenario="assault-probe",
                     extension={"morale": {"A1": {"state": "shaken", "lost": 2}}, "ops": {"soviet": {"default": 8}}})
    state.play("rally-company A1")
    assert state.morale["A1"].state == "shaken" and state.ops[0]["default"] > 2
    assert "rally-company A1" not in state.legal_actions()


# ------------------------------------------------------------------ leaving the map (24.E)
def test_static_units_never_exit_and_leg_units_only_before_moving(index):
    """24.E: leaving the map counts as one more hex: a static unit never leaves; a leg unit may if it has not
    moved this phase (the Probe's Soviet exit edge is the west edge, A01xx)."""
    state = state_of(index, [u("gun", "su-d30-battery", "soviet", "A0105"), u("inf", "su-motor-rifle-platoon",
                                                                              "soviet", "A0105"),
                             u("m1", "us-m1-platoon", "us", "B2220")], "soviet-move-1", scenario="assault-probe",
                     **PAID)
    assert state.game.map.hex("A0105") in state.game.exit_edges[0]
    legal = state.legal_actions()
    assert "exit inf" in legal and "exit gun" not in legal
    by_id(state)["inf"].moved = True
    assert "exit inf" not in state.legal_actions()


# ------------------------------------------------------------------ sight at the limit of range (10.B.1)
def test_sight_reaches_exactly_the_maximum_spotting_range(index):
    """10.B.1: the maximum spotting range itself is within range; one hex more is not (level ground, 18 hexes:
    base 18 + 4 a level, both at level 0)."""
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "us-move-1", scenario="assault-probe")
    game = state.game
    rng = spotting.max_spotting_range(game.data, 0, 0)
    flat = [h for h in sorted(game.map.label_of) if game.map.elevation.get(h, 0) == 0]
    at, beyond = [], []
    for a in flat[::37]:
        at += [(a, h) for h in flat if coords.distance(a, h) == rng and state._trace_los(a, h)]
        beyond += [(a, h) for h in flat if coords.distance(a, h) == rng + 1 and state._trace_los(a, h)]
    assert rng == 18 and at and beyond
    assert all(state.has_los(a, h) for a, h in at) and not any(state.has_los(a, h) for a, h in beyond)


# ------------------------------------------------------------------ fire-phase spotting numbers (10.D, 10.E)
def test_fire_phase_spotting_uses_the_full_number_and_auto_reads_the_base(index):
    """10.E: 'Auto' spots at once only during movement; in the fire phase an Auto target is spotted on the base
    number of its range; any other target on its full number (terrain and status included)."""
    units = [u("s", "us-mech-infantry-platoon", "us", "B1010"), u("t", "su-t80-platoon", "soviet", "B0812",
                                                                  cover=True),
             u("o", "su-t80-platoon", "soviet", "B1013")]
    state = state_of(index, units, "us-fire")
    s, covered, open_ = by_id(state)["s"], by_id(state)["t"], by_id(state)["o"]
    assert state._spot_number(s, open_, False) == "Auto"
    base = spotting.base_spotting_number(state.game.data, coords.distance(s.hex, open_.hex))
    assert state._best_spot([s], open_, moving=False) == base
    assert state._best_spot([s], open_, moving=True) == "Auto"
    assert state._best_spot([s], covered, moving=False) == state._spot_number(s, covered, False)


# ------------------------------------------------------------------ unspotting only in friendly movement (c20)
def test_c20_friendly_movement_unspots_at_the_end_of_movement_only(index):
    """Option c20 'friendly-movement': a spotted unit nobody sees is flipped at the end of its own side's movement
    phase, not at the end of a fire phase."""
    units = [u("su", "su-t80-platoon", "soviet", "A2220", spotted=True), u("us", "us-m1-platoon", "us", "A0120")]
    state = state_of(index, units, "soviet-move-1", scenario="assault-probe",
                     **{"c20-unspot-timing": "friendly-movement", "c22-autospot-range": "max-range"})
    state._unspot(movement=False)
    assert by_id(state)["su"].spotted
    state._unspot(movement=True)
    assert not by_id(state)["su"].spotted


# ------------------------------------------------------------------ sequential fire (c2)
def test_c2_sequential_a_target_destroyed_first_draws_no_more_rolls(index):
    """Option c2 'sequential': the second M-1 platoon's KP at the T-80 platoon the first one destroyed is not
    rolled, nor the HE of a third at it (no attack on an eliminated unit)."""
    units = [u("a", "us-m1-platoon", "us", "B1010", spotted=True), u("b", "us-m1-platoon", "us", "B1013",
                                                                     spotted=True),
             u("c", "us-m1-platoon", "us", "B0812", spotted=True),
             u("su", "su-t80-platoon", "soviet", "B1012", facing=0, spotted=True)]
    state = state_of(index, units, "us-fire", dice=[1] * 8 + [10] * 10, **{"c2-fire-resolution": "sequential"})
    state.play("fire a KP su")
    state.play("fire b KP su")
    state.play("fire c HE su")
    state.play("end")
    state.play("end")
    assert "su" not in by_id(state)
    assert rolls(state, "a>su") and not rolls(state, "b>su") and not rolls(state, "CRT su")


# ------------------------------------------------------------------ hexsides (13.B.2, 7.F)
def test_the_hexside_toward_a_neighbour_is_its_direction_and_a_vertex_line_crosses_two():
    """The line to an adjacent hex leaves through that hexside (direction k); a line through a vertex (to
    (1, 1): between directions 2 and 3) crosses the two hexsides either side of it."""
    for a in ((0, 0), (3, -2), (-4, 5)):
        for k, d in enumerate(coords.DIRECTIONS):
            assert _hexsides_towards(a, (a[0] + d[0], a[1] + d[1])) == (k,)
            far = (a[0] + 3 * d[0], a[1] + 3 * d[1])
            assert _hexsides_towards(a, far) == (k,)
    assert sorted(_hexsides_towards((0, 0), (1, 1))) == [2, 3]
    assert sorted(_hexsides_towards((0, 0), (-1, -1))) == [0, 5]


# ------------------------------------------------------------------ observations (hidden information)
def test_an_observation_never_records_narration(index):
    """The narration contract: observations are for bots, whose dice never record (nothing is narrated)."""
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "us-move-1")
    state.dice.record = True
    view = state.observation(1)
    assert view.dice.record is False and view.events == []


# ------------------------------------------------------------------ passengers' losses (8.E, 24.E)
def test_a_passengers_lost_step_counts_for_victory(index):
    """8.E: a full-strength carrier destroyed costs its passenger a step: both are steps lost for the destroyed-
    step victory points (24.E)."""
    units = [u("apc", "us-m113-platoon", "us", "B1010", passengers=["inf"]),
             u("inf", "us-mech-infantry-platoon", "us", "B1010"), FAR]
    state = state_of(index, units, "soviet-fire")
    state._apply_result(by_id(state)["apc"], "E")
    assert by_id(state)["inf"].steps == 1 and state.lost_steps[1] == 2 + 1


# ------------------------------------------------------------------ who sees for a TOC's OPs (4.C.1)
def test_a_tocs_ops_are_seen_from_the_toc_not_from_its_battalion_hq(index):
    """4.C.1: a TOC's OPs cost 1 when the unit is visible to the TOC itself (its battalion HQ, out of sight, does
    not matter): 1C1 moving in combat formation beside TOC1 pays 1 of TOC1's 3."""
    units = [u("p", "us-m1-platoon", "us", "A0120", designation="1C1"),
             u("toc", "us-toc", "us", "A0121", designation="TOC1"),
             u("hq", "us-hq", "us", "B2220", designation="HQ1"), u("su", "su-t80-platoon", "soviet", "B2201")]
    state = state_of(index, units, "us-move-1", scenario="assault-probe", extension={"ops": {"us": {"TOC1": 3}}})
    game = state.game
    assert not state.has_los(game.map.hex("B2220"), game.map.hex("A0120"))
    move = next(a for a in state.legal_actions() if a.startswith("move p "))
    state.play(move)
    assert state.ops[1]["TOC1"] == 2


# ------------------------------------------------------------------ battle drill (4.D.2)
def drill_company(**t1):
    return [u("t1", "su-t80-platoon", "soviet", "A0120", designation="A1", **t1),
            u("t2", "su-t80-platoon", "soviet", "A0320", designation="A1"),
            u("hq", "su-hq", "soviet", "A0119", designation="HQ1"),
            u("us", "us-m1-platoon", "us", "A0920", spotted=True)]


def test_a_suppressed_tank_still_drills_toward_a_spotted_enemy(index):
    """11.A.1: suppression keeps personnel from moving toward a spotted enemy, not AFVs: a company of T-80s with
    one platoon suppressed may still drill east toward the spotted M-1."""
    state = state_of(index, drill_company(suppressed=True), "soviet-move-1", scenario="assault-probe",
                     extension={"ops": {"soviet": {"HQ1": 3}}})
    assert "drill A1 2" in state.legal_actions()


def test_a_drill_paid_by_an_executing_toc_lowers_its_track(index):
    """6.A.3: OPs an executing TOC spends come off its planning track, for a drill order too (4.D.2): company A1
    obeys HQ1, then regiment 91 (the Probe's battalion mapping), whose TOC executes a track of 4."""
    units = drill_company()[:2] + [u("toc", "su-toc", "soviet", "A0119", designation="TOC91", toc_bank=4),
                                   u("hq", "su-hq", "soviet", "A0219", designation="HQ91"),
                                   u("us", "us-m1-platoon", "us", "A0920", spotted=True)]
    state = state_of(index, units, "soviet-move-1", scenario="assault-probe", extension={"ops": {"soviet": {"TOC91": 2}}})
    assert "toc toc execute" in state.legal_actions()
    state.play("toc toc execute")
    toc = by_id(state)["toc"]
    assert toc.toc_bank == 4 and state.ops[0]["TOC91"] == 4
    state.play("drill A1 2")
    assert toc.toc_bank == state.ops[0]["TOC91"] < 4


# ------------------------------------------------------------------ a new phase (2, ESoP)
@pytest.mark.parametrize("phase, after, actor", [("soviet-move-2", "us-move-1", 1), ("us-move-1", "us-fire", 1),
                                                 ("soviet-move-1", "soviet-fire", 0), ("us-move-2", "artillery", 0)])
def test_a_new_phase_clears_what_lasts_a_phase(index, phase, after, actor):
    """2, 7, 12.D, 15, 17.B: movement points, moves, fires (and opportunity fires), failed entries, rallies,
    formation changes, orders paid, road use, facing changes, climbs, spotting attempts, drills and the
    opportunity sightings last one phase; a new turn follows the U.S. second movement phase; in a fire phase the
    phasing player declares first."""
    units = [u("a", "us-m1-platoon", "us", "A0120", company="K"), u("b", "su-t80-platoon", "soviet", "A2220")]
    state = state_of(index, units, phase, scenario="assault-probe", turn=2)
    for c in state.counters:
        c.moved, c.mp_used, c.fired, c.failed, c.rally_tried = True, 3, {"KP": 1}, (c.hex,), True
        c.changed, c.opp_fired, c.seen_start, c.seen_run, c.paid = True, {"KP": 1}, ("x",), {"x": 2}, True
        c.road_used = c.refaced = c.climbed = c.spot_tried = True
        c.drill = "A1"
    state.morale["K"].rally_tried = True
    state.passed, state.missile_spotted, state.missile_round = ((1, "a"),), ("a",), True
    state.road_closed, state.dummy_closed = (state.counters[0].hex,), True
    state.play("end")
    assert state.phase_id() == after and state.turn == (3 if after == "artillery" else 2)
    for c in state.counters:
        assert (c.moved, c.mp_used, c.fired, c.failed, c.rally_tried, c.changed, c.opp_fired, c.seen_start,
                c.seen_run, c.paid, c.road_used, c.refaced, c.climbed, c.spot_tried, c.drill) == \
            (False, 0, {}, (), False, False, {}, (), {}, False, False, False, False, False, "")
    assert not state.morale["K"].rally_tried
    assert (state.passed, state.missile_spotted, state.missile_round, state.road_closed, state.dummy_closed) == \
        ((), (), False, (), False)
    assert state.actor == (actor if after.endswith("fire") else 0)


# ------------------------------------------------------------------ clones (the state record contract)
def test_a_clone_is_equal_and_independent(index):
    """A clone has the same fingerprint; changing anything in it (counters and their per-phase records, morale,
    pools, declarations, lists of the state) leaves the original as it was."""
    units = [u("a", "us-m1-platoon", "us", "B1010", company="K", spotted=True),
             u("b", "su-t80-platoon", "soviet", "B1013", spotted=True)]
    state = state_of(index, units, "us-fire", extension={"ops": {"us": {"default": 2}}})
    state.play("fire a KP b")
    before = state.fingerprint()
    other = state.clone()
    assert other.fingerprint() == before
    a = next(c for c in other.counters if c.id == "a")
    a.fired["KP"] = 9
    a.opp_fired["HE"] = 1
    a.seen_run["b"] = 4
    a.steps = 1
    other.morale["K"].lost = 2
    other.ops[1]["default"] = 0
    other.declared.append(other.declared[0])
    other.lost_steps[0] += 1
    other.exited[1] += 1
    other.dummy_pool[0] += 1
    other.dummies_made[1] += 1
    other.missions.append(None)
    other.smoke.append(None)
    other.ammo_used[("a", "x")] = 1
    other.orphan_banks[(1, "TOC1")] = 3
    assert state.fingerprint() == before


# ------------------------------------------------------------------ eliminated HQs and TOCs (4.C.3, 6.B.3)
def test_eliminated_hqs_are_remembered_once_and_tocs_leave_their_track(index):
    """4.C.3: an eliminated HQ (not its HQ transport) may be replaced later: it is remembered once; 6.B.3: an
    eliminated TOC with a planning track leaves it to its unit HQ; one with an empty track leaves nothing."""
    units = [u("hq", "us-hq", "us", "B1010", designation="HQC1"),
             u("hq2", "us-m1-hq", "us", "B1011", designation="HQC1"),
             u("car", "us-m113-hq-transport", "us", "B1012", designation="HQB1"),
             u("toc", "us-toc", "us", "B1013", designation="TOC1", toc_bank=5),
             u("toc2", "us-toc", "us", "B1014", designation="TOC2"), FAR]
    state = state_of(index, units, "soviet-fire")
    for uid in ("hq", "hq2", "car", "toc", "toc2"):
        state._apply_result(by_id(state)[uid], "E")
    assert state.dead_hqs == ((1, "HQC1", "us-hq"),)
    assert state.orphan_banks == {(1, "TOC1"): 5}


# ------------------------------------------------------------------ victory points (24.E)
@pytest.mark.parametrize("levels", [(1, 1), (2, 5), (6, 3)])
def test_victory_points_are_the_scenarios_points_times_the_drawn_multiplier(index, levels):
    """24.E (A131): each side scores its conditions (the Meeting: 1 a destroyed enemy step, 15 for holding all
    of Neustadt with no enemy there) times its drawn level's multiplier; a contested or partly held town scores
    nothing."""
    town = ["B1713", "B1714", "B1813", "B1814"]
    units = [u(f"t{n}", "su-t80-platoon", "soviet", h) for n, h in enumerate(town)]
    units.append(u("m1", "us-m1-platoon", "us", "B0101"))
    ext = {"force_levels": {"soviet": levels[0], "us": levels[1]}}
    state = state_of(index, units, "us-move-2", extension=ext)
    game = state.game
    mult = [game.levels[s][lv - 1].vp_multiplier for s, lv in zip(game.sides, levels)]
    state.lost_steps = [3, 5]                                           # soviet lost 3, U.S. 5
    assert state.outcome().victory_points == [(15 + 5) * mult[0], 3 * mult[1]]
    by_id(state)["m1"].hex = game.map.hex("B1814")                     # contested: nobody holds it
    assert state.outcome().victory_points == [5 * mult[0], 3 * mult[1]]
    state.counters = [c for c in state.counters if c.id not in ("t3", "m1")]   # B1814 empty: not all held
    assert state.outcome().victory_points == [5 * mult[0], 3 * mult[1]]


# ------------------------------------------------------------------ a line through a vertex (13.A.1, c39)
@pytest.mark.parametrize("choice, front", [(None, True), ("target-favour", True), ("firer-favour", False)])
def test_c39_a_line_through_a_vertex_of_the_faced_hexside(index, choice, front):
    """13.B.2, option c39 (default 'target-favour'): a fire line entering exactly through the vertex between the
    faced hexside (march: one) and the next counts as crossing the faced one (front armour), or not
    ('firer-favour': flank)."""
    options = {} if choice is None else {"c39-vertex-boundary": choice}
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "us-move-1", **options)
    t, f = by_id(state)["far"], by_id(state)["m1"]
    t.hex, f.hex, t.formation, t.facing = (5, 5), (6, 6), "march", 2
    assert sorted(_hexsides_towards(t.hex, f.hex)) == [2, 3]
    assert state._front(t, f) is front
    t.facing = 4
    assert not state._front(t, f)


def test_a_drill_needs_ops_when_its_counters_are_in_combat_formation(index):
    """4.D.2, 4.C.2: a combat-formation company with no OPs left anywhere may not drill a step."""
    state = state_of(index, drill_company(), "soviet-move-1", scenario="assault-probe",
                     extension={"ops": {"soviet": {"HQ1": 0}}})
    assert not [a for a in state.legal_actions() if a.startswith("drill A1 ") and a[-1].isdigit()]


def test_default_ops_pay_two_for_a_designated_unit_out_of_sight(index):
    """4.B.4, 4.C.1, option c31 (default 'not-visible'): with only the default OPs, a platoon of C/1 (none of its
    HQs in play) pays 2 for a combat-formation move."""
    units = [u("p", "us-m1-platoon", "us", "A0120", designation="1C1"), u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units, "us-move-1", scenario="assault-probe", extension={"ops": {"us": {"default": 2}}})
    state.play(next(a for a in state.legal_actions() if a.startswith("move p ")))
    assert state.ops[1] == {"default": 0}


def test_a_soviet_firer_observing_for_itself_under_c33_any_observer(index):
    """19.B.3, option c33 'any-observer': the levels count for observers other than the firer, never for the
    firer itself (the 2S1 observing its own target: delay 0)."""
    units = [u("g", "su-2s1-battery", "soviet", "B1016", deployed=True),
             u("us", "us-m1-platoon", "us", "B1015", spotted=True)]
    state = state_of(index, units, "artillery", turn=2, **{"c33-soviet-delay": "any-observer"})
    state.actor = 0
    state.play("plot g B1015 HE")
    assert [m.arrival for m in state.missions if m.firer == "g"] == [2]


def test_a_stack_ordered_into_march_leaves_cover(index):
    """7.C, 7.G: cover is for combat formation only: a stack in cover ordered to march formation leaves it."""
    units = [u("a", "us-m1-platoon", "us", "A0120", designation="1C1", cover=True),
             u("b", "us-m1-platoon", "us", "A0120", designation="2C1", cover=True),
             u("hq", "us-hq", "us", "A0120", designation="HQC1"), u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units, "us-move-1", scenario="assault-probe", extension={"ops": {"us": {"HQC1": 3}}})
    assert "stack a march" in state.legal_actions()
    state.play("stack a march")
    assert all((c.formation, c.cover) == ("march", False) for c in state.counters if c.id in ("a", "b"))


def test_a_new_games_counters_are_entrenched_only_where_the_scenario_says(index):
    """18: only set-up states mark counters entrenched (none in the sample scenarios); the rest start outside."""
    for scenario in ("assault-meeting", "assault-probe"):
        state = create_game(index.model("scenario", scenario), index,
                            {o.id: o.default for o in index.model("ruleset", "assault").options}).new_initial_state(2)
        assert state.counters and not any(c.entrenched for c in state.counters)
