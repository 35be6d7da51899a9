"""What to print: turn a SOURCE string into unit cards with counts, using the project's document index. Qt-free.

SOURCE forms (the CLI documents the same list):

* ``TOE_ID`` - every slot of the TO&E, echelon counts multiplied, ``template`` echelons expanded;
* ``SCENARIO_ID`` - every force of every side (its TO&E, with the force's substitutions applied);
* ``unit:ID[*N],ID[*N]...`` - an explicit list of unit cards, N copies each (default 1);
* ``nation:NAME`` / ``ruleset:ID`` - every unit card of that nation / rule system, one each (card sheets);
* ``MAP_ID`` - only for map printing (see :func:`resolve_kind`);
* a file path (``.yaml``/``.yml``, or any existing file) instead of an id, like ``studio play`` and ``studio map``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from studio.model.documents import Scenario, Toe, UnitCard
from studio.model.forces import expand_toe
from studio.model.project import ProjectIndex


class SourceError(ValueError):
    """SOURCE does not name printable documents; the message says why and what exists."""


@dataclass(frozen=True)
class UnitCount:
    """``count`` counters of ``unit``; ``group`` is a heading such as the side or TO&E name; ``designations``
    (when known) names each counter, e.g. ``('31', '34')`` from the TO&E's designation patterns."""

    unit: UnitCard
    count: int
    group: str = ""
    designations: tuple[str, ...] = ()


@dataclass(frozen=True)
class Counter:
    """One physical counter: its unit card and the fields printed on it besides the card's own
    (``/@designation``)."""

    unit: UnitCard
    designation: str = ""

    @property
    def extra(self) -> dict:
        return {"@designation": self.designation} if self.designation else {}


_UNIT_ITEM = re.compile(r"^([a-z0-9][a-z0-9._-]{0,79})(?:\*(\d{1,4}))?$")


def is_file_source(source: str) -> bool:
    """True when ``source`` names a file rather than an id (a YAML suffix or an existing file)."""
    path = Path(source)
    return path.suffix.lower() in (".yaml", ".yml") or path.is_file()


def _from_file(source: str, kinds: tuple[str, ...]) -> tuple[str, object]:
    from studio.model.project import load_document

    path = Path(source)
    if not path.is_file():
        raise SourceError(f"no such file: {source}")
    doc = load_document(path)
    if doc.model is None:
        first = next((d.format_text() for d in doc.diagnostics if d.severity.value == "error"), "")
        raise SourceError(f"{source} is not a valid document; run 'studio validate' on it{': ' + first if first else ''}")
    if doc.kind not in kinds:
        raise SourceError(f"{source} is a {doc.kind}, not a {' or '.join(kinds)}")
    return doc.kind, doc.model


def resolve_kind(index: ProjectIndex, source: str, kinds: tuple[str, ...]) -> tuple[str, object]:
    """``(kind, model)`` of the document ``source`` (an id or a file path) among ``kinds``; SourceError when
    absent or invalid."""
    if is_file_source(source):
        return _from_file(source, kinds)
    for kind in kinds:
        doc = index.get(kind, source)
        if doc is not None:
            if doc.model is None:
                raise SourceError(f"{kind} {source!r} ({doc.display}) is not valid; run 'studio validate' on it")
            return kind, doc.model
    known = sorted(i for k in kinds for i in index.ids(k))
    hint = f"; known: {', '.join(known[:12])}{' ...' if len(known) > 12 else ''}" if known else ""
    raise SourceError(f"no {' or '.join(kinds)} with id {source!r}{hint}")


def _unit(index: ProjectIndex, unit_id: str) -> UnitCard:
    _, model = resolve_kind(index, unit_id, ("unit",))
    return model


def _merge(items: list[UnitCount]) -> list[UnitCount]:
    """Add up counts of the same unit within the same group, keeping first-seen order."""
    merged: dict[tuple[str, str], UnitCount] = {}
    for it in items:
        key = (it.group, it.unit.id)
        prev = merged.get(key)
        names = (prev.designations if prev else ()) + it.designations
        merged[key] = UnitCount(it.unit, it.count + (prev.count if prev else 0), it.group,
                                names if len(names) == it.count + (prev.count if prev else 0) else ())
    return list(merged.values())


def toe_units(index: ProjectIndex, toe: Toe, group: str = "", substitutions=(),
              force_designation: str = "") -> list[UnitCount]:
    """Every vehicle's unit with counts and designations: ``studio.model.forces.expand_toe`` (echelon counts
    multiplied, templates expanded, ``Substitution`` models applied, designation patterns filled in; a
    scenario force's ``designation`` names the root echelon)."""
    vehicles = expand_toe(toe, index, substitutions, force_designation)
    return _merge([UnitCount(_unit(index, v.unit), 1, group, (v.designation,)) for v in vehicles])


def scenario_units(index: ProjectIndex, scenario: Scenario) -> list[UnitCount]:
    out: list[UnitCount] = []
    for side in scenario.sides:
        for force in side.forces:
            _, toe = resolve_kind(index, force.toe, ("toe",))
            out.extend(toe_units(index, toe, side.name, force.substitutions, force.designation))
    return out


def unit_list(index: ProjectIndex, spec: str) -> list[UnitCount]:
    items = [s.strip() for s in spec.split(",") if s.strip()]
    if not items:
        raise SourceError("'unit:' needs at least one unit id, e.g. unit:m1*4,m3")
    out = []
    for item in items:
        m = _UNIT_ITEM.match(item)
        if not m or (m.group(2) is not None and int(m.group(2)) < 1):
            raise SourceError(f"bad unit item {item!r}: use ID or ID*N, e.g. m1*4")
        out.append(UnitCount(_unit(index, m.group(1)), int(m.group(2) or 1)))
    return out


def _all_units(index: ProjectIndex, keep) -> list[UnitCount]:
    units = sorted((d.model for d in index.of_kind("unit") if d.model is not None), key=lambda u: (u.nation, u.id))
    return [UnitCount(u, 1, u.nation) for u in units if keep(u)]


def units_for(index: ProjectIndex, source: str) -> list[UnitCount]:
    """Unit cards and counts for a counter or card sheet; SourceError for anything unprintable."""
    source = source.strip()
    if source.startswith("unit:"):
        items = unit_list(index, source[5:])
    elif source.startswith("nation:"):
        nation = source[7:].strip().lower()
        items = _all_units(index, lambda u: u.nation.lower() == nation)
    elif source.startswith("ruleset:"):
        rs = source[8:].strip()
        items = _all_units(index, lambda u: u.ruleset == rs)
    else:
        kind, model = resolve_kind(index, source, ("toe", "scenario", "unit"))
        if kind == "toe":
            items = toe_units(index, model, model.name)
        elif kind == "scenario":
            items = scenario_units(index, model)
        else:
            items = [UnitCount(model, 1)]
    items = _merge(items)
    if not items:
        raise SourceError(f"{source!r} selects no unit cards")
    return items


def counters_for(index: ProjectIndex, source: str) -> list[Counter]:
    """One :class:`Counter` per physical counter of ``source`` (see :func:`units_for`), with its designation."""
    out = []
    for it in units_for(index, source):
        names = it.designations if len(it.designations) == it.count else ("",) * it.count
        out.extend(Counter(it.unit, name) for name in names)
    return out
