"""Static checks of the MBT Optional Rules (MBT 7.0) a scenario switches on (issue 13; the studio plays them with
the Advanced Game only: the engine builds them on the Advanced state). Codes are stable: ``mbt.optional-*``. What each rule needs is data, read from the ruleset's
``optional_rules[].needs`` (``studio.model.documents.OptionalRuleNeeds``):

- ``mbt.optional-basic-game`` (error): optional rules in a scenario that plays the Basic Game.
- ``mbt.optional-needs-scenario`` (error): a rule in force whose ``needs.scenario`` key (an ``extension`` field;
  ``a|b`` = either) the scenario does not fill in, e.g. "mines on but the scenario plots no minefield".
- ``mbt.optional-card-field`` (warning): a ``needs.card_fields`` field (dotted path into the card ``body``; a list
  step matches any item; ``a|b`` = either; ``extension.X`` = the scenario's extension field X instead, e.g.
  ``command_level|extension.command_units``) that no unit card of the scenario gives: nothing to act on.
- ``mbt.optional-map-feature`` (warning): a rule in force about map features (``needs.map_features``: terrain
  codes, hexside features or road types) none of which the scenario's boards have.
- ``mbt.optional-data-unused`` (warning): extension data that only optional rules read while none of them is on.
- ``mbt.optional-needs-key`` (warning, on the ruleset): a ``needs.scenario`` key that is no field of the MBT
  scenario extension, or a ``needs.card_fields`` field no card body model has (a warning: the rules still play,
  but the check of that need cannot work).
"""
from __future__ import annotations

from typing import Any, Iterator

from studio.model.diagnostics import Diagnostic
from studio.model.forces import expand_force

from .cards import CARD_BODIES, MbtScenarioExtension

R = "MBT "

#: extension fields of the Basic and the Advanced Game (read without any optional rule): never "unused"
GAME_FIELDS = frozenset({"game", "force_grades", "objective_turns", "building_stories", "building_construction",
                         "heat_haze", "artillery", "aircraft", "mounted", "attachments", "pre_registered",
                         "planned_fire", "terrain_gpd"})


def _alternatives(key: str) -> list[str]:
    return [k.strip() for k in key.split("|") if k.strip()]


def _filled(ext, name: str) -> bool:
    """Whether the scenario sets extension field ``name`` to something (not absent, not empty)."""
    if name not in getattr(ext, "model_fields_set", set()):
        return False
    value = getattr(ext, name, None)
    return value is not None and value != [] and value != {} and value != ""


def _describe(name: str) -> str:
    info = MbtScenarioExtension.model_fields.get(name)
    return f" ({info.description})" if info is not None and info.description else ""


def check_optional_scenario(doc, index) -> Iterator[Diagnostic]:
    """The optional-rule checks of one MBT scenario (see the module docstring)."""
    sc = doc.model
    if sc.ruleset != "mbt":
        return
    ruleset = index.model("ruleset", "mbt")
    if ruleset is None:
        return
    known = {o.id: o for o in ruleset.optional_rules}
    on = [(k, known[rid]) for k, rid in enumerate(sc.optional_rules) if rid in known]
    ext = sc.extension
    if on and getattr(ext, "game", "basic") != "advanced":
        yield doc.error("mbt.optional-basic-game", f"optional rules ({', '.join(r.id for _k, r in on)}) are "
                        "played with the Advanced Game only (the studio's engine builds them on it); this scenario "
                        "plays the Basic Game (set extension.game: advanced or switch them off)", "/optional_rules",
                        R + "7.0", at_key=True)
    yield from _missing_data(doc, ext, on)
    yield from _card_fields(doc, sc, index, on)
    yield from _map_features(doc, sc, index, on)
    yield from _unused_data(doc, ext, ruleset, {r.id for _k, r in on})


def _missing_data(doc, ext, on) -> Iterator[Diagnostic]:
    for k, rule in on:
        for key in rule.needs.scenario:
            names = _alternatives(key)
            if names and not any(_filled(ext, n) for n in names):
                what = " or ".join(f"extension.{n}{_describe(n)}" for n in names)
                yield doc.error("mbt.optional-needs-scenario", f"optional rule '{rule.id}' ({rule.rule}) is on but "
                                f"the scenario gives no {what}", f"/optional_rules/{k}", rule.rule)


def _scenario_cards(sc, index) -> list:
    """The card bodies the scenario fields: its forces' units, its batteries and its aircraft."""
    ids = {u.unit for side in sc.sides for force in side.forces for u in expand_force(force, index)}
    ext = sc.extension
    ids |= {a.battery for a in getattr(ext, "artillery", [])} | {a.aircraft for a in getattr(ext, "aircraft", [])}
    models = [index.model("unit", i) for i in sorted(ids)]
    return [m.body for m in models if m is not None and getattr(m, "body", None) is not None]


