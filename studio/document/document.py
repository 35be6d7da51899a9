"""An open document: plain data edited through undoable ops, with change notifications, dirty state and saving.

Contracts:
- ``data`` is the JSON-like content (what the YAML file holds); never mutate it directly, use ``apply``.
- ``apply(label, ops)`` applies all ops or none (EditError), records one undo step (or joins the open gesture),
  and notifies subscribers with a :class:`Change` (reason ``do``/``undo``/``redo``; ``gesture`` when a gesture
  closes, ``saved``, ``dirty``). ``gesture(label)`` groups everything inside into one step.
- ``dirty`` is True when the content differs from the last save/open (by history position).
- ``save(path=None)`` writes the canonical text (``studio.model.save.document_text``) through
  ``studio.model.safeio.write_atomic`` and removes the autosave side file. With a ``root`` (the project folder,
  set by the session) a target outside it, a symlink or a symlinked folder is refused (``WriteRefused``, an
  OSError) and the document stays dirty: nothing of the user's edits is lost. An existing file's ``$schema``
  header line is kept (a project copied elsewhere keeps its headers, so a load-save round trip is
  byte-identical). ``autosave()`` writes the current content to the side file ``.<name>.autosave`` next to the
  document (hidden, so project loading skips it) when dirty, by the same writer; the session offers recovery.
- ``model()`` validates the data with the most specific pydantic model and returns ``(model, errors)``; it never
  raises on bad data.
"""
from __future__ import annotations

import os
import stat
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from pydantic import BaseModel, ValidationError

from studio.model import yamlio
from studio.model.pointers import escape, resolve
from studio.model.safeio import read_regular, write_atomic
from studio.model.save import document_text

from .history import History, Step
from .ops import DELETE, EditError, Op, Set, apply_all, structural

AUTOSAVE_SUFFIX = ".autosave"


