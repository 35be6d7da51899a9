"""Write the committed seed corpus (``tests/fuzz/corpus``): ``python tests/fuzz/make_corpus.py``.

The corpus is data: this script only documents how the derived files were made (from the sample documents as
they were when it ran) and can regenerate them. Files:

- ``<kind>/<name>.yaml`` (or ``.bin``, ``.tmj``, ``.replay.json``): a raw hostile file, installed as is;
- ``<kind>/<name>.patch.yaml``: operations on the kind's sample document, applied at run time (see
  :mod:`corpus`), for near-valid variants of large documents (rulesets, maps, exported Tiled maps, replays).

``python tests/fuzz/make_corpus.py KIND ...`` rewrites only those kinds' folders.

Big inputs (16 MB files, zlib/gzip bombs, 100k-deep nesting), symlinks and FIFOs are made at run time by
:mod:`generated`, never committed.
"""
from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
DATA = HERE.parents[1] / "data"
HUGE = "9" * 4400  # more digits than Python's int() accepts by default (4300)

SAMPLES = {
    "project": "project.yaml", "ruleset-mbt": "rulesets/mbt/ruleset.yaml", "ruleset-waw": "rulesets/waw/ruleset.yaml",
    "ruleset-assault": "rulesets/assault/ruleset.yaml", "unit": "units/waw/us-m113.yaml",
    "toe": "toe/mbt/us-tank-platoon.yaml", "map": "maps/board-2.yaml",
    "scenario": "scenarios/mbt/meeting-engagement.yaml", "layout": "layouts/mbt-counter.yaml",
}
#: kinds whose sample is small enough to commit raw near-valid variants of (the others use patches)
RAW_DERIVED = ("project", "unit", "toe", "map", "scenario", "layout")
#: the big map sample keeps only these derived variants (the corpus stays small)
MAP_DERIVED = {"bom.yaml", "crlf.yaml", "nul-in-middle.yaml", "non-utf8-in-middle.yaml", "truncated-half.yaml",
               "no-final-newline-error.yaml", "huge-int.yaml", "nan.yaml", "quoted-number.yaml", "dangling-ref.yaml"}
#: the document the autosave corpus is the side file of
AUTOSAVE_TARGET = "units/mbt/m1.yaml"


def comment(text: str) -> str:
    return f"# fuzz: {text}\n"


def generic(kind: str) -> dict[str, bytes]:
    """Hostile files that need no sample: syntax, encoding, top-level shape, YAML features."""
    k = "ruleset" if kind.startswith("ruleset-") else kind
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    out = {
        "empty.yaml": b"",
        "only-comment.yaml": comment("only a comment, no document").encode(),
        "whitespace.yaml": b"   \n\t\n  \n",
        "top-list.yaml": (comment("top level is a list") + f"- kind: {k}\n- id: x\n").encode(),
        "top-scalar.yaml": (comment("top level is a scalar") + "42\n").encode(),
        "top-null.yaml": (comment("top level is null") + "~\n").encode(),
        "unclosed-flow.yaml": (comment("unclosed flow sequence") + f"kind: {k}\nid: [a, b\nname: x\n").encode(),
        "unclosed-quote.yaml": (comment("unclosed quote") + f"kind: {k}\nid: 'abc\nname: x\n").encode(),
        "bad-indent.yaml": (comment("inconsistent indentation") + f"kind: {k}\n  id: x\n name: y\n").encode(),
        "tab-indent.yaml": (comment("tab indentation") + f"kind: {k}\nid: x\nyears:\n\tstart: 1980\n").encode(),
        "kind-only.yaml": (comment("kind and nothing else") + f"kind: {k}\n").encode(),
        "missing-kind.yaml": (comment("no kind") + "schema_version: 1\nid: fuzz\nname: x\n").encode(),
        "unknown-kind.yaml": (comment("unknown kind") + "kind: spaceship\nschema_version: 1\nid: fuzz\n").encode(),
        "kind-is-list.yaml": (comment("kind is a list") + f"kind: [{k}]\nschema_version: 1\nid: fuzz\n").encode(),
        "kind-is-int.yaml": (comment("kind is an int") + "kind: 7\nschema_version: 1\nid: fuzz\n").encode(),
        "schema-version-99.yaml": (comment("future schema version") + f"kind: {k}\nschema_version: 99\nid: fz\n"
                                   ).encode(),
        "schema-version-huge.yaml": (comment("schema_version of 4400 digits") + f"kind: {k}\nschema_version: "
                                     f"{HUGE}\nid: fz\n").encode(),
        "schema-version-nan.yaml": (comment("schema_version .nan") + f"kind: {k}\nschema_version: .nan\nid: fz\n"
                                    ).encode(),
        "billion-laughs.yaml": (comment("alias expansion bomb") + f"kind: {k}\n" + laughs).encode(),
        "merge-key.yaml": (comment("merge keys and anchors") + f"base: &b\n  kind: {k}\n  schema_version: 1\n"
                           "<<: *b\nid: fuzz-merge\nname: merged\n").encode(),
        "alias-self.yaml": (comment("recursive alias") + f"kind: {k}\nid: &x [*x]\n").encode(),
        "undefined-alias.yaml": (comment("undefined alias") + f"kind: {k}\nid: *nothing\n").encode(),
        "python-tag.yaml": (comment("python object tag (must not be constructed)") +
                            f"kind: {k}\nid: !!python/object/apply:os.getcwd []\n").encode(),
        "unknown-tag.yaml": (comment("unknown local tag") + f"kind: {k}\nid: !fancy x\n").encode(),
        "binary-tag.yaml": (comment("!!binary value") + f"kind: {k}\nid: !!binary aGVsbG8=\n").encode(),
        "multi-doc.yaml": (comment("two YAML documents") + f"kind: {k}\nid: a\n---\nkind: {k}\nid: b\n").encode(),
        "complex-key.yaml": (comment("a list as a mapping key") + f"kind: {k}\n? [a, b]\n: c\n").encode(),
        "int-keys.yaml": (comment("integer and null keys") + f"kind: {k}\n1: a\n~: b\n.nan: c\n").encode(),
        "duplicate-keys.yaml": (comment("duplicate keys") + f"kind: {k}\nkind: {k}\nid: a\nid: b\n").encode(),
        "directive.yaml": (comment("YAML directives") + f"%YAML 1.1\n%TAG ! tag:x,2000:\n---\nkind: {k}\n"
                           ).encode(),
        "nul-only.yaml": b"\x00" * 64,
        "binary-garbage.bin.yaml": bytes(random.Random(18).randrange(256) for _ in range(2048)),
        "utf16-le.yaml": ("\ufeff" + f"kind: {k}\nid: fuzz\n").encode("utf-16-le"),
        "latin1.yaml": (comment("latin-1 byte in a value") + f"kind: {k}\nid: caf").encode() + b"\xe9\n",
        "overlong-utf8.yaml": (comment("overlong UTF-8 encoding") + f"kind: {k}\nid: ").encode() + b"\xc0\xaf\n",
        "surrogate-escape.yaml": (comment("escaped lone surrogate") + f'kind: {k}\nid: "\\ud800"\n').encode(),
        "control-chars.yaml": (comment("C0 control characters in a value") + f"kind: {k}\nid: \"a\\x07\\x1b\"\n"
                               ).encode(),
        "deep-flow-5000.yaml": (comment("5000-deep flow nesting") + f"kind: {k}\nid: " + "[" * 5000 + "]" * 5000 +
                                "\n").encode(),
    }
    return out


