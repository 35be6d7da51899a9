"""Fixtures of the document-layer tests: a private copy of the sample project (data/ is never modified)."""
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    return root
