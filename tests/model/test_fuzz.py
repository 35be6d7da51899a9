"""Hypothesis fuzzing: random bytes, random YAML trees and truncated files always give diagnostics, never a
traceback, and never a write to the input."""
import os
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.model.project import load_document, project_files
from studio.model.validate import validate_paths

REPO = Path(__file__).resolve().parents[2]
SAMPLES = project_files(REPO / "tests" / "fixtures" / "project")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["unit", "toe", "map", "scenario", "ruleset", "alpha",
                                                           "tank", "board-x", "0101", "C W", "mbt"]))
keys = st.sampled_from(["kind", "schema_version", "id", "ruleset", "name", "nation", "body", "root", "slots",
                        "unit", "count", "hex", "terrain", "elevation", "boards", "sides", "forces", "turns",
                        "first_player", "columns", "rows", "map", "setup", "hexes", "victory", "x"])
trees = st.recursive(scalars, lambda children: st.one_of(st.lists(children, max_size=4),
                                                         st.dictionaries(keys, children, max_size=6)), max_leaves=25)


def check_file(path: Path, content: bytes) -> None:
    path.write_bytes(content)
    stamp = path.stat().st_mtime_ns
    doc = load_document(path)
    assert doc.model is not None or doc.diagnostics
    for d in doc.diagnostics:
        assert d.line >= 1 and d.column >= 1 and d.code and d.message
    assert path.read_bytes() == content and path.stat().st_mtime_ns == stamp


@FAST
@given(st.binary(max_size=400))
def test_random_bytes(tmp_path, content):
    check_file(tmp_path / "random.yaml", content)


@FAST
@given(st.dictionaries(keys, trees, max_size=8), st.sampled_from(["unit", "toe", "map", "scenario", "ruleset"]))
def test_random_yaml_trees(tmp_path, tree, kind):
    tree = {"kind": kind, **tree}
    check_file(tmp_path / "tree.yaml", yaml.safe_dump(tree, allow_unicode=True).encode("utf-8"))


@FAST
@given(st.sampled_from(SAMPLES), st.floats(0.0, 1.0))
def test_truncated_files(tmp_path, sample, fraction):
    content = sample.read_bytes()
    check_file(tmp_path / sample.name, content[: int(len(content) * fraction)])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_project_with_a_mangled_file_validates(tmp_path_factory, data):
    """A whole project in which one file is replaced by a random tree still validates without raising."""
    import shutil

    root = tmp_path_factory.mktemp("proj") / "p"
    shutil.copytree(REPO / "tests" / "fixtures" / "project", root)
    victim = data.draw(st.sampled_from(sorted(project_files(root))))
    tree = data.draw(st.dictionaries(keys, trees, max_size=8))
    tree["kind"] = yaml.safe_load(victim.read_text()).get("kind")
    victim.write_text(yaml.safe_dump(tree), encoding="utf-8")
    before = {p: p.read_bytes() for p in project_files(root)}
    result = validate_paths([root])
    assert result.files == len(before)
    assert all(p.read_bytes() == b for p, b in before.items())
    assert not [d for d in result.diagnostics if d.code == "internal.check-failed"], \
        [d.format_text() for d in result.diagnostics if d.code == "internal.check-failed"]


def test_huge_file_is_refused(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        handle.write(b"kind: unit\nnotes: '")
        handle.seek(17 * 1024 * 1024)
        handle.write(b"'\n")
    doc = load_document(path)
    assert [d.code for d in doc.diagnostics] == ["file.too-large"]


def test_billion_laughs_is_refused(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 9) + "]" for i in range(1, 9)]
    path = tmp_path / "lol.yaml"
    path.write_text("\n".join(lines) + "\nkind: unit\n")
    doc = load_document(path)
    assert [d.code for d in doc.diagnostics] == ["syntax.alias"]


def test_unreadable_path_is_a_diagnostic(tmp_path):
    doc = load_document(tmp_path / "missing.yaml")
    assert [d.code for d in doc.diagnostics] == ["file.unreadable"]
    os.makedirs(tmp_path / "dir.yaml")
    assert [d.code for d in load_document(tmp_path / "dir.yaml").diagnostics] == ["file.unreadable"]
