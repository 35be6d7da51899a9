"""MBT Basic Game rules played from positions (``studio.rules.position``) through the public API: legal actions,
``play``, fingerprints and outcomes. Each test names the rule whose code it would catch breaking."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from studio.hexgrid.coords import neighbour
from studio.hexgrid.lines import hex_line
from studio.rules.position import load_position

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES: dict = {}   # validated scenario games shared by the positions of this module (load_position cache)


def unit(uid, card, side, hex_, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def setup(phase, units, to_act=None, dice=(), options=None, turn=1, scenario="meeting-engagement", **extension):
    pos = {"scenario": scenario, "phase": phase, "turn": turn, "units": units, "dice": list(dice),
           "options": options or {}}
    if to_act:
        pos["to_act"] = to_act
    if extension:
        pos["extension"] = extension
    return load_position(pos, DATA, games=GAMES).state


def play(state, *texts):
    for text in texts:
        state.play(state.game.parse_action(text))
    return state


def legal(state):
    return {str(a) for a in state.legal_actions()}


def verbs(state):
    return {a[0] for a in state.legal_actions()}


def idx(state, name):
    return state.game.uindex[name]


# ---------------------------------------------------------------- movement (MBT 4.5.1.1)
def mover(**extension):
    return setup("move-first", [unit("V", "m1", "us", "2D5", 2, command="MOVE"),
                                unit("E", "t-72a", "sov", "4T1", 5)], "us", **extension)


def test_allowance_terrain_smoke_and_turn_costs():
    """4.5.1.1.1 the Move allowance is the card's cross-country factor; 4.5.1.1.2 clear costs 1 and Brew-Up Smoke
    +1; 4.5.1.1.4 one hexside free per hex, the 2nd pays the Turn value once (+1 in smoke, Q34), the 3rd is free,
    a 4th is not allowed."""
    s = mover(wrecks={"2E5": "brewed-up"})
    g = s.game
    v = idx(s, "V")
    cc = g.units[v].type.cc
    play(s, "move V")
    assert s.mv_left == cc and legal(s) >= {"done V", "fwd V", "rev V", "turn V left", "turn V right"}
    play(s, "fwd V")
    assert s.hex[v] == g.map.hex("2E5") and s.mv_left == cc - 2
    play(s, "turn V right")
    assert s.mv_left == cc - 2 and s.fac[v] == 3
    play(s, "turn V right")
    assert s.mv_left == cc - 4 and s.fac[v] == 4
    play(s, "turn V left")
    assert s.mv_left == cc - 4 and s.fac[v] == 3
    assert "turn V left" not in legal(s) and "turn V right" not in legal(s)
    assert s.mk[v] == 2                                   # Spot/Move at once (4.5.1.1.8)


def test_brew_up_turn_cost_entry_only():
    s = setup("move-first", [unit("V", "m1", "us", "2D5", 2, command="MOVE"), unit("E", "t-72a", "sov", "4T1", 5)],
              "us", options={"brew-up-turn-cost": "entry"}, wrecks={"2E5": "brewed-up"})
    cc = s.game.units[idx(s, "V")].type.cc
    play(s, "move V", "fwd V", "turn V right", "turn V right")
    assert s.mv_left == cc - 3                            # entry +1, the paid turn without the smoke


def test_slope_and_reverse_costs():
    """4.5.1.1.2 up one level over a slope +1; 4.5.1.1.7 in reverse twice the terrain (option reverse-cost)."""
    s = mover()
    cc = s.game.units[idx(s, "V")].type.cc
    play(s, "move V", "fwd V", "turn V right", "turn V right", "fwd V")
    assert s.mv_left == cc - 1 - 1 - 2                   # clear, paid turn, clear + 1 level
    for option, cost in (("terrain", 3), ("all", 4)):
        r = setup("move-first", [unit("V", "m1", "us", "2E5", 1, command="MOVE"),
                                 unit("E", "t-72a", "sov", "4T1", 5)], "us", options={"reverse-cost": option})
        play(r, "move V", "rev V")
        assert r.mv_left == cc - cost and r.hex[idx(r, "V")] == r.game.map.hex("2D6")


def test_short_halt_and_damaged_allowances():
    """4.5.1.1.1, 3.7: Short Halt half (SB:1 three quarters), damaged half, never below 1 (table msa-fractions)."""
    for status, card, want in (({"command": "SH"}, "m1", 6), ({"command": "MOVE", "damaged": True}, "m1", 4),
                               ({"command": "SH", "damaged": True}, "m1", 2), ({"command": "SH"}, "t-72a", 3)):
        s = setup("move-first", [unit("V", card, "us", "2D5", 2, **status), unit("E", "t-72a", "sov", "4T1", 5)],
                  "us")
        play(s, "move V")
        assert s.mv_left == want, status


def test_no_move_move_and_done():
    """4.5.1.1.8: a Move vehicle may stay; it is still moving (Spot/Move) and the move ends with 'done'."""
    s = setup("move-first", [unit("V", "m1", "us", "2D5", 2, command="MOVE"),
                             unit("W", "m1", "us", "2A1", 2, command="MOVE"), unit("E", "t-72a", "sov", "4T1", 5)], "us")
    v = idx(s, "V")
    assert legal(s) == {"move V", "move W"}
    play(s, "move V", "done V")
    assert s.moved[v] and s.mk[v] == 2 and s.hex[v] == s.game.map.hex("2D5") and legal(s) == {"move W"}


def test_damaged_mid_move_halves_the_remaining_allowance():
    """4.4.3.2.6, Q27: a vehicle Damaged while moving keeps half of what is left, rounded down (floor 0, or 1 by
    option msa-remaining-floor)."""
    for option, left in (("zero", 0), ("one", 1)):
        s = setup("move-first", [unit("V", "m1ip", "us", "4C4", 1, command="MOVE"),
                                 unit("S", "t-72a", "sov", "4G2", 4, command="OW")], "us", dice=[1],
                  options={"msa-remaining-floor": option})
        play(s, "move V", "fwd V", "pass", "fwd V")
        assert s.mv_left == 1
        play(s, "ow S at V main:APFSDS")
        assert s.dmg[idx(s, "V")] and s.mv_left == left


def test_overwatch_after_every_hex_and_turn():
    """4.5, 4.4.2: the other side may fire Overwatch after every hex entered or turn made."""
    s = setup("move-first", [unit("V", "m1ip", "us", "4C4", 1, command="MOVE"),
                             unit("S", "t-72a", "sov", "4G2", 4, command="OW")], "us")
    play(s, "move V", "turn V left")
    assert s.current_player() == 1 and "pass" in legal(s) and any(a.startswith("ow S at V") for a in legal(s))
    play(s, "pass")
    assert s.current_player() == 0 and "done V" in legal(s)


def test_road_rate():
    """4.5.1.1.5: on a road facing along it the vehicle may use the road rate, 1 per hex."""
    g = load_position({"scenario": "meeting-engagement", "units": []}, DATA, games=GAMES).loaded.game
    a, b = next((x, y) for (x, y), t in sorted(g.roads.items()) if t == "road" and g.elev.get(x, 0) == g.elev.get(y, 0))
    d = next(k for k in range(6) if neighbour(a, k) == b)
    s = setup("move-first", [unit("V", "t-80bv", "us", g.label(a), d, command="MOVE"),
                             unit("E", "t-72a", "sov", "4T10", 5)], "us")
    play(s, "move V")
    assert "road V" in legal(s)
    play(s, "road V")
    ut = s.game.units[idx(s, "V")].type
    assert s.mv_left == ut.path                           # no hex yet: a tie, the path rate
    play(s, "fwd V")
    assert s.mv_left == ut.road - 1 and "road V" not in legal(s)   # one road hex: the road rate


# ---------------------------------------------------------------- fire (MBT 4.4)
def duel(dice, m_status=None, options=None, t_card="t-72a", m_card="m1ip", m_facing=0):
    return setup("direct-fire-first", [unit("M", m_card, "us", "2B4", m_facing, **(m_status or {})),
                                       unit("T", t_card, "sov", "2A1", 0, command="FIRE")], "sov", dice=dice,
                 options=options)


def test_hit_roll_at_or_under_the_hit_number():
    """4.4.3.2.3: a roll (100) at or under the hit number hits (68 at net -2, range band P, target moving)."""
    moving = {"command": "MOVE", "revealed": True}
    hit = play(duel([68], moving), "fire T at M main:APFSDS")
    miss = play(duel([69], moving), "fire T at M main:APFSDS")
    m = idx(hit, "M")
    assert hit.dmg[m] and not miss.dmg[m] and miss.st[m] == 1
    assert hit.fired[idx(hit, "T")] and hit.mk[idx(hit, "T")] == 1   # Spot/Fire (4.4.1)


def test_penetration_difference_zero_and_band():
    """4.4.3.2.5-6: penetration 92 against armor 92 is Damaged (Q3); the next band (88) has no effect (Q4)."""
    s = play(duel([1]), "fire T at M main:APFSDS")
    assert s.dmg[idx(s, "M")] and s.st[idx(s, "M")] == 1
    for options in ({"penetration-zero": "no-effect"}, {"penetration-band": "next"}):
        s = play(duel([1], options=options), "fire T at M main:APFSDS")
        assert not s.dmg[idx(s, "M")], options


def test_second_damage_knocks_out_and_leaves_a_wreck():
    """4.4.3.2.6: a Damaged vehicle Damaged again is knocked out; 4.1.4.1.8 it leaves a KO wreck."""
    s = play(duel([1], {"damaged": True}), "fire T at M main:APFSDS")
    m = idx(s, "M")
    assert s.st[m] == 3 and s.wreck[s.game.map.hex("2B4")] == 1 and s.lost == [1, 0]
    assert s.is_terminal() and s.outcome().reason == "a side has no vehicles left"


def test_rear_hit_brews_up_with_smoke():
    """4.4.3.2.4: from behind the rear armor (32) counts: 92 - 32 = 60, Brewed Up: BU wreck and smoke."""
    s = play(duel([1], m_facing=3), "fire T at M main:APFSDS")
    assert s.wreck[s.game.map.hex("2B4")] == 2


def test_owner_chooses_along_the_divide_takes_the_higher_armor():
    """4.4.3.2.4: along the front/rear divide the owner chooses the aspect: the higher armor (front 92)."""
    s = setup("direct-fire-first", [unit("M", "m1ip", "us", "2B4", 0),
                                    unit("T", "t-72a", "sov", "2D4", 0, command="FIRE")], "sov", dice=[1])
    play(s, "fire T at M main:APFSDS")
    assert s.dmg[idx(s, "M")] and s.st[idx(s, "M")] == 1     # 92 - 92 = 0: Damaged, not the rear's 60


def test_reveal_or_conceal_a_moving_target():
    """4.4.3.2.2: a target with an unrevealed Move command: its owner reveals (-2 target moving) or conceals."""
    for choice, hit in (("reveal", False), ("conceal", True)):
        s = duel([70], {"command": "MOVE"})
        play(s, "fire T at M main:APFSDS")
        assert legal(s) == {"reveal M", "conceal M"} and s.current_player() == 0
        play(s, f"{choice} M")
        assert s.dmg[idx(s, "M")] is hit, choice      # 70: hits at net 0 (84), misses at -2 (68)


def test_fire_command_must_fire_and_each_vehicle_fires_once():
    """4.4.1: a Fire vehicle announces a shot; after firing it is done for the turn."""
    s = setup("direct-fire-first", [unit("M", "m1ip", "us", "2B4", 0), unit("T", "t-72a", "sov", "2A1", 0, command="FIRE"),
                                    unit("U", "t-72a", "sov", "2A2", 0, command="FIRE")], "sov", dice=[100, 100])
    assert verbs(s) == {"fire"} and {a[1] for a in s.legal_actions()} == {"T", "U"}
    play(s, "fire T at M main:APFSDS")
    assert {a[1] for a in s.legal_actions()} == {"U"}


# ---------------------------------------------------------------- overwatch (MBT 4.4.2)
FIRED = {"command": "FIRE", "fired": True, "revealed": True, "mark": "spot-fire"}


def test_overwatch_modifiers_inside_and_outside_the_arc():
    """4.4.3.2.2: Overwatch -1 inside the front arc (ow-arc), Overwatch Adjust -3 outside."""
    for option, hits in (("60", (False, False)), ("120", (True, False)), ("180", (True, True))):
        s = setup("overwatch", [unit("S1", "m1", "us", "2A2", 0, command="OW"),
                                unit("S2", "m1", "us", "2A3", 0, command="OW"),
                                unit("A", "t-72a", "sov", "2D1", 5, **FIRED),
                                unit("B", "t-72a", "sov", "2E2", 5, **FIRED)], "us", dice=[76, 76],
                  options={"ow-arc": int(option)})
        play(s, "ow S1 at A main:APFSDS", "ow S2 at B main:APFSDS")
        assert (s.st[idx(s, "A")] == 3, s.st[idx(s, "B")] == 3) == hits, option


def test_overwatch_alternates_and_shooters_become_triggers():
    """4.4.2 (Q12): after an overwatch shot the other side may answer (alternate); the shooter is a trigger."""
    s = setup("overwatch", [unit("F", "m1", "us", "2A1", 0, **FIRED), unit("O1", "m1", "us", "2A2", 0, command="OW"),
                            unit("O2", "m1", "us", "2A3", 0, command="OW"), unit("X", "t-72a", "sov", "2D1", 5, **FIRED),
                            unit("Y", "t-72a", "sov", "2E2", 5, command="OW")], "us", dice=[100])
    assert s.current_player() == 0 and {"ow O1 at X main:APFSDS", "ow O2 at X main:APFSDS", "pass"} <= legal(s)
    play(s, "ow O1 at X main:APFSDS")
    assert s.current_player() == 1 and any(a.startswith("ow Y at O1") for a in legal(s))
    first = setup("overwatch", [unit("F", "m1", "us", "2A1", 0, **FIRED), unit("O1", "m1", "us", "2A2", 0, command="OW"),
                                unit("O2", "m1", "us", "2A3", 0, command="OW"),
                                unit("X", "t-72a", "sov", "2D1", 5, **FIRED),
                                unit("Y", "t-72a", "sov", "2E2", 5, command="OW")], "us", dice=[100],
                  options={"overwatch-order": "first-player"})
    play(first, "ow O1 at X main:APFSDS")
    assert first.current_player() == 0


def test_passing_twice_closes_combat_overwatch():
    s = setup("overwatch", [unit("O", "m1", "us", "2A2", 0, command="OW"), unit("X", "t-72a", "sov", "2D1", 5, **FIRED)],
              "us")
    play(s, "pass")
    assert s.phase_id().startswith("move") or s.phase_id() == "command"


# ---------------------------------------------------------------- commands, initiative, adjustment
def test_initiative_ties_and_winner():
    """4.3.1: ties are rerolled (or the previous First Player keeps it); the winner chooses First or Second."""
    units = [unit("A", "m1", "us", "2A1", 0), unit("B", "t-72a", "sov", "2B4", 0, command="NC")]
    s = play(setup("command", units, dice=[50, 50, 30, 80], turn=2), "command A NC")
    assert s.phase_id() == "initiative" and s.current_player() == 1 and s.init_rolls == (30, 80)
    play(s, "initiative second")
    assert s.first == 0
    s = play(setup("command", units, dice=[50, 50], turn=2, options={"initiative-ties": "previous-first"}),
             "command A NC")
    assert s.current_player() == 0
    s = play(setup("command", units, dice=[80, 30], options={"initiative-winner": "first"}), "command A NC")
    assert s.first == 0 and s.phase_id() != "initiative"


def test_adjustment_spot_counters_and_end_of_turn():
    """4.6.1: an unexecuted Fire command leaves Spot/Fire, an unexecuted Move Spot/Move; commands are removed;
    4.6.2 the next turn starts with the Command Phase."""
    s = setup("adjustment", [unit("F", "m1", "us", "2A1", 0, command="FIRE"), unit("M", "m1", "us", "2A3", 0, command="MOVE"),
                             unit("N", "m1", "us", "2A5", 0, command="NC"), unit("T", "t-72a", "sov", "2E2", 5)])
    assert s.turn == 2 and s.phase_id() == "command"
    assert [s.mk[idx(s, n)] for n in ("F", "M", "N")] == [1, 2, 0] and not any(s.cmd)


def test_last_turn_ends_the_game_with_victory_points():
    """4.6.2: after the last turn the game is over; destroy_units scores the enemy's losses."""
    s = setup("adjustment", [unit("F", "m1", "us", "2A1", 0), unit("T", "t-72a", "sov", "2E2", 5)], turn=10)
    assert s.is_terminal() and not s.legal_actions()
    out = s.outcome()
    assert out.reason == "victory points" and out.turn == 10


