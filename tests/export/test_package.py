"""Scenario packages (studio.export.package): the manifest, an import that validates before writing, collisions
(keep / replace / prefix), the same package twice as a no-op, and every hostile archive refused with its reason
and nothing written (the project tree hashed before and after)."""
import hashlib
import io
import json
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from studio.export.package import (Limits, PackageRefused, build_package, import_package, plan_import,
                                   read_archive)
from studio.model.project import load_project
from studio.model.validate import validate_index

DATA = Path(__file__).resolve().parents[2] / "data"
PROJECT = "kind: project\nschema_version: 1\nid: target\nname: Target\nrulesets: [mbt, waw]\n"


@pytest.fixture(scope="module")
def index():
    return load_project(DATA)


@pytest.fixture(scope="module")
def package(index):
    return build_package(index, "waw-crossroads", {"validation": {"errors": 0}})


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        h.update(str(p.relative_to(root)).encode())
        if p.is_file() and not p.is_symlink():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture
def empty(tmp_path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "project.yaml").write_text(PROJECT)
    return root


def _zip(entries: list[tuple[str, bytes]], mode: int = stat.S_IFREG | 0o644) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            info.external_attr = mode << 16
            z.writestr(info, data)
    return buf.getvalue()


def _entries(package) -> list[tuple[str, bytes]]:
    return list(package.files.items())


def _with_manifest(package, docs: list[tuple[str, bytes, str, str]]) -> bytes:
    """A package of ``docs`` (path, bytes, kind, id) with a correct manifest."""
    manifest = dict(package.manifest)
    manifest["documents"] = [{"path": p, "kind": k, "id": i, "ruleset": "", "sha256": hashlib.sha256(b).hexdigest(),
                              "size": len(b)} for p, b, k, i in docs]
    return _zip([("manifest.json", json.dumps(manifest).encode())] + [(p, b) for p, b, _, _ in docs])


def test_manifest_lists_every_document_with_hashes(package):
    m = package.manifest
    assert m["format"] == "studio-package" and m["scenario"] == "waw-crossroads"
    assert m["ruleset"]["id"] == "waw" and m["ruleset"]["version"]
    kinds = {d["kind"] for d in m["documents"]}
    assert {"scenario", "ruleset", "map", "toe", "unit", "layout"} <= kinds
    for d in m["documents"]:
        assert hashlib.sha256(package.files[d["path"]]).hexdigest() == d["sha256"]
    assert m["record"] == {"validation": {"errors": 0}}
    assert package.zip_bytes() == package.zip_bytes()


def test_import_into_an_empty_project_then_again_is_a_no_op(package, empty, tmp_path):
    archive = tmp_path / "x.studio.zip"
    archive.write_bytes(package.zip_bytes())
    plan = import_package(archive, empty)
    assert len(plan.actions) == len(package.manifest["documents"])
    result = validate_index(load_project(empty))
    assert not result.errors
    assert load_project(empty).model("scenario", "waw-crossroads") is not None
    before = tree_hash(empty)
    again = import_package(archive, empty)
    assert again.actions == [] and len(again.unchanged) == len(package.manifest["documents"])
    assert tree_hash(empty) == before


def test_sample_project_already_holds_its_own_package(package, tmp_path):
    archive = tmp_path / "x.studio.zip"
    archive.write_bytes(package.zip_bytes())
    plan = plan_import(archive, DATA)
    assert plan.actions == [] and plan.collisions == []


def _changed_package(package, tmp_path) -> Path:
    """The package with unit us-m1-abrams renamed to 'Abrams (changed)'."""
    files = dict(package.files)
    path = next(d["path"] for d in package.manifest["documents"] if d["id"] == "us-m1-abrams")
    files[path] = files[path].replace(b"\nname: ", b"\nname: Abrams (changed) ", 1)
    docs = [(d["path"], files[d["path"]], d["kind"], d["id"]) for d in package.manifest["documents"]]
    archive = tmp_path / "changed.studio.zip"
    archive.write_bytes(_with_manifest(package, docs))
    return archive


@pytest.fixture
def sample_copy(tmp_path) -> Path:
    root = tmp_path / "sample"
    shutil.copytree(DATA, root)
    return root


def test_collisions_are_refused_without_a_choice(package, sample_copy, tmp_path):
    archive = _changed_package(package, tmp_path)
    before = tree_hash(sample_copy)
    with pytest.raises(PackageRefused) as err:
        import_package(archive, sample_copy)
    assert any("collision: unit:us-m1-abrams" in f for f in err.value.findings)
    assert tree_hash(sample_copy) == before


def test_collision_keep_and_replace(package, sample_copy, tmp_path):
    archive = _changed_package(package, tmp_path)
    before = tree_hash(sample_copy)
    plan = import_package(archive, sample_copy, "keep")
    assert plan.actions == [] and plan.kept == ["unit:us-m1-abrams"] and tree_hash(sample_copy) == before
    plan = import_package(archive, sample_copy, "replace")
    assert [(a.what, a.id) for a in plan.actions] == [("replace", "us-m1-abrams")]
    assert "Abrams (changed)" in load_project(sample_copy).model("unit", "us-m1-abrams").name


