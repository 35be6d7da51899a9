"""The preview dialog builds the same pages as the CLI and shows problems instead of raising."""
from __future__ import annotations

from studio.qt.print_preview import PrintPreviewDialog


def test_preview_shows_pages_and_saves(qtbot, project, tmp_path):
    dialog = PrintPreviewDialog(project, "probe")
    qtbot.addWidget(dialog)
    assert dialog.kind.currentText() == "scenario"
    assert dialog.pages
    dialog.kind.setCurrentText("counters")
    assert len(dialog.pages) == 2 and "front" in dialog.pages[0].label
    dialog.page_spin.setValue(2)
    assert dialog.current == 1
    image = dialog.view.grab_image()
    assert image.width() > 100
    dialog.save_pdf(tmp_path / "p.pdf")
    assert (tmp_path / "p.pdf").stat().st_size > 1000


def test_preview_reports_bad_options(qtbot, project):
    dialog = PrintPreviewDialog(project, "us-troop")
    qtbot.addWidget(dialog)
    dialog.size.setCurrentText("nonsense")
    assert dialog.refresh() is False
    assert "not a length" in dialog.message.text()


def test_switching_to_cards_resets_bleed_to_butted(qtbot, project):
    dialog = PrintPreviewDialog(project, "us-troop")
    qtbot.addWidget(dialog)
    assert dialog.bleed.text() == "0.125in"
    dialog.kind.setCurrentText("cards")
    assert dialog.bleed.text() == "0" and dialog.gutter.text() == "0"
    assert dialog.pages and dialog.pages[0].label.startswith("cards")
