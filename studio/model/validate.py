"""The validation pipeline: syntax -> schema/model -> references -> ruleset checks.

The same function serves the CLI and the GUI. Nothing here raises on bad input: every problem is a
:class:`Diagnostic`. A check that crashes is reported as ``internal.check-failed`` with its message.
"""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .diagnostics import Diagnostic
from .project import (LoadedDocument, ProjectIndex, display_path, find_project_root, fork_is_safe, fork_pool,
                      load_documents, project_files)
from .references import check_duplicate_document, check_local_duplicates, check_references
from .registry import load_plugins, plugin
from .core_checks import CORE_CHECKS


@dataclass
class ValidationResult:
    index: ProjectIndex
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0

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
    checked = [doc for doc in selected if doc.model is not None]
    for found in _checks_of_all(index, checked):
        result.diagnostics.extend(found)
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def _checks_of(index: ProjectIndex, doc: LoadedDocument) -> list[Diagnostic]:
    """Duplicate-id findings and every check of one valid document."""
    out = [check_duplicate_document(doc, other) for other in index.duplicates_of(doc)]
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
    """The findings of each document of ``docs``, in order (see :func:`validate_index`)."""
    global _WORK
    workers = min(2, os.cpu_count() or 1)
    if len(docs) >= PARALLEL_MIN_CHECKS and workers >= 2 and fork_is_safe():
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


def validate_paths(paths: list[Path], display_base: Path | None = None) -> ValidationResult:
    """Validate project folders and/or single files. Single files are checked in their project's context
    (the nearest folder above them with ``project.yaml``) but only their own findings are reported."""
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
    for doc in load_documents(ordered, [display_path(f, display_base) for f in ordered]):
        index.add(doc)
    return validate_index(index, only)


def _key(path: Path) -> str:
    """Identity of a file for de-duplication (absolute, normalised; cheaper than resolving symlinks)."""
    return os.path.abspath(path)
