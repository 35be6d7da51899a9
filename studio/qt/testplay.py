"""Test-play panel: run N seeded games of a scenario in the background (progress from the first game, cancel at
once keeping the finished games), then show win rates with 95% intervals, labelled charts (win rate, turn of
decision, VP distribution, losses by unit type, losses by range band, kills by weapon: the same charts as the
HTML report), losses tables, and the comparison with the previous run (story 1 step 7); a "Tune" tab sweeps one
parameter to the 50/50 point; open a saved replay and step through it on the map.

Games run in a ``QThread`` calling ``studio.sim.runner.run_games`` (local processes, or a Dask scheduler when one
is given); the window stays responsive. A run that finished under the rules in force writes the balance file
the scenario sheet prints (``<scenario>.balance.json`` beside the scenario). Replays go to the user's cache
folder (``replay_root``).
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt, QThread, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QGridLayout, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QPlainTextEdit, QProgressBar, QPushButton, QSpinBox,
                               QSplitter, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget)

from studio.document.testplay import compare_runs, losses_rows, range_rows

SIDE_COLOURS = ["#1f5fd6", "#d62828", "#2a9d3a", "#9b30c8"]
#: the "rules" choice that plays the house rules in force for the scenario (or the published rules)
IN_FORCE = "(rules in force)"


class QtBalanceThread(QThread):
    """Loads the scenario (under a variant, if chosen) and runs the games; emits progress and, at the end,
    ``((report, balance file written or None), "")`` or ``(None, error)``."""

    progressed = Signal(int, int)
    finished_with = Signal(object, str)

    def __init__(self, scenario: str, project: Path, games: int, seed: int, bots: list[str] | None, jobs: int,
                 replay_dir: Path | None, parent=None, *, variant: str | None = None,
                 precision: float | None = None, scheduler: str | None = None, write_balance: bool = True):
        super().__init__(parent)
        self.args = (scenario, project, games, seed, bots, jobs, replay_dir)
        self.variant, self.precision, self.scheduler = variant, precision, scheduler
        self.write_balance = write_balance
        self.cancel_event = threading.Event()

    def run(self) -> None:
        scenario, project, games, seed, bots, jobs, replay_dir = self.args
        try:
            from studio.rules.load import load_game
            from studio.sim.runner import run_games
            from studio.sim.variants import default_variant, variant_bundle
            loaded = load_game(scenario, project)
            played, recipe, in_force = loaded, None, self.variant is None
            variant = self.variant or default_variant(loaded)
            if variant and variant != "base":
                recipe = variant_bundle(loaded, variant)
                played = recipe.load()
            bots = bots or ["random"] * len(loaded.game.sides)
            report = run_games(played, games, seed, bots, jobs=jobs, progress=self.progressed.emit,
                               cancel=self.cancel_event, replay_dir=replay_dir, recipe=recipe,
                               precision=self.precision, scheduler=self.scheduler)
            report.changes = list(recipe.changes) if recipe is not None else []
            written = None
            if self.write_balance and in_force and not report.cancelled and not report.errors:
                from studio.sim.files import write_balance
                written = write_balance(loaded.path, report.to_json())
            self.finished_with.emit((report, written), "")
        except Exception as exc:  # noqa: BLE001 - shown in the panel
            self.finished_with.emit(None, f"{type(exc).__name__}: {exc}")


class QtChart(QWidget):
    """Shows one labelled chart of :mod:`studio.sim.charts` (rendered from its SVG, aspect kept)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.chart = None
        self.svg = ""
        self._renderer: QSvgRenderer | None = None
        self.setMinimumSize(320, 170)

    def set_chart(self, chart) -> None:
        from studio.sim.charts import to_svg
        self.chart = chart
        self.svg = to_svg(chart) if chart is not None else ""
        self._renderer = QSvgRenderer(QByteArray(self.svg.encode("utf-8"))) if self.svg else None
        self.update()

    def labels(self) -> list[str]:
        """The category labels the chart writes under its bars (empty for x-y charts)."""
        return list(getattr(self.chart, "categories", []) or [])

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#ffffff"))
        if self._renderer is None:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no games yet")
            p.end()
            return
        size = self._renderer.defaultSize()
        scale = min(self.width() / max(1, size.width()), self.height() / max(1, size.height()))
        w, h = size.width() * scale, size.height() * scale
        self._renderer.render(p, QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h))
        p.end()


