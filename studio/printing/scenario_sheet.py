"""The scenario sheet: title, designer, date, map assembly diagram, sides and forces with setup and entry,
victory conditions, environment, special rules, the optional rules in force (rule number and title, from the
ruleset) and the latest balance estimate. Qt-free.

Balance estimate: if a file ``<scenario file stem>.balance.json`` lies beside the scenario file, its contents
are printed, in the shape ``studio play --write-balance`` writes: ``games``, ``bots``, ``seed``, ``ruleset``
(and ``ruleset_version``), ``wins``, ``draws``, ``win_rate`` ({side: {p, ci95: [lo, hi]}}), ``turns`` ({mean, min,
max}), ``vp`` ({side: {mean, sd}}), ``losses`` ({side: mean}), ``placeholder_tables``, ``environment_rules``;
timing keys (``elapsed_s``, ``steps``, ``steps_per_s``) are left off. Side ids print as the sides' names.

Text is flowed onto as many pages as needed with a ``measure(text, size_pt, width_mm, bold, italic) -> mm``
function supplied by the caller (the Qt renderer's :func:`~studio.printing.render.text_height_mm`), which keeps
this module free of Qt while wrapping exactly as the renderer will.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from studio.model.documents import Scenario
from studio.model.maps import AssemblyError, assemble_scenario
from studio.model.project import ProjectIndex
from studio.model.safeio import read_text

from .geometry import Rect
from .mapsheet import draw_map, side_colours, terrain_colours
from .primitives import Box, Ellipse, Group, Item, Line, Page, Text
from .sources import SourceError, is_file_source, resolve_kind, toe_units
from .units import paper_mm

Measure = Callable[[str, float, float, bool, bool], float]
SIDE_COLOURS = ("#1f4e9c", "#b02020", "#207020", "#806000")
BODY_PT = 8.5
LABEL_ROOM = 8.0   # mm above the map diagram for the board names


class Flow:
    """Places text blocks top to bottom, starting a new page when the next block does not fit."""

    def __init__(self, paper: str, measure: Measure, footer: str, margin: float = 15.0):
        self.w, self.h = paper_mm(paper)
        self.margin, self.measure, self.footer = margin, measure, footer
        self.pages: list[Page] = []
        self.y = 0.0
        self._new_page()

    @property
    def width(self) -> float:
        return self.w - 2 * self.margin

    def _new_page(self) -> None:
        page = Page(self.w, self.h, label=f"scenario {len(self.pages) + 1}")
        self.pages.append(page)
        self.y = self.margin

    def ensure(self, height: float) -> None:
        if self.y + height > self.h - self.margin - 6 and self.y > self.margin:
            self._new_page()

    def text(self, text: str, size: float = BODY_PT, bold: bool = False, italic: bool = False, indent: float = 0.0,
             gap: float = 1.2, colour: str = "#000000") -> None:
        if not text:
            return
        width = self.width - indent
        height = self.measure(text, size, width, bold, italic) + 0.3
        self.ensure(height)
        self.pages[-1].items.append(Text(Rect(self.margin + indent, self.y, width, height), text, size, bold, italic,
                                         colour, "left", "top", wrap=True))
        self.y += height + gap

    def heading(self, text: str, colour: str = "#000000") -> None:
        self.ensure(14)
        self.y += 2
        self.text(text, 11, bold=True, gap=0.6, colour=colour)
        self.pages[-1].items.append(Line(self.margin, self.y, self.w - self.margin, self.y, colour, 0.3))
        self.y += 1.8

    def block(self, height: float, items: list[Item]) -> None:
        """A fixed-height drawing whose items are given relative to (margin, current y)."""
        self.ensure(height)
        self.pages[-1].items.append(Group(items, dx=self.margin, dy=self.y))
        self.y += height + 2

    def finish(self) -> list[Page]:
        n = len(self.pages)
        for i, page in enumerate(self.pages, 1):
            page.items.append(Text(Rect(self.margin, self.h - self.margin + 2, self.width, 5),
                                   f"{self.footer}  -  page {i} of {n}", 7, colour="#606060"))
        return self.pages


def balance_path(index: ProjectIndex, scenario_id: str) -> Path | None:
    doc = index.get("scenario", scenario_id)
    return doc.path.with_name(doc.path.stem + ".balance.json") if doc is not None else None


def balance_lines(path: Path | None, side_names: dict[str, str]) -> list[str]:
    """Readable lines of a balance file (empty when there is none; one warning line when unreadable)."""
    if path is None or not path.is_file():
        return []
    try:
        data = json.loads(read_text(path))
    except (OSError, ValueError, RecursionError) as exc:
        return [f"(balance file {path.name} could not be read: {exc})"]
    if not isinstance(data, dict):
        return [f"(balance file {path.name} is not a JSON object)"]
    out = [line for part in (_games_line(data), _win_lines(data, side_names), _turns_line(data),
                             _per_side_line(data, "vp", "Victory points per game", side_names),
                             _per_side_line(data, "losses", "Losses per game", side_names),
                             _list_line(data, "placeholder_tables", "Placeholder tables used (values not in the "
                                                                    "rulebook)"),
                             _list_line(data, "environment_rules", "Environment rules applied"))
           for line in ([part] if isinstance(part, str) else part) if line]
    if isinstance(data.get("notes"), str):
        out.append(data["notes"])
    return out


def _games_line(data: dict) -> str:
    """'2000 test games, bots ..., seed 1, rules mbt 2.0.' from the report of ``studio play --write-balance``."""
    if not isinstance(data.get("games"), int):
        return ""
    parts = [f"{data['games']} test games"]
    bots = data.get("bots")
    if isinstance(bots, list) and bots:
        parts.append("bots " + " vs ".join(map(str, bots)))
    if isinstance(data.get("seed"), int):
        parts.append(f"seed {data['seed']}")
    if data.get("ruleset"):
        parts.append(f"rules {data['ruleset']} {data.get('ruleset_version', '')}".strip())
    if data.get("date"):
        parts.append(f"run {data['date']}")
    return ", ".join(parts) + "."


def _win_lines(data: dict, side_names: dict[str, str]) -> list[str]:
    """One line per side: win rate with its 95% interval (``{p, ci95}`` or a bare fraction) and games won."""
    rates = data.get("win_rate") if isinstance(data.get("win_rate"), dict) else {}
    wins = data.get("wins") if isinstance(data.get("wins"), dict) else {}
    old_ci = data.get("ci95") if isinstance(data.get("ci95"), dict) else {}
    out = []
    for side, rate in rates.items():
        p, ci = (rate.get("p"), rate.get("ci95")) if isinstance(rate, dict) else (rate, old_ci.get(side))
        line = f"{side_names.get(side, side)} wins {_pct(p)}"
        if isinstance(ci, list) and len(ci) == 2:
            line += f" (95% CI {_pct(ci[0])}-{_pct(ci[1])})"
        if isinstance(wins.get(side), int):
            line += f", {wins[side]} games"
        out.append(line + ".")
    if isinstance(data.get("draws"), int) and rates:
        out.append(f"Draws: {data['draws']}.")
    return out


def _turns_line(data: dict) -> str:
    turns = data.get("turns")
    if isinstance(turns, dict) and _num(turns.get("mean")):
        span = f" (from {turns['min']} to {turns['max']})" if "min" in turns and "max" in turns else ""
        return f"Games last {turns['mean']:.1f} turns on average{span}."
    if _num(data.get("mean_turns")):
        return f"Games last {data['mean_turns']} turns on average."
    return ""


def _per_side_line(data: dict, key: str, title: str, side_names: dict[str, str]) -> str:
    """'Victory points per game: US 12.3 (sd 4.1); Soviet Union 8.0 (sd 2.2).' (mean/sd mappings or means)."""
    values = data.get(key)
    if not isinstance(values, dict) or not values:
        return ""
    parts = []
    for side, v in values.items():
        name = side_names.get(side, side)
        if isinstance(v, dict) and _num(v.get("mean")):
            parts.append(f"{name} {v['mean']:.1f}" + (f" (sd {v['sd']:.1f})" if _num(v.get("sd")) else ""))
        elif _num(v):
            parts.append(f"{name} {v:.1f}")
    return f"{title}: " + "; ".join(parts) + "." if parts else ""


def _list_line(data: dict, key: str, title: str) -> str:
    values = data.get(key)
    if not isinstance(values, list) or not values:
        return ""
    return f"{title}: " + ", ".join(_human(str(v)) for v in values) + "."


def _num(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _human(text: str) -> str:
    """An id or enum value in words: 'on_map_artillery' -> 'on map artillery'."""
    return text.replace("_", " ")


def _pct(value) -> str:
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return str(value)


def _edge_bar(edge: str, w: float, h: float, slot: int, colour: str, text: str) -> list[Item]:
    """A coloured bar along one edge of a ``w`` x ``h`` diagram with a caption beside it (entry edges);
    ``slot`` stacks the captions of several forces entering on the same edge."""
    t = 1.6
    if edge in ("north", "south"):
        y = -t - 0.3 if edge == "north" else h + 0.3
        bar = Rect(0, y, w, t)
        label = Rect(1 + slot * 40.0, y - 7.5 if edge == "north" else y + t + 0.3, 39, 7)
    else:
        x = -t - 0.3 if edge == "west" else w + 0.3
        bar = Rect(x, 0, t, h)
        label = Rect(x - 26.5 if edge == "west" else x + t + 0.5, 1 + slot * 9.0, 26, 8.5)
    return [Box(bar, colour), Text(label, text, 5.5, True, colour=colour,
                                   align="right" if edge == "west" else "left", valign="top", wrap=True)]


def _diagram(index: ProjectIndex, sc: Scenario, width: float, max_h: float) -> tuple[float, list[Item]] | None:
    """The assembled map, small: board names, each side's setup hexes (dots), entry edges (bars) and victory
    hexes (rings); None when the boards cannot be assembled."""
    try:
        amap = assemble_scenario(sc, index)
    except AssemblyError:
        return None
    first = index.model("map", sc.boards[0].map)
    ruleset = first.ruleset if first else sc.ruleset
    drawing = draw_map(amap, terrain_colours(index, ruleset), side_colours(index, ruleset), labels=False)
    margin = 28.0   # room for entry captions beside the map
    s = min((width - 2 * margin) / drawing.width, max_h / drawing.height)
    w, h = drawing.width * s, drawing.height * s
    items: list[Item] = [Group(drawing.items, sx=s, sy=s)]
    for board in sc.boards:
        pts = [drawing.centres[hx] for hx, b in amap.board_of.items() if b == board.map]
        if pts:   # name box above the board's top edge, centred on the board
            cx = sum(p[0] for p in pts) / len(pts) * s
            top = min(p[1] for p in pts) * s
            label = f"{_name(index, 'map', board.map)}{' (turned 180)' if board.rotate else ''}"
            items.append(Box(Rect(cx - 20, top - 7.5, 40, 5), "#ffffff", "#000000", 0.2))
            items.append(Text(Rect(cx - 20, top - 7.5, 40, 5), label, 7, True))
    r = max(1.2, amap.hex_mm * s * 0.3)

    def at(label: str):
        hx = amap.hex_of.get(label)
        return None if hx is None else (drawing.centres[hx][0] * s, drawing.centres[hx][1] * s)

    items += _force_marks(sc, at, r, w, h) + _victory_marks(sc, at, r)
    return h + LABEL_ROOM + 5, [Group(items, dx=margin, dy=LABEL_ROOM)]


def _force_marks(sc: Scenario, at, r: float, w: float, h: float) -> list[Item]:
    """Each side's setup and entry hexes as dots in its colour, entry edges as bars with captions."""
    items: list[Item] = []
    slots: dict[str, int] = {}
    for si, side in enumerate(sc.sides):
        colour = SIDE_COLOURS[si % len(SIDE_COLOURS)]
        for force in side.forces:
            labels = (force.setup.hexes + force.setup.zone) if force.setup else []
            labels += force.entry.hexes if force.entry else []
            for p in filter(None, map(at, labels)):
                items.append(Ellipse(Rect(p[0] - r, p[1] - r, 2 * r, 2 * r), colour, "#ffffff", 0.2))
            if force.entry and force.entry.edge:
                edge = force.entry.edge
                items += _edge_bar(edge, w, h, slots.get(edge, 0), colour,
                                   f"{force.name or force.id}: turn {force.entry.turn}")
                slots[edge] = slots.get(edge, 0) + 1
    return items


