"""From a scenario (id or file) to a playable :class:`~studio.rules.api.Game`.

``load_game(scenario, project=None, options=None) -> LoadedGame`` validates the project with the same pipeline as
``studio validate`` and refuses a scenario whose own file, or any document it depends on (ruleset, maps, TO&Es,
unit cards, transitively), has errors: :class:`ScenarioRefused` carries the diagnostics. Then it asks the
scenario's ruleset plugin for a game (``RulesetPlugin.game_factory(scenario, index, options)``). ``options``
overrides are checked against the ruleset (unknown ids: ``scenario.option-unknown``, values that are not a choice:
``scenario.option-choice``, refused with :class:`ScenarioRefused`); the factory receives the merged dict
(ruleset defaults <- scenario ``options`` <- overrides), so engines read every option by id.

``LoadedGame.content_hash`` hashes the scenario file and every document it depends on, so a replay can tell when
the data it was recorded on has changed. ``GameSpec`` is the picklable recipe (scenario path, project folder,
options) that worker processes use to build the same game. :func:`rebuild_game` makes a variant of a loaded
game (other options, or a changed ruleset model) without validating again: the conformance checks use it.
Rule-system neutral.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from studio.model.diagnostics import Diagnostic, Severity
from studio.model.project import LoadedDocument, ProjectIndex, default_project, find_project_root
from studio.model.references import document_references
from studio.model.registry import plugin
from studio.model.requirements import merged_options, option_problems, optional_rule_problems
from studio.model.validate import validate_paths

from .api import Game


class ScenarioRefused(Exception):
    """The scenario cannot be played: it (or a document it needs) fails validation, or it cannot be found."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics or []


@dataclass
class LoadedGame:
    game: Game
    scenario: Any                      # the Scenario model
    index: ProjectIndex
    path: Path                         # the scenario file
    project: Path | None               # the project folder
    content_hash: str                  # hash of the scenario and every document it depends on
    ruleset_version: str = ""
    placeholder_tables: list[str] = field(default_factory=list)
    #: the option overrides given to :func:`load_game` (kept so worker processes rebuild the same game)
    overrides: dict[str, Any] = field(default_factory=dict)
    #: the options the engine received: ruleset defaults <- scenario options <- overrides
    options: dict[str, Any] = field(default_factory=dict)
    #: the position file the games start from (``studio.rules.position``), or None for the scenario's start
    position: str | None = None
    #: the optional rules given to :func:`load_game` in place of the scenario's list (None: the scenario's)
    optional_rules: tuple[str, ...] | None = None

    @property
    def spec(self) -> "GameSpec":
        return GameSpec(str(self.path), str(self.project) if self.project else None,
                        tuple(sorted(self.overrides.items())), self.position, self.optional_rules)


@dataclass(frozen=True)
class GameSpec:
    """Picklable recipe to rebuild a game in another process."""

    scenario: str
    project: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    position: str | None = None  # a position file: games start there (its options replace ``options``)
    optional_rules: tuple[str, ...] | None = None  # in place of the scenario's optional rules

    def load(self) -> LoadedGame:
        if self.position:
            from .position import load_position  # noqa: PLC0415

            return load_position(self.position, self.project).as_loaded()
        return load_game(self.scenario, self.project, dict(self.options) or None, self.optional_rules)


def _dependencies(doc: LoadedDocument, index: ProjectIndex) -> list[LoadedDocument]:
    """The document and everything it references, transitively, in a stable order."""
    seen: dict[int, LoadedDocument] = {}
    stack = [doc]
    while stack:
        d = stack.pop()
        if id(d) in seen:
            continue
        seen[id(d)] = d
        # every reference, including those declared inside a plugin's blocks (scenario extension, card body)
        for _pointer, kind, ref in document_references(d.model):
            target = index.get(kind, ref)
            if target is not None and id(target) not in seen:
                stack.append(target)
    return sorted(seen.values(), key=lambda d: (d.kind or "", d.id or "", str(d.path)))


