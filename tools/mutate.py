#!/usr/bin/env python3
"""Mutation testing for the rule engines: mutate the code, run the tests that cover it, count what survives.

Usage (from the repository root, with the project's venv):

    python tools/mutate.py --target studio/rulesets/waw/engine --tests tests/rulesets/waw \
        [--jobs N] [--timeout S] [--max-mutants N] [--files GLOB] [--report out.json] [--survivors-only]

Contract:
- The repository is never written to. The tool copies the tracked and untracked (not ignored) files of the
  working tree into a temporary directory and runs everything there; mutated modules are served from memory
  by an import hook in a forked child, so nothing is written even in the copy's sources.
- One traced run of the tests records, per test, the lines of the target files it executes. Each mutant then
  runs only the tests covering its line(s), fastest first, and stops at the first failure (``-x``).
- A mutant whose tests fail (or fail to import) is killed; one whose tests time out is killed by timeout
  (counted as killed, reported separately); one that no test executes is "no coverage" and counts as a survivor.
  score = (killed + timeout) / (killed + timeout + survived + no coverage). Mutants listed in the equivalents
  file (``tools/mutation-equivalent.txt``: ``file:line:operator:original -> mutated  # why``) are not run and are
  left out of the score.
- Results are cached (key: mutated file's content hash, mutant id, hash of the test files); ``--survivors-only``
  also keeps killed results when only the tests changed, so adding tests re-runs just the survivors.

See tools/README.md for the operators, the limits of the coverage-based test selection and the reasons for not
using mutmut or cosmic-ray.
"""
from __future__ import annotations

import argparse
import ast
import compileall
import fnmatch
import hashlib
import importlib
import importlib.abc
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pytest

DEFAULT_MARKERS = "not bench and not fuzz and not mutation and not slow"
EQUIVALENT_FILE = "tools/mutation-equivalent.txt"
SKIP_FUNCTIONS = {"__repr__", "__str__", "__format__"}
SKIP_CALLS = {"print", "debug", "info", "warning", "warn", "error", "exception", "critical", "_log", "log"}
COPY_EXCLUDE_DIRS = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", "node_modules", ".mypy_cache"}
CACHE_VERSION = 1

# ---------------------------------------------------------------------------------------------------- mutants


@dataclass
class Mutant:
    """One source change: ``source[start:end]`` (character offsets) becomes ``replacement`` text."""

    file: str            # path relative to the repository root, with forward slashes
    line: int
    end_line: int
    col: int
    operator: str
    original: str
    mutated: str
    function: str
    edits: list = field(default_factory=list)   # [(start, end, text)], non-overlapping
    id: str = ""

    @property
    def description(self) -> str:
        return f"{_one_line(self.original)} -> {_one_line(self.mutated)}"

    def equivalent_key(self) -> str:
        return f"{self.file}:{self.line}:{self.operator}:{self.description}"


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


