"""An open project: its folder, the documents open for editing, live validation, recovery and id refactoring.

Contracts:
- ``ProjectSession(root)`` never raises on bad files: unreadable documents appear in ``entries()`` with their
  diagnostics; ``open_document`` raises :class:`CannotOpen` (with diagnostics) only for the file asked for.
- ``current_index()`` is the project as the user sees it: files on disk, with every open document replaced by
  its in-memory content (as the canonical text it would be saved as, so lines in diagnostics match the save).
  ``validate()`` runs the same pipeline as ``studio validate`` over it.
- ``users_of(kind, id)`` lists every reference to a document; ``rename_id`` changes the id and every reference
  (one undo step per touched document); ``delete`` refuses while users exist and names them.
- ``autosaves()`` lists every autosave side file newer than its document and different from it, read and
  checked, each with its ``problem`` ("" when usable); it never raises, whatever the side file holds (garbage,
  a list, nothing, non-UTF-8, a huge number, a symlink, a FIFO). ``recoverable()`` is their document paths.
  ``recover(path)`` opens the document with the autosaved content (undoable, dirty); the file on disk is not
  touched, and when it no longer parses the document opens with the autosaved content alone. An unusable
  autosave is never applied and never deleted: ``recover`` moves it aside (``keep_aside``: ``.<name>.autosave.bad``)
  and raises :class:`BadAutosave` (a CannotOpen) saying why and where it went.
- Every write stays inside the project folder (documents are written with ``root=``, see
  ``studio.model.safeio``): ``create`` and ``save_as`` outside it, through a symlink or into a symlinked folder
  raise ``WriteRefused`` and create nothing; ``delete`` refuses a file outside the project.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.model import yamlio
from studio.model.diagnostics import Diagnostic, Severity
from studio.model.project import (LoadedDocument, ProjectIndex, display_path, load_document, project_files,
                                  validate_model)
from studio.model.safeio import WriteRefused, read_regular
from studio.model.references import document_references
from studio.model.validate import ValidationResult, validate_index

from .document import EditableDocument, autosave_path
from .ops import Set

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")


class CannotOpen(Exception):
    def __init__(self, path: Path, diagnostics: list[Diagnostic]):
        super().__init__(f"{path}: " + "; ".join(d.message for d in diagnostics))
        self.path, self.diagnostics = path, diagnostics


class BadAutosave(CannotOpen):
    """An autosave that cannot be used (not applied; moved aside to ``kept``, or left where it was if None)."""

    def __init__(self, path: Path, diagnostics: list[Diagnostic], kept: Path | None):
        super().__init__(path, diagnostics)
        self.kept = kept


@dataclass(frozen=True)
class Autosave:
    """A pending autosave: the document, its side file, the content (when usable) or why it is not usable."""

    path: Path
    side: Path
    data: Any = None
    problem: str = ""


class InUse(Exception):
    """A delete refused because other documents still refer to the target."""

    def __init__(self, users: list["Usage"]):
        super().__init__("still used by " + ", ".join(sorted({u.display for u in users})))
        self.users = users


@dataclass(frozen=True)
class Usage:
    display: str
    path: Path
    pointer: str


@dataclass(frozen=True)
class Entry:
    """One file of the project as listed in the project tree."""

    path: Path
    display: str
    kind: str | None
    id: str | None
    name: str
    ruleset: str | None
    ok: bool
    keywords: str = ""  # nation, category, branch ... for the tree filter


_PARSED: dict[tuple[str, bytes], LoadedDocument] = {}
_PARSED_MAX = 4096


def _load(path: Path, display: str) -> LoadedDocument:
    """``load_document``, reusing the parse of identical content seen before (reopening a project, copies of it).

    The reused text, data and model are shared read-only; every caller gets its own LoadedDocument and path."""
    try:
        raw = read_regular(path)
    except OSError:  # special, too large, unreadable: load_document reports it
        return load_document(path, display)
    key = (display, hashlib.sha1(raw).digest())
    seen = _PARSED.get(key)
    if seen is None:
        seen = load_document(path, display)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = seen
    doc = LoadedDocument(path, display, seen.text, seen.data, seen.model, list(seen.diagnostics))
    return doc


class ProjectSession:
    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.open_docs: dict[Path, EditableDocument] = {}
        self._disk: dict[Path, tuple[float, LoadedDocument]] = {}
        self._disk_version = 0
        self._index_cache: tuple[tuple, ProjectIndex] | None = None
        self.refresh()

    # ---------------------------------------------------------------- files on disk
    def display(self, path: Path) -> str:
        return display_path(Path(path).resolve(), self.root)

    def path_of(self, display: str) -> Path:
        return (self.root / display).resolve()

    def refresh(self) -> None:
        """Re-read files that changed on disk (and notice added or removed ones)."""
        fresh: dict[Path, tuple[float, LoadedDocument]] = {}
        for path in project_files(self.root):
            key = path.resolve()
            try:
                mtime = key.stat().st_mtime
            except OSError:
                continue
            cached = self._disk.get(key)
            fresh[key] = cached if cached and cached[0] == mtime else (mtime, _load(key, self.display(key)))
        if fresh.keys() != self._disk.keys() or any(fresh[k] is not self._disk.get(k) for k in fresh):
            self._disk_version += 1
        self._disk = fresh

    def project_name(self) -> str:
        """The project's name (from project.yaml, unsaved edits included), else the folder name."""
        for key, (_, loaded) in self._disk.items():
            if loaded.kind == "project":
                doc = self.open_docs.get(key)
                data = doc.data if doc is not None else loaded.data
                if isinstance(data, dict) and isinstance(data.get("name"), str):
                    return data["name"]
        return self.root.name

    def entries(self) -> list[Entry]:
        out = []
        for doc in self.current_index().documents:
            data = doc.data if isinstance(doc.data, dict) else {}
            name = data.get("name") if isinstance(data.get("name"), str) else ""
            symbol = data.get("symbol") if isinstance(data.get("symbol"), dict) else {}
            body = data.get("body") if isinstance(data.get("body"), dict) else {}
            words = [data.get("nation"), data.get("category"), symbol.get("branch"), symbol.get("affiliation"),
                     body.get("unit_class"), body.get("side")]
            out.append(Entry(doc.path, doc.display, doc.kind, doc.id, name or (doc.id or doc.path.name),
                             doc.ruleset, doc.model is not None, " ".join(str(w) for w in words if w)))
        return out

    def find(self, doc_id: str, kind: str | None = None) -> Path | None:
        """Path of the document with ``doc_id`` (of ``kind`` when given); the display path also works."""
        index = self.current_index()
        for doc in index.documents:
            if (doc.id == doc_id and (kind is None or doc.kind == kind)) or doc.display == doc_id:
                return doc.path
        return None

    # ---------------------------------------------------------------- open documents
    def open_document(self, path: Path) -> EditableDocument:
        key = Path(path).resolve()
        if key in self.open_docs:
            return self.open_docs[key]
        try:
            doc = EditableDocument.open(key, self.display(key), self.root)
        except OSError as exc:
            raise CannotOpen(key, [Diagnostic(Severity.ERROR, getattr(exc, "code", "file.unreadable"),
                                              getattr(exc, "reason", None) or exc.strerror or str(exc),
                                              self.display(key))]) from None
        except yamlio.YamlProblem as problem:
            diag = Diagnostic(Severity.ERROR, problem.code, problem.message, self.display(key), problem.line, problem.column)
            raise CannotOpen(key, [diag]) from None
        if not isinstance(doc.data, dict):
            raise CannotOpen(key, [Diagnostic(Severity.ERROR, "schema.type", "not a document (top level is not a mapping)",
                                              self.display(key))])
        self.open_docs[key] = doc
        return doc

    def save_as(self, doc: EditableDocument, path: Path) -> Path:
        """Save ``doc`` under a new path, which becomes its path in the session (the old file stays)."""
        old = doc.path.resolve()
        target = doc.save(Path(path))
        if self.open_docs.get(old) is doc:
            del self.open_docs[old]
        self.open_docs[target.resolve()] = doc
        doc.display = self.display(target)
        self.refresh()
        return target

    def rename_file(self, doc: EditableDocument, path: Path) -> Path:
        """Move ``doc`` to ``path`` in the project: the new file is written first (atomically, with the
        document's current content), then the old file is removed. Raises FileExistsError when ``path`` is
        taken and WriteRefused outside the project."""
        old = doc.path.resolve()
        target = Path(path).resolve()
        if target == old:
            return target
        if target.exists():
            raise FileExistsError(target)
        if not self.inside(target):
            raise WriteRefused(target, f"it is outside the project folder {self.root}")
        self.save_as(doc, target)
        if self.inside(old):
            old.unlink(missing_ok=True)
            autosave_path(old).unlink(missing_ok=True)
        self.refresh()
        return target

    def close_document(self, path: Path) -> None:
        doc = self.open_docs.pop(Path(path).resolve(), None)
        if doc is not None:
            doc.discard_autosave()

    def document_by_id(self, kind: str, doc_id: str) -> EditableDocument | None:
        path = self.find(doc_id, kind)
        return self.open_document(path) if path else None

    def data_of(self, kind: str, doc_id: str) -> Any:
        """Current (possibly unsaved) data of a document, without opening it for editing."""
        index = self.current_index()
        doc = index.get(kind, doc_id)
        return doc.data if doc else None

    def model_of(self, kind: str, doc_id: str):
        doc = self.current_index().get(kind, doc_id)
        return doc.model if doc else None

    @property
    def dirty(self) -> list[EditableDocument]:
        return [d for d in self.open_docs.values() if d.dirty]

    def save_all(self) -> list[Path]:
        """Save every dirty document; one refused or failed save does not stop the others (the first error is
        raised once all were tried, and the documents not saved stay dirty)."""
        saved, errors = [], []
        for doc in self.dirty:
            try:
                saved.append(doc.save())
            except OSError as exc:
                errors.append(exc)
        self.refresh()
        if errors:
            raise errors[0]
        return saved

    def autosave_all(self) -> list[Path]:
        """Autosave every dirty document; a refused write does not stop the others (the first error is raised
        once all were tried)."""
        written, errors = [], []
        for doc in list(self.open_docs.values()):
            try:
                side = doc.autosave()
            except OSError as exc:
                errors.append(exc)
                continue
            if side is not None:
                written.append(side)
        if errors:
            raise errors[0]
        return written

    # ---------------------------------------------------------------- the project as the user sees it
    def _memory_document(self, doc: EditableDocument) -> LoadedDocument:
        loaded = LoadedDocument(doc.path, self.display(doc.path))
        loaded.text = doc.text()
        loaded.data = yamlio.parse(loaded.text)
        validate_model(loaded)
        return loaded

    def current_index(self) -> ProjectIndex:
        """Cached until a file changes on disk or an open document changes (treat the result as read-only)."""
        key = (self._disk_version, tuple((p, d.history.serial, d.dirty) for p, d in self.open_docs.items()))
        if self._index_cache is not None and self._index_cache[0] == key:
            return self._index_cache[1]
        index = self._build_index()
        self._index_cache = (key, index)
        return index

    def _build_index(self) -> ProjectIndex:
        index = ProjectIndex(self.root)
        for key, (_, loaded) in sorted(self._disk.items()):
            doc = self.open_docs.get(key)
            index.add(self._memory_document(doc) if doc is not None and doc.dirty else loaded)
        for key, doc in self.open_docs.items():  # created in memory, not on disk yet
            if key not in self._disk:
                index.add(self._memory_document(doc))
        return index

    def validate(self) -> ValidationResult:
        return validate_index(self.current_index())

    # ---------------------------------------------------------------- references
    def users_of(self, kind: str, doc_id: str) -> list[Usage]:
        out = []
        for doc in self.current_index().documents:
            if doc.model is None:
                continue
            for pointer, target_kind, target in document_references(doc.model):
                if target_kind == kind and target == doc_id:
                    out.append(Usage(doc.display, doc.path, pointer))
        return out

    def rename_id(self, kind: str, old: str, new: str) -> list[EditableDocument]:
        """Rename a document's id and every reference to it; returns the documents edited (now dirty)."""
        if not ID_PATTERN.match(new):
            raise ValueError(f"'{new}' is not a valid id (lower-case letters, digits, '.', '_' and '-')")
        index = self.current_index()
        if index.get(kind, new) is not None:
            raise ValueError(f"a {kind} with id '{new}' already exists")
        target = index.get(kind, old)
        if target is None:
            raise ValueError(f"no {kind} with id '{old}'")
        edits: dict[Path, list[Set]] = {target.path: [Set("/id", new)]}
        for usage in self.users_of(kind, old):
            edits.setdefault(usage.path, []).append(Set(usage.pointer, new))
        changed = []
        for path, ops in edits.items():
            doc = self.open_document(path)
            doc.apply(f"Rename {kind} '{old}' to '{new}'", ops)
            changed.append(doc)
        return changed

    def delete(self, path: Path) -> None:
        """Delete a document file; raises InUse listing the users when other documents refer to it."""
        key = Path(path).resolve()
        loaded = next((d for d in self.current_index().documents if d.path.resolve() == key), None)
        if loaded is not None and loaded.kind and loaded.id:
            users = [u for u in self.users_of(loaded.kind, loaded.id) if u.path.resolve() != key]
            if users:
                raise InUse(users)
        if not self.inside(key):
            raise WriteRefused(key, f"it is outside the project folder {self.root}")
        self.open_docs.pop(key, None)
        key.unlink(missing_ok=True)
        autosave_path(key).unlink(missing_ok=True)
        self.refresh()

    def inside(self, path: Path) -> bool:
        """Whether ``path`` (symlinks resolved) is a file inside the project folder."""
        key = Path(path).resolve()
        return key != self.root and key.is_relative_to(self.root)

    def create(self, path: Path, data: dict) -> EditableDocument:
        """Write a new document file and open it; raises FileExistsError when the path is taken."""
        key = Path(path).resolve()
        if key.exists():
            raise FileExistsError(key)
        if not self.inside(key):
            raise WriteRefused(path, f"it is outside the project folder {self.root}")
        doc = EditableDocument(key, data, self.display(key), self.root)
        doc.save()
        self.open_docs[key] = doc
        self.refresh()
        return doc

    # ---------------------------------------------------------------- crash recovery
    def autosaves(self) -> list[Autosave]:
        """Every autosave newer than its document and different from it, checked (never raises)."""
        found = []
        for path in project_files(self.root):
            try:
                item = read_autosave(path)
            except Exception as exc:  # noqa: BLE001 - recovery must never stop the studio from starting
                item = Autosave(path.resolve(), autosave_path(path), problem=f"{type(exc).__name__}: {exc}")
            if item is not None:
                found.append(item)
        return found

    def recoverable(self) -> list[Path]:
        """Documents with a pending autosave (usable or not: ``recover`` refuses the unusable ones)."""
        return [item.path for item in self.autosaves()]

    def recover(self, path: Path) -> EditableDocument:
        """The document with its autosaved content applied (dirty, undoable); raises BadAutosave for an unusable
        autosave (moved aside) and CannotOpen when there is nothing to recover."""
        key = Path(path).resolve()
        try:
            item = read_autosave(key)
        except Exception as exc:  # noqa: BLE001
            item = Autosave(key, autosave_path(key), problem=f"{type(exc).__name__}: {exc}")
        if item is None:
            raise CannotOpen(key, [Diagnostic(Severity.ERROR, "autosave.none", "no autosave to recover",
                                              self.display(key))])
        if item.problem:
            kept = self.keep_aside(key)
            where = f"kept as {kept.name}" if kept else "left in place"
            raise BadAutosave(key, [Diagnostic(Severity.ERROR, "autosave.unusable",
                                               f"autosave {item.side.name} not used: {item.problem} ({where})",
                                               self.display(key))], kept)
        try:
            doc = self.open_document(key)
        except CannotOpen:  # the file on disk no longer parses: the autosaved content alone (saving replaces it)
            doc = EditableDocument(key, item.data, self.display(key), self.root)
            self.open_docs[key] = doc
        else:
            doc.replace_data("Recover autosaved changes", item.data)
        doc.mark_dirty()
        return doc

    def keep_aside(self, path: Path) -> Path | None:
        """Rename the document's autosave (a link or special file itself, never its target) to
        ``.<name>.autosave.bad`` (``.bad-2``... when taken); returns the new path, None if it cannot be moved."""
        side = autosave_path(Path(path).resolve())
        for n in range(1, 100):
            kept = side.with_name(side.name + (".bad" if n == 1 else f".bad-{n}"))
            if os.path.lexists(kept):
                continue
            try:
                os.rename(side, kept)
            except OSError:
                return None
            return kept
        return None

    def discard_recovery(self, path: Path) -> None:
        side = autosave_path(Path(path))
        try:
            if not stat.S_ISDIR(os.lstat(side).st_mode):
                os.unlink(side)  # a link itself, never its target
        except OSError:
            pass


