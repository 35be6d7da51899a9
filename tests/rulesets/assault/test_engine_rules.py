"""Rule arithmetic of the Assault engine, from the worked examples (assault-examples.md), on the sample ruleset.

The engine has no Game yet (COVERAGE.md), so these tests call the rule functions with the compiled ruleset;
every number they use comes from ruleset.yaml (constants, hit-confirmation, fire-ranges ...)."""
from pathlib import Path

import pytest

from studio.model.project import load_document
from studio.rules.dice import Dice
from studio.rulesets.assault.engine import fire, spotting
from studio.rulesets.assault.engine.data import compile_ruleset
from studio.rulesets.assault.engine.dice import d10, succeeds
from studio.rulesets.assault.engine.sequence import PHASES, next_phase

REPO = Path(__file__).resolve().parents[3]
DEFAULTS = {}


@pytest.fixture(scope="module")
def rs():
    return load_document(REPO / "data" / "rulesets" / "assault" / "ruleset.yaml").model


@pytest.fixture(scope="module")
def data(rs):
    return compile_ruleset(rs)


@pytest.fixture(scope="module")
def options(rs):
    return {o.id: o.default for o in rs.options}


def test_A1_zero_reads_ten():
    """A1 (Assault 1.E): the die's 0 reads 10; rolls are 1..10; at or under succeeds."""
    dice = Dice(1)
    dice.force(0, 3)
    assert d10(dice) == 10 and d10(dice) == 3
    assert {d10(Dice(s)) for s in range(200)} == set(range(1, 11))
    assert succeeds(7, 7) and not succeeds(8, 7)


def test_A7_phase_order():
    """A7 (Assault 2): artillery, Soviet move/fire/move, U.S. move/fire/move, then a new turn."""
    assert [p.id for p in PHASES] == ["artillery", "soviet-move-1", "soviet-fire", "soviet-move-2",
                                      "us-move-1", "us-fire", "us-move-2"]
    assert next_phase("us-move-2") == ("artillery", True)
    assert next_phase("artillery") == ("soviet-move-1", False)


def test_A53_max_spotting_range(data):
    """Assault 10.B.1: 18 hexes at level 0, 4 more per level of spotter and target."""
    assert spotting.max_spotting_range(data, 0, 0) == 18
    assert spotting.max_spotting_range(data, 2, 1) == 30


def test_A55_los_graph_rule():
    """Assault 10.B.2: above the line blocks, exactly on it is clear; same elevation: anything higher blocks."""
    assert not spotting.los_blocked(2, 0, 4, [(2, 1)])      # exactly on the line from 2 down to 0
    assert spotting.los_blocked(2, 0, 4, [(2, 2)])          # above it
    assert spotting.los_blocked(0, 0, 6, [(3, 1)])          # same elevation, a woods hex (+1) between
    assert not spotting.los_blocked(0, 0, 6, [(3, 0)])


def test_A77_hit_thresholds(data):
    """A77 (Assault 13.A): final hit number 7: 6-7 one hit, 5 or less two hits, 8-10 none."""
    assert [fire.hits_scored(data, 7, r) for r in range(1, 11)] == [2, 2, 2, 2, 2, 1, 1, 0, 0, 0]


def test_A78_cover_division(data, options):
    """A78 (Assault 13.A.1-2): base 7 across a covered hexside: 3; an M-901 (divisor 3): 2; uncovered: 7."""
    two = dict(afv_steps=2)   # two AFV steps: the multiple-target modifier is 0
    assert fire.hit_number(data, 7, fire.HitSituation(covered_side=True, **two), options) == 3
    assert fire.hit_number(data, 7, fire.HitSituation(covered_side=True, cover_divisor=3, **two), options) == 2
    assert fire.hit_number(data, 7, fire.HitSituation(**two), options) == 7