def test_collision_prefix_imports_a_renamed_copy_and_references_follow(package, sample_copy, tmp_path):
    archive = _changed_package(package, tmp_path)
    plan = import_package(archive, sample_copy, "prefix", prefix="lee")
    done = {(a.what, a.id) for a in plan.actions}
    # the changed card, and the TO&E and scenario of the package that use it (so they keep using it)
    assert {("prefixed", "lee-us-m1-abrams"), ("prefixed", "lee-us-tank-company"),
            ("prefixed", "lee-waw-crossroads")} <= done
    assert {w for w, _ in done} == {"prefixed"}
    project = load_project(sample_copy)
    assert "Abrams (changed)" in project.model("unit", "lee-us-m1-abrams").name
    assert "Abrams (changed)" not in project.model("unit", "us-m1-abrams").name
    assert not validate_index(project).errors


def test_prefix_rewrites_references_of_imported_documents(package, empty, tmp_path):
    """Into a project that has a different unit and TO&E of the same ids, both are prefixed and the imported
    TO&E and scenario point at the prefixed copies."""
    archive = tmp_path / "x.studio.zip"
    archive.write_bytes(package.zip_bytes())
    import_package(archive, empty)
    changed = _changed_package(package, tmp_path)
    toe = next(d["path"] for d in package.manifest["documents"] if d["id"] == "us-tank-company")
    (empty / toe).write_text((empty / toe).read_text().replace("\nname: ", "\nname: Local ", 1))
    plan = import_package(changed, empty, "prefix", prefix="p")
    ids = {a.id for a in plan.actions}
    assert {"p-us-m1-abrams", "p-us-tank-company", "p-waw-crossroads"} <= ids
    assert all(i.startswith("p-") for i in ids) and {a.what for a in plan.actions} == {"prefixed"}
    project = load_project(empty)
    slots = [s.unit for s in project.model("toe", "p-us-tank-company").root.slots]
    children = [s.unit for c in project.model("toe", "p-us-tank-company").root.children for s in c.slots]
    assert "p-us-m1-abrams" in slots + children
    scenario = project.model("scenario", "p-waw-crossroads")     # the package's scenario uses the package's TO&E
    assert "p-us-tank-company" in [f.toe for side in scenario.sides for f in side.forces]
    assert project.model("scenario", "waw-crossroads") is not None   # the project's own stays as it was
    assert not validate_index(project).errors


# ------------------------------------------------------------------ hostile archives

def _doc(package, kind="unit"):
    d = next(d for d in package.manifest["documents"] if d["kind"] == kind)
    return d["path"], package.files[d["path"]], d["kind"], d["id"]


def _hostile(package):
    path, data, kind, did = _doc(package)
    good = _with_manifest(package, [(path, data, kind, did)])
    bad_hash = dict(package.manifest, documents=[{"path": path, "kind": kind, "id": did, "sha256": "0" * 64}])
    unknown = dict(package.manifest, documents=[{"path": path, "kind": "plugin", "id": did,
                                                 "sha256": hashlib.sha256(data).hexdigest()}])
    return {
        "traversal": (_with_manifest(package, [("../evil.yaml", data, kind, did)]), "path traversal"),
        "traversal-inner": (_with_manifest(package, [("units/../../evil.yaml", data, kind, did)]), "path traversal"),
        "absolute": (_with_manifest(package, [("/tmp/evil.yaml", data, kind, did)]), "absolute path"),
        "drive-letter": (_with_manifest(package, [("C:/evil.yaml", data, kind, did)]), "drive letter"),
        "backslash": (_with_manifest(package, [("units\\evil.yaml", data, kind, did)]), "backslash"),
        "symlink": (_zip([("manifest.json", b"{}"), ("link.yaml", b"/etc/passwd")], stat.S_IFLNK | 0o777),
                    "symbolic link"),
        "fifo": (_zip([("manifest.json", b"{}"), ("pipe.yaml", b"")], stat.S_IFIFO | 0o644), "special file"),
        "oversize-entry": (_zip([("manifest.json", b"{}"), ("big.yaml", b"a" * 5000)]), "over the entry limit"),
        "total-bomb": (_zip([("manifest.json", b"{}")] + [(f"u{i}.yaml", b"a" * 900) for i in range(12)]),
                       "total size"),
        "duplicate": (_zip([("manifest.json", b"{}"), (path, data), (path, data)]), "duplicate entry"),
        "duplicate-case": (_zip([("manifest.json", b"{}"), ("a.yaml", data), ("A.yaml", data)]), "duplicate entry"),
        "unknown-kind": (_zip([("manifest.json", json.dumps(unknown).encode()), (path, data)]), "unknown kind"),
        "bad-hash": (_zip([("manifest.json", json.dumps(bad_hash).encode()), (path, data)]), "SHA-256"),
        "no-manifest": (_zip([(path, data)]), "no manifest.json"),
        "manifest-not-json": (_zip([("manifest.json", b"{nope"), (path, data)]), "not valid JSON"),
        "unlisted-entry": (_zip(list(zipfile.ZipFile(io.BytesIO(good)).read(n) and (n, zipfile.ZipFile(
            io.BytesIO(good)).read(n)) for n in ("manifest.json", path)) + [("extra.yaml", data)]),
            "not listed in the manifest"),
        "not-a-zip": (b"PK\x03\x04 not really a zip", "not a zip"),
        "bad-yaml": (_with_manifest(package, [("units/x.yaml", b"kind: unit\nid: [\n", "unit", "x")]), "line"),
        "wrong-id": (_with_manifest(package, [(path, data, kind, "other-id")]), "manifest says"),
    }