def content_hash(docs: list[LoadedDocument]) -> str:
    h = hashlib.sha256()
    for d in docs:
        h.update(f"{d.kind}:{d.id}\n".encode())
        h.update(d.text.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:32]


def resolve_scenario(scenario: str | Path, project: str | Path | None) -> tuple[Path, Path | None]:
    """A scenario file path and its project folder, from a path or a scenario id."""
    candidate = Path(scenario)
    if candidate.is_file():
        root = Path(project) if project else find_project_root(candidate)
        return candidate, root
    if project is None:
        project = default_project()
    root = Path(project)
    if not root.is_dir():
        raise ScenarioRefused(f"no such project folder: {root}")
    from studio.model.project import project_files, read_document  # noqa: PLC0415

    for file in project_files(root):
        doc = read_document(file)
        if doc.kind == "scenario" and doc.id == str(scenario):
            return file, root
        if file.stem == str(scenario) and doc.kind == "scenario":
            return file, root
    raise ScenarioRefused(f"no scenario file or scenario id '{scenario}' in {root}")


def load_game(scenario: str | Path, project: str | Path | None = None,
              options: dict[str, Any] | None = None,
              optional_rules: Iterable[str] | None = None) -> LoadedGame:
    """Validate and compile a scenario into a Game; raises :class:`ScenarioRefused`. ``optional_rules``, when
    given, replaces the scenario's list of optional rules in force (checked like the scenario's own: the ids,
    then the plugin's scenario checks on the scenario with that list)."""
    path, root = resolve_scenario(scenario, project)
    doc, index, deps = _validated(path, root)
    model = doc.model
    plug = plugin(model.ruleset)
    if plug is None or plug.game_factory is None:
        raise ScenarioRefused(f"ruleset '{model.ruleset}' has no rules engine")
    ruleset = index.model("ruleset", model.ruleset)
    overrides = dict(options or {})
    merged = _engine_options(ruleset, model, overrides)
    switched = None
    if optional_rules is not None:
        switched = tuple(optional_rules)
        model = with_optional_rules(ruleset, model, switched)
        _check_switched(doc, model, index)
    game = plug.game_factory(model, index, merged)
    placeholders = list(getattr(game, "placeholder_tables", []) or [])
    return LoadedGame(game, model, index, path, root, content_hash(deps),
                      getattr(game, "ruleset_version", "") or (ruleset.version if ruleset else ""),
                      placeholders, overrides, merged, optional_rules=switched)


OPTIONAL_RULES_SOURCE = "<optional_rules>"


def with_optional_rules(ruleset, scenario, rule_ids: Iterable[str]):
    """A copy of the ``scenario`` model with ``rule_ids`` as its optional rules in force; raises
    :class:`ScenarioRefused` for ids the ruleset does not define (or rules switched on without one they need)."""
    ids = list(rule_ids)
    if ruleset is not None:
        found = [Diagnostic(Severity.ERROR, p.code, p.message, OPTIONAL_RULES_SOURCE, pointer=p.pointer, rule=p.rule)
                 for p in optional_rule_problems(ruleset, ids, base="")
                 if p.code != "scenario.optional-rule-duplicate"]
        if found:
            raise ScenarioRefused(f"{len(found)} bad optional rule(s) for ruleset '{ruleset.id}'", found)
    return scenario.model_copy(update={"optional_rules": list(dict.fromkeys(ids))})


def _check_switched(doc: LoadedDocument, model, index: ProjectIndex) -> None:
    """Run the document checks (core and plugin) on the scenario with the overridden optional rules (e.g. a rule
    that needs scenario data, or one the scenario's game level does not allow); raises :class:`ScenarioRefused`
    on errors. The scenario passed them with its own list, so every error comes from the override."""
    import dataclasses  # noqa: PLC0415

    from studio.model.validate import document_checks  # noqa: PLC0415

    twin = dataclasses.replace(doc, model=model)
    found = [d for d in document_checks(twin, index) if d.severity is Severity.ERROR]
    if found:
        raise ScenarioRefused(f"scenario '{model.id}' cannot be played with optional rules "
                              f"{', '.join(model.optional_rules) or '(none)'}", found)