CMP_SWAP = {ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==",
            ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is"}
CMP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
            ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
ARITH_TEXT = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%"}
ARITH_SWAP = {ast.Add: "-", ast.Sub: "+", ast.Mult: "//", ast.FloorDiv: "*", ast.Div: "*", ast.Mod: "//"}


class _LineIndex:
    """Converts (line, col) AST positions (1-based line, UTF-8 byte column) into character offsets."""

    def __init__(self, source: str):
        self.source = source
        self.starts = [0]
        for match in re.finditer("\n", source):
            self.starts.append(match.end())
        self.lines = source.split("\n")

    def offset(self, line: int, col: int) -> int:
        text = self.lines[line - 1]
        return self.starts[line - 1] + len(text.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)


class MutantFinder(ast.NodeVisitor):
    """Walks one module and lists its mutants (see tools/README.md for the operators and what is skipped)."""

    def __init__(self, source: str, rel: str):
        self.source = source
        self.rel = rel
        self.index = _LineIndex(source)
        self.mutants: list[Mutant] = []
        self.scope: list[str] = []
        self.bound: list[set] = [set()]   # names bound so far, per function scope
        self.pragma = {i + 1 for i, text in enumerate(self.index.lines) if "pragma: no mutate" in text}

    # -- helpers
    def _text(self, start: int, end: int) -> str:
        return self.source[start:end]

    def _add(self, node, operator: str, edits, original: str | None = None, mutated: str | None = None):
        if node.lineno in self.pragma:
            return
        start, end = self.index.span(node)
        new = self.source[start:end]
        for a, b, text in sorted(edits, reverse=True):
            new = new[:a - start] + text + new[b - start:]
        original = self._text(start, end) if original is None else original
        mutated = new if mutated is None else mutated
        if _one_line(original) == _one_line(mutated):
            return
        self.mutants.append(Mutant(self.rel, node.lineno, node.end_lineno, node.col_offset, operator, original,
                                   mutated, ".".join(self.scope) or "<module>", edits=list(edits)))

    def _gap_token(self, left, right, token: str):
        """Offsets of ``token`` in the source between two sibling nodes (an operator), or None."""
        a, b = self.index.span(left)[1], self.index.span(right)[0]
        gap = self.source[a:b]
        if "#" in gap:
            return None
        pattern = r"(?<![<>=!*/a-z_])" + re.escape(token).replace(r"\ ", r"\s+") + r"(?![=*/a-z_])"
        match = re.search(pattern, gap)
        return (a + match.start(), a + match.end()) if match else None

    # -- skipped regions
    def visit_FunctionDef(self, node):
        if node.name in SKIP_FUNCTIONS:
            return
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)
        self.scope.append(node.name)
        params = {a.arg for a in node.args.args + node.args.posonlyargs + node.args.kwonlyargs}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
        self.bound.append(params)
        for stmt in _without_docstring(node.body):
            self.visit(stmt)
        self.bound.pop()
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):           # decorators and class keywords are declarations
        self.scope.append(node.name)
        for stmt in _without_docstring(node.body):
            self.visit(stmt)
        self.scope.pop()

    def visit_Module(self, node):
        for stmt in _without_docstring(node.body):
            self.visit(stmt)

    def visit_Lambda(self, node):
        self.visit(node.body)

    def visit_AnnAssign(self, node):          # the annotation is never mutated
        if node.value is not None:
            self.visit(node.value)

    def visit_Assert(self, node):             # invariants, not rules
        return

    def visit_Raise(self, node):              # error messages
        return

    def visit_JoinedStr(self, node):          # f-strings are text
        return

    def visit_If(self, node):
        test = node.test
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            return
        self.generic_visit(node)

    def visit_Call(self, node):
        name = _call_name(node.func)
        if name in SKIP_CALLS:
            return
        if name == "format" and isinstance(node.func, ast.Attribute) and _is_str(node.func.value):
            return
        if isinstance(node.func, ast.Name) and node.func.id in ("min", "max") and node.lineno not in self.pragma:
            swap = "max" if node.func.id == "min" else "min"
            start, end = self.index.span(node.func)
            self._add(node, "min-max", [(start, end, swap)])
        self.generic_visit(node)

    # -- operators
    def visit_Compare(self, node):
        previous = node.left
        for op, right in zip(node.ops, node.comparators):
            where = self._gap_token(previous, right, CMP_TEXT[type(op)])
            if where is not None:
                self._add(node, "comparison", [(where[0], where[1], CMP_SWAP[type(op)])])
            previous = right
        self.generic_visit(node)

    def visit_BinOp(self, node):
        if type(node.op) in ARITH_SWAP and not (_is_str(node.left) or _is_str(node.right)):
            where = self._gap_token(node.left, node.right, ARITH_TEXT[type(node.op)])
            if where is not None:
                self._add(node, "arithmetic", [(where[0], where[1], ARITH_SWAP[type(node.op)])])
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if type(node.op) in ARITH_SWAP:
            where = self._gap_token(node.target, node.value, ARITH_TEXT[type(node.op)] + "=")
            if where is not None:
                self._add(node, "arithmetic", [(where[0], where[1], ARITH_SWAP[type(node.op)] + "=")])
        if self.scope:
            self._add(node, "statement-deletion", [self.index.span(node) + ("pass",)])
        self.generic_visit(node)

    def visit_Assign(self, node):
        if self.scope and len(node.targets) == 1 and self._deletable(node.targets[0]):
            self._add(node, "statement-deletion", [self.index.span(node) + ("pass",)])
        for target in node.targets:
            self._bind(target)
        self.generic_visit(node)

    def _deletable(self, target) -> bool:
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            return True
        return isinstance(target, ast.Name) and target.id in self.bound[-1]

    def _bind(self, target):
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self.bound[-1].add(node.id)

    def visit_For(self, node):
        self._bind(node.target)
        self.generic_visit(node)

    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, bool):
            start, end = self.index.span(node)
            self._add(node, "boolean", [(start, end, str(not value))])
        elif isinstance(value, int):
            start, end = self.index.span(node)
            for new in dict.fromkeys((value + 1, value - 1)):
                self._add(node, "number", [(start, end, str(new))])

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            start, end = self.index.span(node)
            inner = self._text(*self.index.span(node.operand))
            self._add(node, "not-removal", [(start, end, f"({inner})")], mutated=inner)
        self.generic_visit(node)

    def visit_BoolOp(self, node):
        token, swap = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        edits = []
        for left, right in zip(node.values, node.values[1:]):
            where = self._gap_token(left, right, token)
            if where is None:
                break
            edits.append((where[0], where[1], swap))
        else:
            self._add(node, "and-or", edits)
        self.generic_visit(node)

    def visit_Return(self, node):
        value = node.value
        if value is not None and self.scope and not (isinstance(value, ast.Constant) and value.value is None):
            start, end = self.index.span(value)
            if isinstance(value, ast.Constant) and isinstance(value.value, bool):
                pass                                   # the boolean operator already flips it
            elif _is_boolean(value):
                self._add(node, "return-value", [(start, end, f"not ({self._text(start, end)})")])
            else:
                self._add(node, "return-value", [(start, end, "None")])
        self.generic_visit(node)


