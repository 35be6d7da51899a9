"""Kill-test writers: a zygote process that prepares one writer, then forks a child per kill that writes the target
in a loop until the test SIGKILLs it.

Run as ``python killhelpers.py WRITER FOLDER``. Protocol on stdin/stdout, one line each: the zygote prints
``ready``; for every ``go`` line it forks a writer child and prints its pid; for every ``reap`` line it waits for
that child and prints ``dead <signal>``; ``quit`` ends it. Forking keeps the imports (Qt for the PDF writer) out of
each kill's cost, so hundreds of kills per writer take seconds, and the child runs exactly the studio's code.

``WRITERS[name](folder)`` returns a :class:`Writer`: the target path, a ``step(i)`` that writes once, and
``accept(bytes) -> str``: the name of the state the bytes are in (``old``/``new``/...) or ``""`` when torn.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


@dataclass
class Writer:
    target: Path
    step: Callable[[int], None]
    accept: Callable[[bytes], str]


def _alternating(target: Path, contents: dict[str, bytes], write: Callable[[int], None]) -> Writer:
    by_bytes = {v: k for k, v in contents.items()}
    return Writer(target, write, lambda raw: by_bytes.get(raw, ""))


def atomic(folder: Path) -> Writer:
    """The bare writer with big payloads, so kills land inside the write."""
    from studio.model.safeio import write_atomic

    target = folder / "big.yaml"
    payloads = {"old": b"a: 1\n" * 60_000, "new": "b: é\n".encode() * 50_000}
    write_atomic(target, payloads["old"])
    order = [payloads["new"], payloads["old"]]
    return _alternating(target, payloads, lambda i: write_atomic(target, order[i % 2], root=folder))


def _project(folder: Path) -> Path:
    """A copy of the fixture project in ``folder``."""
    import shutil

    project = folder / "project"
    if not project.exists():
        shutil.copytree(REPO / "tests" / "fixtures" / "project", project)
    return project


def save(folder: Path) -> Writer:
    """Document save (studio.model.save.save_document), alternating two valid cards."""
    from studio.model.project import load_document
    from studio.model.save import document_text, save_document

    project = _project(folder)
    target = project / "units" / "tank.yaml"
    model = load_document(target).model
    models = [model.model_copy(update={"name": "Tank " + "x" * 5000}), model]
    texts = {"new": document_text(models[0], target).encode(), "old": document_text(models[1], target).encode()}
    save_document(models[1], target)
    return _alternating(target, texts, lambda i: save_document(models[i % 2], target, root=project))


def format_(folder: Path) -> Writer:
    """``studio format``: the file is reset to a valid non-canonical text, then formatted, again and again."""
    import argparse

    from studio.cli.commands import format as fmt
    from studio.model.project import load_document
    from studio.model.safeio import write_atomic
    from studio.model.save import document_text

    project = _project(folder)
    target = project / "units" / "truck.yaml"
    canonical = document_text(load_document(target).model, target).encode()
    loose = canonical.replace(b"kind: unit\n", b"kind:    unit\n") + b"\n# " + b"x" * 100_000 + b"\n"
    write_atomic(target, loose)
    args = argparse.Namespace(paths=[str(target)], check=False)

    def step(i: int) -> None:
        if i % 2:
            fmt.run(args)
        else:
            write_atomic(target, loose, root=project)

    return _alternating(target, {"old": loose, "new": canonical}, step)


def print_(folder: Path) -> Writer:
    """``studio print -o``'s writer (printing.output.write_pdf) on the sample project's calibration page."""
    from studio.model.project import load_project
    from studio.printing.jobs import build_pages, project_defaults
    from studio.printing.output import write_pdf
    from studio.printing.render import ensure_app, text_height_mm

    ensure_app()
    index = load_project(REPO / "data")
    pages = build_pages(index, project_defaults(index, "calibration"), text_height_mm) * 3
    target = folder / "out.pdf"
    target.write_bytes(b"old")

    def accept(raw: bytes) -> str:
        if raw == b"old":
            return "old"
        return "new" if raw.startswith(b"%PDF-") and raw.rstrip().endswith(b"%%EOF") and b"/MediaBox" in raw else ""

    return Writer(target, lambda i: write_pdf(pages, target), accept)


def replay(folder: Path) -> Writer:
    from studio.rules.replay import make_replay, write_replay

    def one(n: int) -> dict:
        return make_replay(scenario="s", scenario_file="s.yaml", scenario_hash="h", ruleset="r", ruleset_version="1",
                           seed=n, actions=["pass"] * 20_000, final_hash="f")

    target = folder / "g.replay.json"
    replays = [one(1), one(2)]
    texts = {"old": (json.dumps(replays[0], indent=1) + "\n").encode(),
             "new": (json.dumps(replays[1], indent=1) + "\n").encode()}
    write_replay(target, replays[0])
    return _alternating(target, texts, lambda i: write_replay(target, replays[(i + 1) % 2], root=folder))


def balance(folder: Path) -> Writer:
    """``studio play --write-balance``'s writer, beside a scenario of a project."""
    from studio.cli.commands.play import balance_path, write_balance

    project = _project(folder)
    scenario = project / "scenarios" / "clash.yaml"
    reports = [{"games": 1, "wins": [1, 0], "pad": "x" * 200_000}, {"games": 2, "wins": [1, 1], "pad": "y" * 200_000}]
    texts = {"old": (json.dumps(reports[0], indent=2) + "\n").encode(),
             "new": (json.dumps(reports[1], indent=2) + "\n").encode()}
    write_balance(scenario, reports[0])
    return _alternating(balance_path(scenario), texts, lambda i: write_balance(scenario, reports[(i + 1) % 2]))


