"""The one write path (write_atomic), the regular-file reader and stale temp cleaning (issue 18 items 6-8)."""
from __future__ import annotations

import os
import stat
import threading
import time

import pytest

from studio.model import safeio
from studio.model.safeio import ReadRefused, WriteRefused, clean_stale_temps, read_regular, write_atomic


def _names(folder):
    return sorted(os.listdir(folder))


def test_write_atomic_writes_str_as_utf8_and_bytes_as_given(tmp_path):
    target = tmp_path / "a.yaml"
    assert write_atomic(target, "kind: x\nname: é\n") == target
    assert target.read_bytes() == "kind: x\nname: é\n".encode()
    write_atomic(target, b"\x00\xff")
    assert target.read_bytes() == b"\x00\xff"
    assert _names(tmp_path) == ["a.yaml"]


def test_write_atomic_creates_missing_folders_inside_root(tmp_path):
    target = tmp_path / "units" / "new" / "a.yaml"
    write_atomic(target, "x", root=tmp_path)
    assert target.read_text() == "x"


def test_write_atomic_keeps_permission_bits(tmp_path):
    target = tmp_path / "a.yaml"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    write_atomic(tmp_path / "b.yaml", "new", mode=0o600)
    assert stat.S_IMODE((tmp_path / "b.yaml").stat().st_mode) == 0o600


def test_new_file_gets_umask_bits(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "n.yaml", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.yaml").stat().st_mode) == 0o644


def test_refuses_symlink_target_and_leaves_its_target_untouched(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    link = tmp_path / "proj" / "a.yaml"
    link.parent.mkdir()
    link.symlink_to(outside)
    with pytest.raises(WriteRefused, match="symbolic link") as info:
        write_atomic(link, "evil")
    assert str(link) in str(info.value)
    assert outside.read_text() == "precious" and link.is_symlink()
    assert _names(link.parent) == ["a.yaml"]


def test_refuses_dangling_symlink_without_creating_its_target(tmp_path):
    link = tmp_path / "out.pdf"
    link.symlink_to(tmp_path / "created-by-link.pdf")
    with pytest.raises(WriteRefused):
        write_atomic(link, b"%PDF")
    assert not (tmp_path / "created-by-link.pdf").exists()


def test_refuses_outside_root_and_dotdot_escapes(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    for target in (tmp_path / "evil.yaml", root / ".." / "evil.yaml", root / "a" / ".." / ".." / "evil.yaml", root):
        with pytest.raises(WriteRefused, match="outside the project"):
            write_atomic(target, "x", root=root)
    assert not (tmp_path / "evil.yaml").exists()


def test_refuses_symlinked_folder_inside_root(tmp_path):
    root, outside = tmp_path / "proj", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "units").symlink_to(outside)
    with pytest.raises(WriteRefused, match="symbolic link"):
        write_atomic(root / "units" / "a.yaml", "x", root=root)
    assert list(outside.iterdir()) == []
    # without a root the target's own folder is still checked
    with pytest.raises(WriteRefused, match="symbolic link"):
        write_atomic(root / "units" / "a.yaml", "x")
    assert list(outside.iterdir()) == []


def test_root_itself_may_be_a_symlink(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    write_atomic(tmp_path / "link" / "a.yaml", "x", root=tmp_path / "link")
    assert (real / "a.yaml").read_text() == "x"


def test_refuses_special_files(tmp_path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    with pytest.raises(WriteRefused, match="not a regular file"):
        write_atomic(fifo, "x")
    (tmp_path / "d.yaml").mkdir()
    with pytest.raises(WriteRefused, match="not a regular file"):
        write_atomic(tmp_path / "d.yaml", "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_failed_write_leaves_no_temp_and_old_content(tmp_path, monkeypatch):
    target = tmp_path / "a.yaml"
    target.write_text("old")

    def boom(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safeio.os, "fsync", boom)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, "new")
    assert target.read_text() == "old" and _names(tmp_path) == ["a.yaml"]


def test_temp_names_are_unique_recognisable_and_fit(tmp_path):
    names = {safeio.temp_name("a.yaml") for _ in range(200)}
    assert len(names) == 200 and all(safeio.is_temp_name(n) for n in names)
    long = safeio.temp_name("x" * 255)
    assert len(long) <= 255 and safeio.is_temp_name(long)
    assert not safeio.is_temp_name("a.yaml") and not safeio.is_temp_name(".hidden.tmp")


def test_read_regular_refuses_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    done = []
    worker = threading.Thread(target=lambda: done.append(_refusal(fifo)), daemon=True)
    worker.start()
    worker.join(5)
    assert done == ["file.special"]


def _refusal(path, **kw):
    try:
        read_regular(path, **kw)
    except ReadRefused as exc:
        return exc.code
    return None


def test_read_regular_refuses_devices_and_links_to_them(tmp_path):
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    assert _refusal(link) == "file.special"
    assert _refusal("/dev/null") == "file.special"
    assert _refusal(tmp_path) == "file.unreadable"


def test_read_regular_checks_size_before_reading(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 101)
    assert _refusal(big, limit=100) == "file.too-large"
    assert read_regular(big, limit=101) == b"x" * 101
    # a symlink to a regular file is read (reading never writes)
    (tmp_path / "l.yaml").symlink_to(big)
    assert len(read_regular(tmp_path / "l.yaml")) == 101


def test_clean_stale_temps_removes_old_and_new_patterns_only(tmp_path):
    sub = tmp_path / "units"
    sub.mkdir()
    stale = [sub / ".a.yaml.studio-0123456789ab.tmp", sub / ".b.yaml.k2j_x9zq.tmp", tmp_path / "g.replay.json.tmp"]
    keep = [sub / "a.yaml", sub / ".notes.tmp", sub / "a.yaml.tmp"]
    fresh = sub / ".c.yaml.studio-ffffffffffff.tmp"
    for p in stale + keep + [fresh]:
        p.write_text("x")
    old = time.time() - 60
    for p in stale + keep:
        os.utime(p, (old, old))
    hidden = tmp_path / ".git"
    hidden.mkdir()
    (hidden / ".x.yaml.studio-0123456789ab.tmp").write_text("x")
    assert sorted(clean_stale_temps(tmp_path)) == sorted(stale)
    assert all(p.exists() for p in keep + [fresh])
    assert clean_stale_temps(tmp_path, min_age=0) == [fresh]


def test_yamlio_atomic_write_delegates(tmp_path):
    from studio.model import yamlio

    link = tmp_path / "l.yaml"
    link.symlink_to(tmp_path / "x.yaml")
    with pytest.raises(WriteRefused):
        yamlio.atomic_write(link, "x")
    yamlio.atomic_write(tmp_path / "ok.yaml", "kind: x\n")
    assert (tmp_path / "ok.yaml").read_text() == "kind: x\n"


def test_an_output_outside_projects_cleans_its_own_stale_temps(tmp_path):
    stale = tmp_path / ".out.pdf.studio-0123456789ab.tmp"
    other = tmp_path / ".other.pdf.studio-0123456789ab.tmp"
    for p in (stale, other):
        p.write_bytes(b"half")
        os.utime(p, (time.time() - 60, time.time() - 60))
    write_atomic(tmp_path / "out.pdf", b"%PDF")
    assert not stale.exists() and other.exists()