def _victory_marks(sc: Scenario, at, r: float) -> list[Item]:
    """Victory hexes as rings in the colour of the side that scores them."""
    items: list[Item] = []
    for v in sc.victory:
        colour = SIDE_COLOURS[next((i for i, sd in enumerate(sc.sides) if sd.id == v.side), 0) % len(SIDE_COLOURS)]
        for p in filter(None, map(at, v.hexes)):
            rr = r * 1.8
            items.append(Ellipse(Rect(p[0] - rr, p[1] - rr, 2 * rr, 2 * rr), None, "#000000", 0.6))
            items.append(Ellipse(Rect(p[0] - rr, p[1] - rr, 2 * rr, 2 * rr), None, colour, 0.3))
    return items


def _placement(force) -> str:
    parts = []
    if force.setup:
        where = ", ".join(force.setup.hexes) if force.setup.hexes else ""
        zone = ", ".join(force.setup.zone) if force.setup.zone else ""
        text = "Sets up " + (f"in {where}" if where else "") + (" and " if where and zone else "") + \
               (f"in the zone {zone}" if zone else "")
        if force.setup.facing:
            text += f", facing {force.setup.facing}"
        parts.append(text)
    if force.entry:
        where = f"the {force.entry.edge} edge" if force.entry.edge else ""
        hexes = ", ".join(force.entry.hexes)
        parts.append(f"Enters on turn {force.entry.turn} " + ("from " + where if where else "") +
                     (" at " if where and hexes else "") + (f"hexes {hexes}" if hexes else ""))
    return "; ".join(parts) + "."


