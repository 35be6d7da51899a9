"""Fuzz harness: run hostile inputs through the studio's public entry points and classify every outcome.

A :class:`Workspace` is a temporary copy of the sample project (``data/``) plus an ``inputs`` folder and an empty
working directory, all under one base folder. A :class:`Case` installs files into the workspace (documents into the
project, Tiled maps and replays into ``inputs``), runs one entry point and is classified as

- ``ok``: exit 0 / a clean result;
- ``diagnostic``: exit 1 with findings (validation errors, a replay mismatch, a refused scenario);
- ``refusal``: exit 2 with a message (usage, unreadable file), or the documented refusal exception of an API;
- ``failure``: a traceback or uncaught exception, a hang (time limit), a crashed validation check
  (``internal.*``), an engine exception during play, JSON output that does not parse, a diagnostic pointing past
  the end of its file, a memory blow-up (isolated cases), a write outside the allowed outputs (anything else in
  the base folder, its parent folder, the repository's ``data/``) or a changed input file.

Cases run in process (``studio.cli.main.main``, ``studio.rules.replay.verify``, ``ProjectSession``) under a
SIGALRM time limit; cases marked ``isolate`` (special files, bombs, huge files) run in a subprocess with a memory
limit. After each case the project is restored byte for byte, so cases are independent.
"""
from __future__ import annotations

import contextlib
import fnmatch
import io
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"
STUDIO = REPO / "studio"

OK, DIAGNOSTIC, REFUSAL, FAILURE = "ok", "diagnostic", "refusal", "failure"
OUTCOMES = (OK, DIAGNOSTIC, REFUSAL, FAILURE)

#: in-process time limit per case (seconds); isolated cases get ISOLATED_TIMEOUT
CASE_TIMEOUT = float(os.environ.get("FUZZ_CASE_TIMEOUT", "30"))
ISOLATED_TIMEOUT = float(os.environ.get("FUZZ_ISOLATED_TIMEOUT", "60"))
#: address-space limit of isolated cases and the peak resident memory they may reach
ISOLATED_MEMORY = 2 * 1024 ** 3
ISOLATED_RSS_LIMIT = 300 * 1024 ** 2

#: scenario per ruleset used to play a fuzzed ruleset (other rule systems: their first sample scenario)
PLAY_SCENARIO = {"mbt": "scenarios/mbt/meeting-engagement.yaml", "waw": "scenarios/waw/waw-crossroads.yaml"}


def play_scenario(ruleset: str) -> str:
    """Project-relative scenario that plays ``ruleset`` (``scenarios/<id>/`` of the sample project)."""
    if ruleset in PLAY_SCENARIO:
        return PLAY_SCENARIO[ruleset]
    found = sorted((DATA / "scenarios" / ruleset).glob("*.yaml"))
    return str(found[0].relative_to(DATA)) if found else PLAY_SCENARIO["mbt"]



class Hang(BaseException):
    """Raised by the alarm handler; a BaseException so that ``except Exception`` in the product cannot hide it."""


# ------------------------------------------------------------------ special inputs

@dataclass(frozen=True)
class Link:
    """Install a symlink to ``target`` (absolute, or relative to the link's folder)."""

    target: str


@dataclass(frozen=True)
class Fifo:
    """Install a named pipe (reading it blocks until a writer comes: a hang unless the product refuses it)."""


Content = bytes | Link | Fifo


# ------------------------------------------------------------------ results

@dataclass
class Raw:
    """What one run produced, before classification."""

    rc: int | None = None
    stdout: str = ""
    stderr: str = ""
    error: str = ""           # formatted traceback of an exception that escaped (in process) or seen on stderr
    error_type: str = ""
    location: str = ""        # innermost studio/ frame: "studio/x.py:123 in func"
    hang: bool = False
    value: Any = None         # the return value of an API call
    max_rss: int = 0          # isolated cases: peak resident memory of the child (bytes)
    seconds: float = 0.0


@dataclass
class Outcome:
    entry: str
    label: str
    kind: str
    reason: str = ""          # why it is a failure (one line)
    location: str = ""
    rc: int | None = None
    detail: str = ""          # traceback / output excerpt
    reproducer: Path | None = None

    @property
    def signature(self) -> tuple[str, str, str]:
        """Failures with the same entry point, reason (numbers and parentheses dropped) and place are one."""
        reason = re.sub(r"\(.*\)|\d+", "", self.reason).strip()
        return (self.entry, reason, self.location)


@dataclass
class Case:
    """One input through one entry point.

    ``files`` maps paths relative to the workspace base (``project/...`` or ``inputs/...``) to their content;
    ``argv`` is a CLI command line (``{project}``/``{inputs}``/``{base}`` are substituted) or ``call`` an API
    entry ``call(workspace) -> Raw``-compatible value; ``outputs`` are the base-relative paths the command may
    create or change. ``mtimes`` sets modification times (base-relative path -> seconds offset from now)."""

    entry: str
    label: str
    files: dict[str, Content] = field(default_factory=dict)
    argv: list[str] | None = None
    call: Callable[["Workspace"], Any] | None = None
    outputs: tuple[str, ...] = ()
    isolate: bool = False
    json_out: bool = False
    check_lines: str | None = None  # base-relative input whose diagnostics must point inside the file
    expect_findings: bool = True
    mtimes: dict[str, float] = field(default_factory=dict)
    timeout: float | None = None
    classify: Callable[["Case", Raw], Outcome | None] | None = None
    then: list["Case"] = field(default_factory=list)  # run when this case is ok (e.g. play after validation)
    json_codes: tuple[int, ...] = (0, 1)  # exit codes after which JSON output is required (with json_out)


