import random

from hypothesis import given, settings, strategies as st

from studio.hexgrid.coords import distance, neighbours
from studio.hexgrid.lines import EdgePolicy, line_steps
from studio.hexgrid.los import LosRules, check_los

ASSAULT = LosRules(rule="Assault R10.B.2", edge_policy=EdgePolicy.FIRER_CHOOSES)
WAW = LosRules(rule="WaW 7.3", edge_policy=EdgePolicy.BLOCK_IF_BOTH, adjacent_always_clear=True)
MBT = LosRules(rule="MBT 4.1.4", edge_policy=EdgePolicy.BLOCK_IF_EITHER)


def terrain_of(ground=None, obstacle=None):
    ground = ground or {}
    obstacle = obstacle or {}
    return lambda h: (ground.get(h, 0), obstacle.get(h, 0))


ROW = [(i, 0) for i in range(8)]  # a straight hex row: step i is at range i


def test_A55_los_graph_rule():
    # Assault R10.B.2: blocked iff the intervening point is strictly above the line
    s, t, x = ROW[0], ROW[4], ROW[2]
    g = {s: 0, t: 4, x: 2}
    assert check_los(s, t, terrain_of(g), rules=ASSAULT).clear  # exactly on the line
    r = check_los(s, t, terrain_of(g, {x: 1}), rules=ASSAULT)  # woods at level 2 counts as 3
    assert not r.clear and r.blocker == x and r.kind == "hex" and r.rule == "Assault R10.B.2"
    s, t = ROW[0], ROW[6]
    g = {h: 2 for h in ROW[:7]}
    assert check_los(s, t, terrain_of(g), rules=ASSAULT).clear
    assert not check_los(s, t, terrain_of(g, {ROW[3]: 1}), rules=ASSAULT).clear  # level-2 town = 3


def test_equal_height_option():
    s, t, x = ROW[0], ROW[4], ROW[2]
    terrain = terrain_of({s: 0, t: 4, x: 2})
    assert not check_los(s, t, terrain, rules=LosRules(equal_blocks=True)).clear


def test_W74_adjacent_always_visible():
    a, b = (0, 0), (1, 0)
    wall = lambda h1, h2: 5
    assert check_los(a, b, terrain_of(obstacle={a: 1, b: 1}), wall, rules=WAW).clear
    assert not check_los(a, b, terrain_of(), wall, rules=MBT).clear  # MBT 4.1.4.2.5: hexside may block


def test_W75_end_hexes_ignored():
    a, b = ROW[0], ROW[3]
    assert check_los(a, b, terrain_of(obstacle={a: 1, b: 1}), rules=WAW).clear
    assert not check_los(a, b, terrain_of(obstacle={a: 1}), rules=LosRules(observer_hex_blocks=True)).clear
    assert not check_los(a, b, terrain_of(obstacle={b: 1}), rules=LosRules(target_hex_blocks=True)).clear


def test_W79_string_along_hexside():
    # WaW 7.3: along the side of a single blocking hex -> clear; along the common side of two
    # blocking hexes -> blocked.  (0,0)->(2,2) runs along the (0,1)|(1,0) hexside.
    a, b = (0, 0), (2, 2)
    p0, p1 = line_steps(a, b)[1]
    assert check_los(a, b, terrain_of(obstacle={p0: 1}), rules=WAW).clear
    assert check_los(a, b, terrain_of(obstacle={p1: 1}), rules=WAW).clear
    assert not check_los(a, b, terrain_of(obstacle={p0: 1, p1: 1}), rules=WAW).clear
    # MBT 4.1.4.2.6: a blocking hex along whose hexside the LOS runs blocks
    r = check_los(a, b, terrain_of(obstacle={p0: 1}), rules=MBT)
    assert not r.clear and r.blocker == p0


