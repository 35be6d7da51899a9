"""The ruleset plugin registry. The core never names a rule system: plugins register themselves here.

A plugin is a subpackage of ``studio.rulesets`` whose ``__init__`` calls :func:`register` with a
:class:`RulesetPlugin`. :func:`load_plugins` imports every such subpackage once.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from pydantic import BaseModel

if TYPE_CHECKING:  # pragma: no cover
    from .diagnostics import Diagnostic
    from .project import LoadedDocument, ProjectIndex
    from .requirements import TableSpec

#: A static check: ``check(document, project) -> diagnostics``. Documents passed are valid models.
Check = Callable[["LoadedDocument", "ProjectIndex"], Iterable["Diagnostic"]]


@dataclass
class RulesetPlugin:
    """What a rule system contributes. Only ``id`` and ``name`` are required."""

    id: str
    name: str
    #: model of a unit card's ``body`` per card ``category`` (``"*"`` = any category)
    card_bodies: dict[str, type[BaseModel]] = field(default_factory=dict)
    #: model of a scenario's ``extension`` block
    scenario_extension: type[BaseModel] | None = None
    #: static checks per document kind (``"unit"``, ``"toe"``, ``"map"``, ``"scenario"``, ``"ruleset"``, ``"*"``)
    checks: dict[str, list[Check]] = field(default_factory=dict)
    #: factory of the rules engine Game for a scenario (engine issues); signature defined in studio.rules
    game_factory: Callable[..., Any] | None = None
    #: line-of-sight logic that the ruleset's ``los`` data cannot express (blind zones, counting rules ...):
    #: ``los_check(service, observer, target) -> studio.model.los.Sight | None``. ``service`` is the
    #: :class:`studio.model.los.LosService` asking (map, ruleset, options, heights and its data-driven
    #: ``service.profile(observer, target)``); hexes are axial tuples. Return None to use the data-driven answer.
    los_check: Callable[..., Any] | None = None
    #: anything else a plugin wants to expose (bots, print layouts ...)
    extras: dict[str, Any] = field(default_factory=dict)
    #: the ruleset tables the engine reads (:class:`studio.model.requirements.TableSpec`); validation reports
    #: ``ruleset.engine-table`` errors for a ruleset that fails them, so ``load_game`` refuses it
    engine_tables: tuple["TableSpec", ...] = ()
    #: scenario ``environment`` fields the rules use (``weather``, ``visibility``, ``light``, ``night_turns``,
    #: ``wind``); any other field set away from its default is a ``scenario.environment-unused`` warning
    environment_fields: frozenset[str] = frozenset()
    #: option id -> why the options conformance check cannot expose it with a probe
    unexposable_options: dict[str, str] = field(default_factory=dict)
    #: table id (or ``table_id:row:column``) -> why the tables conformance check cannot expose it
    unexposable_tables: dict[str, str] = field(default_factory=dict)
    #: optional rule id -> why no conformance probe can show it changing play (``Probe.optional_rules``)
    unexposable_optional_rules: dict[str, str] = field(default_factory=dict)
    #: lazy hook returning the conformance probes (``list[studio.rules.conformance.Probe]``); use :func:`lazy`
    probes: Callable[[], list[Any]] | None = None

    def card_body_model(self, category: str) -> type[BaseModel] | None:
        return self.card_bodies.get(category) or self.card_bodies.get("*")


def lazy(target: str) -> Callable[..., Any]:
    """A hook that imports ``"package.module:function"`` on its first call, so registering a plugin stays cheap
    (engines, bots and LOS code load only when used)."""
    module_name, _, attr = target.partition(":")
    resolved: list[Callable[..., Any]] = []

    def hook(*args, **kwargs):
        if not resolved:
            resolved.append(getattr(importlib.import_module(module_name), attr))
        return resolved[0](*args, **kwargs)

    hook.__qualname__ = f"lazy({target})"
    return hook


_PLUGINS: dict[str, RulesetPlugin] = {}
_LOADED = False


def register(plugin: RulesetPlugin) -> RulesetPlugin:
    if plugin.id in _PLUGINS and _PLUGINS[plugin.id] is not plugin:
        raise ValueError(f"ruleset plugin {plugin.id!r} registered twice")
    _PLUGINS[plugin.id] = plugin
    return plugin


def unregister(plugin_id: str) -> RulesetPlugin | None:
    """Remove a plugin (tests register toy plugins and remove them afterwards); returns it, or None."""
    return _PLUGINS.pop(plugin_id, None)


def load_plugins() -> dict[str, RulesetPlugin]:
    """Import every plugin package under ``studio.rulesets`` (once) and return the registry."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        package = importlib.import_module("studio.rulesets")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if info.ispkg:
                importlib.import_module(f"studio.rulesets.{info.name}")
    return _PLUGINS


def plugin(ruleset_id: str) -> RulesetPlugin | None:
    return load_plugins().get(ruleset_id)


def plugins() -> list[RulesetPlugin]:
    return [p for _, p in sorted(load_plugins().items())]
