"""The result cache of ``studio validate``: an unchanged project is reported from its last run's findings.

Validating is a pure function of the files and of the studio's code, so the findings of a run are stored under a
key that covers everything they depend on, and a later run with the same key prints them without importing a
model or parsing a file (the interpreter start, a walk of the project and a hash of its bytes):

* every file the run reads: each project folder's YAML files (the whole project of a sub-folder or a single
  file, as :func:`studio.model.validate.validate_paths` reads them) and the files named, by path and content;
* the arguments and the working folder (findings name files relative to it);
* the studio's code (path, size and modification time of every file of the ``studio`` package), the Python
  version and the libraries validation uses (pydantic, PyYAML, shapely, numpy: their installed files).

Anything unusual (a file that is not a regular file, too large, unreadable, or that changes while it is
validated) means no cache: the run validates as always. Entries are JSON (never pickle) in
``$XDG_CACHE_HOME/studio/validate`` (default ``~/.cache``), written atomically; the newest :data:`KEEP` stay.
Only processes started from the command line use the cache (``studio.cli.main`` decides); in-process callers,
the window and the tests always validate.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path

from studio.model import files as project_paths
from studio.model.diagnostics import Diagnostic, Severity
from studio.model.safeio import MAX_FILE_BYTES

FORMAT = 1
#: cache entries kept (the newest by modification time)
KEEP = 16
_LIBRARIES = ("pydantic", "pydantic_core", "yaml", "shapely", "numpy")


class Uncacheable(Exception):
    """The run cannot be keyed (an unusual file): validate without the cache."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "studio", "validate")


def _code_fingerprint(h) -> None:
    """Every file of the studio package (path, size, mtime) and the libraries' installed files."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            st = os.stat(os.path.join(dirpath, name))
            h.update(f"{os.path.relpath(dirpath, package)}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    h.update(f"{sys.version}\n{sys.executable}\n".encode())
    for name in _LIBRARIES:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        st = os.stat(origin) if origin and os.path.exists(origin) else None
        h.update(f"{name}:{origin}:{st and st.st_size}:{st and st.st_mtime_ns}\n".encode())


def input_files(paths: list[Path]) -> list[str]:
    """Every file the validation of ``paths`` reads (as :func:`studio.model.validate.validate_paths` finds
    them), in a fixed order; the project walk also cleans stale temp files, as the run itself does."""
    found: list[str] = []
    for path in paths:
        root = project_paths.find_project_root(path)
        if path.is_dir():
            found += map(os.fspath, project_paths.project_files(path if root is None else root))
        else:
            found.append(os.path.abspath(path))
            if root is not None:
                found += map(os.fspath, project_paths.project_files(root))
    return sorted(set(os.path.abspath(f) for f in found))


def _file_digest(h, path: str) -> None:
    try:
        st = os.stat(path)
        if not os.path.isfile(path) or st.st_size > MAX_FILE_BYTES:
            raise Uncacheable(path)
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise Uncacheable(path) from exc
    h.update(f"{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
    h.update(data)


def run_key(paths: list[Path], argv: list[str]) -> str:
    """The key of a validation run of ``paths`` (see the module docstring); raises :class:`Uncacheable`."""
    h = hashlib.blake2b(digest_size=20)
    h.update(f"studio-validate {FORMAT}\n{os.getcwd()}\n{json.dumps(argv)}\n".encode("utf-8", "surrogateescape"))
    _code_fingerprint(h)
    for path in input_files(paths):
        _file_digest(h, path)
    return h.hexdigest()


def _diagnostic(item: dict) -> Diagnostic:
    return Diagnostic(Severity(item["severity"]), item["code"], item["message"], item["file"], item["line"],
                      item["column"], item["pointer"], item["rule"], item["hint"])


def _plain(d: Diagnostic) -> dict:
    return {"severity": d.severity.value, "code": d.code, "message": d.message, "file": d.file, "line": d.line,
            "column": d.column, "pointer": d.pointer, "rule": d.rule, "hint": d.hint}


def load(key: str) -> tuple[int, list[Diagnostic], list[Diagnostic]] | None:
    """``(files, diagnostics, notes)`` stored under ``key``, or None (absent or unreadable: validate)."""
    try:
        entry = json.loads((cache_dir() / f"{key}.json").read_text(encoding="utf-8"))
        if entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        return (int(entry["files"]), [_diagnostic(d) for d in entry["diagnostics"]],
                [_diagnostic(d) for d in entry["notes"]])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(key: str, files: int, diagnostics: list[Diagnostic], notes: list[Diagnostic]) -> None:
    """Write the entry atomically (best effort: a cache that cannot be written is no cache) and keep the newest
    :data:`KEEP` entries."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"format": FORMAT, "key": key, "files": files,
                                   "diagnostics": [_plain(d) for d in diagnostics],
                                   "notes": [_plain(d) for d in notes]}), encoding="utf-8")
        os.replace(tmp, folder / f"{key}.json")
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in entries[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        return
