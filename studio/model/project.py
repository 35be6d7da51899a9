"""Loading a project folder (or single files) into validated documents, without ever raising on bad input.

``load_document`` runs the per-file stages of the pipeline (syntax -> schema/model); ``load_project`` loads a
whole folder and builds the :class:`ProjectIndex` that reference and ruleset checks use.
"""
from __future__ import annotations

import gc
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel, ValidationError

from . import yamlio
from .base import SCHEMA_VERSION
from .diagnostics import Diagnostic, Severity
from .files import (PROJECT_FILE, YAML_SUFFIXES, default_project, display_path, find_project_root,  # noqa: F401
                    project_files, write_root)
from .kinds import CORE_KINDS, model_for
from .pointers import join
from .prefetch import idle_cores, read_raw as _read_raw  # noqa: F401 - both part of this module's interface



@dataclass
class LoadedDocument:
    """One file: its text, raw data, validated model (None when invalid) and per-file diagnostics."""

    path: Path
    display: str
    text: str = ""
    data: Any = None
    model: BaseModel | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    local_duplicates: list[tuple[str, str]] = field(default_factory=list)  # (pointer, message), see references
    _source_map: yamlio.SourceMap | None = field(default=None, repr=False)
    _marks: Any = field(default=None, repr=False)  # positions recorded by the first parse (yamlio.parse)

    @property
    def kind(self) -> str | None:
        value = self.data.get("kind") if isinstance(self.data, dict) else None
        return value if isinstance(value, str) else None

    @property
    def id(self) -> str | None:
        value = self.data.get("id") if isinstance(self.data, dict) else None
        return value if isinstance(value, str) else None

    @property
    def ruleset(self) -> str | None:
        value = self.data.get("ruleset") if isinstance(self.data, dict) else None
        if self.kind == "ruleset":
            return self.id
        return value if isinstance(value, str) else None

    @property
    def source_map(self) -> yamlio.SourceMap:
        if self._source_map is None:
            self._source_map = yamlio.SourceMap(self.text, self._marks, self.data)
        return self._source_map

    def diag(self, severity: Severity, code: str, message: str, pointer: str = "", rule: str = "",
             at_key: bool = False, hint: str = "") -> Diagnostic:
        """A Diagnostic located at ``pointer`` in this file (its key when ``at_key``)."""
        line, col = (self.source_map.key_position(pointer) if at_key else self.source_map.position(pointer))
        return Diagnostic(severity, code, message, self.display, line, col, pointer, rule, hint)

    def error(self, code, message, pointer="", rule="", **kw) -> Diagnostic:
        return self.diag(Severity.ERROR, code, message, pointer, rule, **kw)

    def warning(self, code, message, pointer="", rule="", **kw) -> Diagnostic:
        return self.diag(Severity.WARNING, code, message, pointer, rule, **kw)

    def info(self, code, message, pointer="", rule="", **kw) -> Diagnostic:
        return self.diag(Severity.INFO, code, message, pointer, rule, **kw)


# ------------------------------------------------------------------ per-file stages

_PYDANTIC_CODES = {
    "missing": "schema.missing",
    "extra_forbidden": "schema.unknown-field",
    "literal_error": "schema.enum",
    "enum": "schema.enum",
    "string_pattern_mismatch": "schema.pattern",
    "too_short": "schema.length",
    "too_long": "schema.length",
    "string_too_short": "schema.length",
    "string_too_long": "schema.length",
    "greater_than": "schema.range",
    "greater_than_equal": "schema.range",
    "less_than": "schema.range",
    "less_than_equal": "schema.range",
    "value_error": "schema.value",
    "assertion_error": "schema.value",
    "finite_number": "schema.value",
}


def _error_code(error_type: str) -> str:
    if error_type in _PYDANTIC_CODES:
        return _PYDANTIC_CODES[error_type]
    if error_type.endswith(("_type", "_parsing")) or error_type in ("model_type", "dict_type", "list_type"):
        return "schema.type"
    return "schema.invalid"


def _data_path(data: Any, loc: tuple) -> tuple[list, bool]:
    """The part of a pydantic ``loc`` that walks real data (union-member tags dropped); and whether it all exists."""
    node, parts, complete = data, [], True
    for seg in loc:
        if isinstance(node, dict) and isinstance(seg, str) and seg in node:
            node = node[seg]
            parts.append(seg)
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
            parts.append(seg)
        elif isinstance(node, dict) and isinstance(seg, str) and not seg[:1].isupper() and "[" not in seg:
            parts.append(seg)  # a missing key: point at it, position falls back to the parent
            complete = False
            node = None
        # else: a union member tag such as 'int' or 'function-after[...]'; skip it
    return parts, complete