# ------------------------------------------------------------------ near-valid variants of a sample

def _first(pattern: str, text: str) -> re.Match:
    m = re.search(pattern, text, re.M)
    if not m:
        raise SystemExit(f"pattern {pattern!r} not found")
    return m


def derived(kind: str, text: str) -> dict[str, bytes]:
    """Variants of a valid document: one hostile change each (encoding, numbers, types, references)."""
    lines = text.splitlines(keepends=True)
    header, body = (lines[0], "".join(lines[1:])) if lines[0].startswith("#") else ("", text)
    num = _first(r"^(\s*[a-z_]+: )(\d+)$", body)  # the first integer field (schema_version or later)
    later = list(re.finditer(r"^(\s*[a-z_]+: )(\d+)$", body, re.M))
    num = later[1] if len(later) > 1 else num  # prefer one after schema_version
    ref = _first(r"^(\s*(?:ruleset|map|toe|unit|layout|scenario|- map): )([a-z0-9-]+)$", body) \
        if kind != "project" else None

    def sub(m: re.Match, new: str) -> str:
        return body[:m.start(2)] + new + body[m.end(2):]

    def doc(desc: str, content: str) -> bytes:
        return (comment(desc) + content).encode()

    mid = len(body) // 2
    out = {
        "bom.yaml": b"\xef\xbb\xbf" + text.encode(),
        "bom-twice.yaml": b"\xef\xbb\xbf\xef\xbb\xbf" + text.encode(),
        "crlf.yaml": text.replace("\n", "\r\n").encode(),
        "cr-only.yaml": text.replace("\n", "\r").encode(),
        "nul-in-middle.yaml": doc("NUL byte in the middle", body[:mid] + "\x00" + body[mid:]),
        "non-utf8-in-middle.yaml": comment("invalid UTF-8 byte in the middle").encode() + body[:mid].encode() +
        b"\xff\xfe" + body[mid:].encode(),
        "truncated-half.yaml": doc("truncated at half", body[:mid]),
        "no-final-newline-error.yaml": doc("error on the last line, no final newline",
                                           body.rstrip("\n") + "\nbogus_field: [1, 2"),
        "no-final-newline-unknown-key.yaml": doc("unknown key on the last line, no final newline",
                                                 body.rstrip("\n") + "\nzz_unknown_key: 1"),
        "huge-int.yaml": doc(f"4400-digit integer in '{num.group(1).strip()}'", sub(num, HUGE)),
        "huge-negative-int.yaml": doc("-4400-digit integer", sub(num, "-" + HUGE)),
        "int-2-64.yaml": doc("2**64", sub(num, str(2 ** 64))),
        "nan.yaml": doc(".nan for an integer", sub(num, ".nan")),
        "inf.yaml": doc(".inf for an integer", sub(num, ".inf")),
        "neg-inf.yaml": doc("-.inf for an integer", sub(num, "-.inf")),
        "float-1e400.yaml": doc("1e400 (overflows to inf)", sub(num, "1.0e+400")),
        "quoted-number.yaml": doc("quoted number", sub(num, "'5'")),
        "leading-zero-string.yaml": doc("'0101' where an integer goes", sub(num, "'0101'")),
        "bool-for-int.yaml": doc("true where an integer goes", sub(num, "true")),
        "hex-int.yaml": doc("0x1F (YAML 1.1 hex int)", sub(num, "0x1F")),
        "octal-int.yaml": doc("0o17 / 017", sub(num, "017")),
        "sexagesimal.yaml": doc("190:20:30 (YAML 1.1 base 60)", sub(num, "190:20:30")),
        "null-for-int.yaml": doc("null where an integer goes", sub(num, "null")),
        "list-for-int.yaml": doc("a list where an integer goes", sub(num, "[1, 2]")),
        "map-for-int.yaml": doc("a mapping where an integer goes", sub(num, "{a: 1}")),
        "float-for-int.yaml": doc("2.5 where an integer goes", sub(num, "2.5")),
        "negative-int.yaml": doc("-1", sub(num, "-1")),
        "timestamp.yaml": doc("a timestamp where an integer goes", sub(num, "2001-12-14t21:59:43.10-05:00")),
        "id-uppercase.yaml": doc("id with capitals and spaces", re.sub(r"^id: .*$", "id: Not A Valid ID", body,
                                                                       count=1, flags=re.M)),
        "id-int.yaml": doc("id is an integer", re.sub(r"^id: .*$", "id: 12345", body, count=1, flags=re.M)),
        "id-huge-int.yaml": doc("id is a 4400-digit integer", re.sub(r"^id: .*$", "id: " + HUGE, body, count=1,
                                                                     flags=re.M)),
        "id-path.yaml": doc("id with path separators", re.sub(r"^id: .*$", "id: ../../../etc/passwd", body,
                                                              count=1, flags=re.M)),
        "kind-changed.yaml": doc("kind changed to another known kind",
                                 re.sub(r"^kind: .*$", "kind: layout" if kind != "layout" else "kind: unit", body,
                                        count=1, flags=re.M)),
        "tabs-inserted.yaml": doc("a tab after a key", body.replace(": ", ":\t", 3)),
        "dup-top-key.yaml": doc("top-level key repeated with another value",
                                body + body.splitlines()[2].split(":")[0] + ": duplicated\n"),
        "unknown-top-key.yaml": doc("unknown top-level key", body + "zz_unknown: 1\n"),
    }
    if ref is not None:
        out["dangling-ref.yaml"] = doc(f"dangling reference in '{ref.group(1).strip()}'", sub(ref, "no-such-thing"))
        out["ref-to-self-kind.yaml"] = doc("reference of the wrong type", sub(ref, "[a, b]"))
    return out


