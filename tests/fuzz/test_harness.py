"""The harness itself: each failure class is detected, outcomes are classified by contract, cases are isolated."""
from __future__ import annotations

import json
import time

import pytest

import corpus
import harness
import mutators
from harness import DIAGNOSTIC, FAILURE, OK, REFUSAL, Case


def _call_case(fn, **kw) -> Case:
    return Case("probe", "probe", call=fn, **kw)


def test_exception_is_failure_with_studio_location(runner):
    def boom(ws):
        from studio.model.yamlio import decode
        return decode(None)  # TypeError raised inside studio/

    out = runner.run(_call_case(boom))
    assert out.kind == FAILURE and out.reason.startswith("exception: TypeError")
    assert out.location.startswith("studio/model/yamlio.py:")


def test_hang_is_failure_within_the_limit(runner):
    start = time.perf_counter()
    out = runner.run(_call_case(lambda ws: time.sleep(30), timeout=0.3))
    assert out.kind == FAILURE and out.reason.startswith("hang")
    assert time.perf_counter() - start < 5


def test_write_inside_and_outside_is_detected(runner, workspace):
    inside = runner.run(_call_case(lambda ws: (ws.project / "units" / "new.yaml").write_text("x") and OK))
    assert inside.kind == FAILURE and inside.reason == "unexpected write" and inside.location == "project/units/new.yaml"
    outside = runner.run(_call_case(lambda ws: (ws.base.parent / "evil.txt").write_text("x") and OK))
    assert outside.kind == FAILURE and outside.reason == "write outside the workspace"
    (workspace.base.parent / "evil.txt").unlink()
    workspace.parent_listing = harness.snapshot_listing(workspace.base.parent, {workspace.base.name})
    assert not (workspace.project / "units" / "new.yaml").exists()  # restored


def test_changed_input_is_failure_and_restored(runner, workspace):
    rel = "project/units/mbt/m1.yaml"
    original = (workspace.base / rel).read_bytes()

    def edit(ws):
        (ws.base / rel).write_bytes(b"kind: unit\n")
        return OK

    out = runner.run(Case("probe", "probe", {rel: b"kind: unit\nid: m1\n"}, call=edit))
    assert out.kind == FAILURE and out.reason == f"changed input file {rel}"
    assert (workspace.base / rel).read_bytes() == original


def test_cli_exit_codes_and_json(runner):
    unit = "project/units/mbt/m1.yaml"
    ok = runner.run(Case("v", "clean", argv=["validate", "--format", "json", "{base}/" + unit], json_out=True))
    diag = runner.run(Case("v", "broken", {unit: b"kind: unit\nid: [x\n"}, ["validate", "{base}/" + unit]))
    refusal = runner.run(Case("v", "missing", argv=["validate", "{base}/nothing.yaml"]))
    usage = runner.run(Case("v", "usage", argv=["validate", "--format", "xml"]))
    assert (ok.kind, diag.kind, refusal.kind, usage.kind) == (OK, DIAGNOSTIC, REFUSAL, REFUSAL)


def test_unparseable_json_and_printed_traceback_are_failures(runner, workspace):
    raw = harness.Raw(rc=0, stdout="{not json")
    case = Case("v", "x", argv=[], json_out=True)
    assert harness.classify_cli(case, raw, workspace).reason.startswith("json: output does not parse")
    raw = harness.Raw(rc=1, stderr='Traceback (most recent call last):\n  File "/x/studio/rules/api.py", line 3, '
                                   'in play\nKeyError: 1\n')
    out = harness.classify_cli(Case("v", "x", argv=[]), raw, workspace)
    assert out.kind == FAILURE and out.location == "studio/rules/api.py:3 in play"
    raw = harness.Raw(rc=1, stdout='x.yaml:1:1: error internal.check-failed: check check_x failed: KeyError: 1')
    assert harness.classify_cli(Case("v", "x", argv=[]), raw, workspace).reason.startswith("crashed check")


