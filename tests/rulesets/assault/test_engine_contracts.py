"""Rule details a mutation run found untested (COVERAGE.md, Measurements), each through positions or the engine's
public helpers, with its rule."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rules.dice import Dice
from studio.rules.position import PositionError
from studio.rulesets.assault.engine import fire
from studio.rulesets.assault.engine.artillery import downwind, wind
from studio.rulesets.assault.engine.game import Counter, create_game

REPO = Path(__file__).resolve().parents[3]
PAID = {"c31-offboard-ops-visibility": "visible"}


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def game_of(index, scenario="assault-probe", **options):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)


def state_of(index, units, phase, dice=(), extension=None, scenario="assault-probe", **options):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario,
                                   "phase": phase, "units": units, "extension": extension or {}})
    state = game_of(index, scenario, **options).state_from_position(pos)
    state.dice.force(*dice)
    return state


def u(uid, card, side, hexlabel, facing=None, passengers=(), **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status,
            "passengers": list(passengers)}


FAR = u("far", "su-t80-platoon", "soviet", "B2220")


def rolls(state, word):
    return [r for r in state.dice.history if word in str(r)]


# ------------------------------------------------------------------ set-up (Assault 24, 7.F, 17.A.1)
def test_set_up_counters_start_with_no_mps_used_and_face_the_enemy(index):
    """A movement phase starts with no MPs spent (7.B); a counter the scenario gives no state faces the enemy's
    edge: U.S. hexside 5, Soviet 2 (the engine's default, positions.py)."""
    state = game_of(index, "assault-meeting").new_initial_state(2)
    assert all(c.mp_used == 0 for c in state.counters)
    keys = state.game.scenario.extension.counters
    plain = [c for c in state.counters if not c.dummy and not any(k.startswith(c.id.split(".")[0] + "/")
                                                                   for k in keys)]
    assert plain and all(c.facing == (5 if c.side == 1 else 2) for c in plain)


def test_reinforcements_spread_over_the_entry_edge(index):
    """24.B: a force entering by an edge takes its hexes from the middle outward, one counter each."""
    game = game_of(index, "assault-meeting")
    drawn = [6, 6]
    counters = [c for t in range(1, game.max_turns + 1) for c in game.reinforcements(1, drawn[1], t)]
    assert len(counters) > 1 and len({c.hex for c in counters}) == min(len(counters), len(game._edge_hexes("west")))


def test_every_reinforcement_up_to_the_last_turn_has_its_company(index):
    """17.A: companies are known from the start, reinforcements included: the Meeting's Soviet level 2 brings the
    3rd motor-rifle battalion on turn 6, the last turn."""
    game = game_of(index, "assault-meeting")
    late = [c for c in game.all_counters([2, 6]) if c.id.startswith("su-mrb3.")]
    assert late and game.max_turns == 6
    assert not [c for c in game.all_counters([1, 6]) if c.id.startswith("su-mrb3.")]


def test_mechanized_infantry_morale_needs_infantry_and_carriers(index):
    """17.A.1: 12 for a company of infantry and APCs, 10 for infantry alone, 8 for an HQ alone."""
    game = game_of(index)
    def level(*cards):
        counters = [Counter(f"x{i}", card, 1, (0, 0), 2, company="K") for i, card in enumerate(cards)]
        return game.initial_morale(counters)["K"].level
    assert level("us-mech-infantry-platoon", "us-m113-platoon") == game.data.constant("morale-mech-inf")
    assert level("us-mech-infantry-platoon") == game.data.constant("morale-company")
    assert level("us-m113-platoon") == game.data.constant("morale-company")
    assert level("us-hq") == game.data.constant("morale-hq-toc")


def test_the_artillery_phase_has_no_phasing_player(index):
    """Assault 2: both players act in the artillery phase."""
    state = state_of(index, [FAR], "artillery")
    assert state.phasing() == -1
    assert state_of(index, [FAR], "us-move-1").phasing() == 1


# ------------------------------------------------------------------ wind (20.A)
def test_wind_velocity_beyond_the_table_reads_its_last_row(index):
    game = game_of(index)
    game.wind_velocity = [(3, "light"), (6, "moderate"), (8, "strong")]
    dice = Dice(0)
    dice.force(1, 10)
    assert wind(game, dice)[1] == "strong"


def test_downwind_hexside_ties_go_to_the_lower_hexside():
    """A wind from 30 degrees blows to 210, halfway between hexsides 3 (180) and 4 (240): the lower one."""
    assert downwind(30) == 3
    assert downwind(0) == 3 and downwind(90) == 4


# ------------------------------------------------------------------ command (4-6)
def test_off_board_ops_are_granted_beside_the_hqs(index):
    """4.B.3: the scenario's off-board OPs of the turn come with the HQs' own (the Meeting: 1 Soviet OP)."""
    units = [u("hq", "su-hq", "soviet", "B2020", designation="HQ1"), u("m1", "us-m1-platoon", "us", "B0101")]
    state = state_of(index, units, "soviet-move-1", scenario="assault-meeting")
    assert state.ops[0]["off-board"] == 1 and state.ops[0]["HQ1"] == state.ratings[(0, "HQ1")][0]


def test_a_toc_without_a_rating_takes_no_orders(index):
    """6.A: only the TOCs of the scenario's formations (rated, 4.B.2) plan or execute."""
    units = [u("toc", "us-toc", "us", "A0120", designation="TOC5"), u("hq", "us-hq", "us", "A0121", designation="HQ5"),
             FAR]
    state = state_of(index, units, "us-move-1", extension={"ops": {"us": {"TOC5": 3}}})
    assert not any(a.startswith("toc ") for a in state.legal_actions())


def test_c5_both_chains_obeys_its_own_chain_then_the_receiving_one(index):
    units = [u("p", "us-m1-platoon", "us", "A0120", designation="1C1", attached="HQB1"), FAR]
    state = state_of(index, units, "us-move-1", **{"c5-cross-attach-scope": "both-chains"})
    assert state._chain(state._by_id("p")) == ["HQC1", "HQ1", "TOC1", "HQB1", "HQ1", "TOC1"]


def test_A29_a_company_hq_takes_exactly_its_limit(index):
    """4.C.4: a U.S. company HQ takes up to two platoons: the second is allowed, a third is not."""
    units = [u("hq", "us-hq", "us", "A0116", designation="HQB1"),
             u("p1", "us-m1-platoon", "us", "A0117", designation="1C1", attached="HQB1"),
             u("p2", "us-m1-platoon", "us", "A0118", designation="2C1"),
             u("p3", "us-m1-platoon", "us", "A0119", designation="3C1"),
             u("hqc", "us-hq", "us", "A0120", designation="HQC1"), FAR]
    state = state_of(index, units, "us-move-1", extension={"ops": {"us": {"HQC1": 4}}})
    assert "attach p2 HQB1" in state.legal_actions()
    state.play("attach p2 HQB1")
    assert "attach p3 HQB1" not in state.legal_actions()


# ------------------------------------------------------------------ movement (7)
def test_A42_a_leg_roll_equal_to_the_number_enters(index):
    """1.E, 7.E: 'equal to or less' succeeds: woods A0613 needs 8 or less; an 8 enters."""
    state = state_of(index, [u("inf", "us-mech-infantry-platoon", "us", "A0712"), FAR], "us-move-1", dice=[8],
                     **PAID)
    state.play("move inf A0613")
    assert state.game.map.label_of[state._by_id("inf").hex] == "A0613"


def test_A74_a_unit_that_moved_in_the_first_phase_does_not_fire_in_its_fire_phase(index):
    units = [u("m1", "us-m1-platoon", "us", "A0120", formation="march"),
             u("su", "su-t80-platoon", "soviet", "A0720", spotted=True)]
    state = state_of(index, units, "us-move-1")
    state.play("move m1 A0221")
    assert state._by_id("m1").moved_first
    state.play("form m1 combat") if "form m1 combat" in state.legal_actions() else None
    while state.phase_id() != "us-fire":
        state.play("end")
    assert not any(a.startswith("fire m1 ") for a in state.legal_actions())


def test_a_unit_on_the_exit_edge_leaves_with_mps_left(index):
    """24.E: a Soviet T-80 that has moved along the west edge with MPs left still exits."""
    units = [u("t", "su-t80-platoon", "soviet", "A0105", formation="march"), u("m1", "us-m1-platoon", "us", "B2220")]
    state = state_of(index, units, "soviet-move-1")
    state.play("move t A0106")
    assert "exit t" in state.legal_actions()
    state.play("exit t")
    assert state.exited[0] == 2


def test_A102_a_broken_unit_next_to_an_enemy_may_retreat_two_hexes_off(index):
    """17.A.2: away from the nearest spotted enemy; the two-hex rule concerns the other spotted enemies."""
    units = [u("p", "us-m1-platoon", "us", "A0520", company="K"),
             u("su", "su-t80-platoon", "soviet", "A0620", spotted=True)]
    state = state_of(index, units, "us-move-1", extension={"morale": {"K": {"state": "broken"}}})
    moves = [a for a in state.legal_actions() if a.startswith("move p ")]
    assert moves and all(state.game.map.hex(a.split()[2]) != state.game.map.hex("A0620") for a in moves)


def test_passengers_move_with_their_carrier(index):
    """8.C: carried units are in the carrier's hex and count as moved."""
    units = [u("apc", "us-m113-platoon", "us", "A0120", passengers=["inf"], formation="march"),
             u("inf", "us-mech-infantry-platoon", "us", "A0120"), FAR]
    state = state_of(index, units, "us-move-1")
    state.play("move apc A0221")
    inf = state._by_id("inf")
    assert inf.hex == state._by_id("apc").hex and inf.moved and inf.moved_first


def test_a_static_unit_mounts_only_when_neither_moved(index):
    """8.C: a static unit and its carrier must both spend the phase in the hex (here the carrier moved in)."""
    units = [u("gun", "su-d30-battery", "soviet", "A0221"),
             u("btr", "us-m113-platoon", "soviet", "A0120", formation="march"), u("m1", "us-m1-platoon", "us", "B2220")]
    state = state_of(index, units, "soviet-move-1")
    assert not any(a == "mount gun btr" for a in state.legal_actions())     # not in the same hex yet
    state.play("move btr A0221")
    assert "mount gun btr" not in state.legal_actions()


# ------------------------------------------------------------------ spotting (10)
def test_just_fired_counts_in_the_fire_phase_only(index):
    """10.D: the just-fired modifier applies to fire-phase spotting, not to spotting during movement."""
    units = [u("inf", "us-mech-infantry-platoon", "us", "A0120"), u("su", "su-t80-platoon", "soviet", "A0520",
                                                                     cover=True)]
    state = state_of(index, units, "us-move-1")
    inf, su = state.counters
    base = state._spot_number(inf, su, moving=False)
    su.fired = {"KP": 1}
    assert state._spot_number(inf, su, moving=False) == base + state.game.status_mod["just-fired"]
    assert state._spot_number(inf, su, moving=True) == base


def test_a_terrain_missing_from_the_spotting_table_adds_nothing(index):
    units = [u("inf", "us-mech-infantry-platoon", "us", "A0120"), u("su", "su-t80-platoon", "soviet", "A0520",
                                                                     cover=True)]
    state = state_of(index, units, "us-move-1")
    inf, su = state.counters
    base = state._spot_number(inf, su, moving=False)
    mod = state.game.terrain_spot.pop("clear")["vehicle_cover"]
    assert mod != 0 and state._spot_number(inf, su, moving=False) == base - mod   # the clear modifier gone


def test_both_players_spot_the_units_that_fired(index):
    """10.A: at the end of the fire phase each player tries to spot the enemy units that fired."""
    units = [u("m1", "us-m1-platoon", "us", "A0120", cover=True),
             u("su", "su-t80-platoon", "soviet", "A0520", cover=True)]
    state = state_of(index, units, "us-fire", dice=[10] * 12)
    state.counters[0].spotted = state.counters[1].spotted = True
    state.play("fire m1 KP su")
    state.play("end")
    state.play("fire su KP m1")
    for c in state.counters:
        c.spotted = False                                   # (as if unseen when they fired)
    state._resolve_fire()
    assert rolls(state, "spotting m1") and rolls(state, "spotting su")


# ------------------------------------------------------------------ fire and morale (12-17)
def test_c46_a_tocs_step_loss_and_its_morale(index):
    """6.B.3, option c46: by default a TOC's lost step does not lower its company's morale; 'lowers' does."""
    for choice, lost in (("none", 0), ("lowers", 1)):
        units = [u("toc", "us-toc", "us", "A0120", designation="TOC1", company="TOC1"), FAR]
        state = state_of(index, units, "us-move-1", **{"c46-toc-morale-loss": choice})
        state._apply_result(state._by_id("toc"), "H")
        assert state.morale["TOC1"].lost == lost


def test_holding_every_objective_hex_scores_its_points(index):
    """24.E: the Meeting's Neustadt (B1713, B1714, B1813, B1814) held by the Soviets at the end: 15 x 3."""
    units = [u(f"t{n}", "su-t80-platoon", "soviet", h) for n, h in enumerate(("B1713", "B1714", "B1813", "B1814"))]
    units.append(u("m1", "us-m1-platoon", "us", "B0101"))
    state = state_of(index, units, "us-move-2", scenario="assault-meeting",
                     extension={"force_levels": {"soviet": 1, "us": 6}})
    state.turn = state.game.max_turns + 1
    assert state.outcome().victory_points == [45, 0]


def test_odds_without_defence_are_the_fire_itself():
    assert fire.odds(5, 0) == 5 and fire.odds(32, 7) == 4


def test_A93_at_exactly_eight_hexes_the_second_observed_hex_may_be_fired_on(index):
    """15.A: up to 8 hexes from the second consecutive observed hex."""
    units = [u("m1", "us-m1-platoon", "us", "A0120", formation="march", spotted=True),
             u("su", "su-t80-platoon", "soviet", "A0920", cover=True)]
    state = state_of(index, units, "us-move-1")
    m1, su = state._by_id("m1"), state._by_id("su")
    m1.hex = state.game.map.hex("A0120")
    from studio.hexgrid import coords
    d = coords.distance(m1.hex, su.hex)
    assert d == 8
    m1.seen_start, m1.seen_run = (), {"su": 2}
    state.opp_target = "m1"
    assert state._opp_range_ok(su, m1, "KP")
    m1.seen_run = {"su": 1}
    assert not state._opp_range_ok(su, m1, "KP")


# ------------------------------------------------------------------ positions and hidden information
def test_positions_refuse_negative_ops_and_default_a_screen_to_vertex_0(index):
    with pytest.raises(PositionError):
        state_of(index, [FAR], "us-move-1", extension={"ops": {"us": {"default": -1}}})
    state = state_of(index, [FAR], "us-move-1", extension={"smoke": [{"hex": "A0120", "kind": "chemical"}]})
    assert state.smoke[0].vertex == 0


def test_scrambled_states_move_hidden_enemies_and_draw_their_force_level(index):
    state = game_of(index).new_initial_state(5)
    hidden = {c.id: c.hex for c in state.counters if c.side == 0 and not c.spotted}
    moved, levels = False, set()
    for seed in range(20):
        out = state.scramble_hidden(1, seed)
        moved = moved or any(c.hex != hidden[c.id] for c in out.counters if c.id in hidden)
        levels.add(out.force_level[0])
    assert moved and levels == set(range(1, len(state.game.levels["soviet"]) + 1))


def test_smoke_drifts_only_the_turn_after_it_was_placed(index):
    """20.A.4: a drifting chemical screen placed last turn moves downwind at the adjustment; one placed this turn
    stays."""
    state = state_of(index, [FAR], "artillery", extension={"wind": {"direction": "W", "strength": "moderate"}})
    state.turn = 3
    h = state.game.map.hex("A1010")
    from studio.rulesets.assault.engine.artillery import Screen
    state.smoke = [Screen(h, "chemical", 0, 2, 9, True), Screen(h, "chemical", 0, 3, 9, True)]
    state._adjust_smoke()
    placed = sorted((s.placed, state.game.map.label_of[s.hex]) for s in state.smoke)
    assert ("A1010" in [lab for p, lab in placed if p == 3]) and any(lab != "A1010" for _, lab in placed)


def test_a_max_rof_plot_needs_a_multiplier_above_one(index):
    """19.D.1: max ROF multiplies the fire value; a card whose multiplier is 1 offers no 'max' plot."""
    units = [u("m", "us-m125-mortar", "us", "B1010", deployed=True), u("su", "su-t80-platoon", "soviet", "B1012",
                                                                        spotted=True)]
    state = state_of(index, units, "artillery", scenario="assault-meeting")
    state.actor = 1
    assert any(a.endswith(" max") for a in state.legal_actions())
    fire_data = state.game.card("us-m125-mortar").body.indirect_fire
    kept = fire_data.max_rof_multiplier
    object.__setattr__(fire_data, "max_rof_multiplier", 1)
    try:
        assert not any(a.endswith(" max") for a in state.legal_actions())
    finally:
        object.__setattr__(fire_data, "max_rof_multiplier", kept)
