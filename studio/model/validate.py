"""The validation pipeline: syntax -> schema/model -> references -> ruleset checks.

The same function serves the CLI and the GUI. Nothing here raises on bad input: every problem is a
:class:`Diagnostic`. A check that crashes is reported as ``internal.check-failed`` with its message.

A file with schema errors is still checked, as an IDE keeps checking the rest of a file with a typo: the parts
the schema rejects are left out (the rejected field, else the object that holds it; a list of plain values such as
a table row or a list of hexes only whole) until the rest validates, and the checks run on that. Their findings
at a left-out part, inside it or at a node holding it are dropped (they could only say that the part is
missing); an info ``checks.partial`` names what was left out. When nothing short of the whole file would
validate, an info ``checks.withheld`` says that the rule checks wait for the errors to be fixed. These infos are
:attr:`ValidationResult.notes` (the Problems panel shows them); the findings of a partial run are ordinary
diagnostics at the lines of the real file.
"""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from pydantic import ValidationError

from .diagnostics import Diagnostic
from .kinds import CORE_KINDS, model_for
from .pointers import join, split
from .project import (LoadedDocument, ProjectIndex, _data_path, display_path, find_project_root, fork_pool,
                      forking_pays, load_documents, project_files)
from .references import check_duplicate_document, check_local_duplicates, check_references
from .registry import load_plugins, plugin
from .core_checks import CORE_CHECKS


@dataclass
class ValidationResult:
    index: ProjectIndex
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    #: ``checks.partial`` / ``checks.withheld`` infos: why a file's rule checks ran on part of it or not at all
    #: (kept apart from the findings, so the CLI's report and counts stay the files' own findings)
    notes: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity.value == "error"]

    def for_file(self, display: str) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.file == display]


def _run_check(check, doc: LoadedDocument, index: ProjectIndex) -> Iterable[Diagnostic]:
    try:
        return list(check(doc, index))
    except Exception as exc:  # a buggy check must not hide the other findings
        name = getattr(check, "__qualname__", repr(check))
        return [doc.error("internal.check-failed", f"check {name} failed: {type(exc).__name__}: {exc}")]


def document_checks(doc: LoadedDocument, index: ProjectIndex) -> list[Diagnostic]:
    """Reference, core and ruleset checks of one document whose model is valid."""
    out: list[Diagnostic] = list(check_local_duplicates(doc))
    out += _run_check(check_references, doc, index)
    for check in CORE_CHECKS.get(doc.kind, []):
        out += _run_check(check, doc, index)
    plug = plugin(doc.ruleset) if doc.ruleset else None
    if plug:
        for check in plug.checks.get(doc.kind, []) + plug.checks.get("*", []):
            out += _run_check(check, doc, index)
    return out


def validate_index(index: ProjectIndex, only: set[str] | None = None) -> ValidationResult:
    """Run cross-file stages over a loaded project; report files in ``only`` (all when None).

    The checks of a large project run in forked worker processes (each sees the whole index; the diagnostics
    come back in document order and are sorted as always), a small one in this process."""
    load_plugins()
    result = ValidationResult(index)
    selected = [doc for doc in index.documents if only is None or _key(doc.path) in only]
    result.files = len(selected)
    for doc in selected:
        result.diagnostics.extend(doc.diagnostics)
    checked = [checkable(doc) for doc in selected]
    result.notes.extend(note for doc, checked_doc in zip(selected, checked)
                              for note in [checks_note(doc, checked_doc)] if note is not None)
    checked = [doc for doc in checked if doc is not None]
    index.run_memo = {}
    try:
        for doc, found in zip(checked, _checks_of_all(index, checked)):
            result.diagnostics.extend(unrelated(doc, found) if isinstance(doc, PartialDocument) else found)
    finally:
        index.run_memo = None
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def unrelated(doc: "PartialDocument", found: list[Diagnostic]) -> list[Diagnostic]:
    """The findings of a partial run that do not concern a part left out: a finding at a left-out part, inside
    it, or at a node holding it (up to the whole document) may only say that the part is missing, so it waits
    for the part to be checked whole. Linear in findings and left-out parts (sets of pointers, no pair scan)."""
    removed = set(doc.removed)
    if not removed:
        return list(found)
    holders = {holder for r in removed for holder in _ancestors(r)}

    def concerns(pointer: str) -> bool:
        return (not pointer or pointer in removed or pointer in holders
                or any(a in removed for a in _ancestors(pointer)))
    return [d for d in found if not concerns(d.pointer)]


