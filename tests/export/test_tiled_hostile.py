"""Hostile Tiled files (issue 18 item 3): every malformed ``.tmj`` gets a clear refusal from ``studio map import``
(exit 1 or 2, the file and what is wrong on stderr), never a traceback, never a written output; compressed
layers never inflate past what the declared size needs; ``map export`` never writes through a symlink."""
import base64
import gzip
import json
import os
import shutil
import struct
import tracemalloc
import zlib
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.export.tiled import TiledError, map_to_tiled, tiled_to_map
from studio.model.documents import Map

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """project.yaml and the rulesets only (the import checks the ruleset id against them): loads fast."""
    root = tmp_path_factory.mktemp("tiled-project")
    shutil.copy(REPO / "data" / "project.yaml", root)
    shutil.copytree(REPO / "data" / "rulesets", root / "rulesets")
    shutil.copy(REPO / "data" / "maps" / "board-4.yaml", root / "board-4.yaml")
    return root


def small_map() -> dict:
    """A valid 3 x 2 exported map with one object in each object layer."""
    m = Map(id="small", name="Small", ruleset="mbt", notes="n",
            hex={"orientation": "flat", "offset": "even", "columns": 3, "rows": 2, "labels": "four_digit"},
            terrain=["C W C", "W W C"], elevation=["0 1 2", "3 0 0"],
            hexsides=[{"hex": "0101", "side": "SE", "feature": "stream"}],
            roads=[{"id": "r", "type": "road", "hexes": ["0101", "0201"]}],
            labels=[{"hex": "0202", "text": "Hill 3"}])
    return json.loads(json.dumps(map_to_tiled(m)[0]))


def layer(d: dict, name: str) -> dict:
    return next(x for x in d["layers"] if x["name"] == name)


def packed(d: dict, name: str) -> bytes:
    return struct.pack(f"<{len(layer(d, name)['data'])}I", *layer(d, name)["data"])


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def encode(d: dict, name: str, raw: bytes, compression: str = "") -> None:
    layer(d, name).update(encoding="base64", data=b64(raw), **({"compression": compression} if compression else {}))


def set_in(*path_and_value):
    """A change that sets d[p0][p1]...[pn] = value (layers addressed by name)."""
    *path, value = path_and_value

    def change(d):
        target = d
        for key in path[:-1]:
            target = layer(target, key[1:]) if isinstance(key, str) and key.startswith("@") else target[key]
        target[path[-1]] = value
    return change


def props_of(obj: dict, name: str, value) -> None:
    next(p for p in obj["properties"] if p["name"] == name)["value"] = value


def deep(n: int):
    value: list = []
    for _ in range(n):
        value = [value]
    return value


