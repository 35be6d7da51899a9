"""Where the bundled sample project and the schemas are."""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def default_project() -> Path:
    """``$STUDIO_PROJECT``, else ``./data`` when it holds a project, else the bundled sample project."""
    env = os.environ.get("STUDIO_PROJECT")
    if env:
        return Path(env)
    here = Path.cwd() / "data"
    if (here / "project.yaml").is_file():
        return here
    return REPO_ROOT / "data"
