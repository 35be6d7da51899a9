"""Test-play panel: run N seeded games of a scenario in the background (progress, cancel), then show win rates
with 95% confidence intervals, victory-point and end-turn histograms and losses per side; open a saved replay
and step through it on the map, action by action or phase by phase, with each action's die rolls.

Games run in a ``QThread`` calling ``studio.sim.runner.run_games`` (which may use worker processes); the
window stays responsive and Cancel stops the run between games. Replays of the run are written to
``<project>/.studio/replays/`` (hidden, so project loading ignores them).
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QRectF, Qt, QThread, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QListWidget,
                               QProgressBar, QPushButton, QSpinBox, QSplitter, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from studio.document.testplay import ReplayStepper, histogram

SIDE_COLOURS = ["#1f5fd6", "#d62828", "#2a9d3a", "#9b30c8"]


class QtBalanceThread(QThread):
    """Loads the scenario and runs the games; emits progress and the finished report (or an error)."""

    progressed = Signal(int, int)
    finished_with = Signal(object, str)

    def __init__(self, scenario: str, project: Path, games: int, seed: int, bots: list[str] | None, jobs: int,
                 replay_dir: Path | None, parent=None):
        super().__init__(parent)
        self.args = (scenario, project, games, seed, bots, jobs, replay_dir)
        self.cancel_event = threading.Event()

    def run(self) -> None:
        scenario, project, games, seed, bots, jobs, replay_dir = self.args
        try:
            from studio.rules.load import load_game
            from studio.sim.runner import run_games
            loaded = load_game(scenario, project)
            bots = bots or ["random"] * len(loaded.game.sides)
            if replay_dir is not None:
                replay_dir.mkdir(parents=True, exist_ok=True)
            report = run_games(loaded, games, seed, bots, jobs=jobs, progress=self.progressed.emit,
                               cancel=self.cancel_event, replay_dir=replay_dir)
            self.finished_with.emit(report, "")
        except Exception as exc:  # noqa: BLE001 - shown in the panel
            self.finished_with.emit(None, f"{type(exc).__name__}: {exc}")


class QtHistogram(QWidget):
    """Bars per side: ``set_series({side: [values]})``."""

    def __init__(self, title: str, parent=None):
        super().__init__(parent)
        self.title = title
        self.series: dict[str, list[float]] = {}
        self.setMinimumSize(200, 110)

    def set_series(self, series: dict[str, list[float]]) -> None:
        self.series = series
        self.update()

    def bins(self) -> dict[str, list[tuple[float, float, int]]]:
        values = [v for vs in self.series.values() for v in vs]
        if not values:
            return {}
        lo, hi = min(values), max(values)
        n = max(1, min(12, int(hi - lo) + 1))
        out = {}
        for side, vs in self.series.items():
            padded = vs + [lo, hi]  # same bin edges for every side
            bars = histogram(padded, n)
            out[side] = [(a, b, c - (1 if i == 0 else 0) - (1 if i == len(bars) - 1 else 0))
                         for i, (a, b, c) in enumerate(bars)] if len(bars) > 1 else [(lo, hi, len(vs))]
        return out

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#ffffff"))
        p.drawText(6, 14, self.title)
        bins = self.bins()
        if not bins:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no games yet")
            return
        top, bottom, left, right = 20, self.height() - 18, 6, self.width() - 6
        peak = max(c for bars in bins.values() for _, _, c in bars) or 1
        nbins = max(len(b) for b in bins.values())
        group = (right - left) / nbins
        width = group / (len(bins) + 0.5)
        for s, (side, bars) in enumerate(bins.items()):
            p.setBrush(QColor(SIDE_COLOURS[s % len(SIDE_COLOURS)]))
            p.setPen(Qt.PenStyle.NoPen)
            for i, (a, b, c) in enumerate(bars):
                h = (bottom - top) * c / peak
                p.drawRect(QRectF(left + i * group + s * width, bottom - h, width * 0.9, h))
        p.setPen(QColor("#333333"))
        first = next(iter(bins.values()))
        p.drawText(left, self.height() - 4, f"{first[0][0]:g}")
        p.drawText(right - 40, self.height() - 4, f"{first[-1][1]:g}")
        p.end()


class QtReplayViewer(QWidget):
    """Steps through a replay on the scenario's map; shows the action, its die rolls and the units."""

    def __init__(self, parent=None):
        super().__init__(parent)
        from .map_view import QtHexScene, QtMapView
        from studio.document.geometry import AssembledGeometry  # noqa: F401 - documented dependency
        self._scene_cls, self._view_cls = QtHexScene, QtMapView
        self.stepper: ReplayStepper | None = None
        self.geometry = None
        self.scene = None
        self.view = None
        self.info = QLabel("No replay open")
        self.info.setWordWrap(True)
        self.log = QListWidget()
        self.log.currentRowChanged.connect(lambda row: self.goto(row + 1) if row >= 0 and self.stepper and
                                           row + 1 != self.stepper.position else None)
        buttons = QHBoxLayout()
        for text, slot in (("|◀ Start", lambda: self.goto(0)), ("◀ Back", lambda: self.goto(self._pos() - 1)),
                           ("Step ▶", lambda: self.goto(self._pos() + 1)), ("Next phase ▶▶", self.next_phase)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        self.map_box = QVBoxLayout()
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addLayout(buttons)
        ll.addLayout(self.map_box, 1)
        ll.addWidget(self.info)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.log)
        splitter.setSizes([500, 260])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    def _pos(self) -> int:
        return self.stepper.position if self.stepper else 0

    def open(self, path: Path, project: Path) -> str:
        """Open a replay file of ``project``; returns '' or the problem."""
        from studio.model.maps import assemble_scenario
        from studio.rules.load import load_game
        from studio.rules.replay import read_replay
        from studio.document.geometry import AssembledGeometry
        try:
            replay = read_replay(path)
            loaded = load_game(replay["scenario"], project)
            self.stepper = ReplayStepper(loaded, replay)
            self.geometry = AssembledGeometry(assemble_scenario(loaded.scenario, loaded.index))
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.info.setText(f"Cannot open the replay: {type(exc).__name__}: {exc}")
            return str(exc)
        from studio.document.catalogue import Catalogue
        ruleset = loaded.index.get("ruleset", loaded.scenario.ruleset)
        catalogue = Catalogue.from_ruleset(ruleset.data if ruleset else None)
        from .map_view import shaded
        geometry = self.geometry
        self.scene = self._scene_cls(geometry, lambda k: shaded(catalogue.colour_of(geometry.terrain(k)),
                                                               geometry.elevation(k)), self)
        if self.view is not None:
            self.view.setParent(None)
        self.view = self._view_cls(self.scene)
        self.map_box.addWidget(self.view)
        self.log.blockSignals(True)
        self.log.clear()
        self.log.addItems([f"{i + 1}. {a}" for i, a in enumerate(self.stepper.actions)])
        self.log.blockSignals(False)
        self.show_frame(self.stepper.frames[-1])
        return ""

    def goto(self, step: int) -> None:
        if self.stepper is not None:
            self.show_frame(self.stepper.goto(step))

    def next_phase(self) -> None:
        if self.stepper is not None:
            self.show_frame(self.stepper.next_phase())

    def show_frame(self, frame) -> None:
        if self.scene is None:
            return
        by_side: dict[int, list] = {}
        texts = []
        for name, (h, side) in frame.positions.items():
            by_side.setdefault(side, []).append(h)
            if h in self.scene.centres:
                x, y = self.scene.centres[h]
                texts.append((x, y, name.split("-")[-1]))
        for side in range(4):
            self.scene.set_marks(f"units:{side}", by_side.get(side, []), SIDE_COLOURS[side], 200, outline="#ffffff")
        self.scene.set_texts("unit-names", texts, "#ffffff", self.geometry.hex_mm * 0.3)
        rolls = ", ".join(f"{label or 'roll'} {value}" for label, value in _pairs(frame.rolls)) or "none"
        where = f"turn {frame.turn}, {frame.phase}" if frame.turn is not None else ""
        self.info.setText(f"Step {frame.step}/{len(self.stepper.actions)}  {where}  "
                          f"{'side ' + str(frame.player) if isinstance(frame.player, int) and frame.player >= 0 else ''}"
                          f"\nAction: {frame.action or '(start)'}\nDie rolls: {rolls}"
                          + (f"\nError: {frame.error}" if frame.error else "")
                          + ("\nGame over" if frame.terminal else ""))
        self.log.blockSignals(True)
        self.log.setCurrentRow(frame.step - 1)
        self.log.blockSignals(False)


