"""The replay viewer: a saved game stepped through on the scenario's map, with what each action did.

- The map is the scenario's assembled boards with hexside features, roads and board seams, a terrain legend and
  a minimap; the units are drawn as their printed counters (``studio.qt.counters``), stacked per hex. The units
  the current action names are ringed, with a line from the acting unit to its target.
- Step (``Step ▶``/``◀ Back``), step by phase (``Phase ▶▶``/``◀◀ Phase``) or go to a turn; the header names the
  turn and the phase (``PhaseSpec.name`` of ``State.phase_id()``). The step list shows every action with its
  outcome (hit and what was destroyed, or no loss, the range, the engine's own events); the losses list names
  every unit lost and the action that killed it — activating a loss jumps there.
- The step pane (below the lists) shows the action, its outcome and *what happened*: each result the engine
  narrates (``state.events``: hit roll against the number needed, penetration against armour, aspect, who spotted
  whom) with the labelled die rolls that decided it beside it; rolls no result names are listed after them. An
  engine that keeps no event list is said to give no narration (then only the rolls and the outcome show).
- ``open_replay(window, path)`` opens a replay file of the window's project in a tab (a finished test-play run
  calls it with one of its replays; see ``QtTestPlayPanel.replays()``); it returns the viewer, or None with the
  problem in the status bar.

The walk itself is ``studio.document.replay_walk`` (Qt-free).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
import html

from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QSpinBox, QSplitter,
                               QTabWidget, QTextBrowser, QVBoxLayout, QWidget)

from studio.document.replay_walk import ReplayWalk, Step, label_of

from .counters import COUNTER_OF_HEX, counter_spec
from .map_view import QtHexScene, QtMapView, draw_hex_features, draw_seams, legend_entries, shaded

SIDE_COLOURS = ["#1f5fd6", "#d62828", "#2a9d3a", "#9b30c8"]


class QtReplayView(QWidget):
    status_message = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.walk: ReplayWalk | None = None
        self.hidden: list = []  # per step: (hidden unit names, hidden counters), see hidden_steps
        self.position = 0
        self.path: Path | None = None
        self.geometry = None
        self.scene: QtHexScene | None = None
        self.view: QtMapView | None = None
        self._specs: dict = {}
        self.header = QLabel("No replay open")
        self.header.setStyleSheet("font-weight: bold; font-size: 13px")
        self.detail = QTextBrowser()  # the step pane: action, outcome, narrated results with their rolls
        self.detail.setOpenLinks(False)
        self.detail.setMinimumHeight(120)
        self.turn_box = QSpinBox()
        self.turn_box.setPrefix("Turn ")
        self.turn_box.setMinimum(1)
        buttons = QHBoxLayout()
        for text, slot in (("|◀", lambda: self.goto(0)), ("◀◀ Phase", self.previous_phase),
                           ("◀ Back", lambda: self.goto(self.position - 1)),
                           ("Step ▶", lambda: self.goto(self.position + 1)), ("Phase ▶▶", self.next_phase)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        go = QPushButton("Go to turn")
        go.clicked.connect(lambda: self.goto_turn(self.turn_box.value()))
        buttons.addWidget(self.turn_box)
        buttons.addWidget(go)
        buttons.addStretch(1)
        self.map_box = QVBoxLayout()
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.header)
        ll.addLayout(buttons)
        ll.addLayout(self.map_box, 1)
        self.steps = QListWidget()
        self.steps.currentRowChanged.connect(lambda row: self.goto(row) if row >= 0 and row != self.position
                                             else None)
        self.losses = QListWidget()
        self.losses.itemActivated.connect(lambda item: self.goto(item.data(Qt.ItemDataRole.UserRole)))
        self.losses.itemClicked.connect(lambda item: self.goto(item.data(Qt.ItemDataRole.UserRole)))
        lists = QTabWidget()
        lists.addTab(self.steps, "Actions")
        lists.addTab(self.losses, "Losses")
        self.lists = lists
        right = QSplitter(Qt.Orientation.Vertical)
        self.right = right
        right.addWidget(lists)
        right.addWidget(self.detail)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        right.setChildrenCollapsible(False)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([800, 330])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(splitter)

    # ---------------------------------------------------------------- opening
    def open(self, path: Path, project: Path) -> str:
        """Open a replay file of ``project``; returns '' or the problem (also shown in the header)."""
        from studio.rules.replay import ReplayCheck, read_replay, replay_game
        try:
            replay = read_replay(Path(path))
            loaded = replay_game(replay, project)  # with the option overrides and optional rules it was played with
            if isinstance(loaded, ReplayCheck):
                raise ValueError(loaded.message)
            walk = ReplayWalk(loaded, replay)
            geometry = self._geometry(loaded)
        except Exception as exc:  # noqa: BLE001 - shown to the user
            message = f"Cannot open the replay: {type(exc).__name__}: {exc}"
            self.header.setText(message)
            self.status_message.emit(message)
            return str(exc)
        self.walk, self.geometry, self.path, self.index = walk, geometry, Path(path), loaded.index
        self.hidden = hidden_steps(loaded, replay, len(walk.steps))
        if self.view is not None:
            self.view.setParent(None)
            self.view.deleteLater()
            self.view, self.scene = None, None
        if geometry is not None:
            self._build_map(loaded, geometry)
            self.right.addWidget(self.detail)
        else:  # a measured table (inches, not hexes): drawn by studio.qt.table.replay_scene
            from .table.replay_scene import table_replay_view
            self.view = table_replay_view(loaded, replay, self)
            self.map_box.addWidget(self.view, 1)
            self.right.addWidget(self.detail)
        self._specs = {}
        self._fill_lists()
        turns = [s.turn for s in walk.steps if isinstance(s.turn, int)]
        self.turn_box.setMaximum(max(turns) if turns else 1)
        self.goto(0)
        return ""

    @staticmethod
    def _geometry(loaded):
        """The scenario's assembled hex boards, or None for a measured table."""
        from studio.document.geometry import AssembledGeometry
        from studio.model.maps import AssemblyError, assemble_scenario
        try:
            return AssembledGeometry(assemble_scenario(loaded.scenario, loaded.index))
        except AssemblyError as exc:
            if exc.code == "map.assembly-measured":
                return None
            raise

    def _build_map(self, loaded, geometry) -> None:
        from studio.document.catalogue import Catalogue
        ruleset = loaded.index.get("ruleset", loaded.scenario.ruleset)
        catalogue = Catalogue.from_ruleset(ruleset.data if ruleset else None)
        self.scene = QtHexScene(geometry, lambda k: shaded(catalogue.colour_of(geometry.terrain(k)),
                                                           geometry.elevation(k)), self)
        draw_hex_features(self.scene, geometry, catalogue)
        draw_seams(self.scene, geometry)
        self.view = QtMapView(self.scene)
        self.view.set_legend(legend_entries(geometry, catalogue))
        self.map_box.addWidget(self.view)
        self.view.show_minimap(True)

    def _fill_lists(self) -> None:
        self.steps.blockSignals(True)
        self.steps.clear()
        for step in self.walk.steps:
            text = "set-up" if step.index == 0 else f"{step.index}. T{step.turn} {step.phase_name}: {step.action}"
            if step.outcome:
                text += f"  →  {step.outcome}"
            item = QListWidgetItem(text)
            if step.losses:
                item.setForeground(Qt.GlobalColor.darkRed)
            self.steps.addItem(item)
        self.steps.blockSignals(False)
        self.losses.clear()
        for loss in self.walk.losses():
            side = self.walk.game.sides[loss.side] if 0 <= loss.side < len(self.walk.game.sides) else loss.side
            item = QListWidgetItem(f"{loss.unit} ({side}) — turn {loss.turn}, {loss.phase_name}"
                                   + (f", by {loss.by}" if loss.by else ""))
            item.setData(Qt.ItemDataRole.UserRole, loss.step)
            self.losses.addItem(item)
        self.lists.setTabText(1, f"Losses ({self.losses.count()})")

    # ---------------------------------------------------------------- stepping
    @property
    def current(self) -> Step | None:
        return self.walk.steps[self.position] if self.walk is not None else None

    def goto(self, index: int) -> None:
        if self.walk is None:
            return
        self.position = max(0, min(index, len(self.walk.steps) - 1))
        self.show_step(self.walk.steps[self.position])

    def next_phase(self) -> None:
        if self.walk is not None:
            later = [i for i in self.walk.phase_starts() if i > self.position]
            self.goto(later[0] if later else len(self.walk.steps) - 1)

    def previous_phase(self) -> None:
        if self.walk is not None:
            starts = self.walk.phase_starts()
            current = max((i for i in starts if i <= self.position), default=0)
            earlier = [i for i in starts if i < current]
            self.goto(earlier[-1] if earlier and self.position == current else current)

    def goto_turn(self, turn: int) -> None:
        if self.walk is not None:
            index = self.walk.first_step_of_turn(turn)
            if index is not None:
                self.goto(index)

    # ---------------------------------------------------------------- drawing
    def _spec(self, card: str | None, name: str, side: int):
        key = (card, name, side)
        if key not in self._specs:
            model = self.index.model("unit", card) if card else None
            self._specs[key] = counter_spec(self.index, model, name, SIDE_COLOURS[side % len(SIDE_COLOURS)],
                                            self.geometry.hex_mm * COUNTER_OF_HEX)
        return self._specs[key]

    def show_step(self, step: Step) -> None:
        if self.walk is None:
            return
        if self.scene is not None:
            self._draw_step(step)
        elif hasattr(self.view, "show_step"):  # a measured table
            self.view.show_step(step)
        side = ""
        if isinstance(step.player, int) and 0 <= step.player < len(self.walk.game.sides):
            side = f" — {self.walk.game.sides[step.player]} to act"
        self.header.setText(f"Turn {step.turn} — {step.phase_name or step.phase or 'set-up'}{side}"
                            f"   (step {step.index} of {len(self.walk.steps) - 1})")
        self.detail.setHtml(step_html(step, self.walk.narrated, self._engine_name()))
        self.steps.blockSignals(True)
        self.steps.setCurrentRow(step.index)
        self.steps.blockSignals(False)
        if isinstance(step.turn, int):
            self.turn_box.setValue(step.turn)

    def _draw_step(self, step: Step) -> None:
        """The units after ``step`` as counters, the named units ringed, the shot drawn."""
        positions = step.positions or self._last_positions(step.index)
        names, counters = self.hidden[step.index] if step.index < len(self.hidden) else (set(), [])
        stacks: dict = {}
        for name, (h, side, card) in positions.items():
            if name not in names:  # units under a hidden counter are not shown until spotted (MBT 7.2)
                stacks.setdefault(h, []).append(self._spec(card, name, side))
        for cid, h, side in counters:
            stacks.setdefault(tuple(h), []).append(self._spec(None, f"HIDDEN {cid}", side))
        self.scene.set_counters("units", [(h, c, None) for h, c in stacks.items()])
        # a unit under a hidden counter is neither ringed nor a shot's end: the ring would show where it is (MBT 7.2)
        named = [positions.get(n) or self._before(step.index, n) for n in step.named if n not in names]
        hexes = [p[0] for p in named if p]
        self.scene.set_marks("named", hexes, "#ffff00", 70, outline="#ff8000", z=5.5)
        if len(hexes) >= 2 and step.range is not None:
            self.scene.set_polylines("shot", [[self.geometry.centre(hexes[0]), self.geometry.centre(hexes[1])]],
                                     "#ff2020" if step.losses else "#ffaa00", self.geometry.hex_mm * 0.05, z=7,
                                     dash=not step.losses)
        else:
            self.scene.clear_layer("shot")

    def _engine_name(self) -> str:
        ruleset = getattr(getattr(self.walk.loaded, "scenario", None), "ruleset", "") if self.walk else ""
        return f"The {ruleset.upper()} engine" if isinstance(ruleset, str) and ruleset else "This engine"

    def detail_text(self) -> str:
        """The step pane as plain text (what a reader sees)."""
        return self.detail.toPlainText()

    def _last_positions(self, index: int) -> dict:
        for i in range(index, -1, -1):
            if self.walk.steps[i].positions:
                return self.walk.steps[i].positions
        return {}

    def _before(self, index: int, name: str):
        """Where a unit was just before step ``index`` (a unit destroyed by the step is gone after it)."""
        return self._last_positions(max(0, index - 1)).get(name)


