"""MBT static checks (rules digest d.1-d.3): each fixture of tests/fixtures/invalid/mbt breaks one rule.

The first line of a fixture says the diagnostic code and line expected (and optionally a message fragment). The
fixture is validated inside a copy of the sample project, so TO&Es, cards and boards give it context.
"""
import re
import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "invalid" / "mbt"
INVALID = sorted(FIXTURES.glob("*.yaml"))
EXPECT = re.compile(r'# expect: (?P<code>[\w.-]+) line (?P<line>\d+)(?: "(?P<text>[^"]+)")?')


def expectation(path: Path):
    m = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert m, f"{path.name}: first line must be '# expect: CODE line N'"
    return m["code"], int(m["line"]), m["text"]


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("mbt") / "data"
    shutil.copytree(REPO / "data", root)
    return root


@pytest.fixture(scope="module")
def project_docs(project_copy):
    """The sample project's documents, loaded once: each fixture is validated in an index of these plus itself
    (the same checks as validating the whole folder, reported for the fixture only)."""
    from studio.model.project import display_path, load_documents, project_files

    files = project_files(project_copy)
    return load_documents(files, [display_path(f) for f in files])


def validate_fixture(project_copy, docs, target: Path):
    from studio.model.project import ProjectIndex, display_path, load_documents
    from studio.model.validate import _key, validate_index

    index = ProjectIndex(project_copy)
    for doc in docs:
        index.add(doc)
    (doc,) = load_documents([target], [display_path(target)])
    index.add(doc)
    return validate_index(index, {_key(target)})


def _check_sources() -> str:
    """The text of every MBT check module (checks.py and checks_advanced.py)."""
    from studio.rulesets.mbt import checks

    return "".join(p.read_text(encoding="utf-8") for p in sorted(Path(checks.__file__).parent.glob("checks*.py")))


def test_every_mbt_check_has_a_fixture():
    """Every code has a fixture here, or a broken-ruleset case in test_checks_ruleset.py (mbt.hill-level: see
    COVERAGE.md, the ruleset caps levels first)."""
    cases = (Path(__file__).parent / "test_checks_ruleset.py").read_text(encoding="utf-8")
    codes = set(re.findall(r"\"(mbt\.[a-z-]+)\"", _check_sources())) - {"mbt.hill-level"}
    covered = {expectation(p)[0] for p in INVALID} | set(re.findall(r"\"(mbt\.[a-z-]+)\"", cases))
    assert codes <= covered, sorted(codes - covered)


@pytest.mark.parametrize("fixture", INVALID, ids=[p.stem for p in INVALID])
def test_mbt_fixture_reports_code_and_line(fixture, project_copy, project_docs):
    code, line, text = expectation(fixture)
    target = project_copy / "zz-fixture" / fixture.name
    target.parent.mkdir(exist_ok=True)
    for old in target.parent.glob("*.yaml"):
        old.unlink()
    shutil.copy(fixture, target)
    before = target.read_bytes()
    result = validate_fixture(project_copy, project_docs, target)
    mine = [d for d in result.diagnostics if Path(d.file).name == fixture.name]
    assert any(d.code == code and d.line == line for d in mine), [d.format_text() for d in mine]
    hit = next(d for d in mine if d.code == code and d.line == line)
    if text:
        assert text in hit.message + hit.hint, hit.message
    if code.startswith("mbt."):
        assert hit.rule.startswith("MBT") or code in ("mbt.placeholder-pointer", "mbt.designation", "mbt.hex",
                                                      "mbt.setup-count", "mbt.weapon-id", "mbt.slot-id")
    # one broken rule: no other error codes in the fixture
    other = {d.code for d in mine if d.severity.value == "error"} - {code}
    assert not other, [d.format_text() for d in mine]
    assert target.read_bytes() == before, "validation must never write to its input"


def test_every_mbt_check_code_is_in_coverage():
    from studio.rulesets.mbt import checks

    coverage = (Path(checks.__file__).parent / "COVERAGE.md").read_text(encoding="utf-8")
    codes = set(re.findall(r"\"(mbt\.[a-z-]+)\"", _check_sources()))
    missing = sorted(c for c in codes if f"`{c}`" not in coverage)
    assert not missing, missing


def _pairwise_card_ref_warnings(index):
    """The quadratic reading of V29 (every card against every other), for comparison with the linear check."""
    from studio.rulesets.mbt.checks import _body

    out = set()
    for doc in index.of_kind("unit"):
        body = _body(doc)
        if body is None or body.card_ref is None:
            continue
        if any(o is not doc and o.model is not None and _body(o) is not None and _body(o).card_ref == body.card_ref
               and o.ruleset == doc.ruleset for o in index.of_kind("unit")):
            out.add(doc.id)
    return out


def test_card_ref_check_is_the_pairwise_check_and_follows_edits(tmp_path):
    """V29 (MBT 1.6.1) by one table per index: the same warnings as comparing every pair of cards, and an edit
    in place (a card's reference changed) is seen at the next check."""
    from studio.model.project import load_project
    from studio.rulesets.mbt.checks import _body, check_card_refs

    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    text = (FIXTURES / "card-ref-duplicate.yaml").read_text(encoding="utf-8")
    for k in range(36):  # references XR-0..XR-9 three times each, then unique ones
        ref = f"XR-{k % 10}" if k < 30 else f"XU-{k}"
        (root / "units" / f"gen-{k}.yaml").write_text(
            text.replace("id: test-vehicle", f"id: gen-{k}").replace("card_ref: SM-1B", f"card_ref: {ref}"),
            encoding="utf-8")
    index = load_project(root)
    warned = {d.id for d in index.of_kind("unit") if any(x.code == "mbt.card-ref" for x in check_card_refs(d, index))}
    assert warned == _pairwise_card_ref_warnings(index)
    assert {f"gen-{k}" for k in range(30)} <= warned and not warned & {f"gen-{k}" for k in range(30, 36)}
    doc = index.get("unit", "gen-0")
    others = [index.get("unit", f"gen-{k}") for k in (10, 20)]
    for o in others:  # gen-0 keeps XR-0 alone once its two twins are renamed in place
        o.model = o.model.model_copy(update={"body": _body(o).model_copy(update={"card_ref": f"XZ-{o.id[4:]}"})})
    assert not list(check_card_refs(doc, index))
    assert warned - {"gen-0", "gen-10", "gen-20"} == _pairwise_card_ref_warnings(index)
