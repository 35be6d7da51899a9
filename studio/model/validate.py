"""The validation pipeline: syntax -> schema/model -> references -> ruleset checks.

The same function serves the CLI and the GUI. Nothing here raises on bad input: every problem is a
:class:`Diagnostic`. A check that crashes is reported as ``internal.check-failed`` with its message.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .diagnostics import Diagnostic
from .project import (LoadedDocument, ProjectIndex, display_path, find_project_root, load_document,
                      project_files)
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


def validate_index(index: ProjectIndex, only: set[Path] | None = None) -> ValidationResult:
    """Run cross-file stages over a loaded project; report files in ``only`` (all when None)."""
    load_plugins()
    result = ValidationResult(index)
    seen: dict[tuple[str, str], LoadedDocument] = {}
    for doc in index.documents:
        if only is not None and doc.path.resolve() not in only:
            continue
        result.files += 1
        result.diagnostics.extend(doc.diagnostics)
        if doc.model is None:
            continue
        for other in index.duplicates_of(doc):
            result.diagnostics.append(check_duplicate_document(doc, other))
        result.diagnostics.extend(document_checks(doc, index))
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def validate_paths(paths: list[Path], display_base: Path | None = None) -> ValidationResult:
    """Validate project folders and/or single files. Single files are checked in their project's context."""
    load_plugins()
    index = ProjectIndex(None)
    loaded: dict[Path, LoadedDocument] = {}
    only: set[Path] = set()
    roots: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            roots.append(path)
            only.update(p.resolve() for p in project_files(path))
        else:
            only.add(path.resolve())
            root = find_project_root(path)
            if root is not None:
                roots.append(root)
            else:
                _add(index, loaded, path, display_base)
    for root in roots:
        for file in project_files(root):
            _add(index, loaded, file, display_base)
    for path in paths:  # single files outside any project folder walk or with odd suffixes
        if Path(path).is_file():
            _add(index, loaded, Path(path), display_base)
    index.root = roots[0] if roots else None
    return validate_index(index, only)


def _add(index: ProjectIndex, loaded: dict, path: Path, base: Path | None) -> None:
    key = path.resolve()
    if key not in loaded:
        loaded[key] = load_document(path, display_path(path, base))
        index.add(loaded[key])
