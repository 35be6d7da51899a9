"""studio.hexgrid is pure: stdlib + numpy only, no Qt/pydantic/yaml, no other studio package."""

import ast
import pathlib

import studio.hexgrid

PKG = pathlib.Path(studio.hexgrid.__file__).parent
ALLOWED = {"__future__", "dataclasses", "enum", "fractions", "functools", "heapq", "math", "re", "typing", "numpy"}


def test_hexgrid_imports_only_stdlib_numpy_and_itself():
    for path in PKG.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert name.startswith("studio.hexgrid") or top in ALLOWED, f"{path.name} imports {name}"
