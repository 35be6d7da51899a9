"""The one write path of the studio, and the one way to read a file a user handed it.

Policy (applies to every file the studio writes: documents, schemas, replays, balance reports, PDFs, PNGs,
exports, autosaves):

* **Atomic.** :func:`write_atomic` writes a temporary file in the target's own folder, named with the studio's
  own pattern ``.<name>.studio-<12 hex>.tmp`` and created with ``O_EXCL|O_NOFOLLOW`` (never predictable, never
  an existing file), fsyncs it, renames it over the target with ``os.replace`` and fsyncs the folder. A kill at
  any moment leaves the old file or the new one, never an empty or torn one; what a kill can leave is a temp
  file, which :func:`clean_stale_temps` removes the next time the project is opened (every command and the
  window list a project through :func:`studio.model.project.project_files`, which cleans); for an output
  outside any project (no ``root``), the next write of the same file removes them. "Stale" means older than
  :data:`STALE_AFTER_S` seconds, so a writer still at work in another process keeps its temp file.
* **Never through a symlink.** A target that is a symlink (dangling or not) is refused, never replaced and never
  followed. With a ``root`` (the project folder), every folder between the root and the target must be a real
  folder, not a symlink; the root itself may be reached through one.
* **Never outside the project.** With a ``root``, a target whose normalised absolute path is not inside the root
  is refused (checked on the path text plus an ``lstat`` walk, not by resolving links). Files the user names
  explicitly on the command line (``studio print -o OUT.pdf``, ``--png DIR``, ``map export -o``) are written
  without a root, so they may be anywhere, but still never through a symlink at the target.
* **Only regular files.** An existing target that is not a regular file (folder, FIFO, device, socket) is refused.
  The existing file's permission bits are kept; a new file gets ``0o666 & ~umask`` (or ``mode``).
* Refusals raise :class:`WriteRefused` (an ``OSError``) whose message names the path and the reason.

Reading (:func:`read_regular`) follows symlinks but opens only regular files (a FIFO, ``/dev/zero`` or a socket
named ``*.yaml`` is refused, without blocking), and checks the size limit before reading a byte.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

MAX_FILE_BYTES = 16 * 1024 * 1024

#: temp files of :func:`write_atomic`
TEMP_PATTERN = re.compile(r"^\..+\.studio-[0-9a-f]{12}\.tmp$")
#: temp files of earlier studio versions: ``tempfile.mkstemp(prefix='.<name>.', suffix='.tmp')`` and the
#: replay writer's ``<name>.replay.json.tmp``
OLD_TEMP_PATTERNS = (re.compile(r"^\..+\.(?:ya?ml|json)\.[a-z0-9_]{8}\.tmp$"),
                     re.compile(r"^.+\.replay\.json\.tmp$"))
#: a temp file younger than this may belong to a writer still at work
STALE_AFTER_S = 5.0
_NAME_MAX = 255
_NOFOLLOW, _DIRECTORY = getattr(os, "O_NOFOLLOW", 0), getattr(os, "O_DIRECTORY", 0)
_CLOEXEC, _BINARY = getattr(os, "O_CLOEXEC", 0), getattr(os, "O_BINARY", 0)
#: writes relative to an open folder (no symlink swap between the checks and the rename); not on Windows
_DIR_FD = {os.open, os.rename, os.unlink, os.stat} <= os.supports_dir_fd


class WriteRefused(OSError):
    """The studio will not write this path (symlink, outside the project, special file)."""

    def __init__(self, path: str | os.PathLike, reason: str):
        super().__init__(f"refusing to write {os.fspath(path)}: {reason}")
        self.path, self.reason = os.fspath(path), reason


class ReadRefused(OSError):
    """The studio will not read this path; ``code`` is ``file.special`` or ``file.too-large``."""

    def __init__(self, path: str | os.PathLike, code: str, reason: str):
        super().__init__(reason)
        self.path, self.code, self.reason = os.fspath(path), code, reason


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is a temp file name of the studio's atomic writer (this or an earlier version)."""
    return bool(TEMP_PATTERN.match(name)) or any(p.match(name) for p in OLD_TEMP_PATTERNS)


# ------------------------------------------------------------------ writing

def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives
        return False


def _check_folders(path: str, root: str | None) -> None:
    """Walk the folders from ``root`` down to ``path``'s folder: refuse symlinks and non-folders; create the
    missing ones (without a root, only the target's own folder is checked)."""
    parent = os.path.dirname(path)
    if root is None:
        chain = [parent]
    else:
        rel = os.path.relpath(parent, root)
        chain, current = [], root
        for part in ([] if rel == "." else rel.split(os.sep)):
            current = os.path.join(current, part)
            chain.append(current)
    for folder in chain:
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            if root is None:
                os.makedirs(folder, exist_ok=True)
            else:
                os.mkdir(folder)
            continue
        if stat.S_ISLNK(st.st_mode):
            raise WriteRefused(path, f"folder {folder} is a symbolic link; the studio never writes through one")
        if not stat.S_ISDIR(st.st_mode):
            raise WriteRefused(path, f"{folder} is not a folder")