def ruleset_patches(rs: str) -> dict[str, dict]:
    """Near-valid rulesets (the audit's 'validates but crashes play' family), as patches of the sample."""
    tables = json.loads(json.dumps(_tables(rs)))
    first, second = tables[0], tables[1]
    mods = next((t for t in tables if "modifier" in t), tables[1])
    cell = f"/tables/[id={first}]/rows/1/1"
    mod_cell = f"/tables/[id={mods}]/rows/0/1"
    p = {
        f"table-{first}-removed": {"description": f"table '{first}' removed",
                                   "ops": [{"op": "delete", "path": f"/tables/[id={first}]"}]},
        f"table-{first}-renamed": {"description": f"table '{first}' renamed",
                                   "ops": [{"op": "set", "path": f"/tables/[id={first}]/id", "value": first + "-x"}]},
        f"table-{second}-removed": {"description": f"table '{second}' removed",
                                    "ops": [{"op": "delete", "path": f"/tables/[id={second}]"}]},
        "all-tables-removed": {"description": "tables: []", "ops": [{"op": "set", "path": "/tables", "value": []}]},
        "tables-key-renamed": {"description": "'tables' renamed to 'table'",
                               "ops": [{"op": "rename", "path": "/tables", "value": "table"}]},
        "cell-nan": {"description": f"NaN in a cell of '{first}'", "ops": [{"op": "set", "path": cell,
                                                                            "value": float("nan")}]},
        "cell-inf": {"description": f"inf in a cell of '{first}'", "ops": [{"op": "set", "path": cell,
                                                                            "value": float("inf")}]},
        "cell-neg-inf": {"description": f"-inf in a cell of '{first}'", "ops": [{"op": "set", "path": cell,
                                                                                 "value": float("-inf")}]},
        "cell-huge-int": {"description": f"4400-digit int in a cell of '{first}'",
                          "ops": [{"op": "set", "path": cell, "value": "__FZ_HUGEINT__"}]},
        "cell-quoted": {"description": f"quoted number in a cell of '{first}'",
                        "ops": [{"op": "set", "path": cell, "value": "5"}]},
        "cell-null": {"description": f"null in a cell of '{first}'", "ops": [{"op": "set", "path": cell,
                                                                              "value": None}]},
        "cell-list": {"description": f"list in a cell of '{first}'", "ops": [{"op": "set", "path": cell,
                                                                              "value": [1, 2]}]},
        "cell-float": {"description": f"2.5 in an integer cell of '{first}'", "ops": [{"op": "set", "path": cell,
                                                                                       "value": 2.5}]},
        "modifier-quoted": {"description": f"quoted number in the modifiers table '{mods}'",
                            "ops": [{"op": "set", "path": mod_cell, "value": "-2"}]},
        "modifier-nan": {"description": f"NaN modifier in '{mods}'",
                         "ops": [{"op": "set", "path": mod_cell, "value": float("nan")}]},
        "modifier-bool": {"description": f"true as a modifier in '{mods}'",
                          "ops": [{"op": "set", "path": mod_cell, "value": True}]},
        "row-short": {"description": f"a row of '{first}' with one cell", "ops": [{"op": "set", "path":
                                                                                   f"/tables/[id={first}]/rows/1",
                                                                                   "value": [1]}]},
        "row-long": {"description": f"a row of '{first}' with 20 cells",
                     "ops": [{"op": "set", "path": f"/tables/[id={first}]/rows/1", "value": list(range(20))}]},
        "rows-empty": {"description": f"'{first}' with no rows",
                       "ops": [{"op": "set", "path": f"/tables/[id={first}]/rows", "value": []}]},
        "rows-missing": {"description": f"'{first}' without 'rows'",
                         "ops": [{"op": "delete", "path": f"/tables/[id={first}]/rows"}]},
        "columns-missing": {"description": f"'{first}' without 'columns'",
                            "ops": [{"op": "delete", "path": f"/tables/[id={first}]/columns"}]},
        "columns-renamed": {"description": f"a column of '{first}' renamed",
                            "ops": [{"op": "set", "path": f"/tables/[id={first}]/columns/1", "value": "zz"}]},
        "duplicate-table": {"description": f"'{first}' listed twice", "ops": [{"op": "dup",
                                                                               "path": f"/tables/[id={first}]"}]},
        "terrain-removed": {"description": "terrain catalogue empty", "ops": [{"op": "set", "path": "/terrain",
                                                                                "value": []}]},
        "terrain-dup": {"description": "a terrain code twice", "ops": [{"op": "dup", "path": "/terrain/0"}]},
        "los-removed": {"description": "no los block", "ops": [{"op": "delete", "path": "/los"}]},
        "elevation-nan": {"description": "NaN in the elevation block",
                          "ops": [{"op": "set-first-number", "path": "/elevation", "value": float("nan")}]},
        "options-removed": {"description": "no options", "ops": [{"op": "delete", "path": "/options"}]},
        "option-default-wrong-type": {"description": "an option default of the wrong type",
                                      "ops": [{"op": "set", "path": "/options/0/default", "value": [1]}]},
        "mobility-removed": {"description": "no mobility classes", "ops": [{"op": "set", "path": "/mobility_classes",
                                                                             "value": []}]},
        "version-int": {"description": "version is a number", "ops": [{"op": "set", "path": "/version",
                                                                        "value": 2}]},
        "deep-notes": {"description": "notes nested 3000 deep", "ops": [{"op": "set", "path": "/notes",
                                                                          "value": "__FZ_DEEP__"}]},
    }
    return {f"{name}.patch.yaml": body for name, body in p.items()}


