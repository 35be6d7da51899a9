"""The seed corpus (``tests/fuzz/corpus/<kind>/...``) as harness cases, and the patch format of near-valid files.

Kinds and where their files go in the workspace (see :mod:`harness`):

=============  =============================================  ==============================================
kind           installed as                                   entry points
=============  =============================================  ==============================================
project        project/project.yaml                           validate, validate-json, format-check, session
ruleset-mbt    project/rulesets/mbt/ruleset.yaml              ... and play (an MBT scenario, 2 games)
ruleset-waw    project/rulesets/waw/ruleset.yaml              ... and play (a WaW scenario, 2 games)
ruleset-ass..  project/rulesets/assault/ruleset.yaml          ... and play (an Assault scenario, 2 games)
unit           project/units/waw/us-m113.yaml                 validate, validate-json, format-check, session
toe            project/toe/mbt/us-tank-platoon.yaml           idem
map            project/maps/board-2.yaml                      idem
scenario       project/scenarios/mbt/meeting-engagement.yaml  idem, and play
layout         project/layouts/mbt-counter.yaml               idem
tiled          inputs/fuzz.tmj                                map-import (into project/maps/fuzz-imported.yaml)
replay         inputs/fuzz.replay.json                        replay (CLI, JSON), replay-verify (API)
autosave       project/units/mbt/.m1.yaml.autosave            recovery (session), recovery-window (the window)
position       project/positions/fuzz.yaml                    validate-json, play-from (play --from, 2 games)
=============  =============================================  ==============================================

A folder inside a kind's folder is an overlay: its files are laid over ``project/`` as they are.

A ``*.patch.yaml`` file is applied to the kind's sample (or to ``base: tiled`` = the sample board exported to
Tiled, ``base: replay`` = a recorded replay; ``target: <project path>`` = another sample document): ``ops`` is a list of ``{op, path, value}`` with JSON-pointer-like
paths whose segments may select a list item by a field (``/tables/[id=spotting-ranges]/rows/1/1``). Ops: set,
delete, rename (a mapping key), dup (a list item), set-first-number, truncate-list, reverse-list, double-list. The
string values ``__FZ_HUGEINT__`` and ``__FZ_DEEP__`` become a 4,400-digit integer and 3,000-deep nesting.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from harness import (Case, import_case, map_info_case, play_case, play_from_case, recovery_case, replay_cli_case, replay_verify_case,
                     session_case, validate_cases, window_recovery_case)

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"

HUGE_DIGITS = "9" * 4400
DEEP = 3000

TARGETS = {
    "project": "project.yaml", "ruleset-mbt": "rulesets/mbt/ruleset.yaml",
    "ruleset-waw": "rulesets/waw/ruleset.yaml", "ruleset-assault": "rulesets/assault/ruleset.yaml",
    "unit": "units/waw/us-m113.yaml",
    "toe": "toe/mbt/us-tank-platoon.yaml", "map": "maps/board-2.yaml",
    "scenario": "scenarios/mbt/meeting-engagement.yaml", "layout": "layouts/mbt-counter.yaml",
}
PLAYED = {"ruleset-mbt": "scenarios/mbt/meeting-engagement.yaml", "ruleset-waw": "scenarios/waw/waw-crossroads.yaml",
          "ruleset-assault": "scenarios/assault/assault-probe.yaml", "scenario": "scenarios/mbt/meeting-engagement.yaml"}
#: a position of the WaW sample scenario (the sample project has none): the base of the position corpus/mutants
POSITION_BASE = """\
kind: position
schema_version: 1
scenario: waw-crossroads
phase: impulse
units:
  - {card: us-m3-bradley, side: us, hex: 4J14}
  - {card: su-t72, side: soviet, hex: 4J10, status: {markers: [disrupted]}}