# Each variant: a change to the valid map (a function of the parsed data), or the raw bytes of the file.
VARIANTS = {
    # top level and encoding
    "top-level-list": b"[]",
    "top-level-string": b'"map"',
    "top-level-null": b"null",
    "empty-file": b"",
    "not-json": b"{ not json",
    "non-utf8": b'{"type": "map", "name": "\xff\xfe caf\xe9"}',
    "deep-nesting": b"[" * 200_000 + b"]" * 200_000,
    "huge-int-width": b'{"type": "map", "orientation": "hexagonal", "staggeraxis": "x", "staggerindex": "even", '
                      b'"width": ' + b"9" * 5000 + b', "height": 2}',
    "nan-constant": b'{"type": "map", "orientation": "hexagonal", "width": NaN}',
    "type-tileset": set_in("type", "tileset"),
    "orientation-dict": set_in("orientation", {"x": 1}),
    "staggeraxis-list": set_in("staggeraxis", ["x"]),
    "infinite": set_in("infinite", True),
    # declared size
    "width-string": set_in("width", "3"),
    "width-null": set_in("width", None),
    "width-float": set_in("width", 3.5),
    "width-infinite": lambda d: d.update(width=1e999),
    "width-bool": set_in("width", True),
    "width-negative": set_in("width", -3),
    "width-zero": set_in("width", 0),
    "width-huge": set_in("width", 10 ** 12),
    "height-missing": lambda d: d.pop("height"),
    "size-mismatch": set_in("width", 4),
    # tilesets
    "tilesets-string": set_in("tilesets", "terrain"),
    "tilesets-object": set_in("tilesets", {"firstgid": 1}),
    "tilesets-int-items": set_in("tilesets", [5, 6]),
    "tiles-string": set_in("tilesets", 0, "tiles", "x"),
    "firstgid-string": set_in("tilesets", 0, "firstgid", "1"),
    "firstgid-negative": set_in("tilesets", 0, "firstgid", -5),
    "tile-id-null": lambda d: d["tilesets"][0]["tiles"][0].update(id=None),
    "tile-properties-string": lambda d: d["tilesets"][0]["tiles"][0].update(properties="code"),
    "tile-properties-strings": lambda d: d["tilesets"][0]["tiles"][0].update(properties=["code", "C"]),
    "property-name-list": lambda d: d["tilesets"][0]["tiles"][0]["properties"][0].update(name=["code"]),
    "code-property-dict": lambda d: props_of(d["tilesets"][0]["tiles"][0], "code", {"a": 1}),
    "level-property-string": lambda d: props_of(d["tilesets"][1]["tiles"][0], "level", "high"),
    "external-tileset-dict-source": set_in("tilesets", 0, {"firstgid": 1, "source": {"file": "t.tsj"}}),
    # layers and tile data
    "layers-object": set_in("layers", {"terrain": {}}),
    "layers-ints": set_in("layers", [1, 2]),
    "layer-name-int": set_in("layers", 0, "name", 7),
    "data-object": set_in("@terrain", "data", {"0": 1}),
    "data-null": set_in("@terrain", "data", None),
    "data-strings": lambda d: layer(d, "terrain").update(data=[str(g) for g in layer(d, "terrain")["data"]]),
    "data-floats": lambda d: layer(d, "terrain").update(data=[float(g) for g in layer(d, "terrain")["data"]]),
    "data-nested": lambda d: layer(d, "terrain").update(data=[[1, 2]] * 6),
    "data-negative-gid": lambda d: layer(d, "terrain")["data"].__setitem__(0, -1),
    "data-gid-too-big": lambda d: layer(d, "terrain")["data"].__setitem__(0, 2 ** 40),
    "string-data-no-encoding": set_in("@terrain", "data", "AAAA"),
    "encoding-base32": lambda d: layer(d, "terrain").update(encoding="base32", data="AAAA"),
    "bad-base64": lambda d: layer(d, "terrain").update(encoding="base64", data="!!!! not base64 ***"),
    "base64-short": lambda d: encode(d, "terrain", packed(d, "terrain")[:-4]),
    "base64-odd-length": lambda d: encode(d, "terrain", packed(d, "terrain")[:-1]),
    "base64-too-long": lambda d: layer(d, "terrain").update(encoding="base64", data="A" * 100_000),
    "bad-zlib": lambda d: encode(d, "terrain", b"this is not zlib data at all", "zlib"),
    "bad-gzip": lambda d: encode(d, "terrain", b"this is not gzip data at all", "gzip"),
    "truncated-zlib": lambda d: encode(d, "terrain", zlib.compress(packed(d, "terrain"))[:-6], "zlib"),
    "truncated-gzip": lambda d: encode(d, "terrain", gzip.compress(packed(d, "terrain"))[:-10], "gzip"),
    "zlib-trailing-garbage": lambda d: encode(d, "terrain", zlib.compress(packed(d, "terrain")) + b"junk", "zlib"),
    "zlib-too-long": lambda d: encode(d, "terrain", zlib.compress(packed(d, "terrain") * 2), "zlib"),
    "gzip-too-short": lambda d: encode(d, "terrain", gzip.compress(packed(d, "terrain")[:8]), "gzip"),
    "compression-zstd": lambda d: encode(d, "terrain", packed(d, "terrain"), "zstd"),
    "compression-int": lambda d: layer(d, "terrain").update(encoding="base64", compression=5,
                                                            data=b64(packed(d, "terrain"))),
    # objects and properties
    "objects-string": set_in("@hexsides", "objects", "x"),
    "objects-ints": set_in("@roads", "objects", [1, 2]),
    "object-properties-int": lambda d: layer(d, "labels")["objects"][0].update(properties=5),
    "hexside-hex-null": lambda d: props_of(layer(d, "hexsides")["objects"][0], "hex", None),
    "hexside-side-list": lambda d: props_of(layer(d, "hexsides")["objects"][0], "side", ["SE"]),
    "road-hexes-dict": lambda d: props_of(layer(d, "roads")["objects"][0], "hexes", {"a": "0101"}),
    "road-one-hex": lambda d: props_of(layer(d, "roads")["objects"][0], "hexes", "0101"),
    "label-text-deep": lambda d: props_of(layer(d, "labels")["objects"][0], "text", deep(900)),
    "map-properties-int": set_in("properties", 5),
    "map-id-list": lambda d: props_of(d, "id", ["small"]),
    "map-notes-deep": lambda d: props_of(d, "notes", deep(900)),
    "map-hex-m-infinite": lambda d: props_of(d, "hex_m", 1e999),
    "map-hex-m-string": lambda d: props_of(d, "hex_m", "big"),
    "map-board-dict": lambda d: props_of(d, "board", {"b": 2}),
    "map-labels-unknown": lambda d: props_of(d, "labels", "roman"),
}


