"""Fixtures of the fuzz tests. The folder is put on ``sys.path`` so that the tests import the harness modules
(``harness``, ``corpus``, ``mutators``, ``generated``) by name."""
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import harness  # noqa: E402


@pytest.fixture(scope="module")
def workspace() -> "harness.Workspace":
    """A private copy of the sample project (with the Tiled and replay bases), restored after every case. It
    lives in its own temp folder: other pytest sessions prune old numbered ``pytest-of-*`` folders."""
    private = Path(tempfile.mkdtemp(prefix="studio-fuzz-"))
    yield harness.Workspace(private / "ws" / "base")
    shutil.rmtree(private, ignore_errors=True)


@pytest.fixture(scope="module")
def runner(workspace, tmp_path_factory) -> "harness.Runner":
    return harness.Runner(workspace, tmp_path_factory.mktemp("fuzz-findings"))