def _units_text(index: ProjectIndex, force) -> str:
    try:
        _, toe = resolve_kind(index, force.toe, ("toe",))
        counts: dict[str, int] = {}
        names: dict[str, str] = {}
        for it in toe_units(index, toe, "", force.substitutions):
            counts[it.unit.id] = counts.get(it.unit.id, 0) + it.count
            names[it.unit.id] = it.unit.name
        return f"{toe.name}: " + ", ".join(f"{n} x {names[u]}" for u, n in counts.items())
    except SourceError as exc:
        return f"(forces cannot be listed: {exc})"


def _name(index: ProjectIndex, kind: str, ref: str) -> str:
    """The document's name, or ``ref`` when it has none (a sheet prints names, not ids)."""
    model = index.model(kind, ref)
    return getattr(model, "name", "") or ref


def _substitutions_text(index: ProjectIndex, force) -> str:
    """'M60A3 platoon instead of M1 Abrams platoon (slot hq/m1, 1 vehicle)' for each substitution."""
    from studio.model.forces import expand_toe

    toe = index.model("toe", force.toe)
    before = expand_toe(toe, index) if toe is not None else []
    parts = []
    for sub in force.substitutions:
        slot = sub.slot.strip("/")
        old = next((v.unit for v in before if v.path == slot or v.path.split("/", 1)[-1] == slot), None)
        text = _name(index, "unit", sub.unit) + (f" instead of {_name(index, 'unit', old)}" if old else "")
        detail = f"slot {slot}" + (f", {sub.count} vehicle{'s' if sub.count != 1 else ''}" if sub.count else "")
        parts.append(f"{text} ({detail})")
    return "Substitutions: " + "; ".join(parts) + "."


