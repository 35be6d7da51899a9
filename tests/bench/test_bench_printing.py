"""Benchmark: 1,000 double-sided counters to PDF (target under 10 s). Run with ``pytest -m bench -s``."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.bench
def test_bench_1000_double_sided_counters(tmp_path):
    from studio.model.project import load_project
    from studio.printing.jobs import PrintOptions, build_pages
    from studio.printing.output import write_pdf
    from studio.printing.render import ensure_app

    ensure_app()
    index = load_project(REPO / "data")
    units = sorted(d.id for d in index.of_kind("unit") if d.model is not None)
    per = -(-1000 // len(units))
    source = "unit:" + ",".join(f"{u}*{per}" for u in units)
    opts = PrintOptions("counters", source, paper="letter", size="5/8in", duplex="long")
    start = time.perf_counter()
    pages = build_pages(index, opts)
    built = time.perf_counter()
    out = tmp_path / "bench.pdf"
    write_pdf(pages, out)
    done = time.perf_counter()
    counters = sum(1 for p in pages for it in p.items if getattr(it, "tag", "").endswith(":front"))
    print(f"\nprinting bench: {counters} double-sided counters, {len(pages)} pages, "
          f"build {built - start:.2f} s, PDF {done - built:.2f} s, total {done - start:.2f} s, "
          f"{out.stat().st_size / 1e6:.1f} MB")
    assert counters >= 1000
    assert done - start < 10.0