def _without_docstring(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def _call_name(func) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_str(node) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _is_boolean(node) -> bool:
    if isinstance(node, (ast.Compare, ast.BoolOp)):
        return True
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


def apply_mutant(source: str, mutant: Mutant) -> str:
    """The module source with the mutant's edits applied."""
    for start, end, text in sorted(mutant.edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def find_mutants(source: str, rel: str) -> list[Mutant]:
    """All mutants of one module in source order, each with an id stable while the file's content is.

    The edits keep the syntax valid by construction (operator for operator, constant for constant, ``pass`` for
    a statement); a child that still meets a SyntaxError reports the mutant as an error.
    """
    finder = MutantFinder(source, rel)
    finder.visit(ast.parse(source))
    result, seen = [], set()
    for mutant in sorted(finder.mutants, key=lambda m: (m.line, m.col, m.operator, m.mutated)):
        edits = tuple(sorted(tuple(e) for e in mutant.edits))
        if edits in seen:
            continue
        seen.add(edits)
        digest = hashlib.sha1(f"{mutant.operator}|{mutant.edits}".encode()).hexdigest()[:10]
        mutant.id = f"{mutant.line}:{mutant.col}:{mutant.operator}:{digest}"
        result.append(mutant)
    return result


# ---------------------------------------------------------------------------------------------------- snapshot


def snapshot(repo: Path, dest: Path) -> Path:
    """Copy the repository's working tree (tracked + untracked, not ignored files) into ``dest``; read-only on repo."""
    try:
        out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z", "-co", "--exclude-standard"],
                             capture_output=True, check=True).stdout
        names = [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]
    except (subprocess.CalledProcessError, FileNotFoundError):
        names = []
        for root, dirs, files in os.walk(repo):
            dirs[:] = [d for d in dirs if d not in COPY_EXCLUDE_DIRS and not d.endswith(".egg-info")]
            names.extend(os.path.relpath(os.path.join(root, f), repo) for f in files if not f.endswith(".pyc"))
    for name in names:
        src = repo / name
        if not src.is_file() or any(part in COPY_EXCLUDE_DIRS for part in Path(name).parts):
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    return dest


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tree_hash(root: Path, paths, suffixes=(".py",)) -> str:
    """One hash over the files under ``paths`` (relative to root) with the given suffixes."""
    digest = hashlib.sha256()
    for rel in paths:
        base = root / rel
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in files:
            if path.suffix in suffixes and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def conftests(root: Path, test_paths) -> list[str]:
    """conftest.py files that apply to the test paths (their directories and parents inside root)."""
    found = set()
    for rel in test_paths:
        here = (root / rel).resolve()
        while True:
            if (here / "conftest.py").is_file():
                found.add(str((here / "conftest.py").relative_to(root)))
            if here == root.resolve():
                break
            here = here.parent
    return sorted(found)


# ---------------------------------------------------------------------------------------------------- children


class _SourceLoader(importlib.abc.Loader):
    def __init__(self, source: str, path: str):
        self.source, self.path = source, path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__file__ = self.path
        exec(compile(self.source, self.path, "exec"), module.__dict__)


class _MutantImporter(importlib.abc.MetaPathFinder):
    """Serves one module's mutated source from memory (first on sys.meta_path, in the child only)."""

    def __init__(self, name: str, path: str, source: str):
        self.name, self.path, self.source = name, path, source

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        is_pkg = os.path.basename(self.path) == "__init__.py"
        spec = importlib.util.spec_from_loader(fullname, _SourceLoader(self.source, self.path), origin=self.path,
                                               is_package=is_pkg)
        spec.has_location = True
        if is_pkg:
            spec.submodule_search_locations = [os.path.dirname(self.path)]
        return spec


class _Tracer:
    """pytest plugin for the coverage run: per test, the target lines executed in setup and in call/teardown."""

    def __init__(self, targets: set[str]):
        self.targets = targets
        self.current: dict[str, set] = {}
        self.outside: dict[str, set] = {}
        self.tests: dict[str, dict] = {}
        self.broken: dict[str, str] = {}          # test files that fail to import: {nodeid: error}
        self._lines = self.outside

    def pytest_collectreport(self, report):
        if report.failed:
            self.broken[report.nodeid] = report.longreprtext[-800:]

    def trace(self, frame, event, arg):
        name = frame.f_code.co_filename
        if name not in self.targets:
            return None
        add = self._lines.setdefault(name, set()).add
        add(frame.f_lineno)

        def local(frame, event, arg, add=add):
            if event == "line":
                add(frame.f_lineno)
            return local
        return local

    def start(self):
        sys.settrace(self.trace)

    def _switch(self, lines):
        self._lines = lines
        sys.settrace(self.trace)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.tests[item.nodeid] = {"file": str(item.path), "setup": {}, "call": {}, "duration": 0.0,
                                   "passed": True}
        return None

    def _hook_phase(self, item, phase):
        self._switch(self.tests[item.nodeid][phase])

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._hook_phase(item, "setup")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_call(self, item):
        self._hook_phase(item, "call")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item):
        self._hook_phase(item, "call")

    def pytest_runtest_logreport(self, report):
        entry = self.tests.get(report.nodeid)
        if entry is None:
            return
        entry["duration"] += report.duration
        if report.failed or (report.when == "call" and report.skipped):
            entry["passed"] = False
            entry.setdefault("why", report.longreprtext[-800:] if report.failed else "skipped")
        if report.when == "teardown":
            self._switch(self.outside)


class _Selector:
    """pytest plugin for a mutant run: keep only the chosen tests, in the chosen order; note the first failure."""

    def __init__(self, order: list[str], result_path: str):
        self.order = {nodeid: i for i, nodeid in enumerate(order)}
        self.result_path = result_path
        self.failed = None

    def pytest_collection_modifyitems(self, session, config, items):
        chosen = [item for item in items if item.nodeid in self.order]
        chosen.sort(key=lambda item: self.order[item.nodeid])
        dropped = [item for item in items if item.nodeid not in self.order]
        items[:] = chosen
        config.hook.pytest_deselected(items=dropped)

    def pytest_runtest_logreport(self, report):
        if report.failed and self.failed is None:
            self.failed = report.nodeid
            with open(self.result_path, "w") as handle:
                handle.write(report.nodeid)

    def pytest_collectreport(self, report):
        if report.failed and self.failed is None:
            self.failed = f"collect:{report.nodeid}"
            with open(self.result_path, "w") as handle:
                handle.write(self.failed)


def _pytest_args(test_paths, markers: str) -> list[str]:
    args = ["-q", "-p", "no:cacheprovider", "-o", "addopts=", "--import-mode=importlib", "--no-header",
            "-W", "ignore::DeprecationWarning", "-o", "console_output_style=classic"]
    if markers:
        args += ["-m", markers]
    return args + list(test_paths)