def _ancestors(pointer: str) -> Iterator[str]:
    """The pointers of the nodes holding ``pointer``, nearest first, down to the root ``""``."""
    while pointer:
        pointer = pointer[:pointer.rfind("/")]
        yield pointer


# ------------------------------------------------------------------ checks of the parts that validate

#: rounds of leaving out rejected parts before the rule checks are withheld (each round removes what the
#: previous validation rejected: a field, then the item holding it, ...)
MAX_PRUNE_ROUNDS = 8
#: a file with more schema findings than this is not pruned (a hostile or wholly wrong file): checks withheld
MAX_PRUNED_FINDINGS = 50


@dataclass
class PartialDocument(LoadedDocument):
    """A document with its rejected parts left out (``removed``: pointers into the whole file's data): checks
    see the pruned data and model; their findings are placed at the lines of the ``whole`` file."""

    whole: LoadedDocument | None = None
    removed: tuple[str, ...] = ()
    _removed_trie: dict | None = field(default=None, repr=False)

    def diag(self, severity, code, message, pointer="", rule="", at_key=False, hint=""):
        assert self.whole is not None
        if self._removed_trie is None:
            self._removed_trie = _trie(self.removed)
        return self.whole.diag(severity, code, message, _original(self.whole.data, self._removed_trie, pointer),
                               rule, at_key=at_key, hint=hint)


def checkable(doc: LoadedDocument) -> LoadedDocument | None:
    """The document the checks run on: ``doc`` itself when valid, its :class:`PartialDocument` when leaving out
    its rejected parts makes the rest validate, else None (checks withheld)."""
    if doc.model is not None:
        return doc
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or data["kind"] not in CORE_KINDS:
        return None
    if any(not d.code.startswith("schema.") or d.code in ("schema.too-many", "schema.version")
           for d in doc.diagnostics):
        return None
    return _pruned_document(doc)


def _pruned_document(doc: LoadedDocument) -> PartialDocument | None:
    """Leave out what the schema rejects, round after round, until the rest validates (None: it never does)."""
    removed: set[str] = set()
    for _ in range(MAX_PRUNE_ROUNDS):
        trie = _trie(removed)
        data = _without(doc.data, trie) if removed else doc.data
        try:
            model = model_for(data).model_validate(data)
        except ValidationError as exc:
            targets = _rejected(data, exc)
            if targets is None:
                return None
            removed |= {_original(doc.data, trie, t) for t in targets}
            continue
        except (RecursionError, ValueError, TypeError, KeyError):
            return None
        outermost = {r for r in removed if not any(a in removed for a in _ancestors(r))}
        return PartialDocument(doc.path, doc.display, text=doc.text, data=data, model=model, whole=doc,
                               removed=tuple(sorted(outermost, key=_pointer_order)))
    return None


def _rejected(data: Any, exc: ValidationError) -> set[str] | None:
    """Pointers (into ``data``) of the parts ``exc`` rejects: the field itself, or for a missing field the
    object that lacks it; None when the document root itself is rejected or there are too many findings."""
    errors = exc.errors(include_url=False)
    if len(errors) > MAX_PRUNED_FINDINGS:
        return None
    targets: set[str] = set()
    for err in errors:
        parts, complete = _data_path(data, tuple(err["loc"]))
        if not complete:
            parts = parts[:-1]
        parts = _whole_value(data, parts)
        if not parts or parts[0] in ("kind", "id"):
            return None
        targets.add(join(parts))
    return targets


