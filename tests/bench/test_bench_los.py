"""Benchmarks: line of sight through the rule systems' LOS (issue 19 item 2), each figure beside its anchor.

* visibility map from one hex of a 60x40 map (the sample board-2 tiled 3 x 3, hexsides and roads included)
  through the rule system's LOS (``LosService.visibility``: the plugin's whole-map engine) beside a numpy
  field-of-view on the same grid (written here: every target's hex line sampled at once, opaque cells block);
  the per-pair path it replaces (``check`` for every hex) is measured in the same run;
* the map editor's LOS tool per query (``studio.document.los.line_of_sight`` on an unchanged document);
* all-pairs LOS on a 32x22 board (visibility maps from every hex) beside the per-pair test (a sample of
  observers, scaled to all).

Run with ``pytest -m bench -s tests/bench/test_bench_los.py``. No timed assertions.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from anchor import anchor, report

from studio.hexgrid import coords
from studio.hexgrid.fan import fan_table
from studio.hexgrid.visibility import _axial_to_offset_np, _offset_to_axial_np
from studio.model.los import LosService
from studio.model.maps import AssembledMap, assemble_single
from studio.model.project import load_project

DATA = Path(__file__).resolve().parents[2] / "data"


def numpy_fov(opaque: np.ndarray, col: int, row: int, kind: str) -> np.ndarray:
    """The anchor: a plain numpy field of view on a hex grid. Every target's centre line is sampled at its
    ``range + 1`` points (cube lerp, nudged, rounded); the target is visible unless an intervening sample falls
    in an opaque cell."""
    rows, cols = opaque.shape
    cc, rr = np.meshgrid(np.arange(cols), np.arange(rows))
    tq, tr = _offset_to_axial_np(cc, rr, kind)
    q0, r0 = coords.offset_to_axial(col, row, kind)
    dq, dr = tq - q0, tr - r0
    n = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    t = np.arange(1, int(n.max()))[:, None, None] / np.maximum(n, 1)
    fq = q0 + 1e-6 + dq * t
    fr = r0 + 2e-6 + dr * t
    fs = -fq - fr
    q, r, s = np.rint(fq), np.rint(fr), np.rint(fs)
    xq, xr, xs = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    q = np.where((xq > xr) & (xq > xs), -r - s, q)
    r = np.where(~((xq > xr) & (xq > xs)) & (xr > xs), -q - s, r)
    c, ro = _axial_to_offset_np(q.astype(np.int64), r.astype(np.int64), kind)
    inside = (t < 1) & (c >= 0) & (c < cols) & (ro >= 0) & (ro < rows)
    hit = np.zeros(t.shape[:1] + opaque.shape, dtype=bool)
    hit[inside] = opaque[ro[inside], c[inside]]
    return ~hit.any(axis=0)


def tiled_map(source: AssembledMap, cols: int, rows: int) -> AssembledMap:
    """``source`` repeated across a cols x rows grid (terrain, elevation, hexsides and roads), four-digit labels."""
    out = AssembledMap(source.orientation, source.kind, cols, rows, source.hex_m, source.hex_mm)
    assert source.columns % 2 == 0 and source.rows % 2 == 0  # shifting by even counts keeps the neighbours

    def moved(h, i, j):
        c, r = source.offset(h)
        c, r = c + i * source.columns, r + j * source.rows
        return coords.offset_to_axial(c, r, source.kind) if c < cols and r < rows else None

    for i in range(-(-cols // source.columns)):
        for j in range(-(-rows // source.rows)):
            for h in source.label_of:
                m = moved(h, i, j)
                if m is None:
                    continue
                c, r = coords.axial_to_offset(m, source.kind)
                out.label_of[m] = f"{c + 1:02d}{r + 1:02d}"
                out.hex_of[out.label_of[m]] = m
                out.terrain[m] = source.terrain.get(h, "")
                out.elevation[m] = source.elevation.get(h, 0)
            for table, target in ((source.hexsides, out.hexsides), (source.roads, out.roads)):
                for (a, b), value in table.items():
                    ma, mb = moved(a, i, j), moved(b, i, j)
                    if ma is not None and mb is not None:
                        target[(ma, mb) if ma <= mb else (mb, ma)] = value
    return out


@pytest.fixture(scope="module")
def project():
    return load_project(DATA)


def _seconds(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.bench
@pytest.mark.parametrize("ruleset_id", ["mbt", "waw"])
def test_bench_visibility_map_vs_numpy_fov(project, ruleset_id):
    chess = anchor()
    big = tiled_map(assemble_single(project.model("map", "board-2")), 60, 40)
    ruleset = project.model("ruleset", ruleset_id)
    start = time.perf_counter()
    fan_table(big.kind, big.columns, big.rows)
    table_s = time.perf_counter() - start
    blocks = {t.code for t in ruleset.terrain if t.los.blocks}
    opaque = np.zeros((big.rows, big.columns), dtype=bool)
    for h, code in big.terrain.items():
        c, r = big.offset(h)
        opaque[r, c] = code in blocks
    observers = {"centre": (30, 20), "corner": (0, 0), "edge": (59, 13)}
    print(f"\n{ruleset_id} 60x40 ({len(big.label_of)} hexes, {len(big.hexsides)} hexsides, {len(big.roads)} road "
          f"sides); fan table of the board shape built once in {table_s * 1e3:.0f} ms")
    for name, (col, row) in observers.items():
        a = big.axial(col, row)
        service = LosService(big, ruleset)
        first_s = _seconds(lambda: service.visibility(a), repeat=1)  # builds the engine's per-map arrays
        vis_s = _seconds(lambda: LosService.visibility(service, a))
        fov_s = _seconds(lambda: numpy_fov(opaque, col, row, big.kind))
        data_s = _seconds(lambda: LosService(big, ruleset, use_plugin=False).visibility(a), repeat=3)
        hexes = list(big.label_of)

        def per_pair():
            for h in hexes:
                service.check(a, h)

        pair_s = _seconds(per_pair, repeat=1)
        seen = service.visibility(a)
        print(f"  from {name} {big.label_of[a]}: {seen.sum()} hexes seen; rule-system visibility map "
              f"{vis_s * 1e3:.2f} ms (first {first_s * 1e3:.1f} ms with the map arrays) vs numpy FOV "
              f"{fov_s * 1e3:.2f} ms = {vis_s / fov_s:.2f}x the FOV (target <= 1x); per-pair path "
              f"{pair_s * 1e3:.0f} ms ({pair_s / vis_s:.0f}x slower); data-driven profile map {data_s * 1e3:.1f} ms")
        report(f"  {ruleset_id} visibility maps from {name}", 1 / vis_s, chess, "maps/s")
        assert seen.any()


@pytest.mark.bench
@pytest.mark.parametrize("ruleset_id", ["mbt", "waw"])
def test_bench_editor_los_tool(project, ruleset_id):
    from studio.document.board import Board
    from studio.document.los import _build, line_of_sight

    chess = anchor()
    doc = project.get("map", "board-2")
    map_data = dict(doc.data, ruleset=ruleset_id)
    ruleset_data = project.get("ruleset", ruleset_id).data
    board = Board.from_spec(map_data["hex"])
    cells = [(c, r) for r in range(board.rows) for c in range(board.columns)]
    pairs = [(cells[i], cells[(i * 37 + 11) % len(cells)]) for i in range(0, len(cells), 3)]
    line_of_sight(board, map_data, ruleset_data, *pairs[0])  # first query: validates and builds the service
    start = time.perf_counter()
    for a, b in pairs:
        result = line_of_sight(board, map_data, ruleset_data, a, b)
    per_query = (time.perf_counter() - start) / len(pairs)
    start = time.perf_counter()
    for a, b in pairs[:20]:  # what every query cost before the cache: validate the documents, build the service
        _build(map_data, ruleset_data).check(board.label(a), board.label(b))
    rebuilt = (time.perf_counter() - start) / 20
    print(f"\neditor LOS tool ({ruleset_id}, board-2): {per_query * 1e3:.3f} ms per query over {len(pairs)} "
          f"queries (target < 1 ms); validating and rebuilding per query {rebuilt * 1e3:.2f} ms "
          f"({rebuilt / per_query:.0f}x)")
    report(f"  editor LOS queries ({ruleset_id})", 1 / per_query, chess, "queries/s")
    assert result.measured


@pytest.mark.bench
@pytest.mark.parametrize("ruleset_id", ["mbt", "waw"])
def test_bench_all_pairs_32x22(project, ruleset_id):
    chess = anchor()
    board = tiled_map(assemble_single(project.model("map", "board-2")), 32, 22)
    service = LosService(board, project.model("ruleset", ruleset_id))
    hexes = sorted(board.label_of)
    start = time.perf_counter()
    seen = sum(int(service.visibility(a).sum()) for a in hexes)
    all_s = time.perf_counter() - start
    sample = hexes[::8]
    engine = service.batch  # the rule system's pair test (the engine's LosService-free path), cache cleared
    engine.cache.clear()
    start = time.perf_counter()
    for a in sample:
        for b in hexes:
            engine.clear(a, b)
    pair_s = (time.perf_counter() - start) * len(hexes) / len(sample)
    print(f"\nall-pairs LOS {ruleset_id} 32x22 ({len(hexes) ** 2:,} pairs, {seen:,} clear): {all_s:.2f} s with "
          f"visibility maps (target < 2 s) vs {pair_s:.2f} s with the engine's pair test (scaled from "
          f"{len(sample)} observers) = {pair_s / all_s:.1f}x faster")
    report(f"  all-pairs LOS ({ruleset_id})", len(hexes) ** 2 / all_s, chess, "pairs/s")
    assert seen > len(hexes)