def test_objective_held_for_a_turn_is_controlled():
    """3.6: a friendly armed vehicle in an objective hex at the start and the end of a turn captures it."""
    g = load_position({"scenario": "meeting-engagement", "units": []}, DATA, games=GAMES).loaded.game
    objective = g.label(g.objectives[0])
    s = setup("spotting", [unit("F", "m1", "us", objective, 0), unit("T", "t-72a", "sov", "4T10", 5)])
    for _ in range(40):
        if s.turn > 1:
            break
        s.play(min(s.legal_actions(), key=lambda a: (a[0] != "pass", a[0] != "done", a[0] != "command" or a[2] != "NC")))
    assert s.control.get(g.objectives[0]) == 0


def test_target_moving_modifier_needs_a_revealed_move_or_short_halt():
    """4.4.3.2.2: Target moving applies to a revealed Move/Short Halt command only, not to a revealed Fire."""
    fired = play(duel([69], {"command": "FIRE", "revealed": True}), "fire T at M main:APFSDS")
    assert fired.dmg[idx(fired, "M")]                     # net 0: 84, the roll 69 hits


def test_conceal_is_asked_again_for_the_next_shot():
    """4.4.3.2.2: the owner decides for each shot at an unrevealed Move/Short Halt target."""
    s = setup("direct-fire-first", [unit("M", "m1ip", "us", "2B4", 0, command="MOVE"),
                                    unit("T", "t-72a", "sov", "2A1", 0, command="FIRE"),
                                    unit("U", "t-72a", "sov", "2A2", 0, command="FIRE")], "sov", dice=[100, 100])
    play(s, "fire T at M main:APFSDS", "fire U at M main:APFSDS")
    assert legal(s) == {"reveal M", "conceal M"}
    play(s, "conceal M")
    assert legal(s) == {"reveal M", "conceal M"}        # the second shot asks again
    play(s, "reveal M")
    assert s.rev[idx(s, "M")]