def _whole_value(data: Any, parts: list) -> list:
    """``parts`` shortened so that no item of a list of plain values is left out alone: a table row, a coordinate
    pair or a list of set-up hexes means something only whole (leaving out one cell would shift the others)."""
    while parts:
        parent = data
        for part in parts[:-1]:
            parent = parent[part]
        if isinstance(parent, list) and not isinstance(parent[parts[-1]], dict):
            parts = parts[:-1]
        else:
            return parts
    return parts


#: a node of a :func:`_trie` that is left out whole
_GONE = None


def _trie(removed: Iterable[str]) -> dict:
    """``removed`` pointers as a tree of their tokens: ``{token: subtree}``, :data:`_GONE` where a node is left
    out whole (what lies below it no longer matters). Built in one pass; the root pointer is never left out."""
    root: dict = {}
    for pointer in removed:
        tokens = split(pointer)
        if not tokens:
            continue
        node = root
        for token in tokens[:-1]:
            node = node.setdefault(token, {})
            if node is _GONE:
                break
        else:
            node[tokens[-1]] = _GONE
    return root


def without(data: Any, removed: Iterable[str]) -> Any:
    """``data`` without the nodes at ``removed`` (copying only the containers on their way; the rest shared)."""
    removed = list(removed)
    return _without(data, _trie(removed)) if removed else data


def _without(data: Any, trie: dict) -> Any:
    """``data`` less the nodes of ``trie`` (see :func:`_trie`): each container on a path to a removed node is
    copied once, in time linear in its length; everything else is shared."""
    if not trie:
        return data
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            sub = trie.get(key if isinstance(key, str) else str(key), data)  # ``data``: not in the tree
            if sub is data:
                out[key] = value
            elif sub is not _GONE:
                out[key] = _without(value, sub)
        return out
    if isinstance(data, list):
        gone = {int(t) for t, sub in trie.items() if sub is _GONE and t.isdigit()}
        below = {int(t): sub for t, sub in trie.items() if sub is not _GONE and t.isdigit()}
        return [_without(v, below[i]) if i in below else v for i, v in enumerate(data) if i not in gone]
    return data


def original_pointer(whole: Any, removed: tuple[str, ...] | set[str], pointer: str) -> str:
    """The pointer into the whole data of ``pointer`` into its pruned copy (list items after a removed one have
    moved up; the rest is the same)."""
    if not removed or not pointer:
        return pointer
    return _original(whole, _trie(removed), pointer)


def _original(whole: Any, trie: dict, pointer: str) -> str:
    """:func:`original_pointer` over the :func:`_trie` of the removed pointers (time: the pointer's depth times
    the removed items of the lists it passes through)."""
    node, out = whole, []
    for token in split(pointer):
        if isinstance(node, list) and token.isdigit():
            index = _kept_index(node, trie, int(token))
            out.append(index)
            token = str(index)
            node = node[index] if index < len(node) else None
        else:
            out.append(token)
            node = node.get(token) if isinstance(node, dict) else None
        trie = trie.get(token) or {}
    return join(out)


def _kept_index(items: list, trie: dict, k: int) -> int:
    """The index in ``items`` of the ``k``-th item kept (``trie``: the removed items' tree at ``items``); ``k``
    itself when fewer items are kept."""
    gone = sorted(i for i in (int(t) for t, sub in trie.items() if sub is _GONE and t.isdigit()) if i < len(items))
    if k >= len(items) - len(gone):
        return k
    for index in gone:
        if index > k:
            break
        k += 1
    return k


def _pointer_order(pointer: str) -> list:
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in split(pointer)]


