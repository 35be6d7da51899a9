"""Bulk loading pauses the cyclic garbage collector and promotes what it built to the oldest generation (issue
19: the young collections after a 5,000-file load rescanned it, a fifth of validation time); nothing is kept
alive by that: cycles made before, during or after a load are still collected, and the collector runs again."""
from __future__ import annotations

import gc
import weakref
from pathlib import Path

from studio.model.project import load_documents, project_files

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project"


class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_load_promotes_without_keeping_anything_alive():
    before = Node()
    gone_before = weakref.ref(before)
    paths = project_files(FIXTURE)
    docs = load_documents(paths, [str(p) for p in paths])
    young = gc.get_count()[0]  # objects tracked since the last collection or promotion
    assert young == 0, young  # all promoted, none frozen
    assert docs and all(d.path in paths for d in docs)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    del before
    gc.collect()
    assert gone_before() is None
    after = Node()
    gone_after = weakref.ref(after)
    del after
    gc.collect()
    assert gone_after() is None


def test_a_paused_collector_stays_paused():
    gc.disable()
    try:
        paths = project_files(FIXTURE)
        load_documents(paths, [str(p) for p in paths])
        assert not gc.isenabled()
    finally:
        gc.enable()