# ------------------------------------------------------------------ workspace

def _fingerprint(path: Path, st: os.stat_result) -> tuple:
    """Type, size, mtime and inode (a rewrite or an atomic replacement changes them); the bytes of protected
    inputs are compared separately."""
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if not stat.S_ISREG(st.st_mode):
        return ("special", stat.S_IFMT(st.st_mode))
    return ("file", st.st_size, st.st_mtime_ns, st.st_ino)


def snapshot_tree(root: Path) -> dict[str, tuple]:
    """Every entry under ``root`` (symlinks not followed): relative path -> fingerprint."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = Path(dirpath, name)
            try:
                st = full.lstat()
            except OSError:
                continue
            rel = str(full.relative_to(root))
            out[rel] = ("dir",) if stat.S_ISDIR(st.st_mode) else _fingerprint(full, st)
    return out


def snapshot_listing(folder: Path, skip: set[str] = frozenset()) -> dict[str, tuple]:
    """The entries directly in ``folder`` (names, types, sizes and mtimes), not recursing."""
    out: dict[str, tuple] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return out
    for name in names:
        if name in skip:
            continue
        try:
            st = os.lstat(folder / name)
        except OSError:
            continue
        out[name] = (stat.S_IFMT(st.st_mode), st.st_size if not stat.S_ISDIR(st.st_mode) else 0, st.st_mtime_ns)
    return out


def diff(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


class Workspace:
    """``base/project`` (copy of data/), ``base/inputs`` and ``base/cwd`` (the working directory of each case)."""

    def __init__(self, base: Path):
        self.base = Path(base)
        self.project = self.base / "project"
        self.inputs = self.base / "inputs"
        self.cwd = self.base / "cwd"
        if self.project.exists():
            shutil.rmtree(self.project)
        shutil.copytree(DATA, self.project, ignore=shutil.ignore_patterns(".*"))
        self.inputs.mkdir(exist_ok=True)
        self.cwd.mkdir(exist_ok=True)
        self._make_bases()
        self.pristine = snapshot_tree(self.base)
        self.pristine_bytes = {rel: (self.base / rel).read_bytes() for rel, fp in self.pristine.items()
                               if fp[0] == "file"}
        self.parent_listing = snapshot_listing(self.base.parent, skip={self.base.name})

    def _make_bases(self) -> None:
        """``inputs/base.tmj`` (board-2 exported to Tiled) and ``inputs/base.replay.json`` (a recorded game)."""
        from studio.export.tiled import map_to_tiled
        from studio.model.project import load_project

        index = load_project(self.project)
        board, ruleset = index.get("map", "board-2").model, index.get("ruleset", "mbt").model
        tiled, _images = map_to_tiled(board, ruleset, "base")
        (self.inputs / "base.tmj").write_text(json.dumps(tiled, indent=1), encoding="utf-8")
        self.base_replay_note = ""
        for scenario in (PLAY_SCENARIO["mbt"], PLAY_SCENARIO["waw"]):
            if self._record_replay(scenario):
                return
        # the sample does not play right now: a hand-made replay of the right shape keeps the patches usable
        self.base_replay_note = "no sample scenario plays; the replay base is synthetic"
        (self.inputs / "base.replay.json").write_text(json.dumps({
            "format": "studio-replay", "format_version": 1, "scenario": "meeting-engagement",
            "scenario_file": PLAY_SCENARIO["mbt"], "scenario_hash": "", "ruleset": "mbt", "ruleset_version": "?",
            "seed": 3, "bots": ["random", "random"], "options": {},
            "actions": ["command M1-1 NC"] * 8, "final_hash": "0", "outcome": {}}, indent=1), encoding="utf-8")

    def _record_replay(self, scenario: str) -> bool:
        from studio.cli.main import main

        replays = self.base / "replays-tmp"
        raw = run_in_process(lambda: main(["play", str(self.project / scenario), "--games", "1", "--seed", "3",
                                           "--project", str(self.project), "--format", "json",
                                           "--save-replays", str(replays)]), 120)
        found = sorted(replays.glob("*.replay.json"))
        if raw.rc == 0 and found:
            shutil.copyfile(found[0], self.inputs / "base.replay.json")
        shutil.rmtree(replays, ignore_errors=True)
        return raw.rc == 0 and bool(found)

    @contextlib.contextmanager
    def active(self):
        """During a case: the working directory is ``base/cwd`` and ``$STUDIO_PROJECT`` is the copy."""
        old_cwd, old_env = os.getcwd(), os.environ.get("STUDIO_PROJECT")
        os.chdir(self.cwd)
        os.environ["STUDIO_PROJECT"] = str(self.project)
        try:
            yield
        finally:
            os.chdir(old_cwd)
            if old_env is None:
                os.environ.pop("STUDIO_PROJECT", None)
            else:
                os.environ["STUDIO_PROJECT"] = old_env

    # ---------------------------------------------------------------- substitution
    def expand(self, argv: list[str]) -> list[str]:
        return [a.format(project=self.project, inputs=self.inputs, base=self.base) for a in argv]

    def path(self, rel: str) -> Path:
        return self.base / rel

    # ---------------------------------------------------------------- install / restore
    def install(self, case: Case) -> None:
        for rel, content in case.files.items():
            target = self.base / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.exists():
                target.unlink()
            if isinstance(content, Link):
                os.symlink(content.target, target)
            elif isinstance(content, Fifo):
                os.mkfifo(target)
            else:
                target.write_bytes(content)
        now = time.time()
        for rel, offset in case.mtimes.items():
            os.utime(self.base / rel, (now + offset, now + offset), follow_symlinks=False)

    def installed_snapshot(self, case: Case) -> dict[str, tuple]:
        """What :func:`snapshot_tree` gives right after ``install(case)`` (the pristine tree plus the case's files
        and their folders), without walking the tree again."""
        out = dict(self.pristine)
        for rel in case.files:
            parts = Path(rel).parts
            for i in range(1, len(parts)):
                out.setdefault(str(Path(*parts[:i])), ("dir",))
            full = self.base / rel
            try:
                st = full.lstat()
            except OSError:
                continue
            out[rel] = ("dir",) if stat.S_ISDIR(st.st_mode) else _fingerprint(full, st)
        return out

    def restore(self) -> None:
        """Put the base folder back exactly as it was created (removes extra files, rewrites changed ones)."""
        current = snapshot_tree(self.base)
        for rel in sorted(set(current) - set(self.pristine), key=lambda r: -r.count(os.sep)):
            full = self.base / rel
            if current[rel][0] == "dir" and not full.is_symlink():
                shutil.rmtree(full, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    full.unlink()
        for rel, fp in self.pristine.items():
            if current.get(rel) == fp:
                continue
            full = self.base / rel
            if fp[0] == "dir":
                if full.is_symlink() or (full.exists() and not full.is_dir()):
                    full.unlink()
                full.mkdir(parents=True, exist_ok=True)
                continue
            if full.is_symlink() or (full.exists() and not full.is_file()):
                full.unlink()
            full.parent.mkdir(parents=True, exist_ok=True)
            full.write_bytes(self.pristine_bytes[rel])
            os.utime(full, ns=(fp[2], fp[2]))
            self.pristine[rel] = _fingerprint(full, full.lstat())

    def outside_changes(self) -> list[str]:
        """Changes next to the base folder (its parent's listing). The repository's ``data/`` is not watched
        (other work edits it); commands cannot reach it: ``STUDIO_PROJECT`` points at the copy during a case and
        the working directory is ``base/cwd``."""
        return [f"{self.base.parent}/{n}" for n in diff(self.parent_listing,
                                                          snapshot_listing(self.base.parent, {self.base.name}))]


# ------------------------------------------------------------------ running

def studio_location(tb) -> str:
    """``studio/x.py:LINE in func`` of the innermost frame inside the studio package."""
    where = ""
    for frame, line in traceback.walk_tb(tb):
        name = frame.f_code.co_filename
        if name.startswith(str(STUDIO)):
            where = f"{Path(name).relative_to(REPO)}:{line} in {frame.f_code.co_name}"
    return where


_FRAME = re.compile(r'File "([^"]*studio/[^"]+\.py)", line (\d+), in (\S+)')


def text_location(text: str) -> str:
    """The innermost ``studio/`` frame named in a printed traceback."""
    where = ""
    for name, line, func in _FRAME.findall(text):
        if "/tests/" in name:
            continue
        rel = name[name.rfind("studio/"):]
        where = f"{rel}:{line} in {func}"
    return where


def _last_exception_line(text: str) -> tuple[str, str]:
    lines = [ln for ln in text.strip().splitlines() if ln and not ln.startswith(" ")]
    last = lines[-1] if lines else ""
    kind = last.split(":", 1)[0].strip() if ":" in last else last.strip()
    return kind, last


@contextlib.contextmanager
def time_limit(seconds: float):
    def on_alarm(signum, frame):
        raise Hang(f"no answer after {seconds:g} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_in_process(fn: Callable[[], Any], timeout: float) -> Raw:
    """Run ``fn`` with stdout/stderr captured and a time limit; exceptions become ``Raw.error``."""
    raw = Raw()
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    try:
        with time_limit(timeout), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            raw.value = fn()
    except Hang as exc:
        raw.hang, raw.error, raw.error_type = True, str(exc), "Hang"
        raw.location = studio_location(exc.__traceback__)
    except SystemExit as exc:  # argparse usage errors exit 2: a refusal by contract
        raw.value = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except BaseException as exc:  # noqa: BLE001 - anything escaping is the finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        raw.error = "".join(traceback.format_exception(exc))
        inner = exc
        while not studio_location(inner.__traceback__) and (inner.__cause__ or inner.__context__):
            inner = inner.__cause__ or inner.__context__
        raw.error_type = type(inner).__name__
        raw.location = studio_location(inner.__traceback__)
    raw.seconds = time.perf_counter() - start
    raw.stdout, raw.stderr = out.getvalue(), err.getvalue()
    if isinstance(raw.value, int) and not isinstance(raw.value, bool):
        raw.rc = raw.value
    return raw


def _child_limits() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (ISOLATED_MEMORY, ISOLATED_MEMORY))
    os.setsid()


_CHILD = r"""
import sys
from studio.cli.main import main

def peak():  # VmHWM: this image's peak resident set (ru_maxrss would include the forked parent's)
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

try:
    rc = main(sys.argv[1:])
finally:
    sys.stdout.flush()
    sys.stderr.write("\n@@maxrss=%d\n" % peak())
sys.exit(rc)
"""


def run_subprocess(argv: list[str], cwd: Path, timeout: float) -> Raw:
    """Run ``studio ARGV`` in a child with a memory limit; a timeout kills the child's process group."""
    raw = Raw()
    env = dict(os.environ, PYTHONUNBUFFERED="1", QT_QPA_PLATFORM="offscreen",
               STUDIO_PROJECT=os.environ.get("STUDIO_PROJECT", ""))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *argv], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_child_limits)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raw.hang, raw.error_type, raw.error = True, "Hang", f"no answer after {timeout:g} s"
    raw.seconds = time.perf_counter() - start
    raw.stdout = out.decode("utf-8", "replace")
    raw.stderr = err.decode("utf-8", "replace")
    m = re.search(r"@@maxrss=(\d+)", raw.stderr)
    if m:
        raw.max_rss = int(m.group(1)) * 1024
        raw.stderr = raw.stderr[:m.start()].rstrip("\n")
    if not raw.hang:
        raw.rc = proc.returncode
        if "Traceback (most recent call last)" in raw.stderr:
            raw.error = raw.stderr[raw.stderr.index("Traceback (most recent call last)"):]
            raw.error_type = _last_exception_line(raw.error)[0]
            raw.location = text_location(raw.error)
        elif proc.returncode < 0:
            raw.error_type, raw.error = "Signal", f"killed by signal {-proc.returncode}"
    return raw


