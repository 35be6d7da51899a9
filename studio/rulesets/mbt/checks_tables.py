"""Static checks of the MBT Advanced Game tables in ``ruleset.yaml`` (rules digest d.2: V36-V39). Codes are
stable: ``mbt.<name>``. Each check runs only when its table exists with the columns it reads (the engine's
``engine_tables`` declaration reports missing tables and columns); cells given by the rulebook must hold their
published values, whatever the placeholder cells around them."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from studio.model.diagnostics import Diagnostic

R = "MBT "
GRADES = ("elite", "veteran", "seasoned", "regulars", "green", "raw")
ANGLES = ("front", "front_side", "rear_side", "rear")
HULL = ("HF", "HS", "HR")
#: (hit number, rof) -> [(hits, roll_min, roll_max)] given by the rulebook (MBT 6.5.2.1 example)
KNOWN_HITS = {(56, "F"): [(3, 1, 11), (2, 12, 22), (1, 23, 56)]}
#: (angle, tens) -> location given by the rulebook examples (MBT 6.5.2.2-6.5.2.2.3)
KNOWN_LOCATIONS = {("front", 5): "HF", ("front_side", 7): "HS", ("rear_side", 1): "TS", ("rear_side", 2): "TS",
                   **{(a, 10): "TK" for a in ANGLES}}
KNOWN_HULL_STAR = {("front_side", 6): True, ("front_side", 8): True, ("front_side", 9): True}
#: (GP factor, GP defense) -> (N, S) given by the rulebook examples (MBT 6.5.4.4)
KNOWN_GP = {(5, 3): (43, 72), (8, 1): (22, 54), (13, 4): (16, 53), (2, 4): (60, 86), (8, 5): (40, 72),
            (6, 7): (57, 87), (7, 4): (40, 71), (6, 6): (53, 83), (6, 3): (39, 69)}
#: (grade, column) -> available commands given by the rulebook examples (MBT 6.2.1.1)
KNOWN_COMMANDS = {("regulars", "c7"): 3, ("veteran", "c2"): 1, ("veteran", "tens"): 7, ("seasoned", "c7"): 4,
                  ("seasoned", "tens"): 6}


def _table(rs, table_id: str, columns: tuple[str, ...]):
    """``(position, table, column index)`` of a table that has ``columns`` and no ragged row, else None."""
    for i, t in enumerate(rs.tables):
        if t.id == table_id:
            if not set(columns) <= set(t.columns) or any(len(r) != len(t.columns) for r in t.rows):
                return None
            return i, t, {c: t.columns.index(c) for c in t.columns}
    return None


def check_tables(doc, rs) -> Iterator[Diagnostic]:
    yield from _check_hits(doc, rs)
    yield from _check_locations(doc, rs)
    yield from _check_gp_crt(doc, rs)
    yield from _check_commands(doc, rs)


def _check_hits(doc, rs) -> Iterator[Diagnostic]:
    """V36: each (hit number, ROF) group of the AP Number of Hits Table splits 01..hit number into ranges, one
    per number of hits, with no gap or overlap; the published row 56/F is exact (MBT 6.5.2.1)."""
    found = _table(rs, "ap-number-of-hits", ("hit_number", "rof", "hits", "roll_min", "roll_max"))
    if found is None:
        return
    i, t, c = found
    groups = defaultdict(list)
    for r, row in enumerate(t.rows):
        groups[(row[c["hit_number"]], row[c["rof"]])].append((r, row[c["hits"]], row[c["roll_min"]], row[c["roll_max"]]))
    for (number, rof), rows in groups.items():
        spans = sorted((lo, hi, r) for r, _h, lo, hi in rows)
        expect = 1
        for lo, hi, r in spans:
            if lo != expect or hi < lo:
                yield doc.error("mbt.hits-table", f"hit number {number} at ROF {rof}: the ranges must run 01..{number} "
                                f"without gap or overlap; row {r} starts at {lo}, expected {expect}",
                                f"/tables/{i}/rows/{r}", R + "6.5.2.1")
                break
            expect = hi + 1
        else:
            if expect - 1 != number:
                yield doc.error("mbt.hits-table", f"hit number {number} at ROF {rof}: the ranges end at {expect - 1}, "
                                f"not at the hit number", f"/tables/{i}/rows/{spans[-1][2]}", R + "6.5.2.1")
        known = KNOWN_HITS.get((number, rof))
        if known is not None and sorted((h, lo, hi) for _r, h, lo, hi in rows) != sorted(known):
            wrong = next((r for r, h, lo, hi in rows if (h, lo, hi) not in known), rows[0][0])
            yield doc.error("mbt.hits-table", f"hit number {number} at ROF {rof} is given by the rules: "
                            + ", ".join(f"{h} hit(s) {lo:02d}-{hi:02d}" for h, lo, hi in known),
                            f"/tables/{i}/rows/{wrong}", R + "6.5.2.1")


def _check_locations(doc, rs) -> Iterator[Diagnostic]:
    """V37: one row per hit angle and tens 1..10; tens 10 is TK everywhere; the Front and Rear angles have no side
    locations; the published cells and Hull* marks are exact (MBT 6.5.2.2, 6.5.2.3.2)."""
    found = _table(rs, "ap-hit-locations", ("angle", "tens", "location", "hull_star"))
    if found is None:
        return
    i, t, c = found
    seen = defaultdict(list)
    for r, row in enumerate(t.rows):
        angle, tens, loc, star = row[c["angle"]], row[c["tens"]], row[c["location"]], row[c["hull_star"]]
        seen[angle].append(tens)
        p = f"/tables/{i}/rows/{r}"
        want = KNOWN_LOCATIONS.get((angle, tens))
        if want is not None and loc != want:
            yield doc.error("mbt.hit-locations", f"{angle} tens {tens} is {want} (given by the rules), not {loc}",
                            f"{p}/{c['location']}", R + "6.5.2.2")
        if angle in ("front", "rear") and loc in ("TS", "HS"):
            yield doc.error("mbt.hit-locations", f"the {angle} angle has no side location ({loc} at tens {tens})",
                            f"{p}/{c['location']}", R + "6.5.2.3.2")
        if angle == "front_side" and 5 <= tens <= 9 and loc not in HULL:
            yield doc.error("mbt.hit-locations", f"front/side tens {tens} is a hull location (5-9 hull, 10 TK), not "
                            f"{loc}", f"{p}/{c['location']}", R + "6.5.2.2")
        if (angle, tens) in KNOWN_HULL_STAR and bool(star) != KNOWN_HULL_STAR[(angle, tens)]:
            yield doc.error("mbt.hit-locations", f"{angle} tens {tens} is a Hull* location (lost under Partial Hull "
                            "Down)", f"{p}/{c['hull_star']}", R + "6.5.2.2.3")
    for angle in ANGLES:
        if sorted(seen.get(angle, [])) != list(range(1, 11)):
            yield doc.error("mbt.hit-locations", f"angle {angle} needs exactly one row for each tens 1..10, has "
                            f"{sorted(seen.get(angle, []))}", f"/tables/{i}/rows", R + "6.5.2.2", at_key=True)


def _check_gp_crt(doc, rs) -> Iterator[Diagnostic]:
    """V38: the GP Combat Results Table covers GP 1..15 x GP Defense 1..10, each cell with N below S; the published
    cells are exact (MBT 6.5.4.4)."""
    found = _table(rs, "gp-combat", ("gp_factor", "gp_defense", "n_effect", "s_effect"))
    if found is None:
        return
    i, t, c = found
    cells = {}
    for r, row in enumerate(t.rows):
        key = (row[c["gp_factor"]], row[c["gp_defense"]])
        n, s = row[c["n_effect"]], row[c["s_effect"]]
        p = f"/tables/{i}/rows/{r}"
        if key in cells:
            yield doc.error("mbt.gp-crt", f"GP {key[0]} / GPD {key[1]} is listed twice", p, R + "6.5.4.4")
        cells[key] = r
        if isinstance(n, (int, float)) and isinstance(s, (int, float)) and not n < s:
            yield doc.error("mbt.gp-crt", f"GP {key[0]} / GPD {key[1]}: N-Effect {n} must be below S-Effect {s}",
                            f"{p}/{c['s_effect']}", R + "6.5.4.4")
        if key in KNOWN_GP and (n, s) != KNOWN_GP[key]:
            yield doc.error("mbt.gp-crt", f"GP {key[0]} / GPD {key[1]} is {KNOWN_GP[key][0]}/{KNOWN_GP[key][1]} (given "
                            f"by the rules), not {n}/{s}", p, R + "6.5.4.4")
    missing = [(g, d) for g in range(1, 16) for d in range(1, 11) if (g, d) not in cells]
    if missing:
        yield doc.error("mbt.gp-crt", f"{len(missing)} cell(s) of GP 1..15 x GPD 1..10 missing, e.g. GP {missing[0][0]} "
                        f"/ GPD {missing[0][1]}", f"/tables/{i}/rows", R + "6.5.4.4", at_key=True)


def _check_commands(doc, rs) -> Iterator[Diagnostic]:
    """V39: the Available Commands Table has a row per grade with columns 1..9 and 10s; published cells exact
    (MBT 6.2.1.1.1)."""
    columns = ("grade",) + tuple(f"c{k}" for k in range(1, 10)) + ("tens",)
    found = _table(rs, "available-commands", columns)
    if found is None:
        return
    i, t, c = found
    rows = {row[c["grade"]]: r for r, row in enumerate(t.rows)}
    for grade in GRADES:
        if grade not in rows:
            yield doc.error("mbt.commands-table", f"available-commands has no row for grade {grade}",
                            f"/tables/{i}/rows", R + "6.2.1.1.1", at_key=True)
    for (grade, col), value in KNOWN_COMMANDS.items():
        if grade in rows and t.rows[rows[grade]][c[col]] != value:
            yield doc.error("mbt.commands-table", f"{grade} {col} is {value} (given by the rules), not "
                            f"{t.rows[rows[grade]][c[col]]}", f"/tables/{i}/rows/{rows[grade]}/{c[col]}",
                            R + "6.2.1.1.1")