def _fill(table: QTableWidget, head: list[str], rows: list[list]) -> None:
    table.clear()
    table.setColumnCount(len(head))
    table.setHorizontalHeaderLabels(head)
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(value if isinstance(value, str) else f"{value:g}"))
    table.resizeColumnsToContents()


class QtTuneThread(QThread):
    """Plays each value of a sweep (``studio.sim.tune``); emits ``progressed(value index, values)`` and at the
    end ``(Sweep, "")`` or ``(None, error)``. Cancel stops after the value in play."""

    progressed = Signal(int, int)
    finished_with = Signal(object, str)

    def __init__(self, scenario: str, project: Path, param: str, values_text: str, side: str, games: int,
                 seed: int, bots: list[str] | None, jobs: int, check: bool, parent=None, variant: str | None = None):
        super().__init__(parent)
        self.args = (scenario, project, param, values_text, side, games, seed, bots, jobs, check)
        self.variant = variant
        self.cancel_event = threading.Event()

    def run(self) -> None:
        scenario, project, param, values_text, side, games, seed, bots, jobs, check = self.args
        try:
            from studio.rules.load import load_game
            from studio.sim.bundle import Bundle
            from studio.sim.runner import run_games
            from studio.sim.tune import parse_values, sweep
            from studio.sim.variants import default_variant, parameter_bundle, variant_bundle
            values = parse_values(values_text)
            loaded = load_game(scenario, project)
            side = side or loaded.game.sides[0]
            bots = bots or ["random"] * len(loaded.game.sides)
            base = Bundle.from_loaded(loaded)
            parameter_bundle(loaded, param, values[0], base)
            variant = self.variant or default_variant(loaded)
            done = [0]

            def play_value(value):
                if self.cancel_event.is_set():
                    raise RuntimeError("cancelled")
                bundle = parameter_bundle(loaded, param, value, base)
                played = bundle.load()
                if variant and variant != "base":     # the rules chosen on the Run tab
                    bundle = variant_bundle(played, variant, bundle)
                    played = bundle.load()
                stats = run_games(played, games, seed, bots, jobs=jobs, recipe=bundle,
                                  cancel=self.cancel_event).statistics()
                done[0] += 1
                self.progressed.emit(done[0], len(values) + (1 if check else 0))
                return stats
            result = sweep(loaded.game.scenario_id, param, side, values, play_value, seed=seed, bots=bots,
                           check=check)
            self.finished_with.emit(result, "")
        except Exception as exc:  # noqa: BLE001 - shown in the tab
            self.finished_with.emit(None, f"{type(exc).__name__}: {exc}")


