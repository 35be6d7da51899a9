"""The main window: project tree | editor tabs | inspector, Problems and Test-play panels, menus and toolbars.

Contracts:
- Every edit goes through the open document's undo history; Edit > Undo/Redo act on the current tab.
- The title shows the current document and ``[*]`` (Qt's modified marker) while any document is unsaved;
  tab titles get a ``*``.
- Validation runs (debounced) after every change over the project as the user sees it (unsaved content
  included) and feeds the Problems panel and the editors; double-click on a finding opens the file at the
  field or hex.
- Autosave writes side files every ``autosave_ms``; at start-up ``offer_recovery()`` asks whether to restore
  autosaved changes left by a crash; an autosave that cannot be used (garbage, a symlink, a FIFO, ...) is
  reported, not applied, and kept aside; it never raises. Recent projects live in the given ``QSettings``.
- Saving never writes outside the project or through a symlink (the session's documents carry the project root):
  a refused or failed save is shown in a message box and the status bar, and the edits stay (still unsaved).
- Bad input never raises out of a slot: failures become status-bar messages or dialogs.
"""
from __future__ import annotations

import traceback
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QThread, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QInputDialog, QLabel, QMainWindow, QMessageBox,
                               QScrollArea, QStackedWidget, QTabWidget, QWidget)

from studio.document.session import BadAutosave, CannotOpen, ProjectSession
from studio.model.diagnostics import Diagnostic
from studio.model.validate import validate_index

from .editors import editor_for
from .editors.base import QtEditor
from .inspector import QtInspector
from .interchange import install_interchange_menus
from .problems import QtProblemsPanel
from .project_tree import QtProjectTree

MAX_RECENT = 8


class QtValidationThread(QThread):
    """Runs the validation pipeline over an index snapshot (which nothing else mutates)."""

    finished_with = Signal(object, str)

    def __init__(self, index, parent=None):
        super().__init__(parent)
        self.index = index

    def run(self) -> None:
        try:
            result = validate_index(self.index)
            self.finished_with.emit((result.diagnostics, result.notes), "")
        except Exception as exc:  # noqa: BLE001 - reported in the status bar
            self.finished_with.emit([], f"{type(exc).__name__}: {exc}")