def _tables(rs: str) -> list[str]:
    import yaml

    data = yaml.load((DATA / SAMPLES[f"ruleset-{rs}"]).read_text(), Loader=yaml.CSafeLoader)
    return [t["id"] for t in data["tables"]]


def scenario_patches() -> dict[str, dict]:
    p = {
        "turns-huge": {"description": "turns: 4400 digits", "ops": [{"op": "set", "path": "/turns",
                                                                     "value": "__FZ_HUGEINT__"}]},
        "turns-zero": {"description": "turns: 0", "ops": [{"op": "set", "path": "/turns", "value": 0}]},
        "turns-negative": {"description": "turns: -3", "ops": [{"op": "set", "path": "/turns", "value": -3}]},
        "turns-1e9": {"description": "turns: 10**9", "ops": [{"op": "set", "path": "/turns", "value": 10 ** 9}]},
        "one-side": {"description": "only one side", "ops": [{"op": "delete", "path": "/sides/1"}]},
        "no-sides": {"description": "sides: []", "ops": [{"op": "set", "path": "/sides", "value": []}]},
        "same-side-twice": {"description": "the same side twice", "ops": [{"op": "dup", "path": "/sides/0"}]},
        "no-forces": {"description": "a side without forces", "ops": [{"op": "set", "path": "/sides/0/forces",
                                                                       "value": []}]},
        "force-dup": {"description": "a force listed twice", "ops": [{"op": "dup", "path": "/sides/0/forces/0"}]},
        "toe-dangling": {"description": "a force's toe does not exist",
                         "ops": [{"op": "set", "path": "/sides/0/forces/0/toe", "value": "no-such-toe"}]},
        "toe-other-ruleset": {"description": "a force uses a WaW TO&E",
                              "ops": [{"op": "set", "path": "/sides/0/forces/0/toe", "value": "us-tank-company"}]},
        "entry-turn-huge": {"description": "entry turn 10**12",
                            "ops": [{"op": "set", "path": "/sides/0/forces/0/entry/turn", "value": 10 ** 12}]},
        "entry-turn-nan": {"description": "entry turn .nan",
                           "ops": [{"op": "set", "path": "/sides/0/forces/0/entry/turn", "value": float("nan")}]},
        "entry-edge-bogus": {"description": "entry edge 'up'",
                             "ops": [{"op": "set", "path": "/sides/0/forces/0/entry/edge", "value": "up"}]},
        "board-dangling": {"description": "a board map that does not exist",
                           "ops": [{"op": "set", "path": "/boards/0/map", "value": "board-9"}]},
        "boards-empty": {"description": "boards: []", "ops": [{"op": "set", "path": "/boards", "value": []}]},
        "board-at-nan": {"description": "board at [.nan, 0]", "ops": [{"op": "set", "path": "/boards/1/at",
                                                                       "value": [float("nan"), 0]}]},
        "board-at-huge": {"description": "board at [10**9, 0]", "ops": [{"op": "set", "path": "/boards/1/at",
                                                                         "value": [10 ** 9, 0]}]},
        "boards-overlap": {"description": "two boards at the same place",
                           "ops": [{"op": "set", "path": "/boards/1/at", "value": [0, 0]}]},
        "ruleset-dangling": {"description": "ruleset: nope", "ops": [{"op": "set", "path": "/ruleset",
                                                                      "value": "nope"}]},
        "ruleset-waw": {"description": "an MBT scenario claiming ruleset waw",
                        "ops": [{"op": "set", "path": "/ruleset", "value": "waw"}]},
        "victory-removed": {"description": "no victory conditions", "ops": [{"op": "delete", "path": "/victory"}]},
        "victory-garbage": {"description": "victory entries of the wrong type",
                            "ops": [{"op": "set", "path": "/victory", "value": [1, "x", None]}]},
        "first-player-bogus": {"description": "first_player: nobody",
                               "ops": [{"op": "set", "path": "/first_player", "value": "nobody"}]},
        "options-garbage": {"description": "options: a list", "ops": [{"op": "set", "path": "/options",
                                                                       "value": [1, 2]}]},
        "option-unknown": {"description": "an unknown option", "ops": [{"op": "set", "path": "/options",
                                                                        "value": {"zz-unknown": True}}]},
        "setup-hexes-removed": {"description": "hasty-defense: a set-up force without hexes (found by the fuzz run)",
                                "target": "scenarios/mbt/hasty-defense.yaml",
                                "ops": [{"op": "delete", "path": "/sides/0/forces/0/setup/hexes"}]},
        "setup-removed": {"description": "hasty-defense: a force with neither setup nor entry",
                          "target": "scenarios/mbt/hasty-defense.yaml",
                          "ops": [{"op": "delete", "path": "/sides/0/forces/0/setup"}]},
        "setup-hexes-empty": {"description": "hasty-defense: setup hexes []",
                              "target": "scenarios/mbt/hasty-defense.yaml",
                              "ops": [{"op": "set", "path": "/sides/0/forces/0/setup/hexes", "value": []}]},
        "setup-hex-bogus": {"description": "hasty-defense: a setup hex off the map",
                            "target": "scenarios/mbt/hasty-defense.yaml",
                            "ops": [{"op": "set", "path": "/sides/0/forces/0/setup/hexes/0", "value": "9Z99"}]},
        "setup-facing-bogus": {"description": "hasty-defense: facing 'up'",
                               "target": "scenarios/mbt/hasty-defense.yaml",
                               "ops": [{"op": "set", "path": "/sides/0/forces/0/setup/facing", "value": "up"}]},
    }
    return {f"{name}.patch.yaml": body for name, body in p.items()}