def _victory_text(v, side_names: dict[str, str]) -> str:
    who = side_names.get(v.side, v.side)
    what = {"hold_hexes": f"holds {', '.join(v.hexes)}", "exit_units": f"exits units off the {v.edge} edge",
            "destroy_units": "destroys enemy units", "destroy_percent": f"destroys {v.percent}% of the enemy",
            "survive": "survives", "custom": ""}[v.type]
    text = f"{who} {what}".strip()
    if v.points:
        text += f": {v.points} VP"
    if v.text:
        text += f" - {v.text}"
    return text


def _header(flow: Flow, index: ProjectIndex, sc: Scenario, side_names: dict[str, str]) -> None:
    flow.text(sc.name, 18, bold=True, gap=1)
    byline = " - ".join(x for x in (f"Designer: {sc.designer}" if sc.designer else "",
                                    f"Date: {sc.date}" if sc.date else "",
                                    f"Rules: {_name(index, 'ruleset', sc.ruleset)}",
                                    f"{sc.turns} turns",
                                    f"First player: {side_names.get(sc.first_player, sc.first_player)}") if x)
    flow.text(byline, 9, italic=True, gap=3)
    flow.text(sc.description)


def _map_section(flow: Flow, index: ProjectIndex, sc: Scenario) -> None:
    flow.heading("Map")
    diagram = _diagram(index, sc, flow.width, 95.0)
    boards = "; ".join(f"{_name(index, 'map', b.map)} at column {b.at[0]}, row {b.at[1]}"
                       f"{', turned 180 degrees' if b.rotate else ''}" for b in sc.boards)
    if diagram:
        flow.block(diagram[0], diagram[1])
    flow.text(f"Boards: {boards}.")


