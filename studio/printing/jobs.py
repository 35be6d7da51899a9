"""Print jobs: options (CLI flags or the preview dialog) + project -> pages. Qt-free.

:class:`PrintOptions` holds every choice with the project's ``print`` block as defaults; :func:`build_pages`
dispatches on the sheet kind. Both the ``studio print`` command and the preview dialog call it, then hand the
pages to the one renderer.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from studio.model.maps import AssemblyError, assemble_scenario, assemble_single
from studio.model.project import ProjectIndex

from .calibration import calibration_pages
from .faces import LayoutError, choose_layout
from .geometry import GeometryError, SheetSpec
from .mapsheet import draw_map, map_key, map_pages, side_colours, terrain_colours
from .primitives import Page
from .scenario_sheet import scenario_pages
from .sheets import SheetJob, card_pages, card_types, counter_pages
from .sources import SourceError, counters_for, resolve_kind, units_for
from .table_guide import TableGuideError, duplex_card_pages, layout_has_back, table_guide_pages, template_pages
from .units import LengthError, length_mm, paper_mm

KINDS = ("counters", "cards", "map", "scenario", "calibration")
MARKS = ("crop", "registration", "both", "none")
DUPLEX = ("long", "short", "none")


class PrintError(ValueError):
    """A print job that cannot be built; the message is meant for the user (no traceback)."""


@dataclass(frozen=True)
class PrintOptions:
    kind: str
    source: str = ""
    paper: str = "letter"
    size: str = "5/8in"
    bleed: str = "0.125in"
    gutter: str | None = "0"            # '0': butted (bleed on the block's open edges); None: 2 x bleed
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    marks: str = "crop"
    margin: str = "6mm"
    layout: str | None = None
    overlap: str = "10mm"
    mark_length: str = "4mm"
    mark_distance: str = "1mm"          # gap between the bleed and the marks
    back_marks: bool = False            # crop marks on the back pages too

    def validated(self) -> "PrintOptions":
        """Self, after checking every value; PrintError names the bad option."""
        if self.kind not in KINDS:
            raise PrintError(f"unknown sheet kind {self.kind!r} (use {', '.join(KINDS)})")
        if self.duplex not in DUPLEX:
            raise PrintError(f"--duplex must be one of {', '.join(DUPLEX)}, not {self.duplex!r}")
        if self.marks not in MARKS:
            raise PrintError(f"--marks must be one of {', '.join(MARKS)}, not {self.marks!r}")
        try:
            paper_mm(self.paper)
            for name in ("size", "bleed", "margin", "overlap", "mark_length", "mark_distance"):
                length_mm(getattr(self, name))
            if self.gutter is not None:
                length_mm(self.gutter)
        except LengthError as exc:
            raise PrintError(str(exc)) from None
        if length_mm(self.size) <= 0:
            raise PrintError("--size must be greater than 0")
        return self

    def sheet_spec(self, cell_w: float, cell_h: float) -> SheetSpec:
        return SheetSpec(cell_w=cell_w, cell_h=cell_h, paper=self.paper.lower(), bleed=length_mm(self.bleed),
                         gutter=None if self.gutter is None else length_mm(self.gutter),
                         margin=length_mm(self.margin), marks=self.marks, duplex=self.duplex,
                         back_offset=tuple(self.back_offset), mark_gap=length_mm(self.mark_distance),
                         mark_len=length_mm(self.mark_length))


def project_defaults(index: ProjectIndex, kind: str) -> PrintOptions:
    """Options from the project's ``print`` block (built-in defaults when the project has none).

    Data cards are cut butted: for ``cards`` the bleed and gutter default to 0 (the block is for counters).
    """
    project = next((d.model for d in index.of_kind("project") if d.model is not None), None)
    base = PrintOptions(kind)
    if project is not None:
        pd = project.print
        base = replace(base, paper=pd.paper, size=pd.counter_size, bleed=pd.bleed, duplex=pd.duplex,
                       back_offset=(float(pd.back_offset_mm[0]), float(pd.back_offset_mm[1])))
    return replace(base, bleed="0", gutter="0") if kind == "cards" else base


def _caption(opts: PrintOptions) -> str:
    if opts.kind == "cards":
        return f"Studio cards: {opts.source}  -  {opts.paper}"
    return (f"Studio {opts.kind}: {opts.source}  -  {opts.size} on {opts.paper}, bleed {opts.bleed}, "
            f"{opts.duplex}-edge duplex, back offset {opts.back_offset[0]:g},{opts.back_offset[1]:g} mm")


def build_pages(index: ProjectIndex, opts: PrintOptions, measure: Callable | None = None) -> list[Page]:
    """Pages of the job; PrintError for unknown sources, sizes that do not fit, bad layouts ...

    ``measure`` is the text-height function the scenario sheet flows with (required for 'scenario').
    """
    opts = opts.validated()
    base = index.root
    try:
        if opts.kind == "calibration":
            return calibration_pages(opts.paper.lower(), opts.duplex, tuple(opts.back_offset))
        if opts.kind == "counters":
            size = length_mm(opts.size)
            counters = counters_for(index, opts.source)
            job = SheetJob(opts.sheet_spec(size, size), _caption(opts), opts.back_marks)
            return counter_pages(index, [c.unit for c in counters], job, opts.layout, base,
                                 [c.extra for c in counters])
        if opts.kind == "cards":
            return _card_pages(index, opts)
        if opts.kind == "map":
            return _map_pages(index, opts)
        if measure is None:
            raise PrintError("the scenario sheet needs a text measure function")
        return scenario_pages(index, opts.source, opts.paper.lower(), measure)
    except (SourceError, GeometryError, LayoutError, AssemblyError, TableGuideError) as exc:
        raise PrintError(str(exc)) from None


def _card_pages(index: ProjectIndex, opts: PrintOptions) -> list[Page]:
    """Data cards; a layout with a back side (e.g. a unit card printed front and back) goes out duplex unless
    ``--duplex none``."""
    types = card_types(units_for(index, opts.source))
    extras = [{"@count": t.count} for t in types]
    units = [t.unit for t in types]
    if types and opts.duplex != "none" and layout_has_back(choose_layout(index, units[0], "card", opts.layout)):
        job = SheetJob(opts.sheet_spec(1.0, 1.0), _caption(opts), opts.back_marks)
        return duplex_card_pages(index, units, job, opts.layout, index.root, extras)
    job = SheetJob(replace(opts, duplex="none").sheet_spec(1.0, 1.0), _caption(opts))
    return card_pages(index, units, job, opts.layout, index.root, extras)


def _table_pages(index: ProjectIndex, map_id: str, opts: PrintOptions) -> list[Page]:
    """A measured table: the 1:1 layout guide tiled over the paper, then the feature templates."""
    paper = opts.paper.lower()
    return (table_guide_pages(index, map_id, paper, max(length_mm(opts.margin), 8.0), length_mm(opts.overlap))
            + template_pages(paper))


def _map_pages(index: ProjectIndex, opts: PrintOptions) -> list[Page]:
    kind, model = resolve_kind(index, opts.source, ("map", "scenario"))
    if kind == "map":
        if model.hex is None:
            return _table_pages(index, model.id, opts)
        amap, ruleset, title = assemble_single(model), model.ruleset, model.name
    else:
        first = index.model("map", model.boards[0].map)
        if first is not None and first.hex is None:
            return _table_pages(index, first.id, opts)
        amap = assemble_scenario(model, index)
        ruleset, title = (first.ruleset if first else model.ruleset), f"{model.name} - map"
    drawing = draw_map(amap, terrain_colours(index, ruleset), side_colours(index, ruleset))
    return map_pages(drawing, title, opts.paper.lower(), max(length_mm(opts.margin), 8.0), length_mm(opts.overlap),
                     map_key(index, ruleset, amap))