def hidden_steps(loaded, replay: dict, count: int) -> list:
    """Per step of the walk: (names of units hidden from the players, hidden counters as (id, hex, side)) from
    the engine's ``replay_hidden()`` (rule systems with hidden units, e.g. MBT 7.2), else nothing hidden."""
    out: list = []
    try:
        state = loaded.game.new_initial_state(int(replay.get("seed", 0)))
        hook = getattr(state, "replay_hidden", None)
        if hook is None:
            return []
        out.append(hook())
        for text in [a for a in replay.get("actions", []) if isinstance(a, str)][:max(0, count - 1)]:
            state.apply(loaded.game.parse_action(text))
            out.append(state.replay_hidden())
    except Exception:  # noqa: BLE001 - a replay the walk could not follow shows what it could
        pass
    return out


def _rolls_html(rolls: list) -> str:
    """Labelled rolls as chips: ``AP hit M1-1>T-80-2 <b>34</b>``."""
    chips = []
    for roll in rolls:
        label, value = label_of(roll)
        chips.append(f'<span style="background:#e8ecf2; color:#333">&nbsp;{html.escape(label)}: '
                     f"<b>{html.escape(str(value))}</b>&nbsp;</span>")
    return " &nbsp; ".join(chips)


def _moment_html(moment) -> str:
    """One narrated result (indented as the engine indents it) with its rolls; rolls no result reports, grey."""
    if not moment.text:
        return (f"<div style='margin:2px 0 2px 12px; color:#666'>rolls no result reports: "
                f"{_rolls_html(moment.rolls)}</div>")
    indent = 12 + 14 * ((len(moment.text) - len(moment.text.lstrip(" "))) // 2)
    rolls = f"<br>{_rolls_html(moment.rolls)}" if moment.rolls else ""
    return f"<div style='margin:2px 0 2px {indent}px'>&#8226; {html.escape(moment.text.strip())}{rolls}</div>"


def step_html(step: Step, narrated: bool, engine: str = "This engine") -> str:
    """The step pane: the action, its outcome, then what happened (each narrated result with the rolls that
    decided it), or why nothing is narrated."""
    def row(name: str, value: str) -> str:
        return f"<tr><td style='color:#555; padding-right:8px'><b>{name}</b></td><td>{value}</td></tr>"
    rows = [row("Action", html.escape(step.action or "(set-up)"))]
    if step.outcome:
        colour = "#a00000" if step.losses else "#333"
        rows.append(row("Outcome", f"<span style='color:{colour}'>{html.escape(step.outcome)}</span>"))
    elif step.range is not None:
        rows.append(row("Range", f"{step.range} hexes"))
    if step.error:
        rows.append(row("Error", f"<span style='color:#a00000'>{html.escape(step.error)}</span>"))
    if step.terminal:
        rows.append(row("", "<b>Game over</b>"))
    parts = [f"<table>{''.join(rows)}</table>"]
    told = [m for m in step.moments if m.text]
    if told:
        parts.append("<p style='margin:4px 0 0 0'><b>What happened</b></p>")
        parts += [_moment_html(m) for m in step.moments]
    elif step.moments:
        parts.append(f"<p style='margin:4px 0 0 0'><b>Die rolls</b><br>"
                     f"{_rolls_html([r for m in step.moments for r in m.rolls])}</p>")
    elif step.index:
        parts.append("<p style='color:#666'>No die rolls.</p>")
    if not narrated and step.index:
        parts.append(f"<p style='color:#666'><i>{html.escape(engine)} gives no narration of its results: the "
                     "rolls are shown with their labels and the outcome is read from the losses.</i></p>")
    elif narrated and not told and (step.moments or step.outcome) and step.index:
        parts.append("<p style='color:#666'><i>The engine narrated nothing for this action.</i></p>")
    return "".join(parts)


def open_replay(window, path: Path) -> QtReplayView | None:
    """Open ``path`` (a replay of the window's project) in a tab of ``window``; None when it cannot be opened."""
    viewer = QtReplayView()
    viewer.status_message.connect(lambda text: window.statusBar().showMessage(text, 10_000))
    problem = viewer.open(Path(path), window.session.root)
    if problem:
        window.statusBar().showMessage(f"Cannot open the replay {Path(path).name}: {problem}", 10_000)
        viewer.deleteLater()
        return None
    index = window.tabs.addTab(viewer, f"Replay {Path(path).name.removesuffix('.replay.json')}")
    window.tabs.setTabToolTip(index, str(path))
    window.tabs.setCurrentIndex(index)
    window.update_title()
    return viewer