def _pairs(rolls) -> list[tuple[str, object]]:
    out = []
    for r in rolls:
        if isinstance(r, (tuple, list)) and len(r) >= 2:
            out.append((str(r[0]), r[-1]))
        else:
            out.append(("", r))
    return out


class QtTestPlayPanel(QWidget):
    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.thread: QtBalanceThread | None = None
        self.report = None
        self.scenario_box = QComboBox()
        self.games = QSpinBox()
        self.games.setRange(1, 100_000)
        self.games.setValue(100)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.jobs = QSpinBox()
        self.jobs.setRange(1, 64)
        self.bots = QComboBox()
        self.bots.addItems(["random", "heuristic"])
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.open_replay = QPushButton("Open replay…")
        self.open_replay.clicked.connect(self.choose_replay)
        self.progress = QProgressBar()
        self.summary = QLabel("Choose a scenario and run games with bots.")
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["Side", "Wins", "Win rate", "95% CI", "Losses (mean)"])
        self.vp_chart = QtHistogram("Victory points per game")
        self.turn_chart = QtHistogram("Game decided on turn")
        self.viewer = QtReplayViewer()
        controls = QGridLayout()
        for col, (label, widget) in enumerate((("Scenario", self.scenario_box), ("Games", self.games),
                                               ("Seed", self.seed), ("Processes", self.jobs), ("Bots", self.bots))):
            controls.addWidget(QLabel(label), 0, 2 * col)
            controls.addWidget(widget, 0, 2 * col + 1)
        buttons = QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.open_replay):
            buttons.addWidget(b)
        buttons.addWidget(self.progress, 1)
        results = QWidget()
        rl = QVBoxLayout(results)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.summary)
        rl.addWidget(self.table)
        charts = QHBoxLayout()
        charts.addWidget(self.vp_chart)
        charts.addWidget(self.turn_chart)
        rl.addLayout(charts)
        splitter = QSplitter()
        splitter.addWidget(results)
        splitter.addWidget(self.viewer)
        self.setMinimumHeight(380)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(controls)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)
        self.fill_scenarios()

    def fill_scenarios(self) -> None:
        current = self.scenario_box.currentData()
        self.scenario_box.clear()
        for entry in self.session.entries():
            if entry.kind == "scenario" and entry.id:
                self.scenario_box.addItem(f"{entry.id} — {entry.name}", entry.id)
        index = self.scenario_box.findData(current)
        if index >= 0:
            self.scenario_box.setCurrentIndex(index)

    def set_scenario(self, scenario_id: str | None) -> None:
        self.fill_scenarios()
        index = self.scenario_box.findData(scenario_id)
        if index >= 0:
            self.scenario_box.setCurrentIndex(index)

    #: folder for replays of this panel's runs (None: the user's cache folder)
    replay_root: Path | None = None

    def replay_dir(self) -> Path:
        if self.replay_root is not None:
            return Path(self.replay_root)
        import hashlib
        from PySide6.QtCore import QStandardPaths
        cache = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation) or \
            str(Path.home() / ".cache" / "studio")
        tag = hashlib.sha1(str(self.session.root).encode()).hexdigest()[:10]
        return Path(cache) / "replays" / f"{self.session.root.name}-{tag}"

    # ---------------------------------------------------------------- running
    def start(self) -> bool:
        scenario = self.scenario_box.currentData()
        if not scenario or (self.thread is not None and self.thread.isRunning()):
            return False
        if self.session.dirty:
            self.summary.setText("Unsaved changes are not played: the games use the files on disk. "
                                 "Save first to test your edits.")
        bots = None if self.bots.currentText() == "random" else [self.bots.currentText()] * 2
        self.thread = QtBalanceThread(scenario, self.session.root, self.games.value(), self.seed.value(), bots,
                                      self.jobs.value(), self.replay_dir(), self)
        self.thread.progressed.connect(self._progress)
        self.thread.finished_with.connect(self._finished)
        self.thread.finished.connect(self.thread.deleteLater)
        self.progress.setRange(0, self.games.value())
        self.progress.setValue(0)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.thread.start()
        return True

    def cancel(self) -> None:
        """Ask the run to stop; it ends after the game in progress (the result arrives as usual)."""
        if self.thread is not None and self.thread.isRunning():
            self.thread.cancel_event.set()

    def shutdown(self) -> None:
        """Cancel and wait for the worker (window closing); the event loop keeps running while waiting."""
        import time
        from PySide6.QtWidgets import QApplication
        self.cancel()
        deadline = time.monotonic() + 30
        while self.thread is not None and self.thread.isRunning() and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.02)

    def _progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(total)
        self.progress.setValue(done)

    def _finished(self, report, error: str) -> None:
        self.thread = None  # deleted by Qt once its run() has returned
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if error:
            self.summary.setText(f"Cannot play: {error}")
            return
        self.show_report(report)

    def show_report(self, report) -> None:
        self.report = report
        stats = report.statistics()
        self.summary.setText(report.format_text())
        self.table.setRowCount(len(report.sides))
        for r, side in enumerate(report.sides):
            rate = stats["win_rate"][side]
            values = [side, str(stats["wins"][side]), f"{100 * rate['p']:.1f}%",
                      f"{100 * rate['ci95'][0]:.1f}–{100 * rate['ci95'][1]:.1f}%", f"{stats['losses'][side]:.2f}"]
            for c, v in enumerate(values):
                self.table.setItem(r, c, QTableWidgetItem(v))
        ok = report.ok
        self.vp_chart.set_series({s: [g.victory_points[i] for g in ok if i < len(g.victory_points)]
                                  for i, s in enumerate(report.sides)})
        self.turn_chart.set_series({"turn": [g.turn for g in ok]})

    # ---------------------------------------------------------------- replays
    def replays(self) -> list[Path]:
        return sorted(self.replay_dir().glob("*.replay.json"))

    def choose_replay(self) -> None:
        start = str(self.replay_dir()) if self.replay_dir().is_dir() else str(self.session.root)
        name, _ = QFileDialog.getOpenFileName(self, "Open replay", start, "Replays (*.replay.json)")
        if name:
            self.viewer.open(Path(name), self.session.root)
