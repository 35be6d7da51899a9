"""Rule-system-neutral static checks of documents (ruleset data, maps, scenarios, TO&Es).

Each check takes a valid document and the project index and yields diagnostics. Ruleset plugins add their
own checks through the registry; these run for every rule system.
"""
from __future__ import annotations

from typing import Iterator

from .diagnostics import Diagnostic
from .documents import Map, Ruleset, Scenario, Toe
from .forces import slot_paths
from .project import LoadedDocument, ProjectIndex
from .references import suggest
from .registry import plugin as get_plugin
from .requirements import (Problem, environment_problems, option_problems, optional_rule_problems,
                           ruleset_optional_rule_problems, table_problems)


def check_ruleset(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    rs: Ruleset = doc.model
    for i, table in enumerate(rs.tables):
        if table.placeholder:
            yield doc.info("table.placeholder", f"table '{table.id}' ({table.title}) holds placeholder values; "
                                                "the rulebook text does not give them", f"/tables/{i}", table.rule)
        for r, row in enumerate(table.rows):
            if len(row) != len(table.columns):
                yield doc.error("ruleset.table-row", f"table '{table.id}' row {r} has {len(row)} cells but the table "
                                f"has {len(table.columns)} columns", f"/tables/{i}/rows/{r}", table.rule)
        if table.placeholder_rows and not table.placeholder:
            yield doc.info("table.placeholder", f"table '{table.id}' has {len(table.placeholder_rows)} placeholder "
                                                "row(s)", f"/tables/{i}/placeholder_rows", table.rule)
    codes: dict[str, int] = {}
    classes = set(rs.mobility_classes)
    for i, terrain in enumerate(rs.terrain):
        if terrain.code in codes:
            yield doc.error("ruleset.duplicate-code", f"terrain code '{terrain.code}' is also used by terrain "
                                                      f"'{rs.terrain[codes[terrain.code]].id}'", f"/terrain/{i}/code")
        codes.setdefault(terrain.code, i)
    for group in ("terrain", "hexside_features"):
        for i, item in enumerate(getattr(rs, group)):
            for cls in item.move_cost:
                if cls not in classes:
                    yield doc.error("ruleset.unknown-mobility", f"mobility class '{cls}' is not declared in "
                                    f"mobility_classes{suggest(cls, sorted(classes))}",
                                    f"/{group}/{i}/move_cost/{cls}", at_key=True)
    if rs.elevation.min > rs.elevation.max:
        yield doc.error("ruleset.elevation", "elevation min is above max", "/elevation")
    for problem in ruleset_optional_rule_problems(rs):
        yield _located(doc, problem, warning=problem.code == "ruleset.optional-rule-duplicate")


def _located(doc: LoadedDocument, problem: Problem, warning: bool = False) -> Diagnostic:
    make = doc.warning if warning else doc.error
    return make(problem.code, problem.message, problem.pointer, problem.rule, at_key=problem.at_key)


def check_engine_tables(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """``ruleset.engine-table``: the tables the rules engine of this ruleset's plugin reads (its
    ``engine_tables``) exist, with their columns, rows and keys, and finite numbers where it reads numbers."""
    rs: Ruleset = doc.model
    plug = get_plugin(rs.id)
    if plug is None or not plug.engine_tables:
        return
    for problem in table_problems(rs, plug.engine_tables):
        yield _located(doc, problem)


def _catalogue(index: ProjectIndex, ruleset_id: str) -> Ruleset | None:
    return index.model("ruleset", ruleset_id)


def check_map(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    m: Map = doc.model
    if m.hex is None:
        return
    rs = _catalogue(index, m.ruleset)
    grid = m.hex
    for field in ("terrain", "elevation"):
        rows = getattr(m, field)
        if len(rows) != grid.rows:
            yield doc.error("map.row-count", f"{field} has {len(rows)} rows but the board has {grid.rows}",
                            f"/{field}", at_key=True)
        for r, row in enumerate(rows):
            cells = row.split()
            if len(cells) != grid.columns:
                yield doc.error("map.row-length", f"{field} row {r} has {len(cells)} hexes but the board has "
                                                  f"{grid.columns} columns", f"/{field}/{r}")
    if rs is None:
        return
    codes = {t.code for t in rs.terrain}
    for r, row in enumerate(m.terrain):
        for c, code in enumerate(row.split()):
            if code not in codes:
                yield doc.error("map.unknown-terrain", f"terrain code '{code}' (row {r}, column {c}) is not in "
                                f"ruleset '{rs.id}'{suggest(code, sorted(codes))}", f"/terrain/{r}")
                break
    lo, hi = rs.elevation.min, rs.elevation.max
    for r, row in enumerate(m.elevation):
        for c, cell in enumerate(row.split()):
            try:
                level = int(cell)
            except ValueError:
                yield doc.error("map.elevation", f"elevation '{cell}' (row {r}, column {c}) is not a whole number",
                                f"/elevation/{r}")
                break
            if not lo <= level <= hi:
                yield doc.error("map.elevation", f"elevation {level} (row {r}, column {c}) is outside the "
                                f"ruleset's levels {lo}..{hi}", f"/elevation/{r}", rs.elevation.rule)
                break
    features = {f.id for f in rs.hexside_features}
    for i, side in enumerate(m.hexsides):
        if side.feature not in features:
            yield doc.error("map.unknown-feature", f"hexside feature '{side.feature}' is not in ruleset "
                            f"'{rs.id}'{suggest(side.feature, sorted(features))}", f"/hexsides/{i}/feature")
    road_types = {r.id for r in rs.road_types}
    for i, road in enumerate(m.roads):
        if road.type not in road_types:
            yield doc.error("map.unknown-road", f"road type '{road.type}' is not in ruleset '{rs.id}'"
                            f"{suggest(road.type, sorted(road_types))}", f"/roads/{i}/type")


def check_map_geometry(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """Hexsides, roads and labels against the board's hexes: unknown hexes (``map.unknown-hex``), sides that
    a hex of this orientation does not have (``map.hexside-side``), hexside features facing off the board
    (``map.hexside-off-board``), the same feature listed twice on one hexside (``map.duplicate-hexside``), road
    hexes that are not adjacent (``map.road-gap``)."""
    import dataclasses

    from studio.hexgrid import coords

    from .maps import AssemblyError, assemble_single, board_labeler, direction_names, edge_key

    m: Map = doc.model
    if m.hex is None:
        return
    grid = m.hex
    try:
        board = assemble_single(m, index)
    except AssemblyError:
        return
    names = direction_names(grid)
    known = sorted(board.hex_of)

    def unknown(label: str) -> str:
        bounded = dataclasses.replace(board_labeler(grid), cols=grid.columns, rows=grid.rows)
        try:
            bounded.parse(label)
        except ValueError as exc:
            return f"{exc}{suggest(label, known)}"
        return f"hex '{label}' is not on the board{suggest(label, known)}"

    seen: dict[tuple, int] = {}
    for i, side in enumerate(m.hexsides):
        h = board.hex_of.get(side.hex)
        if h is None:
            yield doc.error("map.unknown-hex", f"hexside entry {i}: {unknown(side.hex)}", f"/hexsides/{i}/hex")
            continue
        if side.side not in names:
            shape = "flat" if grid.orientation == "flat" else "pointy"
            yield doc.error("map.hexside-side", f"'{side.side}' is not a side of a {shape}-top hex; use one of "
                            f"{', '.join(names)}", f"/hexsides/{i}/side")
            continue
        other = coords.neighbour(h, names.index(side.side))
        if other not in board.label_of:
            yield doc.warning("map.hexside-off-board", f"the {side.side} side of hex {side.hex} faces off the "
                              "board; the feature only counts where another board is placed beside this edge",
                              f"/hexsides/{i}/side")
            continue
        key = (edge_key(h, other), side.feature)
        if key in seen:
            first = m.hexsides[seen[key]]
            yield doc.warning("map.duplicate-hexside", f"hexside {side.hex} {side.side} has '{side.feature}' "
                              f"already (entry {seen[key]}: {first.hex} {first.side})", f"/hexsides/{i}")
        else:
            seen[key] = i
    for i, road in enumerate(m.roads):
        prev: tuple[str, tuple[int, int]] | None = None
        for k, label in enumerate(road.hexes):
            h = board.hex_of.get(label)
            if h is None:
                yield doc.error("map.unknown-hex", f"road '{road.id}': {unknown(label)}", f"/roads/{i}/hexes/{k}")
                prev = None
                continue
            if prev is not None and not coords.adjacent(prev[1], h):
                yield doc.error("map.road-gap", f"road '{road.id}' jumps from {prev[0]} to {label}, which are not "
                                f"adjacent (range {coords.distance(prev[1], h)}); list every hex of the road",
                                f"/roads/{i}/hexes/{k}")
            prev = (label, h)
    for i, text in enumerate(m.labels):
        if text.hex not in board.hex_of:
            yield doc.error("map.unknown-hex", f"label '{text.text}': {unknown(text.hex)}", f"/labels/{i}/hex")


def check_toe(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    toe: Toe = doc.model
    for pointer, ech in toe.root.walk():
        if ech.template == toe.id:
            yield doc.error("toe.cycle", f"echelon '{ech.id}' uses its own TO&E as a template", f"{pointer}/template")


def check_scenario(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    sc: Scenario = doc.model
    sides = [s.id for s in sc.sides]
    if sc.first_player != "initiative" and sc.first_player not in sides:
        yield doc.error("scenario.unknown-side", f"first_player '{sc.first_player}' is not a side id "
                        f"({', '.join(sides)}) or 'initiative'{suggest(sc.first_player, sides)}", "/first_player")
    for i, vc in enumerate(sc.victory):
        if vc.side not in sides:
            yield doc.error("scenario.unknown-side", f"victory condition '{vc.id}' names side '{vc.side}', which "
                            f"does not exist{suggest(vc.side, sides)}", f"/victory/{i}/side")
        if vc.type in ("hold_hexes",) and not vc.hexes:
            yield doc.error("scenario.victory-hexes", f"victory condition '{vc.id}' ({vc.type}) names no hexes",
                            f"/victory/{i}")
        if vc.type == "exit_units" and vc.edge is None and not vc.hexes:
            yield doc.error("scenario.victory-edge", f"victory condition '{vc.id}' needs an exit edge or hexes",
                            f"/victory/{i}")
    for t in sc.environment.night_turns:
        if t > sc.turns:
            yield doc.warning("scenario.turn-range", f"night turn {t} is after the last turn ({sc.turns})",
                              "/environment/night_turns")
    rs = _catalogue(index, sc.ruleset)
    if rs is not None:
        for problem in option_problems(rs, sc.options):
            yield _located(doc, problem)
        for problem in optional_rule_problems(rs, sc.optional_rules):
            yield _located(doc, problem, warning=problem.code == "scenario.optional-rule-duplicate")
        codes = {t.code for t in rs.terrain}
        for i, board in enumerate(sc.boards):
            m = index.model("map", board.map)
            if m is None or m.ruleset == rs.id:
                continue
            used = {code for row in m.terrain for code in row.split()}
            missing = sorted(used - codes)
            if missing:
                yield doc.error("scenario.map-terrain", f"map '{m.id}' uses terrain codes {missing} that ruleset "
                                f"'{rs.id}' does not define", f"/boards/{i}/map")
    plug = get_plugin(sc.ruleset)
    if plug is not None:
        for problem in environment_problems(sc.environment, plug.environment_fields, plug.name or plug.id):
            yield _located(doc, problem, warning=True)
    yield from _check_scenario_hexes(doc, index, sc)
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            base = f"/sides/{si}/forces/{fi}"
            if force.entry and force.entry.turn > sc.turns:
                yield doc.warning("scenario.turn-range", f"force '{force.id}' enters on turn {force.entry.turn}, "
                                  f"after the last turn ({sc.turns})", f"{base}/entry/turn")
            toe = index.model("toe", force.toe)
            if toe is None or not force.substitutions:
                continue
            paths = slot_paths(toe, index)
            for k, sub in enumerate(force.substitutions):
                if sub.slot not in paths:
                    yield doc.error("scenario.unknown-slot", f"TO&E '{toe.id}' has no slot '{sub.slot}'"
                                    f"{suggest(sub.slot, sorted(paths))}", f"{base}/substitutions/{k}/slot")


def _scenario_hex_fields(sc: Scenario):
    """``(pointer, label)`` of every hex a scenario names."""
    for si, side in enumerate(sc.sides):
        for fi, force in enumerate(side.forces):
            base = f"/sides/{si}/forces/{fi}"
            if force.setup:
                for key in ("hexes", "zone"):
                    for k, label in enumerate(getattr(force.setup, key)):
                        yield f"{base}/setup/{key}/{k}", label
            if force.entry:
                for k, label in enumerate(force.entry.hexes):
                    yield f"{base}/entry/hexes/{k}", label
    for i, vc in enumerate(sc.victory):
        for k, label in enumerate(vc.hexes):
            yield f"/victory/{i}/hexes/{k}", label


def _check_scenario_hexes(doc: LoadedDocument, index: ProjectIndex, sc: Scenario) -> Iterator[Diagnostic]:
    from .maps import AssemblyError, assemble_scenario

    if any(index.model("map", b.map) is None for b in sc.boards):
        return  # dangling map references are reported by the reference check
    if any(index.model("map", b.map).table is not None for b in sc.boards):
        return  # a measured table has no hexes: its ruleset checks placements in inches
    try:
        assembled = assemble_scenario(sc, index)
    except AssemblyError as exc:
        yield doc.error(exc.code, str(exc), f"/boards/{exc.index}")
        return
    labels = None
    for pointer, label in _scenario_hex_fields(sc):
        if label not in assembled.hex_of:
            if labels is None:
                labels = sorted(assembled.hex_of)
            yield doc.error("scenario.unknown-hex", f"hex '{label}' is not on the scenario's map"
                            f"{suggest(label, labels)}", pointer)


def check_measured_table(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """Measured-table checks live beside the table model (``studio.model.table``)."""
    from .table import check_table

    yield from check_table(doc, index)


def check_variant_cells(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """Ruleset variants (house rules): marked cells against the base ruleset (``studio.model.variant``)."""
    from .variant import check_variant

    yield from check_variant(doc, index)


def check_position(doc: LoadedDocument, index: ProjectIndex) -> Iterator[Diagnostic]:
    """A position naming a scenario of the project by id: its ``options`` and ``optional_rules`` against that
    scenario's ruleset (the same codes as a scenario's; the rest is checked when the position is set up)."""
    sc = index.model("scenario", doc.model.scenario)
    rs = _catalogue(index, sc.ruleset) if sc is not None else None
    if rs is None:
        return
    for problem in option_problems(rs, doc.model.options):
        yield _located(doc, problem)
    if doc.model.optional_rules is not None:
        for problem in optional_rule_problems(rs, doc.model.optional_rules):
            yield _located(doc, problem, warning=problem.code == "scenario.optional-rule-duplicate")


CORE_CHECKS = {
    "position": [check_position],
    "ruleset": [check_ruleset, check_engine_tables],
    "map": [check_map, check_map_geometry, check_measured_table],
    "toe": [check_toe],
    "scenario": [check_scenario],
    "variant": [check_variant_cells],
}