def map_patches() -> dict[str, dict]:
    p = {
        "columns-huge": {"description": "hex.columns 10**9", "ops": [{"op": "set", "path": "/hex/columns",
                                                                      "value": 10 ** 9}]},
        "columns-zero": {"description": "hex.columns 0", "ops": [{"op": "set", "path": "/hex/columns", "value": 0}]},
        "rows-nan": {"description": "hex.rows .nan", "ops": [{"op": "set", "path": "/hex/rows",
                                                              "value": float("nan")}]},
        "terrain-row-short": {"description": "a terrain row too short", "ops": [{"op": "set", "path": "/terrain/0",
                                                                                  "value": "c"}]},
        "terrain-rows-missing": {"description": "terrain: []", "ops": [{"op": "set", "path": "/terrain",
                                                                        "value": []}]},
        "elevation-huge": {"description": "an elevation of 4400 digits", "ops": [
            {"op": "set", "path": "/elevation/0", "value": "__FZ_HUGEINT__"}]},
        "hexside-garbage": {"description": "a hexside entry of the wrong type",
                            "ops": [{"op": "set", "path": "/hexsides/0", "value": 5}]},
        "hexside-dup": {"description": "a hexside twice", "ops": [{"op": "dup", "path": "/hexsides/0"}]},
        "hex-removed": {"description": "no hex block", "ops": [{"op": "delete", "path": "/hex"}]},
    }
    return {f"{name}.patch.yaml": body for name, body in p.items()}


def tiled_raw() -> dict[str, bytes]:
    """Small hostile Tiled JSON maps (the exported sample is patched at run time: see tiled_patches)."""
    base = {"type": "map", "orientation": "hexagonal", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 28,
            "hexsidelength": 16, "staggeraxis": "x", "staggerindex": "even", "infinite": False,
            "tilesets": [], "layers": [{"type": "tilelayer", "name": "terrain", "width": 2, "height": 2,
                                        "data": [0, 0, 0, 0]}]}

    def variant(**changes):
        d = json.loads(json.dumps(base))
        d.update(changes)
        return json.dumps(d).encode()

    return {
        "empty.tmj": b"",
        "not-json.tmj": b"{this is not json",
        "json-list.tmj": b"[1, 2, 3]",
        "json-null.tmj": b"null",
        "json-string.tmj": b"\"map\"",
        "minimal.tmj": variant(),
        "width-string.tmj": variant(width="20"),
        "width-null.tmj": variant(width=None),
        "width-float.tmj": variant(width=2.5),
        "width-negative.tmj": variant(width=-2),
        "width-huge.tmj": variant(width=10 ** 12),
        "width-1e999.tmj": variant(width=2).replace(b'"width": 2', b'"width": 1e999', 1),
        "width-nan.tmj": variant(width=2).replace(b'"width": 2', b'"width": NaN', 1),
        "width-huge-int-digits.tmj": variant(width=2).replace(b'"width": 2', b'"width": ' + HUGE.encode(), 1),
        "height-bool.tmj": variant(height=True),
        "orientation-orthogonal.tmj": variant(orientation="orthogonal"),
        "tilesets-string.tmj": variant(tilesets="x"),
        "tilesets-null.tmj": variant(tilesets=None),
        "tilesets-list-of-ints.tmj": variant(tilesets=[1, 2]),
        "tileset-external.tmj": variant(tilesets=[{"firstgid": 1, "source": "../../etc/passwd"}]),
        "tileset-firstgid-string.tmj": variant(tilesets=[{"firstgid": "1", "tiles": []}]),
        "tileset-tiles-dict.tmj": variant(tilesets=[{"firstgid": 1, "tiles": {"id": 0}}]),
        "tile-properties-garbage.tmj": variant(tilesets=[{"firstgid": 1, "tiles": [{"id": 0, "properties": 7}]}]),
        "layers-string.tmj": variant(layers="terrain"),
        "layers-null.tmj": variant(layers=None),
        "layer-data-string-no-encoding.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain",
                                                               "data": "AAAA"}]),
        "layer-bad-base64.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain", "encoding": "base64",
                                                  "data": "!!!not base64***"}]),
        "layer-bad-zlib.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain", "encoding": "base64",
                                                "compression": "zlib", "data": "AAAAAAAAAAAAAAAA"}]),
        "layer-bad-gzip.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain", "encoding": "base64",
                                                "compression": "gzip", "data": "H4sIAAAAAAAA"}]),
        "layer-zstd.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain", "encoding": "base64",
                                            "compression": "zstd", "data": "AAAA"}]),
        "layer-data-too-short.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain", "data": [0]}]),
        "layer-data-floats.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain",
                                                   "data": [0.5, 1e308, -1, "x"]}]),
        "layer-gid-huge.tmj": variant(layers=[{"type": "tilelayer", "name": "terrain",
                                                "data": [2 ** 40, 0, 0, 0]}]),
        "layer-objects-wrong.tmj": variant(layers=[{"type": "objectgroup", "name": "hexsides", "objects": "x"}]),
        "layer-object-ints.tmj": variant(layers=[{"type": "objectgroup", "name": "hexsides", "objects": [1, 2]}]),
        "layer-object-nan-coords.tmj": variant(layers=[{"type": "objectgroup", "name": "labels",
                                                         "objects": [{"x": 1, "y": 2}]}]).replace(
            b'"x": 1', b'"x": NaN').replace(b'"y": 2', b'"y": Infinity'),
        "layers-deep-nesting.tmj": variant(layers=[{"type": "group", "name": "g", "layers": "__DEEP__"}]).replace(
            b'"__DEEP__"', b"[" * 3000 + b"]" * 3000),
        "properties-string.tmj": variant(properties="x"),
        "properties-garbage.tmj": variant(properties=[{"name": "id", "type": "string", "value": [1, 2]}]),
        "utf16.tmj": json.dumps(base).encode("utf-16"),
        "bom.tmj": b"\xef\xbb\xbf" + json.dumps(base).encode(),
        "non-utf8.tmj": json.dumps(base).encode().replace(b'"terrain"', b'"terr\xffain"'),
    }


