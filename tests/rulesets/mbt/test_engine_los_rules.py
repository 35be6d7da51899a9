"""MBT line of sight (MBT 4.1.4) on synthetic ground: ``MbtLos`` and ``build_los`` with hand-made heights,
roads and hexsides along a straight hex row (direction 2 from (0, 0): (1, 0), (2, 0), ...)."""
from __future__ import annotations

from types import SimpleNamespace

from studio.rulesets.mbt.engine.los import MbtLos, build_los


def row(n: int):
    return [(q, 0) for q in range(n + 1)]


def los(elevation=None, top=None, blocking=(), roads=None, sides=None, gully=(), **options) -> MbtLos:
    return MbtLos(dict(elevation or {}), dict(top or {}), set(gully), set(blocking), dict(roads or {}),
                  dict(sides or {}), {k.replace("_", "-"): v for k, v in options.items()})


def key(a, b):
    return (a, b) if a <= b else (b, a)


def test_only_the_highest_obstacle_counts_under_option_los_obstacles_highest():
    """4.1.4.2 (option los-obstacles): 'every' obstacle is judged, 'highest' only the highest one. From level 3
    to level 0 at range 6: a level 2 hill next to the observer casts a blind zone of 1 (4.1.4.2.4, D 1), a level
    1 hill at range 5 one of 1 that reaches the target (D 5, 5 // 4 -> 1)."""
    h = row(6)
    elevation = {h[0]: 3, h[1]: 2, h[5]: 1}
    assert not los(elevation, los_obstacles="every").clear(h[0], h[6])
    assert los(elevation, los_obstacles="highest").clear(h[0], h[6])


def test_a_road_straight_through_woods_negates_the_woods_a_bend_does_not():
    """4.1.4.1.3: a road running through a woods hex along the line of sight negates its blocking; where the
    road turns off the line inside the woods, the woods block."""
    h = row(4)
    woods = h[2]
    top = {woods: 3}
    straight = {key(h[1], woods): "road", key(woods, h[3]): "road"}
    assert not los(top=top, blocking={woods}).clear(h[0], h[4])
    assert los(top=top, blocking={woods}, roads=straight).clear(h[0], h[4])
    bend = {key(h[1], woods): "road", key(woods, (2, 1)): "road"}
    assert not los(top=top, blocking={woods}, roads=bend).clear(h[0], h[4])
    bend = {key((1, 1), woods): "road", key(woods, h[3]): "road"}
    assert not los(top=top, blocking={woods}, roads=bend).clear(h[0], h[4])


def test_a_crest_hexside_blocks_at_the_higher_side_plus_its_height():
    """4.1.4.1.5 via build_los: a crest's top is the higher of the two hexes it separates plus its own height:
    between a level 1 and a level 0 hex a crest of height 1 stands at 2, above two units on level 1."""
    h = row(4)
    crest = SimpleNamespace(los=SimpleNamespace(blocks=True, height=1))
    clear_t = SimpleNamespace(los=SimpleNamespace(blocks=False, height=0))
    amap = SimpleNamespace(label_of={x: str(x) for x in h}, terrain={x: "C" for x in h},
                           elevation={h[0]: 1, h[1]: 1, h[2]: 0, h[3]: 1, h[4]: 1},
                           hexsides={key(h[1], h[2]): "crest"}, roads={})
    m = build_los(amap, {"C": clear_t}, {"crest": crest}, {}, {})
    assert m.hexside_top[key(h[1], h[2])] == 2
    assert not m.clear(h[0], h[4])
    amap.hexsides = {}
    assert build_los(amap, {"C": clear_t}, {"crest": crest}, {}, {}).clear(h[0], h[4])


def test_non_blocking_terrain_has_no_height():
    """4.1.4.1: only blocking terrain (woods, buildings) or a gully adds its height; other terrain is at its
    hill level, whatever height the catalogue gives it."""
    h = row(3)
    assert los(top={h[1]: 2, h[2]: 1}).clear(h[0], h[3])
    assert not los(top={h[1]: 2}, blocking={h[1]}).clear(h[0], h[3])


def test_whole_map_visibility_agrees_with_the_pair_test_on_tall_wide_boards():
    """The whole-map LOS (``MbtLos.visibility``, ``visible_from``) gives the pair test's answer on a random
    16x10 board with hills up to level 6 (obstacles 3 and 4+ heights below the higher unit, blind zones at ranges
    of 8 and more: 4.1.4.2.4), gullies and crests, under the LOS options."""
    import random

    from studio.hexgrid import coords
    from studio.model.maps import AssembledMap

    options = [{}, {"blind-zone-n": "obstacle-minus-lower", "hexside-obstacle-distance": "farther-hex"},
               {"gully-two-up": "adjacent-only"}, {"los-obstacles": "highest"}]
    for seed, opts in enumerate(options):
        rng = random.Random(seed)
        cols, rows = 16, 10
        hexes = [coords.offset_to_axial(c, r, "even-q") for r in range(rows) for c in range(cols)]
        amap = AssembledMap("flat", "even-q", cols, rows, 250.0, 16.0,
                            label_of={h: f"{i:04d}" for i, h in enumerate(hexes)})
        elev = {h: rng.choice([0, 0, 1, 2, 4, 6]) for h in hexes}
        gully = {h for h in hexes if rng.random() < 0.1}
        top = {h: -1 for h in gully}
        edges = sorted({tuple(sorted((h, n))) for h in hexes for n in coords.neighbours(h)})
        sides = {e: max(elev.get(e[0], 0), elev.get(e[1], 0)) + 1 for e in rng.sample(edges, 10)}
        m = MbtLos(elev, top, gully, set(), {}, sides, opts, grid=amap)
        for a in hexes[::3]:
            seen = m.visibility(a)
            for b in hexes:
                c, r = amap.offset(b)
                assert bool(seen[r, c]) == m.clear(a, b), (opts, a, b, m.explain(a, b))
            assert m.visible_from(a) == {b for b in hexes if m.clear(a, b)}
