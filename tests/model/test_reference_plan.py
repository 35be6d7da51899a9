"""``declared_references`` walks only the fields that can hold a reference (issue 19: the reference walk was 40% of
check time): the same references, in the same order, as the plain walk over every field, for every document of
the sample project and of the test fixtures, plugin blocks included."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from pydantic import BaseModel

from studio.model import base, references
from studio.model.base import _annotation_ref_kind, _escape, _ref_kind, _scalar_refs, ref_to
from studio.model.project import load_project
from studio.model.registry import load_plugins

ROOT = Path(__file__).resolve().parents[2]
PROJECTS = [ROOT / "data", ROOT / "tests" / "fixtures" / "project"]


def plain_walk(model: Any, pointer: str = "") -> Iterator[tuple[str, str, str]]:
    """The reference walk without a plan: every field of every model, every item of every list and mapping."""
    if isinstance(model, BaseModel):
        for name, info in type(model).model_fields.items():
            value = getattr(model, name, None)
            if value is None or name not in model.model_fields_set:
                continue
            child = f"{pointer}/{_escape(info.alias or name)}"
            kind = _ref_kind(info.metadata) or _annotation_ref_kind(info.annotation)
            if kind is not None:
                yield from _scalar_refs(value, child, kind)
            else:
                yield from plain_walk(value, child)
    elif isinstance(model, (list, tuple)):
        for i, item in enumerate(model):
            yield from plain_walk(item, f"{pointer}/{i}")
    elif isinstance(model, dict):
        for key, item in model.items():
            yield from plain_walk(item, f"{pointer}/{_escape(str(key))}")


@pytest.mark.parametrize("root", PROJECTS, ids=[p.name for p in PROJECTS])
def test_planned_walk_finds_what_the_plain_walk_finds(root, monkeypatch):
    load_plugins()
    index = load_project(root)
    models = [d.model for d in index.documents if d.model is not None]
    assert len(models) > 5
    planned = [references.document_references(m) for m in models]
    monkeypatch.setattr(references, "declared_references", plain_walk)
    plain = [references.document_references(m) for m in models]
    assert planned == plain
    assert sum(map(len, planned)) > 10


class Leaf(BaseModel):
    unit: ref_to("unit")
    ranges: list[int] = []


class Holder(BaseModel):
    name: str = ""
    numbers: dict[str, list[float]] = {}
    leaves: list[Leaf] = []
    anything: Any = None
    by_key: dict[str, Leaf] = {}
    toes: list[ref_to("toe")] = []


def test_plan_walks_models_any_and_mappings_of_models_but_not_plain_fields():
    holder = Holder(name="x", numbers={"a": [1.0]}, leaves=[Leaf(unit="m1", ranges=[1, 2])],
                    anything=[{"deep": Leaf(unit="t-72")}], by_key={"k/1": Leaf(unit="bmp")}, toes=["a", "b"])
    found = list(base.declared_references(holder))
    assert found == list(plain_walk(holder)) == [
        ("/leaves/0/unit", "unit", "m1"), ("/anything/0/deep/unit", "unit", "t-72"),
        ("/by_key/k~11/unit", "unit", "bmp"), ("/toes/0", "toe", "a"), ("/toes/1", "toe", "b")]
    walk = {name: w for name, _, _, w in base._reference_plan(Holder)}
    assert walk == {"name": False, "numbers": False, "leaves": True, "anything": True, "by_key": True,
                    "toes": False}
