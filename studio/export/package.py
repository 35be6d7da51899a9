"""Scenario packages (``*.studio.zip``): a scenario and every document it references, with a manifest, and an
import that checks everything in memory before it writes a byte.

Export (:func:`build_package`) collects the scenario, its ruleset (as the project has it) and the variants
(house rules) that name the scenario, maps,
TO&Es (templates included), unit cards (substitutions included) and the counter/card layouts its units use,
transitively through :func:`studio.model.references.document_references`, and stores each file's text under its
project-relative path. ``manifest.json`` (the first entry) lists every document (path, kind, id, ruleset,
SHA-256, size), the scenario, the rule system and its version, and the pre-export record (validation summary,
balance summary). Entries have a fixed timestamp, so the same documents give the same bytes.

Import (:func:`plan_import`, then :func:`apply_import`) refuses, naming the entry and the reason, and writes
nothing, when the archive has: a path that climbs out (``..``), is absolute, has a drive letter or backslashes;
a symlink or other special entry (zip external attributes); an entry over :data:`MAX_ENTRY_BYTES` or a total
over :data:`MAX_TOTAL_BYTES` (declared sizes checked first, actual sizes counted while reading in chunks);
duplicate names (also ones equal but for case); encrypted entries; entries the manifest does not list (or the
reverse); a bad manifest, an unknown kind, a hash mismatch; a document that is not valid YAML or fails its model;
and finally a project that would fail validation with the package's documents in it.

A document whose kind and id the project already has with the same text is skipped (so the same package twice is
a no-op). With different text it is a collision, resolved by ``on_collision``: ``keep`` (the project's stays),
``replace`` (the package's overwrites the project's file), ``prefix`` (the package's is imported as
``<prefix>-<id>`` in ``<prefix>-<file name>``, so are the package's documents that use a prefixed one, and the
imported documents' references follow); without a choice the import is refused listing the collisions.
"""
from __future__ import annotations

import hashlib
import os
import io
import json
import re
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from studio.model import yamlio
from studio.model.project import LoadedDocument, ProjectIndex, load_project, validate_model
from studio.model.references import document_references
from studio.model.safeio import read_regular, write_atomic
from studio.model.save import document_text
from studio.model.validate import validate_index

FORMAT = "studio-package"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
KINDS = ("ruleset", "variant", "unit", "toe", "map", "scenario", "layout", "position")
MAX_ARCHIVE_BYTES = 64 * 1024 * 1024
MAX_ENTRY_BYTES = 4 * 1024 * 1024
MAX_TOTAL_BYTES = 32 * 1024 * 1024
MAX_ENTRIES = 5000
ZIP_TIME = (2020, 1, 1, 0, 0, 0)
COLLISION_CHOICES = ("keep", "replace", "prefix")
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")


class PackageRefused(ValueError):
    """The package is refused; ``findings`` are ``<archive>: <entry>: <reason>`` lines."""

    def __init__(self, message: str, findings: list[str] | None = None):
        super().__init__(message)
        self.findings = findings or [message]


@dataclass(frozen=True)
class Limits:
    archive: int = MAX_ARCHIVE_BYTES
    entry: int = MAX_ENTRY_BYTES
    total: int = MAX_TOTAL_BYTES
    entries: int = MAX_ENTRIES


# ------------------------------------------------------------------ export

def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def dependencies(index: ProjectIndex, scenario: LoadedDocument) -> list[LoadedDocument]:
    """The scenario and everything it references (transitively), the variants (house rules) naming it, and the
    layouts its units print with."""
    from studio.printing.faces import choose_layout

    seen: dict[tuple[str, str], LoadedDocument] = {}
    stack = [scenario]
    while stack:
        doc = stack.pop()
        key = (doc.kind or "", doc.id or "")
        if key in seen:
            continue
        seen[key] = doc
        for _pointer, kind, ref in document_references(doc.model):
            target = index.get(kind, ref)
            if target is not None and target.model is not None:
                stack.append(target)
    for doc in index.of_kind("variant"):  # house rules in force for this scenario (a variant names its scenarios)
        if doc.model is not None and scenario.id in getattr(doc.model, "scenarios", []):
            seen.setdefault(("variant", doc.id or ""), doc)
    for doc in [d for d in seen.values() if d.kind == "unit"]:
        for target in ("counter", "card"):
            layout = choose_layout(index, doc.model, target)
            found = index.get("layout", layout.id)
            if found is not None and found.model is layout:
                seen.setdefault(("layout", layout.id), found)
    return sorted(seen.values(), key=lambda d: (KINDS.index(d.kind) if d.kind in KINDS else 99, d.id or ""))


