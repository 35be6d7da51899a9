"""A small self-contained project for the printing tests (cards, TO&Es with a template, a scenario, boards)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

UNIT = """kind: unit
id: {id}
ruleset: testsys
name: {name}
nation: {nation}
category: vehicle
symbol: {{affiliation: {aff}, branch: {branch}, echelon: platoon}}
notes: Sample card for the printing tests.
body:
  armor: {{front: 12, side: 4}}
  movement: 14
  weapons:
    - {{name: 120mm gun, range: [10, 20, 30], pen: [30, 26, 22]}}
    - {{name: 7.62mm MG, range: [5, 10, 15], pen: [1, 1, 0]}}
"""

TOE_PLT = """kind: toe
id: us-tank-plt
ruleset: testsys
name: US tank platoon
nation: US
root:
  id: plt
  echelon: platoon
  slots:
    - {id: m1, unit: m1, count: 4}
"""

TOE_TROOP = """kind: toe
id: us-troop
ruleset: testsys
name: US cavalry troop
nation: US
root:
  id: troop
  echelon: company
  slots:
    - {id: hq, unit: m3, count: 2, role: hq}
  children:
    - id: plt-1
      echelon: platoon
      count: 2
      slots:
        - {id: m3, unit: m3, count: 3}
    - id: tanks
      echelon: platoon
      template: us-tank-plt
"""

TOE_SOV = """kind: toe
id: sov-coy
ruleset: testsys
name: Soviet MR company
nation: USSR
root:
  id: coy
  echelon: company
  slots:
    - {id: bmp, unit: bmp2, count: 10}
"""

SCENARIO = """kind: scenario
id: probe
ruleset: mbt
name: Probe at the crossroads
designer: Test Designer
date: '2026-11-29'
description: A test scenario for the print sheets.
boards:
  - {map: board-2, at: [0, 0]}
  - {map: board-4, at: [20, 0], rotate: 180}
turns: 12
first_player: sov
sides:
  - id: us
    name: United States
    nation: US
    forces:
      - id: troop
        toe: us-troop
        setup: {zone: [2A1, 2B1]}
        substitutions: [{slot: plt-1/m3, unit: m2}]
  - id: sov
    name: Soviet Union
    nation: USSR
    forces:
      - id: coy
        toe: sov-coy
        entry: {turn: 3, edge: east}
victory:
  - {id: town, type: hold_hexes, side: us, points: 10, hexes: [2E9], text: Hold the town}
special_rules:
  - {id: night, title: Night, text: The first two turns are at night; visibility is two hexes.}
"""


#: the shape ``studio play --write-balance`` writes (studio.sim.report.BalanceReport.to_json)
BALANCE = {"scenario": "probe", "ruleset": "mbt", "ruleset_version": "2.0", "games": 2000, "seed": 7,
           "bots": ["greedy", "greedy"], "wins": {"us": 580, "sov": 1420}, "draws": 0,
           "win_rate": {"us": {"p": 0.29, "ci95": [0.27, 0.31]}, "sov": {"p": 0.71, "ci95": [0.69, 0.73]}},
           "turns": {"mean": 9.4, "min": 5, "max": 12}, "vp": {"us": {"mean": 6.2, "sd": 3.1},
                                                              "sov": {"mean": 11.5, "sd": 4.0}},
           "losses": {"us": 3.4, "sov": 5.1}, "placeholder_tables": ["gp_fire_table"],
           "environment_rules": ["night_visibility"], "elapsed_s": 12.3, "steps": 456789, "steps_per_s": 37137.3}


@pytest.fixture(scope="session")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("printproj")
    (root / "project.yaml").write_text("kind: project\nid: t\nname: Print test\nrulesets: [mbt]\n")
    units = root / "units"
    units.mkdir()
    for uid, name, nation, aff, branch in [("m1", "M1 Abrams", "US", "friend", "armor"),
                                           ("m3", "M3 Bradley", "US", "friend", "armored_recon"),
                                           ("m2", "M2 Bradley", "US", "friend", "mech_infantry"),
                                           ("bmp2", "BMP-2", "USSR", "hostile", "mech_infantry")]:
        (units / f"{uid}.yaml").write_text(UNIT.format(id=uid, name=name, nation=nation, aff=aff, branch=branch))
    toe = root / "toe"
    toe.mkdir()
    for name, text in [("plt", TOE_PLT), ("troop", TOE_TROOP), ("sov", TOE_SOV)]:
        (toe / f"{name}.yaml").write_text(text)
    maps = root / "maps"
    maps.mkdir()
    for board in ("board-2", "board-4"):
        shutil.copy(REPO / "data" / "maps" / f"{board}.yaml", maps / f"{board}.yaml")
    (root / "scenarios").mkdir()
    (root / "scenarios" / "probe.yaml").write_text(SCENARIO)
    (root / "scenarios" / "probe.balance.json").write_text(json.dumps(BALANCE))
    return root


@pytest.fixture(scope="session")
def index(project):
    from studio.model.project import load_project

    return load_project(project)
