"""Base classes and shared field types of every studio document."""
from __future__ import annotations

import enum
import weakref
from types import UnionType
from typing import Annotated, Any, Iterator, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator

SCHEMA_VERSION = 1

#: A stable identifier: lower-case letters, digits, ``.``, ``_`` and ``-``; it never changes once published.
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$", description="stable identifier")]
#: A reference to another object's id. The reference check resolves it.
Ref = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$", description="id of another object")]


class RefTo:
    """Declares what a reference field points to: ``Annotated[Ref, RefTo("unit")]`` is the id of a unit card.

    The core finds every declared reference of any model, however deeply nested (plugin blocks included), with
    :func:`declared_references`; validation, rename and delete use them.
    """

    __slots__ = ("kind",)

    def __init__(self, kind: str):
        self.kind = kind

    def __repr__(self) -> str:
        return f"RefTo({self.kind!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RefTo) and other.kind == self.kind

    def __hash__(self) -> int:
        return hash(("RefTo", self.kind))


def ref_to(kind: str) -> Any:
    """The annotated type of a reference to a document of ``kind`` (e.g. ``unit: ref_to("unit")``)."""
    return Annotated[Ref, RefTo(kind)]


#: A rule reference such as ``MBT 4.4.3.2`` or ``WaW 6.1``.
RuleRef = Annotated[str, Field(max_length=120, description="rule reference: system abbreviation and rule number, e.g. 'XYZ 4.4.3.2'")]
#: A table cell: number, text, boolean or null (an empty cell).
Cell = int | float | str | bool | None


class _Refused:
    """Stands in for a boolean given to an integer choice, so the choice's own error reports it at its field."""

    __slots__ = ("value",)

    def __init__(self, value: bool):
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)


def _int_choices(annotation: Any) -> bool:
    """Whether ``annotation`` is (an optional, annotated) Literal of integers only."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (Union, UnionType):
        return any(_int_choices(a) for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
        return bool(values) and all(type(v) is int for v in values)
    return False


_BOOL_GUARDED: dict[type, tuple[str, ...]] = {}


class StrictModel(BaseModel):
    """Unknown fields are errors; assignment is validated (so the GUI cannot store a wrong type).

    As strict as the exported JSON Schemas: no type coercion (``'5'`` or ``true`` is not an integer, ``5`` is not
    text; an integer is a number), and no NaN or infinity in any float field.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True, populate_by_name=True,
                              use_enum_values=True, strict=True, allow_inf_nan=False)

    @classmethod
    def _int_choice_fields(cls) -> tuple[str, ...]:
        names = _BOOL_GUARDED.get(cls)
        if names is None:
            names = _BOOL_GUARDED[cls] = tuple(  # attribute names and file (alias) names
                {n for name, info in cls.model_fields.items() if _int_choices(info.annotation)
                 for n in (name, info.alias or name)})
        return names

    @model_validator(mode="before")
    @classmethod
    def _no_bool_for_int_choices(cls, data: Any) -> Any:
        """pydantic takes ``true`` for ``Literal[1, ...]`` even when strict (True == 1); the schema does not."""
        names = cls._int_choice_fields()
        if names and isinstance(data, dict) and any(isinstance(data.get(n), bool) for n in names):
            data = {k: _Refused(v) if k in names and isinstance(v, bool) else v for k, v in data.items()}
        return data

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, bool) and name in self._int_choice_fields():
            value = _Refused(value)  # refused by the field's own validation, like a file's value
        super().__setattr__(name, value)


class Document(StrictModel):
    """Envelope of every file: ``kind``, ``schema_version`` and a stable ``id``."""

    kind: str
    schema_version: Annotated[int, Field(ge=1, le=SCHEMA_VERSION)] = SCHEMA_VERSION
    id: Id

    def references(self) -> list[tuple[str, str, str]]:
        """Cross-file references as ``(json_pointer, target_kind, target_id)``; kinds override."""
        return []