def _target_mode(path: str, mode: int | None) -> int:
    """Permission bits for the new file: ``mode``, else the existing file's, else ``0o666 & ~umask``."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise WriteRefused(path, "it is a symbolic link; the studio never writes through one")
        if not stat.S_ISREG(st.st_mode):
            raise WriteRefused(path, "it is not a regular file")
    if mode is not None:
        return mode & 0o777
    if st is not None:
        return stat.S_IMODE(st.st_mode) & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def temp_name(name: str) -> str:
    """A fresh temp file name for target ``name`` (matches :data:`TEMP_PATTERN`, fits in NAME_MAX)."""
    token = secrets.token_hex(6)
    room = _NAME_MAX - len(f"..studio-{token}.tmp")
    return f".{name[:room]}.studio-{token}.tmp"


def write_atomic(path: str | os.PathLike, data: str | bytes, *, root: str | os.PathLike | None = None,
                 mode: int | None = None) -> Path:
    """Replace ``path`` by ``data`` atomically (see the module policy); returns the path written.

    ``str`` data is written as UTF-8, newlines as given (``\\n``, never translated to the platform's).
    Raises :class:`WriteRefused` for a path the policy refuses, ``OSError`` for a failed write (the target is
    then untouched and no temp file is left).
    """
    target = os.path.abspath(os.fspath(path))
    if root is not None:
        base = os.path.abspath(os.fspath(root))
        if not _inside(target, base) or target == base:
            raise WriteRefused(path, f"it is outside the project folder {base}")
    else:
        base = None
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)  # no newline translation
    _check_folders(target, base)
    bits = _target_mode(target, mode)
    folder, name = os.path.split(target)
    if base is None:  # an output outside any project: no project listing will clean its folder, so do it here
        _clean_for(folder, name)
    if not _DIR_FD:  # no dir_fd support (Windows): the same steps by path
        _replace_in(None, folder, name, payload, bits)
        return Path(target)
    nofollow = 0 if folder == base else _NOFOLLOW  # the root itself may be reached through a link
    try:
        dir_fd = os.open(folder, os.O_RDONLY | _DIRECTORY | nofollow | _CLOEXEC)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise WriteRefused(path, f"folder {folder} is a symbolic link or not a folder") from None
        raise
    try:
        _replace_in(dir_fd, folder, name, payload, bits)
    finally:
        os.close(dir_fd)
    return Path(target)


def _replace_in(dir_fd: int | None, folder: str, name: str, payload: bytes, bits: int) -> None:
    """Temp file, write, fsync, re-check the target, rename, fsync the folder; names are relative to ``dir_fd``
    (or full paths when it is None)."""
    def at(n: str) -> str:
        return n if dir_fd is not None else os.path.join(folder, n)

    tmp = temp_name(name)
    fd = os.open(at(tmp), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY, 0o600,
                 dir_fd=dir_fd)
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            if hasattr(os, "fchmod"):
                os.fchmod(fd, bits)
            else:  # pragma: no cover - Windows before Python 3.13
                os.chmod(at(tmp), bits)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:  # re-check just before the rename: the target must still not be a link or special file
            st = os.lstat(at(name), dir_fd=dir_fd)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise WriteRefused(os.path.join(folder, name), "it became a symbolic link or special file meanwhile")
        os.replace(at(tmp), at(name), src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(at(tmp), dir_fd=dir_fd)
        except OSError:
            pass
        raise
    if dir_fd is not None:
        try:
            os.fsync(dir_fd)
        except OSError:  # some file systems cannot fsync a folder; the rename is done
            pass


# ------------------------------------------------------------------ reading

def read_regular(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file (symlinks followed), at most ``limit`` bytes.

    Raises :class:`ReadRefused` (``file.special`` for FIFOs, devices, sockets; ``file.unreadable`` for a folder;
    ``file.too-large`` when the size exceeds ``limit``, checked before reading) and ``OSError`` when the file
    cannot be opened.
    """
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise ReadRefused(path, "file.unreadable", "cannot read file: it is a folder")
    if not stat.S_ISREG(st.st_mode):
        raise ReadRefused(path, "file.special", f"not a regular file ({_kind_of(st.st_mode)}); not read")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC | _BINARY)
    try:
        st = os.fstat(fd)  # the file opened, not the one stat-ed a moment ago
        if not stat.S_ISREG(st.st_mode):
            raise ReadRefused(path, "file.special", f"not a regular file ({_kind_of(st.st_mode)}); not read")
        if st.st_size > limit:
            raise ReadRefused(path, "file.too-large", f"file is {st.st_size:,} bytes; the limit is {limit:,}")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > limit:
        raise ReadRefused(path, "file.too-large", f"file is more than {limit:,} bytes; the limit is {limit:,}")
    return b"".join(chunks)


def read_text(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> str:
    """:func:`read_regular` decoded as UTF-8 (``UnicodeDecodeError`` is a ``ValueError``)."""
    return read_regular(path, limit).decode("utf-8")


def _kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


# ------------------------------------------------------------------ stale temp files

def remove_stale(folder: str | os.PathLike, names: list[str], min_age: float = STALE_AFTER_S) -> list[Path]:
    """Remove the regular files among ``names`` in ``folder`` that have a temp name and are older than
    ``min_age`` seconds; returns those removed (errors are skipped: cleaning is best effort)."""
    removed: list[Path] = []
    now = time.time()
    for name in names:
        if not is_temp_name(name):
            continue
        full = os.path.join(folder, name)
        try:
            st = os.lstat(full)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime >= min_age:
                os.unlink(full)
                removed.append(Path(full))
        except OSError:
            continue
    return removed


def _clean_for(folder: str, name: str) -> None:
    """Remove stale temp files that earlier writes of ``name`` left in ``folder``."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(f".{name[:200]}") and is_temp_name(n)]
    except OSError:
        return
    remove_stale(folder, names)


def clean_stale_temps(root: str | os.PathLike, min_age: float = STALE_AFTER_S) -> list[Path]:
    """Remove the studio's stale temp files under ``root`` (hidden folders and symlinked folders skipped)."""
    removed: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(os.fspath(root)):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        removed += remove_stale(dirpath, filenames, min_age)
    return removed
