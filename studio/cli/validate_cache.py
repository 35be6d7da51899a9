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

A run that validates (one file changed, say) still skips parsing the files that did not change: the parse cache
(``parsed/`` below the same folder) keeps each file's parse (its data, the positions of its nodes, its local
duplicate ids) under a digest of its bytes and of the studio's code, so an entry serves the same file anywhere
and a changed file or studio finds none. The run validates exactly as when it parsed the files itself. The
newest :data:`KEEP_PARSED` entries stay; ``--no-cache`` neither reads nor writes them.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import sys
from array import array
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from studio.model import files as project_paths
from studio.model.diagnostics import Diagnostic, Severity
from studio.model.safeio import MAX_FILE_BYTES

FORMAT = 2
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


def _file_bytes(path: str) -> bytes:
    try:
        st = os.stat(path)
        if not os.path.isfile(path) or st.st_size > MAX_FILE_BYTES:
            raise Uncacheable(path)
        with open(path, "rb") as f:
            return f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise Uncacheable(path) from exc


@dataclass
class RunInputs:
    """What a run reads: its :attr:`key`, its files (:func:`input_files`), each file's bytes and the name of
    its parse-cache entry (a digest of its bytes and of the studio's code: the same for the same file anywhere)."""

    key: str
    files: list[str]
    contents: dict[str, bytes]
    digests: dict[str, str]


def run_inputs(paths: list[Path], argv: list[str]) -> RunInputs:
    """The inputs of a validation run of ``paths`` (see the module docstring); raises :class:`Uncacheable`."""
    code = hashlib.blake2b(digest_size=20)
    _code_fingerprint(code)
    fingerprint = code.digest()
    h = hashlib.blake2b(digest_size=20)
    h.update(f"studio-validate {FORMAT}\n{os.getcwd()}\n{json.dumps(argv)}\n".encode("utf-8", "surrogateescape"))
    h.update(fingerprint)
    files = input_files(paths)
    contents, digests = {}, {}
    for path in files:
        data = contents[path] = _file_bytes(path)
        h.update(f"{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        h.update(data)
        one = hashlib.blake2b(fingerprint, digest_size=20)
        one.update(data)
        digests[path] = one.hexdigest()
    return RunInputs(h.hexdigest(), files, contents, digests)


def run_key(paths: list[Path], argv: list[str]) -> str:
    """The key of a validation run of ``paths`` (see the module docstring); raises :class:`Uncacheable`."""
    return run_inputs(paths, argv).key


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


# ------------------------------------------------------------------ the parse cache: one entry per file

#: parsed files kept (the newest by modification time)
KEEP_PARSED = 4096
PARSED_FORMAT = 1


def _parsed_dir() -> Path:
    return cache_dir() / "parsed"


def load_parsed(inputs: RunInputs) -> dict[str, tuple]:
    """The parse of each file of ``inputs`` whose entry is in the parse cache, by path, as
    :func:`studio.model.prefetch.read_raw` gives it (``(text, data, None, local duplicates, marks)``); a file
    without a (readable) entry is left out."""
    from studio.model import yamlio

    folder, found = _parsed_dir(), {}
    for path in inputs.files:
        try:
            entry = json.loads((folder / f"{inputs.digests[path]}.json").read_text(encoding="utf-8"))
            if not isinstance(entry, dict) or entry.get("format") != PARSED_FORMAT:
                continue
            marks = array("Q")
            marks.frombytes(base64.b64decode(entry["marks"], validate=True))
            duplicates = [(str(pointer), str(message)) for pointer, message in entry["duplicates"]]
            found[path] = (yamlio.decode(inputs.contents[path]), entry["data"], None, duplicates, marks)
        except (OSError, ValueError, KeyError, TypeError, binascii.Error, yamlio.YamlProblem):
            continue
    return found


def store_parsed(inputs: RunInputs, raws: dict[str, tuple]) -> None:
    """Write the parse cache entries of ``raws`` (files of ``inputs`` as ``read_raw`` parsed them, before any
    validation could touch their data; files that did not parse, or whose text is no longer the bytes the key
    read, are not kept) atomically, best effort, and keep the newest :data:`KEEP_PARSED` entries."""
    from studio.model import yamlio

    folder = _parsed_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, (text, data, problem, duplicates, marks) in raws.items():
            if problem is not None or marks is None or path not in inputs.digests:
                continue
            try:
                if yamlio.decode(inputs.contents[path]) != text:
                    continue  # the file changed between the key's reading and the parse: keep nothing
            except yamlio.YamlProblem:
                continue
            try:
                blob = json.dumps({"format": PARSED_FORMAT, "data": data, "duplicates": duplicates,
                                   "marks": base64.b64encode(marks.tobytes()).decode("ascii")})
            except (ValueError, TypeError, RecursionError):
                continue
            name = inputs.digests[path]
            tmp = folder / f".{name}.{os.getpid()}.tmp"
            tmp.write_text(blob, encoding="utf-8")
            os.replace(tmp, folder / f"{name}.json")
        if raws:
            entries = list(folder.glob("*.json"))
            if len(entries) > KEEP_PARSED:
                entries.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
                for old in entries[KEEP_PARSED:]:
                    old.unlink(missing_ok=True)
    except OSError:
        return
