"""Finding positions come from the first parse (no second parse of the file) and equal those of composing it."""
from __future__ import annotations

from array import array
from pathlib import Path

import pytest
import yaml

from studio.model import yamlio
from studio.model.project import load_document, project_files

REPO = Path(__file__).resolve().parents[2]

TEXT = """\
kind: unit
id: "m1"
name: M1 Abrams
weapons:
  - name: gun
    range: [1, 6, 12]
    note: |
      two
      lines
  - {name: mg, range: [1, 2]}
empty: {}
list: []
'a/b~c': 3
"""


def _pointers(data, pointer=""):
    yield pointer
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _pointers(value, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _pointers(value, f"{pointer}/{i}")


@pytest.mark.parametrize("text", [TEXT] + [p.read_text(encoding="utf-8") for p in project_files(REPO / "data")[::9]])
def test_marks_give_the_positions_of_composing_the_text(text):
    marks = array("Q")
    data = yamlio.parse(text, marks)
    first, composed = yamlio.SourceMap(text, marks, data), yamlio.SourceMap(text)
    for pointer in _pointers(data):
        assert first.position(pointer) == composed.position(pointer), pointer
        assert first.key_position(pointer) == composed.key_position(pointer), pointer
    if text is TEXT:
        assert first.position("/weapons/1/range/1") == (10, 27)


def test_loaded_documents_do_not_parse_again(tmp_path, monkeypatch):
    path = tmp_path / "m1.yaml"
    path.write_text(TEXT, encoding="utf-8")
    doc = load_document(path)
    monkeypatch.setattr(yaml, "compose", lambda *a, **k: pytest.fail("the file was parsed a second time"))
    assert doc.source_map.position("/weapons/0/note") == (7, 11)
    assert doc.source_map.key_position("/a~1b~0c") == (13, 1)


def test_data_changed_since_the_parse_falls_back_to_the_text():
    marks = array("Q")
    data = yamlio.parse(TEXT, marks)
    data["weapons"].append({"name": "extra"})
    assert yamlio.SourceMap(TEXT, marks, data).position("/weapons/1/name") == (10, 12)
    data = yamlio.parse(TEXT, marks := array("Q"))
    data["weapons"][0] = "replaced"  # fewer nodes than marks: the marks are not used either
    assert yamlio.SourceMap(TEXT, marks, data).position("/weapons/0/range") == (6, 12)


@pytest.mark.parametrize("walks", [0, 10 ** 6])
@pytest.mark.parametrize("text", [TEXT] + [p.read_text(encoding="utf-8") for p in project_files(REPO / "data")[::23]])
def test_walked_and_tabled_positions_equal_composed_ones(text, walks, monkeypatch):
    """Every look-up answered by walking the data (``walks`` huge) or by the table (``walks`` 0) gives what
    composing the text gives, missing pointers (nearest existing ancestor) and non-canonical indices included."""
    monkeypatch.setattr(yamlio.SourceMap, "WALKS", walks)
    marks = array("Q")
    data = yamlio.parse(text, marks)
    first, composed = yamlio.SourceMap(text, marks, data), yamlio.SourceMap(text)
    extra = ["/nope", "/weapons/7", "/weapons/01", "/weapons/0/range/x", "/weapons/-1", "/name/deeper", "/list/0"]
    for pointer in [*_pointers(data), *extra]:
        assert first.position(pointer) == composed.position(pointer), pointer
        assert first.key_position(pointer) == composed.key_position(pointer), pointer
    assert (first._positions is None) == (walks > 0)


def test_one_finding_walks_without_building_the_table():
    marks = array("Q")
    data = yamlio.parse(TEXT, marks)
    source = yamlio.SourceMap(TEXT, marks, data)
    assert source.key_position("/a~1b~0c") == (13, 1) and source.position("/weapons/1/range/1") == (10, 27)
    assert source._positions is None


def test_positions_of_an_alias_bomb_stay_as_small_as_its_text():
    """A composed tree whose aliases repeat nodes is indexed once per node (a finding on an alias bomb or a
    self-referencing alias must not expand it: it once ran the validator out of memory)."""
    from studio.model.yamlio import SourceMap

    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 5)]
    bomb = SourceMap("kind: layout\n" + "\n".join(lines) + "\n")
    assert bomb.position("/a4/3/2") == (6, 5)  # not indexed below the alias: the node that holds it
    assert len(bomb._positions) < 200
    self_ref = SourceMap("kind: layout\nid: &x [*x]\n")
    assert self_ref.position("/id/0/0/0") == (2, 5)
