"""An open project: its folder, the documents open for editing, live validation, recovery and id refactoring.

Contracts:
- ``ProjectSession(root)`` never raises on bad files: unreadable documents appear in ``entries()`` with their
  diagnostics; ``open_document`` raises :class:`CannotOpen` (with diagnostics) only for the file asked for.
- ``current_index()`` is the project as the user sees it: files on disk, with every open document replaced by
  its in-memory content (as the canonical text it would be saved as, so lines in diagnostics match the save).
  ``validate()`` runs the same pipeline as ``studio validate`` over it.
- ``users_of(kind, id)`` lists every reference to a document; ``rename_id`` changes the id and every reference
  (one undo step per touched document); ``delete`` refuses while users exist and names them.
- ``recoverable()`` lists documents with an autosave side file newer than the file and different from it;
  ``recover(path)`` opens the document with the autosaved content (undoable, dirty).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.model import yamlio
from studio.model.diagnostics import Diagnostic, Severity
from studio.model.project import (LoadedDocument, ProjectIndex, display_path, load_document, project_files,
                                  validate_model)
from studio.model.validate import ValidationResult, validate_index

from .document import EditableDocument, autosave_path
from .ops import Set

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")


class CannotOpen(Exception):
    def __init__(self, path: Path, diagnostics: list[Diagnostic]):
        super().__init__(f"{path}: " + "; ".join(d.message for d in diagnostics))
        self.path, self.diagnostics = path, diagnostics


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
        raw = path.read_bytes()
    except OSError:
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
            doc = EditableDocument.open(key, self.display(key))
        except OSError as exc:
            raise CannotOpen(key, [Diagnostic(Severity.ERROR, "file.unreadable", str(exc), self.display(key))]) from None
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
        saved = [d.save() for d in self.dirty]
        self.refresh()
        return saved

    def autosave_all(self) -> list[Path]:
        return [p for p in (d.autosave() for d in self.open_docs.values()) if p]

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
            for pointer, target_kind, target in doc.model.references():
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
        self.open_docs.pop(key, None)
        key.unlink(missing_ok=True)
        autosave_path(key).unlink(missing_ok=True)
        self.refresh()

    def create(self, path: Path, data: dict) -> EditableDocument:
        """Write a new document file and open it; raises FileExistsError when the path is taken."""
        key = Path(path).resolve()
        if key.exists():
            raise FileExistsError(key)
        doc = EditableDocument(key, data, self.display(key))
        doc.save()
        self.open_docs[key] = doc
        self.refresh()
        return doc

    # ---------------------------------------------------------------- crash recovery
    def recoverable(self) -> list[Path]:
        found = []
        for path in project_files(self.root):
            side = autosave_path(path)
            try:
                if side.stat().st_mtime >= path.stat().st_mtime and side.read_bytes() != path.read_bytes():
                    found.append(path.resolve())
            except OSError:
                continue
        return found

    def recover(self, path: Path) -> EditableDocument:
        doc = self.open_document(path)
        side = autosave_path(doc.path)
        data = yamlio.parse(yamlio.decode(side.read_bytes()))
        doc.replace_data("Recover autosaved changes", data)
        doc.mark_dirty()
        return doc

    def discard_recovery(self, path: Path) -> None:
        autosave_path(Path(path)).unlink(missing_ok=True)
