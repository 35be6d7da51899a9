"""Tiled (mapeditor.org) JSON maps (``.tmj``) to and from hex-board Map documents.

Export writes a ``hexagonal`` Tiled map:

* ``staggeraxis`` ``x`` for flat-top boards (columns shifted), ``y`` for pointy-top (rows shifted);
  ``staggerindex`` is the board's ``offset`` (``even``/``odd``: which columns/rows are shifted down/right);
  the map is ``columns`` x ``rows`` tiles;
* tile layer ``terrain``: one tile per hex from a generated tileset ``terrain`` (one tile per terrain code of
  the ruleset's catalogue plus any unknown code the map uses; tile property ``code``, colour from the catalogue,
  drawn as a filled hex into ``<OUT stem>.terrain.png``);
* tile layer ``elevation``: tileset ``elevation``, one tile per level (tile property ``level``), shaded light to
  dark in ``<OUT stem>.elevation.png``;
* object layer ``hexsides``: a point at each hexside's midpoint with properties ``hex``, ``side``, ``feature``;
* object layer ``roads``: a polyline through the hex centres with properties ``id``, ``type`` and ``hexes``
  (the labels, comma separated: the polyline is for the eye, the property is what import reads);
* object layer ``labels``: a point per map label with properties ``hex`` and ``text``;
* map properties: the document's ``id``, ``name``, ``ruleset``, ``notes`` and hex spec (``board``, ``labels``,
  ``hex_m``, ``hex_mm``).

Import reverses it into a Map document (embedded tilesets; CSV or base64, optionally zlib/gzip, tile data; tile
flip bits are ignored). Export then import gives an identical Map when the map's rows are written in aligned
columns (each code padded to the longest, as the studio saves them); other spacing comes back aligned.
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.hexgrid import coords
from studio.model.documents import HexGridSpec, Map, Ruleset
from studio.model.maps import assemble_single, direction_names, offset_kind
from studio.model.safeio import ReadRefused, read_regular, write_atomic

TILED_VERSION = "1.10"
SIDE = 16                                  # hexside length in pixels
SHORT = round(math.sqrt(3) * SIDE)         # flat-to-flat width in pixels
GID_MASK = 0x1FFFFFFF                      # Tiled's flip flags live in the top bits
LAYERS = ("terrain", "elevation", "hexsides", "roads", "labels")


class TiledError(ValueError):
    """A .tmj file that is not a hex map this studio can read (the message says why)."""


# ------------------------------------------------------------------ geometry (pixels, as Tiled draws)

def _tile_size(flat: bool) -> tuple[int, int]:
    return (2 * SIDE, SHORT) if flat else (SHORT, 2 * SIDE)


def _centre(col: int, row: int, flat: bool, stagger: str) -> tuple[float, float]:
    w, h = _tile_size(flat)
    shifted = (col if flat else row) % 2 == (0 if stagger == "even" else 1)
    if flat:
        return (col * (w + SIDE) / 2 + w / 2, row * h + h / 2 + (h / 2 if shifted else 0))
    return (col * w + w / 2 + (w / 2 if shifted else 0), row * (h + SIDE) / 2 + h / 2)


def _inside(dx: float, dy: float, flat: bool) -> bool:
    if not flat:
        dx, dy = dy, dx
    r3 = math.sqrt(3)
    return abs(dy) <= r3 / 2 * SIDE and r3 * abs(dx) + abs(dy) <= r3 * SIDE


# ------------------------------------------------------------------ a tiny PNG writer (RGBA, no dependencies)

def _png(width: int, height: int, pixels: list[list[tuple[int, int, int, int]]]) -> bytes:
    raw = b"".join(b"\x00" + b"".join(struct.pack("4B", *p) for p in row) for row in pixels)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def tileset_png(colours: list[str], flat: bool) -> bytes:
    """One filled hex per colour, side by side (the tileset image)."""
    w, h = _tile_size(flat)
    rows = [[(0, 0, 0, 0)] * (w * len(colours)) for _ in range(h)]
    for i, colour in enumerate(colours):
        r, g, b = _rgb(colour)
        edge = (r * 3 // 5, g * 3 // 5, b * 3 // 5, 255)
        for y in range(h):
            for x in range(w):
                dx, dy = x + 0.5 - w / 2, y + 0.5 - h / 2
                if _inside(dx, dy, flat):
                    border = not all(_inside(dx + ex, dy + ey, flat) for ex, ey in ((1.5, 0), (-1.5, 0), (0, 1.5),
                                                                                   (0, -1.5)))
                    rows[y][i * w + x] = edge if border else (r, g, b, 255)
    return _png(w * len(colours), h, rows)


# ------------------------------------------------------------------ export

def _prop(name: str, value: Any) -> dict[str, Any]:
    kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else \
        "float" if isinstance(value, float) else "string"
    return {"name": name, "type": kind, "value": value}


def _cells(m: Map) -> tuple[list[list[str]], list[list[str]]]:
    return [row.split() for row in m.terrain], [row.split() for row in m.elevation]


@dataclass(frozen=True)
class _Tiles:
    """The generated tilesets: gid of each terrain code and level, the Tiled tileset entries, the PNG images."""

    terrain_gid: dict[str, int]
    level_gid: dict[int, int]
    tilesets: list[dict]
    images: dict[str, bytes]


def _level_colour(v: int, lo: int, span: int) -> str:
    t = (v - lo) / span
    return "#%02x%02x%02x" % (round(245 - 120 * t), round(240 - 150 * t), round(225 - 185 * t))


def _tilesets(m: Map, ruleset: Ruleset | None, image_stem: str, flat: bool) -> _Tiles:
    w, h = _tile_size(flat)
    terrain_rows, level_rows = _cells(m)
    catalogue = {t.code: t for t in (ruleset.terrain if ruleset else [])}
    codes = list(catalogue)
    codes += sorted({c for row in terrain_rows for c in row} - set(codes))
    levels_used = [int(v) for row in level_rows for v in row if _is_int(v)]
    bounds = [ruleset.elevation.min, ruleset.elevation.max] if ruleset else [0]
    lo, hi = min(bounds + levels_used), max(bounds + levels_used)
    levels = list(range(lo, hi + 1))
    terrain_colours = [catalogue[c].colour if c in catalogue else "#ff00ff" for c in codes]
    level_colours = [_level_colour(v, lo, max(1, hi - lo)) for v in levels]
    images = {f"{image_stem}.terrain.png": tileset_png(terrain_colours or ["#ffffff"], flat),
              f"{image_stem}.elevation.png": tileset_png(level_colours, flat)}
    tilesets = [
        {"firstgid": 1, "name": "terrain", "class": "studio-terrain", "tilewidth": w, "tileheight": h,
         "tilecount": len(codes), "columns": len(codes), "margin": 0, "spacing": 0,
         "image": f"{image_stem}.terrain.png", "imagewidth": w * max(1, len(codes)), "imageheight": h,
         "tiles": [{"id": i, "properties": [_prop("code", c),
                                            _prop("name", catalogue[c].name if c in catalogue else c),
                                            {"name": "colour", "type": "color",
                                             "value": "#ff" + terrain_colours[i][1:].lower()}]}
                   for i, c in enumerate(codes)]},
        {"firstgid": 1 + len(codes), "name": "elevation", "class": "studio-elevation", "tilewidth": w,
         "tileheight": h, "tilecount": len(levels), "columns": len(levels), "margin": 0, "spacing": 0,
         "image": f"{image_stem}.elevation.png", "imagewidth": w * len(levels), "imageheight": h,
         "tiles": [{"id": i, "properties": [_prop("level", v)]} for i, v in enumerate(levels)]},
    ]
    return _Tiles({c: 1 + i for i, c in enumerate(codes)}, {v: 1 + len(codes) + i for i, v in enumerate(levels)},
                  tilesets, images)


def _layer_data(spec, rows: list[list[str]], gid_of) -> list[int]:
    out = []
    for r in range(spec.rows):
        row = rows[r] if r < len(rows) else []
        out.extend(gid_of(row[c]) if c < len(row) else 0 for c in range(spec.columns))
    return out


def _object_layers(m: Map) -> tuple[list[dict], list[dict], list[dict]]:
    """The hexside points, road polylines and label points (ids 1, 2, ... in that order)."""
    spec = m.hex
    flat = spec.orientation == "flat"
    board = assemble_single(m)
    kind = offset_kind(spec)
    names = direction_names(spec)
    ids = iter(range(1, 1 + len(m.hexsides) + len(m.roads) + len(m.labels)))

    def centre_of(label: str) -> tuple[float, float]:
        hx = board.hex_of.get(label)
        return (0.0, 0.0) if hx is None else _centre(*coords.axial_to_offset(hx, kind), flat, spec.offset)

    def point(name: str, kind_: str, x: float, y: float, props: list[dict]) -> dict:
        return {"id": next(ids), "name": name, "type": kind_, "x": round(x, 2), "y": round(y, 2), "width": 0,
                "height": 0, "rotation": 0, "visible": True, "point": True, "properties": props}

    sides = []
    for entry in m.hexsides:
        x, y = centre_of(entry.hex)
        if entry.side in names and entry.hex in board.hex_of:
            other = coords.neighbour(board.hex_of[entry.hex], names.index(entry.side))
            nx, ny = _centre(*coords.axial_to_offset(other, kind), flat, spec.offset)
            x, y = (x + nx) / 2, (y + ny) / 2
        sides.append(point(f"{entry.feature} {entry.hex} {entry.side}", "hexside", x, y,
                           [_prop("hex", entry.hex), _prop("side", entry.side), _prop("feature", entry.feature)]))
    roads = []
    for road in m.roads:
        points = [centre_of(label) for label in road.hexes]
        x0, y0 = points[0]
        roads.append({"id": next(ids), "name": road.id, "type": "road", "x": round(x0, 2), "y": round(y0, 2),
                      "width": 0, "height": 0, "rotation": 0, "visible": True,
                      "polyline": [{"x": round(px - x0, 2), "y": round(py - y0, 2)} for px, py in points],
                      "properties": [_prop("id", road.id), _prop("type", road.type),
                                     _prop("hexes", ",".join(road.hexes))]})
    labels = [point(text.text, "label", *centre_of(text.hex), [_prop("hex", text.hex), _prop("text", text.text)])
              for text in m.labels]
    return sides, roads, labels


def map_to_tiled(m: Map, ruleset: Ruleset | None = None, image_stem: str = "map") -> tuple[dict, dict[str, bytes]]:
    """Tiled JSON of a hex-board Map, and the tileset images ``{file name: PNG bytes}`` it refers to."""
    spec = m.hex
    if spec is None:
        raise TiledError(f"map '{m.id}' is a measured table, not a hex board; Tiled export needs a hex board")
    flat = spec.orientation == "flat"
    w, h = _tile_size(flat)
    terrain_rows, level_rows = _cells(m)
    tiles = _tilesets(m, ruleset, image_stem, flat)
    sides, roads, labels = _object_layers(m)

    def tile_layer(lid: int, name: str, data: list[int]) -> dict:
        return {"id": lid, "name": name, "type": "tilelayer", "x": 0, "y": 0, "width": spec.columns,
                "height": spec.rows, "opacity": 1, "visible": True, "data": data}

    def object_layer(lid: int, name: str, objects: list[dict]) -> dict:
        return {"id": lid, "name": name, "type": "objectgroup", "x": 0, "y": 0, "opacity": 1, "visible": True,
                "draworder": "index", "objects": objects}

    properties = [_prop("id", m.id), _prop("name", m.name), _prop("ruleset", m.ruleset), _prop("notes", m.notes),
                  _prop("board", spec.board), _prop("labels", spec.labels), _prop("hex_m", float(spec.hex_m)),
                  _prop("hex_mm", float(spec.hex_mm))]
    level_of = lambda v: tiles.level_gid.get(int(v), 0) if _is_int(v) else 0  # noqa: E731
    data = {
        "type": "map", "version": TILED_VERSION, "tiledversion": "1.10.2", "class": "studio-map",
        "orientation": "hexagonal", "renderorder": "right-down", "infinite": False,
        "width": spec.columns, "height": spec.rows, "tilewidth": w, "tileheight": h, "hexsidelength": SIDE,
        "staggeraxis": "x" if flat else "y", "staggerindex": spec.offset,
        "nextlayerid": 6, "nextobjectid": 1 + len(sides) + len(roads) + len(labels), "compressionlevel": -1,
        "properties": properties,
        "tilesets": tiles.tilesets,
        "layers": [tile_layer(1, "terrain", _layer_data(spec, terrain_rows, lambda c: tiles.terrain_gid[c])),
                   tile_layer(2, "elevation", _layer_data(spec, level_rows, level_of)),
                   object_layer(3, "hexsides", sides), object_layer(4, "roads", roads),
                   object_layer(5, "labels", labels)],
    }
    return data, tiles.images


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def export_tiled(m: Map, ruleset: Ruleset | None, out: Path) -> list[Path]:
    """Write ``out`` (.tmj) and its two tileset images beside it, each atomically and never through a symlink
    (``WriteRefused``); returns the files written."""
    out = Path(out)
    data, images = map_to_tiled(m, ruleset, out.stem)
    written = [write_atomic(out.with_name(name), png) for name, png in images.items()]
    write_atomic(out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return [out, *(out.with_name(p.name) for p in written)]


# ------------------------------------------------------------------ import
#
# Every size is checked before the work it bounds: the file before it is read, the declared width and height
# before any layer, a layer's data length before it is decoded, and compressed data inflates incrementally
# with a hard output cap of exactly the bytes the declared size needs.

MAX_TMJ_BYTES = 16 * 1024 * 1024           # a 500 x 500 map exported by the studio is about 4 MB
MAX_LEVEL = 10 ** 6                        # |elevation level| accepted from a tile property


def _grid_limit(field: str) -> int:
    """The Map model's own upper bound on ``columns``/``rows`` (one source of truth)."""
    return next(m.le for m in HexGridSpec.model_fields[field].metadata if getattr(m, "le", None) is not None)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if type(value) is not int:
        raise TiledError(f"{what} must be an integer, not {_shown(value)}")
    if not lo <= value <= hi:
        raise TiledError(f"{what} is {value}; it must be between {lo} and {hi:,}")
    return value


