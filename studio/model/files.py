"""Where a project's files are: the project folder of a path, its YAML files, display paths, the default project.

Light on purpose (the standard library and :mod:`studio.model.safeio` only, no pydantic): the CLI finds its
files and the validation result cache (``studio.cli.validate_cache``) keys them before any model is imported.
:mod:`studio.model.project` re-exports every name.
"""
from __future__ import annotations

import os
from pathlib import Path

from . import safeio

YAML_SUFFIXES = (".yaml", ".yml")
PROJECT_FILE = "project.yaml"


def display_path(path: Path, base: Path | None = None) -> str:
    """``path`` relative to ``base`` (default: the working folder), or as given when it has no relative form."""
    try:
        return os.path.relpath(path, base or os.getcwd())
    except ValueError:
        return str(path)


def default_project() -> Path:
    """``$STUDIO_PROJECT``, else ``./data`` when it holds a project, else the bundled sample project."""
    env = os.environ.get("STUDIO_PROJECT")
    if env:
        return Path(env)
    here = Path.cwd() / "data"
    if (here / PROJECT_FILE).is_file():
        return here
    return Path(__file__).resolve().parents[2] / "data"


def find_project_root(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` that holds ``project.yaml``."""
    path = Path(path).resolve()
    for candidate in [path, *path.parents] if path.is_dir() else list(path.parents):
        if (candidate / PROJECT_FILE).is_file():
            return candidate
    return None


def write_root(path: Path) -> Path | None:
    """The project folder that holds ``path``, found without resolving symlinks (the nearest folder at or above
    ``os.path.abspath(path)`` with ``project.yaml``): the ``root`` to give :func:`studio.model.safeio.write_atomic`
    so that the path-text check compares like with like."""
    current = os.path.abspath(path)
    if not os.path.isdir(current):
        current = os.path.dirname(current)
    while True:
        if os.path.isfile(os.path.join(current, PROJECT_FILE)):
            return Path(current)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def project_files(root: Path, clean: bool = True) -> list[Path]:
    """All YAML files of a project folder, sorted, skipping hidden folders.

    Listing a project is how every command and the window open it, so with ``clean`` the walk also removes the
    studio's own stale temp files (left by a killed writer; see :func:`studio.model.safeio.remove_stale`).
    """
    found: list[tuple[tuple[str, ...], str, Path]] = []
    base = os.fspath(root)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if clean:
            safeio.remove_stale(dirpath, [f for f in filenames if f.startswith(".") or f.endswith(".tmp")])
        parts = tuple(os.path.relpath(dirpath, base).split(os.sep))
        folder = Path(base, *[p for p in parts if p != "."])  # one Path a folder; its files joined to it
        found.extend((parts, f, folder) for f in filenames if f.endswith(YAML_SUFFIXES) and not f.startswith("."))
    found.sort(key=lambda x: x[:2])  # the order of Path sorting: by folder components, then name
    return [folder / name for _, name, folder in found]
