"""Tiled JSON (.tmj) export/import of hex maps (studio.export.tiled): lossless round trips, the Tiled fields
per orientation/offset, and clear errors for files that are not studio hex maps."""
import base64
import json
import struct
import zlib
from pathlib import Path

import pytest

from studio.export.tiled import TiledError, export_tiled, import_tiled, map_to_tiled, tiled_to_map
from studio.model.documents import Map
from studio.model.project import load_project

DATA = Path(__file__).resolve().parents[2] / "data"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project"


@pytest.fixture(scope="module")
def index():
    return load_project(DATA)


@pytest.mark.parametrize("map_id", ["board-2", "board-4"])
def test_sample_boards_round_trip_identically(map_id, index, tmp_path):
    m = index.model("map", map_id)
    files = export_tiled(m, index.model("ruleset", m.ruleset), tmp_path / f"{map_id}.tmj")
    assert [f.name for f in files] == [f"{map_id}.tmj", f"{map_id}.terrain.png", f"{map_id}.elevation.png"]
    assert all(f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for f in files[1:])
    back = import_tiled(files[0])
    assert back.model_dump() == m.model_dump()
    # import -> export -> import is stable too
    again = tiled_to_map(map_to_tiled(back, index.model("ruleset", m.ruleset))[0])
    assert again.model_dump() == m.model_dump()


def test_tiled_layout_of_a_flat_board(index):
    m = index.model("map", "board-2")
    data, images = map_to_tiled(m, index.model("ruleset", "mbt"), "b2")
    assert (data["orientation"], data["staggeraxis"], data["staggerindex"]) == ("hexagonal", "x", "even")
    assert (data["width"], data["height"]) == (20, 14) and data["hexsidelength"] > 0
    layers = {layer["name"]: layer for layer in data["layers"]}
    assert [layer["type"] for layer in data["layers"]] == ["tilelayer", "tilelayer", "objectgroup", "objectgroup",
                                                           "objectgroup"]
    assert len(layers["terrain"]["data"]) == 280 and len(layers["elevation"]["data"]) == 280
    terrain_ts = data["tilesets"][0]
    codes = [next(p["value"] for p in t["properties"] if p["name"] == "code") for t in terrain_ts["tiles"]]
    woods = next(t for t in terrain_ts["tiles"] if {"name": "code", "type": "string", "value": "W"} in t["properties"])
    colour = next(p for p in woods["properties"] if p["name"] == "colour")
    assert colour == {"name": "colour", "type": "color", "value": "#ff4f8f40"}  # the catalogue's woods colour
    assert codes[0] == "C" and terrain_ts["image"] == "b2.terrain.png" and set(images) == {"b2.terrain.png",
                                                                                           "b2.elevation.png"}
    side = layers["hexsides"]["objects"][0]
    assert {p["name"]: p["value"] for p in side["properties"]} == {"hex": "2C3", "side": "S", "feature": "stream"}
    road = layers["roads"]["objects"][0]
    assert len(road["polyline"]) == len(m.roads[0].hexes)


@pytest.mark.parametrize("orientation, offset, axis", [("flat", "odd", "x"), ("pointy", "even", "y"),
                                                       ("pointy", "odd", "y")])
def test_orientations_and_offsets_round_trip(orientation, offset, axis):
    m = Map(id="small", name="Small", ruleset="alpha", notes="n",
            hex={"orientation": orientation, "offset": offset, "columns": 3, "rows": 2, "labels": "four_digit"},
            terrain=["C W C", "W W C"], elevation=["0 1 2", "3 0 0"],
            hexsides=[{"hex": "0101", "side": "SE" if orientation == "flat" else "E", "feature": "stream"}],
            roads=[{"id": "r", "type": "road", "hexes": ["0101", "0201"]}],
            labels=[{"hex": "0202", "text": "Hill 3"}])
    data, _ = map_to_tiled(m)
    assert (data["staggeraxis"], data["staggerindex"]) == (axis, offset)
    assert tiled_to_map(json.loads(json.dumps(data))).model_dump() == m.model_dump()


def test_base64_zlib_layers_are_read(index):
    m = index.model("map", "board-4")
    data, _ = map_to_tiled(m, index.model("ruleset", "mbt"))
    for layer in data["layers"][:2]:
        raw = struct.pack(f"<{len(layer['data'])}I", *layer["data"])
        layer.update(encoding="base64", compression="zlib", data=base64.b64encode(zlib.compress(raw)).decode())
    assert tiled_to_map(data).model_dump() == m.model_dump()


def test_import_overrides_ruleset_and_id(index):
    m = index.model("map", "board-4")
    back = tiled_to_map(map_to_tiled(m)[0], ruleset="waw", map_id="board-4b")
    assert (back.ruleset, back.id) == ("waw", "board-4b")


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(orientation="orthogonal"), "only hexagonal"),
    (lambda d: d["tilesets"].__setitem__(0, {"firstgid": 1, "source": "t.tsj"}), "Embed Tilesets"),
    (lambda d: d["layers"].pop(0), "no tile layer named 'terrain'"),
    (lambda d: d["layers"][0]["data"].__setitem__(0, 999), "without a 'code' property"),
    (lambda d: d["layers"][0]["data"].pop(), "expected 280"),
    (lambda d: d["layers"][2]["objects"][0]["properties"].pop(), "needs the properties hex, side and feature"),
])
def test_bad_tiled_files_are_refused_with_a_reason(index, change, message):
    data, _ = map_to_tiled(index.model("map", "board-2"), index.model("ruleset", "mbt"))
    change(data)
    with pytest.raises(TiledError, match=message):
        tiled_to_map(data)


def test_unreadable_file(tmp_path):
    bad = tmp_path / "bad.tmj"
    bad.write_text("{ not json")
    with pytest.raises(TiledError, match="is not JSON"):
        import_tiled(bad)