def test_A79_missiles_into_woods(data, options):
    """A79 (Assault 13.A.4): Msl base 5 at a unit in woods: 2."""
    assert fire.hit_number(data, 5, fire.HitSituation(missile_in_woods=True), options) == 2


def test_C23_modifier_order_option(data, options):
    """C23: base 5, cover, 6 AFV steps: text order (5//2)+2 = 4, additions first (5+2)//2 = 3."""
    s = fire.HitSituation(covered_side=True, afv_steps=6)
    assert fire.hit_number(data, 5, s, options) == 4
    assert fire.hit_number(data, 5, s, {**options, "c23-hit-modifier-order": "additions-first"}) == 3


def test_C9_single_afv_step_option(data, options):
    """C9 / Assault 13.A.3: one AFV step gets 1//2 - 1 = -1 under 'formula', nothing under 'none' (default)."""
    s = fire.HitSituation(afv_steps=1)
    assert fire.hit_number(data, 6, s, options) == 6
    assert fire.hit_number(data, 6, s, {**options, "c9-single-afv-step": "formula"}) == 5


def test_suppressed_afv_firer(data, options):
    """Assault 11.A.1: a suppressed AFV firer has -1 on its base hit number."""
    assert fire.hit_number(data, 6, fire.HitSituation(firer_suppressed_afv=True), options) == 5


def test_A82_A83_A85_penetration_and_confirmation(data):
    """A82: pen < armour suppresses only. A83: KP pen 15 vs T-80 front 15: step loss, no roll.
    A85: TP pen 17 vs armour 15: other armour <= 6, chobham <= 2; pen = armour with chobham: <= 0 (never)."""
    assert not fire.penetrates(14, 15)
    assert fire.confirmation_number(data, "TP", 14, 15, "other") is None
    assert fire.penetrates(15, 15) and fire.confirmation_number(data, "KP", 15, 15, "laminate") is None
    assert fire.confirmation_number(data, "TP", 17, 15, "other") == 6
    assert fire.confirmation_number(data, "TP", 17, 15, "chobham") == 2
    assert fire.confirmation_number(data, "Msl", 17, 15, "laminate") == 4
    assert fire.confirmation_number(data, "API", 15, 15, "chobham") == 0


def test_A86_white_phosphorus_hit_number(data):
    """A86 (Assault 13.C): an M-1 at 6 hexes, least accurate anti-armour round TP 3: IS hit number 2."""
    m1 = load_document(REPO / "data" / "units" / "assault" / "us-m1-platoon.yaml").model.body
    col = fire.range_column(data, 6)
    hits = [int(r.cells[col].split(":")[0]) for r in m1.direct_fire
            if r.ammo in ("KP", "TP", "Msl", "API") and r.cells[col] != "X"]
    assert min(hits) == 3        # the text's TP base hit at 6 hexes (Assault 13.C)
    assert fire.is_hit_number(data, hits) == 2


def test_A87_defence_with_stacking(data, options):
    """A87 (Assault 14.A): personnel in woods under cover (15) with 5 steps in the hex: 12; the floor is half of
    15 (option c10: 8 rounding up, 7 down)."""
    chart = data.defence["woods"]["personnel_cover"]
    assert chart == 15
    assert fire.defence_value(data, chart, 5, options) == 12
    assert fire.defence_value(data, chart, 15, options) == 8
    assert fire.defence_value(data, chart, 15, {**options, "c10-defence-floor": "down"}) == 7


def test_A89_odds_rounding():
    """A89 (Assault 14.C): 32 against 7 is a 4:1 attack (rounded in favour of the target)."""
    assert fire.odds(32, 7) == 4


def test_range_columns_cover_the_text_ranges(data):
    """Assault 12.B.1: ranges 0, 1, 6 and 8 named by the text fall in distinct columns; past the last: None."""
    cols = [fire.range_column(data, r) for r in (0, 1, 6, 8)]
    assert None not in cols and len(set(cols)) == 4
    assert fire.range_column(data, data.ranges[-1].high + 1) is None
