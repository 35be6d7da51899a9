"""Test configuration. Qt must run offscreen, and that must be set before PySide6 is imported."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_QUICK_BACKEND", "software")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def sample_index():
    """The sample project, loaded and validated once per session."""
    from studio.model.project import load_project
    from studio.model.validate import validate_index

    index = load_project(DATA)
    return validate_index(index)
