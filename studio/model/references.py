"""Reference checks: dangling ids (with a did-you-mean), duplicate ids, wrong kinds, cross-ruleset use."""
from __future__ import annotations

import difflib
from typing import Iterator

from pydantic import BaseModel, ValidationError

from .base import declared_references
from .diagnostics import Diagnostic
from .project import LoadedDocument, ProjectIndex

#: kinds whose documents belong to one rule system; referring to one from another system is an error
RULESET_BOUND = {"unit", "toe"}


def suggest(name: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def _plugin_blocks(model: BaseModel) -> Iterator[tuple[str, type[BaseModel], object]]:
    """``(pointer, plugin model, data)`` of the blocks a ruleset plugin validates: a scenario's ``extension``
    and a unit card's ``body``."""
    from .registry import plugin
    ruleset = getattr(model, "ruleset", None)
    found = plugin(ruleset) if isinstance(ruleset, str) else None
    if found is None:
        return
    extension = getattr(model, "extension", None)
    if isinstance(extension, dict) and extension and found.scenario_extension is not None:
        yield "/extension", found.scenario_extension, extension
    body = getattr(model, "body", None)
    category = getattr(model, "category", None)
    body_model = found.card_body_model(category) if isinstance(category, str) else None
    if isinstance(body, dict) and body_model is not None:
        yield "/body", body_model, body


def document_references(model: BaseModel | None) -> list[tuple[str, str, str]]:
    """Every cross-file reference of a document as ``(json_pointer, target_kind, target_id)``: the kind's own
    ``references()``, every ``RefTo``-declared field, and the declared references inside its plugin blocks
    (a block that does not validate contributes none; its own errors report it)."""
    if model is None:
        return []
    refs = list(model.references()) if hasattr(model, "references") else []
    refs += declared_references(model)
    for pointer, block_model, data in _plugin_blocks(model):
        try:
            block = block_model.model_validate(data)
        except (ValidationError, ValueError, TypeError):
            continue
        refs += declared_references(block, pointer)
    seen, out = set(), []
    for ref in refs:
        if ref[0] not in seen:
            seen.add(ref[0])
            out.append(ref)
    return out


def check_references(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    for pointer, kind, target in document_references(doc.model):
        found = index.get(kind, target)
        if found is None:
            other = index.kinds_of(target)
            if other:
                yield doc.error("ref.wrong-kind", f"'{target}' is a {other[0]}, but a {kind} is expected here",
                                pointer)
            else:
                yield doc.error("ref.dangling", f"no {kind} with id '{target}'{suggest(target, index.ids(kind))}",
                                pointer)
            continue
        if kind in RULESET_BOUND and doc.ruleset and found.ruleset and found.ruleset != doc.ruleset:
            yield doc.error("ref.ruleset-mismatch",
                            f"{kind} '{target}' belongs to rule system '{found.ruleset}', "
                            f"but this {doc.kind} is for '{doc.ruleset}'", pointer)


def check_local_duplicates(doc: LoadedDocument) -> Iterator[Diagnostic]:
    """Objects in the same list must have distinct ids (computed at load time, see ``local_duplicates``)."""
    for pointer, message in doc.local_duplicates:
        yield doc.error("ref.duplicate-id", message, pointer)


def check_duplicate_document(doc: LoadedDocument, other: LoadedDocument) -> Diagnostic:
    line, _ = other.source_map.position("/id")
    return doc.error("ref.duplicate-id", f"{doc.kind} id '{doc.id}' is also used by {other.display}:{line}", "/id")
