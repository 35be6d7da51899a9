"""Precision-driven runs: the confidence sequence keeps its 95% coverage when the run stops as soon as the
interval is narrow enough (checked by cheap Bernoulli simulation, not engine games), while the naive rule that
stops on a narrow Wilson interval after every game does not."""
import random

from studio.sim.report import wilson_interval
from studio.sim.sequential import (MIN_GAMES, StoppingRule, confidence_sequence, precision_reached,
                                   side_intervals)


def _stopped_run(rng, p, precision, max_games):
    """One simulated run of a two-sided game without draws; returns (games, wins of side 0, lo, hi)."""
    rule = StoppingRule(precision, max_games, sides=2)
    for _ in range(max_games):
        if rule.feed(0 if rng.random() < p else 1):
            break
    lo, hi = side_intervals(rule.wins, rule.n)[0]
    return rule.n, rule.wins[0], lo, hi


def test_coverage_at_the_stopping_time_by_simulation():
    rng = random.Random(20261201)
    misses = runs = 0
    for p in (0.2, 0.5, 0.7):
        for _ in range(150):
            n, wins, lo, hi = _stopped_run(rng, p, 0.12, 4000)
            assert n < 4000 and (hi - lo) / 2 <= 0.12        # it stopped because the precision was reached
            runs += 1
            misses += not (lo <= p <= hi)
    # nominal 95% (the guarantee is "at least"); 450 runs: a true 95% rate gives <= 7.5% misses with
    # overwhelming probability
    assert misses / runs <= 0.075, (misses, runs)


def test_the_naive_rule_is_what_the_sequence_corrects():
    """Stopping at the first narrow Wilson interval after looking at every game misses more often than 5%."""
    rng = random.Random(7)
    misses = 0
    runs = 300
    for _ in range(runs):
        wins = 0
        for n in range(1, 3000):
            wins += rng.random() < 0.5
            lo, hi = wilson_interval(wins, n)
            if n >= MIN_GAMES and (hi - lo) / 2 <= 0.12:
                break
        misses += not (lo <= 0.5 <= hi)
    sequential = sum(1 for _ in range(runs) if not (lambda r: r[2] <= 0.5 <= r[3])(
        _stopped_run(rng, 0.5, 0.12, 3000)))
    assert sequential < misses


def test_interval_shape():
    lo, hi = confidence_sequence(300, 1000)
    w_lo, w_hi = wilson_interval(300, 1000)
    assert lo < w_lo < 0.3 < w_hi < hi           # wider than a single-look interval, around the estimate
    assert confidence_sequence(0, 50)[0] == 0.0 and confidence_sequence(50, 50)[1] == 1.0
    assert confidence_sequence(0, 0) == (0.0, 1.0)
    assert not precision_reached([5, 4], 9, 0.45)              # never before MIN_GAMES
    assert precision_reached([600, 600], 1200, 0.06) and not precision_reached([600, 600], 1200, 0.04)


def _first_reached(winners, precision):
    wins, n = [0, 0], 0
    for w in winners:
        n += 1
        wins[w] += 1
        if precision_reached(wins, n, precision):
            return n
    return None


def test_stopping_rule_stops_within_4_percent_of_the_first_narrow_count():
    rng = random.Random(11)
    for p, precision in ((0.5, 0.1), (0.8, 0.08), (0.3, 0.15)):
        winners = [0 if rng.random() < p else 1 for _ in range(5000)]
        best = _first_reached(winners, precision)
        rule = StoppingRule(precision, 5000, sides=2)
        stop = next(n for n, w in enumerate(winners, start=1) if rule.feed(w))
        assert best <= stop <= best * 1.04 + 1, (p, best, stop)
        assert rule.n == stop and sum(rule.wins) == stop
        assert rule.describe()["precision"] == precision and "Bonferroni" in rule.describe()["rule"]


def test_draws_and_failed_games_count_as_games_no_side_won():
    rule = StoppingRule(0.3, 100, sides=2)
    for _ in range(40):
        rule.feed(None)
    assert rule.wins == [0, 0] and rule.n == 40
    lo, hi = side_intervals(rule.wins, rule.n)[0]
    assert lo == 0.0 and hi < 0.3


def test_three_sides_use_a_smaller_alpha_each():
    two = side_intervals([30, 70], 100)[0]
    three = side_intervals([30, 70, 0], 100)[0]
    assert three[0] < two[0] and three[1] > two[1]
    assert confidence_sequence(30, 100, alpha=0.05 / 3) == three