class QtTuneTab(QWidget):
    """Sweep one parameter (a JSON pointer) and find the value that makes the scenario 50/50."""

    def __init__(self, panel: "QtTestPlayPanel", parent=None):
        super().__init__(parent)
        self.panel = panel
        self.thread: QtTuneThread | None = None
        self.result = None
        self.param = QLineEdit()
        self.param.setPlaceholderText("/victory/0/points  or  variant:ID/tables/0/rows/1/2")
        self.values = QLineEdit("1..5")
        self.side = QComboBox()
        self.games = QSpinBox()
        self.games.setRange(1, 100_000)
        self.games.setValue(50)
        self.check = QCheckBox("Check at the 50% value")
        self.run_button = QPushButton("Tune")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.save_button = QPushButton("Save plot…")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self.save_plot)
        self.progress = QProgressBar()
        self.summary = QLabel("Give a JSON pointer into the scenario and the values to play.")
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.chart = QtChart()
        form = QGridLayout()
        for col, (label, widget) in enumerate((("Parameter", self.param), ("Values", self.values),
                                               ("Side", self.side), ("Games per value", self.games))):
            form.addWidget(QLabel(label), 0, 2 * col)
            form.addWidget(widget, 0, 2 * col + 1)
        form.setColumnStretch(1, 2)
        buttons = QHBoxLayout()
        for w in (self.check, self.run_button, self.cancel_button, self.save_button):
            buttons.addWidget(w)
        buttons.addWidget(self.progress, 1)
        body = QSplitter()
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.summary)
        ll.addWidget(self.table, 1)
        body.addWidget(left)
        body.addWidget(self.chart)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(body, 1)

    def set_sides(self, sides: list[str]) -> None:
        current = self.side.currentText()
        self.side.clear()
        self.side.addItems(sides)
        if current in sides:
            self.side.setCurrentText(current)

    def start(self) -> bool:
        scenario = self.panel.scenario_box.currentData()
        if not scenario or not self.param.text().strip() or (self.thread is not None and self.thread.isRunning()):
            return False
        self.thread = QtTuneThread(scenario, self.panel.session.root, self.param.text().strip(),
                                   self.values.text(), self.side.currentText(), self.games.value(),
                                   self.panel.seed.value(), self.panel.chosen_bots(), self.panel.jobs.value(),
                                   self.check.isChecked(), self, variant=self.panel.rules.currentData())
        self.thread.progressed.connect(lambda done, total: (self.progress.setMaximum(total),
                                                            self.progress.setValue(done)))
        self.thread.finished_with.connect(self._finished)
        self.thread.finished.connect(self.thread.deleteLater)
        self.progress.setRange(0, 0)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.summary.setText("Playing…")
        self.thread.start()
        return True

    def cancel(self) -> None:
        if self.thread is not None and self.thread.isRunning():
            self.thread.cancel_event.set()

    def _finished(self, result, error: str) -> None:
        self.thread = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if result is not None else 0)
        if error:
            self.summary.setText(f"Cannot tune: {error}")
            return
        self.show_result(result)

    def show_result(self, result) -> None:
        from studio.sim.report import wilson_interval
        self.result = result
        rows = []
        for pt in result.points:
            lo, hi = wilson_interval(pt.wins, pt.games)
            rows.append([str(pt.value), str(pt.games), str(pt.wins), f"{100 * pt.p:.1f}%",
                         f"{100 * lo:.1f}–{100 * hi:.1f}%"])
        _fill(self.table, ["Value", "Games", f"{result.side} wins", "Win rate", "95% CI"], rows)
        self.summary.setText("\n".join(result.format_text().splitlines()[-2 if result.check else -1:]))
        self.chart.set_chart(result.chart())
        self.save_button.setEnabled(True)

    def save_plot(self, path: str | None = None) -> str:
        """Write the sweep's plot (.svg, or .png with the plots extra); returns '' or the problem."""
        from studio.sim.charts import save_chart
        if self.result is None:
            return "no sweep yet"
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save plot", str(self.panel.session.root /
                                                  f"{self.result.scenario}-tune.svg"), "Plots (*.svg *.png)")
            if not path:
                return "cancelled"
        try:
            save_chart(self.result.chart(), path)
        except (OSError, ValueError) as exc:
            self.summary.setText(f"Cannot save the plot: {exc}")
            return str(exc)
        return ""