def test_short_halt_and_damaged_shooter_modifiers():
    """4.4.3.2.2: a Short Halt shooter takes the modifier of its stabilization (SB), a damaged shooter -3; the roll
    at the resulting hit number hits, one more misses (range band P, target size 0, in the open)."""
    probe = duel([1])
    g = probe.game
    sb = g.units[idx(probe, "T")].type.sb
    am = g.tables.ap_mod
    for status, net in (({"command": "SH"}, am[f"short-halt-sb{sb}"]),
                        ({"command": "FIRE", "damaged": True}, am["shooter-damaged"])):
        number = g.tables.ap_hit[(net, "P")]
        assert number < g.tables.ap_hit[(0, "P")]
        for roll, hit in ((number, True), (number + 1, False)):
            s = setup("direct-fire-first", [unit("M", "m1ip", "us", "2B4", 0),
                                            unit("T", "t-72a", "sov", "2A1", 0, **status)], "sov", dice=[roll])
            play(s, "fire T at M main:APFSDS")
            assert s.dmg[idx(s, "M")] is hit, (status, roll)


def test_hit_number_clamped_at_the_table_floor():
    """4.4.3.2.3: the net modifier never goes below -10 (damaged, Short Halt SB 0, target moving in woods...)."""
    s = setup("direct-fire-first", [unit("M", "m1ip", "us", "2B4", 0, command="MOVE", revealed=True),
                                    unit("T", "t-72a", "sov", "2A1", 0, command="SH", damaged=True)], "sov")
    t, m = idx(s, "T"), idx(s, "M")
    row = s.game.units[t].type.ap[0]
    net, band = s.hit_modifiers(t, m, row, overwatch=False)
    am = s.game.tables.ap_mod
    sb = s.game.units[t].type.sb
    assert band == "P" and net == am["target-moving"] + am[f"short-halt-sb{sb}"] + am["shooter-damaged"] > -10
    for h in hex_line(s.hex[t], s.hex[m])[1:-1]:            # Brew-Up Smoke on the line: -2 each, clamped
        s.wreck[h] = 2
    assert s.hit_modifiers(t, m, row, overwatch=False)[0] == s.game.tables.ap_clamp[0] == -10


