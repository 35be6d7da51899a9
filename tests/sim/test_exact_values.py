"""Exact values of the statistics behind the balance reports (closed forms and direct computations), so that
a changed constant or formula in studio.sim is noticed."""
import math

import pytest

import studio.sim.sequential as seq
from studio.sim.casualties import Casualty, CasualtyTracker, _hex_distance, band_labels, range_band, unit_keys
from studio.sim.compare import compare_reports, format_comparison, paired
from studio.sim.report import BalanceReport, GameResult
from studio.sim.tune import Sweep, SweepPoint, _number, logistic_fit, parse_values, sweep


def _beta_ratio(a, b, s, f):
    """B(a + s, b + f) / B(a, b) as the product of rising factorials."""
    out = 1.0
    for i in range(s):
        out *= a + i
    for j in range(f):
        out *= b + j
    for k in range(s + f):
        out /= a + b + k
    return out


def test_mixture_ratio_matches_the_closed_form():
    s, n, p = 3, 5, 0.3
    for c in (4.0, 200.0):
        a, b = c * p, c * (1 - p)
        direct = _beta_ratio(a, b, s, n - s) / (p ** s * (1 - p) ** (n - s))
        assert seq.log_ratio(s, n, p, c) == pytest.approx(math.log(direct), rel=1e-9)
    mix = 0.5 * math.exp(seq.log_ratio(s, n, p, 200.0)) + 0.5 * math.exp(seq.log_ratio(s, n, p, 4.0))
    assert seq.log_mixture_ratio(s, n, p) == pytest.approx(math.log(mix), rel=1e-9)
    assert seq.log_mixture_ratio(s, n, p, 4.0) == seq.log_ratio(s, n, p, 4.0)


def test_interval_edges_are_where_the_ratio_crosses_the_threshold():
    lo, hi = seq.confidence_sequence(500, 1000)
    assert (lo, hi) == pytest.approx((0.449344, 0.550656), abs=2e-6)
    t = math.log(1 / 0.05)
    for edge, outward in ((lo, -1), (hi, 1)):
        assert seq.log_mixture_ratio(500, 1000, edge) < t <= seq.log_mixture_ratio(500, 1000, edge + outward * 1e-4)
    assert seq.confidence_sequence(0, 40) == pytest.approx((0.0, 0.113533), abs=2e-6)
    assert seq.confidence_sequence(40, 40) == pytest.approx((0.886467, 1.0), abs=2e-6)
    assert seq.side_intervals([30, 70], 100)[0] == seq.confidence_sequence(30, 100, 0.025)
    assert seq.side_intervals([30], 100)[0] == seq.confidence_sequence(30, 100, 0.05)


def test_precision_boundaries():
    wins, n = [7, 3], seq.MIN_GAMES
    half = max((hi - lo) / 2 for lo, hi in seq.side_intervals(wins, n))
    assert seq.precision_reached(wins, n, half) and not seq.precision_reached(wins, n, half - 1e-9)
    assert not seq.precision_reached([6, 3], n - 1, 0.999)
    rule = seq.StoppingRule(0.1, 100)
    assert rule.sides == 2 and rule.alpha == 0.05
    rule.feed(2)                                   # not a side: counted as a game nobody won
    rule.feed(-1)
    assert rule.wins == [0, 0] and rule.n == 2


