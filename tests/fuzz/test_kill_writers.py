"""SIGKILL during every writer the studio owns (issue 18 item 8): the target is always the old or the new content,
never empty or torn, and the next start (listing the project) removes every temp file a kill left.

``pytest -m fuzz`` runs ``STUDIO_KILLS`` (default 100) kills per writer and prints the counts; the normal suite
runs a fast slice of the bare writer. The writers run in children forked by ``killhelpers.py`` (see there).
"""
from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from studio.model import safeio
from studio.model.project import project_files

HELPER = Path(__file__).with_name("killhelpers.py")
KILLS = int(os.environ.get("STUDIO_KILLS", "100"))
WRITERS = ["atomic", "save", "format", "print", "replay", "balance", "export", "import", "window-save", "autosave"]


class Zygote:
    """The helper process of one writer; each :meth:`kill` forks a writing child and SIGKILLs it."""

    def __init__(self, writer: str, folder: Path):
        self.folder = folder
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONHASHSEED": "0"}
        self.proc = subprocess.Popen([sys.executable, str(HELPER), writer, str(folder)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, cwd=str(folder))
        words = self._line(120).split()
        assert words and words[0] == "ready", f"kill helper for {writer} did not start: {words}"
        self.step_s = float(words[1])

    def _line(self, timeout: float) -> str:
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "kill helper did not answer"
        return self.proc.stdout.readline().strip()

    def _send(self, cmd: str) -> None:
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def kill(self, delay: float) -> int:
        """Start a writing child, SIGKILL it after ``delay`` seconds; returns the signal it died of."""
        self._send("go")
        pid = int(self._line(30))
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        self._send("reap")
        return int(self._line(30).split()[1])

    def close(self) -> None:
        if self.proc.poll() is None:
            self._send("quit")
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def temps_under(folder: Path) -> list[Path]:
    return [Path(d, n) for d, _, names in os.walk(folder) for n in names if safeio.is_temp_name(n)]


def kill_run(writer: str, folder: Path, kills: int, seed: int = 18) -> Counter:
    """``kills`` SIGKILLs at random moments of ``writer``; returns counts of the states the target was left in,
    ``torn`` (must stay 0), temps left before the next start and temps left after it."""
    sys.path.insert(0, str(HELPER.parent))
    from killhelpers import WRITERS as MAKERS  # noqa: PLC0415

    folder.mkdir(parents=True, exist_ok=True)
    # the same writer set up in this process knows the target and its accepted states (print: any whole PDF)
    check = MAKERS[writer](folder) if writer != "print" else None
    target = check.target if check else folder / "out.pdf"
    zygote = Zygote(writer, folder)
    counts: Counter = Counter()
    rng = random.Random(seed)
    try:
        for _ in range(kills):
            died = zygote.kill(rng.uniform(0.0, 3 * zygote.step_s + 0.002))
            counts["killed" if died == signal.SIGKILL else f"exit {died}"] += 1
            raw = target.read_bytes() if target.exists() else b""
            counts[_accept(check, raw) or "torn"] += 1
        counts["temps-left"] = len(temps_under(folder))
        old = time.time() - 60
        for tmp in temps_under(folder):  # "the next start": a while later, the project is listed again
            os.utime(tmp, (old, old))
        project_files(folder)
        counts["temps-after-start"] = len(temps_under(folder))
    finally:
        zygote.close()
    return counts


def _accept(check, raw: bytes) -> str:
    if check is not None:
        return check.accept(raw)
    if raw == b"old":
        return "old"
    return "new" if raw.startswith(b"%PDF-") and raw.rstrip().endswith(b"%%EOF") and b"/MediaBox" in raw else ""


def _assert_clean(counts: Counter, kills: int) -> None:
    assert counts["killed"] == kills, counts
    assert counts["torn"] == 0, counts
    assert counts["old"] + counts["new"] == kills, counts
    assert counts["temps-after-start"] == 0, counts


def test_kill_slice_of_the_atomic_writer(tmp_path):
    counts = kill_run("atomic", tmp_path / "atomic", 5)
    _assert_clean(counts, 5)


@pytest.mark.fuzz
@pytest.mark.parametrize("writer", WRITERS)
def test_kill_every_writer(tmp_path, writer, capsys):
    started = time.perf_counter()
    counts = kill_run(writer, tmp_path / writer, KILLS)
    with capsys.disabled():
        print(f"\nkill {writer}: {counts['killed']} kills, {counts['old']} old, {counts['new']} new, "
              f"{counts['torn']} torn, {counts['temps-left']} temp(s) left by kills, "
              f"{counts['temps-after-start']} after the next start ({time.perf_counter() - started:.1f} s)")
    _assert_clean(counts, KILLS)


@pytest.mark.fuzz
def test_the_harness_sees_a_torn_writer(tmp_path):
    counts = kill_run("naive", tmp_path / "naive", 30)
    assert counts["torn"] > 0, counts