def test_fixed_first_player_skips_the_initiative_roll():
    from studio.model.project import load_project
    from studio.rulesets.mbt.engine.game import create_game

    idx_ = load_project(DATA)
    base = idx_.model("scenario", "meeting-engagement").model_copy(update={"first_player": "sov"})
    g = create_game(base, idx_)
    s = g.new_initial_state(1)
    while s.phase_id() == "command":
        s.play(next(a for a in s.legal_actions() if a[2] == "NC"))
    assert s.first == 1 and s.phase_id() != "initiative" and s.init_rolls == ()


def test_initiative_ties_on_turn_one_are_rerolled_even_under_previous_first():
    units = [unit("A", "m1", "us", "2A1", 0), unit("B", "t-72a", "sov", "2B4", 0, command="NC")]
    s = play(setup("command", units, dice=[50, 50, 30, 80], options={"initiative-ties": "previous-first"}),
             "command A NC")
    assert s.init_rolls == (30, 80) and s.current_player() == 1
    s = setup("command", units, dice=[50, 50], turn=2, options={"initiative-ties": "previous-first"})
    s.first = 1                                            # the Soviet side was First Player last turn
    play(s, "command A NC")
    assert s.current_player() == 1


def test_movement_overwatch_always_alternates():
    """4.4.2: during movement an overwatch shot is answered by the other side whatever overwatch-order says."""
    s = setup("move-first", [unit("V", "m1ip", "us", "4C4", 1, command="MOVE"),
                             unit("O", "m1", "us", "4C5", 1, command="OW"),
                             unit("S", "t-72a", "sov", "4G2", 4, command="OW")], "us", dice=[100],
              options={"overwatch-order": "first-player"})
    play(s, "move V", "fwd V", "ow S at V main:APFSDS")
    assert s.current_player() == 0 and any(a.startswith("ow O at S") for a in legal(s))


