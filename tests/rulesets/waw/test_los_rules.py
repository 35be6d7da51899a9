"""WaW 7.0-7.3 and 9.4 line of sight on small synthetic rows (``engine/los.py``), one rule per assertion."""
from studio.rulesets.waw.engine.los import Los

ROW = [(q, 0) for q in range(6)]
KINDS = {"C": "none", "W": "blocks", "T": "city", "R": "two_or_more"}


def los(codes, levels=None, **kw):
    return Los(dict(zip(ROW, codes)), dict(zip(ROW, levels or [0] * len(codes))), KINDS, **kw)


def test_7_0_adjacent_and_same_hex_always_see():
    lo = los("CWWWWC")
    assert lo.clear((0, 0), (1, 0)) and lo.clear((0, 0), (0, 0))


def test_7_1_ground_level_blocking():
    assert los("CCCCCC").clear((0, 0), (5, 0))
    assert not los("CCWCCC").clear((0, 0), (5, 0))             # woods between
    assert not los("CCTCCC").clear((0, 0), (5, 0))             # city between
    assert los("WCCCCW").clear((0, 0), (5, 0))                 # the end hexes' terrain does not count
    assert not los("CCCCCC", [0, 0, 1, 0, 0, 0]).clear((0, 0), (5, 0))   # a hill between
    assert los("CCRCCC").clear((0, 0), (5, 0))                 # one broken hex does not block
    assert not los("CCRRCC").clear((0, 0), (5, 0))             # two do


def test_7_2_hill_to_hill():
    hills = [1] * 6
    assert los("CCCCCC", hills).clear((0, 0), (5, 0))
    assert los("CCWCCC", hills).clear((0, 0), (5, 0)) is False   # a wooded hill hex between
    assert los("CCRCCC", hills).clear((0, 0), (5, 0))
    assert not los("CCRRCC", hills).clear((0, 0), (5, 0))
    assert not los("CCRCCC", hills).clear((0, 0), (5, 0), wrecks={(3, 0)})   # broken + Wreck
    assert los("CCCCCC", hills).clear((0, 0), (5, 0), wrecks={(3, 0)})       # one Wreck alone


def test_7_2_hill_to_ground_and_ground_to_hill_agree():
    lv = [1, 0, 0, 0, 0, 0]
    for codes, seen in (("CCCCWC", False), ("CCCWCC", True), ("CCCCTC", False), ("CCCTCC", False),
                        ("CCTCCC", True)):
        lo = los(codes, lv)
        assert lo.clear((0, 0), (5, 0)) is seen, codes
        assert lo.clear((5, 0), (0, 0)) is seen, codes
    assert not los("CCCCCC", [1, 0, 1, 0, 0, 0]).clear((0, 0), (5, 0))   # another hill between
    assert los("CCCCCC", [1, 1, 1, 0, 0, 0]).clear((0, 0), (5, 0))        # the own hill


def test_7_2_ridge_lines_only_between_hill_and_ground():
    ridge = frozenset({((2, 0), (3, 0))})
    lv = [1, 1, 1, 0, 0, 0]
    assert not los("CCCCCC", lv, ridges=ridge).clear((0, 0), (5, 0))
    assert los("CCCCCC", lv, ridges=ridge).clear((2, 0), (5, 0))
    assert los("CCCCCC", [0] * 6, ridges=ridge).clear((0, 0), (5, 0))    # ground to ground: no effect


def test_7_3_between_is_the_hexes_strictly_between():
    assert los("CCCCCC").between((0, 0), (3, 0)) == frozenset({(1, 0), (2, 0)})


def test_9_4_flight_levels_from_the_table():
    assert los("CWTCCC").flight_level((0, 0)) == 1
    assert los("CWTCCC").flight_level((1, 0)) == 2 and los("CWTCCC").flight_level((2, 0)) == 2
    assert los("CCCCCC", [0, 1, 0, 0, 0, 0]).flight_level((1, 0)) == 2
    assert los("CWCCCC", [0, 1, 0, 0, 0, 0]).flight_level((1, 0)) == 3
    assert los("CWCCCC", [0, 1, 0, 0, 0, 0], heli_levels=(2, 4, 6)).flight_level((1, 0)) == 6


def test_9_4_helicopter_rows():
    # level 1 (over clear): a hill target past a wooded hill; ground target directly behind woods
    assert not los("CCWCCC", [0, 0, 1, 0, 0, 1]).heli((0, 0), (5, 0), 1, 1)
    assert los("CCCCCC", [0, 0, 1, 0, 0, 1]).heli((0, 0), (5, 0), 1, 1)
    assert not los("CCCCWC").heli((0, 0), (5, 0), 0, 1)
    assert los("CCCWCC").heli((0, 0), (5, 0), 0, 1)
    assert not los("CCCTCC").heli((0, 0), (5, 0), 0, 1) and los("CCTCCC").heli((0, 0), (5, 0), 0, 1)
    assert not los("CCCCCC", [0, 0, 1, 0, 0, 0]).heli((0, 0), (5, 0), 0, 1)
    # level 2: the hill below the helicopter does not block; another hill does
    assert los("CCCCCC", [1, 1, 0, 0, 0, 0]).heli((0, 0), (5, 0), 0, 2)
    assert not los("CCCCCC", [1, 0, 1, 0, 0, 0]).heli((0, 0), (5, 0), 0, 2)
    assert not los("CCWCCC", [0, 0, 1, 0, 0, 1]).heli((0, 0), (5, 0), 1, 2)     # wooded hill between
    assert los("CCCCCC", [0, 0, 1, 0, 0, 1]).heli((0, 0), (5, 0), 1, 2)
    # level 3: a hill target behind another hill is hidden; at level 2 it is seen
    assert not los("CCCCCC", [0, 0, 1, 0, 0, 1]).heli((0, 0), (5, 0), 1, 3)
    assert not los("CCCCWC", [0, 0, 0, 0, 1, 1]).heli((0, 0), (5, 0), 1, 3)     # directly behind a wooded hill
    assert los("CCCCCC").heli((0, 0), (5, 0), 1, 3) and los("CCCCCC").heli((0, 0), (1, 0), 0, 1)
    assert los("CCCCWC", [0, 0, 0, 0, 1, 1]).heli((0, 0), (5, 0), 1, 9) == los(
        "CCCCWC", [0, 0, 0, 0, 1, 1]).heli((0, 0), (5, 0), 1, 3)                 # above 3: the level-3 row