def _quiet_child(memory_mb: int):
    """In a forked child: silence output, cap memory (a runaway mutant must not eat the shared machine)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        import resource
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[0])
        limit = pages * os.sysconf("SC_PAGE_SIZE") + memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError, ImportError):
        pass


def _fork(body, memory_mb: int, quiet: bool = True) -> int:
    pid = os.fork()
    if pid == 0:
        code = 70
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            if quiet:
                _quiet_child(memory_mb)
            code = body()
        except BaseException:   # noqa: BLE001 - the child must never return into the parent's code
            code = 71
        finally:
            os._exit(code if isinstance(code, int) else 72)
    return pid


def _wait(pid: int, timeout: float | None):
    """Wait for a child; returns (exit code or None on timeout, seconds)."""
    start = time.monotonic()
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status), time.monotonic() - start
            if timeout is not None and time.monotonic() - start > timeout:
                break
            time.sleep(0.005)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None, time.monotonic() - start


# ---------------------------------------------------------------------------------------------------- the run


@dataclass
class Settings:
    repo: Path
    target: str
    tests: list[str]
    jobs: int = 1
    timeout: float | None = None
    max_mutants: int | None = None
    files: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    report: str | None = None
    survivors_only: bool = False
    all_tests: bool = False
    markers: str = DEFAULT_MARKERS
    cache: str | None = None
    equivalent: str | None = None
    memory_mb: int = 2048
    keep_workdir: bool = False
    list_only: bool = False
    verbose: bool = False


def module_name(rel: str) -> str:
    parts = list(Path(rel).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def target_files(root: Path, target: str, globs) -> list[str]:
    base = root / target
    files = [base] if base.is_file() else sorted(base.rglob("*.py"))
    rels = [str(p.relative_to(root)).replace(os.sep, "/") for p in files if "__pycache__" not in p.parts]
    if globs:
        rels = [r for r in rels if any(fnmatch.fnmatch(r, g) or fnmatch.fnmatch(Path(r).name, g) for g in globs)]
    return rels


def read_equivalents(path: Path) -> tuple[dict, list[str]]:
    """``file:line:operator:description  # why`` lines -> {key: why}; malformed lines are returned as errors."""
    entries, errors = {}, []
    if not path.is_file():
        return entries, errors
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        entry, _, why = text.partition(" # ")
        parts = entry.strip().split(":", 3)
        if len(parts) != 4 or not parts[1].isdigit() or not why.strip():
            errors.append(f"{path}:{number}: expected 'file:line:operator:original -> mutated  # why'")
            continue
        key = f"{parts[0]}:{parts[1]}:{parts[2]}:{_one_line(parts[3])}"
        entries[key] = why.strip()
    return entries, errors


def _load_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
    os.replace(tmp, path)


def default_cache(settings: Settings) -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "studio-mutate"
    key = hashlib.sha1(f"{settings.repo.resolve()}|{settings.target}".encode()).hexdigest()[:12]
    return base / f"{Path(settings.target).name}-{key}.json"