def _existing_header(path: Path) -> str | None:
    """The ``$schema`` line of the regular file at ``path`` (None for a missing, special or undecodable file)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        first = read_regular(path).split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
    except (OSError, UnicodeDecodeError):
        return None
    return first if first.startswith(yamlio.SCHEMA_HEADER) else None


def autosave_path(path: Path) -> Path:
    path = Path(path)
    return path.with_name(f".{path.name}{AUTOSAVE_SUFFIX}")


@dataclass(frozen=True)
class Change:
    """What changed: the pointers edited, whether list shapes changed, and why (``do``/``undo``/``redo``)."""

    pointers: tuple[str, ...]
    structural: bool
    reason: str
    label: str = ""

    def touches(self, prefix: str) -> bool:
        """True when an edited pointer is ``prefix``, inside it, or contains it."""
        return any(p == prefix or p.startswith(prefix + "/") or prefix.startswith(p + "/") or p == ""
                   for p in self.pointers)


Listener = Callable[["EditableDocument", Change], None]


class EditableDocument:
    def __init__(self, path: Path, data: Any, display: str = "", root: Path | None = None):
        self.path = Path(path)
        self.root = Path(root) if root is not None else None  # writes stay inside it
        self.display = display or self.path.name
        self.data = data
        self.history = History()
        self._clean_serial = self.history.serial
        self._listeners: list[Listener] = []
        self._forced_dirty = False

    # ---------------------------------------------------------------- construction
    @classmethod
    def open(cls, path: Path, display: str = "", root: Path | None = None) -> "EditableDocument":
        """Read ``path`` (raises OSError, e.g. ``ReadRefused`` for a FIFO or device, or yamlio.YamlProblem when
        the file cannot be read as data)."""
        text = yamlio.decode(read_regular(path))
        return cls(path, yamlio.parse(text), display, root)

    # ---------------------------------------------------------------- reading
    @property
    def kind(self) -> str | None:
        kind = self.data.get("kind") if isinstance(self.data, dict) else None
        return kind if isinstance(kind, str) else None

    @property
    def id(self) -> str | None:
        value = self.data.get("id") if isinstance(self.data, dict) else None
        return value if isinstance(value, str) else None

    def get(self, pointer: str, default: Any = None) -> Any:
        try:
            return resolve(self.data, pointer)
        except (KeyError, IndexError, ValueError, TypeError):
            return default

    def model(self) -> tuple[BaseModel | None, list[dict]]:
        """The validated model (or None) and pydantic's error list."""
        from studio.model.kinds import CORE_KINDS, model_for
        kind = self.data.get("kind") if isinstance(self.data, dict) else None
        if not isinstance(kind, str) or kind not in CORE_KINDS:
            return None, [{"loc": (), "msg": "not a studio document (missing or unknown 'kind')"}]
        try:
            return model_for(self.data).model_validate(self.data), []
        except ValidationError as exc:
            return None, exc.errors(include_url=False)
        except Exception as exc:  # a plugin model failing must not crash an editor
            return None, [{"loc": (), "msg": f"{type(exc).__name__}: {exc}"}]

    def text(self) -> str:
        """The canonical text the file would get on save (model order when valid, the data as given otherwise)."""
        model, _ = self.model()
        return document_text(model if model is not None else self.data, self.path)

    # ---------------------------------------------------------------- editing
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(doc, change)`` after every edit, undo and redo; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self, ops: list[Op], reason: str, label: str) -> None:
        """Tell every listener; one failing listener is reported and does not stop the others (the edit stands)."""
        change = Change(tuple(op.pointer for op in ops), any(structural(op) for op in ops), reason, label)
        for listener in list(self._listeners):
            try:
                listener(self, change)
            except Exception:  # noqa: BLE001 - a view bug must not undo the user's edit or block other views
                traceback.print_exc()

    def apply(self, label: str, ops: list[Op]) -> None:
        """Apply ``ops`` as one edit (raises EditError and changes nothing when they do not fit)."""
        if not ops:
            return
        inverse = apply_all(self.data, list(ops))
        self.history.record(label, list(ops), inverse)
        self._notify(list(ops), "do", label)

    def begin_gesture(self, label: str) -> None:
        self.history.begin(label)

    def end_gesture(self) -> Step | None:
        step = self.history.end()
        if step is not None:
            self._notify([], "gesture", step.label)
        return step

    @contextmanager
    def gesture(self, label: str) -> Iterator[None]:
        """Everything applied inside is one undo step."""
        self.begin_gesture(label)
        try:
            yield
        finally:
            self.end_gesture()

    def undo(self) -> bool:
        step = self.history.pop_undo()
        if step is None:
            return False
        apply_all(self.data, step.inverse)
        self._notify(step.inverse, "undo", step.label)
        return True

    def redo(self) -> bool:
        step = self.history.pop_redo()
        if step is None:
            return False
        apply_all(self.data, step.forward)
        self._notify(step.forward, "redo", step.label)
        return True

    def replace_data(self, label: str, data: Any) -> None:
        """Replace the whole content as one undoable step (recovery, text edits); raises EditError if not a mapping."""
        if not isinstance(self.data, dict) or not isinstance(data, dict):
            raise EditError("a document must be a mapping")
        ops: list[Op] = [Set(f"/{escape(k)}", v) for k, v in data.items() if self.data.get(k, DELETE) != v]
        ops += [Set(f"/{escape(k)}", DELETE) for k in self.data if k not in data]
        self.apply(label, ops)

    # ---------------------------------------------------------------- dirty / saving
    @property
    def dirty(self) -> bool:
        return self._forced_dirty or self.history.serial != self._clean_serial

    def mark_dirty(self) -> None:
        """Force the dirty flag (e.g. content recovered from an autosave but not yet saved)."""
        self._forced_dirty = True
        self._notify([], "dirty", "")

    def save(self, path: Path | None = None) -> Path:
        """Write the document (to ``path`` = save as, which becomes the document's path). Returns the path."""
        target = Path(path) if path is not None else self.path
        text = self.text()
        header = _existing_header(target)
        if header is not None and text.startswith(yamlio.SCHEMA_HEADER):
            text = header + text[text.index("\n"):]
        write_atomic(target, text, root=self.root)
        old_autosave = autosave_path(self.path)
        self.path = target
        self._clean_serial = self.history.serial
        self._forced_dirty = False
        for side in {old_autosave, autosave_path(target)}:
            self._remove_side(side)
        self._notify([], "saved", "")
        return target

    def autosave(self) -> Path | None:
        """Write the side file when dirty; returns its path (None when clean)."""
        if not self.dirty:
            return None
        side = autosave_path(self.path)
        write_atomic(side, self.text(), root=self.root)
        return side

    def discard_autosave(self) -> None:
        self._remove_side(autosave_path(self.path))

    def _remove_side(self, side: Path) -> None:
        """Remove an autosave side file (a regular file or a link itself, never a link's target), only inside
        the root; a side file that cannot be removed is left (it is only a copy)."""
        if self.root is not None and not Path(os.path.abspath(side)).is_relative_to(os.path.abspath(self.root)):
            return
        try:
            if not stat.S_ISDIR(os.lstat(side).st_mode):
                os.unlink(side)
        except OSError:
            pass