# ------------------------------------------------------------------ classification

def _fail(case: Case, raw: Raw, reason: str, location: str = "", detail: str = "") -> Outcome:
    return Outcome(case.entry, case.label, FAILURE, reason, location or raw.location, raw.rc,
                   detail or raw.error or (raw.stdout[-2000:] + "\n" + raw.stderr[-2000:]))


def _json_failure(case: Case, raw: Raw) -> Outcome | None:
    text = raw.stdout.strip()
    if not text:
        if raw.rc in case.json_codes:
            return _fail(case, raw, "json: no JSON printed", detail=raw.stderr[-2000:])
        return None
    try:
        json.loads(text)
    except ValueError as exc:
        return _fail(case, raw, f"json: output does not parse ({exc})", detail=text[:2000])
    return None


_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _line_count(path: Path) -> int:
    """Lines as YAML counts them (CR LF, CR, LF, NEL, LS, PS break lines); a last line without a break counts."""
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return 0
    breaks = _BREAKS.findall(text)
    return len(breaks) + (0 if not text or _BREAKS.fullmatch(text[-1:]) or text.endswith("\r\n") else 1)


def _lines_failure(case: Case, raw: Raw, ws: Workspace) -> Outcome | None:
    """Diagnostics about the input (a file, or every file of a folder) must point at a line that exists
    (issue 18 item 9)."""
    if case.check_lines is None:
        return None
    try:
        diags = json.loads(raw.stdout).get("diagnostics", [])
    except (ValueError, AttributeError):
        return None
    scope = os.path.normpath(ws.path(case.check_lines))
    limits: dict[str, int] = {}  # file as displayed -> its line count (0: not a checked file)
    for d in diags:
        line = d.get("line") if isinstance(d, dict) else None
        shown = d.get("file") if isinstance(d, dict) else None
        if not isinstance(line, int) or not isinstance(shown, str):
            continue
        if shown not in limits:
            path = os.path.normpath(shown if os.path.isabs(shown) else os.path.join(ws.cwd, shown))
            inside = path == scope or path.startswith(scope + os.sep)
            limits[shown] = max(1, _line_count(Path(path))) if inside and not os.path.islink(path) and \
                os.path.isfile(path) else 0
        limit = limits[shown]
        path = Path(shown)
        if limit and line > limit:
            return _fail(case, raw, f"diagnostic past the end of the file: line {line} of {limit} "
                                    f"({d.get('code')})", location=str(d.get("code")),
                         detail=f"{path.name}: " + json.dumps(d))
    return None


