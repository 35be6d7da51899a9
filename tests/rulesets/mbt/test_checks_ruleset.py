"""MBT ruleset-data checks (digest d.2: V32-V35): a copy of the sample project with one value of ruleset.yaml
broken reports the stable code at the line of that value."""
import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

DATA = Path(__file__).resolve().parents[3] / "data"


def break_ruleset(tmp_path, find_after: str, old: str, new: str):
    """Replace the first ``old`` after the line containing ``find_after``; return the 1-based line changed."""
    root = tmp_path / "data"
    path = root / "rulesets" / "mbt" / "ruleset.yaml"
    path.parent.mkdir(parents=True)
    shutil.copy(DATA / "project.yaml", root / "project.yaml")
    shutil.copy(DATA / "rulesets" / "mbt" / "ruleset.yaml", path)
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if find_after in line)
    i = next(i for i in range(start, len(lines)) if old in lines[i])
    lines[i] = lines[i].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    return root, i + 1


CASES = [
    ("heavy-woods-enterable", "code: HW", "t: null", "t: 6", "mbt.terrain-prohibited", "error"),
    ("wall-half-track", "id: wall", "h: null", "h: 2", "mbt.terrain-prohibited", "error"),
    ("crops-cover", "code: K", "cover: medium", "cover: thick", "mbt.terrain-cover", "error"),
    ("rough-costs", "code: R", "w: 6.0", "x: 6.0", "mbt.terrain-costs", "error", -3),  # at 'move_cost:' 
    ("woods-height", "code: LW", "height: 3", "height: 2", "mbt.terrain-height", "error"),
    ("spotting-known-cell", "id: spotting-ranges", "[-2, 7, 6, 4]", "[-2, 8, 6, 4]", "mbt.spotting-table", "error"),
    ("spotting-not-monotonic", "id: spotting-ranges", "[-2, 7, 6, 4]", "[-2, 7, 16, 4]", "mbt.spotting-table",
     "warning"),
    ("ap-hit-known-cell", "id: ap-hit", "[-2, 68, 56, 43, 30, 17]", "[-2, 68, 57, 43, 30, 17]", "mbt.ap-hit-table",
     "error"),
    ("terrain-without-turn-row", "code: RR", "code: RR", "code: RX", "mbt.terrain-turn", "error"),
    ("ap-hit-rises-p-to-e", "id: ap-hit", "[-2, 68, 56, 43, 30, 17]", "[-2, 68, 56, 43, 50, 17]",
     "mbt.ap-hit-table", "warning"),
    # Advanced Game tables (V36-V39, checks_tables.py)
    ("hits-known-row", "id: ap-number-of-hits", "[56, F, 2, 12, 22]", "[56, F, 2, 12, 21]", "mbt.hits-table",
     "error"),                                  # a gap 22..22 and the published row 56/F (MBT 6.5.2.1)
    ("hit-location-tk", "id: ap-hit-locations", "[front, 10, TK, false]", "[front, 10, HF, false]",
     "mbt.hit-locations", "error"),             # tens 10 is TK at every angle (MBT 6.5.2.2)
    ("hit-location-front-side", "id: ap-hit-locations", "[front, 4, TF, false]", "[front, 4, TS, false]",
     "mbt.hit-locations", "error"),             # the Front angle has no side locations (MBT 6.5.2.3.2)
    ("hit-location-front-side-7", "id: ap-hit-locations", "[front_side, 7, HS, false]", "[front_side, 7, HF, false]",
     "mbt.hit-locations", "error"),             # Front/Side 7 = HS (MBT 6.5.2.2 example, roll 76)
    ("hit-location-front-side-9-hull", "id: ap-hit-locations", "[front_side, 9, HF, true]",
     "[front_side, 9, TS, true]", "mbt.hit-locations", "error"),   # Front/Side 5-9 hull (MBT 6.5.2.2.3)
    ("hit-location-hull-star-8", "id: ap-hit-locations", "[front_side, 8, HS, true]", "[front_side, 8, HS, false]",
     "mbt.hit-locations", "error"),             # Partial Hull Down loses 6, 8, 9 (MBT 6.5.2.2.3)
    ("gp-crt-known-cell", "id: gp-combat", "[5, 3, 43, 72]", "[5, 3, 44, 72]", "mbt.gp-crt", "error"),
    ("gp-crt-n-above-s", "id: gp-combat", "[1, 2, 57, 82]", "[1, 2, 87, 82]", "mbt.gp-crt", "error"),
    ("commands-known-cell", "id: available-commands", "[veteran, 1, 1, 2, 3, 3, 4, 5, 5, 6, 7]",
     "[veteran, 1, 2, 2, 3, 3, 4, 5, 5, 6, 7]", "mbt.commands-table", "error"),   # Veteran 2s = 1 (MBT 6.2.1.1)
    # Optional Rules needs (checks_optional.py): a needs key the scenario extension does not have
    ("optional-needs-key", "id: hidden-units", "scenario: [hidden_units]", "scenario: [hidden_unitz]",
     "mbt.optional-needs-key", "warning"),
]


CASES = [c if len(c) == 7 else c + (0,) for c in CASES]


@pytest.mark.parametrize("name,after,old,new,code,severity,delta", CASES, ids=[c[0] for c in CASES])
def test_broken_ruleset_value(tmp_path, name, after, old, new, code, severity, delta):
    root, line = break_ruleset(tmp_path, after, old, new)
    line += delta
    result = validate_paths([root / "rulesets" / "mbt" / "ruleset.yaml"])
    found = [d for d in result.diagnostics if d.code == code and d.file.endswith("ruleset.yaml")
             and "mbt" in d.file]
    assert any(d.line == line and d.severity.value == severity for d in found), \
        (line, [d.format_text() for d in found])


def test_sample_ruleset_is_clean():
    result = validate_paths([DATA / "rulesets" / "mbt" / "ruleset.yaml"])
    bad = [d for d in result.diagnostics if d.code.startswith("mbt.")]
    assert not bad, [d.format_text() for d in bad]
