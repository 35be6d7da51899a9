"""Print preview dialog: the same options as ``studio print``, pages drawn by the printing renderer.

Usage (e.g. from a menu action)::

    dialog = PrintPreviewDialog(project_root, source_id, parent)
    dialog.exec()

``project_root``: the project folder (holding ``project.yaml``). ``source_id``: what to print - a TO&E id, a
scenario id, a map id or ``unit:ID[*N],...`` (see :mod:`studio.printing.sources`); the dialog picks the sheet kind
from the document kind (scenario -> scenario sheet, map -> map, otherwise counters) and the user can switch.
``parent``: the parent widget or None. Options start from the project's ``print`` block. "Save PDF..." writes
exactly the pages shown (same :func:`studio.printing.render.render_page`); "Print..." sends them to a printer
(``QPrintDialog``; ``print_to(printer)`` does the drawing); "Export PNGs..." writes one 300 dpi image per counter
side for counters (a VASSAL module's pieces) and one per page otherwise. File names default to
``<source>-<sheet>.pdf``. "Remember in project" writes paper, counter size, bleed, duplex and back offset into the
project's ``print`` block (``project.yaml``, atomically; through the window's session when given, so the edit is
undoable there), so the next preview starts from them.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import (QComboBox, QDialog, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QPushButton, QScrollArea, QSpinBox, QVBoxLayout, QWidget)

from studio.model.project import load_project
from studio.printing.jobs import PrintError, PrintOptions, build_pages, project_defaults
from studio.printing.output import write_pdf
from studio.printing.primitives import Page
from studio.printing.render import render_page, text_height_mm
from studio.printing.units import COUNTER_SIZES, MM_PER_INCH

PREVIEW_DPI = 80


class PageView(QWidget):
    """Paints one page at the preview resolution with the shared renderer."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.page: Page | None = None

    def set_page(self, page: Page | None) -> None:
        self.page = page
        if page is not None:
            k = PREVIEW_DPI / MM_PER_INCH
            self.setFixedSize(round(page.width * k), round(page.height * k))
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        painter.fillRect(self.rect(), Qt.white)
        if self.page is not None:
            render_page(painter, self.page, PREVIEW_DPI / MM_PER_INCH)
        painter.end()

    def grab_image(self) -> QPixmap:
        return self.grab()


