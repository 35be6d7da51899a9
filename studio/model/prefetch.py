"""Reading and parsing a project's files in a forked process while this one imports the models.

A ``studio validate`` process spends most of its start importing the document models (pydantic builds their
validators) and most of the rest parsing YAML; neither needs the other. :func:`start` forks a process that reads
and parses every file (:func:`read_raw`, the per-file stage of the pipeline, free of project context) and sends
the results back through a pipe; :func:`take` collects them when the pipeline gets to its files. The results
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
    """A forked reader at work: its process id and the pipe its results come through."""

    pid: int
    fd: int


def start(files: list[str]) -> Prefetch | None:
    """Fork a process that reads ``files`` (absolute paths) with :func:`read_raw`, when that pays (see the module
    docstring); None when not (the caller reads the files itself)."""
    if (len(files) < MIN_FILES or not hasattr(os, "fork") or threading.active_count() != 1
            or (os.cpu_count() or 1) < 2 or idle_cores() < 1.0):
        return None
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
    return Prefetch(pid, read_end)


def take(pending: Prefetch | None) -> dict[str, tuple] | None:
    """The results of ``pending`` by path (waiting for them), or None: nothing pending, or the reader failed.
    The payload comes from this process's own fork, never from a file (so unpickling it is safe)."""
    if pending is None:
        return None
    chunks = []
    try:
        while chunk := os.read(pending.fd, 1 << 20):
            chunks.append(chunk)
    except OSError:
        chunks = None
    finally:
        os.close(pending.fd)
        _, status = os.waitpid(pending.pid, 0)
    if chunks is None or os.waitstatus_to_exitcode(status) != 0:
        return None
    try:
        found = pickle.loads(b"".join(chunks))
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
        return None
    return found if isinstance(found, dict) else None
