"""Hostile inputs made at run time (too big to commit, or not files at all): symlinks to devices, FIFOs, files
over the size limit, 100k-deep nesting, zlib/gzip bombs in Tiled layers, huge replays.

Every case here runs isolated (a child process with a memory limit and a time limit), except those that only
need the in-process alarm."""
from __future__ import annotations

import base64
import json
import zlib
from functools import lru_cache

from corpus import AUTOSAVE_SIDE, REPLAY_INPUT, TILED_INPUT, document_cases
from harness import Case, Fifo, Link, import_case, recovery_case, replay_cli_case, validate_cases

BIG = 17 * 1024 * 1024           # over the studio's 16 MB read limit
NEAR = 12 * 1024 * 1024          # under it


@lru_cache(maxsize=None)
def bomb(method: str, inflated: int) -> str:
    """base64 of ``inflated`` zero bytes, zlib- or gzip-compressed (made once per session)."""
    chunk = bytes(1 << 20)
    comp = zlib.compressobj(9, zlib.DEFLATED, 31 if method == "gzip" else 15)
    parts = [comp.compress(chunk) for _ in range(inflated >> 20)]
    parts.append(comp.flush())
    return base64.b64encode(b"".join(parts)).decode("ascii")


def bomb_tmj(method: str, inflated: int) -> bytes:
    layer = {"type": "tilelayer", "name": "terrain", "width": 20, "height": 14, "encoding": "base64",
             "compression": method, "data": bomb(method, inflated)}
    return json.dumps({"type": "map", "orientation": "hexagonal", "width": 20, "height": 14, "tilewidth": 32,
                       "tileheight": 28, "hexsidelength": 16, "staggeraxis": "x", "staggerindex": "even",
                       "tilesets": [], "layers": [layer]}).encode()


def special_document_cases(small: bool = False) -> list[Case]:
    """Special files and huge documents beside (or instead of) a unit card."""
    unit = "project/units/mbt/"
    cases: list[Case] = []

    def add(name: str, label: str, files: dict, rel: str, entries=("validate-json",)) -> None:
        cases.extend(validate_cases(rel, f"generated/{name}: {label}", files, isolate=True, entries=entries))

    add("dev-zero-link", "a *.yaml symlink to /dev/zero", {unit + "zero.yaml": Link("/dev/zero")},
        "project/units")
    add("fifo", "a FIFO named *.yaml", {unit + "fifo.yaml": Fifo()}, "project/units")
    add("fifo-file", "validate the FIFO itself", {unit + "fifo.yaml": Fifo()}, unit + "fifo.yaml")
    add("over-limit", f"a {BIG:,}-byte document", {unit + "big.yaml": b"kind: unit\nnotes: " + b"x" * BIG + b"\n"},
        unit + "big.yaml")
    if small:
        return cases
    add("dev-zero-project", "project.yaml is a symlink to /dev/zero", {"project/project.yaml": Link("/dev/zero")},
        "project")
    add("dev-urandom-link", "a *.yaml symlink to /dev/urandom", {unit + "r.yaml": Link("/dev/urandom")},
        "project/units")
    add("link-loop", "a symlink loop", {unit + "loop.yaml": Link("loop.yaml")}, "project/units")
    add("dangling-link", "a dangling symlink", {unit + "gone.yaml": Link("/nonexistent/gone.yaml")},
        "project/units")
    add("link-outside", "a symlink to a document outside the project",
        {"inputs/outside.yaml": b"kind: unit\nid: outside\n", unit + "out.yaml": Link("../../../inputs/outside.yaml")},
        "project/units", entries=("validate-json", "format-check"))
    add("near-limit", f"a {NEAR:,}-byte string in a unit card",
        {unit + "near.yaml": (b"kind: unit\nschema_version: 1\nid: near\nruleset: mbt\nname: x\nnotes: "
                              + b"y" * NEAR + b"\n")}, unit + "near.yaml")
    add("many-keys", "200,000 keys in one mapping",
        {unit + "keys.yaml": b"kind: unit\n" + b"".join(b"k%d: %d\n" % (i, i) for i in range(200_000))},
        unit + "keys.yaml")
    add("deep-flow", "100,000-deep flow nesting", {unit + "deep.yaml": b"kind: unit\nid: " + b"[" * 100_000 +
                                                   b"]" * 100_000 + b"\n"}, unit + "deep.yaml")
    add("deep-block", "300-deep block mappings", {unit + "deep.yaml": b"kind: unit\nid: x\nnotes:\n" + b"".join(
        b"  " * (i + 1) + b"k%d:\n" % i for i in range(300)) + b"  " * 301 + b"v\n"}, unit + "deep.yaml")
    add("long-line", "a 1 MB id", {unit + "long.yaml": b"kind: unit\nid: " + b"x" * 2 ** 20 + b"\n"},
        unit + "long.yaml")
    add("alias-wide", "100,000 aliases of one anchor", {unit + "alias.yaml": b"kind: unit\na: &a x\nb: [" +
                                                        b"*a, " * 100_000 + b"*a]\n"}, unit + "alias.yaml")
    add("dir-named-yaml", "a folder named *.yaml", {unit + "folder.yaml/x.txt": b"x"}, "project/units")
    for kind in ("ruleset-mbt", "scenario"):
        big = b"kind: scenario\nnotes: " + b"z" * BIG + b"\n"
        cases.extend(document_cases(kind, f"generated/{kind}-over-limit: a {BIG:,}-byte {kind}", big,
                                    full=True, isolate=True))
    return cases