def tiled_patches() -> dict[str, dict]:
    """Patches of the sample board exported to Tiled at run time (``base: tiled``)."""
    p = {
        "export-width-string": {"ops": [{"op": "set", "path": "/width", "value": "20"}]},
        "export-width-null": {"ops": [{"op": "set", "path": "/width", "value": None}]},
        "export-height-zero": {"ops": [{"op": "set", "path": "/height", "value": 0}]},
        "export-width-huge": {"ops": [{"op": "set", "path": "/width", "value": 10 ** 9}]},
        "export-width-hugeint": {"ops": [{"op": "set", "path": "/width", "value": "__FZ_HUGEINT__"}]},
        "export-tilesets-removed": {"ops": [{"op": "delete", "path": "/tilesets"}]},
        "export-tilesets-string": {"ops": [{"op": "set", "path": "/tilesets", "value": "x"}]},
        "export-tile-code-list": {"ops": [{"op": "set", "path": "/tilesets/0/tiles/0/properties/0/value",
                                           "value": [1]}]},
        "export-layers-removed": {"ops": [{"op": "delete", "path": "/layers"}]},
        "export-terrain-layer-removed": {"ops": [{"op": "delete", "path": "/layers/0"}]},
        "export-terrain-data-short": {"ops": [{"op": "set", "path": "/layers/0/data", "value": [1, 2, 3]}]},
        "export-terrain-data-nan": {"ops": [{"op": "set", "path": "/layers/0/data/0", "value": float("nan")}]},
        "export-terrain-data-null": {"ops": [{"op": "set", "path": "/layers/0/data", "value": None}]},
        "export-object-wrong": {"ops": [{"op": "set", "path": "/layers/2/objects/0", "value": "x"}]},
        "export-object-props-garbage": {"ops": [{"op": "set", "path": "/layers/2/objects/0/properties",
                                                 "value": {"a": 1}}]},
        "export-properties-removed": {"ops": [{"op": "delete", "path": "/properties"}]},
        "export-orientation-iso": {"ops": [{"op": "set", "path": "/orientation", "value": "isometric"}]},
        "export-stagger-bogus": {"ops": [{"op": "set", "path": "/staggeraxis", "value": "z"}]},
        "export-infinite": {"ops": [{"op": "set", "path": "/infinite", "value": True}]},
        "export-deep-layers": {"ops": [{"op": "set", "path": "/layers/4", "value": "__FZ_DEEP__"}]},
    }
    return {f"{name}.patch.yaml": {"base": "tiled", "description": name.replace("-", " "), **body}
            for name, body in p.items()}