class Runner:
    """One mutation run over a snapshot of the repository (see the module docstring)."""

    def __init__(self, settings: Settings, log=None):
        self.s = settings
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.work: Path | None = None

    # -- coverage
    def coverage(self, files: list[str]) -> dict:
        """Per test: lines of the target files executed, duration, pass/fail (one traced pytest run)."""
        targets = {str(self.work / rel) for rel in files}
        out = Path(tempfile.mkstemp(prefix="mutate-cov-", suffix=".json")[1])

        def body():
            tracer = _Tracer(targets)
            tracer.start()
            code = pytest.main(_pytest_args(self.s.tests, self.s.markers) + ["--continue-on-collection-errors"],
                               plugins=[tracer])
            sys.settrace(None)
            rel = self._relative
            data = {"code": int(code), "modules": _third_party_modules(self.work),
                    "project_modules": _project_modules(self.work, self.s.tests), "broken": tracer.broken,
                    "outside": _serial(tracer.outside, rel),
                    "tests": {nid: {"file": rel(t["file"]), "duration": t["duration"], "passed": t["passed"],
                                    "why": t.get("why"),
                                    "setup": _serial(t["setup"], rel), "call": _serial(t["call"], rel)}
                              for nid, t in tracer.tests.items()}}
            out.write_text(json.dumps(data))
            return 0

        pid = _fork(body, self.s.memory_mb, quiet=not self.s.verbose)
        code, seconds = _wait(pid, None)
        data = _load_json(out)
        out.unlink(missing_ok=True)
        if code != 0 or not data:
            raise SystemExit(f"mutate: the coverage run failed (exit {code}); run the tests: "
                             f"python -m pytest {' '.join(self.s.tests)}")
        data["seconds"] = seconds
        return data

    def _relative(self, path: str) -> str:
        return Path(path).relative_to(self.work).as_posix()

    def _coverage_cached(self, files, cache_path: Path) -> dict:
        """The coverage run, reused while no file of the copy (sources, tests, data) and no option changed."""
        key = hashlib.sha256(json.dumps([files, self.s.tests, self.s.markers]).encode())
        for path in sorted(p for p in self.work.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            key.update(str(path.relative_to(self.work)).encode() + b"\0" + path.read_bytes())
        cov_path = cache_path.with_name(cache_path.stem + ".coverage.json")
        stored = _load_json(cov_path)
        if stored.get("key") == key.hexdigest():
            self.log("mutate: coverage from the cache (nothing changed since it was recorded)")
            stored["data"]["seconds"] = 0.0
            return stored["data"]
        data = self.coverage(files)
        _write_json(cov_path, {"key": key.hexdigest(), "data": data})
        return data

    # -- warm-up: import what the tests import (third-party only) once in the parent
    def warm_up(self, cov: dict, files: list[str]):
        """Import once, in the parent, what every child would import anyway: the third-party modules and the
        project modules that do not import a target module. A forked probe first checks that the list really
        leaves the targets unimported (a dynamic import could pull one in); only the safe prefix is imported."""
        targets = {module_name(rel) for rel in files}
        project = cov.get("project_modules", {})
        unsafe = dependents(self.work, project, targets)
        names = [n for n in cov["modules"] if n not in sys.modules] + [n for n in project if n not in unsafe]
        probe = Path(tempfile.mkstemp(prefix="mutate-probe-")[1])

        def body():
            for index, name in enumerate(names):
                _import_quietly(name)
                if any(t in sys.modules for t in targets):
                    probe.write_text(str(index))
                    return 0
            probe.write_text(str(len(names)))
            return 0

        code, _ = _wait(_fork(body, self.s.memory_mb), None)
        text = probe.read_text().strip()
        probe.unlink(missing_ok=True)
        safe = names[:int(text)] if code == 0 and text.isdigit() else [n for n in names if n not in project]
        for name in safe:
            _import_quietly(name)
        leaked = [t for t in targets if t in sys.modules]
        if leaked:                                 # never let a child see an unmutated target module
            raise SystemExit(f"mutate: warm-up imported {leaked}; report this (tools/mutate.py warm_up)")
        self.log(f"mutate: warm-up imported {len(safe)} modules "
                 f"({len([n for n in safe if n in project])} of the project)")

    # -- test selection
    def selection(self, cov: dict, mutant: Mutant, killers: dict | None = None) -> list[str]:
        """The tests to run for a mutant: those covering its lines; tests that killed mutants of the same
        function before come first, then the fastest."""
        lines = set(range(mutant.line, mutant.end_line + 1))
        path = mutant.file
        tests = {nid: t for nid, t in cov["tests"].items() if t["passed"]}
        known = (killers or {}).get(f"{mutant.file}:{mutant.function}", {})
        by_speed = sorted(tests, key=lambda nid: (-known.get(nid, 0), tests[nid]["duration"]))
        if self.s.all_tests:
            return by_speed
        direct = [nid for nid in by_speed if lines & set(tests[nid]["call"].get(path, ()))]
        setup_files = {tests[nid]["file"] for nid in by_speed if lines & set(tests[nid]["setup"].get(path, ()))}
        grouped = [nid for nid in by_speed if tests[nid]["file"] in setup_files and nid not in direct]
        chosen = direct + grouped
        if lines & set(cov["outside"].get(path, ())):
            chosen += [nid for nid in by_speed if nid not in set(chosen)]
        return chosen

    def run_mutant(self, mutant: Mutant, source: str, order: list[str], test_files):
        """Fork a child that runs ``order`` against the mutated module; returns a pid and its result file."""
        result = tempfile.mkstemp(prefix="mutate-res-")[1]
        name, path, new = module_name(mutant.file), str(self.work / mutant.file), apply_mutant(source, mutant)

        files = sorted(test_files)

        def body():
            sys.meta_path.insert(0, _MutantImporter(name, path, new))
            selector = _Selector(order, result)
            extra = ["-x", "--tb=no", "-p", "no:unraisableexception", "-p", "no:threadexception"]
            return int(pytest.main(_pytest_args(files, self.s.markers) + extra, plugins=[selector]))

        return _fork(body, self.s.memory_mb, quiet=not self.s.verbose), result

    # -- main loop
    def run(self) -> dict:
        started = time.time()
        repo = self.s.repo.resolve()
        self.work = Path(tempfile.mkdtemp(prefix="mutate-work-"))
        cwd, path, no_bytecode = os.getcwd(), list(sys.path), sys.dont_write_bytecode
        try:
            snapshot(repo, self.work)
            return self._run_in_copy(repo, started)
        finally:
            os.chdir(cwd)
            sys.path[:] = path
            sys.dont_write_bytecode = no_bytecode
            if not self.s.keep_workdir:
                shutil.rmtree(self.work, ignore_errors=True)

    def _mutants(self, files):
        mutants, sources = [], {}
        for rel in files:
            sources[rel] = (self.work / rel).read_text(encoding="utf-8")
            mutants.extend(find_mutants(sources[rel], rel))
        if self.s.functions:
            mutants = [m for m in mutants if any(fnmatch.fnmatch(m.function, g) for g in self.s.functions)]
        if self.s.max_mutants and len(mutants) > self.s.max_mutants:
            step = len(mutants) / self.s.max_mutants
            mutants = [mutants[int(i * step)] for i in range(self.s.max_mutants)]
        return mutants, sources

    def _run_in_copy(self, repo: Path, started: float) -> dict:
        files = target_files(self.work, self.s.target, self.s.files)
        if not files:
            raise SystemExit(f"mutate: no Python files under {self.s.target} (files: {self.s.files or 'all'})")
        mutants, sources = self._mutants(files)
        eq_path = Path(self.s.equivalent) if self.s.equivalent else repo / EQUIVALENT_FILE
        equivalents, eq_errors = read_equivalents(eq_path)
        for error in eq_errors:
            self.log(f"mutate: {error}")
        if self.s.list_only:
            return self._summary(repo, [(m, "listed", None, 0.0) for m in mutants], equivalents, started, {})
        os.chdir(self.work)
        sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != repo]
        sys.path.insert(0, str(self.work))
        # Byte-code caches in the copy (only there) spare every child compiling the project and its test modules
        # again (PYTHONDONTWRITEBYTECODE may be set); the mutated module itself is always compiled from memory.
        compileall.compile_dir(str(self.work), quiet=1, workers=1)
        sys.dont_write_bytecode = False
        file_hashes = {rel: file_hash(self.work / rel) for rel in files}
        tests_hash = tree_hash(self.work, list(self.s.tests) + conftests(self.work, self.s.tests))
        cache_path = Path(self.s.cache) if self.s.cache else default_cache(self.s)
        cache = _load_json(cache_path)
        if cache.get("version") != CACHE_VERSION:
            cache = {"version": CACHE_VERSION, "results": {}}
        results, todo = [], []
        for mutant in mutants:
            if mutant.equivalent_key() in equivalents:
                results.append((mutant, "equivalent", None, 0.0))
                continue
            hit = self._cached(cache, file_hashes[mutant.file], mutant, tests_hash)
            if hit is not None:
                results.append((mutant, hit["status"], hit.get("killer"), hit.get("seconds", 0.0)))
            else:
                todo.append(mutant)
        self.log(f"mutate: {len(mutants)} mutants in {len(files)} files; {len(mutants) - len(todo)} from cache "
                 f"or marked equivalent; {len(todo)} to run (work copy {self.work})")
        cov = {}
        if todo:
            cov = self._coverage_cached(files, cache_path)
            failing = [nid for nid, t in cov["tests"].items() if not t["passed"]]
            if failing:
                self.log(f"mutate: {len(failing)} tests fail without any mutant and are left out: "
                         + ", ".join(failing[:5]))
                self.log(f"mutate: first failure: {cov['tests'][failing[0]]['why']}")
            for nodeid, error in cov.get("broken", {}).items():
                self.log(f"mutate: {nodeid} does not import and is left out: {error.strip().splitlines()[-1]}")
            if not any(t["passed"] for t in cov["tests"].values()):
                raise SystemExit(f"mutate: no test passes without mutants in {' '.join(self.s.tests)}; "
                                 "nothing can be measured")
            self.log(f"mutate: coverage run {cov['seconds']:.1f}s over {len(cov['tests'])} tests")
            self.warm_up(cov, files)
            killers = cache.setdefault("killers", {})

            def record(mutant, status, killer, seconds):
                key = f"{file_hashes[mutant.file]}|{mutant.id}"
                cache["results"][key] = {"status": status, "killer": killer, "seconds": round(seconds, 3),
                                         "tests": tests_hash}
                if status == "killed" and killer and not killer.startswith(("collect:", "signal")):
                    counts = killers.setdefault(f"{mutant.file}:{mutant.function}", {})
                    counts[killer] = counts.get(killer, 0) + 1
                if len(cache["results"]) % 50 == 0:
                    self._save_cache(cache_path, cache)

            try:
                fresh = self._execute(todo, sources, cov, killers, record)
            finally:
                self._save_cache(cache_path, cache)      # an interrupted run keeps what it found
            results.extend(fresh)
        return self._summary(repo, results, equivalents, started, cov)

    @staticmethod
    def _save_cache(path: Path, cache: dict) -> None:
        """Merge with whatever another run wrote meanwhile, then write atomically."""
        disk = _load_json(path)
        if disk.get("version") == CACHE_VERSION:
            disk["results"].update(cache["results"])
            for function, counts in cache.get("killers", {}).items():
                disk.setdefault("killers", {}).setdefault(function, {}).update(counts)
            cache.update(disk)
        _write_json(path, cache)

    def _cached(self, cache, fhash, mutant, tests_hash):
        hit = cache["results"].get(f"{fhash}|{mutant.id}")
        if hit is None:
            return None
        if hit["tests"] == tests_hash:
            return hit
        if self.s.survivors_only and hit["status"] in ("killed", "timeout"):
            return hit
        return None

    def _execute(self, todo, sources, cov, killers, record):
        """Run the mutants, ``jobs`` children at a time; returns [(mutant, status, killer, seconds)]."""
        durations = {nid: t["duration"] for nid, t in cov["tests"].items()}
        queue, running, done = list(todo), {}, []
        total, begun = len(todo), time.monotonic()
        try:
            self._loop(queue, running, done, total, begun, cov, killers, record, sources, durations)
        finally:                                   # interrupted: no child may outlive the run
            for pid in running:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        return done

    def _loop(self, queue, running, done, total, begun, cov, killers, record, sources, durations):
        while queue or running:
            while queue and len(running) < max(1, self.s.jobs):
                mutant = queue.pop(0)
                order = self.selection(cov, mutant, killers)
                if not order:
                    done.append((mutant, "no-coverage", None, 0.0))
                    record(mutant, "no-coverage", None, 0.0)
                    continue
                # traced times are 2-4x the untraced ones already, so 1x of them plus 10 s is a safe margin
                limit = self.s.timeout or 10.0 + sum(durations[n] for n in order)
                test_files = {cov["tests"][nid]["file"] for nid in order}
                pid, result = self.run_mutant(mutant, sources[mutant.file], order, test_files)
                running[pid] = (mutant, result, time.monotonic(), limit)
            finished = self._reap(running)
            for item in finished:
                record(*item)
            done.extend(finished)
            if finished and (len(done) % 25 < len(finished) or not queue and not running):
                rate = (time.monotonic() - begun) / len(done)
                tally = {}
                for _, status, _, _ in done:
                    tally[status] = tally.get(status, 0) + 1
                counts = ", ".join(f"{name} {count}" for name, count in sorted(tally.items()))
                self.log(f"mutate: {len(done)}/{total} done ({counts}), {rate:.2f}s per mutant, "
                         f"about {rate * (total - len(done)) / 60:.1f} min left")
            if not finished:
                time.sleep(0.005)

    def _reap(self, running):
        finished = []
        for pid in list(running):
            mutant, result, start, limit = running[pid]
            done, status = os.waitpid(pid, os.WNOHANG)
            seconds = time.monotonic() - start
            if not done and seconds <= limit:
                continue
            if not done:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                verdict, killer = "timeout", None
            else:
                verdict, killer = self._verdict(os.waitstatus_to_exitcode(status), result)
            Path(result).unlink(missing_ok=True)
            del running[pid]
            if self.s.verbose:
                self.log(f"  {verdict:9} {mutant.file}:{mutant.line}: {mutant.operator}: {mutant.description}")
            finished.append((mutant, verdict, killer, seconds))
        return finished

    @staticmethod
    def _verdict(code: int, result: str):
        killer = Path(result).read_text() if os.path.getsize(result) else None
        if code == 0:
            return "survived", None
        if code in (1, 2) or killer:
            return "killed", killer
        if code < 0:                          # killed by a signal (segfault, memory limit): the tests noticed
            return "killed", f"signal {-code}"
        return "error", f"pytest exit code {code}"

    # -- report
    def _summary(self, repo, results, equivalents, started, cov) -> dict:
        per_file: dict[str, dict] = {}
        survivors, eq_hits, timeouts, errors, mutants = [], [], [], [], []
        for mutant, status, killer, seconds in sorted(results, key=lambda r: (r[0].file, r[0].line, r[0].col)):
            counts = per_file.setdefault(mutant.file, _zero())
            counts[status] = counts.get(status, 0) + 1
            entry = {"file": mutant.file, "line": mutant.line, "operator": mutant.operator,
                     "original": _one_line(mutant.original), "mutated": _one_line(mutant.mutated),
                     "function": mutant.function, "id": mutant.id, "status": status, "killer": killer,
                     "seconds": round(seconds, 3), "equivalent_line": mutant.equivalent_key()}
            mutants.append(entry)
            if status in ("survived", "no-coverage"):
                survivors.append(entry)
            elif status == "equivalent":
                eq_hits.append(dict(entry, why=equivalents[mutant.equivalent_key()]))
            elif status == "timeout":
                timeouts.append(entry)
            elif status == "error":
                errors.append(entry)
        for counts in per_file.values():
            counts["score"] = _score(counts)
        total = _zero()
        for counts in per_file.values():
            for key in total:
                total[key] += counts.get(key, 0)
        total["score"] = _score(total)
        matched = {e["equivalent_line"] for e in eq_hits}
        relevant = {m.file for m, *_ in results}
        stale = [key for key in equivalents if key not in matched and key.split(":", 1)[0] in relevant]
        return {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "repo": str(repo),
                "target": self.s.target, "tests": self.s.tests, "seconds": round(time.time() - started, 1),
                "coverage_seconds": round(cov.get("seconds", 0.0), 1), "workdir": str(self.work),
                "files": per_file, "total": total, "survivors": survivors, "equivalent": eq_hits,
                "stale_equivalents": stale, "timeouts": timeouts, "errors": errors, "mutants": mutants}