def _describe_input(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: schema findings reported per file; past it one summary finding says how many more there are (a hostile file
#: with 200,000 unknown keys must not produce 200,000 diagnostics)
MAX_SCHEMA_FINDINGS = 200


def validation_diagnostics(doc: LoadedDocument, exc: ValidationError) -> list[Diagnostic]:
    """Schema findings of ``exc`` at their lines, one per pointer, at most :data:`MAX_SCHEMA_FINDINGS` of them."""
    out: list[Diagnostic] = []
    seen: set[str] = set()
    errors = exc.errors(include_url=False)
    # of a union's several complaints about one value, "not finite" (NaN, inf) is the one that explains it
    for err in sorted(errors, key=lambda e: e["type"] != "finite_number"):
        if len(out) >= MAX_SCHEMA_FINDINGS:
            out.append(doc.error("schema.too-many", f"{len(errors) - len(seen):,} more schema finding(s) in this "
                                 f"file not shown; fix the ones above first", ""))
            break
        parts, _ = _data_path(doc.data, tuple(err["loc"]))
        pointer = join(parts)
        if pointer in seen:
            continue
        seen.add(pointer)
        field_name = "/".join(str(p) for p in parts) or "(document)"
        etype = err["type"]
        msg = err["msg"]
        if etype == "extra_forbidden":
            message = f"unknown field '{parts[-1] if parts else '?'}'"
            out.append(doc.error("schema.unknown-field", message, pointer, at_key=True))
            continue
        if etype == "missing":
            message = f"required field '{field_name}' is missing"
        else:
            message = f"{field_name}: {msg}"
            if "input" in err and etype != "value_error" and not isinstance(err["input"], (dict, list)):
                message += f" (got {_describe_input(err['input'])})"
        hint = ""
        if isinstance(err.get("input"), int) and "string" in msg and ("hex" in field_name or "label" in field_name):
            hint = "hex labels must be quoted, e.g. '0405', or YAML reads them as numbers"
        out.append(doc.error(_error_code(etype), message, pointer, hint=hint))
    return out


def _document_from_raw(path: Path, display: str, raw: tuple[str, Any, tuple | None, list, Any]) -> LoadedDocument:
    text, data, problem, duplicates, marks = raw
    doc = LoadedDocument(path if isinstance(path, Path) else Path(path), display, text=text, data=data,
                         local_duplicates=duplicates, _marks=marks)
    if problem is not None:
        doc.diagnostics.append(Diagnostic(Severity.ERROR, problem[0], problem[1], display, problem[2], problem[3]))
    return doc


def read_document(path: Path, display: str | None = None) -> LoadedDocument:
    """Read and parse one file; syntax problems become diagnostics (no model validation yet)."""
    return _document_from_raw(Path(path), display or display_path(Path(path)), _read_raw(str(path)))


#: below this many files, parsing in worker processes costs more than it saves
PARALLEL_MIN_FILES = 600


def load_documents(paths: list[Path], displays: list[str],
                   prefetched: dict[str, tuple] | None = None) -> list[LoadedDocument]:
    """Load many files; YAML parsing runs in worker processes for large projects (same results, in order).
    ``prefetched``: files already read by :func:`studio.model.prefetch.read_raw`, by absolute path (those
    missing are read here)."""
    paused = gc.isenabled()
    gc.disable()  # bulk loading builds many acyclic containers: collecting meanwhile only costs time
    try:
        if prefetched is not None:
            return [_validated(path, display, prefetched.get(os.path.abspath(path)) or _read_raw(str(path)))
                    for path, display in zip(paths, displays)]
        return _load_documents(paths, displays)
    finally:
        # what was built survives: straight to the oldest generation, so the young collections that follow do
        # not scan it again and again (freeze then unfreeze moves every tracked object there; nothing is kept)
        gc.freeze()
        gc.unfreeze()
        if paused:
            gc.enable()


def fork_is_safe() -> bool:
    """Forked workers are cheap (no re-import, the parent's data shared) but only safe while this process runs a
    single thread (not in the GUI)."""
    import multiprocessing  # here: most runs never start a process, and the import costs start-up time

    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def fork_pool(workers: int):
    """A pool of ``workers`` forked processes (see :func:`fork_is_safe`)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))


def forking_pays(items: int, min_items: int) -> bool:
    """Whether worker processes would finish ``items`` pieces of work sooner: at least ``min_items`` of them, a
    second core, fork safe here (:func:`fork_is_safe`), and a core left idle by the other processes (on a busy
    machine the workers only queue behind them, and sending their results back costs more than it saves)."""
    return items >= min_items and (os.cpu_count() or 1) >= 2 and idle_cores() >= 1.0 and fork_is_safe()


def _load_documents(paths: list[Path], displays: list[str]) -> list[LoadedDocument]:
    workers = min(4, os.cpu_count() or 1)
    if forking_pays(len(paths), PARALLEL_MIN_FILES):
        try:
            with fork_pool(workers) as pool:
                # models are validated here while the workers go on parsing
                return [_validated(path, display, raw) for path, display, raw in
                        zip(paths, displays, pool.map(_read_raw, [str(p) for p in paths], chunksize=64))]
        except (OSError, RuntimeError):  # no process support here: fall back to one process
            pass
    return [_validated(path, display, _read_raw(str(path))) for path, display in zip(paths, displays)]


def _validated(path: Path, display: str, raw: tuple) -> LoadedDocument:
    doc = _document_from_raw(path, display, raw)
    validate_model(doc)
    return doc


def validate_model(doc: LoadedDocument) -> None:
    """Envelope checks, then the kind's (ruleset-refined) model; fills ``doc.model`` or diagnostics."""
    data = doc.data
    if data is None and not doc.diagnostics:
        doc.diagnostics.append(doc.error("schema.empty", "file is empty; expected a document with 'kind:'"))
        return
    if doc.diagnostics:
        return
    if not isinstance(data, dict):
        doc.diagnostics.append(doc.error("schema.type", f"top level must be a mapping with 'kind:', "
                                                        f"not {type(data).__name__}"))
        return
    kind = data.get("kind")
    if kind is None:
        doc.diagnostics.append(doc.error("schema.missing", "required field 'kind' is missing "
                                         f"(one of: {', '.join(CORE_KINDS)})"))
        return
    if not isinstance(kind, str) or kind not in CORE_KINDS:
        doc.diagnostics.append(doc.error("schema.unknown-kind", f"unknown kind {kind!r}; expected one of: "
                                         f"{', '.join(CORE_KINDS)}", "/kind"))
        return
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        doc.diagnostics.append(doc.error(
            "schema.version", f"schema_version {version} is newer than this studio supports "
                              f"({SCHEMA_VERSION}); update the studio", "/schema_version"))
        return
    try:
        doc.model = model_for(data).model_validate(data)
    except ValidationError as exc:
        doc.diagnostics.extend(validation_diagnostics(doc, exc))
    except RecursionError:
        doc.diagnostics.append(doc.error("syntax.too-deep", "document nesting is too deep"))


def load_document(path: Path, display: str | None = None) -> LoadedDocument:
    doc = read_document(path, display)
    validate_model(doc)
    return doc


# ------------------------------------------------------------------ project

@dataclass
class ProjectIndex:
    """Every document of a project, indexed by kind and id."""

    root: Path | None
    documents: list[LoadedDocument] = field(default_factory=list)
    by_kind: dict[str, dict[str, LoadedDocument]] = field(default_factory=dict)
    _same_id: dict[tuple[str, str], list[LoadedDocument]] = field(default_factory=dict, repr=False)
    #: (document count, table) of ``studio.model.references.unloaded_documents``, computed once per document list
    unloaded_cache: tuple[int, dict] | None = field(default=None, repr=False, compare=False)
    #: work the checks of one validation run share (e.g. assembled maps, ``studio.model.maps.assemble_shared``),
    #: keyed by its kind and inputs: a dict only while :func:`studio.model.validate.validate_index` runs (no model
    #: changes then), else None
    run_memo: dict | None = field(default=None, repr=False, compare=False)

    def add(self, doc: LoadedDocument) -> LoadedDocument | None:
        """Index ``doc``; returns the earlier document with the same kind and id, if any."""
        self.documents.append(doc)
        if doc.kind in CORE_KINDS and doc.id:
            table = self.by_kind.setdefault(doc.kind, {})
            self._same_id.setdefault((doc.kind, doc.id), []).append(doc)
            if doc.id in table:
                return table[doc.id]
            table[doc.id] = doc
        return None

    def duplicates_of(self, doc: LoadedDocument) -> list[LoadedDocument]:
        """Other documents of the same kind with the same id."""
        if doc.kind not in CORE_KINDS or not doc.id:
            return []
        return [d for d in self._same_id.get((doc.kind, doc.id), []) if d is not doc]

    def get(self, kind: str, doc_id: str) -> LoadedDocument | None:
        return self.by_kind.get(kind, {}).get(doc_id)

    def model(self, kind: str, doc_id: str):
        doc = self.get(kind, doc_id)
        return doc.model if doc else None

    def ids(self, kind: str) -> list[str]:
        return list(self.by_kind.get(kind, {}))

    def of_kind(self, kind: str) -> Iterator[LoadedDocument]:
        return iter(self.by_kind.get(kind, {}).values())

    def kinds_of(self, doc_id: str) -> list[str]:
        return [k for k, table in self.by_kind.items() if doc_id in table]


def load_project(root: Path, display_base: Path | None = None) -> ProjectIndex:
    index = ProjectIndex(Path(root))
    paths = project_files(root)
    for doc in load_documents(paths, [display_path(p, display_base) for p in paths]):
        index.add(doc)
    return index