@dataclass
class PackageBuild:
    manifest: dict[str, Any]
    files: dict[str, bytes]

    def zip_bytes(self) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in self.files.items():
                info = zipfile.ZipInfo(name, ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = (0o100000 | 0o644) << 16  # a regular file, rw-r--r--
                z.writestr(info, data)
        return buf.getvalue()


def build_package(index: ProjectIndex, scenario_id: str, record: dict[str, Any] | None = None) -> PackageBuild:
    """The package of one scenario, in memory. Raises PackageRefused for an unknown or invalid scenario."""
    doc = index.get("scenario", scenario_id)
    if doc is None or doc.model is None:
        raise PackageRefused(f"no valid scenario with id {scenario_id!r}")
    docs = dependencies(index, doc)
    ruleset = index.model("ruleset", doc.model.ruleset)
    entries, files = [], {}
    for d in docs:
        rel = PurePosixPath(*Path(d.path).resolve().relative_to(Path(index.root).resolve()).parts).as_posix()
        data = d.text.encode("utf-8")
        files[rel] = data
        entries.append({"path": rel, "kind": d.kind, "id": d.id, "ruleset": d.ruleset or "", "sha256": _sha(data),
                        "size": len(data)})
    manifest = {"format": FORMAT, "format_version": FORMAT_VERSION, "scenario": scenario_id,
                "ruleset": {"id": doc.model.ruleset, "version": ruleset.version if ruleset else ""},
                "documents": entries, "record": record or {}}
    text = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")
    return PackageBuild(manifest, {MANIFEST: text, **files})


def write_package(build: PackageBuild, out: Path) -> Path:
    return write_atomic(out, build.zip_bytes())


# ------------------------------------------------------------------ reading an archive safely

_DRIVE = re.compile(r"^[A-Za-z]:")


def entry_problem(name: str) -> str | None:
    """Why an entry name is refused, or None when it is a safe relative path."""
    if not name or "\0" in name:
        return "empty name or NUL byte in the name"
    if "\\" in name:
        return "backslash in the path (not a portable zip path)"
    if name.startswith("/"):
        return "absolute path"
    if _DRIVE.match(name):
        return "drive letter in the path"
    parts = name.rstrip("/").split("/")
    if any(p == ".." for p in parts):
        return "path traversal ('..')"
    if any(p in ("", ".") for p in parts):
        return "empty or '.' path component"
    return None


def _entry_kind_problem(info: zipfile.ZipInfo) -> str | None:
    mode = info.external_attr >> 16
    kind = stat.S_IFMT(mode)
    if kind == stat.S_IFLNK:
        return "symbolic link entry"
    if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
        return "special file entry (not a regular file)"
    if info.flag_bits & 0x1:
        return "encrypted entry"
    return None


def _read_entry(z: zipfile.ZipFile, info: zipfile.ZipInfo, limits: Limits, used: int) -> bytes:
    """The entry's bytes, counted while reading in chunks (a header may lie about the size)."""
    chunks, total = [], 0
    with z.open(info) as f:
        while True:
            chunk = f.read(64 * 1024)
            if not chunk:
                break
            total += len(chunk)
            if total > info.file_size:
                raise PackageRefused(f"{info.filename}: more data than its declared size ({info.file_size:,} bytes)")
            if total > limits.entry:
                raise PackageRefused(f"{info.filename}: over the entry size limit ({limits.entry:,} bytes)")
            if used + total > limits.total:
                raise PackageRefused(f"total uncompressed size over the limit ({limits.total:,} bytes)")
            chunks.append(chunk)
    return b"".join(chunks)


def read_archive(data: bytes, limits: Limits = Limits()) -> dict[str, bytes]:
    """Every file entry of a zip, after the name, type and size checks (PackageRefused listing every entry
    with a problem)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise PackageRefused(f"not a zip archive ({exc})") from None
    with z:
        infos = z.infolist()
        if len(infos) > limits.entries:
            raise PackageRefused(f"{len(infos):,} entries; the limit is {limits.entries:,}")
        findings = _entry_findings(infos, limits)
        if findings:
            raise PackageRefused(f"{len(findings)} unsafe entr{'y' if len(findings) == 1 else 'ies'}", findings)
        out, used = {}, 0
        for info in infos:
            if info.is_dir():
                continue
            try:
                out[info.filename] = _read_entry(z, info, limits, used)
            except (zipfile.BadZipFile, zlib_error(), EOFError, OSError) as exc:
                raise PackageRefused(f"{info.filename}: corrupt entry ({exc})") from None
            used += len(out[info.filename])
        return out


def _entry_findings(infos: list[zipfile.ZipInfo], limits: Limits) -> list[str]:
    """Names, kinds, duplicates and declared sizes of every entry (before any byte is inflated)."""
    findings = []
    seen: dict[str, str] = {}
    declared = 0
    for info in infos:
        problem = entry_problem(info.filename) or _entry_kind_problem(info)
        key = info.filename.lower()
        if problem is None and key in seen:
            problem = f"duplicate entry (also {seen[key]!r})"
        seen.setdefault(key, info.filename)
        if problem is None and info.file_size > limits.entry:
            problem = f"declared size {info.file_size:,} bytes is over the entry limit ({limits.entry:,})"
        declared += info.file_size
        if problem:
            findings.append(f"{info.filename!r}: {problem}")
    if declared > limits.total and not findings:
        findings.append(f"declared total size {declared:,} bytes is over the limit ({limits.total:,})")
    return findings


def zlib_error():
    import zlib

    return zlib.error


# ------------------------------------------------------------------ manifest

def _manifest(files: dict[str, bytes]) -> dict[str, Any]:
    raw = files.get(MANIFEST)
    if raw is None:
        raise PackageRefused(f"no {MANIFEST}: not a studio package")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise PackageRefused(f"{MANIFEST}: not valid JSON ({exc})") from None
    problems = _manifest_problems(data)
    if problems:
        raise PackageRefused(f"{MANIFEST}: bad manifest", [f"{MANIFEST}: {p}" for p in problems])
    return data


def _manifest_problems(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["top level must be an object"]
    if data.get("format") != FORMAT:
        return [f"format must be {FORMAT!r}"]
    if data.get("format_version") != FORMAT_VERSION:
        return [f"format_version {data.get('format_version')!r} is not supported (this studio reads "
                f"{FORMAT_VERSION})"]
    docs = data.get("documents")
    if not isinstance(docs, list) or not docs:
        return ["'documents' must be a non-empty list"]
    out = []
    for i, d in enumerate(docs):
        if not isinstance(d, dict) or not all(isinstance(d.get(k), str) for k in ("path", "kind", "id", "sha256")):
            out.append(f"documents[{i}]: needs string path, kind, id and sha256")
        elif d["kind"] not in KINDS:
            out.append(f"documents[{i}] ({d['path']}): unknown kind {d['kind']!r} (a package holds "
                       f"{', '.join(KINDS)})")
        elif not _ID.match(d["id"]):
            out.append(f"documents[{i}] ({d['path']}): bad id {d['id']!r}")
        elif not d["path"].endswith((".yaml", ".yml")) or entry_problem(d["path"]):
            out.append(f"documents[{i}]: bad document path {d['path']!r}")
    return out


# ------------------------------------------------------------------ planning the import

@dataclass
class Action:
    """One file the import writes: ``path`` relative to the project, its text, and why."""

    path: str
    text: str
    kind: str
    id: str
    what: str       # 'add', 'replace', 'prefixed'


@dataclass
class ImportPlan:
    root: Path
    actions: list[Action] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)     # kind:id already present, same text
    kept: list[str] = field(default_factory=list)          # collisions where the project's document stays
    collisions: list[str] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    choice: str | None = None

    def summary(self) -> list[str]:
        lines = [f"{a.what}: {a.kind} {a.id} -> {a.path}" for a in self.actions]
        lines += [f"unchanged: {k}" for k in self.unchanged] + [f"kept (project's version): {k}" for k in self.kept]
        return lines


def _documents(files: dict[str, bytes], manifest: dict[str, Any], label: str) -> dict[str, tuple[dict, str]]:
    """path -> (manifest entry, text), after the listing, hash, YAML and model checks."""
    listed = {d["path"]: d for d in manifest["documents"]}
    findings = [f"{p!r}: not listed in the manifest" for p in files if p != MANIFEST and p not in listed]
    findings += [f"{p!r}: listed in the manifest but missing" for p in listed if p not in files]
    out = {}
    for path, entry in listed.items():
        data = files.get(path)
        if data is None:
            continue
        if _sha(data) != entry["sha256"]:
            findings.append(f"{path!r}: SHA-256 does not match the manifest")
            continue
        doc = LoadedDocument(Path(path), f"{label}:{path}")
        try:
            doc.text = yamlio.decode(data)
            doc.data = yamlio.parse(doc.text)
        except yamlio.YamlProblem as problem:
            findings.append(f"{path!r}: line {problem.line}: {problem.message}")
            continue
        validate_model(doc)
        errors = [d for d in doc.diagnostics if d.severity.value == "error"]
        if errors:
            findings += [f"{path!r}: line {d.line}: {d.message}" for d in errors[:5]]
        elif (doc.kind, doc.id) != (entry["kind"], entry["id"]):
            findings.append(f"{path!r}: is {doc.kind} {doc.id!r} but the manifest says {entry['kind']} {entry['id']!r}")
        else:
            out[path] = (entry, doc.text)
    if findings:
        raise PackageRefused(f"{len(findings)} problem(s) in the package's documents", findings)
    return out


def _rel(index: ProjectIndex, doc: LoadedDocument) -> str:
    return PurePosixPath(*Path(doc.path).resolve().relative_to(Path(index.root).resolve()).parts).as_posix()


def plan_import(archive: Path, project: Path, on_collision: str | None = None, prefix: str = "pkg",
                limits: Limits = Limits()) -> ImportPlan:
    """Check the package against the project and plan every write; raises PackageRefused (nothing written)."""
    label = Path(archive).name
    try:
        data = read_regular(archive, limits.archive)
    except OSError as exc:
        raise PackageRefused(f"cannot read {archive}: {getattr(exc, 'reason', None) or exc}") from None
    try:
        files = read_archive(data, limits)
        manifest = _manifest(files)
        docs = _documents(files, manifest, label)
    except PackageRefused as exc:
        raise PackageRefused(f"{label}: {exc}", [f"{label}: {f}" for f in exc.findings]) from None
    if on_collision is not None and on_collision not in COLLISION_CHOICES:
        raise PackageRefused(f"on_collision must be one of {', '.join(COLLISION_CHOICES)}")
    if on_collision == "prefix" and not _ID.match(prefix):
        raise PackageRefused(f"prefix {prefix!r} is not a valid id start (lower-case letters, digits, . _ -)")
    index = load_project(project)
    plan = ImportPlan(Path(project), manifest=manifest, choice=on_collision)
    renames = _collisions(plan, index, docs, on_collision, prefix, label)
    _actions(plan, index, docs, renames, prefix)
    _validate_result(plan, index, label)
    return plan


def _collisions(plan, index, docs, on_collision, prefix, label) -> dict[tuple[str, str], str]:
    """Fill unchanged/collisions; returns the (kind, id) -> new id renames of the prefix choice."""
    renames = {}
    for path, (entry, text) in docs.items():
        key = f"{entry['kind']}:{entry['id']}"
        mine = index.get(entry["kind"], entry["id"])
        if mine is None:
            continue
        if mine.text == text:
            plan.unchanged.append(key)
            continue
        plan.collisions.append(f"{key} (project file {_rel(index, mine)})")
        if on_collision == "prefix":
            renames[(entry["kind"], entry["id"])] = f"{prefix}-{entry['id']}"[:80]
    if plan.collisions and on_collision is None:
        raise PackageRefused(f"{label}: {len(plan.collisions)} document(s) collide with the project's; choose keep, "
                             "replace or prefix", [f"{label}: collision: {c}" for c in plan.collisions])
    if renames:
        _follow_renames(plan, index, docs, renames, prefix)
    return renames


def _follow_renames(plan: ImportPlan, index: ProjectIndex, docs, renames: dict, prefix: str) -> None:
    """A package document the project already has (same text) but that uses a prefixed one is prefixed too, so
    the package's scenario keeps using the package's TO&Es and cards (repeated until nothing changes)."""
    refs = {}
    for path, (entry, text) in docs.items():
        doc = LoadedDocument(Path(path), path, text=text, data=yamlio.parse(text))
        validate_model(doc)
        refs[(entry["kind"], entry["id"])] = {(k, r) for _p, k, r in document_references(doc.model)}
    changed = True
    while changed:
        changed = False
        for key, targets in refs.items():
            if key not in renames and index.get(*key) is not None and targets & set(renames):
                renames[key] = f"{prefix}-{key[1]}"[:80]
                label = f"{key[0]}:{key[1]}"
                if label in plan.unchanged:
                    plan.unchanged.remove(label)
                changed = True


def _renamed_text(text: str, path: str, renames: dict[tuple[str, str], str], own: tuple[str, str]) -> str:
    """The document with its own id and its references renamed (canonical text; only for the prefix choice)."""
    doc = LoadedDocument(Path(path), path, text=text, data=yamlio.parse(text))
    validate_model(doc)
    data = doc.data
    hits = [(pointer, renames[(kind, ref)]) for pointer, kind, ref in document_references(doc.model)
            if (kind, ref) in renames]
    if not hits and own not in renames:
        return text  # nothing to rename: the file stays as the package has it
    for pointer, new_id in hits:
        _set_at(data, pointer, new_id)
    if own in renames:
        data["id"] = renames[own]
    return document_text(data, Path(path), text)


def _set_at(data: Any, pointer: str, value: str) -> None:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    node = data
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _actions(plan: ImportPlan, index: ProjectIndex, docs, renames, prefix: str) -> None:
    existing = {_rel(index, d): d for d in index.documents}
    for path, (entry, text) in docs.items():
        kind, doc_id = entry["kind"], entry["id"]
        key = f"{kind}:{doc_id}"
        if key in plan.unchanged:
            continue
        mine = index.get(kind, doc_id)
        if mine is not None and (kind, doc_id) not in renames:
            if plan.choice == "replace":
                plan.actions.append(Action(_rel(index, mine), text, kind, doc_id, "replace"))
            else:
                plan.kept.append(key)
            continue
        target, what = path, "add"
        if (kind, doc_id) in renames:
            p = PurePosixPath(path)
            target, what = str(p.with_name(f"{prefix}-{p.name}")), "prefixed"
        if renames:
            text = _renamed_text(text, target, renames, (kind, doc_id))
        if target in existing:
            raise PackageRefused(f"{target}: a different document ({existing[target].kind} "
                                 f"{existing[target].id!r}) already has this file name in the project")
        plan.actions.append(Action(target, text, kind, renames.get((kind, doc_id), doc_id), what))


def _validate_result(plan: ImportPlan, index: ProjectIndex, label: str) -> None:
    """Validate the project as it would be after the import; refuse on any error in an imported document."""
    if not plan.actions:
        return
    replaced = {a.path for a in plan.actions}
    merged = ProjectIndex(index.root)
    for d in index.documents:
        if _rel(index, d) not in replaced:
            merged.add(d)
    new_docs = []
    for a in plan.actions:
        doc = LoadedDocument(Path(index.root) / a.path, f"{label}:{a.path}", text=a.text, data=yamlio.parse(a.text))
        validate_model(doc)
        merged.add(doc)
        new_docs.append(doc)
    result = validate_index(merged, only={os.path.abspath(Path(index.root) / a.path) for a in plan.actions})
    errors = [d for d in result.diagnostics if d.severity.value == "error" and d.file.startswith(f"{label}:")]
    if errors:
        raise PackageRefused(f"{label}: the imported documents would not validate in this project",
                             [d.format_text() for d in errors[:50]])


def import_package(archive: Path, project: Path, on_collision: str | None = None, prefix: str = "pkg",
                   limits: Limits = Limits(), dry_run: bool = False) -> ImportPlan:
    """Plan, then (unless ``dry_run``) write every planned file atomically inside the project."""
    plan = plan_import(archive, project, on_collision, prefix, limits)
    if not dry_run:
        apply_import(plan)
    return plan


def apply_import(plan: ImportPlan) -> list[Path]:
    return [write_atomic(plan.root / a.path, a.text, root=plan.root) for a in plan.actions]
