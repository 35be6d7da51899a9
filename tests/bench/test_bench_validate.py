"""Benchmark: validate a generated project of 5,000 unit cards, 200 TO&Es and 50 scenarios (target < 2 s)."""
import shutil
import time
from pathlib import Path

import pytest

from studio.model.documents import Scenario, Toe, UnitCard
from studio.model.save import save_document
from studio.model.validate import validate_paths

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project"


def generate(root: Path, cards: int = 5000, toes: int = 200, scenarios: int = 50) -> None:
    shutil.copytree(FIXTURE, root)
    body = {"move": 6, "armor": {"front": 12, "rear": 4},
            "weapons": [{"name": f"gun-{k}", "range": [1, 6, 12, 18, 24], "penetration": [30, 25, 20, 15, 10]}
                        for k in range(3)]}
    for i in range(cards):
        save_document(UnitCard.model_validate({"kind": "unit", "schema_version": 1, "id": f"u{i:05d}",
                                               "ruleset": "alpha", "name": f"Unit {i}", "nation": "US",
                                               "years": {"start": 1980, "end": 1990}, "body": body}),
                      root / "units" / "gen" / f"u{i:05d}.yaml")
    for t in range(toes):
        slots = [{"id": f"s{k}", "unit": f"u{(t * 7 + k) % cards:05d}", "count": 3} for k in range(4)]
        children = [{"id": f"plt{k}", "echelon": "platoon", "slots": slots} for k in range(3)]
        save_document(Toe.model_validate({"kind": "toe", "schema_version": 1, "id": f"toe{t:03d}", "ruleset": "alpha",
                                          "name": f"Company {t}", "nation": "US",
                                          "root": {"id": "coy", "echelon": "company", "slots": slots[:1],
                                                   "children": children}}),
                      root / "toe" / "gen" / f"toe{t:03d}.yaml")
    for s in range(scenarios):
        sides = [{"id": side, "name": side, "nation": "US",
                  "forces": [{"id": f"f{k}", "toe": f"toe{(s + k) % toes:03d}", "setup": {"hexes": ["0101", "0202"]}}
                             for k in range(3)]} for side in ("blue", "red")]
        save_document(Scenario.model_validate({"kind": "scenario", "schema_version": 1, "id": f"sc{s:02d}",
                                               "ruleset": "alpha", "name": f"Scenario {s}",
                                               "boards": [{"map": "board-x"}], "turns": 10, "first_player": "blue",
                                               "sides": sides,
                                               "victory": [{"id": "v", "type": "hold_hexes", "side": "red",
                                                            "points": 5, "hexes": ["0303"]}]}),
                      root / "scenarios" / "gen" / f"sc{s:02d}.yaml")


@pytest.mark.bench
def test_bench_validate_generated_project(tmp_path):
    root = tmp_path / "big"
    generate(root)
    validate_paths([root])  # warm-up: imports, plugin registry, model compilation
    start = time.perf_counter()
    result = validate_paths([root])
    elapsed = time.perf_counter() - start
    print(f"\nvalidate: {result.files} files (5,000 cards, 200 TO&Es, 50 scenarios) in {elapsed:.2f} s "
          f"({result.files / elapsed:,.0f} files/s); target < 2 s")
    assert result.files == 5000 + 200 + 50 + 9
    assert not result.errors, result.errors[:3]
