"""Reference checks: dangling ids (with a did-you-mean), duplicate ids, wrong kinds, cross-ruleset use."""
from __future__ import annotations

import difflib
import re
from typing import Iterator

from pydantic import BaseModel, ValidationError

from .base import declared_references
from .diagnostics import Diagnostic
from .kinds import CORE_KINDS
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
                yield doc.error("ref.dangling", dangling_message(index, kind, target), pointer)
            continue
        if kind in RULESET_BOUND and doc.ruleset and found.ruleset and found.ruleset != doc.ruleset:
            yield doc.error("ref.ruleset-mismatch",
                            f"{kind} '{target}' belongs to rule system '{found.ruleset}', "
                            f"but this {doc.kind} is for '{doc.ruleset}'", pointer)


def dangling_message(index: ProjectIndex, kind: str, target: str) -> str:
    """Why no ``kind`` ``target`` is found: a file that would be it but does not load (named, to be fixed first),
    else the closest id of that kind."""
    broken = unloaded_documents(index).get((kind, target)) or unloaded_documents(index).get((None, target))
    if broken is not None:
        return f"{kind} '{target}' is {broken.display}, which does not load: fix that file first"
    return f"no {kind} with id '{target}'{suggest(target, index.ids(kind))}"


#: a top-level ``kind:`` / ``id:`` line of a YAML text, its value plain or quoted (comments allowed after it)
_TOP_KEY = re.compile(r"""^(kind|id):[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|([^\s#'"][^\s#]*))[ \t]*(?:#.*)?$""",
                      re.MULTILINE)


def claimed_identity(doc: LoadedDocument) -> tuple[str | None, str | None]:
    """``(kind, id)`` a document that is not indexed claims: from its data when it parsed, else from the
    top-level lines of its raw text, the id falling back to the file's name; a kind that is not one of
    :data:`CORE_KINDS` is None (it could be meant for any)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    found = {"kind": data.get("kind"), "id": data.get("id")}
    if doc.data is None:  # it did not parse: its first top-level lines say
        for match in _TOP_KEY.finditer(doc.text or ""):
            key = match.group(1)
            if found[key] is None:
                found[key] = next(g for g in match.groups()[1:] if g is not None)
    kind = found["kind"] if isinstance(found["kind"], str) and found["kind"] in CORE_KINDS else None
    ident = found["id"]
    if isinstance(ident, int) and not isinstance(ident, bool):
        ident = str(ident)  # an unquoted number
    return kind, ident if isinstance(ident, str) and ident else doc.path.stem


def unloaded_documents(index: ProjectIndex) -> dict[tuple[str | None, str], LoadedDocument]:
    """The documents of ``index`` that are not indexed by kind and id (they do not parse, or lack a valid kind
    or id), by the ``(kind, id)`` they claim (:func:`claimed_identity`); the first file wins. Computed once per
    index and list of documents (cached on the index)."""
    cached = index.unloaded_cache
    if cached is not None and cached[0] == len(index.documents):
        return cached[1]
    table: dict[tuple[str | None, str], LoadedDocument] = {}
    for doc in index.documents:
        if doc.model is None and not (doc.kind in CORE_KINDS and doc.id):
            table.setdefault(claimed_identity(doc), doc)
    index.unloaded_cache = (len(index.documents), table)
    return table


def check_local_duplicates(doc: LoadedDocument) -> Iterator[Diagnostic]:
    """Objects in the same list must have distinct ids (computed at load time, see ``local_duplicates``)."""
    for pointer, message in doc.local_duplicates:
        yield doc.error("ref.duplicate-id", message, pointer)


def check_duplicate_document(doc: LoadedDocument, other: LoadedDocument) -> Diagnostic:
    line, _ = other.source_map.position("/id")
    return doc.error("ref.duplicate-id", f"{doc.kind} id '{doc.id}' is also used by {other.display}:{line}", "/id")
