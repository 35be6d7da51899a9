"""Rule options with two or more choices change play (issue 10 'options are real'); options of one choice are
readings, not options."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_fixtures import card, find, index, new_game, place, terrain  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402


def test_one_choice_options_are_readings():
    rs = index().model("ruleset", "mbt")
    assert all(len(o.choices) >= 2 for o in rs.options)
    assert {r.id for r in rs.readings} >= {"basic-aspect", "spot-markers", "tt-zero"}


def _arc_game(option: str):
    """A shooter facing N with a 60-degree non-turreted gun, and a target in the NE neighbour: that hex only
    touches the arc boundary along a hexside (MBT 4.4.3.1.4, Q15)."""
    g = new_game(options={"fof-hex-inclusion": option})
    a = find(g, lambda h: terrain(g, h) == "C" and terrain(g, neighbour(h, 1)) == "C")
    s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(neighbour(a, 1)), 0)})
    x = g.uindex["X"]
    ut = dataclasses.replace(card("m1"))
    ut.ap = tuple(dataclasses.replace(r, arc=60, turreted=False) for r in ut.ap)
    g.units[x] = dataclasses.replace(g.units[x], type=ut)
    return g, s, x, g.uindex["Y"]


def test_fof_hex_inclusion_any_part_takes_hexes_along_the_boundary():
    g, s, x, y = _arc_game("any-part")
    assert all(s.weapon_ok(x, y, row) for row in g.units[x].type.ap)
    g, s, x, y = _arc_game("centre")
    assert not any(s.weapon_ok(x, y, row) for row in g.units[x].type.ap)


def test_fof_hex_inclusion_changes_the_overwatch_modifier_of_turreted_guns():
    """A turreted gun on overwatch: inside the (60-degree) front arc -1, outside it Overwatch Adjust -3."""
    nets = {}
    for option in ("any-part", "centre"):
        g = new_game(options={"fof-hex-inclusion": option})
        a = find(g, lambda h: terrain(g, h) == "C" and terrain(g, neighbour(h, 1)) == "C")
        s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(neighbour(a, 1)), 0)})
        row = g.units[g.uindex["X"]].type.ap[0]
        nets[option] = s.hit_modifiers(g.uindex["X"], g.uindex["Y"], row, overwatch=True)[0]
    am = g.tables.ap_mod
    assert nets["any-part"] - nets["centre"] == am["overwatch"] - am["overwatch-adjust"]


def test_building_spotting_cover_by_construction():
    """Q8: building hexes are Heavy cover for spotting, or by construction (brick Medium by default, wood
    Light): range 5, 7 or 12 in the sample tables."""
    ranges = {}
    for option, construction in (("heavy", None), ("by-construction", None), ("by-construction", "wood")):
        g = new_game(options={"building-spotting-cover": option})
        town = find(g, lambda h: terrain(g, h) == "T")
        if construction:
            g.extension["building_construction"] = {g.label(town): construction}
            g._hex_facts({t.code: t for t in g.ruleset.terrain})
        s = place(g, 1, {"B": (1, "bmp-2", g.label(town), 0), "M": (0, "m1", "2A1", 0)})
        ranges[(option, construction)] = s.spot_range(g.uindex["B"])
        assert s.cover_of(town) == "heavy"    # AP fire keeps the terrain's cover
    spot = new_game().tables.spot_range
    assert ranges == {("heavy", None): spot[-3], ("by-construction", None): spot[-2],
                      ("by-construction", "wood"): spot[-1]}


# ---------------------------------------------------------------- options the sample boards cannot show (probes)
def _row(cells, gully=(), hexside_top=None, opts=None, blocking=()):
    """A straight row of hexes (q, 0) with (hill level, terrain top) cells (see test_engine_examples)."""
    from studio.rulesets.mbt.engine.los import MbtLos

    elev = {(q, 0): lv for q, (lv, _) in enumerate(cells)}
    top = {(q, 0): t for q, (_, t) in enumerate(cells)}
    return MbtLos(elev, top, set(gully), set(blocking), {}, hexside_top or {}, opts or {})


def test_gully_two_up_option():
    """Q6: a unit in a gully and a target two heights above, two hexes away: normal LOS, or adjacent only."""
    cells = [(0, -1), (-1, 0), (1, 0)]                 # gully unit, a dip, a target on hill 1
    normal = _row(cells, gully=[(0, 0)], opts={"gully-two-up": "normal"})
    strict = _row(cells, gully=[(0, 0)], opts={"gully-two-up": "adjacent-only"})
    assert normal.clear((0, 0), (2, 0)) and not strict.clear((0, 0), (2, 0))


def test_blind_zone_options():
    """Q5: N = higher unit minus obstacle (3 - 2 = 1: zone D/2) or obstacle minus lower unit (2 - 0 = 2: D/4);
    Q38: the distance to a hexside obstacle is to the nearer or the farther of its two hexes."""
    cells = [(3, 0)] + [(0, 0)] * 7 + [(2, 0)] + [(0, 0)] * 3 + [(0, 0)]      # obstacle at 8, target at 12
    higher = _row(cells, opts={"blind-zone-n": "higher-minus-obstacle"})
    lower = _row(cells, opts={"blind-zone-n": "obstacle-minus-lower"})
    assert not higher.clear((0, 0), (12, 0)) and lower.clear((0, 0), (12, 0))   # zone 4 vs 2 behind range 8
    flat = [(2, 0)] + [(0, 0)] * 7
    key = ((3, 0), (4, 0))                                                     # hexside between ranges 3 and 4
    near = _row(flat, hexside_top={key: 1}, opts={"hexside-obstacle-distance": "nearer-hex"})
    far = _row(flat, hexside_top={key: 1}, opts={"hexside-obstacle-distance": "farther-hex"})
    # D = 3 (zone 1: blind through range 4) or D = 4 (zone 2: blind through range 6)
    assert [near.clear((0, 0), (q, 0)) for q in (4, 5, 6, 7)] == [False, True, True, True]
    assert [far.clear((0, 0), (q, 0)) for q in (4, 5, 6, 7)] == [False, False, False, True]


def test_hedgerow_crossing_option():
    """Q36: a tracked vehicle crosses a hedgerow only as its one-hex exception move, or at any point for its
    whole remaining allowance (MBT 4.5.1.1.2)."""
    legal = {}
    for option in ("one-hex-move", "whole-allowance"):
        g = new_game(options={"hedgerow-crossing": option})
        hedgerow = next(f for f in g.ruleset.hexside_features if f.id == "hedgerow")
        a = find(g, lambda h: all(terrain(g, x) == "C" and g.elev.get(x, 0) == g.elev.get(h, 0)
                                  for x in (h, neighbour(h, 2), neighbour(neighbour(h, 2), 2))))
        b = neighbour(a, 2)
        c = neighbour(b, 2)
        g.features[G.edge_key(b, c)] = hedgerow
        s = place(g, 1, {"V": (0, "m1", g.label(a), 2), "E": (1, "t-72a", "4T10", 5)})
        v = g.uindex["V"]
        s.cmd[v] = G.MOVE
        s._begin_move(v)
        s._move_step(v, ("fwd", "V"))                      # one hex spent: no longer the exception move
        legal[option] = "fwd" in {x[0] for x in s.move_options(v)}
    assert legal == {"one-hex-move": False, "whole-allowance": True}
    s.mv_left = 0                                          # nothing left: not even for the whole allowance
    assert "fwd" not in {x[0] for x in s.move_options(v)}


def _rotate(h):
    """60 degrees clockwise about (0, 0) in axial coordinates (direction k -> k + 1)."""
    q, r = h
    return (-r, q + r)


def test_fof_any_part_hexes_along_the_boundary_for_every_facing_and_the_rear():
    """Q15: the hexes 'any-part' adds are those with a hexside on the 60 or 180 degree boundary: for facing 0
    the NW and NE neighbours (and their spine) for 60, the SW and SE ones for 180; none for 120. The same for
    every facing, and a rear arc is the front arc of the opposite facing."""
    from studio.hexgrid.coords import within
    from studio.hexgrid.facing import in_arc
    from studio.rulesets.mbt.engine.fire import in_field

    o = (0, 0)
    extra = {arc: sorted(h for h in within(o, 4) if h != o and in_field(o, 0, h, arc, False, True)
                         and not in_arc(o, 0, h, arc)) for arc in (60, 120, 180)}
    assert extra == {60: [(-2, -1), (-1, 0), (1, -1), (2, -3)], 120: [], 180: [(-3, 2), (-1, 1), (1, 0), (3, -1)]}
    for f in range(1, 6):
        for arc, hexes in extra.items():
            turned = hexes
            for _ in range(f):
                turned = [_rotate(h) for h in turned]
            got = sorted(h for h in within(o, 4) if h != o and in_field(o, f, h, arc, False, True)
                         and not in_arc(o, f, h, arc))
            assert got == sorted(turned), (f, arc)
            rear = sorted(h for h in within(o, 4) if h != o and in_field(o, (f + 3) % 6, h, arc, True, True)
                          and not in_arc(o, (f + 3) % 6, h, arc, True))
            assert rear == got, (f, arc)