"""
POSITION_INPUT = "project/positions/fuzz.yaml"
AUTOSAVE_TARGET = "units/mbt/m1.yaml"
AUTOSAVE_SIDE = "units/mbt/.m1.yaml.autosave"
TILED_BASE = "inputs/base.tmj"
REPLAY_BASE = "inputs/base.replay.json"
TILED_INPUT = "inputs/fuzz.tmj"
REPLAY_INPUT = "inputs/fuzz.replay.json"


class PatchStale(Exception):
    """A patch whose path no longer exists in the sample document (the sample changed)."""


@dataclass(frozen=True)
class Item:
    kind: str
    path: Path          # a file or an overlay folder

    @property
    def name(self) -> str:
        return f"{self.kind}/{self.path.name}"


def items() -> list[Item]:
    out = []
    for kind_dir in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for entry in sorted(kind_dir.iterdir()):
            out.append(Item(kind_dir.name, entry))
    return out


def describe(path: Path) -> str:
    """``kind/name: first-line comment`` (the comment when the file has one)."""
    label = f"{path.parent.name}/{path.name}"
    if path.is_file():
        with open(path, "rb") as handle:
            first = handle.readline(300)
        if first.startswith(b"# fuzz: "):
            label += ": " + first[8:].decode("utf-8", "replace").strip()
    return label


# ------------------------------------------------------------------ patches

_SELECT = re.compile(r"^\[(\w+)=(.*)\]$")


def _step(node: Any, segment: str) -> Any:
    if isinstance(node, list):
        m = _SELECT.match(segment)
        if m:
            key, value = m.groups()
            for i, item in enumerate(node):
                if isinstance(item, dict) and str(item.get(key)) == value:
                    return i
            raise KeyError(segment)
        return int(segment)
    return segment


def _parent(data: Any, path: str) -> tuple[Any, Any]:
    parts = [p for p in path.split("/") if p != ""]
    node = data
    for segment in parts[:-1]:
        node = node[_step(node, segment)]
    return node, _step(node, parts[-1])


def _first_number(node: Any) -> tuple[Any, Any] | None:
    items_ = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in items_:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return node, key
        found = _first_number(value)
        if found:
            return found
    return None


def apply_ops(data: Any, ops: list[dict]) -> Any:
    data = copy.deepcopy(data)
    for op in ops:
        kind, path, value = op["op"], op.get("path", ""), op.get("value")
        if path in ("", "/") and kind == "set":
            data = value
            continue
        parent, key = _parent(data, path)
        if kind == "set":
            parent[key] = value
        elif kind == "delete":
            del parent[key]
        elif kind == "rename":
            parent[value] = parent.pop(key)
        elif kind == "dup":
            parent.insert(key + 1, copy.deepcopy(parent[key]))
        elif kind == "set-first-number":
            found = _first_number(parent[key])
            if found:
                found[0][found[1]] = value
        elif kind == "truncate-list":
            parent[key] = parent[key][:value]
        elif kind == "reverse-list":
            parent[key] = list(reversed(parent[key]))
        elif kind == "double-list":
            parent[key] = parent[key] + parent[key]
        else:
            raise ValueError(f"unknown patch op {kind!r}")
    return data


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True


def substitute(text: str) -> str:
    """Replace the sentinels by what no YAML/JSON library would write for us."""
    text = re.sub(r"""['"]?__FZ_HUGEINT__['"]?""", HUGE_DIGITS, text)
    return re.sub(r"""['"]?__FZ_DEEP__['"]?""", "[" * DEEP + "]" * DEEP, text)


def render_yaml(data: Any, header: str = "") -> bytes:
    text = yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=120)
    return (header + substitute(text)).encode("utf-8")


def render_json(data: Any) -> bytes:
    return substitute(json.dumps(data, indent=1)).encode("utf-8")


def header_of(raw: bytes) -> str:
    first = raw.split(b"\n", 1)[0]
    return first.decode("utf-8") + "\n" if first.startswith(b"# yaml-language-server") else ""


def load_yaml(raw: bytes) -> Any:
    return yaml.load(raw.decode("utf-8"), Loader=yaml.CSafeLoader)