_INTERNAL = re.compile(r"internal\.[a-z.-]+")


def _internal_failure(case: Case, raw: Raw) -> Outcome | None:
    """A validation check that crashed is reported as ``internal.check-failed``: a bug, whatever the exit code."""
    text = raw.stdout + raw.stderr
    m = _INTERNAL.search(text)
    if not m:
        return None
    check = re.search(r"check (\S+) failed: (\w+)", text)
    reason = f"crashed check {m.group(0)}" + (f": {check.group(2)}" if check else "")
    at = check.start() if check else m.start()
    return _fail(case, raw, reason, location=check.group(1) if check else m.group(0),
                 detail=text[max(0, at - 300):at + 700])


def _engine_failure(case: Case, raw: Raw) -> Outcome | None:
    text = raw.stderr + raw.stdout
    if "engine error" not in text:
        return None
    at = text.index("engine error")
    end = text.find("engine error", at + 12)
    snippet = text[at:end if end > 0 else at + 6000][:6000]
    kind, last = _last_exception_line(snippet.split("\n", 1)[1] if "\n" in snippet else snippet)
    return _fail(case, raw, f"engine error: {kind}", location=text_location(snippet), detail=snippet)


def classify_cli(case: Case, raw: Raw, ws: Workspace) -> Outcome:
    if raw.hang:
        return _fail(case, raw, "hang: " + raw.error)
    if raw.error:
        return _fail(case, raw, f"traceback: {raw.error_type}")
    if raw.max_rss > ISOLATED_RSS_LIMIT:
        return _fail(case, raw, f"memory: peak {raw.max_rss // 2 ** 20} MB (limit {ISOLATED_RSS_LIMIT // 2 ** 20} MB)")
    for check in (_engine_failure, _internal_failure):
        found = check(case, raw)
        if found:
            return found
    if "Traceback (most recent call last)" in raw.stdout + raw.stderr:
        text = raw.stdout + raw.stderr
        tb = text[text.index("Traceback (most recent call last)"):]
        return _fail(case, raw, f"printed traceback: {_last_exception_line(tb)[0]}", location=text_location(tb),
                     detail=tb[-4000:])
    if case.json_out:
        found = _json_failure(case, raw)
        if found:
            return found
        found = _lines_failure(case, raw, ws)
        if found:
            return found
    if raw.rc == 0:
        return Outcome(case.entry, case.label, OK, rc=0)
    if raw.rc == 1:
        if case.expect_findings and not (raw.stdout.strip() or raw.stderr.strip()):
            return _fail(case, raw, "exit 1 without any finding printed")
        return Outcome(case.entry, case.label, DIAGNOSTIC, rc=1)
    if raw.rc == 2:
        if not raw.stderr.strip() and not raw.stdout.strip():
            return _fail(case, raw, "exit 2 without a message")
        return Outcome(case.entry, case.label, REFUSAL, rc=2)
    return _fail(case, raw, f"exit code {raw.rc}")


