"""Layer contracts: import-linter, and the engine core naming no rule system."""
import ast
import subprocess
import sys
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORE = ["studio/rules", "studio/sim", "studio/hexgrid", "studio/model"]
KNOWN_SYSTEMS = {"mbt", "waw", "assault", "bfops", "world at war", "battlefield ops"}


def test_import_linter_contracts_are_kept():
    tool = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(tool), "--config", str(REPO / "pyproject.toml"), "--no-cache"], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "broken" in proc.stdout and " 0 broken" in proc.stdout


def code_words(source: str):
    """Identifiers and non-docstring string literals of a module, with line numbers (comments and docstrings,
    which may cite rule numbers, are not code)."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    docstrings.add(id(stmt.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.alias):
            yield node.lineno, node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module


def test_core_names_no_rule_system():
    from studio.model.registry import plugins

    names = KNOWN_SYSTEMS | {p.id for p in plugins()} | {p.name.lower() for p in plugins()}
    pattern = re.compile(r"(?<![a-z])(" + "|".join(re.escape(n) for n in sorted(names)) + r")(?![a-z])", re.I)
    hits = []
    for folder in CORE:
        for path in sorted((REPO / folder).rglob("*.py")):
            for line, word in code_words(path.read_text(encoding="utf-8")):
                if pattern.search(word):
                    hits.append(f"{path.relative_to(REPO)}:{line}: {word!r}")
    assert not hits, "\n".join(hits)


def test_the_name_check_can_fail():
    words = [w for _, w in code_words('"""Docstring naming MBT is fine."""\nx = "mbt"\n')]
    assert "mbt" in words and not any("Docstring" in w for w in words)
