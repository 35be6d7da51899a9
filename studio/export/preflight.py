"""The check every export (VASSAL module, scenario package) and every scenario print runs first: the validation
pipeline over the scenario and everything it depends on, then a short seeded bot test-play.

:func:`preflight` validates the project (``studio validate``'s pipeline), keeps the findings of the scenario's
documents (the scenario, its ruleset, maps, TO&Es, unit cards, layouts), and, when there are no errors, calls
``play(scenario_id, project, games, seed, bots)``, which the caller supplies (the entry points run
:func:`studio.sim.runner.run_games`; this layer does not import the simulator). ``play`` returns a mapping with
``statistics`` (the balance report's deterministic summary) and ``engine_errors`` (one text per failed game).

:attr:`Preflight.ok` is False when validation found errors, the engine could not build the game, or a game hit
an engine error; callers stop then unless the user forces the export (``--force``), and the
:meth:`Preflight.record` (validation summary, rule system and version, balance summary, whether it was forced)
goes into the module or package.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from studio.model.project import ProjectIndex
from studio.model.validate import validate_paths

DEFAULT_GAMES = 20
DEFAULT_SEED = 1
#: ``play(scenario_id, project, games, seed, bots) -> {"statistics": {...}, "engine_errors": [...]}``
Play = Callable[[str, Path, int, int, "list[str] | None"], dict]


@dataclass
class Preflight:
    scenario: str
    ruleset: str = ""
    ruleset_version: str = ""
    documents: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    engine_errors: list[str] = field(default_factory=list)
    games: int = 0
    seed: int = DEFAULT_SEED
    balance: dict[str, Any] | None = None
    forced: bool = False
    index: ProjectIndex | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return not self.errors and not self.engine_errors

    def lines(self) -> list[str]:
        """What the check found, for people (errors first)."""
        out = list(self.errors[:30])
        out += [f"engine error: {e.strip().splitlines()[-1] if e.strip() else e}" for e in self.engine_errors[:10]]
        state = "passed" if self.ok else "FAILED" + (" (forced)" if self.forced else "")
        out.append(f"pre-export check {state}: {self.documents} document(s), {len(self.errors)} error(s), "
                   f"{len(self.warnings)} warning(s); test-play {self.games} game(s) seed {self.seed}, "
                   f"{len(self.engine_errors)} engine error(s)")
        if self.balance:
            rates = self.balance.get("win_rate", {})
            out.append("balance: " + ", ".join(f"{s} {100 * v.get('p', 0):.0f}%" for s, v in rates.items())
                       + f", draws {self.balance.get('draws', 0)}")
        return out

    def record(self) -> dict[str, Any]:
        """The summary stored with the export (deterministic for the same project, games and seed)."""
        balance = None
        if self.balance:
            keep = ("games", "seed", "bots", "wins", "draws", "win_rate", "turns", "vp", "losses",
                    "placeholder_tables")
            balance = {k: self.balance[k] for k in keep if k in self.balance}
        return {"scenario": self.scenario, "ruleset": {"id": self.ruleset, "version": self.ruleset_version},
                "validation": {"documents": self.documents, "errors": len(self.errors),
                               "warnings": len(self.warnings), "findings": self.errors[:20]},
                "test_play": {"games": self.games, "seed": self.seed, "engine_errors": len(self.engine_errors)},
                "balance": balance, "forced": self.forced}


def preflight(project: Path, scenario_id: str, play: Play | None, games: int = DEFAULT_GAMES,
              seed: int = DEFAULT_SEED, bots: list[str] | None = None) -> Preflight:
    """Validate, then test-play ``games`` games (none when ``games`` is 0 or ``play`` is None)."""
    from .package import dependencies

    result = validate_paths([Path(project)])
    index = result.index
    out = Preflight(scenario_id, index=index, games=0, seed=seed)
    doc = index.get("scenario", scenario_id)
    if doc is None:
        out.errors.append(f"no scenario with id {scenario_id!r} in {project}")
        return out
    deps = dependencies(index, doc) if doc.model is not None else [doc]
    shown = {d.display for d in deps}
    out.documents = len(deps)
    out.errors = [d.format_text() for d in result.diagnostics if d.file in shown and d.severity.value == "error"]
    out.warnings = [d.format_text() for d in result.diagnostics if d.file in shown and d.severity.value == "warning"]
    if doc.model is not None:
        out.ruleset = doc.model.ruleset
        rs = index.model("ruleset", doc.model.ruleset)
        out.ruleset_version = rs.version if rs is not None else ""
    if out.errors or play is None or games <= 0:
        return out
    played = play(scenario_id, Path(project), games, seed, bots)
    out.games = games
    out.balance = played.get("statistics")
    out.engine_errors = list(played.get("engine_errors", []))
    return out