def classify_call(case: Case, raw: Raw, ws: Workspace) -> Outcome:
    """API entry points: ``call`` returns an outcome kind (ok/diagnostic/refusal) or raises."""
    if raw.hang:
        return _fail(case, raw, "hang: " + raw.error)
    if raw.error:
        return _fail(case, raw, f"exception: {raw.error_type}")
    if "Traceback (most recent call last)" in raw.stdout + raw.stderr:
        text = raw.stdout + raw.stderr
        return _fail(case, raw, "printed traceback", location=text_location(text))
    value = raw.value
    if isinstance(value, Outcome):
        return value
    if value in (OK, DIAGNOSTIC, REFUSAL):
        return Outcome(case.entry, case.label, value)
    if isinstance(value, tuple) and value and value[0] == FAILURE:
        return _fail(case, raw, value[1], location=value[2] if len(value) > 2 else "",
                     detail=value[3] if len(value) > 3 else "")
    return _fail(case, raw, f"unexpected result {value!r:.200}")


# ------------------------------------------------------------------ the runner

class Runner:
    """Runs cases in one workspace, counts outcomes per entry point, saves a reproducer per failure."""

    def __init__(self, workspace: Workspace, findings: Path):
        self.ws = workspace
        self.findings = Path(findings)
        if self.findings.resolve().parent == workspace.base.resolve().parent:
            raise ValueError("keep the findings folder away from the workspace's parent (it is watched)")
        self.counts: dict[str, Counter] = {}
        self.failures: list[Outcome] = []
        self.seen: dict[tuple, Outcome] = {}
        self.repeats: Counter = Counter()

    def run(self, case: Case, count: bool = True) -> Outcome:
        """Run one case (restoring the workspace after it); ``count=False`` for probes while shrinking."""
        ws = self.ws
        try:
            ws.install(case)
            protected = {rel: ws.path(rel).read_bytes() for rel, c in case.files.items()
                         if isinstance(c, bytes) and not allowed_output(rel, case.outputs)}
            before = ws.installed_snapshot(case)
            outcome = self._execute(case)
            outcome = self._check_writes(case, before, protected) or outcome
        finally:
            ws.restore()
        if count:
            self._count(case, outcome)
        return outcome

    def run_chain(self, cases: list[Case], count: bool = True) -> list[Outcome]:
        """Run cases in order; a case with ``then`` runs those only when it is ``ok`` (validated clean -> play)."""
        out: list[Outcome] = []
        for case in cases:
            outcome = self.run(case, count)
            out.append(outcome)
            if case.then and outcome.kind == OK:
                out += self.run_chain(case.then, count)
        return out

    def is_new(self, outcome: Outcome) -> bool:
        """A failure whose signature was first seen by the last run (worth shrinking)."""
        return outcome.kind == FAILURE and self.repeats[outcome.signature] == 1

    def _execute(self, case: Case) -> Outcome:
        ws = self.ws
        timeout = case.timeout or (ISOLATED_TIMEOUT if case.isolate else CASE_TIMEOUT)
        if case.argv is not None:
            argv = ws.expand(case.argv)
            if case.isolate:
                raw = run_subprocess(argv, ws.cwd, timeout)
            else:
                from studio.cli.main import main

                with ws.active():
                    raw = run_in_process(lambda: main(argv), timeout)
            custom = case.classify(case, raw) if case.classify else None
            return custom or classify_cli(case, raw, ws)
        assert case.call is not None, "a case needs argv or call"
        with ws.active():
            raw = run_in_process(lambda: case.call(ws), timeout)
        return classify_call(case, raw, ws)

    def _check_writes(self, case: Case, before: dict, protected: dict[str, bytes]) -> Outcome | None:
        ws = self.ws
        after = snapshot_tree(ws.base)
        changed = [p for p in diff(before, after) if not allowed_output(p, case.outputs)]
        for rel, data in protected.items():
            try:
                now = ws.path(rel).read_bytes()
            except OSError:
                now = None
            if now != data:
                return Outcome(case.entry, case.label, FAILURE, f"changed input file {rel}", rel)
        changed = [p for p in changed if not (p in before and before[p][0] == "dir" and after.get(p) == ("dir",))]
        outside = ws.outside_changes()
        if outside:
            # re-take the reference so that one bad case does not fail every later one
            ws.parent_listing = snapshot_listing(ws.base.parent, skip={ws.base.name})
            return Outcome(case.entry, case.label, FAILURE, "write outside the workspace", outside[0],
                           detail="\n".join(outside[:20]))
        if changed:
            return Outcome(case.entry, case.label, FAILURE, "unexpected write", changed[0],
                           detail="\n".join(changed[:20]))
        return None

    def _count(self, case: Case, outcome: Outcome) -> None:
        counter = self.counts.setdefault(case.entry, Counter())
        counter["cases"] += 1
        counter[outcome.kind] += 1
        if outcome.kind != FAILURE:
            return
        self.failures.append(outcome)
        key = outcome.signature
        self.repeats[key] += 1
        known = self.seen.get(key)
        size = _case_size(case)
        if known is None or size < getattr(known, "_size", 1 << 62):
            if known is not None:
                outcome.reproducer = known.reproducer
            outcome.reproducer = self.save(case, outcome, outcome.reproducer)
            outcome._size = size  # type: ignore[attr-defined]
            self.seen[key] = outcome

    def replace_reproducer(self, case: Case, outcome: Outcome, description: str) -> None:
        """After shrinking: the reproducer of ``outcome``'s signature becomes ``case`` (labelled ``description``)."""
        known = self.seen.get(outcome.signature)
        if known is None:
            return
        case.label = description
        known.label = description
        known.reproducer = self.save(case, outcome, known.reproducer)
        known._size = _case_size(case)  # type: ignore[attr-defined]

    def save(self, case: Case, outcome: Outcome, folder: Path | None = None) -> Path:
        """Write the case's inputs and a README (command, reason, traceback) into a findings folder."""
        if folder is None:
            folder = self.findings / f"{len(self.seen) + 1:03d}-{_slug(case.entry)}-{_slug(outcome.reason)[:40]}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for rel, content in case.files.items():
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.with_name(target.name + ".special").write_text(repr(content) + "\n")
        how = " ".join(case.argv) if case.argv is not None else getattr(case.call, "__doc__", None) or \
            getattr(case.call, "__name__", "call")
        (folder / "README.txt").write_text(
            f"entry: {case.entry}\ninput: {case.label}\nrun: {how}\n(paths: project/ = a copy of data/ with "
            f"these files over it; inputs/ = the inputs folder)\nreason: {outcome.reason}\nlocation: "
            f"{outcome.location}\n\n{outcome.detail}\n", encoding="utf-8")
        return folder

    # ---------------------------------------------------------------- reporting
    def totals(self) -> Counter:
        total: Counter = Counter()
        for c in self.counts.values():
            total.update(c)
        return total

    def table(self) -> str:
        rows = [("entry point", "cases", OK, "diagnostics", "refusals", "failures")]
        for entry in sorted(self.counts):
            c = self.counts[entry]
            rows.append((entry, c["cases"], c[OK], c[DIAGNOSTIC], c[REFUSAL], c[FAILURE]))
        t = self.totals()
        rows.append(("TOTAL", t["cases"], t[OK], t[DIAGNOSTIC], t[REFUSAL], t[FAILURE]))
        widths = [max(len(str(r[i])) for r in rows) for i in range(6)]
        lines = []
        for n, r in enumerate(rows):
            lines.append("  ".join(str(v).ljust(widths[i]) if i == 0 else str(v).rjust(widths[i])
                                   for i, v in enumerate(r)))
            if n == 0 or n == len(rows) - 2:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)

    def failure_report(self) -> str:
        lines = []
        for key, first in sorted(self.seen.items()):
            lines.append(f"- [{self.repeats[key]}x] {first.entry}: {first.reason} at {first.location or '?'}\n"
                         f"    input: {first.label}\n    reproducer: {first.reproducer}")
        return "\n".join(lines)


