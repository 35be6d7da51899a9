"""Game rules a mutation run of the engine found untested (COVERAGE.md, Measurements): set-up states (19.E,
24), the Soviet regiment of a battalion (4.B.2), dummies at set-up (10.F), rooftop fire (12.B.2), own-turn fire
after moving (12.B.4, option c43), moving toward a spotted enemy (17.A.2, option c37), hex lines (10.B), direct
fire after a mission (19.E) and the missile firer's spotting (ESoP fire phase 1-2, 10.D), through positions,
legal actions and play."""
from dataclasses import replace
from pathlib import Path

import pytest

from studio.hexgrid import coords
from studio.model.position import Position
from studio.rulesets.assault.engine import spotting
from studio.rulesets.assault.engine.game import AssaultState, create_game

REPO = Path(__file__).resolve().parents[3]
PAID = {"c31-offboard-ops-visibility": "visible"}


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


def defaults(index) -> dict:
    return {o.id: o.default for o in index.model("ruleset", "assault").options}


def game_of(index, scenario="assault-probe", **options):
    return create_game(index.model("scenario", scenario), index, defaults(index) | options)


def state_of(index, units, phase, dice=(), extension=None, scenario="assault-probe", **options):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario,
                                   "phase": phase, "units": units, "extension": extension or {}})
    state = game_of(index, scenario, **options).state_from_position(pos)
    state.dice.force(*dice)
    return state


