"""Saving documents canonically: model order, only the fields the document sets, ``$schema`` header first."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from . import yamlio
from .base import dump_document
from .schema_export import schema_for_data, schemas_dir


def schema_ref(data: dict, path: Path) -> str:
    """Relative path from ``path``'s folder to the schema that validates ``data``."""
    target = schemas_dir() / schema_for_data(data)
    return Path(os.path.relpath(target, Path(path).resolve().parent)).as_posix()


def document_text(doc: BaseModel | dict[str, Any], path: Path) -> str:
    """Canonical text of a document: a valid model in model order, or raw data (invalid docs) as given."""
    data = dump_document(doc) if isinstance(doc, BaseModel) else doc
    return yamlio.dump(data, schema_ref(data, path) if isinstance(data, dict) and "kind" in data else None)


def save_document(doc: BaseModel | dict[str, Any], path: Path) -> None:
    yamlio.atomic_write(Path(path), document_text(doc, path))