def allowed_output(rel: str, outputs: tuple[str, ...]) -> bool:
    """``rel`` is one of the case's outputs (glob patterns) or inside one of them."""
    return any(fnmatch.fnmatchcase(rel, pat) or rel.startswith(pat + os.sep) for pat in outputs)


def _case_size(case: Case) -> int:
    return sum(len(c) if isinstance(c, bytes) else 0 for c in case.files.values())


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


# ------------------------------------------------------------------ entry points

def validate_cases(rel: str, label: str, files: dict[str, Content], isolate: bool = False,
                   entries: tuple[str, ...] = ("validate", "validate-json", "format-check")) -> list[Case]:
    """The CLI checks of one document: ``validate``, ``validate --format json``, ``format --check``."""
    target = "{base}/" + rel
    make = {
        "validate": lambda: Case("validate", label, files, ["validate", target], isolate=isolate),
        "validate-json": lambda: Case("validate-json", label, files, ["validate", "--format", "json", target],
                                      isolate=isolate, json_out=True, check_lines=rel),
        # format --check of a folder does not name the file; of an invalid file it says "invalid": findings
        "format-check": lambda: Case("format-check", label, files, ["format", "--check", target], isolate=isolate),
    }
    return [make[e]() for e in entries]


def project_validate_case(label: str, files: dict[str, Content], isolate: bool = False) -> Case:
    """``validate --format json PROJECT``: the whole project, used as the gate before playing."""
    return Case("validate-json", label, files, ["validate", "--format", "json", "{project}"], isolate=isolate,
                json_out=True)


