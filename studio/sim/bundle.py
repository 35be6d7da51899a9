"""A scenario and the documents it needs, serialized, so that any worker can rebuild the game without a shared
filesystem (Dask workers on other machines), and changed copies of it (a parameter set by JSON pointer, a ruleset
variant applied) that play through the normal validated loading path.

``Bundle.from_loaded(loaded)`` reads every YAML file of the scenario's project (or the scenario file alone when
it has no project) as text. ``bundle.load()`` writes the files into a private temporary folder once per process
(cached by the bundle's digest, removed at exit) and calls :func:`studio.rules.load.load_game` there, so a
bundle's game is validated exactly like the original. ``with_pointer`` / ``with_variant`` return changed copies.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

_CACHE: dict[str, Any] = {}
_FOLDERS: list[str] = []


class BundleError(ValueError):
    """A bundle cannot be built or changed (bad pointer, missing document); the message says where."""


def _cleanup() -> None:
    for folder in _FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)


atexit.register(_cleanup)


@dataclass(frozen=True)
class Bundle:
    """``files``: (relative POSIX path, text) pairs; ``scenario``/``position``: relative paths among them."""

    files: tuple[tuple[str, str], ...]
    scenario: str
    options: tuple[tuple[str, Any], ...] = ()
    position: str | None = None
    #: words for reports: the changes this bundle carries (``/victory/0/points = 5``, ``variant house-smoke``)
    changes: tuple[str, ...] = ()
    #: the optional rules in force in place of the scenario's (``load_game(optional_rules=)``); None = its own
    optional_rules: tuple[str, ...] | None = None

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for rel, text in self.files:
            h.update(rel.encode() + b"\0" + text.encode() + b"\0")
        h.update(repr((self.scenario, self.options, self.position, self.optional_rules)).encode())
        return h.hexdigest()[:24]

    @classmethod
    def from_loaded(cls, loaded) -> "Bundle":
        """Serialize ``loaded``'s project (every YAML document) and remember the scenario, options and position."""
        from studio.model.project import project_files

        root = Path(loaded.project) if loaded.project else Path(loaded.path).parent
        paths = project_files(root, clean=False) if loaded.project else [Path(loaded.path)]
        files = {_rel(p, root): Path(p).read_text(encoding="utf-8") for p in paths}
        position = None
        if loaded.position:
            pos = Path(loaded.position)
            position = _rel(pos, root) if _inside(pos, root) else f"_position/{pos.name}"
            files.setdefault(position, pos.read_text(encoding="utf-8"))
        return cls(tuple(sorted(files.items())), _rel(Path(loaded.path), root),
                   tuple(sorted(dict(loaded.overrides).items())), position,
                   optional_rules=None if position else getattr(loaded, "optional_rules", None))

    def text(self, rel: str) -> str:
        for name, text in self.files:
            if name == rel:
                return text
        raise BundleError(f"no document {rel} in the bundle")

    def with_text(self, rel: str, text: str, change: str) -> "Bundle":
        files = dict(self.files)
        files[rel] = text
        return replace(self, files=tuple(sorted(files.items())), changes=self.changes + (change,))

    def with_pointer(self, rel: str, pointer: str, value: Any) -> "Bundle":
        """A copy whose document ``rel`` has ``value`` at JSON pointer ``pointer`` (BundleError when the
        pointer does not lead to an existing place; ``/-`` appends to a list)."""
        data = yaml.load(self.text(rel), Loader=yaml.CSafeLoader)
        set_pointer(data, pointer, value)
        return self.with_text(rel, yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True),
                              f"{rel}#{pointer} = {value}")

    def with_options(self, options: dict[str, Any], change: str) -> "Bundle":
        merged = {**dict(self.options), **options}
        return replace(self, options=tuple(sorted(merged.items())), changes=self.changes + (change,))

    def document_path(self, kind: str, doc_id: str) -> str:
        """The relative path of the document of ``kind`` with ``doc_id`` (BundleError when absent)."""
        for rel, text in self.files:
            try:
                data = yaml.load(text, Loader=yaml.CSafeLoader)
            except yaml.YAMLError:
                continue
            if isinstance(data, dict) and data.get("kind") == kind and data.get("id") == doc_id:
                return rel
        raise BundleError(f"no {kind} '{doc_id}' in the project")

    def load(self):
        """The bundle's :class:`studio.rules.load.LoadedGame` (validated; cached per process)."""
        hit = _CACHE.get(self.digest)
        if hit is not None:
            return hit
        from studio.rules.load import load_game
        from studio.rules.position import load_position

        folder = tempfile.mkdtemp(prefix="studio-bundle-")
        _FOLDERS.append(folder)
        for rel, text in self.files:
            target = Path(folder, *PurePosixPath(rel).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        root = Path(folder)
        try:
            if self.position:
                loaded = load_position(str(root / self.position), root).as_loaded()
            else:
                loaded = load_game(root / self.scenario, root, dict(self.options) or None, self.optional_rules)
        except Exception as exc:
            self._explain(exc, root)
            raise
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[self.digest] = loaded
        return loaded


    def _explain(self, exc: Exception, root: Path) -> None:
        """Diagnostics of a refused copy name the project's own file (not the temporary folder) and say which
        change of this bundle made it (line numbers are those of the changed copy)."""
        diagnostics = getattr(exc, "diagnostics", None) or []
        changed = {rel for rel, _ in self.files}
        for i, d in enumerate(diagnostics):
            file = str(getattr(d, "file", ""))
            rel = next((r for r in changed if file.replace("\\", "/").endswith("/" + r) or file == r), None)
            if rel is None:
                continue
            note = f" (in the copy changed by: {'; '.join(self.changes)})" if self.changes else ""
            diagnostics[i] = replace(d, file=rel, message=d.message + note)


def _inside(path: Path, root: Path) -> bool:
    try:
        Path(path).resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def _rel(path: Path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).name


def _token(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def set_pointer(data: Any, pointer: str, value: Any) -> None:
    """Set ``value`` at JSON pointer ``pointer`` (RFC 6901) inside ``data``; the parent must exist and, for a
    mapping key or list index, so must the place itself (``-`` appends to a list). BundleError otherwise.

    >>> d = {"victory": [{"points": 10}]}
    >>> set_pointer(d, "/victory/0/points", 5); d
    {'victory': [{'points': 5}]}
    """
    if not pointer.startswith("/"):
        raise BundleError(f"'{pointer}' is not a JSON pointer (it must start with '/')")
    parts = [_token(p) for p in pointer[1:].split("/")]
    node = data
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        where = "/" + "/".join(parts[:depth + 1])
        if isinstance(node, list):
            if part == "-" and last:
                node.append(value)
                return
            if not part.isdigit() or int(part) >= len(node):
                raise BundleError(f"no list item {where} (the list has {len(node)} items)")
            if last:
                node[int(part)] = value
                return
            node = node[int(part)]
        elif isinstance(node, dict):
            if part not in node:
                raise BundleError(f"no key {where} (keys there: {', '.join(map(str, node)) or 'none'})")
            if last:
                node[part] = value
                return
            node = node[part]
        else:
            raise BundleError(f"{where} goes inside a value that is neither a list nor a mapping")


def get_pointer(data: Any, pointer: str) -> Any:
    """The value at JSON pointer ``pointer`` (BundleError when absent)."""
    node = data
    for part in [_token(p) for p in pointer[1:].split("/")] if pointer not in ("", "/") else []:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise BundleError(f"no place {pointer} in the document")
    return node


def environ_scheduler() -> str | None:
    """The Dask scheduler address from the environment (``STUDIO_SCHEDULER``), or None."""
    return os.environ.get("STUDIO_SCHEDULER") or None