def test_looks_follow_the_schedule(monkeypatch):
    looks = []
    real = seq.precision_reached

    def spy(wins, n, precision, alpha=0.05):
        looks.append(n)
        return real(wins, n, precision, alpha)
    monkeypatch.setattr(seq, "precision_reached", spy)
    rule = seq.StoppingRule(0.04, 100_000)
    n = 0
    while n < 3000:
        n += 1
        rule.feed(n % 2)
    z = 1.4 * 1.959964
    first = next(m for m in range(1, 3001) if z * math.sqrt(max((m // 2) * (m - m // 2), 1) / m ** 3) <= 0.04)
    assert looks[0] in (first, first + 1)
    for a, b in zip(looks, looks[1:]):
        assert b == a + max(1, a // 25)


def test_range_bands_exact():
    assert range_band(0, (2, 5)) == "0-2" and range_band(3, (2, 5)) == "3-5" and range_band(6, (2, 5)) == "6+"
    assert range_band(0, (0, 3)) == "0" and range_band(1, (1, 3)) == "0-1" and range_band(2, (1, 3)) == "2-3"
    assert band_labels((2, 5)) == ["0-2", "3-5", "6+", "unknown"]
    assert band_labels() == ["0", "1-3", "4-6", "7-10", "11-15", "16-20", "21+", "unknown"]
    assert _hex_distance((0, 0), (2, -1)) == 2 and _hex_distance((1, 1), (1, 1)) == 0
    assert _hex_distance((0, 0), (-3, 3)) == 3 and _hex_distance((0, 0), None) is None
    assert _hex_distance((0, 0, 0), (1, 1)) is None
    assert unit_keys(type("U", (), {"uid": "", "name": "A", "id": 5})()) == ["A"]
    c = Casualty(1, "u", "t", 2, "w", 3, "b")
    assert c.to_json() == {"side": 1, "unit": "u", "unit_type": "t", "turn": 2, "weapon": "w", "range": 3,
                           "by": "b"}


def test_tracker_without_outcome_mid_game():
    class Broken:
        def outcome(self):
            raise RuntimeError("not yet")
    tracker = CasualtyTracker(type("G", (), {"units": []})(), Broken())
    assert tracker.losses == [] and tracker.decided == 0
    tracker.before(Broken(), "x")
    tracker.after(Broken())
    assert tracker.casualties == [] and tracker.losses == []


def _report(winners, vps, losses, casualties=None):
    r = BalanceReport("s", "r", "1", ["us", "sov"], 4, ["a", "b"])
    for i, (w, vp, lo) in enumerate(zip(winners, vps, losses)):
        g = GameResult(i, 100 + i, ("a", "b"), w, list(vp), 10 - i, list(lo))
        g.casualties = list((casualties or {}).get(i, []))
        r.results.append(g)
    return r


def test_paired_differences_exact():
    assert paired([], []) == {"mean": 0.0, "ci95": [0.0, 0.0], "n": 0}
    assert paired([1.0], [3.0]) == {"mean": 2.0, "ci95": [2.0, 2.0], "n": 1}
    base = _report([0, 0, 1, None], [(5, 1), (4, 2), (1, 6), (3, 3)], [(1, 2), (0, 1), (3, 0), (1, 1)],
                   {0: [Casualty(0, "m1", "M1", 3)], 1: [Casualty(1, "t", "T-72", 2)]})
    house = _report([0, 1, 1, 1], [(5, 1), (2, 4), (1, 7), (2, 3)], [(1, 2), (2, 1), (3, 1), (2, 1)],
                    {0: [Casualty(0, "m1", "M1", 3), Casualty(0, "m2", "M1", 4)], 3: [Casualty(1, "t", "T-72", 5)]})
    d = compare_reports({"base": base, "house": house})
    diff = d["differences"]["house"]
    assert diff["win us"]["mean"] == pytest.approx(-0.25) and diff["win sov"]["mean"] == pytest.approx(0.5)
    sd = math.sqrt(((-1 + 0.25) ** 2 + 3 * 0.25 ** 2) / 3)
    assert diff["win us"]["ci95"] == pytest.approx([-0.25 - 1.959964 * sd / 2, -0.25 + 1.959964 * sd / 2])
    assert diff["win sov"]["ci95"][1] == 1.0, "a difference of rates is clamped to -1..1"
    assert diff["VP us"]["mean"] == pytest.approx(-0.75) and diff["losses us"]["mean"] == pytest.approx(0.75)
    assert diff["turns"] == {"mean": 0.0, "ci95": [0.0, 0.0], "n": 4}
    assert diff["losses by type"] == {"us": {"M1": pytest.approx(0.25)}, "sov": {"T-72": pytest.approx(0.0)}}
    text = format_comparison(d)
    assert "    win us                 -25.00 points (" in text and "    VP us                   -0.75 (" in text
    assert "us losses by type per game: M1 +0.25" in text
    assert "sov losses by type per game" not in text, "types whose losses did not move are left out"


def test_logistic_fit_saturated_model_closed_form():
    fit = logistic_fit([0, 1], [1, 3], [4, 4])
    assert fit.converged
    assert fit.b0 == pytest.approx(math.log(1 / 3), abs=1e-5) and fit.b1 == pytest.approx(2 * math.log(3), abs=1e-5)
    v0 = 1 / (4 * 0.25 * 0.75)                     # 1 / (n p q) at x = 0 and at x = 1
    cov = fit.cov
    assert cov[0][0] == pytest.approx(v0, rel=1e-4) and cov[0][1] == pytest.approx(-v0, rel=1e-4)
    assert cov[1][1] == pytest.approx(2 * v0, rel=1e-4)
    assert fit.x50 == pytest.approx(0.5, abs=1e-6)
    g = [-1 / fit.b1, fit.b0 / fit.b1 ** 2]
    se = math.sqrt(g[0] ** 2 * cov[0][0] + 2 * g[0] * g[1] * cov[0][1] + g[1] ** 2 * cov[1][1])
    assert fit.x50_ci == pytest.approx((0.5 - 1.959964 * se, 0.5 + 1.959964 * se), rel=1e-4)
    eta, s = fit.b0, math.sqrt(cov[0][0])
    assert fit.band(0.0) == pytest.approx((1 / (1 + math.exp(-(eta - 1.959964 * s))),
                                           1 / (1 + math.exp(-(eta + 1.959964 * s)))), rel=1e-4)
    assert fit.p(0.0) == pytest.approx(0.25, abs=1e-5)
    data = fit.to_json()
    assert data["x50"] == fit.x50 and data["x50_ci95"] == list(fit.x50_ci) and data["converged"] is True


def test_values_and_sweep_details():
    assert len(parse_values("1..200")) == 200 and parse_values("5..5") == [5]
    with pytest.raises(ValueError):
        parse_values("1..201")
    assert parse_values("0.1..0.3:0.1") == [0.1, 0.2, 0.3] and _number("x") == "x" and _number("2.5") == 2.5
    two = Sweep("s", "/x", "a", 1, ["r"], [SweepPoint(0, 4, 1, 0), SweepPoint(1, 4, 3, 0)]).fitted()
    assert two.fit is not None and two.within_range() and two.points[0].p == 0.25
    chart = two.chart()
    line = chart.lines["logistic fit"]
    assert line[0][0] == 0 and line[-1][0] == 1 and len(line) == 61
    assert chart.marks[0][0] == pytest.approx(0.5, abs=1e-6) and chart.band == two.fit.x50_ci
    flags = Sweep("s", "/x", "a", 1, ["r"], [SweepPoint(True, 4, 1, 0), SweepPoint(1, 4, 3, 0)]).fitted()
    assert flags.fit is None, "booleans are not numbers to fit"

    def play(value):
        p = 1 / (1 + math.exp(-(1.3 - value)))
        return {"games": 1000, "wins": {"a": round(1000 * p)}, "draws": 0}
    ints = sweep("s", "/x", "a", [0, 1, 2, 3], play, seed=1, bots=["r"], check=True)
    assert ints.check["value"] == 1 and isinstance(ints.check["value"], int)
    floats = sweep("s", "/x", "a", [0.0, 1.0, 2.0, 3.0], play, seed=1, bots=["r"], check=True)
    assert floats.check["value"] == pytest.approx(1.3, abs=0.01) and floats.check["value"] != 1
    assert floats.check["contains_half"] and floats.check["consistent"]