def replay_raw() -> dict[str, bytes]:
    base = {"format": "studio-replay", "format_version": 1, "scenario": "meeting-engagement",
            "scenario_file": "scenarios/mbt/meeting-engagement.yaml", "scenario_hash": "", "ruleset": "mbt",
            "ruleset_version": "x", "seed": 1, "actions": [], "final_hash": "0"}

    def variant(**changes):
        d = dict(base)
        d.update(changes)
        return json.dumps(d).encode()

    return {
        "empty.replay.json": b"",
        "not-json.replay.json": b"{nope",
        "list.replay.json": b"[]",
        "null.replay.json": b"null",
        "wrong-format.replay.json": variant(format="other"),
        "seed-string.replay.json": variant(seed="abc"),
        "seed-list.replay.json": variant(seed=[1]),
        "seed-null.replay.json": variant(seed=None),
        "seed-float.replay.json": variant(seed=1.5),
        "seed-nan.replay.json": variant(seed=1).replace(b'"seed": 1', b'"seed": NaN'),
        "seed-huge-digits.replay.json": variant(seed=1).replace(b'"seed": 1', b'"seed": ' + HUGE.encode()),
        "seed-negative.replay.json": variant(seed=-5),
        "scenario-list.replay.json": variant(scenario=["x"]),
        "scenario-int.replay.json": variant(scenario=7),
        "scenario-null.replay.json": variant(scenario=None),
        "scenario-path.replay.json": variant(scenario="../../../etc/passwd", scenario_file="../../../etc/passwd"),
        "scenario-file-absolute.replay.json": variant(scenario_file="/etc/passwd"),
        "scenario-file-list.replay.json": variant(scenario_file=[1]),
        "actions-string.replay.json": variant(actions="command M1-1 NC"),
        "actions-dict.replay.json": variant(actions={"a": 1}),
        "actions-ints.replay.json": variant(actions=[1, 2, None]),
        "actions-garbage.replay.json": variant(actions=["zz", "", "command", "command NOBODY NC"]),
        "final-hash-int.replay.json": variant(final_hash=5),
        "ruleset-list.replay.json": variant(ruleset=[1]),
        "version-dict.replay.json": variant(ruleset_version={"a": 1}),
        "deep-actions.replay.json": variant(actions="__D__").replace(b'"__D__"', b"[" * 3000 + b"]" * 3000),
        "non-utf8.replay.json": variant().replace(b"meeting", b"meet\xffing"),
        "bom.replay.json": b"\xef\xbb\xbf" + variant(),
    }


def replay_patches() -> dict[str, dict]:
    """Patches of a replay recorded at run time (``base: replay``)."""
    p = {
        "recorded-seed-string": [{"op": "set", "path": "/seed", "value": "12"}],
        "recorded-seed-hugeint": [{"op": "set", "path": "/seed", "value": "__FZ_HUGEINT__"}],
        "recorded-actions-truncated": [{"op": "truncate-list", "path": "/actions", "value": 5}],
        "recorded-action-garbage": [{"op": "set", "path": "/actions/3", "value": "command ZZ-9 MOVE"}],
        "recorded-action-int": [{"op": "set", "path": "/actions/3", "value": 17}],
        "recorded-action-list": [{"op": "set", "path": "/actions/0", "value": ["x"]}],
        "recorded-actions-reversed": [{"op": "reverse-list", "path": "/actions"}],
        "recorded-actions-doubled": [{"op": "double-list", "path": "/actions"}],
        "recorded-final-hash-wrong": [{"op": "set", "path": "/final_hash", "value": "0" * 64}],
        "recorded-version-wrong": [{"op": "set", "path": "/ruleset_version", "value": "0.0"}],
        "recorded-scenario-hash-wrong": [{"op": "set", "path": "/scenario_hash", "value": "ffff"}],
        "recorded-scenario-waw": [{"op": "set", "path": "/scenario", "value": "waw-crossroads"},
                                  {"op": "delete", "path": "/scenario_file"}],
        "recorded-scenario-file-missing": [{"op": "set", "path": "/scenario_file", "value": "scenarios/none.yaml"}],
        "recorded-scenario-file-outside": [{"op": "set", "path": "/scenario_file", "value": "../../../../etc/hosts"}],
        "recorded-options-garbage": [{"op": "set", "path": "/options", "value": [1, 2]}],
        "recorded-bots-garbage": [{"op": "set", "path": "/bots", "value": 5}],
    }
    return {f"{name}.patch.yaml": {"base": "replay", "description": name.replace("-", " "), "ops": ops}
            for name, ops in p.items()}


def autosave_raw() -> dict[str, bytes]:
    """Autosave side files for units/mbt/m1.yaml (installed as ``.m1.yaml.autosave``, newer than the file)."""
    m1 = (DATA / AUTOSAVE_TARGET).read_text(encoding="utf-8")
    return {
        "garbage-yaml.yaml": b"kind: unit\nid: [unclosed\n",
        "top-list.yaml": b"- a\n- b\n",
        "top-scalar.yaml": b"17\n",
        "empty.yaml": b"",
        "non-utf8.yaml": m1.encode()[:200] + b"\xff\xfe\xfd" + m1.encode()[200:],
        "huge-int.yaml": m1.replace("start: 1980", "start: " + HUGE).encode(),
        "nan.yaml": m1.replace("start: 1980", "start: .nan").encode(),
        "other-kind.yaml": (DATA / SAMPLES["toe"]).read_bytes(),
        "changed-id.yaml": m1.replace("id: m1\n", "id: m1-recovered\n").encode(),
        "billion-laughs.yaml": generic("unit")["billion-laughs.yaml"],
        "nul-bytes.yaml": b"\x00" * 100,
        "binary.yaml": bytes(random.Random(4).randrange(256) for _ in range(512)),
        "valid-edit.yaml": m1.replace("name: M1 Abrams", "name: M1 Abrams (recovered)").encode(),
    }


