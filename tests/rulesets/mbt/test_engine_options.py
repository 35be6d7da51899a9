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
