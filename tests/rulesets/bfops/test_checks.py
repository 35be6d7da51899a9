"""Battlefield Ops! static checks (digest d): each fault at its file and line, in a copy of the sample project."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

from .conftest import DATA

CARD = """\
kind: unit
schema_version: 1
id: bad-card
ruleset: bfops
name: Bad card
nation: Nowhere
category: vehicle
body:
  side: NATO
  category: wheeled_armored
  propulsion: wheeled
  unit_rating: 9
  armor: {front: 3, tracks: 2}
  movement: {cruise: 8}
  weapons:
    - name: gun
      weapon_class: cannon
      ranges: {short: 1, medium: 2, long: 3}
      ammo: [{type: AP, pen: {short: 5}}]
      fire_rates: [{mode: direct, value: 2}, {mode: direct, value: 3}]
"""
CARD_EXPECT = {("bfops.unit-rating", 12), ("bfops.tracks", 13), ("bfops.axles", 9), ("bfops.caliber", 16),
               ("bfops.max-range", 18), ("bfops.fire-rates", 20)}

MAP = """\
kind: map
schema_version: 1
id: bad-bfops-table
name: Bad
ruleset: bfops
table:
  width_in: 24
  depth_in: 24
  features:
    - {id: t1, terrain: trench, shape: polyline, width_in: 0.3, points: [[1, 1], [5, 1]]}
    - {id: m1, terrain: minefield, shape: polyline, width_in: 1.0, points: [[1, 5], [5, 5]], attributes: {density: thick}}
    - {id: s1, terrain: stream, shape: polyline, width_in: 1.0, points: [[1, 9], [5, 9]]}
    - {id: r1, terrain: rough, shape: polygon, ground: extreme, points: [[10, 10], [12, 10], [12, 12]]}
"""
MAP_EXPECT = {("bfops.width", 10), ("bfops.minefield", 11), ("bfops.minefield-hidden", 11), ("bfops.water-depth", 12),
              ("bfops.ground", 13)}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("bfops-checks") / "data"
    shutil.copytree(DATA, root)
    (root / "units" / "bfops" / "bad-card.yaml").write_text(CARD, encoding="utf-8")
    (root / "maps" / "bad-bfops-table.yaml").write_text(MAP, encoding="utf-8")
    scen = root / "scenarios" / "bfops" / "bfops-village-defence.yaml"
    text = scen.read_text(encoding="utf-8")
    scen.write_text(text.replace("objective: village", "objective: nowhere", 1).replace("agreed: true", "agreed: false"),
                    encoding="utf-8")
    res = validate_paths([root])
    return {name: {(d.code, d.line) for d in res.diagnostics if Path(d.file).name == name}
            for name in ("bad-card.yaml", "bad-bfops-table.yaml", "bfops-village-defence.yaml")}


def test_card_checks(results):
    assert CARD_EXPECT <= results["bad-card.yaml"], sorted(results["bad-card.yaml"])


def test_map_checks(results):
    got = {c for c in results["bad-bfops-table.yaml"] if c[0].startswith("bfops.")}
    assert got == MAP_EXPECT, sorted(got)


def test_scenario_checks(results):
    codes = {c for c, _ in results["bfops-village-defence.yaml"]}
    assert {"bfops.objective", "bfops.prepared"} <= codes


def test_sample_data_is_clean():
    res = validate_paths([DATA])
    mine = [d for d in res.diagnostics if "bfops" in d.file and d.severity.value != "info"]
    assert mine == [], [d.format_text() for d in mine]


PREPARED = """\
    features:
      - {id: long-wire, terrain: wire, shape: polyline, points: [[30.0, 31.5], [45.0, 31.5]], width_in: 0.25}
      - {id: wide-trench, terrain: trench, shape: polyline, points: [[43.0, 32.6], [44.0, 32.6]], width_in: 0.3}
      - {id: church, terrain: foxhole, shape: point, points: [[40.0, 40.0]]}
      - {id: nets, terrain: camouflage, shape: polygon, points: [[36, 36], [37, 36], [37, 37]]}
"""


def test_prepared_allowances_and_widths(tmp_path):
    """d.21/d.22 (BfOps 5.3): 15" of wire exceeds the garrison's 2 x 3 squads + 1 x 3 armoured platoons = 9";
    a 0.3" trench is not 1/4" or 1/2"; an id already on the table; camouflage not agreed as a tactic."""
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    scen = root / "scenarios" / "bfops" / "bfops-village-defence.yaml"
    text = scen.read_text(encoding="utf-8")
    head, _, _ = text.partition("    features:\n")
    scen.write_text(head.replace("tactics: [camouflage, foxholes, trenches, wire, oil_slicks]",
                                 "tactics: [foxholes, trenches, wire]") + PREPARED, encoding="utf-8")
    res = validate_paths([root])
    got = [(d.code, d.message) for d in res.diagnostics if Path(d.file).name == scen.name]
    codes = {c for c, _ in got}
    assert {"bfops.allowance", "bfops.width", "bfops.prepared"} <= codes, got
    assert any("wire: 15 used" in m and "allows 9" in m for c, m in got if c == "bfops.allowance"), got
    assert any("'church' is already used" in m for _, m in got)
    assert any("'nets'" in m and "not a prepared tactic" in m for _, m in got)


def test_deck_report_per_side():
    """d.18: the deck each side builds is reported (meeting: NATO 2 company + 3 platoon, WARPAC 1 + 4)."""
    res = validate_paths([DATA])
    deck = sorted(d.message for d in res.diagnostics if d.code == "bfops.deck" and "meeting" in d.file)
    assert deck == ["side 'nato' draws from 2 company, 3 platoon Command Card(s)",
                    "side 'warpac' draws from 1 company, 4 platoon Command Card(s)"]


def test_placements_and_hidden_minefields(tmp_path):
    """d.28: a unit placed inside the church (a structure) or off the table; a prepared minefield not hidden from
    the opposing side; a map minefield hidden from nobody."""
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    scen = root / "scenarios" / "bfops" / "bfops-meeting-at-the-ford.yaml"
    scen.write_text(scen.read_text(encoding="utf-8") + """\
  placements:
    - {force: team, unit: hq, at: [43.0, 37.0]}
    - {force: team, unit: tanks, at: [80.0, 5.0]}
  prepared:
    agreed: true
    side: warpac
    tactics: [minefields]
    features:
      - {id: open-mines, terrain: minefield, shape: polyline, points: [[10.0, 30.0], [12.0, 30.0]], width_in: 1.0,
         attributes: {density: low, mine_type: AP}}
""", encoding="utf-8")
    table = root / "maps" / "bfops-mill-valley.yaml"
    table.write_text(table.read_text(encoding="utf-8").replace("      hidden_from: [nato]\n", ""), encoding="utf-8")
    res = validate_paths([root])
    got = {(Path(d.file).name, d.code, d.message.split(" ")[0]) for d in res.diagnostics}
    assert ("bfops-meeting-at-the-ford.yaml", "bfops.placement", "'hq'") in got          # inside the church
    assert ("bfops-meeting-at-the-ford.yaml", "bfops.placement", "placement") in got     # off the table
    assert ("bfops-meeting-at-the-ford.yaml", "bfops.minefield-hidden", "minefield") in got
    assert ("bfops-mill-valley.yaml", "bfops.minefield-hidden", "minefield") in got