def test_wrecks_count_for_stacking_when_the_table_says_so():
    """3.8: wrecks do not count toward over-stacking unless table stacking says so."""
    woods = [unit(f"B{k}", "bmp-2", "sov", "2L12", 0) for k in range(5)]
    s = setup("command", [unit("A", "m1", "us", "2B11", 0)] + woods, wrecks={"2L12": "knocked-out"})
    h = s.game.map.hex("2L12")
    assert not s.overstacked(h)
    s.game.tables = dataclasses.replace(s.game.tables, wrecks_stack=True)   # this position's game only
    assert s.overstacked(h)


def test_entering_from_off_the_map():
    """4.5.1.1.9 (ENGINE_POLICIES entry): a waiting vehicle enters an entry hex facing into the map."""
    from studio.rules.load import load_game

    g = load_game("hasty-defense", DATA).game
    s = g.new_initial_state(3)
    waiting = [i for i, u in enumerate(g.units) if u.entry_turn]
    assert waiting
    i = waiting[0]
    turns = 0
    while not s.is_terminal() and s.st[i] == 0 and turns < 400:
        acts = s.legal_actions()
        pick = next((a for a in acts if a[0] == "command" and a[1] == g.units[i].name and a[2] == "MOVE"), None)
        pick = pick or next((a for a in acts if a[0] == "move" and a[1] == g.units[i].name), None)
        pick = pick or next((a for a in acts if a[0] == "enter" and a[1] == g.units[i].name), None)
        pick = pick or next((a for a in acts if a[0] in ("pass", "done") or (a[0] == "command" and a[2] == "NC")),
                            acts[0])
        s.play(pick)
        turns += 1
    assert s.st[i] == 1 and s.hex[i] in g.units[i].entry_hexes and s.fac[i] == g.units[i].entry_facing