def play_case(label: str, files: dict[str, Content], scenario_rel: str, isolate: bool = False) -> Case:
    return Case("play", label, files, ["play", "{base}/" + scenario_rel, "--games", "2", "--seed", "7",
                                       "--project", "{project}", "--format", "json"], isolate=isolate,
                json_out=True)


def map_info_case(label: str, files: dict[str, Content], doc_rel: str) -> Case:
    """``studio map info --format json`` of a map or scenario file (board assembly, terrain catalogue); an
    unusable document is a message on stderr with exit 1 (no JSON), by the command's contract."""
    return Case("map-info", label, files, ["map", "info", "{base}/" + doc_rel, "--project", "{project}",
                                           "--format", "json"], json_out=True, json_codes=(0,))


def play_from_case(label: str, files: dict[str, Content], position_rel: str) -> Case:
    return Case("play-from", label, files, ["play", "--from", "{base}/" + position_rel, "--games", "2", "--seed",
                                            "7", "--project", "{project}", "--format", "json"], json_out=True)


def import_case(label: str, files: dict[str, Content], source_rel: str, ruleset: str = "mbt",
                isolate: bool = False) -> Case:
    out = "project/maps/fuzz-imported.yaml"
    return Case("map-import", label, files, ["map", "import", "{base}/" + source_rel, "--ruleset", ruleset,
                                             "{base}/" + out, "--project", "{project}"],
                outputs=(out,), isolate=isolate)


def tiled_api_case(label: str, files: dict[str, Content], source_rel: str, ruleset: str = "mbt") -> Case:
    """``studio.export.tiled.import_tiled`` alone (no project load: the fast slice); TiledError is a refusal."""
    def import_call(ws: Workspace):
        """studio.export.tiled.import_tiled(IN.tmj, RULESET)"""
        from studio.export.tiled import TiledError, import_tiled
        from studio.model.save import document_text

        try:
            model = import_tiled(ws.path(source_rel), ruleset)
        except TiledError as exc:
            return REFUSAL if str(exc).strip() else (FAILURE, "TiledError without a message")
        document_text(model, ws.project / "maps" / "fuzz-imported.yaml", None)  # what the CLI would save
        return OK

    return Case("tiled-import-api", label, files, call=import_call)


def _replay_engine_error(case: Case, raw: Raw) -> Outcome | None:
    """``studio replay`` reports an engine exception as status ``engine-error`` (exit 1): still a failure."""
    try:
        status = json.loads(raw.stdout)
    except ValueError:
        return None
    if isinstance(status, dict) and status.get("status") == "engine-error":
        message = str(status.get("message", ""))
        kind = re.search(r": (\w+(?:Error|Exception)\w*):", message)
        return _fail(case, raw, f"engine error: {kind.group(1) if kind else 'engine-error'}",
                     location="studio/rules/replay.py verify", detail=message[:3000])
    return None


def replay_cli_case(label: str, files: dict[str, Content], replay_rel: str, isolate: bool = False) -> Case:
    return Case("replay", label, files, ["replay", "{base}/" + replay_rel, "--project", "{project}",
                                         "--format", "json"], isolate=isolate, json_out=True, expect_findings=False,
                classify=_replay_engine_error)


def replay_verify_case(label: str, files: dict[str, Content], replay_rel: str) -> Case:
    def verify_call(ws: Workspace):
        """studio.rules.replay.verify(FILE, PROJECT)"""
        from studio.rules.replay import STATUSES, ReplayCheck, verify

        check = verify(ws.path(replay_rel), ws.project)
        if not isinstance(check, ReplayCheck) or check.status not in STATUSES:
            return (FAILURE, f"verify returned {check!r:.100}")
        json.dumps(check.to_json())  # the JSON form must be serialisable
        if check.status == "engine-error":
            return (FAILURE, f"engine error: {_exception_name(check.message)}", "studio/rules/replay.py verify",
                    check.message)
        return OK if check.ok else (REFUSAL if check.status == "unreadable" else DIAGNOSTIC)

    return Case("replay-verify", label, files, call=verify_call)


