"""Saving documents canonically: model order, only the fields the document sets, ``$schema`` header first."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from . import safeio, yamlio
from .base import dump_document
from .schema_export import schema_for_data, schemas_dir


def schema_ref(data: dict, path: Path) -> str:
    """Relative path from ``path``'s folder to the schema that validates ``data``."""
    target = schemas_dir() / schema_for_data(data)
    return Path(os.path.relpath(target, Path(path).resolve().parent)).as_posix()


def document_text(doc: BaseModel | dict[str, Any], path: Path, current_text: str | None = None) -> str:
    """Canonical text of a document: a valid model in model order, or raw data (invalid docs) as given.

    The ``$schema`` header is computed from ``path``; an existing header (from ``current_text``, else the file
    on disk) that names the same schema file is kept, so moving a project folder does not rewrite every file.
    """
    data = dump_document(doc) if isinstance(doc, BaseModel) else doc
    ref = schema_ref(data, path) if isinstance(data, dict) and "kind" in data else None
    if ref is not None:
        if current_text is None:
            current_text = _current_text(Path(path))
        existing = yamlio.schema_header(current_text or "")
        wanted = "schemas/" + schema_for_data(data)
        if existing and existing.endswith(wanted):
            ref = existing
    return yamlio.dump(data, ref)


def _current_text(path: Path) -> str:
    """The text on disk at ``path`` (only its header line matters), or "" when there is no readable regular file."""
    try:
        return safeio.read_regular(path).decode("utf-8", errors="replace")
    except OSError:
        return ""


def save_document(doc: BaseModel | dict[str, Any], path: Path, root: Path | None = None) -> Path:
    """Write the canonical text of ``doc`` to ``path`` atomically, never through a symlink and, with ``root``
    (the project folder), never outside it (:func:`studio.model.safeio.write_atomic`)."""
    return yamlio.atomic_write(Path(path), document_text(doc, path), root=root)