class QtTestPlayPanel(QWidget):
    """The Test-play dock: a "Run" tab (balance runs, their charts, tables and the comparison with the previous
    run, the replay viewer) and a "Tune" tab."""

    #: folder for replays of this panel's runs (None: the user's cache folder)
    replay_root: Path | None = None

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.thread: QtBalanceThread | None = None
        self.report = None
        self.previous = None
        self.balance_file: Path | None = None
        self._build_controls()
        self._build_results()
        from .replay_viewer import QtReplayView
        # the window's replay viewer class; shown beside the run only when the panel has no window to open a
        # replay tab in (in the window, a run's replays open as tabs and the results keep the whole width)
        self.viewer = QtReplayView()
        self.viewer.hide()
        splitter = QSplitter()
        splitter.addWidget(self.results)
        splitter.addWidget(self.viewer)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        run_tab = QWidget()
        rl = QVBoxLayout(run_tab)
        rl.setContentsMargins(2, 2, 2, 2)
        rl.addLayout(self.controls)
        rl.addLayout(self.buttons)
        rl.addWidget(splitter, 1)
        self.tune = QtTuneTab(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(run_tab, "Run")
        self.tabs.addTab(self.tune, "Tune")
        self.setMinimumHeight(380)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self.scenario_box.currentIndexChanged.connect(self._scenario_changed)
        self.fill_scenarios()

    def _build_controls(self) -> None:
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
        self.rules = QComboBox()
        self.precision = QDoubleSpinBox()
        self.precision.setRange(0.0, 0.49)
        self.precision.setSingleStep(0.01)
        self.precision.setSpecialValueText("off")
        self.precision.setToolTip("Play until each side's 95% interval is within ± this (at most Games games)")
        self.scheduler = QLineEdit()
        self.scheduler.setPlaceholderText("local")
        self.scheduler.setToolTip("Dask scheduler address (tcp://HOST:8786) to run the games on a cluster")
        self.controls = QGridLayout()
        for i, (label, widget) in enumerate((("Scenario", self.scenario_box), ("Games", self.games),
                                             ("Seed", self.seed), ("Processes", self.jobs), ("Bots", self.bots),
                                             ("Rules", self.rules), ("Precision ±", self.precision),
                                             ("Cluster", self.scheduler))):
            self.controls.addWidget(QLabel(label), i // 4, 2 * (i % 4))
            self.controls.addWidget(widget, i // 4, 2 * (i % 4) + 1)
        self.controls.setColumnStretch(1, 2)
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.open_replay = QPushButton("Open replay…")
        self.open_replay.clicked.connect(self.choose_replay)
        self.progress = QProgressBar()
        self.progress.setFormat("%v/%m games")
        self.buttons = QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.open_replay):
            self.buttons.addWidget(b)
        self.buttons.addWidget(self.progress, 1)

    def _build_results(self) -> None:
        self.summary = QLabel("Choose a scenario and run games with bots.")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["Side", "Bot", "Wins", "Win rate", "95% CI", "Losses (mean)"])
        self.table.setMaximumHeight(96)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.chart_tabs = QTabWidget()
        self.charts: dict[str, QtChart] = {}
        self.losses_table = QTableWidget(0, 3)
        self.range_table = QTableWidget(0, 1)
        self.compare_label = QLabel("Run twice to compare: the previous run is shown beside this one.")
        self.compare_label.setWordWrap(True)
        self.compare_table = QTableWidget(0, 4)
        details = QTabWidget()
        details.addTab(self.chart_tabs, "Charts")
        losses = QSplitter()  # side by side: each table gets the tab's whole height
        for title, table in (("Units lost by unit type (per game)", self.losses_table),
                             ("Units lost by range band from the firer (hexes, all games)", self.range_table)):
            pane = QWidget()
            lo = QVBoxLayout(pane)
            lo.setContentsMargins(0, 0, 0, 0)
            label = QLabel(title)
            label.setWordWrap(True)
            if table is self.range_table:
                self.range_title = label                # names the report's range unit once a run is shown
            lo.addWidget(label)
            lo.addWidget(table, 1)
            losses.addWidget(pane)
        details.addTab(losses, "Losses")
        compare = QWidget()
        co = QVBoxLayout(compare)
        co.setContentsMargins(0, 0, 0, 0)
        co.addWidget(self.compare_label)
        co.addWidget(self.compare_table, 1)
        details.addTab(compare, "Compare with previous run")
        details.addTab(self.text, "Report text")
        self.replay_list = QListWidget()
        self.replay_list.itemActivated.connect(lambda item: self.open_run_replay(item.data(Qt.ItemDataRole.UserRole)))
        details.addTab(self.replay_list, "Replays")
        self.details = details
        self.results = QWidget()
        rl = QVBoxLayout(self.results)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.summary)
        rl.addWidget(self.table)
        rl.addWidget(details, 1)

    @property
    def vp_chart(self) -> QtChart | None:
        return self.charts.get("Victory points per game")

    @property
    def turn_chart(self) -> QtChart | None:
        return self.charts.get("Turn on which the game was decided")

    def fill_scenarios(self) -> None:
        current = self.scenario_box.currentData()
        self.scenario_box.blockSignals(True)
        self.scenario_box.clear()
        for entry in self.session.entries():
            if entry.kind == "scenario" and entry.id:
                self.scenario_box.addItem(f"{entry.id} — {entry.name}", entry.id)
        index = self.scenario_box.findData(current)
        if index >= 0:
            self.scenario_box.setCurrentIndex(index)
        self.scenario_box.blockSignals(False)
        self._scenario_changed()

    def set_scenario(self, scenario_id: str | None) -> None:
        self.fill_scenarios()
        index = self.scenario_box.findData(scenario_id)
        if index >= 0:
            self.scenario_box.setCurrentIndex(index)

    def _scenario_changed(self, *_args) -> None:
        """Rules choices (in force, published, the project's variants) and the Tune tab's sides follow the
        scenario."""
        current = self.rules.currentData()
        self.rules.clear()
        self.rules.addItem(IN_FORCE, None)
        self.rules.addItem("base (as published)", "base")
        for entry in self.session.entries():
            if entry.kind == "variant" and entry.id:
                self.rules.addItem(f"{entry.id} — {entry.name}", entry.id)
        index = self.rules.findData(current)
        self.rules.setCurrentIndex(max(0, index))
        sides = self._sides(self.scenario_box.currentData())
        self.tune.set_sides(sides)

    def _sides(self, scenario_id) -> list[str]:
        """Side ids of a scenario of the project, as its file lists them."""
        doc = self.session.current_index().get("scenario", scenario_id) if scenario_id else None
        data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
        sides = data.get("sides", [])
        return [s.get("id") for s in sides if isinstance(s, dict) and isinstance(s.get("id"), str)] \
            if isinstance(sides, list) else []

    def chosen_bots(self) -> list[str] | None:
        name = self.bots.currentText()
        if name == "random":
            return None
        return [name] * max(2, len(self._sides(self.scenario_box.currentData())))

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
        else:
            self.summary.setText("Loading the scenario…")
        self.thread = QtBalanceThread(scenario, self.session.root, self.games.value(), self.seed.value(),
                                      self.chosen_bots(), self.jobs.value(), self.replay_dir(), self,
                                      variant=self.rules.currentData(),
                                      precision=self.precision.value() or None,
                                      scheduler=self.scheduler.text().strip() or None)
        self.thread.progressed.connect(self._progress)
        self.thread.finished_with.connect(self._finished)
        self.thread.finished.connect(self.thread.deleteLater)
        self.progress.setRange(0, 0)        # busy until the first game is in
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.thread.start()
        return True

    def cancel(self) -> None:
        """Stop the run at once; the games already finished are kept and shown."""
        if self.thread is not None and self.thread.isRunning():
            self.thread.cancel_event.set()
            self.cancel_button.setEnabled(False)

    def shutdown(self) -> None:
        """Cancel and wait for the workers (window closing); the event loop keeps running while waiting."""
        import time
        from PySide6.QtWidgets import QApplication
        self.cancel()
        self.tune.cancel()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(t is not None and t.isRunning()
                                                  for t in (self.thread, self.tune.thread)):
            QApplication.processEvents()
            time.sleep(0.02)

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _finished(self, payload, error: str) -> None:
        self.thread = None  # deleted by Qt once its run() has returned
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if error:
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.summary.setText(f"Cannot play: {error}")
            return
        report, written = payload
        self.balance_file = written
        self.progress.setRange(0, max(1, report.games_requested))
        self.progress.setValue(report.games)
        self.show_report(report)

    def show_report(self, report) -> None:
        if self.report is not None and self.report is not report:
            self.previous = self.report
        self.report = report
        stats = report.statistics()
        text = report.format_text()
        self.text.setPlainText(text)
        lines = text.splitlines()
        head = [lines[0]] + [ln for ln in lines[1:] if ln.strip().startswith(("precision", "changed for"))]
        if self.balance_file is not None:
            head.append(f"Balance estimate written to {Path(self.balance_file).name} (the scenario sheet prints it).")
        self.summary.setText("\n".join(head))
        self.summary.setToolTip(text)
        rows = []
        for side in report.sides:
            rate = stats["win_rate"][side]
            rows.append([side, stats["bots_by_side"].get(side, ""), str(stats["wins"][side]),
                         f"{100 * rate['p']:.1f}%", f"{100 * rate['ci95'][0]:.1f}–{100 * rate['ci95'][1]:.1f}%",
                         f"{stats['losses'][side]:.2f}"])
        _fill(self.table, ["Side", "Bot", "Wins", "Win rate", "95% CI", "Losses (mean)"], rows)
        self._show_charts(stats)
        _fill(self.losses_table, ["Side", "Unit type", "Lost per game"],
              [[side, kind, f"{per:.2f}"] for side, kind, per in losses_rows(stats)])
        labels, bands = range_rows(stats)
        _fill(self.range_table, ["Side", *labels], [[side, *map(str, counts)] for side, counts in bands])
        self.range_title.setText(f"Units lost by range band from the firer ({stats.get('range_unit', 'hexes')}, "
                                 "all games)")
        self._show_comparison()
        self._list_replays(report)

    def _list_replays(self, report) -> None:
        """The run's replay files, one per game with its result; activating one opens it."""
        from PySide6.QtWidgets import QListWidgetItem
        self.replay_list.clear()
        for r in report.results:
            path = report.replay_files.get(r.index)
            if path is None or not Path(path).is_file():
                continue
            who = "error" if r.error else ("draw" if r.winner is None else f"{report.sides[r.winner]} won")
            item = QListWidgetItem(f"game {r.index + 1}: {who} on turn {r.turn}, losses "
                                   f"{'/'.join(map(str, r.losses))} (seed {r.seed})")
            item.setData(Qt.ItemDataRole.UserRole, path)
            self.replay_list.addItem(item)

    def open_run_replay(self, path: Path):
        """Open one of the run's replays: in the window's replay viewer tab when the window has one
        (``open_replay(path)``), else in the panel's own viewer."""
        opener = getattr(self.window(), "open_replay", None)
        if callable(opener) and self.window() is not self:
            return opener(Path(path))
        self.viewer.show()
        return self.viewer if self.viewer.open(Path(path), self.session.root) == "" else None

    def _show_charts(self, stats: dict) -> None:
        from studio.sim.html import report_charts
        self.chart_tabs.clear()
        self.charts = {}
        for chart in report_charts(stats):
            widget = QtChart()
            widget.set_chart(chart)
            self.charts[chart.title] = widget
            short = chart.title.split(" (")[0].replace("Turn on which the game was decided", "Decided on turn")
            self.chart_tabs.addTab(widget, short)

    def _show_comparison(self) -> None:
        if self.previous is None:
            return
        title, rows = compare_runs(self.previous, self.report)
        changes = "; ".join(self.report.changes) or "no rules changes"
        self.compare_label.setText(f"{self.previous.scenario} → {self.report.scenario}, {title}. This run: {changes}.")
        _fill(self.compare_table, ["Measure", "Previous run", "This run", "Difference (95% CI)"],
              [[r.measure, r.before, r.after, r.difference] for r in rows])

    # ---------------------------------------------------------------- replays
    def replays(self) -> list[Path]:
        return sorted(self.replay_dir().glob("*.replay.json"))

    def choose_replay(self) -> None:
        start = str(self.replay_dir()) if self.replay_dir().is_dir() else str(self.session.root)
        name, _ = QFileDialog.getOpenFileName(self, "Open replay", start, "Replays (*.replay.json)")
        if name:
            self.open_run_replay(Path(name))