def session_case(label: str, files: dict[str, Content], doc_rel: str) -> Case:
    def open_call(ws: Workspace):
        """ProjectSession(PROJECT); entries(); open_document(DOC); validate()"""
        from studio.document.session import CannotOpen, ProjectSession

        session = ProjectSession(ws.project)
        session.entries()
        try:
            doc = session.open_document(ws.path(doc_rel))
        except CannotOpen as exc:
            return REFUSAL if exc.diagnostics else (FAILURE, "CannotOpen without diagnostics")
        doc.model  # noqa: B018 - building the model must not raise
        doc.text()
        result = session.validate()
        return DIAGNOSTIC if result.errors else OK

    return Case("session-open", label, files, call=open_call)


def recovery_case(label: str, files: dict[str, Content], mtimes: dict[str, float] | None = None,
                  outputs: tuple[str, ...] = ()) -> Case:
    def recover_call(ws: Workspace):
        """ProjectSession(PROJECT).recoverable(); recover(each)"""
        from studio.document.session import CannotOpen, ProjectSession

        sides = {rel: ws.path(rel).read_bytes() for rel in files if rel.endswith(".autosave")
                 and ws.path(rel).is_file()}
        session = ProjectSession(ws.project)
        session.entries()
        if hasattr(session, "autosaves"):
            session.autosaves()
        found = session.recoverable()
        refused = 0
        for path in found:
            try:
                doc = session.recover(path)
            except CannotOpen:
                refused += 1
                continue
            doc.model  # noqa: B018
            doc.text()
        session.validate()
        for rel, data in sides.items():  # an unusable autosave may be moved aside, never lost or changed
            side = ws.path(rel)
            kept = [p for p in side.parent.glob(side.name + ".bad*") if p.is_file()]
            if not (side.is_file() and side.read_bytes() == data) and not any(p.read_bytes() == data for p in kept):
                return (FAILURE, f"autosave {rel} lost or changed", rel)
        return REFUSAL if refused else (DIAGNOSTIC if found else OK)

    outputs = outputs + tuple(f"{rel}*" for rel in files if rel.endswith(".autosave"))
    return Case("recovery", label, files, call=recover_call, mtimes=mtimes or {}, outputs=outputs)


def window_recovery_case(label: str, files: dict[str, Content], mtimes: dict[str, float] | None = None,
                         outputs: tuple[str, ...] = ()) -> Case:
    """The window at start-up: ``QtMainWindow(session).offer_recovery()`` answering yes to every question; the
    window must come up, recover or report, and print no traceback (it catches and prints them)."""
    def window_call(ws: Workspace):
        """QtMainWindow(ProjectSession(PROJECT)).offer_recovery() (offscreen, answering yes)"""
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication

        from studio.document.session import ProjectSession
        from studio.qt.main_window import QtMainWindow

        app = QApplication.instance() or QApplication([])
        settings = QSettings(str(ws.cwd / "settings.ini"), QSettings.Format.IniFormat)
        window = QtMainWindow(ProjectSession(ws.project), settings, live_validation=False)
        try:
            window._autosave_timer.stop()
            window.ask_yes_no = lambda title, text: True
            window.ask_save = lambda name: "discard"
            window.tell = lambda *args, **kw: None
            restored = window.offer_recovery()
            app.processEvents()
        finally:
            window.close()
            window.deleteLater()
            app.processEvents()
        return OK if restored else DIAGNOSTIC

    outputs = outputs + ("cwd/settings.ini*",) + tuple(f"{rel}*" for rel in files if rel.endswith(".autosave"))
    return Case("recovery-window", label, files, call=window_call, mtimes=mtimes or {}, outputs=outputs)


# ------------------------------------------------------------------ sample documents

KIND_DIRS = {"project": "project.yaml", "ruleset-mbt": "rulesets/mbt/ruleset.yaml",
             "ruleset-waw": "rulesets/waw/ruleset.yaml"}
NEW_FILE_DIRS = {"unit": "units/mbt", "toe": "toe/mbt", "map": "maps", "scenario": "scenarios/mbt",
                 "layout": "layouts"}


def sample_documents() -> dict[str, list[str]]:
    """Project-relative paths of the sample documents, by kind (read from data/, never written)."""
    kinds: dict[str, list[str]] = {}
    for path in sorted(DATA.rglob("*.yaml")):
        rel = str(path.relative_to(DATA))
        top = rel.split("/")[0]
        kind = {"units": "unit", "toe": "toe", "maps": "map", "scenarios": "scenario", "layouts": "layout",
                "rulesets": "ruleset", "project.yaml": "project"}.get(top)
        if kind:
            kinds.setdefault(kind, []).append(rel)
    return kinds


def ruleset_of(rel: str) -> str:
    """The rule system of a sample document path: its folder under rulesets/, scenarios/, units/ or toe/."""
    parts = Path(rel).parts
    for top in ("rulesets", "scenarios", "units", "toe"):
        if top in parts and parts.index(top) + 1 < len(parts) - 1:
            return parts[parts.index(top) + 1]
    return "waw" if "waw-" in rel else "mbt"