def _shown(value: Any) -> str:
    """A short description of a JSON value for messages (never its full text)."""
    if isinstance(value, (dict, list)):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    if value is None:
        return "null"
    text = repr(value)
    text = f"{text[:40]}..." if len(text) > 40 else text
    return text if isinstance(value, str) else f"{type(value).__name__} {text}"


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise TiledError(f"{what} must be a JSON array, not {_shown(value)}")
    return value


def _dicts(value: Any, what: str) -> list[dict]:
    items = _list(value, what)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise TiledError(f"{what}[{i}] must be a JSON object, not {_shown(item)}")
    return items


def _text(value: Any, what: str) -> str:
    """A string property (integers are accepted as their digits, e.g. a hex label typed as 101)."""
    if isinstance(value, str) or type(value) is int:
        return str(value)
    raise TiledError(f"{what} must be a string, not {_shown(value)}")


def _props(obj: dict, what: str) -> dict[str, Any]:
    """Tiled custom properties as {name: value} (a list of {name, type, value}; a plain object in old Tiled)."""
    props = obj.get("properties")
    if props is None:
        return {}
    if isinstance(props, dict):  # very old Tiled versions
        return dict(props)
    out: dict[str, Any] = {}
    for i, p in enumerate(_dicts(props, f"{what}: properties")):
        name = p.get("name")
        if not isinstance(name, str):
            raise TiledError(f"{what}: properties[{i}] needs a string 'name', not {_shown(name)}")
        out[name] = p.get("value")
    return out