def autosave_overlays() -> dict[str, dict[str, bytes]]:
    """Directory cases: files overlaid onto the project (paths relative to it)."""
    m1 = (DATA / AUTOSAVE_TARGET).read_text(encoding="utf-8")
    valid = m1.replace("name: M1 Abrams", "name: M1 Abrams (recovered)").encode()
    return {
        "valid-autosave-broken-document": {"units/mbt/m1.yaml": b"kind: unit\nid: [broken\n",
                                           "units/mbt/.m1.yaml.autosave": valid},
        "valid-autosave-document-binary": {"units/mbt/m1.yaml": b"\xff\xfe\x00garbage",
                                           "units/mbt/.m1.yaml.autosave": valid},
        "valid-autosave-document-top-list": {"units/mbt/m1.yaml": b"- 1\n",
                                             "units/mbt/.m1.yaml.autosave": valid},
        "autosave-of-project-file": {".project.yaml.autosave": b"kind: project\nrulesets: [../../../outside]\n"},
        "autosave-for-ruleset-garbage": {"rulesets/mbt/.ruleset.yaml.autosave": b"tables: {{{{\n"},
    }


def position_patches() -> dict[str, dict]:
    """Patches of corpus.POSITION_BASE (a WaW position): each one played with 'studio play --from'."""
    u0 = "/units/0"
    p = {
        "hex-off-map": [{"op": "set", "path": f"{u0}/hex", "value": "9Z99"}],
        "hex-int": [{"op": "set", "path": f"{u0}/hex", "value": 414}],
        "hex-null": [{"op": "set", "path": f"{u0}/hex", "value": None}],
        "card-dangling": [{"op": "set", "path": f"{u0}/card", "value": "no-such-card"}],
        "card-mbt": [{"op": "set", "path": f"{u0}/card", "value": "m1"}],
        "side-bogus": [{"op": "set", "path": f"{u0}/side", "value": "martians"}],
        "status-garbage": [{"op": "set", "path": f"{u0}/status", "value": [1, 2]}],
        "marker-unknown": [{"op": "set", "path": f"{u0}/status", "value": {"markers": ["asleep"]}}],
        "mp-used-huge": [{"op": "set", "path": f"{u0}/status", "value": {"mp_used": "__FZ_HUGEINT__"}}],
        "mp-used-nan": [{"op": "set", "path": f"{u0}/status", "value": {"mp_used": float("nan")}}],
        "units-empty": [{"op": "set", "path": "/units", "value": []}],
        "units-missing": [{"op": "delete", "path": "/units"}],
        "unit-twice": [{"op": "dup", "path": u0}],
        "unit-id-clash": [{"op": "set", "path": f"{u0}/id", "value": "x"},
                          {"op": "set", "path": "/units/1/id", "value": "x"}],
        "turn-huge": [{"op": "set", "path": "/turn", "value": 10 ** 9}],
        "turn-zero": [{"op": "set", "path": "/turn", "value": 0}],
        "turn-string": [{"op": "set", "path": "/turn", "value": "3"}],
        "phase-bogus": [{"op": "set", "path": "/phase", "value": "lunch"}],
        "to-act-bogus": [{"op": "set", "path": "/to_act", "value": "nobody"}],
        "dice-garbage": [{"op": "set", "path": "/dice", "value": ["six", -1, 10 ** 12]}],
        "dice-huge": [{"op": "set", "path": "/dice", "value": [0] * 5000}],
        "scenario-dangling": [{"op": "set", "path": "/scenario", "value": "no-such-scenario"}],
        "scenario-mbt": [{"op": "set", "path": "/scenario", "value": "meeting-engagement"}],
        "options-garbage": [{"op": "set", "path": "/options", "value": {"zz": [1]}}],
    }
    return {f"{name}.patch.yaml": {"base": "position", "description": name.replace("-", " "), "ops": ops}
            for name, ops in p.items()}


def write_tree(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def dump_patch(body: dict) -> bytes:
    import yaml

    return ("# fuzz: " + body.get("description", "patch") + "\n" +
            yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120)).encode()


def _documents(kind: str) -> dict[str, bytes]:
    files = generic(kind)
    if kind in RAW_DERIVED:
        variants = derived(kind, (DATA / SAMPLES[kind]).read_text(encoding="utf-8"))
        files.update({n: v for n, v in variants.items() if kind != "map" or n in MAP_DERIVED})
    patches = {"ruleset-mbt": lambda: ruleset_patches("mbt"), "ruleset-waw": lambda: ruleset_patches("waw"),
               "ruleset-assault": lambda: ruleset_patches("assault"),
               "scenario": scenario_patches, "map": map_patches}.get(kind)
    if patches:
        files.update({n: dump_patch(b) for n, b in patches().items()})
    return files


def _position() -> dict[str, bytes]:
    from corpus import POSITION_BASE

    files = {**generic("position"), **derived("position", POSITION_BASE)}
    return files | {n: dump_patch(b) for n, b in position_patches().items()}


def _autosave() -> dict[str, bytes]:
    files = autosave_raw()
    for name, overlay in autosave_overlays().items():
        files.update({f"{name}/{rel}": data for rel, data in overlay.items()})
    return files


def kinds() -> dict[str, Callable[[], dict[str, bytes]]]:
    """Corpus kind -> the files of its folder."""
    out: dict[str, Callable[[], dict[str, bytes]]] = {k: (lambda k=k: _documents(k)) for k in SAMPLES}
    out["tiled"] = lambda: tiled_raw() | {n: dump_patch(b) for n, b in tiled_patches().items()}
    out["replay"] = lambda: replay_raw() | {n: dump_patch(b) for n, b in replay_patches().items()}
    out["position"] = _position
    out["autosave"] = _autosave
    return out


def main(only: list[str] | None = None) -> None:
    """Write the corpus; ``only``: just these kinds (their folders replaced, the others left as committed)."""
    for kind, files in kinds().items():
        if only and kind not in only:
            continue
        if (CORPUS / kind).exists():
            shutil.rmtree(CORPUS / kind)
        write_tree(CORPUS / kind, files())
    total = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    count = sum(1 for p in CORPUS.rglob("*") if p.is_file())
    print(f"{count} files, {total:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:] or None)