def special_input_cases(small: bool = False) -> list[Case]:
    """Tiled bombs and huge files, huge replays, special autosaves."""
    cases = [
        import_case("generated/tiled-fifo: the Tiled file is a FIFO", {TILED_INPUT: Fifo()}, TILED_INPUT,
                    isolate=True),
        import_case("generated/tiled-dev-zero: the Tiled file is a symlink to /dev/zero",
                    {TILED_INPUT: Link("/dev/zero")}, TILED_INPUT, isolate=True),
        replay_cli_case("generated/replay-fifo: the replay is a FIFO", {REPLAY_INPUT: Fifo()}, REPLAY_INPUT,
                        isolate=True),
    ]
    if small:
        return cases
    size = 400 * 1024 * 1024
    cases += [
        import_case(f"generated/tiled-zlib-bomb: a zlib layer inflating to {size >> 20} MB",
                    {TILED_INPUT: bomb_tmj("zlib", size)}, TILED_INPUT, isolate=True),
        import_case(f"generated/tiled-gzip-bomb: a gzip layer inflating to {size >> 20} MB",
                    {TILED_INPUT: bomb_tmj("gzip", size)}, TILED_INPUT, isolate=True),
        import_case(f"generated/tiled-over-limit: a {BIG:,}-byte Tiled file",
                    {TILED_INPUT: b'{"type": "map", "pad": "' + b"p" * BIG + b'"}'}, TILED_INPUT, isolate=True),
        import_case("generated/tiled-deep: 100,000-deep JSON nesting",
                    {TILED_INPUT: b'{"type": "map", "layers": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"},
                    TILED_INPUT, isolate=True),
        import_case("generated/tiled-dangling-link: the Tiled file is a dangling symlink",
                    {TILED_INPUT: Link("/nonexistent.tmj")}, TILED_INPUT, isolate=True),
        replay_cli_case("generated/replay-deep: 100,000-deep JSON nesting",
                        {REPLAY_INPUT: b'{"format": "studio-replay", "options": ' + b"[" * 100_000 + b"]" * 100_000
                         + b"}"}, REPLAY_INPUT, isolate=True),
        replay_cli_case(f"generated/replay-over-limit: a {BIG:,}-byte replay",
                        {REPLAY_INPUT: b'{"format": "studio-replay", "pad": "' + b"p" * BIG + b'"}'}, REPLAY_INPUT,
                        isolate=True),
        replay_cli_case("generated/replay-dev-zero: the replay is a symlink to /dev/zero",
                        {REPLAY_INPUT: Link("/dev/zero")}, REPLAY_INPUT, isolate=True),
        replay_cli_case("generated/replay-million-actions: 1,000,000 garbage actions",
                        {REPLAY_INPUT: json.dumps({"format": "studio-replay", "format_version": 1,
                                                   "scenario": "meeting-engagement", "ruleset": "mbt",
                                                   "ruleset_version": "x", "seed": 1, "final_hash": "0",
                                                   "actions": ["command X NC"] * 1_000_000}).encode()},
                        REPLAY_INPUT, isolate=True),
        recovery_case("generated/autosave-fifo: the autosave is a FIFO", {"project/" + AUTOSAVE_SIDE: Fifo()}),
        recovery_case("generated/autosave-link-outside: the autosave is a symlink to a file outside",
                      {"inputs/outside.autosave": b"kind: unit\nid: m1\n",
                       "project/" + AUTOSAVE_SIDE: Link("../../../inputs/outside.autosave")}),
        recovery_case("generated/autosave-dir: the autosave is a folder",
                      {"project/" + AUTOSAVE_SIDE + "/x": b"x"}, outputs=("project/" + AUTOSAVE_SIDE + "*",)),
        recovery_case(f"generated/autosave-over-limit: a {BIG:,}-byte autosave",
                      {"project/" + AUTOSAVE_SIDE: b"kind: unit\nnotes: " + b"x" * BIG + b"\n"},
                      {"project/" + AUTOSAVE_SIDE: 10.0}),
    ]
    for case in cases:
        if case.entry == "recovery":
            case.timeout = 20
    return cases