def test_diagnostic_past_the_end_is_failure(runner, workspace):
    unit = "project/units/mbt/m1.yaml"
    report = {"diagnostics": [{"file": "../project/units/mbt/m1.yaml", "line": 9999, "code": "schema.x"}]}
    raw = harness.Raw(rc=1, stdout=json.dumps(report))
    case = Case("v", "x", argv=[], json_out=True, check_lines=unit)
    assert harness.classify_cli(case, raw, workspace).reason.startswith("diagnostic past the end")


def test_isolated_case_reports_memory_and_exit(runner):
    out = runner.run(Case("v", "isolated", argv=["validate", "{base}/project/units/mbt/m1.yaml"], isolate=True))
    assert out.kind == OK


def test_patch_ops_and_sentinels():
    data = {"tables": [{"id": "a", "rows": [[1, 2], [3, 4]]}, {"id": "b"}]}
    out = corpus.apply_ops(data, [{"op": "set", "path": "/tables/[id=a]/rows/1/0", "value": "__FZ_HUGEINT__"},
                                  {"op": "delete", "path": "/tables/[id=b]"},
                                  {"op": "rename", "path": "/tables", "value": "t"}])
    assert out == {"t": [{"id": "a", "rows": [[1, 2], ["__FZ_HUGEINT__", 4]]}]} and data["tables"][1] == {"id": "b"}
    text = corpus.render_yaml(out).decode()
    assert "9" * 4400 in text and "__FZ" not in text


def test_mutator_ops_and_shrink():
    data = {"a": [1, 2], "b": {"c": "x"}}
    ops = [mutators.Op("quote", ("a", 0)), mutators.Op("delete", ("b",)), mutators.Op("dup", ("a", 1))]
    assert mutators.apply_ops(data, ops) == {"a": ["1", 2, 2]}
    assert mutators.shrink_ops(ops, lambda o: any(op.kind == "delete" for op in o)) == [ops[1]]
    raw = b"kind: unit\nid: x\n"
    assert mutators.apply_text(raw, mutators.TextOp("truncate", 0.5)) == raw[:8]


@pytest.mark.parametrize("kind", sorted(corpus.TARGETS))
def test_every_document_kind_has_a_corpus(kind):
    files = list((corpus.CORPUS / kind).iterdir())
    assert len(files) >= 30


def test_corpus_is_small():
    sizes = [p.stat().st_size for p in corpus.CORPUS.rglob("*") if p.is_file()]
    assert sum(sizes) < 1024 ** 2 and max(sizes) < 50 * 1024


def test_replay_engine_error_is_failure(workspace):
    case = harness.replay_cli_case("x", {}, "inputs/x.replay.json")
    raw = harness.Raw(rc=1, stdout=json.dumps({"status": "engine-error", "message":
                                               "engine error at action 3: TypeError: bad operand"}))
    out = case.classify(case, raw)
    assert out.kind == FAILURE and out.reason == "engine error: TypeError"
    raw = harness.Raw(rc=1, stdout=json.dumps({"status": "hash-mismatch", "message": "differs"}))
    assert case.classify(case, raw) is None and harness.classify_cli(case, raw, workspace).kind == DIAGNOSTIC


def test_table_and_report_list_counts_and_reproducers(tmp_path, workspace):
    runner = harness.Runner(workspace, tmp_path / "findings")
    runner.run(Case("probe", "fine", call=lambda ws: OK))
    runner.run(Case("probe", "bad input", {"inputs/x": b"1"}, call=lambda ws: 1 / 0))
    table = runner.table()
    assert "probe" in table and table.splitlines()[-1].split() == ["TOTAL", "2", "1", "0", "0", "1"]
    report = runner.failure_report()
    folder = runner.failures[0].reproducer
    assert "ZeroDivisionError" in report and str(folder) in report
    assert (folder / "inputs" / "x").read_bytes() == b"1" and "bad input" in (folder / "README.txt").read_text()
