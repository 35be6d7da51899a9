"""Every file of data/ (and of the fixture project): canonical round trip, $schema header, and JSON Schema
validation done directly with jsonschema, so the models and the committed schemas cannot drift apart."""
import json
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest

from studio.model import yamlio
from studio.model.project import load_document, project_files
from studio.model.save import document_text
from studio.model.schema_export import schemas_dir, stale

REPO = Path(__file__).resolve().parents[2]
FILES = project_files(REPO / "data") + project_files(REPO / "tests" / "fixtures" / "project")
IDS = [str(p.relative_to(REPO)) for p in FILES]


@lru_cache(maxsize=None)
def validator_for(schema_path: Path) -> jsonschema.Draft202012Validator:
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_schemas_are_current():
    assert stale() == [], "schemas/ is stale: run `studio schema export`"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_round_trip_is_byte_identical(path):
    doc = load_document(path)
    assert doc.model is not None, [d.format_text() for d in doc.diagnostics]
    assert document_text(doc.model, path) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_file_validates_with_jsonschema_directly(path):
    text = path.read_text(encoding="utf-8")
    ref = yamlio.schema_header(text)
    assert ref, "every data file starts with a '# yaml-language-server: $schema=' line"
    schema_path = (path.parent / ref).resolve()
    assert schema_path.is_file(), f"$schema points to a missing file: {ref}"
    assert schema_path.is_relative_to(schemas_dir())
    errors = sorted(validator_for(schema_path).iter_errors(yamlio.parse(text)), key=str)
    assert not errors, errors[0].message


def test_jsonschema_rejects_what_the_models_reject():
    """The invalid fixtures that fail at the schema stage fail jsonschema too (same verdict, two engines)."""
    invalid = REPO / "tests" / "fixtures" / "invalid" / "core"
    checked = 0
    for name in ("wrong-type.yaml", "missing-field.yaml", "unknown-field.yaml", "enum.yaml", "octal-label.yaml"):
        data = yamlio.parse((invalid / name).read_text(encoding="utf-8"))
        schema = schemas_dir() / f"{data['kind']}.schema.json"
        assert list(validator_for(schema).iter_errors(data)), name
        assert load_document(invalid / name).model is None
        checked += 1
    assert checked == 5
