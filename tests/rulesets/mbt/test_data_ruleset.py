"""MBT ruleset data: terrain catalogue, tables with their rule references, options; known values exact."""
from pathlib import Path

import pytest

from studio.model.project import load_document

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def rs():
    doc = load_document(DATA / "rulesets" / "mbt" / "ruleset.yaml")
    assert doc.model is not None, [d.format_text() for d in doc.diagnostics]
    return doc.model


def terrain(rs, code):
    return next(t for t in rs.terrain if t.code == code)


def cell(table, row_key, column):
    row = next(r for r in table.rows if r[0] == row_key)
    return row[table.columns.index(column)]


def test_version_and_classes(rs):
    assert rs.version.startswith("2.0-data.")
    assert rs.mobility_classes == ["t", "h", "w", "l"]
    assert (rs.elevation.min, rs.elevation.max) == (0, 4)


def test_map_terrain_codes_and_features_exist(rs):
    from studio.model.documents import Map
    from studio.model import yamlio

    codes = {t.code for t in rs.terrain}
    features = {f.id for f in rs.hexside_features}
    roads = {r.id for r in rs.road_types}
    for name in ("board-2", "board-4"):
        data = yamlio.parse((DATA / "maps" / f"{name}.yaml").read_text(encoding="utf-8"))
        used = {c for row in data["terrain"] for c in row.split()}
        assert used <= codes, used - codes
        assert {h["feature"] for h in data.get("hexsides", [])} <= features
        assert {r["type"] for r in data.get("roads", [])} <= roads
    assert {"C", "B", "K", "R", "S", "LW", "W", "T", "HW", "L"} <= codes
    assert {"stream", "slope", "crest", "hedgerow", "wall", "cliff", "bridge"} <= features
    assert {"road", "path"} <= roads
    del Map


def test_every_table_and_terrain_cites_a_rule(rs):
    for t in rs.tables:
        assert t.rule.startswith("MBT "), t.id
    for t in rs.terrain + rs.hexside_features:
        assert t.rule.startswith("MBT "), t.id
    for o in rs.options:
        assert o.rule.startswith("MBT ") and o.default in o.choices


def test_b6_terrain_values(rs):
    # heights (MBT 4.1.4.1.x)
    assert terrain(rs, "LW").los.height == 3 and terrain(rs, "LW").los.blocks
    assert terrain(rs, "W").los.height == 3 and terrain(rs, "W").los.blocks
    assert terrain(rs, "HW").los.height == 4
    assert terrain(rs, "R").los.height == 0 and not terrain(rs, "R").los.blocks
    assert terrain(rs, "G").los.height == -1
    # cover (MBT 4.1.3)
    assert terrain(rs, "B").cover == "light"
    assert terrain(rs, "K").cover == "medium"
    assert terrain(rs, "W").cover == "medium"
    # heavy woods prohibited to vehicles (MBT 4.1.4.1.7)
    assert all(terrain(rs, "HW").move_cost[c] is None for c in ("t", "h", "w"))


def test_m93_m94_terrain_costs(rs):
    assert terrain(rs, "C").move_cost["t"] == 1
    assert terrain(rs, "R").move_cost["t"] == 4
    hc = rs.table("height-change")
    # M94: T vehicle crosses a slope up one level into scrub: 2 + 1 = 3
    assert terrain(rs, "S").move_cost["t"] + cell(hc, 1, "added_cost") == 3
    # Woods entry plus a 3-hexside turn is 5 in total (MBT 4.5.1.1.4 example)
    te = rs.table("terrain-effects")
    assert cell(te, "W", "move_TH") + cell(te, "W", "turn") == 5


def test_m95_height_change_limits(rs):
    hc = rs.table("height-change")
    assert cell(hc, 2, "allowed_W") is False and cell(hc, 1, "allowed_W") is True
    assert cell(hc, 2, "allowed_T") is True
    assert max(r[0] for r in hc.rows) == 2       # 3 levels in one hex: never allowed


def test_spotting_ranges_known_cells(rs):
    t = rs.table("spotting-ranges")
    known = {("V", 0): 20, ("V", -2): 7, ("V", 1): 30, ("L", 0): 15, ("S", 0): 10, ("S", 1): 15, ("S", -1): 5}
    for (col, mod), value in known.items():
        assert cell(t, mod, col) == value
    assert [r[0] for r in t.rows] == list(range(2, -6, -1))
    assert 2 not in t.placeholder_rows           # the 0 row is fully given


def test_m77_m78_ap_hit_known_cells(rs):
    t = rs.table("ap-hit")
    assert t.placeholder
    assert cell(t, -2, "S") == 56
    assert cell(t, -6, "P") == 36
    assert cell(t, -10, "E") == 0                # not possible to hit
    assert [r[0] for r in t.rows] == list(range(5, -11, -1))
    mods = rs.table("ap-hit-modifiers")
    assert cell(mods, "net-min", "modifier") == -10 and cell(mods, "net-max", "modifier") == 5


def test_m74_m85_m86_hit_modifiers(rs):
    m = rs.table("ap-hit-modifiers")
    v = {r[0]: r[1] for r in m.rows}
    cover = {r[0]: r[2] for r in rs.table("cover-types").rows}                     # AP hit modifier by cover
    assert v["target-moving"] + cover["light"] == -3                                # M74
    assert cover["medium"] + v["short-halt-sb3"] == -6                              # M85
    assert -1 + v["target-moving"] + v["shooter-damaged"] == -6                     # M86 (size -1)
    assert (v["overwatch"], v["overwatch-adjust"], v["overwatch-cis"], v["overwatch-adjust-cis"]) == (-1, -3, 0, -2)
    assert v["brew-up-smoke"] * 2 == -4                                             # M90


def test_m81_penetration_results(rs):
    t = rs.table("ap-penetration-results")

    def result(diff):
        for name, lo, hi, _ in t.rows:
            if (lo is None or diff >= lo) and (hi is None or diff <= hi):
                return name
    assert [result(d) for d in (3, 4, 9, 10, 0, -1)] == ["damaged", "knocked-out", "knocked-out", "brewed-up",
                                                         "damaged", "no-effect"]
    assert rs.option_default("penetration-zero") == "damaged"


def test_m5_m6_msa_fractions(rs):
    t = rs.table("msa-fractions")
    f = {(r[0], r[1], r[2]): r[3] for r in t.rows}
    assert int(8 * f[("short-halt", True, None)]) == 2          # damaged short halt SB:1 -> 1/4
    assert int(8 * f[("short-halt", False, 1)]) == 6
    assert int(8 * f[("short-halt", False, None)]) == 4
    assert int(8 * f[("move", True, None)]) == 4


def test_stacking_and_initiative(rs):
    assert cell(rs.table("stacking"), "over-stacked", "vehicles") == 6
    assert cell(rs.table("stacking"), "over-stacked", "wrecks_count") is False
    assert cell(rs.table("initiative"), "elite", "modifier") == 40
    assert cell(rs.table("command-range"), "elite", "range") == 2


def test_placeholder_tables_are_flagged(rs):
    flagged = {t.id for t in rs.tables if t.placeholder or t.placeholder_rows}
    assert {"ap-hit", "spotting-ranges", "terrain-effects", "available-commands"} <= flagged
