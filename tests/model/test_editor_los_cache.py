"""The map editor's LOS tool (``studio.document.los``) keeps its LOS service per document version."""
import copy
from pathlib import Path

import pytest

from studio.document import los as tool
from studio.document.board import Board
from studio.model.los import LosService
from studio.model.maps import assemble_single
from studio.model.project import load_project

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def docs():
    index = load_project(DATA)
    return index, index.get("map", "board-2").data, index.get("ruleset", "mbt").data


def test_unchanged_documents_reuse_one_service(docs):
    index, map_data, ruleset_data = docs
    board = Board.from_spec(map_data["hex"])
    first = tool.los_service(copy.deepcopy(map_data), ruleset_data)
    assert tool.los_service(copy.deepcopy(map_data), ruleset_data) is first   # same content, same service
    fresh = LosService(assemble_single(index.model("map", "board-2")), index.model("ruleset", "mbt"))
    cells = [(c, r) for r in range(board.rows) for c in range(board.columns)]
    for a, b in [(cells[i], cells[(i * 31 + 7) % len(cells)]) for i in range(0, len(cells), 5)]:
        result = tool.line_of_sight(board, map_data, ruleset_data, a, b)
        assert result.clear == fresh.check(board.label(a), board.label(b)).clear


def test_an_edit_gives_a_new_service_and_answer(docs):
    _, map_data, ruleset_data = docs
    data = copy.deepcopy(map_data)
    board = Board.from_spec(data["hex"])
    a, b, middle = (0, 12), (4, 12), (2, 12)          # three hexes of the bottom row
    data["terrain"][12] = " ".join(["C"] * board.columns)
    data["elevation"] = [" ".join(["0"] * board.columns)] * board.rows
    data["hexsides"], data["roads"] = [], []
    before = tool.los_service(data, ruleset_data)
    assert tool.line_of_sight(board, data, ruleset_data, a, b).clear
    row = data["terrain"][12].split()
    row[middle[0]] = "W"                               # woods between: MBT 4.1.4.2.1
    data["terrain"][12] = " ".join(row)                # edited in place, as the editor's operations do
    assert tool.los_service(data, ruleset_data) is not before
    blocked = tool.line_of_sight(board, data, ruleset_data, a, b)
    assert not blocked.clear and blocked.blocked_at == [middle]


def test_an_explicit_version_is_the_cache_key(docs):
    _, map_data, ruleset_data = docs
    data = copy.deepcopy(map_data)
    one = tool.los_service(data, ruleset_data, version=("board-2", 1))
    data["name"] = "renamed"
    assert tool.los_service(data, ruleset_data, version=("board-2", 1)) is one
    assert tool.los_service(data, ruleset_data, version=("board-2", 2)) is not one


def test_invalid_documents_say_so_until_fixed(docs):
    _, map_data, ruleset_data = docs
    board = Board.from_spec(map_data["hex"])
    data = copy.deepcopy(map_data)
    data["hex"] = dict(data["hex"], columns="twenty")
    result = tool.line_of_sight(board, data, ruleset_data, (0, 0), (3, 3))
    assert not result.measured and "the map has errors" in result.reason
    bad_ruleset = dict(ruleset_data, terrain="none")
    result = tool.line_of_sight(board, map_data, bad_ruleset, (0, 0), (3, 3))
    assert not result.measured and "ruleset has errors" in result.reason
    assert tool.line_of_sight(board, map_data, ruleset_data, (0, 0), (3, 3)).measured
