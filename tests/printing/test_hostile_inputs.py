"""Printing never reads special files: a card picture that is a FIFO or a device is skipped (issue 18, item 7)."""
from __future__ import annotations

import os
import threading

import pytest

from studio.printing.render import _load_image


def test_fifo_card_picture_is_skipped_without_blocking(tmp_path):
    fifo = tmp_path / "picture.png"
    os.mkfifo(fifo)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(_load_image(str(fifo))), daemon=True)
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "reading a FIFO picture blocked"
    assert result == [None]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_device_card_picture_is_not_read(tmp_path):
    link = tmp_path / "zero.png"
    link.symlink_to("/dev/zero")
    assert _load_image(str(link)) is None


def test_real_picture_still_loads(tmp_path, qapp):
    from PySide6.QtGui import QColor, QImage

    img = QImage(4, 3, QImage.Format.Format_RGB32)
    img.fill(QColor("red"))
    path = tmp_path / "ok.png"
    assert img.save(str(path))
    loaded = _load_image(str(path))
    assert loaded is not None and (loaded.width(), loaded.height()) == (4, 3)


def test_a_bad_source_file_gives_a_message(project, tmp_path, capsys):
    from studio.cli.main import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: scenario\nid: [unclosed\n")
    assert main(["print", "counters", str(bad), "-o", str(tmp_path / "x.pdf"), "--project", str(project)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "not a valid document" in err and "Traceback" not in err
    assert not (tmp_path / "x.pdf").exists()


def test_a_fifo_source_does_not_block(project, tmp_path, capsys):
    from studio.cli.main import main

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result: list = []
    args = ["print", "cards", str(fifo), "-o", str(tmp_path / "x.pdf"), "--project", str(project)]
    worker = threading.Thread(target=lambda: result.append(main(args)), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "reading a FIFO source blocked"
    assert result and result[0] != 0