def patch_target(item_path: Path, kind: str) -> str:
    """The project-relative document a patch applies to: its ``target:`` or the kind's sample."""
    if item_path.name.endswith(".patch.yaml"):
        patch = yaml.load(item_path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        if isinstance(patch, dict) and patch.get("target"):
            return patch["target"]
    return TARGETS[kind]


def patched(item_path: Path, kind: str, base_bytes: dict[str, bytes]) -> bytes:
    """The content a patch file stands for (``base_bytes``: base-relative path -> pristine content)."""
    patch = yaml.load(item_path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    base = patch.get("base")
    try:
        if base == "tiled":
            return render_json(apply_ops(json.loads(base_bytes[TILED_BASE]), patch["ops"]))
        if base == "replay":
            return render_json(apply_ops(json.loads(base_bytes[REPLAY_BASE]), patch["ops"]))
        if base == "position":
            return render_yaml(apply_ops(load_yaml(POSITION_BASE.encode()), patch["ops"]))
        raw = base_bytes["project/" + patch_target(item_path, kind)]
        return render_yaml(apply_ops(load_yaml(raw), patch["ops"]), header_of(raw))
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise PatchStale(f"{item_path.name} no longer applies to its sample ({type(exc).__name__}: {exc}); "
                         "update it or run make_corpus.py") from None


# ------------------------------------------------------------------ cases

def document_cases(kind: str, label: str, content: bytes, *, full: bool = True, isolate: bool = False,
                   target: str | None = None) -> list[Case]:
    """Cases of one document-kind input: the CLI checks, the session, and play for rulesets and scenarios."""
    rel = "project/" + (target or TARGETS[kind])
    files = {rel: content}
    entries = ("validate", "validate-json", "format-check") if full else ("validate-json",)
    cases = validate_cases(rel, label, files, isolate=isolate, entries=entries)
    if full:
        if not isolate:
            cases.append(session_case(label, files, rel))
        if kind in ("map", "scenario"):
            cases.append(map_info_case(label, files, rel))
        if kind in PLAYED:
            played = rel if kind == "scenario" else "project/" + PLAYED[kind]
            cases.append(play_case(label, files, played, isolate=isolate))
    return cases


def position_cases(label: str, content: bytes) -> list[Case]:
    """A position document: validated, and ``play --from`` it (which must run or refuse with diagnostics)."""
    files = {POSITION_INPUT: content}
    return validate_cases(POSITION_INPUT, label, files, entries=("validate-json",)) + \
        [play_from_case(label, files, POSITION_INPUT)]


def item_cases(item: Item, base_bytes: dict[str, bytes], full: bool = True) -> list[Case]:
    label = describe(item.path)
    kind = item.kind
    if item.path.is_dir():
        files = {"project/" + str(p.relative_to(item.path)): p.read_bytes()
                 for p in sorted(item.path.rglob("*")) if p.is_file()}
        mtimes = {rel: 10.0 for rel in files if rel.endswith(".autosave")}
        return [recovery_case(label, files, mtimes)] + ([window_recovery_case(label, files, mtimes)] if full else [])
    is_patch = item.path.name.endswith(".patch.yaml")
    content = patched(item.path, kind, base_bytes) if is_patch else item.path.read_bytes()
    if kind == "tiled":
        return [import_case(label, {TILED_INPUT: content}, TILED_INPUT)]
    if kind == "replay":
        files = {REPLAY_INPUT: content}
        cases = [replay_cli_case(label, files, REPLAY_INPUT)]
        return cases + ([replay_verify_case(label, files, REPLAY_INPUT)] if full else [])
    if kind == "position":
        return position_cases(label, content)
    if kind == "autosave":
        side = "project/" + AUTOSAVE_SIDE
        return [recovery_case(label, {side: content}, {side: 10.0})] + \
            ([window_recovery_case(label, {side: content}, {side: 10.0})] if full else [])
    return document_cases(kind, label, content, full=full, target=patch_target(item.path, kind))