def _validated(path: Path, root: Path | None) -> tuple[LoadedDocument, ProjectIndex, list[LoadedDocument]]:
    """The scenario document, the project index and the scenario's dependencies, all free of errors."""
    result = validate_paths([root] if root else [path])
    index = result.index
    doc = next((d for d in index.documents if d.path.resolve() == path.resolve()), None)
    if doc is None or doc.kind != "scenario":
        raise ScenarioRefused(f"{path} is not a scenario document", [d for d in result.diagnostics
                                                                      if doc is not None and d.file == doc.display])
    deps = _dependencies(doc, index) if doc.model is not None else [doc]
    displays = {d.display for d in deps}
    errors = [d for d in result.diagnostics if d.severity.value == "error" and d.file in displays]
    if doc.model is None or errors:
        shown = [d for d in result.diagnostics if d.file in displays and d.severity.value != "info"]
        raise ScenarioRefused(f"scenario '{doc.id or path.name}' fails validation "
                              f"({len(errors) or 1} error(s)); it cannot be played", shown or errors)
    return doc, index, deps


def _engine_options(ruleset, scenario, overrides: dict[str, Any]) -> dict[str, Any]:
    """Checked ``overrides`` merged over the scenario's options and the ruleset's defaults."""
    if ruleset is None:
        return {**scenario.options, **overrides}
    check_options(ruleset, overrides)
    return merged_options(ruleset, scenario.options, overrides)


OPTIONS_SOURCE = "<options>"


def check_options(ruleset, options: dict[str, Any], source: str = OPTIONS_SOURCE) -> None:
    """Raise :class:`ScenarioRefused` when ``options`` names an option ``ruleset`` lacks or a value that is not
    one of its choices. Diagnostics name ``source`` as their file and ``/<option id>`` as their pointer."""
    found = [Diagnostic(Severity.ERROR, p.code, p.message, source, pointer=p.pointer, rule=p.rule)
             for p in option_problems(ruleset, options, base="")]
    if found:
        raise ScenarioRefused(f"{len(found)} bad rule option(s) for ruleset '{ruleset.id}'", found)


def rebuild_game(loaded: LoadedGame, options: dict[str, Any] | None = None, ruleset=None,
                 scenario=None, factory=None, optional_rules: Iterable[str] | None = None) -> Game:
    """A new Game for ``loaded``'s scenario with option ``options`` overrides (replacing ``loaded``'s) and/or a
    replacement ``ruleset`` model (e.g. a table cell changed) or ``scenario`` model (e.g. another environment),
    without validating the project again. Options are still checked (:class:`ScenarioRefused`). ``factory``
    replaces the registered plugin's ``game_factory``. ``optional_rules`` replaces the scenario's optional rules
    in force (checked like :func:`load_game`'s)."""
    scenario = scenario if scenario is not None else loaded.scenario
    index = loaded.index
    doc = index.get("ruleset", scenario.ruleset)
    if ruleset is not None and doc is not None:
        index = _index_with(index, doc, ruleset)
    model = ruleset if ruleset is not None else (doc.model if doc is not None else None)
    if optional_rules is not None:
        scenario = with_optional_rules(model, scenario, optional_rules)
    overrides = dict(loaded.overrides if options is None else options)
    make = factory or plugin(scenario.ruleset).game_factory
    return make(scenario, index, _engine_options(model, scenario, overrides))


def _index_with(index: ProjectIndex, doc: LoadedDocument, model) -> ProjectIndex:
    """A shallow copy of ``index`` in which ``doc``'s model is ``model`` (the original is untouched)."""
    import dataclasses  # noqa: PLC0415

    twin = dataclasses.replace(doc, model=model)
    copy = ProjectIndex(index.root)
    copy.documents = [twin if d is doc else d for d in index.documents]
    copy.by_kind = {kind: dict(table) for kind, table in index.by_kind.items()}
    copy.by_kind[doc.kind][doc.id] = twin
    return copy