def file_bytes(variant) -> bytes:
    if isinstance(variant, bytes):
        return variant
    d = small_map()
    variant(d)
    text = json.dumps(d)
    return text.replace("Infinity", "1e999").encode()  # json.dumps writes inf as Infinity; 1e999 is what we test


def run_import(capsys, source: Path, out: Path, project: Path):
    code = main(["map", "import", str(source), "--ruleset", "mbt", str(out), "--project", str(project)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_there_are_at_least_40_hostile_variants():
    assert len(VARIANTS) >= 40


def test_the_base_map_imports(tmp_path, capsys, project):
    source = tmp_path / "ok.tmj"
    source.write_bytes(file_bytes(lambda d: None))
    code, out, err = run_import(capsys, source, tmp_path / "ok.yaml", project)
    assert code == 0, err
    assert (tmp_path / "ok.yaml").is_file() and "3 x 2 hexes" in out


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_hostile_tiled_file_is_refused_with_a_diagnostic(name, tmp_path, capsys, project):
    source = tmp_path / f"{name}.tmj"
    source.write_bytes(file_bytes(VARIANTS[name]))
    out = tmp_path / "out.yaml"
    code, stdout, err = run_import(capsys, source, out, project)
    assert code == 1, (code, err)
    assert "Traceback" not in err + stdout
    assert err.startswith("studio map import: ") and str(source) in err, err
    assert ": None" not in err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == [source.name]


@pytest.mark.parametrize("name", sorted(k for k, v in VARIANTS.items() if not isinstance(v, bytes)))
def test_hostile_data_raises_only_tiled_error(name):
    d = small_map()
    VARIANTS[name](d)
    with pytest.raises(TiledError):
        tiled_to_map(d)


def test_refusals_say_what_is_wrong(tmp_path, capsys, project):
    expected = {"width-string": "width must be an integer, not '3'", "width-huge": "between 1 and 500",
                "bad-zlib": "zlib data is corrupt", "bad-gzip": "gzip data is corrupt",
                "bad-base64": "base64 data is corrupt", "tilesets-string": "tilesets must be a JSON array",
                "objects-ints": "objects[0] must be a JSON object", "non-utf8": "not UTF-8",
                "deep-nesting": "too deep", "huge-int-width": "4300", "top-level-list": "not a Tiled map",
                "width-infinite": "out of range", "nan-constant": "NaN is not a number"}
    for name, message in expected.items():
        source = tmp_path / f"{name}.tmj"
        source.write_bytes(file_bytes(VARIANTS[name]))
        code, _, err = run_import(capsys, source, tmp_path / "out.yaml", project)
        assert code == 1 and message in err, (name, err)


def bomb(compression: str, size: int) -> bytes:
    """``size`` zero bytes, compressed (a few kB per MB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31 if compression == "gzip" else 15)
    chunk = bytes(1 << 20)
    out = [packer.compress(chunk) for _ in range(size >> 20)]
    return b"".join(out) + packer.flush()


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_a_compression_bomb_stops_at_the_declared_size(compression, tmp_path, capsys, project):
    d = small_map()
    d.update(width=500, height=500)  # the largest board the Map model allows: 1,000,000 bytes of tile data
    encode(d, "terrain", bomb(compression, 32 << 20), compression)  # 32 MB of zeros in ~32 kB
    source = tmp_path / "bomb.tmj"
    source.write_text(json.dumps(d))
    tracemalloc.start()
    try:
        code, _, err = run_import(capsys, source, tmp_path / "out.yaml", project)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 1 and "inflates to more than the 1,000,000 bytes" in err, err
    assert peak < 12 << 20, peak  # never the 32 MB the data would inflate to
    assert not (tmp_path / "out.yaml").exists()


def test_a_small_declared_map_refuses_a_large_layer_before_decoding(tmp_path, capsys, project):
    d = small_map()
    encode(d, "terrain", bomb("zlib", 8 << 20), "zlib")  # ~10 kB of base64 (8 MB inflated) for a 3 x 2 map
    source = tmp_path / "bomb.tmj"
    source.write_text(json.dumps(d))
    code, _, err = run_import(capsys, source, tmp_path / "out.yaml", project)
    assert code == 1 and "more than a layer of 6 tiles can need" in err, err


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_valid_compressed_layers_still_import(compression, tmp_path, capsys, project):
    d = small_map()
    for name in ("terrain", "elevation"):
        raw = packed(d, name)
        encode(d, name, zlib.compress(raw) if compression == "zlib" else gzip.compress(raw), compression)
    assert tiled_to_map(d).model_dump() == tiled_to_map(small_map()).model_dump()


def test_special_and_oversized_inputs_are_refused(tmp_path, capsys, project, monkeypatch):
    fifo = tmp_path / "fifo.tmj"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.tmj"
    zero.symlink_to("/dev/zero")
    folder = tmp_path / "folder.tmj"
    folder.mkdir()
    big = tmp_path / "big.tmj"
    big.write_bytes(file_bytes(lambda d: None))
    monkeypatch.setattr("studio.export.tiled.MAX_TMJ_BYTES", 100)
    for source, message in ((fifo, "not a regular file"), (zero, "not a regular file"),
                            (folder, "it is a folder"), (big, "the limit is 100")):
        code, _, err = run_import(capsys, source, tmp_path / "out.yaml", project)
        assert code == 1 and str(source) in err and message in err, err
        assert "Traceback" not in err and not (tmp_path / "out.yaml").exists()
    code, _, err = run_import(capsys, tmp_path / "missing.tmj", tmp_path / "out.yaml", project)
    assert code == 2 and "no such file" in err


def test_import_never_writes_through_a_symlinked_output(tmp_path, capsys, project):
    source = tmp_path / "ok.tmj"
    source.write_bytes(file_bytes(lambda d: None))
    outside = tmp_path / "outside"
    outside.mkdir()
    link = tmp_path / "out.yaml"
    link.symlink_to(outside / "target.yaml")  # dangling
    for extra in ([], ["--force"]):
        code = main(["map", "import", str(source), "--ruleset", "mbt", str(link), "--project", str(project), *extra])
        err = capsys.readouterr().err
        assert code == 2 and "symbolic link" in err, err
        assert not (outside / "target.yaml").exists() and link.is_symlink()


def test_export_to_a_dangling_symlink_does_not_create_its_target(tmp_path, capsys, project):
    outside = tmp_path / "outside"
    outside.mkdir()
    for link_name in ("b4.tmj", "b4.terrain.png"):
        work = tmp_path / link_name.replace(".", "-")
        work.mkdir()
        (work / link_name).symlink_to(outside / f"evil-{link_name}")
        for extra in ([], ["--force"]):
            code = main(["map", "export", str(project / "board-4.yaml"), "--to", "tiled", str(work / "b4.tmj"),
                         "--project", str(project), *extra])
            err = capsys.readouterr().err
            assert code == 2 and "symbolic link" in err and "Traceback" not in err, err
        assert list(outside.iterdir()) == [] and (work / link_name).is_symlink()
        assert [p.name for p in work.iterdir()] == [link_name]


def test_export_refuses_when_a_symlink_appears_after_the_checks(tmp_path, project, monkeypatch, capsys):
    """The writer itself refuses symlinks (not only the command's pre-checks)."""
    import studio.cli.commands.map as cmd
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "b4.tmj"
    monkeypatch.setattr(cmd, "_check_out", lambda path, force: None)
    out.symlink_to(outside / "evil.tmj")
    code = main(["map", "export", str(project / "board-4.yaml"), "--to", "tiled", str(out), "--project",
                 str(project)])
    err = capsys.readouterr().err
    assert code == 2 and "refusing to write" in err and "symbolic link" in err, err
    assert list(outside.iterdir()) == []
