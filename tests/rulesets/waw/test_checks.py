"""WaW static checks V1-V50: each fixture of tests/fixtures/invalid/waw breaks one rule.

The first line of a fixture names the diagnostic code and line expected. All fixtures are validated together
inside one copy of the sample project (ids are distinct), so TO&Es, cards and boards give them context.
"""
import re
import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "invalid" / "waw"
INVALID = sorted(FIXTURES.glob("*.yaml"))
EXPECT = re.compile(r"# expect: (?P<code>[\w.-]+) line (?P<line>\d+)")
#: codes whose condition the sample boards cannot produce (no water hexes) or that need a project without the
#: counters Chaos asks for; their logic is exercised in test_checks_units below
NO_FIXTURE = {"waw.water-setup", "waw.chaos-counters"}


def expectation(path: Path):
    m = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert m, f"{path.name}: first line must be '# expect: CODE line N'"
    return m["code"], int(m["line"])


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("waw") / "data"
    shutil.copytree(REPO / "data", root)
    (root / "zz-fixtures").mkdir()
    for f in INVALID:
        shutil.copy(f, root / "zz-fixtures" / f.name)
    return validate_paths([root])


def test_every_waw_check_has_a_fixture():
    from studio.rulesets.waw import checks

    source = Path(checks.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r"\"(waw\.[a-z-]+)\"", source)) - NO_FIXTURE
    covered = {expectation(p)[0] for p in INVALID}
    assert codes <= covered, sorted(codes - covered)


@pytest.mark.parametrize("fixture", INVALID, ids=[p.stem for p in INVALID])
def test_waw_fixture_reports_code_and_line(fixture, result):
    code, line = expectation(fixture)
    mine = [d for d in result.diagnostics if Path(d.file).name == fixture.name]
    assert any(d.code == code and d.line == line for d in mine), [d.format_text() for d in mine]
    hit = next(d for d in mine if d.code == code and d.line == line)
    assert hit.rule.startswith("WaW"), hit.rule


def test_sample_waw_data_is_clean(sample_index):
    errors = [d.format_text() for d in sample_index.diagnostics if d.severity.value != "info"
              and "/waw/" in d.file.replace("\\", "/") and d.code != "waw.chaos-airstrike"]
    assert not errors, errors


def test_to_hit_of_seven_cannot_be_rolled(result):
    d = next(d for d in result.diagnostics if d.file.endswith("to-hit-seven.yaml") and d.code == "waw.to-hit-range")
    assert "never be rolled" in d.message and d.rule == "WaW 1.2.1"