class PrintPreviewDialog(QDialog):
    """Preview and save print sheets; see the module docstring for the constructor contract."""

    def __init__(self, project_root: str | Path, source_id: str, parent: QWidget | None = None, session=None):
        super().__init__(parent)
        self.project_root = Path(project_root)
        self.session = session
        self.setWindowTitle(f"Print preview - {source_id}")
        self.index = load_project(Path(project_root))
        self.pages: list[Page] = []
        self.current = 0
        kind = self._default_kind(source_id)
        self.defaults = project_defaults(self.index, kind)

        self.kind = QComboBox()
        self.kind.addItems(["counters", "cards", "map", "scenario", "calibration"])
        self.kind.setCurrentText(kind)
        self.source = QLineEdit(source_id)
        self.paper = QComboBox()
        self.paper.addItems(["letter", "a4"])
        self.paper.setCurrentText(self.defaults.paper)
        self.size = QComboBox()
        self.size.setEditable(True)
        self.size.addItems(list(COUNTER_SIZES))
        self.size.setCurrentText(self.defaults.size)
        self.bleed = QLineEdit(self.defaults.bleed)
        self.gutter = QLineEdit("")
        self.gutter.setPlaceholderText("2 x bleed")
        self.duplex = QComboBox()
        self.duplex.addItems(["long", "short", "none"])
        self.duplex.setCurrentText(self.defaults.duplex)
        self.marks = QComboBox()
        self.marks.addItems(["crop", "registration", "both", "none"])
        self.layout_id = QComboBox()
        self.layout_id.addItem("(per rule system)", None)
        for layout_id in sorted(self.index.ids("layout")):
            self.layout_id.addItem(layout_id, layout_id)
        self.off_x, self.off_y = QDoubleSpinBox(), QDoubleSpinBox()
        for box, value in ((self.off_x, self.defaults.back_offset[0]), (self.off_y, self.defaults.back_offset[1])):
            box.setRange(-20.0, 20.0)
            box.setSingleStep(0.1)
            box.setDecimals(2)
            box.setSuffix(" mm")
            box.setValue(value)

        form = QFormLayout()
        form.addRow("Sheet", self.kind)
        form.addRow("Source", self.source)
        form.addRow("Paper", self.paper)
        form.addRow("Counter size", self.size)
        form.addRow("Bleed", self.bleed)
        form.addRow("Gutter", self.gutter)
        form.addRow("Duplex", self.duplex)
        form.addRow("Marks", self.marks)
        form.addRow("Layout", self.layout_id)
        offsets = QHBoxLayout()
        offsets.addWidget(self.off_x)
        offsets.addWidget(self.off_y)
        form.addRow("Back offset X, Y", offsets)
        self.refresh_button = QPushButton("Update preview")
        self.save_button = QPushButton("Save PDF...")
        self.print_button = QPushButton("Print...")
        self.png_button = QPushButton("Export PNGs...")
        self.remember_button = QPushButton("Remember in project")
        self.remember_button.setToolTip("Save paper, counter size, bleed, duplex and back offset as the project's "
                                        "print settings (project.yaml)")
        form.addRow(self.refresh_button)
        outputs = QHBoxLayout()
        for button in (self.save_button, self.print_button):
            outputs.addWidget(button)
        form.addRow(outputs)
        form.addRow(self.png_button)
        form.addRow(self.remember_button)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        form.addRow(self.message)

        self.view = PageView()
        scroll = QScrollArea()
        scroll.setWidget(self.view)
        scroll.setAlignment(Qt.AlignCenter)
        self.page_spin = QSpinBox()
        self.page_spin.setMinimum(1)
        self.page_label = QLabel("")
        nav = QHBoxLayout()
        nav.addWidget(QLabel("Page"))
        nav.addWidget(self.page_spin)
        nav.addWidget(self.page_label)
        nav.addStretch(1)
        right = QVBoxLayout()
        right.addLayout(nav)
        right.addWidget(scroll, 1)
        left = QWidget()
        left.setLayout(form)
        left.setMaximumWidth(320)
        root = QHBoxLayout(self)
        root.addWidget(left)
        root.addLayout(right, 1)
        self.resize(1100, 800)

        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.refresh_button.clicked.connect(self.refresh)
        self.save_button.clicked.connect(self._save_dialog)
        self.print_button.clicked.connect(self._print_dialog)
        self.png_button.clicked.connect(self._png_dialog)
        self.remember_button.clicked.connect(self.remember)
        self.page_spin.valueChanged.connect(lambda n: self.show_page(n - 1))
        for combo in (self.kind, self.paper, self.duplex, self.marks, self.layout_id):
            combo.currentIndexChanged.connect(self.refresh)
        self.refresh()

    def _kind_changed(self) -> None:
        """Bleed and gutter defaults differ per sheet kind (cards are butted)."""
        self.defaults = project_defaults(self.index, self.kind.currentText())
        self.bleed.setText(self.defaults.bleed)
        self.gutter.setText(self.defaults.gutter or "")

    def _default_kind(self, source_id: str) -> str:
        if self.index.get("scenario", source_id) is not None:
            return "scenario"
        if self.index.get("map", source_id) is not None:
            return "map"
        return "counters"

    def options(self) -> PrintOptions:
        """The options as currently set in the dialog (may be invalid; build_pages checks them)."""
        return replace(self.defaults, kind=self.kind.currentText(), source=self.source.text().strip(),
                       paper=self.paper.currentText(), size=self.size.currentText().strip(),
                       bleed=self.bleed.text().strip() or "0", gutter=self.gutter.text().strip() or None,
                       duplex=self.duplex.currentText(), marks=self.marks.currentText(),
                       layout=self.layout_id.currentData(), back_offset=(self.off_x.value(), self.off_y.value()))

    def refresh(self) -> bool:
        """Rebuild the pages from the options; shows the problem instead of raising. True when it worked."""
        try:
            self.pages = build_pages(self.index, self.options(), text_height_mm)
        except PrintError as exc:
            self.message.setText(f"<b>Cannot print:</b> {exc}")
            self.pages = []
            self.view.set_page(None)
            self.page_label.setText("")
            return False
        self.message.setText(f"{len(self.pages)} page(s)")
        self.page_spin.setMaximum(max(1, len(self.pages)))
        self.show_page(min(self.current, len(self.pages) - 1))
        return True

    def show_page(self, n: int) -> None:
        if not self.pages:
            return
        self.current = max(0, min(n, len(self.pages) - 1))
        page = self.pages[self.current]
        self.view.set_page(page)
        self.page_label.setText(f"of {len(self.pages)}: {page.label}")

    def save_pdf(self, path: str | Path) -> None:
        """Write the pages shown to ``path``."""
        write_pdf(self.pages, Path(path), f"{self.kind.currentText()} {self.source.text()}")

    def default_name(self, suffix: str = ".pdf") -> str:
        """``<source>-<sheet><suffix>`` (e.g. ``probe-at-rasdorf-scenario.pdf``), safe as a file name."""
        import re
        source = re.sub(r"[^A-Za-z0-9._-]+", "-", self.source.text().strip().removeprefix("unit:")).strip("-.")
        return f"{source or 'studio'}-{self.kind.currentText()}{suffix}"

    def print_settings(self) -> dict:
        """The project ``print`` block for the options shown."""
        return {"paper": self.paper.currentText(), "counter_size": self.size.currentText().strip(),
                "bleed": self.bleed.text().strip() or "0", "duplex": self.duplex.currentText(),
                "back_offset_mm": [round(self.off_x.value(), 2), round(self.off_y.value(), 2)]}

    def remember(self) -> bool:
        """Write the print settings into ``project.yaml`` (saved at once); True when written."""
        from studio.document.document import EditableDocument
        from studio.document.ops import Set
        path = self.project_root / "project.yaml"
        try:
            doc = (self.session.open_document(path) if self.session is not None
                   else EditableDocument.open(path, root=self.project_root))
            current = doc.get("/print") if isinstance(doc.get("/print"), dict) else {}
            settings = {**current, **self.print_settings()}
            if settings != current:
                doc.apply("Print settings", [Set("/print", settings)])
            doc.save()
        except Exception as exc:  # noqa: BLE001 - told, never raised out of the button
            self.message.setText(f"<b>Not remembered:</b> {exc}")
            return False
        if self.session is not None:
            self.session.refresh()
        self.message.setText("Print settings saved in project.yaml")
        return True

    def print_to(self, printer) -> int:
        """Draw the pages shown on ``printer`` (a ``QPrinter`` set up by the print dialog); returns the pages sent."""
        from PySide6.QtCore import QMarginsF, QSizeF
        from PySide6.QtGui import QPageLayout, QPageSize
        if not self.pages:
            return 0
        printer.setFullPage(True)
        painter = None
        for i, page in enumerate(self.pages):
            layout = QPageLayout(QPageSize(QSizeF(page.width, page.height), QPageSize.Unit.Millimeter),
                                 QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))
            printer.setPageLayout(layout)
            if painter is None:
                painter = QPainter(printer)
            elif not printer.newPage():
                break
            render_page(painter, page, printer.resolution() / MM_PER_INCH)
        if painter is not None:
            painter.end()
        return len(self.pages)

    def _print_dialog(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter
        if not self.pages:
            return
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setDocName(self.default_name(""))
        if self.duplex.currentText() != "none":
            printer.setDuplex(QPrinter.DuplexMode.DuplexLongSide if self.duplex.currentText() == "long"
                              else QPrinter.DuplexMode.DuplexShortSide)
        dialog = QPrintDialog(printer, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.message.setText(f"Sent {self.print_to(printer)} page(s) to {printer.printerName() or 'the printer'}")

    def export_pngs(self, folder: str | Path, dpi: float = 300.0) -> list[Path]:
        """Counters: one ``<unit>-front.png``/``-back.png`` per distinct unit at ``dpi``; other sheets: a PNG per
        page. Returns the files written (raises PrintError/OSError)."""
        from studio.printing.output import write_pngs
        opts = self.options().validated()
        if opts.kind == "counters":
            from studio.printing.counter_images import write_counter_images
            from studio.printing.faces import choose_layout
            from studio.printing.sources import counters_for
            from studio.printing.units import length_mm
            return write_counter_images(counters_for(self.index, opts.source),
                                        lambda u: choose_layout(self.index, u, "counter", opts.layout),
                                        length_mm(opts.size), Path(folder), dpi, self.project_root)
        return write_pngs(self.pages, Path(folder), self.default_name(""), dpi)

    def _png_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export PNGs to folder", str(self.project_root))
        if folder:
            try:
                written = self.export_pngs(folder)
                self.message.setText(f"Wrote {len(written)} PNG(s) to {folder}")
            except (PrintError, OSError, ValueError) as exc:
                self.message.setText(f"<b>Cannot export:</b> {exc}")

    def _save_dialog(self) -> None:
        if not self.pages:
            return
        start = str(self.project_root / self.default_name())
        path, _ = QFileDialog.getSaveFileName(self, "Save PDF", start, "PDF (*.pdf)")
        if path:
            try:
                self.save_pdf(path)
                self.message.setText(f"Saved {path}")
            except OSError as exc:
                self.message.setText(f"<b>Cannot save:</b> {exc}")
