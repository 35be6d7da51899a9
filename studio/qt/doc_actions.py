"""Document-level actions of the window: new card from template, duplicate, rename id, delete with check.

Each takes the main window (for its dialogs: ``ask_text``/``ask_item``/``ask_yes_no``/``tell``) and leaves the
project consistent: new and duplicated documents are written at once and opened; rename updates every reference
(the touched documents become unsaved edits, undoable per document); delete refuses while the document is used
and lists the users.
"""
from __future__ import annotations

import copy
from pathlib import Path

from studio.document import templates
from studio.document.session import InUse


def new_card(window) -> Path | None:
    session = window.session
    rulesets = templates.card_rulesets(session)
    ruleset = window.ask_item("New unit card", "Rule system:", rulesets)
    if not ruleset:
        return None
    categories = templates.card_categories(ruleset)
    category = window.ask_item("New unit card", "Category:", categories) if len(categories) > 1 else categories[0]
    if not category:
        return None
    new_id = window.ask_text("New unit card", "Id of the new card (lower-case, e.g. t-64b):")
    if not new_id:
        return None
    try:
        data = templates.new_card(ruleset, category, new_id)
        doc = session.create(session.root / templates.folder_for("unit", ruleset) / f"{new_id}.yaml", data)
    except (ValueError, OSError) as exc:  # OSError: FileExistsError, WriteRefused (outside the project, symlink)
        window.tell("New unit card", f"Cannot create the card: {exc}")
        return None
    window.refresh_tree()
    window.open_path(doc.path)
    return doc.path


def new_document(window, kind: str | None = None) -> Path | None:
    """File > New…: ask the kind (unless given), the rule system and the id; write, list and open it."""
    session = window.session
    kind = kind or window.ask_item("New document", "Kind:", list(templates.NEW_KINDS))
    if not kind:
        return None
    if kind == "unit":
        return new_card(window)
    ruleset = window.ask_item(f"New {kind}", "Rule system:", templates.card_rulesets(session))
    if not ruleset:
        return None
    new_id = window.ask_text(f"New {kind}", f"Id of the new {kind} (lower-case, e.g. probe-at-rasdorf):")
    if not new_id:
        return None
    try:
        if session.find(new_id, kind):
            raise ValueError(f"a {kind} with id '{new_id}' already exists")
        data = templates.new_document(session, kind, ruleset, new_id)
        doc = session.create(session.root / templates.folder_for(kind, ruleset) / f"{new_id}.yaml", data)
    except (ValueError, OSError) as exc:
        window.tell(f"New {kind}", f"Cannot create it: {exc}")
        return None
    window.refresh_tree()
    window.open_path(doc.path)
    return doc.path


def duplicate(window, path: Path) -> Path | None:
    session = window.session
    doc = session.open_document(path)
    new_id = window.ask_text("Duplicate", f"Id of the copy of '{doc.id}':", f"{doc.id}-copy")
    if not new_id:
        return None
    try:
        data = templates.duplicate(copy.deepcopy(doc.data), new_id)
        target = doc.path.with_name(f"{new_id}{doc.path.suffix}")
        if session.find(new_id, doc.kind):
            raise ValueError(f"a {doc.kind} with id '{new_id}' already exists")
        created = session.create(target, data)
    except (ValueError, OSError) as exc:
        window.tell("Duplicate", f"Cannot duplicate: {exc}")
        return None
    window.refresh_tree()
    window.open_path(created.path)
    return created.path


def rename(window, path: Path, new_id: str | None = None) -> list:
    """Rename a document's id and every reference to it (asks the new id unless given, and whether to confirm
    when given, e.g. typed in an Id field). Offers to rename the file too when its name is the old id."""
    session = window.session
    doc = session.open_document(path)
    old_id = doc.id
    if new_id is None:
        new_id = window.ask_text("Rename id", f"New id for {doc.kind} '{doc.id}' (every reference follows):",
                                 doc.id)
    else:
        users = session.users_of(doc.kind, old_id) if old_id else []
        where = sorted({u.display for u in users})
        if not window.ask_yes_no("Rename id", f"Rename {doc.kind} '{old_id}' to '{new_id}'?"
                                 + (f"\n\n{len(users)} reference(s) in {', '.join(where)} follow." if users else "")):
            return []
    if not new_id or new_id == old_id:
        return []
    try:
        changed = session.rename_id(doc.kind, old_id, new_id)
    except ValueError as exc:
        window.tell("Rename id", str(exc))
        return []
    for other in changed:
        if window.editor_of(other.path) is None:
            window.open_path(other.path)
    _offer_file_rename(window, doc, old_id, new_id)
    window.statusBar().showMessage(f"Renamed '{new_id}' in {len(changed)} document(s); save to keep", 10_000)
    window.open_path(doc.path)
    return changed


def _offer_file_rename(window, doc, old_id: str, new_id: str) -> bool:
    """A file named after the old id may follow the new one (the document is saved under the new name)."""
    if doc.path.stem != old_id:
        return False
    target = doc.path.with_name(f"{new_id}{doc.path.suffix}")
    if target.exists() or not window.ask_yes_no("Rename the file too", f"Rename the file {doc.path.name} to "
                                                                         f"{target.name} (saved now)?"):
        return False
    old = doc.path
    try:
        window.session.rename_file(doc, target)
    except OSError as exc:
        window.tell("Rename the file", f"The file keeps its name: {exc}")
        return False
    window.file_moved(old, doc.path)
    return True


def delete(window, path: Path) -> bool:
    session = window.session
    display = session.display(path)
    if not window.ask_yes_no("Delete", f"Delete {display}? This removes the file."):
        return False
    try:
        session.delete(path)
    except InUse as exc:
        users = "\n".join(f"  {u.display}  ({u.pointer})" for u in exc.users)
        window.tell("Delete refused", f"{display} is still used by:\n{users}\n\nRemove those references first.")
        return False
    except OSError as exc:
        window.tell("Delete refused", f"Cannot delete {display}: {exc}")
        return False
    editor = window.editor_of(path)
    if editor is not None:
        editor.doc.history = type(editor.doc.history)()  # nothing left to save
        editor.doc._forced_dirty = False
        window.close_tab(window.tabs.indexOf(editor))
    window.refresh_tree()
    window.validate_now()
    return True
