"""Base classes and shared field types of every studio document."""
from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator

SCHEMA_VERSION = 1

#: A stable identifier: lower-case letters, digits, ``.``, ``_`` and ``-``; it never changes once published.
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$", description="stable identifier")]
#: A reference to another object's id. The reference check resolves it.
Ref = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$", description="id of another object")]
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