@pytest.mark.parametrize("mark,net", [("none", -2), ("spot-move", 0), ("spot-fire", 1)])
def test_spot_counters_extend_the_spotting_range(mark, net):
    """4.1.3: Spot/Move +2, Spot/Fire +3 on the target's cover modifier (crops: Medium -2), clamped at +2."""
    s = setup("command", [unit("A", "m1", "us", "2A12", 0), unit("T", "t-72a", "sov", "4C14", 0, mark=mark)])
    t = idx(s, "T")
    assert s.spot_range(t) == s.game.tables.spot_range[net]
    assert ("command A FIRE" in legal(s)) is (s.spot_range(t, df=True) >= 22)   # 22 hexes apart


@pytest.mark.parametrize("facing,edge", [(0, "north"), (5, "west"), (4, "west")])
def test_leaving_a_corner_hex_by_the_edge_crossed(facing, edge):
    """4.5.1.1.9: a vehicle leaving the map from a corner hex leaves by the edge it crosses (exit objectives)."""
    s = setup("move-first", [unit("V", "m1", "us", "2A1", facing, command="MOVE"),
                             unit("E", "t-72a", "sov", "4T10", 5)], "us")
    play(s, "move V", "exit V")
    assert s.st[idx(s, "V")] == 2 and s.exits == [(idx(s, "V"), edge)]


