"""File > Export (VASSAL module, scenario package, unit spreadsheet) and File > Import (scenario package, unit
spreadsheet) for the main window, with the command line's checks.

Entry point: :func:`install_interchange_menus(window, file_menu)` adds both submenus and returns the
:class:`Interchange` controller (kept as ``window.interchange``). Exports run the pre-export check (validation and
``games`` seeded bot games, as ``studio export``) on the saved files and, when it fails, show the findings and
export only if the user chooses "Export anyway". Imports plan everything first (the same safe package reader and
spreadsheet validation as ``studio import`` / ``studio units import``), show the diff, and write only after the
user confirms; a file open in an editor with unsaved changes is never overwritten. The dialogs are methods
(``ask_save_file``, ``ask_open_files``, ``ask_choice``, ``confirm``, ``show_lines``) so tests can answer them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QApplication, QDialog, QDialogButtonBox, QFileDialog, QInputDialog, QLabel,
                               QPlainTextEdit, QVBoxLayout)

COLLISIONS = {"Keep the project's documents": "keep", "Replace them with the package's": "replace",
              "Import the package's under a prefix": "prefix"}


class LinesDialog(QDialog):
    """A list of lines (a diff, findings) with OK/Cancel (or only Close)."""

    def __init__(self, parent, title: str, intro: str, lines: list[str], ok_text: str | None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(760, 480)
        layout = QVBoxLayout(self)
        label = QLabel(intro)
        label.setWordWrap(True)
        layout.addWidget(label)
        self.text = QPlainTextEdit("\n".join(lines))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel if ok_text else
                                   QDialogButtonBox.StandardButton.Close)
        if ok_text:
            buttons.addButton(ok_text, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class Interchange:
    """The export and import actions of one window."""

    games = 20
    seed = 1

    def __init__(self, window):
        self.window = window
        self.actions: dict[str, QAction] = {}
        self.last_lines: list[str] = []

    # ---------------------------------------------------------------- dialogs (tests replace these)
    def ask_save_file(self, title: str, suggested: str, filters: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self.window, title, suggested, filters)
        return path or None

    def ask_open_files(self, title: str, filters: str) -> list[str]:
        paths, _ = QFileDialog.getOpenFileNames(self.window, title, str(self.window.session.root), filters)
        return list(paths)

    def ask_choice(self, title: str, prompt: str, items: list[str]) -> str | None:
        item, ok = QInputDialog.getItem(self.window, title, prompt, items, 0, False)
        return item if ok else None

    def ask_prefix(self) -> str | None:
        text, ok = QInputDialog.getText(self.window, "Import under a prefix", "Id prefix:", text="pkg")
        return text.strip() if ok and text.strip() else None

    def confirm(self, title: str, intro: str, lines: list[str], ok_text: str) -> bool:
        self.last_lines = list(lines)
        return LinesDialog(self.window, title, intro, lines, ok_text).exec() == QDialog.DialogCode.Accepted

    def show_lines(self, title: str, intro: str, lines: list[str]) -> None:
        self.last_lines = list(lines)
        LinesDialog(self.window, title, intro, lines, None).exec()

    def status(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 10_000)

    # ---------------------------------------------------------------- helpers
    @property
    def root(self) -> Path:
        return Path(self.window.session.root)

    def _index(self):
        return self.window.session.current_index()

    def _scenario(self, title: str) -> str | None:
        editor = self.window.current_editor()
        if editor is not None and editor.doc.kind == "scenario" and editor.doc.id:
            return editor.doc.id
        ids = sorted(self._index().ids("scenario"))
        if not ids:
            self.show_lines(title, "The project has no scenario.", [])
            return None
        return self.ask_choice(title, "Scenario:", ids)

    def _busy(self, work: Callable):
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            return work()
        finally:
            QApplication.restoreOverrideCursor()

    def _checked(self, title: str, scenario: str):
        """The pre-export check; None when it failed and the user did not choose to export anyway."""
        from studio.cli.commands.export import play_games
        from studio.export.preflight import preflight

        if self.window.session.dirty:
            self.status("Exporting the saved files; unsaved edits are not included")
        check = self._busy(lambda: preflight(self.root, scenario, play_games, self.games, self.seed))
        if check.ok:
            return check
        if not self.confirm(title, f"The check before export found problems in {scenario}.", check.lines(),
                            "Export anyway"):
            return None
        check.forced = True
        return check

    # ---------------------------------------------------------------- exports
    def export_vassal(self) -> Path | None:
        from studio.export.vassal import build_module, write_module

        scenario = self._scenario("Export VASSAL module")
        if not scenario:
            return None
        check = self._checked("Export VASSAL module", scenario)
        if check is None:
            return None
        out = self.ask_save_file("Export VASSAL module", str(self.root / f"{scenario}.vmod"), "VASSAL module (*.vmod)")
        if not out:
            return None
        try:
            build = self._busy(lambda: build_module(check.index, [scenario], record={"checks": [check.record()]}))
            path = write_module(build, Path(out))
        except (ValueError, OSError) as exc:
            self.show_lines("Export VASSAL module", "The module cannot be built; nothing was written.", [str(exc)])
            return None
        self.status(f"Wrote {path} ({sum(len(b.pieces) for b in build.boards)} counters)")
        return path

    def export_package(self) -> Path | None:
        from studio.export.package import build_package, write_package

        scenario = self._scenario("Export scenario package")
        if not scenario:
            return None
        check = self._checked("Export scenario package", scenario)
        if check is None:
            return None
        out = self.ask_save_file("Export scenario package", str(self.root / f"{scenario}.studio.zip"),
                                 "Scenario package (*.studio.zip)")
        if not out:
            return None
        try:
            build = build_package(check.index, scenario, check.record())
            path = write_package(build, Path(out))
        except (ValueError, OSError) as exc:
            self.show_lines("Export scenario package", "The package cannot be built; nothing was written.", [str(exc)])
            return None
        self.status(f"Wrote {path} ({len(build.manifest['documents'])} documents)")
        return path

    def export_units(self) -> list[Path]:
        from studio.export.spreadsheet import export_units

        index = self._index()
        choices = [f"ruleset:{r}" for r in sorted(index.ids("ruleset"))] + ["all"]
        selection = self.ask_choice("Export unit spreadsheet", "Cards:", choices)
        if not selection:
            return []
        stem = selection.split(":")[-1]
        out = self.ask_save_file("Export unit spreadsheet", str(self.root / f"{stem}.xlsx"),
                                 "Excel workbook (*.xlsx);;CSV (*.csv)")
        if not out:
            return []
        try:
            written = export_units(index, selection, Path(out))
        except (ValueError, OSError) as exc:
            self.show_lines("Export unit spreadsheet", "Nothing was written.", [str(exc)])
            return []
        self.status(f"Wrote {', '.join(p.name for p in written)}")
        return written

    # ---------------------------------------------------------------- imports
    def _blocked(self, paths: list[Path]) -> list[str]:
        """Targets open in an editor with unsaved changes (never overwritten)."""
        out = []
        for p in paths:
            editor = self.window.editor_of(p)
            if editor is not None and editor.doc.dirty:
                out.append(str(p))
        return out

    def _after_write(self, paths: list[Path]) -> None:
        for p in paths:
            editor = self.window.editor_of(p)
            if editor is not None:
                self.window.close_tab(self.window.tabs.indexOf(editor))
        self.window.session.refresh()
        self.window.refresh_tree()
        self.window.schedule_validation()

    def import_package(self) -> list[Path]:
        from studio.export.package import PackageRefused, apply_import, plan_import

        files = self.ask_open_files("Import scenario package", "Scenario package (*.zip)")
        if not files:
            return []
        archive = Path(files[0])
        choice, prefix = None, "pkg"
        while True:
            try:
                plan = self._busy(lambda: plan_import(archive, self.root, choice, prefix))
                break
            except PackageRefused as exc:
                if choice is None and any(": collision: " in f for f in exc.findings):
                    picked = self.ask_choice("Import scenario package", "\n".join(exc.findings[:12]) +
                                             "\n\nThese documents differ from the project's:", list(COLLISIONS))
                    if picked is None:
                        return []
                    choice = COLLISIONS[picked]
                    if choice == "prefix":
                        prefix = self.ask_prefix()
                        if prefix is None:
                            return []
                    continue
                self.show_lines("Import refused", f"{archive.name} was refused; nothing was written.", exc.findings)
                return []
        return self._write_plan("Import scenario package", plan.summary(), [self.root / a.path for a in plan.actions],
                                lambda: apply_import(plan))

    def import_units(self) -> list[Path]:
        from studio.export.spreadsheet import ImportRefused, apply_units_import, plan_units_import

        files = self.ask_open_files("Import unit spreadsheet", "Spreadsheets (*.xlsx *.csv)")
        if not files:
            return []
        try:
            plan = self._busy(lambda: plan_units_import([Path(f) for f in files], self.root))
        except ImportRefused as exc:
            self.show_lines("Import refused", f"{exc}", exc.findings)
            return []
        return self._write_plan("Import unit spreadsheet", plan.diff_lines(), [self.root / c.path for c in plan.changes],
                                lambda: apply_units_import(plan))

    def _write_plan(self, title: str, lines: list[str], targets: list[Path], apply: Callable) -> list[Path]:
        if not targets:
            self.show_lines(title, "Nothing to import: the project already holds all of it.", lines)
            return []
        blocked = self._blocked(targets)
        if blocked:
            self.show_lines(title, "Save or close these documents first; nothing was written.", blocked)
            return []
        if not self.confirm(title, "These changes will be written to the project:", lines, "Import"):
            return []
        written = apply()
        self._after_write(list(written))
        self.status(f"Imported {len(written)} file(s)")
        return list(written)


def install_interchange_menus(window, file_menu) -> Interchange:
    """Add File > Export and File > Import to ``file_menu`` of ``window`` (a QtMainWindow); returns the
    controller, also stored as ``window.interchange``."""
    ctl = Interchange(window)
    guard = getattr(window, "_guard", lambda slot: slot())
    export = file_menu.addMenu("&Export")
    imp = file_menu.addMenu("&Import")
    for menu, key, text, slot in ((export, "export_vassal", "&VASSAL module…", ctl.export_vassal),
                                  (export, "export_package", "Scenario &package…", ctl.export_package),
                                  (export, "export_units", "Unit &spreadsheet…", ctl.export_units),
                                  (imp, "import_package", "Scenario &package…", ctl.import_package),
                                  (imp, "import_units", "Unit &spreadsheet…", ctl.import_units)):
        action = QAction(text, window)
        action.triggered.connect(lambda _=False, s=slot: guard(s))
        menu.addAction(action)
        ctl.actions[key] = action
    window.interchange = ctl
    return ctl