def dump_document(doc: BaseModel) -> dict[str, Any]:
    """Plain data of a document in canonical (model) order, keeping exactly the fields the file set."""
    data = doc.model_dump(mode="json", exclude_unset=True, by_alias=True)
    if isinstance(doc, Document):  # the envelope is always written, even when it was defaulted
        data = {"kind": doc.kind, "schema_version": doc.schema_version,
                **{k: v for k, v in data.items() if k not in ("kind", "schema_version")}}
    return data


def _ref_kind(metadata: list) -> str | None:
    return next((m.kind for m in metadata if isinstance(m, RefTo)), None)


def _annotation_ref_kind(annotation: Any) -> str | None:
    """The RefTo kind of an annotation that is a reference or a list/optional of references (else None)."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            args = get_args(annotation)
            kind = _ref_kind(list(args[1:]))
            if kind is not None:
                return kind
            annotation = args[0]
        elif origin in (Union, UnionType, list, tuple, set, frozenset):
            kinds = {k for a in get_args(annotation) if a is not type(None) and a is not Ellipsis
                     for k in [_annotation_ref_kind(a)] if k is not None}
            return kinds.pop() if len(kinds) == 1 else None
        else:
            return None


def _scalar_refs(value: Any, pointer: str, kind: str) -> Iterator[tuple[str, str, str]]:
    if isinstance(value, str):
        yield pointer, kind, value
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _scalar_refs(item, f"{pointer}/{i}", kind)


def declared_references(model: Any, pointer: str = "") -> Iterator[tuple[str, str, str]]:
    """Every ``RefTo``-annotated reference in ``model`` and its nested models, lists and mappings, as
    ``(json_pointer, target_kind, target_id)``; pointers use the file's field names (aliases) below ``pointer``.
    Fields whose type can hold neither a reference nor a model (numbers, text, lists of them) are not walked
    (``_reference_plan``)."""
    if isinstance(model, BaseModel):
        fields_set = model.model_fields_set
        for name, key, kind, walk in _reference_plan(type(model)):
            if name not in fields_set:  # only what the file holds
                continue
            value = getattr(model, name, None)
            if value is None:
                continue
            if kind is not None:
                yield from _scalar_refs(value, f"{pointer}/{key}", kind)
            elif walk:
                yield from declared_references(value, f"{pointer}/{key}")
    elif isinstance(model, (list, tuple)):
        for i, item in enumerate(model):
            if not isinstance(item, _LEAVES):
                yield from declared_references(item, f"{pointer}/{i}")
    elif isinstance(model, dict):
        for key, item in model.items():
            if not isinstance(item, _LEAVES):
                yield from declared_references(item, f"{pointer}/{_escape(str(key))}")


#: values that hold no reference of their own (only an annotated field's value is a reference)
_LEAVES = (str, int, float, bool, bytes)
_PLANS: "weakref.WeakKeyDictionary[type, tuple]" = weakref.WeakKeyDictionary()


def _reference_plan(cls: type) -> tuple[tuple[str, str, str | None, bool], ...]:
    """``(field name, escaped file name, RefTo kind or None, walk)`` of each field of a model class, in field
    order, computed once per class: ``walk`` is False when the field's type can hold no model or reference."""
    plan = _PLANS.get(cls)
    if plan is None:
        out = []
        for name, info in cls.model_fields.items():
            kind = _ref_kind(info.metadata) or _annotation_ref_kind(info.annotation)
            out.append((name, _escape(info.alias or name), kind, kind is None and _may_hold_models(info.annotation)))
        plan = _PLANS[cls] = tuple(out)
    return plan


_PLAIN_TYPES = (str, int, float, bool, bytes, type(None))


def _may_hold_models(annotation: Any) -> bool:
    """Whether a value of ``annotation`` can contain a model (so a declared reference): False for numbers, text,
    literals, enums and containers of them; True for models, ``Any`` and anything not known to be plain."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _may_hold_models(get_args(annotation)[0])
    if origin is Literal:
        return False
    if origin in (Union, UnionType, list, tuple, set, frozenset, dict):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        return not args or any(_may_hold_models(a) for a in args)
    if origin is None and isinstance(annotation, type):
        return not (issubclass(annotation, _PLAIN_TYPES) or issubclass(annotation, enum.Enum))
    return True


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")
