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
