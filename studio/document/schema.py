"""Reading JSON Schemas (as pydantic generates them) for generated forms, and skeleton values from them.

``node(schema, sub)`` resolves ``$ref``/single ``allOf`` and unwraps ``anyOf [X, null]`` into
``FieldSpec(kind, nullable, ...)``. ``kind`` is one of ``string``, ``integer``, ``number``, ``boolean``, ``enum``,
``object`` (fixed properties), ``map`` (free mapping: value schema in ``items``, the key pattern of
``patternProperties`` in ``key_pattern``), ``array`` or ``any``. ``skeleton`` builds the smallest
value a schema accepts (required properties only), for new rows and new documents.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FieldSpec:
    kind: str
    schema: dict
    nullable: bool = False
    title: str = ""
    description: str = ""
    enum: list = field(default_factory=list)
    minimum: float | None = None
    maximum: float | None = None
    properties: dict[str, dict] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)
    items: dict | None = None
    default: Any = None
    has_default: bool = False
    key_pattern: str | None = None  # the keys a ``map`` accepts (``patternProperties``), None: any


def resolve(root: dict, sub: Any) -> dict:
    """Follow ``$ref`` (``#/$defs/...``) and single-member ``allOf`` (bounded, cycle-safe)."""
    seen = 0
    while isinstance(sub, dict) and seen < 32:
        seen += 1
        if "$ref" in sub and isinstance(sub["$ref"], str) and sub["$ref"].startswith("#/"):
            target: Any = root
            for part in sub["$ref"][2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
            extra = {k: v for k, v in sub.items() if k != "$ref"}
            sub = {**target, **extra}
            continue
        if isinstance(sub.get("allOf"), list) and len(sub["allOf"]) == 1:
            extra = {k: v for k, v in sub.items() if k != "allOf"}
            sub = {**sub["allOf"][0], **extra}
            continue
        break
    return sub if isinstance(sub, dict) else {}


def node(root: dict, sub: Any) -> FieldSpec:
    sub = resolve(root, sub)
    nullable = False
    meta = {k: sub.get(k) for k in ("title", "description", "default") if k in sub}
    if isinstance(sub.get("anyOf"), list):
        options = [resolve(root, o) for o in sub["anyOf"]]
        non_null = [o for o in options if o.get("type") != "null"]
        nullable = len(non_null) < len(options)
        if len(non_null) == 1:
            sub = {**non_null[0], **{k: v for k, v in sub.items() if k != "anyOf"}}
        else:
            spec = FieldSpec("any", sub, nullable)
            _meta(spec, meta)
            return spec
    kind = _kind(sub)
    spec = FieldSpec(kind, sub, nullable or sub.get("type") == "null")
    _meta(spec, {**meta, **{k: sub[k] for k in ("title", "description", "default") if k in sub}})
    spec.enum = list(sub.get("enum", [])) if kind == "enum" else []
    spec.minimum = sub.get("minimum", sub.get("exclusiveMinimum"))
    spec.maximum = sub.get("maximum", sub.get("exclusiveMaximum"))
    if kind == "object":
        spec.properties = dict(sub.get("properties", {}))
        spec.required = list(sub.get("required", []))
    if kind == "array":
        spec.items = sub.get("items") if isinstance(sub.get("items"), dict) else {}
    if kind == "map":
        spec.items = sub.get("additionalProperties") if isinstance(sub.get("additionalProperties"), dict) else {}
        patterns = sub.get("patternProperties")
        if not spec.items and isinstance(patterns, dict) and len(patterns) == 1:  # keys with a pattern (ids)
            spec.key_pattern, spec.items = next(iter(patterns.items()))
    return spec


def _meta(spec: FieldSpec, meta: dict) -> None:
    spec.title = str(meta.get("title") or "")
    spec.description = str(meta.get("description") or "")
    if "default" in meta:
        spec.default, spec.has_default = meta["default"], True


def _kind(sub: dict) -> str:
    if "enum" in sub or "const" in sub:
        if "const" in sub and "enum" not in sub:
            sub["enum"] = [sub["const"]]
        return "enum"
    t = sub.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    if t == "object":
        return "object" if "properties" in sub else "map"
    if t in ("string", "integer", "number", "boolean", "array"):
        return t
    return "any"


def skeleton(root: dict, sub: Any, depth: int = 0) -> Any:
    """Smallest plausible value for ``sub``: defaults where given, required properties filled."""
    spec = node(root, sub)
    if spec.has_default:
        return spec.default
    if spec.nullable or depth > 12:
        return None
    if spec.kind == "object":
        return {name: skeleton(root, spec.properties[name], depth + 1) for name in spec.required
                if name in spec.properties}
    if spec.kind == "enum":
        return spec.enum[0] if spec.enum else None
    if spec.kind == "integer":
        return int(spec.minimum) if spec.minimum is not None and spec.minimum > 0 else 0
    if spec.kind == "number":
        return float(spec.minimum) if spec.minimum is not None and spec.minimum > 0 else 0.0
    if spec.kind == "boolean":
        return False
    if spec.kind == "string":
        return ""
    if spec.kind == "array":
        return []
    if spec.kind == "map":
        return {}
    return None
