"""Text <-> value conversion for form fields and table cells, following a schema ``FieldSpec``.

``parse(spec, text)`` returns the value to store, ``DELETE`` for an empty optional field, or raises ValueError with
a message for the user (e.g. "expected a whole number", "must be at most 6"). ``show(value)`` is the text shown.
"""
from __future__ import annotations

from typing import Any

from studio.model import yamlio

from .ops import DELETE
from .schema import FieldSpec


def show(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(value)
    if isinstance(value, (list, dict)):
        return yamlio.dump(value).strip() if value else ("[]" if isinstance(value, list) else "{}")
    return str(value)


def _range(spec: FieldSpec, value: float) -> None:
    if spec.minimum is not None and value < spec.minimum:
        raise ValueError(f"must be at least {spec.minimum:g}")
    if spec.maximum is not None and value > spec.maximum:
        raise ValueError(f"must be at most {spec.maximum:g}")


def parse(spec: FieldSpec, text: str, required: bool = False) -> Any:
    text = text.strip()
    if text == "":
        if spec.kind == "string" and required:
            return ""
        if spec.nullable:
            return None if required else DELETE
        if not required:
            return DELETE
        raise ValueError("a value is required")
    if spec.kind == "integer":
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"expected a whole number, got '{text}'") from None
        _range(spec, value)
        return value
    if spec.kind == "number":
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"expected a number, got '{text}'") from None
        _range(spec, value)
        return value
    if spec.kind == "boolean":
        if text.lower() in ("true", "yes", "1", "y"):
            return True
        if text.lower() in ("false", "no", "0", "n"):
            return False
        raise ValueError("expected true or false")
    if spec.kind == "enum":
        for choice in spec.enum:
            if show(choice) == text:
                return choice
        raise ValueError(f"must be one of {', '.join(show(c) for c in spec.enum)}")
    if spec.kind == "string":
        return text
    try:  # arrays, maps, unions: YAML flow text
        return yamlio.parse(text)
    except yamlio.YamlProblem as problem:
        raise ValueError(problem.message) from None


def hint(spec: FieldSpec) -> str:
    """Placeholder text: the range or the default."""
    parts = []
    if spec.minimum is not None and spec.maximum is not None:
        parts.append(f"{spec.minimum:g}..{spec.maximum:g}")
    elif spec.minimum is not None:
        parts.append(f"at least {spec.minimum:g}")
    elif spec.maximum is not None:
        parts.append(f"at most {spec.maximum:g}")
    if spec.has_default and spec.default not in (None, "", [], {}):
        parts.append(f"default {show(spec.default)}")
    return ", ".join(parts)
