"""Assault static checks (rules digest d.1-32): each fixture of tests/rulesets/assault/fixtures breaks one rule.

The first line of a fixture says the diagnostic code and line expected (and optionally a message fragment). The
fixture is validated inside a copy of the sample project's Assault documents, so TO&Es, cards and boards give it
context.
"""
import re
import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

REPO = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
INVALID = sorted(FIXTURES.glob("*.yaml"))
EXPECT = re.compile(r'# expect: (?P<code>[\w.-]+) line (?P<line>\d+)(?: "(?P<text>[^"]+)")?')
#: codes no fixture in the real project can reach, with the test that proves them instead
ELSEWHERE = {"assault.armour-type": "test_armour_type_missing_from_hit_confirmation"}


def expectation(path: Path):
    m = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert m, f"{path.name}: first line must be '# expect: CODE line N'"
    return m["code"], int(m["line"]), m["text"]


#: the Assault part of the sample project: each fixture is validated beside it (not beside all 228 files)
ASSAULT_PARTS = ("rulesets/assault", "units/assault", "toe/assault", "scenarios/assault", "maps/assault-*.yaml",
                 "layouts/assault-*.yaml", "variants/assault-*.yaml")


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory):
    """The sample project's Assault documents and a project file that names only the Assault ruleset."""
    data, root = REPO / "data", tmp_path_factory.mktemp("assault") / "data"
    for pattern in ASSAULT_PARTS:
        for src in data.glob(pattern):
            dst = root / src.relative_to(data)
            if src.is_dir():
                shutil.copytree(src, dst)
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(src, dst)
    project = (data / "project.yaml").read_text(encoding="utf-8")
    (root / "project.yaml").write_text(re.sub(r"(?m)^rulesets: .*$", "rulesets: [assault]", project), "utf-8")
    assert not [d for d in validate_paths([root]).diagnostics if d.severity.value == "error"]
    return root


def _codes() -> set[str]:
    from studio.rulesets.assault import checks

    return set(re.findall(r"\"(assault\.[a-z-]+)\"", Path(checks.__file__).read_text(encoding="utf-8")))


def test_every_assault_check_has_a_fixture():
    covered = {expectation(p)[0] for p in INVALID}
    assert _codes() - set(ELSEWHERE) <= covered, sorted(_codes() - set(ELSEWHERE) - covered)


@pytest.mark.parametrize("fixture", INVALID, ids=[p.stem for p in INVALID])
def test_assault_fixture_reports_code_and_line(fixture, project_copy):
    code, line, text = expectation(fixture)
    target = project_copy / "zz-fixture" / fixture.name
    target.parent.mkdir(exist_ok=True)
    for old in target.parent.glob("*.yaml"):
        old.unlink()
    shutil.copy(fixture, target)
    before = target.read_bytes()
    result = validate_paths([project_copy])
    mine = [d for d in result.diagnostics if Path(d.file).name == fixture.name]
    assert any(d.code == code and d.line == line for d in mine), [d.format_text() for d in mine]
    hit = next(d for d in mine if d.code == code and d.line == line)
    if text:
        assert text in hit.message + hit.hint, hit.message
    assert hit.rule.startswith("Assault"), hit.rule
    other = {d.code for d in mine if d.severity.value == "error"} - {code}
    assert not other, [d.format_text() for d in mine]
    assert target.read_bytes() == before, "validation must never write to its input"


def test_armour_type_missing_from_hit_confirmation(tmp_path):
    """d.4: a laminate vehicle needs a laminate row in table hit-confirmation (Assault 13.B.3)."""
    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    path = root / "rulesets" / "assault" / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert "- [laminate, 2]\n" in text
    path.write_text(text.replace("      - [laminate, 2]\n", ""), encoding="utf-8")
    result = validate_paths([root])
    found = [d for d in result.diagnostics if d.code == "assault.armour-type"]
    assert {Path(d.file).name for d in found} == {"su-t80-platoon.yaml", "su-t72-platoon.yaml",
                                                  "su-t64-platoon.yaml"}, [d.format_text() for d in found]


def test_sample_data_is_clean():
    result = validate_paths([REPO / "data"])
    mine = [d.format_text() for d in result.diagnostics
            if "assault" in d.file and d.severity.value in ("error", "warning")]
    assert not mine, mine


def test_engine_tables_are_declared(tmp_path):
    """The engine's TableSpecs: a constants row the engine reads, removed, is a ruleset.engine-table error."""
    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    path = root / "rulesets" / "assault" / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    row = "      - [double-hit-margin, 2, Assault 13.A]\n"
    assert row in text
    path.write_text(text.replace(row, ""), encoding="utf-8")
    result = validate_paths([root])
    found = [d for d in result.diagnostics if d.code == "ruleset.engine-table" and "assault" in d.file]
    assert found and "double-hit-margin" in found[0].message, [d.format_text() for d in result.diagnostics][:5]


def test_every_assault_check_code_is_in_coverage():
    coverage = (REPO / "studio" / "rulesets" / "assault" / "COVERAGE.md").read_text(encoding="utf-8")
    missing = sorted(c for c in _codes() if f"`{c}`" not in coverage)
    assert not missing, missing


def test_cross_attachment_limits_are_read_from_the_constants_table(tmp_path):
    """d.17, Assault 4.C.4: the platoon limits per receiving HQ are ruleset constants; raising the U.S. company
    limit from 2 to 3 lets the over-limit fixture pass (the engine's attach listing reads the same rows)."""
    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    shutil.copy(Path(__file__).parent / "fixtures" / "cross-attach-limit.yaml", root / "scenarios" / "fx.yaml")
    over = [d for d in validate_paths([root]).diagnostics if d.code == "assault.cross-attach"]
    assert over and "at most 2" in over[0].message
    path = root / "rulesets" / "assault" / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    row = "      - [cross-attach-us-company, 2, Assault 4.C.4]\n"
    assert row in text
    path.write_text(text.replace(row, row.replace(", 2,", ", 3,")), encoding="utf-8")
    assert not [d for d in validate_paths([root]).diagnostics if d.code == "assault.cross-attach"]