def checks_note(doc: LoadedDocument, checked: LoadedDocument | None) -> Diagnostic | None:
    """The info that says a file's rule checks ran on part of it (``checks.partial``) or wait for its errors
    (``checks.withheld``); None for a valid file."""
    if checked is doc:
        return None
    if isinstance(checked, PartialDocument):
        shown = ", ".join(checked.removed[:3]) + (f" and {len(checked.removed) - 3} more"
                                                   if len(checked.removed) > 3 else "")
        return doc.info("checks.partial", f"rule checks ran on the rest of the file; left out until their schema "
                        f"errors are fixed: {shown}", checked.removed[0])
    if not doc.diagnostics:
        return None
    why = ("the file does not parse" if any(not d.code.startswith("schema.") for d in doc.diagnostics)
           else "no part of it can be checked on its own")
    return doc.info("checks.withheld", f"rule checks withheld until the errors are fixed: {why}")


def _checks_of(index: ProjectIndex, doc: LoadedDocument) -> list[Diagnostic]:
    """Duplicate-id findings and every check of one valid (or :class:`PartialDocument`) document."""
    whole = doc.whole if isinstance(doc, PartialDocument) and doc.whole is not None else doc
    out = [check_duplicate_document(doc, other) for other in index.duplicates_of(whole)]
    return out + document_checks(doc, index)


#: below this many documents to check, forking workers costs more than it saves
PARALLEL_MIN_CHECKS = 600

# the work of forked check workers: (index, documents), inherited through fork (never pickled)
_WORK: tuple[ProjectIndex, list[LoadedDocument]] | None = None


def _check_slice(bounds: tuple[int, int]) -> list[list[Diagnostic]]:
    index, docs = _WORK  # type: ignore[misc]
    gc.disable()  # the worker only adds diagnostics; it exits when done
    return [_checks_of(index, doc) for doc in docs[bounds[0]:bounds[1]]]


def _checks_of_all(index: ProjectIndex, docs: list[LoadedDocument]) -> Iterable[list[Diagnostic]]:
    """The findings of each document of ``docs``, in order (see :func:`validate_index`); in forked workers only
    when that pays (:func:`~studio.model.project.forking_pays`: enough documents and a core left idle)."""
    global _WORK
    workers = min(2, os.cpu_count() or 1)
    if forking_pays(len(docs), PARALLEL_MIN_CHECKS):
        chunk = -(-len(docs) // (4 * workers))
        bounds = [(i, min(i + chunk, len(docs))) for i in range(0, len(docs), chunk)]
        _WORK = (index, docs)
        from concurrent.futures.process import BrokenProcessPool

        try:
            with fork_pool(workers) as pool:
                return [found for part in pool.map(_check_slice, bounds) for found in part]
        except (OSError, RuntimeError, BrokenProcessPool):  # no process support here: one process
            pass
        finally:
            _WORK = None
    return [_checks_of(index, doc) for doc in docs]


def validate_paths(paths: list[Path], display_base: Path | None = None,
                   prefetched: dict[str, tuple] | None = None) -> ValidationResult:
    """Validate project folders and/or single files. Single files are checked in their project's context
    (the nearest folder above them with ``project.yaml``) but only their own findings are reported.
    ``prefetched``: files already read (:func:`studio.model.prefetch.read_raw`), by absolute path; the others
    are read here."""
    load_plugins()
    only: set[str] = set()
    roots: list[Path] = []
    loose: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            # a sub-folder of a project (e.g. data/units) is checked in its project's context
            root = find_project_root(path)
            roots.append(path if root is None or root.resolve() == path.resolve() else root)
            only.update(_key(p) for p in project_files(path))
        else:
            only.add(_key(path))
            root = find_project_root(path)
            (roots.append(root) if root is not None else loose.append(path))
    files: dict[str, Path] = {}
    for file in [f for root in roots for f in project_files(root)] + loose:
        files.setdefault(_key(file), file)
    index = ProjectIndex(roots[0] if roots else None)
    ordered = list(files.values())
    for doc in load_documents(ordered, [display_path(f, display_base) for f in ordered], prefetched):
        index.add(doc)
    return validate_index(index, only)


def _key(path: Path) -> str:
    """Identity of a file for de-duplication (absolute, normalised; cheaper than resolving symlinks)."""
    return os.path.abspath(path)