def _has_path(value: Any, parts: list[str]) -> bool:
    """Whether ``value`` (a model, dict or list) gives something at the dotted path ``parts``."""
    if not parts:
        return value is not None and value != [] and value != {} and value is not False
    if isinstance(value, (list, tuple)):
        return any(_has_path(item, parts) for item in value)
    head, rest = parts[0], parts[1:]
    if isinstance(value, dict):
        return head in value and _has_path(value[head], rest)
    return hasattr(value, head) and _has_path(getattr(value, head), rest)


EXTENSION = "extension."  # a card_fields alternative the scenario extension may give instead of a card


def _card_field_given(path: str, bodies: list, ext) -> bool:
    """Whether one alternative of ``path`` (``a|b``) is given: a card body field, or ``extension.X`` filled."""
    for alt in _alternatives(path):
        if alt.startswith(EXTENSION):
            if _filled(ext, alt[len(EXTENSION):]):
                return True
        elif any(_has_path(body, alt.split(".")) for body in bodies):
            return True
    return False


def _card_fields(doc, sc, index, on) -> Iterator[Diagnostic]:
    wanted = [(k, rule, f) for k, rule in on for f in rule.needs.card_fields]
    if not wanted:
        return
    bodies = _scenario_cards(sc, index)
    for k, rule, path in wanted:
        if not _card_field_given(path, bodies, sc.extension):
            shown = " or ".join(f"'{a}'" for a in _alternatives(path))
            yield doc.warning("mbt.optional-card-field", f"optional rule '{rule.id}' ({rule.rule}) reads card "
                              f"field {shown}, which no unit card of this scenario gives: the rule has nothing "
                              "to act on", f"/optional_rules/{k}", rule.rule)


def board_features(sc, index) -> set[str]:
    """Terrain codes, hexside features and road types on the scenario's boards."""
    found: set[str] = set()
    for board in sc.boards:
        m = index.model("map", board.map)
        if m is None:
            continue
        for row in m.terrain:
            found.update(row.split())
        found.update(h.feature for h in m.hexsides)
        found.update(r.type for r in m.roads)
    return found


def _map_features(doc, sc, index, on) -> Iterator[Diagnostic]:
    wanted = [(k, rule) for k, rule in on if rule.needs.map_features]
    if not wanted:
        return
    present = board_features(sc, index)
    for k, rule in wanted:
        if not present & set(rule.needs.map_features):
            yield doc.warning("mbt.optional-map-feature", f"optional rule '{rule.id}' ({rule.rule}) is about "
                              f"{', '.join(rule.needs.map_features)}, which the scenario's boards do not have: the "
                              "rule has nothing to act on", f"/optional_rules/{k}", rule.rule)


def _unused_data(doc, ext, ruleset, on: set[str]) -> Iterator[Diagnostic]:
    """Extension fields named only by optional rules that are all off (fields of the game itself excepted)."""
    readers: dict[str, list] = {}
    for rule in ruleset.optional_rules:
        for key in rule.needs.scenario:
            for name in _alternatives(key):
                readers.setdefault(name, []).append(rule)
    for name, rules in sorted(readers.items()):
        if name in GAME_FIELDS or any(r.id in on for r in rules) or not _filled(ext, name):
            continue
        listed = ", ".join(f"'{r.id}' ({r.rule})" for r in rules)
        yield doc.warning("mbt.optional-data-unused", f"extension.{name} is data of optional rule(s) {listed}, "
                          "which this scenario does not switch on: it is unused", f"/extension/{name}",
                          rules[0].rule, at_key=True)


def _card_field_known(path: str) -> bool:
    """A card body field (its first step), or ``extension.X`` with X a field of the MBT scenario extension."""
    if path.startswith(EXTENSION):
        return path[len(EXTENSION):] in MbtScenarioExtension.model_fields
    head = path.split(".")[0]
    return any(head in getattr(model, "model_fields", {}) for model in set(CARD_BODIES.values()))


def check_optional_ruleset(doc, index) -> Iterator[Diagnostic]:
    """``needs.scenario`` keys are fields of the MBT scenario extension; ``needs.card_fields`` start with a field
    of some MBT card body."""
    rs = doc.model
    if rs.id != "mbt":
        return
    fields = MbtScenarioExtension.model_fields
    for k, rule in enumerate(rs.optional_rules):
        for j, key in enumerate(rule.needs.scenario):
            for name in _alternatives(key):
                if name not in fields:
                    yield doc.warning("mbt.optional-needs-key", f"optional rule '{rule.id}' needs scenario data "
                                    f"'{name}', which is no field of the MBT scenario extension",
                                    f"/optional_rules/{k}/needs/scenario/{j}", rule.rule)
        for j, key in enumerate(rule.needs.card_fields):
            for path in _alternatives(key):
                if not _card_field_known(path):
                    yield doc.warning("mbt.optional-needs-key", f"optional rule '{rule.id}' reads card field "
                                      f"'{path}', which no MBT card body has",
                                      f"/optional_rules/{k}/needs/card_fields/{j}", rule.rule)


OPTIONAL_CHECKS: dict[str, list] = {"scenario": [check_optional_scenario], "ruleset": [check_optional_ruleset]}