class QtMainWindow(QMainWindow):
    autosave_ms = 30_000
    validate_delay_ms = 400

    def __init__(self, session: ProjectSession, settings: QSettings | None = None, live_validation: bool = True,
                 parent=None):
        super().__init__(parent)
        self.session = session
        self.live_validation = live_validation
        self._validation_thread: QtValidationThread | None = None
        self._validation_pending = False
        self.settings = settings if settings is not None else QSettings("studio", "studio")
        self.diagnostics: list[Diagnostic] = []
        self.notes: list[Diagnostic] = []  # why some files' rule checks are partial or withheld
        self.resize(1440, 900)
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(lambda _: self.update_title())
        self.welcome = QLabel()
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome.setWordWrap(True)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.welcome)
        self.centre.addWidget(self.tabs)
        self.setCentralWidget(self.centre)
        self.tree = QtProjectTree()
        self.tree.open_requested.connect(self.open_path)
        self.tree.action_requested.connect(self._tree_action)
        self.inspector = QtInspector()
        self.problems = QtProblemsPanel()
        self.problems.activated.connect(self.go_to)
        from .testplay import QtTestPlayPanel
        self.testplay = QtTestPlayPanel(self.session)
        self.cursor_label = QLabel("")
        self.statusBar().addPermanentWidget(self.cursor_label)
        self.tree_dock = self._dock("Project", self.tree, Qt.DockWidgetArea.LeftDockWidgetArea)
        # the inspector shares the left column with the project tree (a tab): the editors get the width
        self.inspector_dock = self._dock("Inspector", self.inspector, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.tabifyDockWidget(self.tree_dock, self.inspector_dock)
        self.tree_dock.raise_()
        self.problems_dock = self._dock("Problems", self.problems, Qt.DockWidgetArea.BottomDockWidgetArea)
        testplay_area = QScrollArea()  # the panel is tall; a scroll area keeps the dock from forcing its height
        testplay_area.setWidgetResizable(True)
        testplay_area.setWidget(self.testplay)
        self.testplay_dock = self._dock("Test-play", testplay_area, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.tabifyDockWidget(self.problems_dock, self.testplay_dock)
        self.problems_dock.raise_()
        self._docks_sized = False
        self._build_actions()
        self._validate_timer = QTimer(self, singleShot=True, interval=self.validate_delay_ms)
        self._validate_timer.timeout.connect(self.validate_in_background)
        self._autosave_timer = QTimer(self, interval=self.autosave_ms)
        self._autosave_timer.timeout.connect(self.autosave)
        self._autosave_timer.start()
        self._subscriptions: dict[Path, object] = {}  # document path -> unsubscribe
        self._context = "tab"  # "tree" once the project tree has the focus (see _target)
        QApplication.instance().focusChanged.connect(self._focus_changed)
        self.refresh_tree()
        self.schedule_validation()
        self.remember_project(self.session.root)
        self.update_title()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._docks_sized:  # dock sizes only stick once the window has its size
            self._docks_sized = True
            QTimer.singleShot(0, self.size_docks)
            self.hide_stale_tab_bars()

    def hide_stale_tab_bars(self) -> None:
        """Qt (6.11) leaves a second tab bar behind when a second group of docks is tabified: a duplicate
        "Problems | Test-play" strip that does not follow the docks. The live bar follows ``raise_()``; the other
        bars with the same tabs are hidden (Qt shows a bar again itself if it ever reuses it); the dock that was
        raised stays raised. Run on the first show."""
        from PySide6.QtWidgets import QTabBar
        for first, second in ((self.problems_dock, self.testplay_dock), (self.tree_dock, self.inspector_dock)):
            titles = [first.windowTitle(), second.windowTitle()]
            bars = [b for b in self.findChildren(QTabBar) if b.parent() is self and b.isVisibleTo(self)
                    and [b.tabText(i) for i in range(b.count())] == titles]
            if len(bars) < 2:
                continue
            before = [b.currentIndex() for b in bars]  # the live bar knows which dock is raised
            second.raise_()
            live = [b for b in bars if b.currentIndex() == 1]
            first.raise_()
            live = [b for b in live if b.currentIndex() == 0]
            keep = live[0] if len(live) == 1 else bars[0]
            (first, second)[1 if before[bars.index(keep)] == 1 else 0].raise_()  # as it was
            if len(live) == 1:
                for bar in bars:
                    if bar is not keep:
                        bar.hide()

    def size_docks(self) -> None:
        width = 250 if self.width() >= 1400 else 215
        self.resizeDocks([self.tree_dock], [width], Qt.Orientation.Horizontal)
        low = 130 if self.height() < 850 else 170  # a 768-pixel screen keeps room for the editor
        self.resizeDocks([self.problems_dock, self.testplay_dock], [low, low], Qt.Orientation.Vertical)

    # ---------------------------------------------------------------- construction
    def _dock(self, title: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip or text)
        action.triggered.connect(lambda _=False: self._guard(slot))
        menu.addAction(action)
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self.act_new = self._action(file, "&New unit card from template…", self.new_card, "Ctrl+N")
        new_menu = file.addMenu("New &document")
        for kind, title in (("scenario", "Scenario…"), ("toe", "TO&&E…"), ("map", "Map…")):
            self._action(new_menu, title, lambda k=kind: self.new_document(k))
        self.act_open_project = self._action(file, "&Open project…", self.choose_project, "Ctrl+O")
        self.recent_menu = file.addMenu("Recent projects")
        self.recent_docs_menu = file.addMenu("Recent documents")
        file.addSeparator()
        self.act_save = self._action(file, "&Save", self.save_current, QKeySequence.StandardKey.Save)
        self.act_save_as = self._action(file, "Save &as…", self.save_as, "Ctrl+Shift+S")
        self.act_save_all = self._action(file, "Save a&ll", self.save_all, "Ctrl+Alt+S")
        self.act_close = self._action(file, "&Close tab", lambda: self.close_tab(self.tabs.currentIndex()), "Ctrl+W")
        file.addSeparator()
        self.act_print = self._action(file, "&Print preview…", self.print_preview, "Ctrl+Shift+P")
        install_interchange_menus(self, file)
        self.act_open_replay = self._action(file, "Open &replay…", self.choose_replay, "",
                                            "Step through a saved game on the scenario's map")
        file.addSeparator()
        self._action(file, "&Quit", self.close, "Ctrl+Q")
        edit = bar.addMenu("&Edit")
        self.act_undo = self._action(edit, "&Undo", self.undo, QKeySequence.StandardKey.Undo)
        self.act_redo = self._action(edit, "&Redo", self.redo, "Ctrl+Shift+Z")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addSeparator()
        self.act_duplicate = self._action(edit, "&Duplicate document…", lambda: self._tree_action("duplicate", None),
                                          "Ctrl+D")
        self.act_rename = self._action(edit, "Rename &id…", lambda: self._tree_action("rename", None), "F2")
        self.act_delete = self._action(edit, "D&elete document…", lambda: self._tree_action("delete", None),
                                       QKeySequence.StandardKey.Delete)
        for action in (self.act_rename, self.act_delete):  # F2 and Del belong to a table cell inside an editor
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.tree.addAction(action)
        self._action(edit, "&Find document", lambda: self.tree.filter.setFocus(), "Ctrl+F")
        edit.addSeparator()
        self._action(edit, "Next tab", lambda: self._cycle_tab(1), "Ctrl+Tab")
        self._action(edit, "Previous tab", lambda: self._cycle_tab(-1), "Ctrl+Shift+Tab")
        view = bar.addMenu("&View")
        for dock in (self.tree_dock, self.inspector_dock, self.problems_dock, self.testplay_dock):
            view.addAction(dock.toggleViewAction())
        tools = bar.addMenu("&Tools")
        self.act_validate = self._action(tools, "&Validate project", self.validate_now, "F7")
        self.act_unit_table = self._action(tools, "&Unit table (all cards)", self.open_unit_table, "Ctrl+T",
                                           "Every unit card of a rule system in one sortable, filterable grid")
        self._action(tools, "&Test-play current scenario", self.show_testplay, "F8")
        self.act_undo.setIconText("Undo")  # toolbar labels stay fixed while the menu names the step
        self.act_redo.setIconText("Redo")
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        for action in (self.act_new, self.act_save, self.act_undo, self.act_redo, self.act_validate,
                       self.act_unit_table, self.act_print):
            toolbar.addAction(action)
        self.update_recent_menu()

    def _guard(self, slot) -> None:
        """Run a menu action; an unexpected error is reported, never allowed to kill the window."""
        try:
            slot()
        except Exception as exc:  # noqa: BLE001 - the window must survive any bug in an action
            traceback.print_exc()
            self.statusBar().showMessage(f"Error: {type(exc).__name__}: {exc}", 10_000)

    # ---------------------------------------------------------------- tabs and documents
    def editors(self) -> list[QtEditor]:
        return [self.tabs.widget(i) for i in range(self.tabs.count()) if isinstance(self.tabs.widget(i), QtEditor)]

    def current_editor(self) -> QtEditor | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, QtEditor) else None

    def editor_of(self, path: Path) -> QtEditor | None:
        key = Path(path).resolve()
        return next((e for e in self.editors() if e.doc.path.resolve() == key), None)

    def open_path(self, path: Path) -> QtEditor | None:
        existing = self.editor_of(path)
        if existing is not None:
            self.tabs.setCurrentWidget(existing)
            return existing
        try:
            doc = self.session.open_document(path)
        except CannotOpen as exc:
            self.statusBar().showMessage(f"Cannot open {self.session.display(path)} as a document: "
                                         f"{exc.diagnostics[0].message if exc.diagnostics else exc}", 10_000)
            self.open_raw(Path(path), exc.diagnostics)
            return None
        cls = editor_for(doc.kind, doc.data)
        try:
            editor = cls(self.session, doc)
        except Exception as exc:  # noqa: BLE001 - a broken document falls back to the text editor
            traceback.print_exc()
            from .editors.text_editor import QtTextEditor
            self.statusBar().showMessage(f"{doc.display}: editor failed ({exc}); showing the text", 10_000)
            editor = QtTextEditor(self.session, doc)
        editor.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        editor.inspect.connect(self.inspector.show_info)
        if hasattr(editor, "action_requested"):
            editor.action_requested.connect(lambda name, path: self._guard(lambda: self._tree_action(name, path)))
        if hasattr(editor, "rename_requested"):
            from . import doc_actions
            editor.rename_requested.connect(
                lambda new_id, e=editor: self._guard(lambda: doc_actions.rename(self, e.doc.path, new_id)))
        if doc.path not in self._subscriptions:
            self._subscriptions[doc.path] = doc.subscribe(lambda d, change: self._document_changed())
        index = self.tabs.addTab(editor, self._tab_title(editor))
        self.tabs.setTabToolTip(index, doc.display)
        self.tabs.setCurrentIndex(index)
        editor.show_diagnostics([d for d in self.diagnostics if d.file == doc.display])
        editor.show_notes([n for n in self.notes if n.file == doc.display])
        self.inspector.show_info(doc.display, [("Kind", doc.kind), ("Id", doc.id), ("Path", str(doc.path))])
        self.remember_document(doc.path)
        self.update_title()
        return editor

    def open_raw(self, path: Path, diagnostics) -> None:
        """A file that does not parse: its text, to repair (see ``editors.raw_file``)."""
        from .editors.raw_file import QtRawFileEditor
        key = Path(path).resolve()
        existing = self.raw_editor_of(key)
        if existing is not None:
            self.tabs.setCurrentWidget(existing)
            return
        raw = QtRawFileEditor(key, diagnostics, root=self.session.root)
        raw.saved.connect(lambda p, w=raw: self._repaired(w, p))
        raw.status_message.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        self.tabs.setCurrentIndex(self.tabs.addTab(raw, f"{key.name} (text)"))
        self.update_title()

    def raw_editor_of(self, path: Path):
        """The raw-text tab of ``path``, if one is open."""
        from .editors.raw_file import QtRawFileEditor
        key = Path(path).resolve()
        return next((w for w in (self.tabs.widget(i) for i in range(self.tabs.count()))
                     if isinstance(w, QtRawFileEditor) and w.path.resolve() == key), None)

    def _repaired(self, widget, path: Path) -> None:
        self.tabs.removeTab(self.tabs.indexOf(widget))
        widget.deleteLater()
        self.session.refresh()
        self.refresh_tree()
        self.open_path(path)
        self.schedule_validation()

    def open_id(self, doc_id: str) -> QtEditor | None:
        path = self.session.find(doc_id)
        if path is None:
            self.statusBar().showMessage(f"No document '{doc_id}' in the project", 8000)
            return None
        return self.open_path(path)

    def _tab_title(self, editor: QtEditor) -> str:
        doc = editor.doc
        return f"{doc.id or doc.path.name}{' *' if doc.dirty else ''}"

    def close_tab(self, index: int) -> bool:
        editor = self.tabs.widget(index)
        if not isinstance(editor, QtEditor):
            if editor is None:
                return False
            self.tabs.removeTab(index)  # a raw-text tab: its text is only written on "Save text"
            editor.deleteLater()
            self.update_title()
            return True
        if editor.doc.dirty:
            answer = self.ask_save(editor.doc.display)
            if answer == "cancel":
                return False
            if answer == "save" and not self.save_document(editor.doc):
                return False  # the save was refused: keep the tab and the edits
        editor.dispose()
        self.tabs.removeTab(index)
        # saved or discarded: the project is the files again (discarded edits leave validation too)
        unsubscribe = self._subscriptions.pop(editor.doc.path, None)
        if unsubscribe is not None:
            unsubscribe()
        self.session.close_document(editor.doc.path)
        editor.deleteLater()
        self.update_title()
        self.schedule_validation()
        return True

    def ask_save(self, name: str) -> str:
        """'save', 'discard' or 'cancel' for an unsaved document (a dialog; tests replace it)."""
        box = QMessageBox.question(self, "Unsaved changes", f"Save changes to {name}?",
                                   QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard |
                                   QMessageBox.StandardButton.Cancel)
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(box,
                                                                                                           "cancel")

    def _document_changed(self) -> None:
        from .cards_table import QtCardsTable
        for i in range(self.tabs.count()):
            widget = self.tabs.widget(i)
            if isinstance(widget, QtEditor):
                self.tabs.setTabText(i, self._tab_title(widget))
            elif isinstance(widget, QtCardsTable) and widget is not self.tabs.currentWidget():
                widget.refresh()
        self.update_title()
        self.schedule_validation()

    def update_title(self) -> None:
        editor = self.current_editor()
        self.centre.setCurrentWidget(self.tabs if self.tabs.count() else self.welcome)
        if not self.tabs.count():
            self.welcome.setText(
                f"<h2>{self.session.project_name()}</h2><p>{len(self.session.entries())} documents in "
                f"{self.session.root}</p><p>Double-click a document in the project tree to edit it.<br>"
                "Ctrl+F finds a document, Ctrl+N makes a new unit card, F7 validates, F8 test-plays the open "
                "scenario.</p>")
        name = self.session.project_name()
        # the modified marker [*] belongs to the project (any unsaved document); the current document's own
        # state is its own " *", so another tab's edits never mark this tab's name
        current = f"{editor.doc.display}{' *' if editor.doc.dirty else ''} — " if editor else ""
        self.setWindowTitle(f"{current}{name}[*] — Studio")
        self.setWindowModified(bool(self.session.dirty))
        table = self.current_table()
        can_undo = table.table.can_undo if table else editor is not None and editor.doc.history.can_undo
        can_redo = table.table.can_redo if table else editor is not None and editor.doc.history.can_redo
        self.act_undo.setEnabled(can_undo)
        self.act_redo.setEnabled(can_redo)
        # the menu names the step; the toolbar button keeps a fixed label so the buttons never shift
        self.act_undo.setText(f"&Undo {editor.doc.history.undo_label}" if can_undo and editor else "&Undo")
        self.act_redo.setText(f"&Redo {editor.doc.history.redo_label}" if can_redo and editor else "&Redo")
        self.act_undo.setToolTip(self.act_undo.text().replace("&", ""))
        self.act_redo.setToolTip(self.act_redo.text().replace("&", ""))
        self.act_save.setEnabled(editor is not None)

    # ---------------------------------------------------------------- edit
    def undo(self) -> None:
        table = self.current_table()
        if table is not None:
            table.undo()
            return
        editor = self.current_editor()
        if editor is not None and editor.doc.undo():
            self.statusBar().showMessage("Undone", 3000)

    def redo(self) -> None:
        table = self.current_table()
        if table is not None:
            table.redo()
            return
        editor = self.current_editor()
        if editor is not None and editor.doc.redo():
            self.statusBar().showMessage("Redone", 3000)

    def _cycle_tab(self, step: int) -> None:
        if self.tabs.count():
            self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    # ---------------------------------------------------------------- unit table
    def current_table(self):
        from .cards_table import QtCardsTable
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, QtCardsTable) else None

    def open_unit_table(self, ruleset: str | None = None):
        """The unit table tab of ``ruleset`` (default: the open card's, else the first), reused when open."""
        from .cards_table import QtCardsTable
        editor = self.current_editor()
        if ruleset is None and editor is not None and isinstance(editor.doc.data, dict):
            ruleset = editor.doc.data.get("ruleset")
        for i in range(self.tabs.count()):
            widget = self.tabs.widget(i)
            if isinstance(widget, QtCardsTable) and (ruleset is None or widget.table.ruleset == ruleset):
                self.tabs.setCurrentIndex(i)
                return widget
        table = QtCardsTable(self.session, ruleset)
        table.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        table.open_requested.connect(lambda path: self._guard(lambda: self.open_path(path)))
        table.edited.connect(self._document_changed)
        table.ruleset_box.currentTextChanged.connect(lambda _: self.tabs.setTabText(self.tabs.indexOf(table),
                                                                                    table.title))
        self.tabs.setCurrentIndex(self.tabs.addTab(table, table.title))
        self.update_title()
        return table

    # ---------------------------------------------------------------- save
    def save_document(self, doc, path: Path | None = None) -> bool:
        """Save ``doc`` (to ``path`` = save as); a refused or failed write is told and the edits stay."""
        try:
            if path is None:
                doc.save()
            else:
                self.session.save_as(doc, path)
        except OSError as exc:
            self.save_failed(doc.display, exc)
            return False
        return True

    def save_failed(self, display: str, exc: OSError) -> None:
        message = f"Cannot save {display}: {exc.strerror or exc}"
        self.statusBar().showMessage(message, 15_000)
        self.tell("Not saved", f"{message}\n\nYour changes are still open in the editor, unsaved.")

    def save_current(self) -> None:
        editor = self.current_editor()
        if editor is not None and self.save_document(editor.doc):
            self.after_save()

    def save_as(self) -> None:
        editor = self.current_editor()
        if editor is None:
            return
        name = self.ask_save_path(editor.doc.path)
        if name:
            old = editor.doc.path
            if not self.save_document(editor.doc, Path(name)):
                return
            unsubscribe = self._subscriptions.pop(old, None)
            if unsubscribe is not None:
                self._subscriptions[editor.doc.path] = unsubscribe
            self.after_save()

    def file_moved(self, old: Path, new: Path) -> None:
        """A document's file was renamed: its tab, subscription and the tree follow."""
        unsubscribe = self._subscriptions.pop(old, None) or self._subscriptions.pop(Path(old).resolve(), None)
        if unsubscribe is not None:
            self._subscriptions[new] = unsubscribe
        self.refresh_tree()
        self._document_changed()

    def ask_save_path(self, current: Path) -> str:
        name, _ = QFileDialog.getSaveFileName(self, "Save as", str(current), "YAML documents (*.yaml)")
        return name

    def save_all(self) -> None:
        failed = [doc for doc in list(self.session.dirty) if not self.save_document(doc)]
        self.after_save()
        if failed:
            self.statusBar().showMessage(f"{len(failed)} document(s) not saved: "
                                         + ", ".join(d.display for d in failed), 15_000)

    def after_save(self) -> None:
        self.session.refresh()
        self._document_changed()
        self.refresh_tree()
        self.statusBar().showMessage("Saved", 3000)

    def autosave(self) -> list[Path]:
        try:
            return self.session.autosave_all()
        except OSError as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 10_000)
            return []

    def offer_recovery(self) -> list[Path]:
        """Ask, for each document with autosaved changes newer than its file, whether to restore them; report
        (and keep aside) the autosaves that cannot be used. Never raises; returns the documents restored."""
        try:
            pending = self.session.autosaves()
        except Exception as exc:  # noqa: BLE001 - the window must start whatever the side files hold
            traceback.print_exc()
            self.statusBar().showMessage(f"Recovery skipped: {type(exc).__name__}: {exc}", 15_000)
            return []
        restored = []
        for item in pending:
            try:
                if self._offer_one(item):
                    restored.append(item.path)
            except Exception as exc:  # noqa: BLE001
                traceback.print_exc()
                self.statusBar().showMessage(f"Recovery of {item.path.name} failed: {exc}", 15_000)
        return restored

    def _offer_one(self, item) -> bool:
        display = self.session.display(item.path)
        if item.problem:
            kept = self.session.keep_aside(item.path)
            self._bad_autosave(display, item.problem, kept)
            return False
        if not self.ask_yes_no("Recover unsaved changes",
                               f"{display} has autosaved changes that were never saved (the studio may have "
                               "crashed). Restore them?"):
            self.session.discard_recovery(item.path)
            return False
        try:
            self.session.recover(item.path)
        except BadAutosave as exc:
            self._bad_autosave(display, exc.diagnostics[0].message, exc.kept)
            return False
        except CannotOpen as exc:
            self.tell("Recover unsaved changes", f"Cannot recover {display}: {exc}")
            return False
        self.open_path(item.path)
        return True

    def _bad_autosave(self, display: str, problem: str, kept: Path | None) -> None:
        where = f"It is kept as {kept}." if kept else "It was left where it is."
        self.tell("Autosave not used", f"The autosaved changes of {display} cannot be used: {problem}.\n\n"
                                       f"Nothing was applied or deleted. {where}")
        self.statusBar().showMessage(f"Autosave of {display} not used: {problem}", 15_000)

    def ask_yes_no(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes

    def closeEvent(self, event) -> None:
        for i in reversed(range(self.tabs.count())):
            if not self.close_tab(i):
                event.ignore()
                return
        self.testplay.shutdown()
        self._validate_timer.stop()
        while self._validation_thread is not None:  # let a running validation finish (events keep flowing)
            QApplication.processEvents()
            QThread.msleep(20)
        event.accept()

    # ---------------------------------------------------------------- project
    def refresh_tree(self) -> None:
        self.tree.set_entries(self.session.entries())

    def choose_project(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open project folder", str(self.session.root))
        if folder:
            self.open_project(Path(folder))

    def open_project(self, root: Path) -> bool:
        if not (Path(root) / "project.yaml").is_file():
            QMessageBox.warning(self, "Not a project", f"{root} has no project.yaml")
            return False
        for i in reversed(range(self.tabs.count())):
            if not self.close_tab(i):
                return False
        self.session = ProjectSession(root)
        self.testplay.session = self.session
        self._subscriptions.clear()
        self.refresh_tree()
        self.schedule_validation()
        self.remember_project(self.session.root)
        self.update_title()
        self.offer_recovery()
        return True

    def recent_projects(self) -> list[str]:
        value = self.settings.value("recent_projects", [])
        if isinstance(value, str):
            value = [value]
        return [v for v in (value or []) if isinstance(v, str)]

    def remember_project(self, root: Path) -> None:
        items = [str(root)] + [p for p in self.recent_projects() if p != str(root)]
        self.settings.setValue("recent_projects", items[:MAX_RECENT])
        self.update_recent_menu()

    def update_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_projects():
            self.recent_menu.addAction(path, lambda p=path: self._guard(lambda: self.open_project(Path(p))))
        self.update_recent_documents_menu()

    def recent_documents(self) -> list[str]:
        """Documents of this project opened lately, newest first (project-relative paths that still exist)."""
        value = self.settings.value(f"recent_documents/{self._project_key()}", [])
        if isinstance(value, str):
            value = [value]
        return [v for v in (value or []) if isinstance(v, str) and (self.session.root / v).is_file()]

    def _project_key(self) -> str:
        import hashlib
        return hashlib.sha1(str(self.session.root).encode()).hexdigest()[:12]

    def remember_document(self, path: Path) -> None:
        try:
            rel = str(Path(path).resolve().relative_to(self.session.root.resolve()))
        except ValueError:
            return
        items = [rel] + [p for p in self.recent_documents() if p != rel]
        self.settings.setValue(f"recent_documents/{self._project_key()}", items[:MAX_RECENT * 2])
        self.update_recent_documents_menu()

    def update_recent_documents_menu(self) -> None:
        if not hasattr(self, "recent_docs_menu"):
            return
        self.recent_docs_menu.clear()
        for rel in self.recent_documents():
            self.recent_docs_menu.addAction(rel, lambda r=rel: self._guard(lambda: self.open_path(self.session.root / r)))

    # ---------------------------------------------------------------- validation and navigation
    def schedule_validation(self) -> None:
        """Validate shortly (debounced) in the background, when live validation is on."""
        if self.live_validation:
            self._validate_timer.start()

    def validate_in_background(self) -> None:
        """Validate a snapshot of the project in a worker thread; the result arrives in ``show_problems``."""
        if self._validation_thread is not None and self._validation_thread.isRunning():
            self._validation_pending = True
            return
        self._validation_pending = False
        thread = QtValidationThread(self.session.current_index(), self)
        thread.finished_with.connect(self._validation_done)
        thread.finished.connect(thread.deleteLater)
        self._validation_thread = thread
        thread.start()

    def _validation_done(self, found, error: str) -> None:
        self._validation_thread = None  # deleted by Qt once its run() has returned
        if error:
            self.statusBar().showMessage(f"Validation failed: {error}", 10_000)
        else:
            self.show_problems(*found)
        if self._validation_pending:
            self._validate_timer.start()

    def validate_now(self) -> None:
        """Validate synchronously (Tools > Validate project, F7)."""
        try:
            result = self.session.validate()
        except Exception as exc:  # noqa: BLE001 - a crashing check must not take the window down
            traceback.print_exc()
            self.statusBar().showMessage(f"Validation failed: {exc}", 10_000)
            return
        self.show_problems(result.diagnostics, result.notes)

    def show_problems(self, diagnostics: list[Diagnostic], notes: list[Diagnostic] = ()) -> None:
        """Findings into the Problems panel and each open editor; ``notes`` say which files' rule checks ran on
        part of the file or are withheld (``checks.partial`` / ``checks.withheld``)."""
        self.diagnostics = list(diagnostics)
        self.notes = list(notes)
        self.problems.set_diagnostics(self.diagnostics, self.notes)
        for editor in self.editors():
            editor.show_diagnostics([d for d in self.diagnostics if d.file == editor.doc.display])
            editor.show_notes([n for n in self.notes if n.file == editor.doc.display])

    def go_to(self, diagnostic: Diagnostic) -> None:
        if not diagnostic.file:
            return
        editor = self.open_path(self.session.path_of(diagnostic.file))
        if editor is not None:
            if hasattr(editor, "focus_diagnostic"):
                editor.focus_diagnostic(diagnostic)
            else:
                editor.focus_pointer(diagnostic.pointer)
            self.statusBar().showMessage(diagnostic.format_text(), 10_000)

    # ---------------------------------------------------------------- document actions
    def _focus_changed(self, old, new) -> None:
        """Remember whether the project tree or an editor tab was used last (document actions follow it)."""
        if new is None:
            return
        if new is self.tree or self.tree.isAncestorOf(new):
            self._context = "tree"
        elif new is self.tabs or self.tabs.isAncestorOf(new):
            self._context = "tab"

    def _target(self, path: Path | None) -> Path | None:
        """The document an Edit action acts on: the one given, else the project tree's selection when the tree
        was used last (or no tab is open), else the open tab's."""
        if path is not None:
            return path
        selected = self.tree.current_path()
        editor = self.current_editor()
        if selected is not None and (self._context == "tree" or editor is None):
            return selected
        return editor.doc.path if editor else selected

    def _tree_action(self, name: str, path: Path | None) -> None:
        from . import doc_actions
        target = self._target(path)
        if name == "new":
            self.new_card()
        elif target is None:
            self.statusBar().showMessage("Select a document first", 5000)
        elif name == "open":
            self.open_path(target)
        elif name == "duplicate":
            doc_actions.duplicate(self, target)
        elif name == "rename":
            doc_actions.rename(self, target)
        elif name == "delete":
            many = self.tree.selected_paths() if path is None and self._context == "tree" else []
            for each in (many if len(many) > 1 else [target]):  # a multi-selection: each is asked and checked
                doc_actions.delete(self, each)

    def new_card(self) -> None:
        from . import doc_actions
        doc_actions.new_card(self)

    def new_document(self, kind: str) -> None:
        from . import doc_actions
        doc_actions.new_document(self, kind)

    def ask_text(self, title: str, prompt: str, current: str = "") -> str | None:
        text, ok = QInputDialog.getText(self, title, prompt, text=current)
        return text.strip() if ok else None

    def ask_item(self, title: str, prompt: str, items: list[str]) -> str | None:
        if not items:
            return None
        item, ok = QInputDialog.getItem(self, title, prompt, items, 0, False)
        return item if ok else None

    def tell(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    def print_preview(self) -> None:
        try:
            from .print_preview import PrintPreviewDialog  # written by the printing engineer
        except ImportError:
            self.tell("Print preview", "Print preview is not available in this build yet "
                                       "(studio.qt.print_preview is missing).")
            return
        editor = self.current_editor()
        if editor is None or editor.doc.kind not in ("unit", "toe", "map", "scenario") or not editor.doc.id:
            self.tell("Print preview", "Open a unit card, TO&E, map or scenario to preview its print sheets.")
            return
        if editor.doc.dirty:
            self.statusBar().showMessage("Print preview shows the saved files; save to include your edits", 8000)
        source = f"unit:{editor.doc.id}" if editor.doc.kind == "unit" else editor.doc.id
        try:
            dialog = PrintPreviewDialog(self.session.root, source, self, session=self.session)
        except Exception as exc:  # noqa: BLE001 - the printing side reports, the window survives
            self.tell("Print preview", f"Cannot preview {source}: {exc}")
            return
        self.print_dialog = dialog
        dialog.exec()

    def choose_replay(self) -> None:
        start = self.testplay.replay_dir() if self.testplay.replay_dir().is_dir() else self.session.root
        name, _ = QFileDialog.getOpenFileName(self, "Open replay", str(start), "Replays (*.replay.json)")
        if name:
            self.open_replay(Path(name))

    def open_replay(self, path: Path):
        """A replay of this project in a viewer tab (``studio.qt.replay_viewer.open_replay``)."""
        from .replay_viewer import open_replay
        return open_replay(self, path)

    def show_testplay(self) -> None:
        """F8: the Test-play dock, raised and tall enough to show a run's results (about half the window)."""
        self.testplay_dock.show()
        self.testplay_dock.raise_()
        wanted = int(self.height() * 0.5)
        if self.testplay_dock.height() < wanted and not self.testplay_dock.isFloating():
            self.resizeDocks([self.testplay_dock], [wanted], Qt.Orientation.Vertical)
        editor = self.current_editor()
        if editor is not None and editor.doc.kind == "scenario":
            self.testplay.set_scenario(editor.doc.id)