def _b64_limit(size: int) -> int:
    """Longest base64 text a layer of ``size`` tiles can need (compressed data may be a little larger)."""
    return 4 * ((size * 4 + size // 16 + 64) // 3 + 1) + 1024


def _inflate(raw: bytes, compression: str, cap: int, name: str) -> bytes:
    """Decompress zlib/gzip data, never producing more than ``cap`` bytes (a bomb stops at the cap)."""
    inflater = zlib.decompressobj(31 if compression == "gzip" else 15)
    try:
        out = inflater.decompress(raw, cap + 1)
    except zlib.error as exc:
        raise TiledError(f"layer '{name}': the {compression} data is corrupt ({exc})") from None
    if len(out) > cap or inflater.unconsumed_tail:
        raise TiledError(f"layer '{name}': the {compression} data inflates to more than the {cap:,} bytes "
                         "its width x height needs; refusing it")
    if not inflater.eof:
        raise TiledError(f"layer '{name}': the {compression} data is truncated")
    if inflater.unused_data:
        raise TiledError(f"layer '{name}': data continues after the end of the {compression} stream")
    return out


def _decoded(layer: dict, name: str, size: int) -> list[int]:
    data = layer["data"]
    if len(data) > _b64_limit(size):
        raise TiledError(f"layer '{name}': {len(data):,} characters of base64 data, more than a layer of {size:,} "
                         "tiles can need")
    compression = layer.get("compression") or ""
    if compression not in ("", "zlib", "gzip"):
        raise TiledError(f"layer '{name}': {_shown(compression)} compression is not supported; save the map with "
                         "CSV, base64, zlib or gzip tile layer format")
    try:
        raw = base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise TiledError(f"layer '{name}': the base64 data is corrupt ({exc})") from None
    if compression:
        raw = _inflate(raw, compression, size * 4, name)
    if len(raw) != size * 4:
        raise TiledError(f"layer '{name}' has {len(raw) / 4:g} tiles, expected {size}")
    return [g & GID_MASK for g in struct.unpack(f"<{size}I", raw)]


def _layer_gids(layer: dict, name: str, size: int) -> list[int]:
    """The tile ids of a tile layer of ``size`` tiles (CSV array or base64, optionally zlib/gzip)."""
    data = layer.get("data")
    if isinstance(data, list):
        if len(data) != size:
            raise TiledError(f"layer '{name}' has {len(data)} tiles, expected {size}")
        return [_int(g, f"layer '{name}': tile {i}", 0, 0xFFFFFFFF) & GID_MASK for i, g in enumerate(data)]
    if isinstance(data, str):
        if layer.get("encoding") != "base64":
            raise TiledError(f"layer '{name}': string data needs \"encoding\": \"base64\", not "
                             f"{_shown(layer.get('encoding'))}")
        return _decoded(layer, name, size)
    if data is None:
        raise TiledError(f"layer '{name}' has no tile data (infinite maps are not supported)")
    raise TiledError(f"layer '{name}': data must be an array or a base64 string, not {_shown(data)}")


def _tile_properties(data: dict) -> tuple[dict[int, str], dict[int, int]]:
    """gid -> terrain code and gid -> elevation level, from the embedded tilesets' tile properties."""
    gid_code: dict[int, str] = {}
    gid_level: dict[int, int] = {}
    for n, ts in enumerate(_dicts(data.get("tilesets", []), "tilesets")):
        if "source" in ts:
            raise TiledError(f"tileset {_text(ts['source'], f'tilesets[{n}].source')!r} is external; embed the "
                             "tilesets in the map (Tiled: Map > Embed Tilesets) and export again")
        first = _int(ts.get("firstgid", 1), f"tilesets[{n}].firstgid", 1, GID_MASK)
        for t, tile in enumerate(_dicts(ts.get("tiles", []), f"tilesets[{n}].tiles")):
            where = f"tilesets[{n}].tiles[{t}]"
            tp = _props(tile, where)
            gid = first + _int(tile.get("id", 0), f"{where}.id", 0, GID_MASK)
            if "code" in tp:
                gid_code[gid] = _text(tp["code"], f"{where}: property 'code'")
            if "level" in tp:
                gid_level[gid] = _int(tp["level"], f"{where}: property 'level'", -MAX_LEVEL, MAX_LEVEL)
    return gid_code, gid_level


def _layers(data: dict) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for layer in _dicts(data.get("layers", []), "layers"):
        name = layer.get("name")
        if isinstance(name, str):
            out.setdefault(name, layer)
    return out


def _objects(layers: dict[str, dict], name: str) -> list[tuple[Any, Any, dict[str, Any]]]:
    """(id, name, properties) of each object of object layer ``name`` (none when the layer is absent)."""
    layer = layers.get(name)
    if layer is None:
        return []
    out = []
    for i, o in enumerate(_dicts(layer.get("objects", []), f"layer '{name}': objects")):
        ident = o["id"] if type(o.get("id")) is int else f"#{i}"
        out.append((ident, o.get("name", ""), _props(o, f"layer '{name}': object {ident}")))
    return out


def _hexsides(layers: dict[str, dict]) -> list[dict]:
    out = []
    for ident, _, p in _objects(layers, "hexsides"):
        if not {"hex", "side", "feature"} <= set(p):
            raise TiledError(f"hexside object {ident} needs the properties hex, side and feature")
        out.append({k: _text(p[k], f"hexside object {ident}: property '{k}'") for k in ("hex", "side", "feature")})
    return out


def _roads(layers: dict[str, dict]) -> list[dict]:
    out = []
    for ident, _, p in _objects(layers, "roads"):
        if not {"id", "type", "hexes"} <= set(p):
            raise TiledError(f"road object {ident} needs the properties id, type and hexes")
        road = {k: _text(p[k], f"road object {ident}: property '{k}'") for k in ("id", "type", "hexes")}
        road["hexes"] = [h.strip() for h in road["hexes"].split(",")]
        out.append(road)
    return out


def _labels(layers: dict[str, dict]) -> list[dict]:
    out = []
    for ident, name, p in _objects(layers, "labels"):
        if "hex" not in p:
            raise TiledError(f"label object {ident} needs the property hex")
        out.append({"hex": _text(p["hex"], f"label object {ident}: property 'hex'"),
                    "text": _text(p.get("text", name), f"label object {ident}: property 'text'")})
    return out


def _align(rows: list[list[str]]) -> list[str]:
    width = max((len(c) for row in rows for c in row), default=1)
    return [" ".join(c.ljust(width) for c in row).rstrip() for row in rows]


def _geometry(data: Any) -> tuple[str, str, int, int]:
    """(staggeraxis, staggerindex, columns, rows) of a fixed-size hexagonal Tiled map, checked."""
    if not isinstance(data, dict) or data.get("type", "map") != "map":
        raise TiledError("not a Tiled map (expected a JSON object with \"type\": \"map\")")
    if data.get("orientation") != "hexagonal":
        raise TiledError(f"the map is {_shown(data.get('orientation'))}; only hexagonal Tiled maps can become "
                         "hex boards")
    if data.get("infinite") not in (None, False, 0):
        raise TiledError("infinite Tiled maps are not supported; resize the map to a fixed size")
    axis, index = data.get("staggeraxis"), data.get("staggerindex")
    if axis not in ("x", "y") or index not in ("odd", "even"):
        raise TiledError(f"unexpected staggeraxis/staggerindex {_shown(axis)}/{_shown(index)}")
    columns = _int(data.get("width"), "width", 1, _grid_limit("columns"))
    rows = _int(data.get("height"), "height", 1, _grid_limit("rows"))
    return axis, index, columns, rows


def _grids(data: dict, layers: dict[str, dict], columns: int, rows: int) -> tuple[list[str], list[str]]:
    """The aligned terrain and elevation rows of the map's two tile layers."""
    gid_code, gid_level = _tile_properties(data)
    if "terrain" not in layers:
        raise TiledError("no tile layer named 'terrain'")
    size = columns * rows
    terrain = _layer_gids(layers["terrain"], "terrain", size)
    missing = sorted({g for g in terrain if g not in gid_code})
    if missing:
        raise TiledError(f"terrain layer uses tiles without a 'code' property (gids {missing[:5]}); paint with the "
                         "studio's terrain tileset")
    levels = _layer_gids(layers["elevation"], "elevation", size) if "elevation" in layers else [0] * size
    terrain_rows = [[gid_code[g] for g in terrain[r * columns:(r + 1) * columns]] for r in range(rows)]
    level_rows = [[str(gid_level.get(g, 0)) for g in levels[r * columns:(r + 1) * columns]] for r in range(rows)]
    return _align(terrain_rows), _align(level_rows)


def _hex_spec(props: dict[str, Any], axis: str, index: str, columns: int, rows: int) -> dict[str, Any]:
    spec: dict[str, Any] = {"orientation": "flat" if axis == "x" else "pointy", "columns": columns, "rows": rows,
                            "offset": index}
    for key in ("labels", "board", "hex_m", "hex_mm"):
        if key in props:
            if isinstance(props[key], (dict, list)) or props[key] is None:
                raise TiledError(f"map property '{key}' must be a single value, not {_shown(props[key])}")
            spec[key] = props[key]
    return spec


def tiled_to_map(data: Any, ruleset: str | None = None, map_id: str | None = None) -> Map:
    """A Map document from Tiled JSON data; ``ruleset``/``map_id`` override the map's own properties.

    Raises TiledError (saying what is wrong) for anything that is not such a map; never another exception."""
    axis, index, columns, rows = _geometry(data)
    props = _props(data, "map")
    layers = _layers(data)
    terrain, elevation = _grids(data, layers, columns, rows)
    named = {k: _text(props[k], f"map property '{k}'") for k in ("id", "name", "ruleset", "notes")
             if props.get(k) not in (None, "")}
    doc: dict[str, Any] = {"kind": "map", "id": map_id or named.get("id") or "imported-map",
                           "name": named.get("name") or map_id or named.get("id") or "Imported map",
                           "ruleset": ruleset or named.get("ruleset") or "",
                           "hex": _hex_spec(props, axis, index, columns, rows), "terrain": terrain,
                           "elevation": elevation}
    if named.get("notes"):
        doc["notes"] = named["notes"]
    for key, value in (("hexsides", _hexsides(layers)), ("roads", _roads(layers)), ("labels", _labels(layers))):
        if value:
            doc[key] = value
    try:
        return Map.model_validate(doc)
    except ValueError as exc:
        raise TiledError(f"the Tiled map does not make a valid map document: {exc}") from None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise TiledError(f"number {text[:40]} is out of range")
    return value


def _no_constant(name: str) -> float:
    raise TiledError(f"{name} is not a number JSON allows")


def import_tiled(path: Path, ruleset: str | None = None, map_id: str | None = None) -> Map:
    """Read a ``.tmj`` file into a Map document (TiledError naming the file for anything unusable)."""
    try:
        raw = read_regular(Path(path), MAX_TMJ_BYTES)
    except ReadRefused as exc:  # a FIFO, a device, a folder, too large: refused before reading
        raise TiledError(f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise TiledError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise TiledError(f"{path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at line {line})") from None
    try:
        data = json.loads(text.removeprefix("\ufeff"), parse_float=_finite, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise TiledError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except TiledError as exc:
        raise TiledError(f"{path}: {exc}") from None
    except RecursionError:
        raise TiledError(f"{path}: JSON nesting is too deep") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise TiledError(f"{path}: unreadable JSON value ({exc})") from None
    try:
        return tiled_to_map(data, ruleset, map_id)
    except TiledError as exc:
        raise TiledError(f"{path}: {exc}") from None
