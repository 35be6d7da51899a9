"""Entry point of the window: ``run(project, screenshot=None, open_doc=None) -> exit code``.

Screenshot mode (``studio --screenshot OUT.png [--open DOC_ID]``) renders offscreen when no display is
available, opens the project (and document), lets the window lay itself out, saves ``widget.grab()`` as PNG
(atomically, never through a symlink) and returns 0 (2 when the project or document cannot be found or the PNG
cannot be written). A document that does not parse opens in the raw-text editor, as in the window. It never
offers recovery and never writes autosave files. ``--open testplay:SCENARIO_ID`` shows the Test-play panel after a
20-game run of that scenario, with the first replay opened and stepped a few phases in; ``--open
DOC_ID#/json/pointer`` opens the document at that field or hex (as a double-click in the Problems panel does);
``--open units:RULESET`` shows the unit table; ``--open replay:SCENARIO_ID`` plays a few seeded games and opens
the first replay that lost a unit, at that loss (``replay:FILE`` opens a replay file). ``STUDIO_WINDOW_SIZE=WxH``
sets the window size (default 1440x900; the docs use 1366x768).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


#: system libraries Qt's X11 (xcb) platform plugin loads; Debian/Ubuntu package names
XCB_LIBRARIES = {"xcb-cursor": "libxcb-cursor0", "xcb-icccm": "libxcb-icccm4", "xcb-keysyms": "libxcb-keysyms1"}


def missing_xcb_libraries(find=None) -> list[str]:
    """Packages of the X11 libraries Qt needs that this system lacks (``find(name)`` is
    ``ctypes.util.find_library`` unless given)."""
    if find is None:
        from ctypes.util import find_library as find
    return [package for lib, package in XCB_LIBRARIES.items() if not find(lib)]


def uses_xcb(environ=None) -> bool:
    """Whether Qt will use its X11 plugin: a Linux desktop with ``DISPLAY`` and no other platform chosen."""
    env = os.environ if environ is None else environ
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    return sys.platform.startswith("linux") and bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY")


def xcb_problem(environ=None, find=None) -> str:
    """The start-up message naming the missing X11 libraries (empty when nothing is missing)."""
    if not uses_xcb(environ):
        return ""
    missing = missing_xcb_libraries(find)
    if not missing:
        return ""
    return (f"studio: the window cannot start: Qt's X11 support needs {', '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed.\n"
            f"Install {'it' if len(missing) == 1 else 'them'} with:  sudo apt-get install {' '.join(missing)}\n"
            "(The command-line tools work without them; 'studio --screenshot' renders offscreen.)")


def _ensure_platform(screenshot: bool) -> None:
    if screenshot and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def application():
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("Studio")
        app.setOrganizationName("studio")
    return app


def settle(app, rounds: int = 5) -> None:
    """Process pending events (layout, first paint) a few times."""
    for _ in range(rounds):
        app.processEvents()


def run(project: str, screenshot: str | None = None, open_doc: str | None = None, size=(1440, 900)) -> int:
    _ensure_platform(screenshot is not None)
    root = Path(project)
    if not (root / "project.yaml").is_file():
        print(f"studio: {root} is not a project folder (no project.yaml)", file=sys.stderr)
        return 2
    problem = "" if screenshot is not None else xcb_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    app = application()
    from studio.document.session import ProjectSession

    from .main_window import QtMainWindow
    session = ProjectSession(root)
    window = QtMainWindow(session, live_validation=screenshot is None)
    if screenshot is not None:
        window.validate_now()
    if screenshot is not None:
        window.autosave_ms = 0
        window._autosave_timer.stop()
    size = _size_from_env(size)
    window.resize(*size)
    dock_height = 170 if size[1] >= 850 else 130
    if open_doc and open_doc.startswith("testplay:"):
        dock_height = 470
        if not show_testplay(app, window, open_doc.split(":", 1)[1]):
            print(f"studio: cannot test-play '{open_doc}'", file=sys.stderr)
            return 2
    elif open_doc and open_doc.startswith("units:"):
        window.open_unit_table(open_doc.split(":", 1)[1] or None)
    elif open_doc and open_doc.startswith("replay:"):
        if not show_replay(app, window, open_doc.split(":", 1)[1]):
            print(f"studio: cannot open '{open_doc}'", file=sys.stderr)
            return 2
    elif open_doc:
        doc_id, _, pointer = open_doc.partition("#")
        editor = window.open_id(doc_id)
        if editor is None and not _opened_raw(window, doc_id):
            print(f"studio: no document '{doc_id}' in {root}", file=sys.stderr)
            if screenshot is not None:
                return 2
        elif editor is not None and pointer:
            window.show()
            settle(app)
            editor.focus_pointer(pointer)
    window.show()
    if screenshot is not None:
        return save_screenshot(app, window, Path(screenshot), dock_height)
    window.offer_recovery()
    return app.exec()


def _size_from_env(default):
    """``STUDIO_WINDOW_SIZE=1366x768`` sets the window (and screenshot) size; anything else keeps ``default``."""
    text = os.environ.get("STUDIO_WINDOW_SIZE", "")
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        return default
    return (w, h) if 640 <= w <= 8000 and 480 <= h <= 8000 else default


def _opened_raw(window, doc_id: str) -> bool:
    """Whether ``doc_id`` (an id, a project-relative path or a file) is open as raw text (it does not parse)."""
    path = window.session.find(doc_id)
    if path is None and Path(doc_id).is_file() and window.session.inside(Path(doc_id)):
        path = Path(doc_id).resolve()
        window.open_path(path)
    if path is None:
        return False
    if window.raw_editor_of(path) is None:
        window.open_path(path)
    return window.raw_editor_of(path) is not None


def show_testplay(app, window, scenario_id: str, games: int = 20) -> bool:
    """Run a short balance run in the Test-play panel and open its first replay (screenshot mode)."""
    path = window.session.find(scenario_id, "scenario")
    if path is None:
        return False
    window.open_path(path)
    window.show_testplay()
    panel = window.testplay
    panel.games.setValue(games)
    balance = Path(path).with_name(Path(path).stem + ".balance.json")
    had_balance = balance.exists()
    if not panel.start():
        return False
    import time
    deadline = time.monotonic() + 300
    while panel.thread is not None and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    settle(app)
    if not had_balance and balance.exists():  # the screenshot mode leaves the project's files as they were
        balance.unlink()
    if panel.report is None:
        return False
    replays = panel.replays()
    viewer = panel.open_run_replay(replays[0]) if replays else None
    if viewer is not None:  # a viewer tab of the window, a few phases in
        for _ in range(3):
            viewer.next_phase()
        rolled = next((s.index for s in viewer.walk.steps[viewer.position:] if s.rolls or s.error), None)
        if rolled is not None:  # on to the next action that rolled dice, to show them
            viewer.goto(rolled)
    window.testplay_dock.raise_()
    return True


def show_replay(app, window, spec: str, games: int = 6) -> bool:
    """``replay:SCENARIO_ID`` (plays ``games`` seeded games with the heuristic bots and opens the first replay
    that lost a unit, at that loss) or ``replay:FILE`` (a replay file of the project)."""
    path = Path(spec)
    if not path.is_file():
        import tempfile
        folder = Path(tempfile.mkdtemp(prefix="studio-replays-"))  # outside the project: never in its files
        if window.session.find(spec, "scenario") is None:
            return False
        import contextlib
        import io

        from studio.cli.main import main as cli
        data = window.session.data_of("scenario", spec)
        sides = len(data.get("sides") or []) if isinstance(data, dict) else 2
        bots = ",".join(["heuristic"] * max(2, sides))  # bots that close and fight: a game with losses to show
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = cli(["play", spec, "--games", str(games), "--bots", bots, "--save-replays", str(folder),
                        "--project", str(window.session.root)])
        if code != 0:
            return False
        candidates = sorted(folder.glob("*.replay.json"))
    else:
        candidates = [path]
    for candidate in candidates:
        viewer = window.open_replay(candidate)
        if viewer is None:
            continue
        if viewer.walk.losses() or candidate == candidates[-1]:
            losses = viewer.walk.losses()
            viewer.goto(losses[0].step if losses else 0)
            settle(app)
            return True
        window.close_tab(window.tabs.indexOf(viewer))  # only the replay shown stays open
    return False


def save_screenshot(app, window, path: Path, dock_height: int = 170) -> int:
    settle(app)
    window.size_docks()
    from PySide6.QtCore import Qt
    window.resizeDocks([window.problems_dock, window.testplay_dock], [dock_height] * 2, Qt.Orientation.Vertical)
    settle(app)
    editor = window.current_editor()
    if editor is not None and hasattr(editor, "view") and not getattr(editor.view, "_user_zoomed", False):
        editor.view.fit()  # the final size's fit; a view brought to a finding (``--open ID#/pointer``) stays
        settle(app)
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from studio.model.safeio import write_atomic
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = window.grab().save(buffer, "PNG")
    buffer.close()
    window.close()
    try:
        if not ok:
            raise OSError("the window could not be rendered as PNG")
        write_atomic(path, bytes(data))
    except OSError as exc:
        print(f"studio: could not write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"studio: screenshot saved to {path}")
    return 0
