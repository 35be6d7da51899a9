"""Reading and parsing a project's files in a forked process while this one imports the models.

A ``studio validate`` process spends most of its start importing the document models (pydantic builds their
validators) and most of the rest parsing YAML; neither needs the other. :func:`start` forks a process that reads
and parses every file (:func:`read_raw`, the per-file stage of the pipeline, free of project context) and sends
the results back through a pipe (a large project is shared by one reader per core); :func:`take` collects them when the pipeline gets to its files. The results
are those :func:`read_raw` gives in this process: the same documents, the same findings. Nothing is forked
unless it pays: enough files, a second core that the machine leaves idle, and this process running one thread
(fork is only safe then). When anything fails the caller reads the files itself.

This module imports no model (its importer may be at the start of a process); the YAML reader is imported when
the first file is read.
"""
from __future__ import annotations

import os
import pickle
import threading
from array import array
from dataclasses import dataclass
from typing import Any

from . import safeio
from .idlists import local_duplicates

#: fewer files than this are read by the pipeline itself (the fork and the transfer would cost more)
MIN_FILES = 16
#: from this many files on, one reader per core (up to MAX_READERS) shares them (as the pipeline's own workers do)
MANY_FILES = 600
MAX_READERS = 4


def read_raw(path: str) -> tuple[str, Any, tuple | None, list, Any]:
    """The per-file stage, free of project context (it runs in forked processes): ``(text, data, problem, local
    duplicate ids, marks)``; ``problem`` is ``(code, message, line, column)`` or None; ``marks`` the positions
    the parse recorded (for the document's source map: no second parse)."""
    from . import yamlio

    try:
        raw = safeio.read_regular(path)
    except safeio.ReadRefused as exc:
        return "", None, (exc.code, exc.reason, 1, 1), [], None
    except OSError as exc:
        return "", None, ("file.unreadable", f"cannot read file: {exc.strerror}", 1, 1), [], None
    text = ""
    try:
        text = yamlio.decode(raw)
        marks = array("Q")
        data = yamlio.parse(text, marks)
        return text, data, None, local_duplicates(data), marks
    except yamlio.YamlProblem as problem:
        return text, None, (problem.code, problem.message, problem.line, problem.column), [], None


def idle_cores() -> float:
    """Cores the machine leaves idle: the core count less the 1-minute load average (this process included);
    every core when the system gives no load average."""
    cores = os.cpu_count() or 1
    try:
        return cores - os.getloadavg()[0]
    except (AttributeError, OSError):
        return float(cores)


@dataclass
class Prefetch:
    """Forked readers at work: each one's process id and the pipe its results come through."""

    readers: list[tuple[int, int]]


def start(files: list[str]) -> Prefetch | None:
    """Fork processes that read ``files`` (absolute paths) with :func:`read_raw`, when that pays (see the module
    docstring): one reader, or one per core (up to :data:`MAX_READERS`) for :data:`MANY_FILES` files or more;
    None when it does not pay (the caller reads the files itself)."""
    cores = os.cpu_count() or 1
    if (len(files) < MIN_FILES or not hasattr(os, "fork") or threading.active_count() != 1 or cores < 2
            or idle_cores() < 1.0):
        return None
    count = min(MAX_READERS, cores) if len(files) >= MANY_FILES else 1
    size = -(-len(files) // count)
    readers = []
    for first in range(0, len(files), size):
        reader = _fork_reader(files[first:first + size])
        if reader is None:
            break
        readers.append(reader)
    if len(readers) * size < len(files):  # a fork failed: none of it is used
        take(Prefetch(readers))
        return None
    return Prefetch(readers)


def _fork_reader(files: list[str]) -> tuple[int, int] | None:
    """``(pid, pipe)`` of a forked process that reads ``files`` and sends their parses; None if it cannot fork."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the reader: parse, send, and leave without running the parent's exit handlers
        status = 1
        try:
            os.close(read_end)
            payload = memoryview(pickle.dumps({f: read_raw(f) for f in files}, protocol=pickle.HIGHEST_PROTOCOL))
            while payload:
                payload = payload[os.write(write_end, payload):]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, read_end


def take(pending: Prefetch | None) -> dict[str, tuple] | None:
    """The results of ``pending`` by path (waiting for them), or None: nothing pending, or a reader failed.
    The payloads come from this process's own forks, never from a file (so unpickling them is safe)."""
    if pending is None:
        return None
    found: dict[str, tuple] | None = {}
    for pid, fd in pending.readers:
        part = _collect(pid, fd)
        if part is None or found is None:
            found = None
        else:
            found.update(part)
    return found


def _collect(pid: int, fd: int) -> dict[str, tuple] | None:
    """One reader's results (read to the end of its pipe, then the process reaped); None if it failed."""
    chunks: list[bytes] | None = []
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    except OSError:
        chunks = None
    finally:
        os.close(fd)
        _, status = os.waitpid(pid, 0)
    if chunks is None or os.waitstatus_to_exitcode(status) != 0:
        return None
    try:
        part = pickle.loads(b"".join(chunks))
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
        return None
    return part if isinstance(part, dict) else None