def u(uid, card, side, hexlabel, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


def fires(state, uid) -> list[str]:
    return [a for a in state.legal_actions() if a.startswith(f"fire {uid} ")]


def play_until(state, phase) -> None:
    while state.phase_id() != phase:
        state.play("end")


FAR = u("far", "su-t80-platoon", "soviet", "B2220")


# ------------------------------------------------------------------ set-up states (19.E, 24)
def test_set_up_deployment_only_for_indirect_fire_units(index):
    """19.E, scenario counter states: the Probe's battalion mortars start deployed; a state 'deployed' on a
    tank platoon (an M-1 of C/1 here) deploys nothing, and the other counters start undeployed."""
    game = game_of(index)
    counters = [c for level in range(1, 7) for c in game.initial_counters([1, level]) if c.side == 1]
    mortars = {c.id for c in counters if c.card == "us-m125-mortar"}
    assert mortars and all(c.deployed for c in counters if c.id in mortars)
    assert not any(c.deployed for c in counters if c.id not in mortars)
    scenario = index.model("scenario", "assault-probe").model_copy(deep=True)
    states = scenario.extension.counters
    states["us-c1/plt-1"] = states["us-c1/plt-1"].model_copy(update={"deployed": True})
    states["us-bn1/mortar-2"] = states["us-bn1/mortar-2"].model_copy(update={"deployed": False})
    edited = create_game(scenario, index, defaults(index))
    counters = {c.id: c for level in range(1, 7) for c in edited.initial_counters([1, level]) if c.side == 1}
    tank = next(c for c in counters.values() if c.card == "us-m1-platoon" and c.cover)     # us-c1/plt-1
    assert not tank.deployed
    assert sorted(c.deployed for c in counters.values() if c.card == "us-m125-mortar") == [False, True]


# ------------------------------------------------------------------ the regiment of a battalion (4.B.2)
def test_a_soviet_platoon_obeys_its_regiment_through_the_battalion_mapping(index):
    """4.B.2, 3.C: the Meeting maps the 3rd battalion to regiment 91, so HQ91's OPs pay for C3's combat-formation
    move; the 2nd battalion has no regiment in the mapping: HQ91 cannot pay for C2."""
    units = [u("c3", "su-motor-rifle-platoon", "soviet", "B1010", designation="C3"),
             u("c2", "su-motor-rifle-platoon", "soviet", "B1012", designation="C2"),
             u("hq", "su-hq", "soviet", "B1011", designation="HQ91"), u("m1", "us-m1-platoon", "us", "B0101")]
    state = state_of(index, units, "soviet-move-1", scenario="assault-meeting",
                     extension={"ops": {"soviet": {"HQ91": 4}}})
    legal = state.legal_actions()
    assert any(a.startswith("move c3 ") for a in legal)
    assert not any(a.startswith("move c2 ") for a in legal)


# ------------------------------------------------------------------ dummies at set-up (10.F)
def test_set_up_dummies_are_numbered_from_one_and_none_wait_to_return(index):
    """10.F: the Meeting's two dummies a side are all placed at set-up (numbered from 1 per side), so no removed
    dummy is waiting to return at either side's first movement phase."""
    state = game_of(index, "assault-meeting").new_initial_state(3)
    ids = sorted(c.id for c in state.counters if c.dummy)
    assert ids == ["soviet-dummy-1", "soviet-dummy-2", "us-dummy-1", "us-dummy-2"]
    for phase in ("soviet-move-1", "us-move-1"):
        play_until(state, phase)
        assert not any(a.startswith("dummy ") for a in state.legal_actions())


def test_a_removed_set_up_dummy_may_return(index):
    """10.F: once a set-up dummy is found out it goes to the pool and may return at the next friendly movement
    phase (exactly one, the one removed)."""
    state = game_of(index, "assault-meeting").new_initial_state(3)
    play_until(state, "us-move-1")
    dummy = next(c for c in state.counters if c.dummy and c.side == 0)
    dummy.spotted = True
    state._purge_dummies()
    play_until(state, "soviet-move-1")
    legal = [a for a in state.legal_actions() if a.startswith("dummy ")]
    assert legal
    state.play(legal[0])
    assert not any(a.startswith("dummy ") for a in state.legal_actions())


# ------------------------------------------------------------------ rooftops (12.B.2)
def test_a_plain_fire_from_a_town_stays_at_ground_level(index):
    """12.B.2: only a fire declared 'roof' lifts the firer: infantry in town A1111 firing at a unit it sees at
    ground level stays unseen from A1209, which sees only the rooftops."""
    units = [u("inf", "us-mech-infantry-platoon", "us", "A1111", spotted=True),
             u("su", "su-t80-platoon", "soviet", "A1209", spotted=True),
             u("near", "su-motor-rifle-platoon", "soviet", "A1112", spotted=True)]
    state = state_of(index, units, "us-fire")
    plain = [a for a in fires(state, "inf") if a.endswith(" near")]
    assert plain and not [a for a in fires(state, "inf") if a.endswith(" near roof")]   # seen from the ground
    state.play(plain[0])
    assert not by_id(state)["inf"].roof
    state.play("end")
    assert not any(a.startswith("fire su ") and a.endswith(" inf") for a in state.legal_actions())


# ------------------------------------------------------------------ own-turn fire after moving (12.B.4, c43)
def test_a_unit_that_moved_first_last_turn_fires_again_this_turn(index):
    """12.B.4: the bar on firing after moving in the first movement phase lasts for that player turn only."""
    units = [u("m1", "us-m1-platoon", "us", "A0120", moved_first=True),
             u("su", "su-t80-platoon", "soviet", "A0520", spotted=True)]
    state = state_of(index, units, "us-move-2")
    play_until(state, "us-move-1")
    assert state.turn == 2
    play_until(state, "us-fire")
    by_id(state)["su"].spotted = True
    assert fires(state, "m1")


@pytest.mark.parametrize("choice, may_fire", [(None, False), ("any-movement", False), ("hex-change", True)])
def test_c43_a_formation_change_counts_as_moving(index, choice, may_fire):
    """Option c43 (default 'any-movement'): a formation change in the first movement phase counts as moving for
    own-turn fire (12.B.4); under 'hex-change' only leaving the hex does."""
    options = PAID | ({} if choice is None else {"c43-moved": choice})
    units = [u("m1", "us-m1-platoon", "us", "A0120", formation="march"),
             u("su", "su-t80-platoon", "soviet", "A0520", spotted=True)]
    state = state_of(index, units, "us-move-1", **options)
    state.play("form m1 combat")
    play_until(state, "us-fire")
    assert bool(fires(state, "m1")) is may_fire


def test_c43_a_formation_change_in_the_second_phase_does_not_bar_next_turns_fire(index):
    units = [u("m1", "us-m1-platoon", "us", "A0120", formation="march"),
             u("su", "su-t80-platoon", "soviet", "A0520", spotted=True)]
    state = state_of(index, units, "us-move-2", **PAID, **{"c43-moved": "hex-change"})
    state.play("form m1 combat")
    assert not by_id(state)["m1"].moved_first


# ------------------------------------------------------------------ moving toward a spotted enemy (17.A.2, c37)
# A shaken company's platoon at A1010 with two spotted enemies: the nearest at A1012, the other at A0610; moving
# to A0910 gets closer to A0610 only.
@pytest.mark.parametrize("choice, allowed", [(None, False), ("any-closer", False), ("nearest-closer", True)])
def test_c37_a_shaken_unit_moves_closer_to_a_farther_enemy_only_under_nearest_closer(index, choice, allowed):
    """17.A.2, option c37 (default 'any-closer'): a shaken unit may not move closer to any spotted enemy, or
    (nearest-closer) to the nearest one only."""
    options = PAID | ({} if choice is None else {"c37-toward": choice})
    units = [u("p", "us-m1-platoon", "us", "A1010", company="K", formation="march"),
             u("near", "su-t80-platoon", "soviet", "A1012", spotted=True),
             u("other", "su-t80-platoon", "soviet", "A0610", spotted=True)]
    state = state_of(index, units, "us-move-1", extension={"morale": {"K": {"state": "shaken"}}}, **options)
    game = state.game
    p, near, other = (by_id(state)[k] for k in ("p", "near", "other"))
    target = game.map.hex("A0910")
    assert coords.distance(p.hex, near.hex) < coords.distance(p.hex, other.hex)
    assert coords.distance(target, other.hex) < coords.distance(p.hex, other.hex)
    assert coords.distance(target, near.hex) >= coords.distance(p.hex, near.hex)
    assert ("move p A0910" in state.legal_actions()) is allowed


# ------------------------------------------------------------------ hex lines (10.B)
def test_hex_lines_run_through_adjacent_hexes_on_a_shortest_path():
    """10.B: the hexes a sight line crosses form a shortest path: the i-th hex is i from the start and n - i from
    the end (every target within 12 hexes)."""
    origin = (0, 0)
    for target in coords.within(origin, 12):
        n = coords.distance(origin, target)
        line = AssaultState._line_from_origin(target)
        assert [i for i, _ in line] == list(range(1, n))
        assert all(coords.distance(origin, h) == i and coords.distance(h, target) == n - i for i, h in line)


# ------------------------------------------------------------------ direct fire after a mission (19.E)
def test_a_unit_that_fired_a_mission_does_not_fire_directly(index):
    """19.E: an indirect fire unit that fired a mission this turn may not fire directly. (No sample card has both
    kinds of fire, so the mortar is given the direct-fire rows of an M-2 platoon.)"""
    units = [u("m", "us-m125-mortar", "us", "A0120", deployed=True),
             u("su", "su-motor-rifle-platoon", "soviet", "A0320", spotted=True)]
    state = state_of(index, units, "us-fire")
    game = state.game
    game.cards["us-m125-mortar"] = replace(game.card("us-m125-mortar"), rows=game.card("us-m2-platoon").rows)
    assert fires(state, "m")
    by_id(state)["m"].fired_mission = True
    assert not fires(state, "m")


# ------------------------------------------------------------------ the missile firer's spotting (ESoP fire 1-2)
def missile_duel(**su):
    return [u("su", "su-t80-platoon", "soviet", "A0520", spotted=True, **su),
            u("m901", "us-m901-section", "us", "A0120", cover=True)]


def test_the_missile_firers_spotting_number_adds_the_firing_missiles_modifier(index):
    """10.D: the Soviet attempt at the unspotted M-901 (in cover) that declares its missile adds
    'firing-missiles' (+3): a roll equal to base + terrain + 3 + the T-80's spotter modifier spots it."""
    state = state_of(index, missile_duel(), "soviet-fire")
    game = state.game
    su, m901 = by_id(state)["su"], by_id(state)["m901"]
    terrain = game.terrain_spot["clear"]["vehicle_cover"]                 # A0120 is clear
    number = spotting.base_spotting_number(game.data, coords.distance(su.hex, m901.hex)) + terrain \
        + game.status_mod["firing-missiles"] + game.spotter_mod.get("armored-vehicle", 0)
    assert game.status_mod["firing-missiles"] == 3 and 1 <= number <= 10
    state.dice.force(number)
    state.play("end")
    state.play("fire m901 Msl su")
    assert by_id(state)["m901"].spotted


def test_only_the_enemy_tries_to_spot_the_missile_firer(index):
    """ESoP fire phase 1-2: it is the other player who tries; with the only Soviet spotter suppressed nobody
    does, whatever the roll."""
    state = state_of(index, missile_duel(suppressed=True), "soviet-fire", dice=[1] * 4)
    state.play("end")
    state.play("fire m901 Msl su")
    assert not by_id(state)["m901"].spotted
    assert not any("spotting m901" in str(r) for r in state.dice.history)


# ------------------------------------------------------------------ a new game (2, 24)
@pytest.mark.parametrize("scenario", ["assault-meeting", "assault-probe"])
def test_a_new_game_starts_at_turn_one_with_the_soviet_artillery_plot(index, scenario):
    """2, ESoP: turn 1 opens with the artillery phase, the Soviet player plotting first; nothing is lost, exited,
    declared or under way yet."""
    state = game_of(index, scenario).new_initial_state(4)
    assert (state.turn, state.phase_id(), state.current_player(), state.art_step) == (1, "artillery", 0, "plot")
    assert state.lost_steps == [0, 0] and state.exited == [0, 0] and state.declared == []
    assert not state.assault_step and state.opp_target == "" and state.outcome().victory_points == [0, 0]


# ------------------------------------------------------------------ map edges (24.A-B, 19.F)
@pytest.mark.parametrize("edge, part, pick", [("west", slice(1, 3), min), ("east", slice(1, 3), max),
                                              ("north", slice(3, 5), min), ("south", slice(3, 5), max)])
def test_edge_hexes_are_the_outermost_column_or_row_from_the_middle_outward(index, edge, part, pick):
    """24.B: a force entering by an edge takes the edge's hexes (the outermost column or row of the board), the
    middle ones first; 19.F counts off-board range from that edge (0 on it, 1 next to it)."""
    game = game_of(index, "assault-meeting")
    label = game.map.label_of
    numbers = {h: int(label[h][part]) for h in label}
    outer = pick(numbers.values())
    edge_hexes = game._edge_hexes(edge)
    assert sorted(edge_hexes) == sorted(h for h in label if numbers[h] == outer)
    other = slice(3, 5) if part == slice(1, 3) else slice(1, 3)
    along = sorted(edge_hexes, key=lambda h: label[h][other])
    mid = len(along) // 2
    offsets = [abs(along.index(h) - mid) for h in edge_hexes]
    assert offsets[0] == 0 and offsets == sorted(offsets)
    distance = game.edge_distance(edge)
    assert all(distance[h] == 0 for h in edge_hexes)
    inner = outer + (1 if pick is min else -1)
    assert all(distance[h] == 1 for h in label if numbers[h] == inner)


def test_a_line_along_a_hex_spine_meets_both_flanking_hexes(index):
    """10.B.2, option c21: a line from (0, 0) to (2, 2) runs along the hexside between (1, 0) and (0, 1) at its
    first step and through (1, 1) at its second; every flanking hex is also on a shortest path."""
    state = game_of(index, "assault-meeting").new_initial_state(1)
    steps = state._spine_line((0, 0), (2, 2))
    assert [i for i, _, _ in steps] == [1, 2, 3]
    assert {steps[0][1], steps[0][2]} == {(1, 0), (0, 1)}
    assert steps[1][1] == steps[1][2] == (1, 1)
    moved = state._spine_line((3, 4), (5, 6))                       # the same line anywhere (translation)
    assert [(i, (h[0] - 3, h[1] - 4), (g[0] - 3, g[1] - 4)) for i, h, g in moved] == steps
    for target in coords.within((0, 0), 9):
        n = coords.distance((0, 0), target)
        for i, h, g in state._spine_line((0, 0), target):
            assert all(coords.distance((0, 0), x) == i and coords.distance(x, target) == n - i for x in (h, g))


# ------------------------------------------------------------------ the spotting number (10.D)
@pytest.mark.parametrize("spotter_card, spotter_mod", [("us-mech-infantry-platoon", None),
                                                       ("us-m1-platoon", "armored-vehicle"),
                                                       ("us-m3-section", "recon")])
@pytest.mark.parametrize("moving, moved, fired, missile", [(False, False, False, False), (True, True, False, False),
                                                           (True, False, True, False), (False, True, True, False),
                                                           (False, False, False, True), (True, True, False, True)])
def test_spotting_number_by_range_terrain_and_status(index, spotter_card, spotter_mod, moving, moved, fired, missile):
    """10.D: base number by range (table spotting) + the target's terrain (table terrain-spotting, cover column)
    + moving (only while spotting during movement, and only a unit that moved) + firing missiles + just fired
    (only in the fire phase) + the spotter's status (armoured vehicle, recon vehicle, 0 for infantry)."""
    units = [u("s", spotter_card, "us", "B1010"), u("t", "su-t80-platoon", "soviet", "B1016", cover=True)]
    state = state_of(index, units, "us-move-1", scenario="assault-meeting")
    game = state.game
    s, t = by_id(state)["s"], by_id(state)["t"]
    t.moved, t.fired = moved, ({"KP": 1} if fired else {})
    terrain = game.terrain_of[t.hex]
    cell = game.terrain_spot[terrain]["vehicle_cover"]
    assert isinstance(cell, int)
    base = next(b for r, b in sorted(game.data.spotting) if coords.distance(s.hex, t.hex) <= r)
    expected = base + cell + (game.status_mod["moving"] if moving and moved else 0) \
        + (game.status_mod["firing-missiles"] if missile else 0) + (game.status_mod["just-fired"] if fired and not moving
                                                                     else 0) \
        + (game.spotter_mod[spotter_mod] if spotter_mod else 0)
    assert state._spot_number(s, t, moving, missile) == expected


def test_a_dummy_spots_as_a_non_recon_armoured_vehicle(index):
    """10.F: a dummy spots with the armoured-vehicle modifier, whatever card it imitates."""
    units = [u("s", "us-m3-section", "us", "B1010", dummy=True), u("r", "us-m3-section", "us", "B1010"),
             u("t", "su-t80-platoon", "soviet", "B1016", cover=True)]
    state = state_of(index, units, "us-move-1", scenario="assault-meeting")
    s, r, t = by_id(state)["s"], by_id(state)["r"], by_id(state)["t"]
    mods = state.game.spotter_mod
    assert state._spot_number(s, t, False) - state._spot_number(r, t, False) == mods["armored-vehicle"] - mods["recon"]


# ------------------------------------------------------------------ set-up passengers and cross-attachments (8, 4.C.4)
def test_set_up_passengers_ride_their_carrier_and_attachments_obey_the_receiving_hq(index):
    """8, d.28: the Probe's B/1 infantry platoons start under the counters designated 1B1 and 2B1 that have a
    transport circle (in their hex); 4.C.4, 17.A: the section 2S1 cross-attached at set-up obeys HQB1 and checks
    morale with company B1."""
    game = game_of(index)
    found_rider = found_attached = False
    for level in range(1, 7):
        counters = game.initial_counters([1, level])
        byid = {c.id: c for c in counters}
        for c in counters:
            if c.carrier:
                t = byid[c.carrier]
                assert game.card(t.card).body.transport != "none" and t.designation in ("1B1", "2B1")
                assert c.hex == t.hex and c.card == "us-mech-infantry-platoon"
                found_rider = True
            if c.designation == "2S1":
                assert (c.attached, c.company) == ("HQB1", "B1")
                found_attached = True
            elif c.side == 1:
                assert c.attached == ""
    assert found_rider and found_attached


@pytest.mark.parametrize("scenario", ["assault-meeting", "assault-probe"])
def test_set_up_dummies_imitate_a_moving_set_up_counter_in_its_hex(index, scenario):
    """10.F: each set-up dummy stands with one of its side's set-up counters (not a static unit, not an
    indirect fire unit, not a carried one) and imitates its card; it has one step, is unspotted and needs no
    orders (its own company)."""
    state = game_of(index, scenario).new_initial_state(6)
    game = state.game
    dummies = [c for c in state.counters if c.dummy]
    assert len(dummies) == sum(game.scenario.extension.dummies.values())
    for d in dummies:
        hosts = [c for c in state.counters if not c.dummy and c.side == d.side and c.hex == d.hex and c.card == d.card
                 and not c.carrier]
        assert hosts and (d.steps, d.spotted, d.company) == (1, False, d.id)
        body = game.card(d.card).body
        assert body.mobility != "S" and body.indirect_fire is None


# ------------------------------------------------------------------ who may fire (12.A-B, 11.A.1, 17.A.2, 6.B.2)
@pytest.mark.parametrize("card, status, may", [
    ("us-m1-platoon", {}, True), ("us-m1-platoon", {"formation": "march"}, False),            # 12.B.3
    ("us-m1-platoon", {"suppressed": True}, True),                                           # 11.A.1: an AFV
    ("us-mech-infantry-platoon", {"suppressed": True}, False),                               # personnel
    ("us-mech-infantry-platoon", {}, True),
    ("us-m1-platoon", {"moved_first": True}, False),                                         # 12.B.4
    ("us-m1-platoon", {"company": "K"}, False),                                               # broken (17.A.2)
])
def test_who_may_fire_in_the_fire_phase(index, card, status, may):
    units = [u("f", card, "us", "B1010", **status), u("su", "su-t80-platoon", "soviet", "B1012", spotted=True)]
    state = state_of(index, units, "us-fire", scenario="assault-meeting",
                     extension={"morale": {"K": {"state": "broken"}}} if status.get("company") == "K" else None)
    assert bool(fires(state, "f")) is may


def test_a_planning_toc_does_not_fire(index):
    """6.B.2: a TOC planning this player turn does not fire. (No sample TOC card has fire rows, so the TOC is
    given the direct-fire rows of an M-2 platoon.)"""
    units = [u("toc", "us-toc", "us", "B1010", designation="TOC1"),
             u("su", "su-t80-platoon", "soviet", "B1012", spotted=True)]
    state = state_of(index, units, "us-fire", scenario="assault-meeting")
    game = state.game
    game.cards["us-toc"] = replace(game.card("us-toc"), rows=game.card("us-m2-platoon").rows)
    assert fires(state, "toc")
    by_id(state)["toc"].toc_mode = "plan"
    assert not fires(state, "toc")
