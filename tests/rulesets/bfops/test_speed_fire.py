"""Issue 19 speed-ups of Battlefield Ops! sight lines, each against its uncached computation: the bound that
drops bases far from a sight line before the exact test never drops one the line meets (the same units on the
line as testing every base), and unit-to-unit distances memoized by the two bases equal the fresh distance."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import shapely

from studio.rules.load import load_game
from studio.rulesets.bfops.engine import fire as F
from studio.rulesets.bfops.engine.state import Unit

DATA = Path(__file__).resolve().parents[3] / "data"
CARDS = ["nato-m60a1", "wp-t62", "nato-us-rifle-squad", "wp-rifle-squad", "nato-m113"]


@pytest.fixture(scope="module")
def game():
    return load_game(DATA / "scenarios" / "bfops" / "bfops-meeting-at-the-ford.yaml", DATA).game


def _crowd(rng, n=30):
    """Units in a 12" x 8" box so many stand on or near the sight lines between them."""
    return [Unit(f"u{i}", CARDS[i % len(CARDS)], i % 2, f"e{i}", rng.uniform(20, 32), rng.uniform(20, 28),
                 rng.uniform(0, 360)) for i in range(n)]


def test_the_base_bound_keeps_every_base_the_line_meets(game):
    rng = random.Random(8)
    met = 0
    for _ in range(20):
        units = _crowd(rng)
        for a in units[:6]:
            for b in units[6:12]:
                line = shapely.linestrings([(a.x, a.y), (b.x, b.y)])
                near = F._near_line(game, a, b, units)
                assert a not in near and b not in near
                for v in units:
                    touches = bool(shapely.intersects(line, game.footprint(v)))
                    met += touches and v is not a and v is not b
                    assert v in near or not touches or v is a or v is b
    assert met > 100


def test_units_on_the_line_are_those_of_the_unbounded_test(game, monkeypatch):
    rng = random.Random(9)
    answers = []
    for _ in range(12):
        units = _crowd(rng)
        for a in units[:5]:
            for b in units[5:10]:
                answers.append(F.unit_screens(game, a, b, 0.35, units))
    with monkeypatch.context() as m:
        m.setattr(F, "_near_line", lambda g, a, b, others: [v for v in others if v is not a and v is not b])
        rng = random.Random(9)
        full = []
        for _ in range(12):
            units = _crowd(rng)
            for a in units[:5]:
                for b in units[5:10]:
                    full.append(F.unit_screens(game, a, b, 0.35, units))
    assert answers == full
    assert sum(c is not None for c, _ in answers) > 20 and any(s is not None for _, s in answers)


def test_memoized_distances_equal_the_fresh_distance(game):
    rng = random.Random(10)
    units = _crowd(rng, 20)
    kept = game.options.get("distance-mode")
    first = {}
    try:
        for mode in ("edge", "centre"):
            game.options["distance-mode"] = mode
            for a in units:
                for b in units:
                    want = game.geometry.distance(game.footprint(a), game.footprint(b), mode)
                    assert game.distance(a, b) == want
                    assert game.distance(a, b) == want                 # from the memo
            first[mode] = game.distance(units[0], units[1])
    finally:
        game.options["distance-mode"] = kept
    assert first["edge"] < first["centre"]                              # the mode is part of the key


def test_the_exposure_read_late_is_the_exposure_computed_at_once(game):
    """A sight line's exposure is computed when first read: the same fraction as computing it at once, 0 when
    the line is blocked; units moved afterwards do not change it (it reads only values taken at once)."""
    rng = random.Random(11)
    partial = 0
    for _ in range(200):
        a, b = (Unit(f"s{i}", CARDS[i % 2], i, f"e{i}", rng.uniform(1, 71), rng.uniform(1, 47), rng.uniform(0, 360))
                for i in range(2))
        sg = F.sight(game, a, b, a.side)
        want = 0.0 if sg.blocked else game.geometry._exposure(
            a.x, a.y, max(w.mount_height_in for w in game.card_of(a).weapons), game.footprint(b),
            game.card_of(b).base.height_in, game.sides[a.side])
        a.x, b.x = a.x + 5.0, b.x - 5.0                                 # moved after the sight line was drawn
        assert sg.exposure == want and sg.exposure == want
        partial += 0 < want < 1
    assert partial > 0


def test_units_on_the_line_read_late_are_those_when_the_line_was_drawn(game):
    """The units on a sight line are found when first read, from where the units stood when it was drawn: the
    answer of ``unit_screens`` at once, whatever moves afterwards."""
    rng = random.Random(12)
    found = 0
    for _ in range(10):
        units = _crowd(rng)
        for a in units[:4]:
            for b in units[4:8]:
                sg = F.sight(game, a, b, a.side, units)
                want = (None, None) if sg.blocked else F.unit_screens(game, a, b, max(
                    w.mount_height_in for w in game.card_of(a).weapons), units)
                saved = [(v.x, v.y) for v in units]
                for v in units:
                    v.x, v.y = rng.uniform(0, 72), rng.uniform(0, 48)         # everyone moves afterwards
                assert (sg.unit_cover, sg.friendly_screen) == want
                for v, (x, y) in zip(units, saved):
                    v.x, v.y = x, y
                found += want[0] is not None
    assert found > 5