def test_edge_policies_differ_on_long_spine_lines():
    a, b = (0, 0), (4, 4)  # splits at steps 1 and 3
    (s1a, s1b), (s3a, s3b) = line_steps(a, b)[1], line_steps(a, b)[3]
    terrain = terrain_of(obstacle={s1a: 1, s3b: 1})  # one side blocked near, the other far
    assert not check_los(a, b, terrain, rules=LosRules(edge_policy=EdgePolicy.BLOCK_IF_EITHER)).clear
    assert check_los(a, b, terrain, rules=LosRules(edge_policy=EdgePolicy.BLOCK_IF_BOTH)).clear
    assert not check_los(a, b, terrain, rules=LosRules(edge_policy=EdgePolicy.FIRER_CHOOSES)).clear
    terrain = terrain_of(obstacle={s1a: 1, s3a: 1})  # the second side stays clear
    assert check_los(a, b, terrain, rules=LosRules(edge_policy=EdgePolicy.FIRER_CHOOSES)).clear


def test_along_hexside_obstacle():
    a, b = (0, 0), (2, 2)
    p0, p1 = line_steps(a, b)[1]
    crest = lambda h1, h2: 1 if {h1, h2} == {p0, p1} else None
    assert not check_los(a, b, terrain_of(), crest, rules=LosRules(edge_policy=EdgePolicy.BLOCK_IF_BOTH)).clear
    no_along = LosRules(edge_policy=EdgePolicy.BLOCK_IF_BOTH, along_hexside_blocks=False)
    assert check_los(a, b, terrain_of(), crest, rules=no_along).clear


def test_M41_higher_than_both_blocks_at_any_range():
    # MBT 4.1.4.2.1: units at Heights 0 and 1, Woods (Height 3) between: blocked
    for n in (2, 5, 12):
        a, b = (0, 0), (n, 0)
        terrain = terrain_of({b: 1}, {(1, 0): 3})
        assert not check_los(a, b, terrain, rules=MBT).clear


def test_M47_inside_the_same_woods():
    # MBT 4.1.4.2.5: adjacent vehicles in one woods block see each other; at range 2 the
    # woods hex between blocks; a woods edge hex is visible from clear terrain
    woods = {(0, 0), (1, 0), (2, 0)}
    terrain = terrain_of(obstacle={h: 3 for h in woods})
    assert check_los((0, 0), (1, 0), terrain, rules=MBT).clear
    assert not check_los((0, 0), (2, 0), terrain, rules=MBT).clear
    assert check_los((-3, 0), (0, 0), terrain, rules=MBT).clear


def test_crest_hexside_higher_than_both_blocks():
    # MBT 4.1.4.1.5 example: V2 and W1 at Height 1, the Crest between them at Height 2
    a, b = (0, 0), (3, 0)
    terrain = terrain_of({h: 1 for h in ROW})
    crest = lambda h1, h2: 2 if {h1, h2} == {(1, 0), (2, 0)} else None
    r = check_los(a, b, terrain, crest, rules=MBT)
    assert not r.clear and r.kind == "hexside" and set(r.blocker) == {(1, 0), (2, 0)}


def random_world(seed, radius=7):
    rng = random.Random(seed)
    ground, obstacle, sides = {}, {}, {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            h = (q, r)
            ground[h] = rng.choice([0, 0, 0, 1, 2])
            obstacle[h] = rng.choice([0, 0, 0, 0, 1, 2])
            for n in neighbours(h):
                key = frozenset((h, n))
                if key not in sides and rng.random() < 0.05:
                    sides[key] = ground[h] + rng.choice([1, 2])
    return terrain_of(ground, obstacle), (lambda h1, h2: sides.get(frozenset((h1, h2))))


hexes = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 50), hexes, hexes, st.sampled_from(list(EdgePolicy)), st.booleans(),
    st.sampled_from([0, 0.5, 1]), st.sampled_from([0, 0.5, 1]),
)
def test_los_symmetric(seed, a, b, policy, eq, eye_a, eye_b):
    # LOS is symmetric when observer and target swap hexes and heights (MBT 4.1.4.2 "the
    # reverse is also true"); hexside callbacks must be symmetric too
    terrain, hexside = random_world(seed)
    rules = LosRules(edge_policy=policy, equal_blocks=eq)
    ab = check_los(a, b, terrain, hexside, eye_a, eye_b, rules)
    ba = check_los(b, a, terrain, hexside, eye_b, eye_a, rules)
    assert ab.clear == ba.clear
    if not ab.clear:
        assert ab.reason and distance(a, b) >= 1