def test_each_vehicle_and_each_hex_starts_with_a_free_hexside():
    """4.5.1.1.4: the free hexside and the once-paid Turn cost count per hex entered, and per vehicle."""
    s = setup("move-first", [unit("V", "m1", "us", "2D5", 2, command="MOVE"), unit("W", "m1", "us", "2A1", 2,
                                                                                   command="MOVE"),
                             unit("E", "t-72a", "sov", "4T1", 5)], "us")
    cc = s.game.units[idx(s, "V")].type.cc
    play(s, "move V", "turn V right", "turn V left")           # 2nd hexside paid in 2D5 (clear: 1)
    assert s.mv_left == cc - 1
    play(s, "fwd V")                                           # facing 2 again: into 2E5 (1)
    assert s.mv_left == cc - 2
    play(s, "turn V right", "turn V right")                    # a new hex: free, then paid again
    assert s.mv_left == cc - 3
    play(s, "done V", "move W", "turn W right")                # the next vehicle's first hexside is free
    assert s.mv_left == cc


def test_a_turn_may_spend_exactly_the_rest_of_the_allowance():
    """4.5.1.1.4: turning may use the allowance up but never exceed it."""
    s = setup("move-first", [unit("V", "t-72a", "us", "2D5", 2, command="SH", damaged=True),
                             unit("E", "t-72a", "sov", "4T1", 5)], "us")
    play(s, "move V", "turn V right")
    assert s.mv_left == 1 and "turn V right" in legal(s)       # the Turn cost 1 == what is left
    play(s, "turn V right")
    assert s.mv_left == 0 and "turn V right" in legal(s)       # the 3rd hexside is free
    play(s, "turn V right")
    assert "turn V right" not in legal(s)


def test_passing_through_opposing_vehicles():
    """4.5.1.1.10: a vehicle may enter a hex with opposing vehicles only if it can leave it again."""
    s = setup("move-first", [unit("V", "m1", "us", "2A1", 2, command="MOVE"), unit("E", "t-72a", "sov", "2B2", 5)],
              "us")
    play(s, "move V")
    assert "fwd V" in legal(s)
    play(s, "fwd V")
    assert "done V" not in legal(s) and "fwd V" in legal(s)   # may not end there
    blocked = setup("move-first", [unit("V", "m1", "us", "2A1", 2, command="MOVE"),
                                   unit("E", "t-72a", "sov", "2B2", 5), unit("F", "t-72a", "sov", "2C2", 5)], "us")
    play(blocked, "move V")
    assert "fwd V" not in legal(blocked)                      # the hex beyond holds opposing vehicles too


def test_planning_state_leaves_the_game_untouched():
    s = mover()
    v = idx(s, "V")
    before = s.fingerprint()
    probe = s.planning_state(v)
    assert probe.mv_u == v and probe.mv_left == s.game.units[v].type.cc and s.fingerprint() == before
    play(s, "move V", "fwd V")
    again = s.planning_state(v)
    assert again.mv_left == s.mv_left and again.hex[v] == s.hex[v]


def test_road_rate_chosen_once():
    g = load_position({"scenario": "meeting-engagement", "units": []}, DATA, games=GAMES).loaded.game
    a, b = next((x, y) for (x, y), t in sorted(g.roads.items()) if t == "road" and g.elev.get(x, 0) == g.elev.get(y, 0))
    d = next(k for k in range(6) if neighbour(a, k) == b)
    s = setup("move-first", [unit("V", "t-80bv", "us", g.label(a), d, command="MOVE"),
                             unit("E", "t-72a", "sov", "4T10", 5)], "us")
    play(s, "move V", "road V")
    assert "road V" not in legal(s)
    turned = setup("move-first", [unit("V", "t-80bv", "us", g.label(a), (d + 1) % 6, command="MOVE"),
                                  unit("E", "t-72a", "sov", "4T10", 5)], "us")
    play(turned, "move V")
    assert ("road V" in legal(turned)) is (G_edge(turned, a, (d + 1) % 6) in turned.game.roads)


def G_edge(s, h, f):
    from studio.model.maps import edge_key

    return edge_key(h, neighbour(h, f))
