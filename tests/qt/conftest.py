"""Fixtures of the window tests: a private copy of the sample project and a main window on it.

``data/`` is never modified: every test edits a copy under ``tmp_path``. Recent projects go to an INI file in
``tmp_path``; autosave is stopped, live (background) validation is off and test-play replays go to
``tmp_path`` so tests decide when things happen.
"""
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root, ignore=shutil.ignore_patterns(".*"))
    return root


@pytest.fixture
def settings(tmp_path):
    from PySide6.QtCore import QSettings
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make_window(qtbot, settings, tmp_path):
    from studio.document.session import ProjectSession
    from studio.qt.main_window import QtMainWindow

    def make(root: Path):
        window = QtMainWindow(ProjectSession(root), settings, live_validation=False)
        window._autosave_timer.stop()
        window.testplay.replay_root = tmp_path / "replays"
        window.ask_save = lambda name: "discard"
        # a modal question never blocks a test (tests that answer one replace this; message boxes are
        # recorded by the tests that read them, e.g. with a class-level monkeypatch of ``tell``)
        window.ask_yes_no = lambda title, text: False
        if getattr(type(window).tell, "__qualname__", "").startswith("QtMainWindow."):
            window.tell = lambda title, text: None
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        return window
    return make


@pytest.fixture
def window(make_window, project):
    return make_window(project)