def _bytes_or_none(path: Path) -> bytes | None:
    try:
        return read_regular(path)
    except OSError:
        return None


def _autosave_problem(side: Path, st: os.stat_result) -> tuple[Any, str]:
    """(data, "") for a usable autosave, (None, why not) otherwise."""
    if stat.S_ISLNK(st.st_mode):
        return None, "it is a symbolic link (the studio never writes one; not followed)"
    if not stat.S_ISREG(st.st_mode):
        return None, "it is not a regular file (a FIFO, device or folder); not read"
    try:
        data = yamlio.parse(yamlio.decode(read_regular(side)))
    except OSError as exc:
        return None, getattr(exc, "reason", None) or f"cannot read it: {exc.strerror or exc}"
    except yamlio.YamlProblem as problem:
        return None, f"line {problem.line}: {problem.message}"
    except (ValueError, RecursionError) as exc:
        return None, f"unreadable content ({type(exc).__name__}: {exc})"
    if data is None:
        return None, "it is empty"
    if not isinstance(data, dict):
        return None, f"its top level is a {type(data).__name__}, not a mapping"
    return data, ""


def read_autosave(path: Path) -> Autosave | None:
    """The pending autosave of ``path``: None when there is none, it is older than the file, or it holds the
    same bytes; otherwise its content or the problem that makes it unusable."""
    path = Path(path).resolve()
    side = autosave_path(path)
    try:
        st = os.lstat(side)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Autosave(path, side, problem=f"cannot inspect it: {exc.strerror}")
    try:
        if st.st_mtime < path.stat().st_mtime:
            return None  # stale: the document was saved after it
    except OSError:
        pass
    if stat.S_ISREG(st.st_mode):
        same = _bytes_or_none(side)
        if same is not None and same == _bytes_or_none(path):
            return None
    data, problem = _autosave_problem(side, st)
    return Autosave(path, side, data, problem)
