"""Each file of tests/fixtures/invalid/core breaks one named rule; its first line says the code and line expected.

The file is validated inside a copy of the fixture project, so reference checks have context.
"""
import re
import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
INVALID = sorted((FIXTURES / "invalid" / "core").glob("*.yaml"))
EXPECT = re.compile(r'# expect: (?P<code>[\w.-]+) line (?P<line>\d+)(?: "(?P<text>[^"]+)")?')


def expectation(path: Path):
    m = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert m, f"{path.name}: first line must be '# expect: CODE line N'"
    return m["code"], int(m["line"]), m["text"]


@pytest.mark.parametrize("fixture", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_fixture_reports_code_and_line(fixture, tmp_path):
    code, line, text = expectation(fixture)
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", project)
    target = project / "extra" / fixture.name
    target.parent.mkdir()
    shutil.copy(fixture, target)
    before = target.read_bytes()
    result = validate_paths([project])
    mine = [d for d in result.diagnostics if Path(d.file).name == fixture.name]
    assert any(d.code == code and d.line == line for d in mine), [d.format_text() for d in mine]
    hit = next(d for d in mine if d.code == code and d.line == line)
    if text:
        assert text in hit.message + hit.hint
    assert target.read_bytes() == before, "validation must never write to its input"
    others = [d for d in result.diagnostics if Path(d.file).name != fixture.name and d.severity.value == "error"
              and fixture.name not in d.message]
    assert not others, [d.format_text() for d in others]


def test_fixture_project_is_clean():
    result = validate_paths([FIXTURES / "project"])
    assert not result.errors, [d.format_text() for d in result.errors]
    assert result.files == 9