def _forces_section(flow: Flow, index: ProjectIndex, sc: Scenario) -> None:
    for si, side in enumerate(sc.sides):
        colour = SIDE_COLOURS[si % len(SIDE_COLOURS)]
        flow.heading(side.name if side.nation in side.name else f"{side.name} ({side.nation})", colour)
        for force in side.forces:
            title = force.name or force.designation or force.id
            if force.grade:
                title += f" - grade {force.grade}"
            flow.text(title, BODY_PT + 0.5, bold=True, gap=0.5)
            flow.text(_units_text(index, force), indent=4, gap=0.5)
            flow.text(_placement(force), indent=4, gap=0.5)
            if force.substitutions:
                flow.text(_substitutions_text(index, force), indent=4, gap=0.5)
            flow.y += 1.5


def _environment_text(env) -> str:
    text = f"Weather {env.weather}; light {env.light}"
    if env.night_turns:
        text += f"; night on turns {', '.join(map(str, env.night_turns))}"
    text += f"; visibility {env.visibility} hexes" if env.visibility is not None else "; visibility unlimited"
    if env.wind.direction != "none":
        text += f"; wind {env.wind.strength} from {env.wind.direction}"
    return text + "."


def _rules_sections(flow: Flow, sc: Scenario, side_names: dict[str, str]) -> None:
    """Victory conditions, environment and special rules."""
    flow.heading("Victory conditions")
    for v in sc.victory or []:
        flow.text("- " + _victory_text(v, side_names), indent=2, gap=0.6)
    if not sc.victory:
        flow.text("None given.")
    flow.heading("Environment")
    flow.text(_environment_text(sc.environment))
    if sc.special_rules:
        flow.heading("Special rules")
        for rule in sc.special_rules:
            flow.text(rule.title + (f" ({rule.rule})" if rule.rule else ""), bold=True, gap=0.4)
            flow.text(rule.text, indent=4)


def optional_rule_lines(index: ProjectIndex, sc: Scenario) -> list[str]:
    """``"7.31 Mines and Minefields"`` for each optional rule the scenario switches on, in the ruleset's order
    (an id the ruleset does not define prints as given, marked)."""
    ruleset = index.model("ruleset", sc.ruleset)
    known = list(getattr(ruleset, "optional_rules", []) or [])
    on = set(sc.optional_rules)
    lines = [f"{o.rule.split()[-1] if o.rule else ''} {o.title}".strip() for o in known if o.id in on]
    ids = {o.id for o in known}
    return lines + [f"{rid} (not an optional rule of ruleset {sc.ruleset})" for rid in sc.optional_rules
                    if rid not in ids]


def _optional_rules_section(flow: Flow, index: ProjectIndex, sc: Scenario) -> None:
    lines = optional_rule_lines(index, sc)
    if lines:
        flow.heading("Optional rules in force")
    for line in lines:
        flow.text("- " + line, indent=2, gap=0.6)


def _house_rules_section(flow: Flow, index: ProjectIndex, sc: Scenario) -> None:
    """The house rules in force: ruleset variants that list the scenario (:func:`studio.model.variant.house_rules`)."""
    from studio.model.variant import house_rules

    rules = house_rules(index, sc.id)
    if rules:
        flow.heading("House rules in force")
    for name, changes in rules:
        flow.text(name, bold=True, gap=0.4)
        for change in changes:
            flow.text(change, indent=4)


def _balance_file(index: ProjectIndex, source: str, sc: Scenario) -> Path | None:
    """``<stem>.balance.json`` beside the scenario file (the source file, or the indexed document's)."""
    if is_file_source(source):
        path = Path(source)
        return path.with_name(path.name.split(".")[0] + ".balance.json")
    return balance_path(index, sc.id)


def scenario_pages(index: ProjectIndex, scenario_id: str, paper: str, measure: Measure) -> list[Page]:
    """All pages of the scenario sheet of ``scenario_id`` (an id or a file; SourceError when it does not
    exist)."""
    _, sc = resolve_kind(index, scenario_id, ("scenario",))
    flow = Flow(paper, measure, f"{sc.name} ({sc.id})")
    side_names = {s.id: s.name for s in sc.sides}
    _header(flow, index, sc, side_names)
    _map_section(flow, index, sc)
    _forces_section(flow, index, sc)
    _rules_sections(flow, sc, side_names)
    _optional_rules_section(flow, index, sc)
    _house_rules_section(flow, index, sc)
    lines = balance_lines(_balance_file(index, scenario_id, sc), side_names)
    flow.heading("Balance estimate")
    for line in lines:
        flow.text(line, gap=0.6)
    if not lines:
        flow.text("No test games have been run for this scenario yet.", italic=True)
    return flow.finish()
