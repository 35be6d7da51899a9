"""Reference checks: dangling ids (with a did-you-mean), duplicate ids, wrong kinds, cross-ruleset use."""
from __future__ import annotations

import difflib
from typing import Iterator

from .diagnostics import Diagnostic
from .project import LoadedDocument, ProjectIndex

#: kinds whose documents belong to one rule system; referring to one from another system is an error
RULESET_BOUND = {"unit", "toe"}


def suggest(name: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def check_references(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    for pointer, kind, target in doc.model.references():
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