def _third_party_modules(project: Path) -> list[str]:
    """Modules loaded from outside the project, in import order (the parent imports them once to warm up)."""
    inside = str(project) + os.sep
    names = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path and not str(path).startswith(inside) and not name.startswith("__") and "conftest" not in name:
            names.append(name)
    return names


def _project_modules(project: Path, test_paths) -> dict:
    """Modules loaded from the project (not tests, not conftest), in import order: {name: relative file}."""
    inside, found = str(project) + os.sep, {}
    tests = [str(project / t) for t in test_paths]
    for name, module in list(sys.modules.items()):
        path = str(getattr(module, "__file__", None) or "")
        if path.startswith(inside) and "conftest" not in name and not any(path.startswith(t) for t in tests) \
                and path.endswith(".py") and module_name(os.path.relpath(path, project)) == name:
            found[name] = os.path.relpath(path, project)
    return found


def module_imports(source: str, name: str, is_package: bool) -> set[str]:
    """Modules a module imports when it is imported (module-level statements only, not inside functions)."""
    found = set()
    package = name if is_package else name.rpartition(".")[0]

    def walk(body):
        for stmt in body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    parts = alias.name.split(".")
                    found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            elif isinstance(stmt, ast.ImportFrom):
                base = stmt.module or ""
                if stmt.level:
                    anchor = package.split(".")[:len(package.split(".")) - (stmt.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                parts = base.split(".")
                found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
                found.update(f"{base}.{alias.name}" for alias in stmt.names)
            elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
                for block in ("body", "orelse", "finalbody"):
                    walk(getattr(stmt, block, []))
                for handler in getattr(stmt, "handlers", []):
                    walk(handler.body)
    walk(ast.parse(source).body)
    return found


def dependents(project: Path, modules: dict, targets: set[str]) -> set[str]:
    """The modules whose import (or whose packages' import) imports one of the target modules."""
    graph = {}
    for name, rel in modules.items():
        try:
            source = (project / rel).read_text(encoding="utf-8")
        except OSError:
            continue
        graph[name] = module_imports(source, name, rel.endswith("__init__.py"))
        parts = name.split(".")
        graph[name].update(".".join(parts[:i]) for i in range(1, len(parts)))     # parent packages
    bad, changed = set(targets), True
    while changed:
        changed = False
        for name, imports in graph.items():
            if name not in bad and imports & bad:
                bad.add(name)
                changed = True
    return bad


def _import_quietly(name: str) -> None:
    try:
        importlib.import_module(name)
    except BaseException:   # noqa: BLE001 - warm-up is best effort
        pass


def _serial(lines: dict, rel) -> dict:
    return {rel(name): sorted(found) for name, found in lines.items()}


def _zero() -> dict:
    return {"killed": 0, "timeout": 0, "survived": 0, "no-coverage": 0, "equivalent": 0, "error": 0, "listed": 0}


def _score(counts: dict):
    caught = counts["killed"] + counts["timeout"]
    judged = caught + counts["survived"] + counts["no-coverage"]
    return round(caught / judged, 4) if judged else None


def format_report(summary: dict) -> str:
    """The human-readable report: counts per file and in total, then every survivor and equivalent."""
    def row(name, c):
        score = "n/a" if c["score"] is None else f"{100 * c['score']:.1f}%"
        extra = f", listed {c['listed']}" if c.get("listed") else ""
        extra += f", error {c['error']}" if c.get("error") else ""
        return (f"{name}: killed {c['killed']}, survived {c['survived']}, timeout {c['timeout']}, "
                f"no coverage {c['no-coverage']}, equivalent {c['equivalent']}{extra} -> score {score}")
    lines = [row(name, counts) for name, counts in sorted(summary["files"].items())]
    lines.append(row("TOTAL", summary["total"]))
    lines.append(f"({summary['seconds']:.0f}s, coverage run {summary['coverage_seconds']:.0f}s)")
    if summary["survivors"]:
        lines.append("Survivors:")
    for m in summary["survivors"]:
        tag = " [no coverage]" if m["status"] == "no-coverage" else ""
        lines.append(f"{m['file']}:{m['line']}: {m['operator']}: {m['original']} -> {m['mutated']} "
                     f"(in {m['function']}){tag}")
    for title, key in (("Timeouts (counted as killed):", "timeouts"), ("Errors:", "errors")):
        if summary[key]:
            lines.append(title)
            lines.extend(f"{m['file']}:{m['line']}: {m['operator']}: {m['original']} -> {m['mutated']} "
                         f"(in {m['function']})" for m in summary[key])
    if summary["equivalent"]:
        lines.append("Equivalent (left out of the score):")
        lines.extend(f"{m['file']}:{m['line']}: {m['operator']}: {m['original']} -> {m['mutated']}  # {m['why']}"
                     for m in summary["equivalent"])
    if summary["stale_equivalents"]:
        lines.append("Equivalents file entries that match no mutant (update their line numbers):")
        lines.extend(summary["stale_equivalents"])
    return "\n".join(lines)


def parse_args(argv) -> Settings:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", required=True, help="package directory or file to mutate (repo-relative)")
    parser.add_argument("--tests", required=True, nargs="+", action="extend", help="test paths that should kill the mutants")
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]),
                        help="repository to snapshot (never modified); default: this tool's repository")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at the same time (default 1)")
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default: 10 + its tests' traced time)")
    parser.add_argument("--max-mutants", type=int, help="run an evenly spread sample of N mutants")
    parser.add_argument("--files", action="append", default=[], help="only files matching this glob (repeatable)")
    parser.add_argument("--functions", action="append", default=[],
                        help="only mutants inside functions whose qualified name matches this glob, e.g. "
                             "'WawState._fire*' (repeatable)")
    parser.add_argument("--report", help="write the full result as JSON to this file")
    parser.add_argument("--survivors-only", action="store_true",
                        help="keep cached kills even if the tests changed; re-run only survivors and new mutants")
    parser.add_argument("--all-tests", action="store_true",
                        help="run every test (fastest first) for each mutant instead of the covering ones")
    parser.add_argument("--markers", default=DEFAULT_MARKERS, help=f"pytest -m expression (default {DEFAULT_MARKERS!r})")
    parser.add_argument("--cache", help="result cache file (default under ~/.cache/studio-mutate/)")
    parser.add_argument("--equivalent", help=f"equivalent-mutant list (default <repo>/{EQUIVALENT_FILE})")
    parser.add_argument("--memory-mb", type=int, default=2048, help="extra address space per mutant child")
    parser.add_argument("--keep-workdir", action="store_true", help="do not delete the repository copy")
    parser.add_argument("--list", dest="list_only", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every verdict and the tests' output")
    values = vars(parser.parse_args(argv))
    repo = Path(values["repo"]).resolve()
    values["repo"] = repo
    values["target"] = _relative(values["target"], repo)
    values["tests"] = [_relative(t, repo) for t in values["tests"]]
    for key in ("report", "cache", "equivalent"):
        if values[key]:
            values[key] = str(Path(values[key]).resolve())
    return Settings(**values)


def _relative(path: str, repo: Path) -> str:
    """A path given on the command line, relative to the repository (absolute or cwd-relative paths inside it)."""
    candidate = Path(path)
    if not candidate.is_absolute() and not (repo / candidate).exists() and Path.cwd().resolve() != repo:
        candidate = Path.cwd() / candidate
    if candidate.is_absolute():
        try:
            return str(candidate.resolve().relative_to(repo))
        except ValueError:
            raise SystemExit(f"mutate: {path} is not inside the repository {repo}") from None
    return str(candidate)


def _terminate(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> int:
    settings = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _terminate)      # kill -TERM cleans up like Ctrl-C: children, then the copy
    try:
        summary = Runner(settings).run()
    except KeyboardInterrupt:
        print("mutate: interrupted; the results so far are in the cache", file=sys.stderr)
        return 130
    if settings.list_only:
        for m in summary["mutants"]:
            print(f"{m['file']}:{m['line']}: {m['operator']}: {m['original']} -> {m['mutated']} (in {m['function']})")
    else:
        print(format_report(summary))
    if settings.report:
        _write_json(Path(settings.report), summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
