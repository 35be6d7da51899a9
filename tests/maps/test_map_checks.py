"""Map geometry checks (studio.model.core_checks.check_map_geometry): each fixture in
tests/fixtures/invalid/maps breaks one rule; its first line says the code and line expected.
Validated inside a copy of the fixture project, like tests/fixtures/invalid/core."""
import re
import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
INVALID = sorted((FIXTURES / "invalid" / "maps").glob("*.yaml"))
EXPECT = re.compile(r'# expect: (?P<code>[\w.-]+) line (?P<line>\d+)(?: "(?P<text>[^"]+)")?')


def test_there_is_a_fixture_per_check():
    codes = {EXPECT.match(p.read_text().splitlines()[0])["code"] for p in INVALID}
    assert codes >= {"map.road-gap", "map.hexside-off-board", "map.unknown-hex", "map.duplicate-hexside",
                     "map.hexside-side"}


@pytest.mark.parametrize("fixture", INVALID, ids=[p.stem for p in INVALID])
def test_map_fixture_reports_code_and_line(fixture, tmp_path):
    m = EXPECT.match(fixture.read_text(encoding="utf-8").splitlines()[0])
    assert m, f"{fixture.name}: first line must be '# expect: CODE line N'"
    code, line, text = m["code"], int(m["line"]), m["text"]
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", project)
    target = project / "extra" / fixture.name
    target.parent.mkdir()
    shutil.copy(fixture, target)
    result = validate_paths([project])
    mine = [d for d in result.diagnostics if Path(d.file).name == fixture.name]
    hits = [d for d in mine if d.code == code and d.line == line]
    assert hits, [d.format_text() for d in mine]
    if text:
        assert text in hits[0].message
    # exactly one finding per fixture: the checks do not pile up on one mistake
    assert len([d for d in mine if d.severity.value != "info"]) == 1, [d.format_text() for d in mine]
    others = [d for d in result.diagnostics if Path(d.file).name != fixture.name and d.severity.value == "error"]
    assert not others, [d.format_text() for d in others]


def test_sample_boards_pass_the_geometry_checks(sample_index):
    found = [d.format_text() for d in sample_index.diagnostics if d.code.startswith("map.")]
    assert not found, found
