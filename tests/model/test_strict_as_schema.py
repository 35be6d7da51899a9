"""The models are as strict as the exported JSON Schemas (issue 18 item 9): a value the schema refuses is refused by
the studio, and a document the studio accepts is valid for an editor using the schema.

Each case takes a sample-project document, replaces one leaf value with a value of another type, and validates the
result with the model and with the committed schema. The only way the two may differ: the model refuses what the
schema allows because of a cross-field rule no schema expresses (a ``value_error`` from a model validator), or
because a YAML float with no fraction (``5.0``) is not an integer for the studio.
"""
from __future__ import annotations

import copy
import json
import random

import jsonschema
import pytest
from pydantic import ValidationError

from studio.model.kinds import model_for
from studio.model.registry import load_plugins
from studio.model.schema_export import schema_for_data, schemas_dir

MUTANTS = ["5", True, 5, 5.5, "0101", None, "", [], {}]
CASES = 600


def _leaves(node, pointer=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, pointer + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, pointer + (i,))
    else:
        yield pointer


def _with(data, pointer, value):
    """A copy of ``data`` with the leaf at ``pointer`` replaced (only the containers on the path are copied)."""
    if not pointer:
        return value
    copied = copy.copy(data)
    copied[pointer[0]] = _with(data[pointer[0]], pointer[1:], value)
    return copied


@pytest.fixture(scope="module")
def documents(sample_index):
    load_plugins()
    docs = [d.data for d in sample_index.index.documents if d.model is not None]
    validators = {}
    for data in docs:
        name = schema_for_data(data)
        if name not in validators:
            schema = json.loads((schemas_dir() / name).read_text(encoding="utf-8"))
            validators[name] = jsonschema.Draft202012Validator(schema)
    return docs, validators


def _model_errors(data) -> list[dict] | None:
    try:
        model_for(data).model_validate(data)
    except ValidationError as exc:
        return exc.errors(include_url=False)
    return None


def test_sample_documents_are_valid_for_their_schemas(documents):
    docs, validators = documents
    for data in docs:
        errors = list(validators[schema_for_data(data)].iter_errors(data))
        assert not errors, (data.get("id"), [e.message for e in errors[:3]])


def test_mutated_leaves_agree_with_the_schemas(documents):
    _agree(documents, CASES, 18)


@pytest.mark.fuzz
def test_many_mutated_leaves_agree_with_the_schemas(documents):
    _agree(documents, 20 * CASES, 1018)


def _agree(documents, cases: int, seed: int) -> None:
    docs, validators = documents
    rng = random.Random(seed)
    # a document first, then one of its leaves: the two big rulesets would otherwise get most cases (and time)
    leaves = {id(data): [p for p in _leaves(data) if p and p[0] != "kind"] for data in docs}
    disagreements, refused = [], 0
    for _ in range(cases):
        data = rng.choice(docs)
        pointer = rng.choice(leaves[id(data)])
        value = rng.choice(MUTANTS)
        mutant = _with(data, pointer, value)
        schema_ok = validators[schema_for_data(data)].is_valid(mutant)
        errors = _model_errors(mutant)
        refused += errors is not None
        if schema_ok and errors is not None:
            if all(e["type"] in ("value_error", "assertion_error") for e in errors):
                continue  # a cross-field rule of the model
            disagreements.append(("studio refuses, schema allows", data["id"], pointer, value, errors[0]["type"]))
        elif not schema_ok and errors is None:
            disagreements.append(("studio accepts, schema refuses", data["id"], pointer, value))
    assert refused > cases // 4  # the mutations do bite
    assert not disagreements, disagreements[:10]


def test_booleans_are_not_integer_choices_in_files_or_assignments():
    from typing import Literal

    from studio.model.base import StrictModel

    class Choice(StrictModel):
        size: Literal[1, 2, 3] | None = None
        zero: Literal[0, 1] = 0

    for data in ({"size": True}, {"zero": False}):
        with pytest.raises(ValidationError) as info:
            Choice.model_validate(data)
        assert [e["type"] for e in info.value.errors()] == ["literal_error"]
        assert info.value.errors()[0]["loc"] == tuple(data)
    choice = Choice(size=2)
    with pytest.raises(ValidationError):
        choice.size = True
    choice.size = 3
    assert choice.size == 3 and Choice(zero=1).zero == 1
