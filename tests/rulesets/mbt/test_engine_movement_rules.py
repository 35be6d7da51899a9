"""MBT movement details (MBT 4.5.1.1) played from positions through the public API: the road/path rate (turning
along the route, height changes, the majority rule, damage mid-move), exits through a map corner and in
reverse, and an allowance spent to the last point. Each test names the rule whose code it would catch breaking;
where the sample boards lack a feature (paths) the test edits the compiled game and clears its caches."""
from __future__ import annotations

from pathlib import Path

from studio.rules.position import load_position

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES: dict = {}


def unit(uid, card, side, hex_, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def setup(units, phase="move-first", to_act="us", dice=(), options=None):
    pos = {"scenario": "meeting-engagement", "phase": phase, "turn": 1, "units": units, "dice": list(dice),
           "options": options or {}, "to_act": to_act}
    return load_position(pos, DATA, games=GAMES).state


def play(state, *texts):
    for text in texts:
        state.play(state.game.parse_action(text))
    return state


def legal(state):
    return {str(a) for a in state.legal_actions()}


def far_enemy():
    return unit("E", "t-72a", "sov", "4T10", 5)


def test_road_rate_turns_only_along_the_route_and_pays_the_second_hexside():
    """4.5.1.1.5: at the road rate a vehicle turns only to face along the road (the sample road zig-zags, so
    each hex needs one turn); 4.5.1.1.4: the first hexside is free, a second one in the same hex pays the Turn
    value, taken from the road allowance."""
    s = setup([unit("V", "m1", "us", "2N8", 2, command="MOVE"), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    play(s, "move V", "road V")
    road = s.msa(v, g.units[v].type.road)
    assert s.mv_left == s.msa(v, g.units[v].type.path)   # no hex yet: Path on a tie
    play(s, "fwd V")                                   # 2O8, facing SE; the road goes on to the NE
    assert s.hex[v] == g.map.hex("2O8") and s.mv_left == road - 1
    assert {a for a in legal(s) if a.startswith("turn")} == {"turn V left"}
    play(s, "turn V left", "fwd V")                    # free hexside, then 2P8
    assert s.hex[v] == g.map.hex("2P8") and s.mv_left == road - 2
    assert {a for a in legal(s) if a.startswith("turn")} == {"turn V right"}
    play(s, "turn V right")                            # free: faces SE along the road
    assert s.mv_left == road - 2
    play(s, "turn V left")                             # back along the road it came by: the 2nd hexside pays
    assert s.mv_left == road - 2 - int(g.turn_cost[s.hex[v]]) and s.mv_spent


def test_road_rate_height_change_costs_the_road_column():
    """4.5.1.1.5, table height-change: at the road rate a level change costs the road column of the table (one
    less than cross-country), on top of 1 per hex."""
    s = setup([unit("V", "m1", "us", "2A8", 1, command="MOVE"), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    a, b = g.map.hex("2A8"), g.map.hex("2B8")
    dl = abs(g.elev[b] - g.elev[a])
    assert dl == 1 and g.tables.height_change[dl][1] != g.tables.height_change[dl][0]
    play(s, "move V", "road V")
    road = s.msa(v, g.units[v].type.road)
    play(s, "fwd V")
    assert s.hex[v] == b
    assert s.mv_left == road - g.tables.movement["road-hex"] - g.tables.height_change[dl][1]


def test_path_rate_when_path_hexes_are_the_majority():
    """4.5.1.1.5: the allowance is the rate of the type with more hexes on the route, Path on a tie: a road
    hex, then path hexes (the sample road made a path beyond 2O8)."""
    s = setup([unit("V", "m1", "us", "2N8", 2, command="MOVE"), far_enemy()])
    g = s.game
    for a, b in (("2O8", "2P8"), ("2P8", "2Q8"), ("2Q8", "2R8")):
        x, y = g.map.hex(a), g.map.hex(b)
        g.roads[(x, y) if x <= y else (y, x)] = "path"
    g.clear_caches()
    v = g.uindex["V"]
    ut = g.units[v].type
    road, path = s.msa(v, ut.road), s.msa(v, ut.path)
    assert path < road
    play(s, "move V", "road V", "fwd V")                     # 1 road hex
    assert s.mv_left == road - 1
    play(s, "turn V left", "fwd V")                          # 1 road, 1 path: a tie, Path
    assert s.mv_left == path - 2
    play(s, "turn V right", "fwd V")                         # 1 road, 2 path
    assert s.mv_left == path - 3


def test_damaged_at_the_road_rate_halves_what_is_left_of_the_road_allowance():
    """4.4.3.2.6, Q27 at the road rate (4.5.1.1.5): the remaining allowance is halved at once and stays halved
    for the rest of the move."""
    s = setup([unit("V", "m1ip", "us", "4B5", 2, command="MOVE"),
               unit("S", "t-72a", "sov", "4G2", 4, command="OW")], dice=[1])
    g = s.game
    v = g.uindex["V"]
    play(s, "move V", "road V", "fwd V")
    before = s.mv_left
    assert s.current_player() == 1
    play(s, "ow S at V main:APFSDS")
    assert s.dmg[v]
    half = int(before * g.tables.damaged_fraction)
    assert s.mv_left == half
    play(s, "turn V left", "fwd V")
    assert s.mv_left == half - 1


def test_allowance_spent_to_the_last_point_ends_forward_movement():
    """4.5.1.1.1-3: each clear hex costs 1; with the allowance spent no further hex may be entered (the one-hex
    exception needs nothing spent), though the free hexside of the hex may still be turned."""
    s = setup([unit("V", "m1", "us", "2T14", 0, command="MOVE"), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    play(s, "move V")
    cc = s.mv_left
    for k in range(cc):
        play(s, "fwd V")
        assert s.mv_left == cc - k - 1
    assert s.mv_left == 0 and s.hex[v] == g.map.hex(f"2T{14 - cc}")
    assert "fwd V" not in legal(s) and "rev V" not in legal(s)
    assert {"done V", "turn V left", "turn V right"} <= legal(s)


def test_exits_through_a_corner_take_the_edge_of_the_direction():
    """4.5.1.1.9: a vehicle leaving the map through a corner hex leaves by the edge its move crosses: north
    going north, west going north-west or south-west (corner 2A1); east going north-east, north going north-west
    (corner 4T1, whose north-west neighbour lies above the map: this was 'east' before)."""
    for hex_, facing, edge in (("2A1", 0, "north"), ("2A1", 5, "west"), ("2A1", 4, "west"), ("4T1", 1, "east"),
                               ("4T1", 0, "north"), ("4T1", 5, "north"), ("4T14", 3, "south"), ("2A14", 2, "south")):
        s = setup([unit("V", "m1", "us", hex_, facing, command="MOVE"), unit("E", "t-72a", "sov", "4T10", 5)])
        play(s, "move V", "exit V")
        assert s.exits == [(s.game.uindex["V"], edge)], (hex_, facing)


def test_reverse_exit_pays_twice_the_hex_and_leaves_behind_the_vehicle():
    """4.5.1.1.7, 4.5.1.1.9: reversing off the map pays twice the cost of the hex being left (unless it is the
    one-hex exception) and leaves through the edge behind the vehicle (corner 4T1 facing south-west: east)."""
    for hex_, facing, edge in (("4T1", 4, "east"), ("2A1", 2, "west"), ("2A1", 3, "north")):
        s = setup([unit("V", "m1", "us", hex_, facing, command="MOVE"), far_enemy()])
        play(s, "move V", "exit V rev")
        assert s.exits == [(s.game.uindex["V"], edge)], (hex_, facing)
    s = setup([unit("V", "m1", "us", "2A5", 2, command="MOVE", damaged=True), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    play(s, "move V")
    assert "exit V rev" in legal(s)                    # nothing spent yet: the one-hex exception
    play(s, "turn V right", "turn V left")             # the second hexside pays the Turn value
    assert s.mv_spent
    c = int(g.cost[s.hex[v]][g.units[v].type.traction])
    twice = c * g.tables.movement["reverse-multiplier"]
    assert c <= s.mv_left < twice                      # the hex once would fit, twice does not
    assert s.fac[v] == 2 and "exit V rev" not in legal(s) and "rev V" not in legal(s)


def test_a_move_reveals_the_command_to_the_enemy():
    """4.5 (and 4.2.1): a vehicle that starts its move shows its command; until then the enemy's view hides it."""
    s = setup([unit("V", "m1", "us", "2T10", 0, command="MOVE"), far_enemy()])
    v = s.game.uindex["V"]
    assert s.observation(1).cmd[v] == 0
    play(s, "move V")
    assert s.observation(1).cmd[v] == s.cmd[v] != 0


def test_reverse_goes_to_the_hex_behind_for_every_facing():
    """4.5.1.1.7: a reverse move enters the hex behind the vehicle (opposite its facing), which it keeps."""
    from studio.hexgrid.coords import neighbour

    for facing in range(6):
        s = setup([unit("V", "m1", "us", "2L12", facing, command="MOVE"), far_enemy()])
        g = s.game
        v = g.uindex["V"]
        h = s.hex[v]
        play(s, "move V", "rev V")
        assert s.hex[v] == neighbour(h, (facing + 3) % 6) and s.fac[v] == facing, facing


def test_a_bridge_on_the_road_costs_nothing_a_stream_on_the_road_does():
    """4.5.1.1.6: a bridge carries the road over a stream hexside: crossing it along the road costs no hexside
    cost; the same road over a stream hexside without a bridge pays the stream."""
    s = setup([unit("V", "m1", "us", "2N8", 2, command="MOVE"), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    a, b = g.map.hex("2N8"), g.map.hex("2O8")
    feats = {f.id: f for f in g.ruleset.hexside_features}
    assert feats["stream"].move_cost["t"] > 0
    key = (a, b) if a <= b else (b, a)
    costs = {}
    for fid in ("bridge", "stream"):
        g.features[key] = feats[fid]
        g.clear_caches()
        costs[fid] = s.step_cost(v, a, b)
    base = g.tables.movement["road-hex"]
    assert costs == {"bridge": base, "stream": base + int(feats["stream"].move_cost["t"])}


def test_the_road_allowance_ends_the_road_move():
    """4.5.1.1.5, 4.5.1.1.3: at the road rate the vehicle follows the road 1 per hex until the road allowance is
    spent; then no further hex (the one-hex exception needs nothing spent)."""
    s = setup([unit("V", "m1", "us", "2A8", 1, command="MOVE"), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    play(s, "move V", "road V", "fwd V")
    road = s.msa(v, g.units[v].type.road)
    while s.mv_left > 0:
        turns = sorted(a for a in legal(s) if a.startswith("turn"))
        play(s, "fwd V" if "fwd V" in legal(s) else turns[0])
    assert s.hex[v] == g.map.hex(f"2{'ABCDEFGHIJKLMNOPQRST'[road]}8")
    turns = sorted(a for a in legal(s) if a.startswith("turn"))
    play(s, turns[0])
    assert "fwd V" not in legal(s) and s.mv_left == 0


def test_an_exit_costing_exactly_what_is_left_is_allowed():
    """4.5.1.1.9: leaving pays the cost of the hex left; exactly the remaining allowance is enough."""
    for cost_more, allowed in ((0, True), (1, False)):
        s = setup([unit("V", "m1", "us", "2A10", 5, command="MOVE"), far_enemy()])
        g = s.game
        v = g.uindex["V"]
        play(s, "move V", "turn V right", "turn V left")   # the second hexside pays: something is spent
        h = s.hex[v]
        g.cost[h] = {**g.cost[h], "t": float(s.mv_left + cost_more)}
        assert s.fac[v] == 5 and ("exit V" in legal(s)) == allowed


def test_a_free_turn_after_the_one_hex_exception():
    """4.5.1.1.3, 4.5.1.1.4: after the one-hex move beyond the allowance nothing is left, yet the free hexside of
    the new hex may still be turned; no further hex."""
    s = setup([unit("V", "m1", "us", "2T14", 0, command="MOVE"), far_enemy()])
    g = s.game
    v = g.uindex["V"]
    b = g.map.hex("2T13")
    g.cost[b] = {**g.cost[b], "t": 40.0}
    play(s, "move V", "fwd V")
    assert s.hex[v] == b and s.mv_left == 0 and "fwd V" not in legal(s)
    assert {"turn V left", "turn V right"} <= legal(s)