CASES = ["traversal", "traversal-inner", "absolute", "drive-letter", "backslash", "symlink", "fifo",
         "oversize-entry", "total-bomb", "duplicate", "duplicate-case", "unknown-kind", "bad-hash", "no-manifest",
         "manifest-not-json", "unlisted-entry", "not-a-zip", "bad-yaml", "wrong-id"]
SMALL = Limits(entry=4096 * 4, total=10_000)


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("case", CASES)
def test_hostile_package_is_refused_and_nothing_is_written(case, package, empty, tmp_path):
    data, reason = _hostile(package)[case]
    archive = tmp_path / f"{case}.studio.zip"
    archive.write_bytes(data)
    limits = Limits(entry=4096, total=10_000) if case in ("oversize-entry", "total-bomb") else SMALL
    before = tree_hash(empty)
    outside = tree_hash(tmp_path.parent) if case.startswith(("traversal", "absolute")) else None
    with pytest.raises(PackageRefused) as err:
        import_package(archive, empty, "replace", limits=limits)
    text = str(err.value) + "\n".join(err.value.findings)
    assert reason in text, text
    assert archive.name in text
    assert tree_hash(empty) == before
    if outside is not None:
        assert not (tmp_path / "evil.yaml").exists()


def test_lying_size_header_is_refused(package, empty, tmp_path):
    """An entry whose headers declare 10 bytes but whose data inflates to much more."""
    raw = bytearray(_zip([("manifest.json", b"{}"), ("bomb.yaml", b"a" * 200_000)]))
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (i := raw.find(sig, start)) >= 0:
            name_len = int.from_bytes(raw[i + (26 if sig == b"PK\x03\x04" else 28):][:2], "little")
            name_at = i + (30 if sig == b"PK\x03\x04" else 46)
            if bytes(raw[name_at:name_at + name_len]) == b"bomb.yaml":
                raw[i + off:i + off + 4] = (10).to_bytes(4, "little")
            start = i + 4
    archive = tmp_path / "liar.studio.zip"
    archive.write_bytes(bytes(raw))
    before = tree_hash(empty)
    with pytest.raises(PackageRefused) as err:
        import_package(archive, empty)
    assert "bomb.yaml" in str(err.value)
    assert tree_hash(empty) == before


def test_a_package_whose_documents_fail_validation_in_the_project_is_refused(package, empty, tmp_path):
    """A scenario alone (its TO&Es, maps and units missing) would not validate: refused, nothing written."""
    d = next(d for d in package.manifest["documents"] if d["kind"] == "scenario")
    archive = tmp_path / "lonely.studio.zip"
    archive.write_bytes(_with_manifest(package, [(d["path"], package.files[d["path"]], "scenario", d["id"])]))
    before = tree_hash(empty)
    with pytest.raises(PackageRefused) as err:
        import_package(archive, empty)
    assert "would not validate" in str(err.value) and err.value.findings
    assert tree_hash(empty) == before


def test_read_archive_accepts_the_export(package):
    files = read_archive(package.zip_bytes())
    assert set(files) == set(package.files)


def test_house_rules_naming_the_scenario_travel_with_it(sample_copy):
    variant = next((sample_copy / "variants").glob("*.yaml"))
    text = variant.read_text()
    base = next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("ruleset:"))
    scenario = next(p.stem for p in (sample_copy / "scenarios" / base).glob("*.yaml"))
    variant.write_text(text.replace("scenarios: []", f"scenarios: [{scenario}]"))
    index = load_project(sample_copy)
    vid = next(v.id for v in index.of_kind("variant") if v.path == variant)
    kinds = {(d["kind"], d["id"]) for d in build_package(index, scenario).manifest["documents"]}
    assert ("variant", vid) in kinds
    other = next(p.stem for p in (sample_copy / "scenarios").rglob("*.yaml") if base not in p.parts)
    assert ("variant", vid) not in {(d["kind"], d["id"]) for d in build_package(index, other).manifest["documents"]}