def _tiled_variants(folder: Path) -> tuple[Path, list, object]:
    """The fixture project's board in two versions (names differ), and its ruleset."""
    from studio.model.project import load_project

    project = _project(folder)
    index = load_project(project)
    board = next(d.model for d in index.of_kind("map"))
    ruleset = index.model("ruleset", board.ruleset)
    return project, [board.model_copy(update={"name": "Board " + "x" * 3000}), board], ruleset


def _recorded(target: Path, steps: list[Callable[[], None]]) -> dict[str, bytes]:
    """Run each step once and record the target's bytes after it ("new" for the first, "old" for the second)."""
    out = {}
    for name, step in zip(("new", "old"), steps):
        step()
        out[name] = target.read_bytes()
    return out


def export(folder: Path) -> Writer:
    """``studio map export --to tiled``'s writer (studio.export.tiled.export_tiled)."""
    from studio.export.tiled import export_tiled

    _, boards, ruleset = _tiled_variants(folder)
    target = folder / "board.tmj"
    steps = [lambda b=b: export_tiled(b, ruleset, target) for b in boards]
    return _alternating(target, _recorded(target, steps), lambda i: steps[i % 2]())


def import_(folder: Path) -> Writer:
    """``studio map import``: the CLI command itself, importing two Tiled files in turn over one map document."""
    import argparse

    from studio.cli.commands.map import run_import
    from studio.export.tiled import export_tiled

    project, boards, ruleset = _tiled_variants(folder)
    target = project / "maps" / "imported.yaml"
    sources = [folder / "a.tmj", folder / "b.tmj"]
    for board, source in zip(boards, sources):
        export_tiled(board, ruleset, source)
    args = [argparse.Namespace(source=str(s), out=str(target), force=True, ruleset=ruleset.id, map_id="imported",
                               map_project=str(project)) for s in sources]
    steps = [lambda a=a: run_import(a) for a in args]
    return _alternating(target, _recorded(target, steps), lambda i: steps[i % 2]())


def _editable_pair(folder: Path):
    """Two open editor documents of the fixture's tank card (names differ), rooted at the project."""
    from studio.document.document import EditableDocument

    project = _project(folder)
    target = project / "units" / "tank.yaml"
    docs = [EditableDocument.open(target, root=project) for _ in range(2)]
    docs[0].data["name"] = "Tank " + "x" * 5000
    for doc in docs:
        doc.mark_dirty()
    return target, docs


def window_save(folder: Path) -> Writer:
    """The window's save (studio.document.document.EditableDocument.save)."""
    target, docs = _editable_pair(folder)
    steps = [docs[0].save, docs[1].save]
    return _alternating(target, _recorded(target, steps), lambda i: steps[i % 2]())


def autosave(folder: Path) -> Writer:
    """The window's autosave side file (EditableDocument.autosave)."""
    from studio.document.document import autosave_path

    target, docs = _editable_pair(folder)
    side = autosave_path(target)
    steps = [docs[0].autosave, docs[1].autosave]
    return _alternating(side, _recorded(side, steps), lambda i: steps[i % 2]())


def naive(folder: Path) -> Writer:
    """A plain ``write_bytes`` writer: not one of the studio's; it proves the harness sees torn files."""
    target = folder / "naive.yaml"
    payloads = {"old": b"a: 1\n" * 200_000, "new": b"b: 2\n" * 200_000}
    target.write_bytes(payloads["old"])
    order = [payloads["new"], payloads["old"]]
    return _alternating(target, payloads, lambda i: target.write_bytes(order[i % 2]))


WRITERS: dict[str, Callable[[Path], Writer]] = {"atomic": atomic, "save": save, "format": format_, "print": print_,
                                                "replay": replay, "balance": balance, "export": export,
                                                "import": import_, "window-save": window_save, "autosave": autosave,
                                                "naive": naive}


def _child(writer: Writer) -> None:
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    i = 0
    try:
        while True:
            writer.step(i)
            i += 1
    finally:
        os._exit(3)  # only reached when a write raised: the test sees a non-SIGKILL death


def serve(name: str, folder: Path) -> None:
    import time

    out = os.fdopen(os.dup(1), "w")  # the protocol; what the writers print goes nowhere
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    writer = WRITERS[name](folder)
    started = time.perf_counter()
    for i in range(4):  # also proves the writer works before any kill
        writer.step(i)
    out.write(f"ready {(time.perf_counter() - started) / 4:.6f}\n")
    out.flush()
    pid = 0
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "go":
            out.flush()
            pid = os.fork()
            if pid == 0:
                _child(writer)
            out.write(f"{pid}\n")
        elif cmd == "reap":
            _, status = os.waitpid(pid, 0)
            out.write(f"dead {os.WTERMSIG(status) if os.WIFSIGNALED(status) else -os.WEXITSTATUS(status)}\n")
        elif cmd == "quit":
            return
        out.flush()


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    serve(sys.argv[1], Path(sys.argv[2]))
