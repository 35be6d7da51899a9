"""The fast fuzz slice of the normal suite: every corpus file once, a few special files, a few dozen Hypothesis
mutants. The full run is ``pytest -m fuzz -s`` (test_fuzz_full.py).

Known failures that are not fixed yet are strict xfails naming their issue 18 item: when the product is fixed
the xfail turns into a failure until the mark is removed from ``KNOWN``.
"""
from __future__ import annotations

import pytest

import campaign
import corpus
import generated
from harness import FAILURE, Case, Outcome, tiled_api_case, validate_cases, window_recovery_case

#: corpus item name (kind/file) -> reason; these are run alone (xfail strict) and kept out of the batches
KNOWN: dict[str, str] = {}

DOC_KINDS = sorted(corpus.TARGETS)
BATCH_KINDS = DOC_KINDS + ["position"]  # raw files validated together; position patches are played one by one
ITEMS = corpus.items()
RAW_DOCS = {k: [i for i in ITEMS if i.kind == k and i.path.is_file() and not i.path.name.endswith(".patch.yaml")
                and i.name not in KNOWN] for k in BATCH_KINDS}
SINGLE = [i for i in ITEMS if i.name in KNOWN or i.kind not in BATCH_KINDS or i.path.name.endswith(".patch.yaml")]


#: ruleset and scenario patches are all validated in the slice, but only every PLAY_STRIDE-th of each kind (sorted by
#: name) is also played (a game of the sample scenario: the costly part); the full run plays every one
PLAY_STRIDE = 3
PLAYED_SAMPLE = {i.name for kind in corpus.PLAYED
                 for i in sorted((i for i in SINGLE if i.kind == kind), key=lambda i: i.name)[::PLAY_STRIDE]}


def _param(item: corpus.Item):
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN[item.name])] if item.name in KNOWN else []
    return pytest.param(item, id=item.name, marks=marks)


def _one_game(cases: list[Case]) -> list[Case]:
    """The slice plays 1 game where the full run plays 2 (same code paths, half the time)."""
    for case in cases:
        if case.argv and "--games" in case.argv:
            case.argv[case.argv.index("--games") + 1] = "1"
        _one_game(case.then)
    return cases


def _explain(outcomes: list[Outcome]) -> str:
    bad = [o for o in outcomes if o.kind == FAILURE]
    return "\n".join(f"{o.entry}: {o.label}\n  {o.reason} at {o.location}\n  reproducer: {o.reproducer}\n"
                     f"  {o.detail[-1500:]}" for o in bad)


def _batch_session_case(label: str, files: dict[str, bytes], rels: list[str]) -> Case:
    def open_all(ws):
        """ProjectSession(PROJECT); open_document(each batch file); validate()"""
        from studio.document.session import CannotOpen, ProjectSession

        session = ProjectSession(ws.project)
        session.entries()
        for rel in rels:
            try:
                doc = session.open_document(ws.path(rel))
            except CannotOpen:
                continue
            try:
                doc.model()
                doc.text()
            except Exception as exc:  # noqa: BLE001 - name the file in the finding
                raise AssertionError(f"{rel}: {type(exc).__name__}: {exc}") from exc
        session.validate()
        return "ok"

    return Case("session-open", label, files, call=open_all)


@pytest.mark.parametrize("kind", BATCH_KINDS)
def test_corpus_documents(runner, kind):
    """All raw corpus files of a kind at once, beside the sample: validate (text, JSON), format --check, session.
    On a failure each file is run alone to name the culprits."""
    folder = f"project/fuzz-batch/{kind}"
    files = {f"{folder}/{item.path.name}": item.path.read_bytes() for item in RAW_DOCS[kind]}
    label = f"{len(files)} corpus files of kind {kind}"
    cases = validate_cases(folder, label, files)
    cases.append(_batch_session_case(label, files, sorted(files)))
    outcomes = [runner.run(case) for case in cases]
    if any(o.kind == FAILURE for o in outcomes):
        culprits = []
        for rel, content in files.items():
            single = validate_cases(rel, rel, {rel: content}) + [_batch_session_case(rel, {rel: content}, [rel])]
            culprits += [o for o in (runner.run(c, count=False) for c in single) if o.kind == FAILURE]
        pytest.fail(_explain(culprits or outcomes))


@pytest.mark.parametrize("item", [_param(i) for i in SINGLE])
def test_corpus_item(runner, item):
    """A patch (near-valid document: validated, then played when clean), a Tiled map, a replay or an autosave."""
    raw_document = item.kind in DOC_KINDS and not item.path.name.endswith(".patch.yaml")
    cases = corpus.item_cases(item, runner.ws.pristine_bytes, full=raw_document)
    if item.kind == "tiled":  # the importer itself: the CLI (which also loads the project) runs in the fuzz run
        cases = [tiled_api_case(c.label, c.files, corpus.TILED_INPUT) for c in cases]
    if not raw_document and item.kind in corpus.PLAYED and item.name not in PLAYED_SAMPLE:
        cases = corpus.item_cases(item, runner.ws.pristine_bytes, full=False)  # validated only; played in the full run
    elif not raw_document and (item.kind in corpus.PLAYED or item.kind == "position"):
        # play validates first and refuses with JSON diagnostics: one project load instead of two
        played = [c for c in corpus.item_cases(item, runner.ws.pristine_bytes, full=True) if c.entry.startswith("play")]
        for case in played:
            case.check_lines = next(iter(case.files))
        cases = played
    outcomes = runner.run_chain(_one_game(cases))
    assert all(o.kind != FAILURE for o in outcomes), _explain(outcomes)


WINDOW = ("autosave/valid-autosave-broken-document", "autosave/non-utf8.yaml", "autosave/huge-int.yaml")


@pytest.mark.parametrize("name", WINDOW)
def test_window_recovery(runner, name):
    """The window's start-up recovery with a hostile autosave: it comes up and prints no traceback."""
    item = next(i for i in ITEMS if i.name == name)
    session_case = corpus.item_cases(item, runner.ws.pristine_bytes, full=False)[0]
    outcome = runner.run(window_recovery_case(session_case.label, session_case.files, session_case.mtimes))
    assert outcome.kind != FAILURE, _explain([outcome])


SPECIAL = ("generated/dev-zero-link", "generated/fifo", "generated/over-limit", "generated/tiled-fifo",
           "generated/replay-fifo")


@pytest.mark.parametrize("case", [pytest.param(c, id=c.label.split(":")[0])
                                  for c in generated.special_document_cases(small=True)
                                  + generated.special_input_cases(small=True) if c.label.split(":")[0] in SPECIAL])
def test_special_files(runner, case):
    """A /dev/zero symlink, FIFOs and an over-limit file are refused, without hanging or reading them (the FIFOs
    and the big file in process, under the alarm; /dev/zero in a child with a memory limit)."""
    if "dev-zero" not in case.label:
        case.isolate, case.timeout = False, 10
    outcome = runner.run(case)
    assert outcome.kind != FAILURE, _explain([outcome])


@pytest.mark.parametrize("family", sorted(campaign.FAMILIES))
def test_hypothesis_slice(runner, family):
    """Three derandomized mutants per family; any failure fails the test (with a shrunk reproducer)."""
    before = len(runner.failures)
    campaign.FAMILIES[family][0](runner, 3, derandomize=True)
    assert len(runner.failures) == before, _explain(runner.failures[before:])
