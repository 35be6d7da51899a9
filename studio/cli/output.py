"""Printing diagnostics as text or JSON, shared by every command that reports findings."""
from __future__ import annotations

import json
import sys
from typing import TextIO

from studio.model.diagnostics import Diagnostic, summarize


def print_diagnostics(diagnostics: list[Diagnostic], files: int, fmt: str, out: TextIO | None = None,
                      extra: dict | None = None, notes: list[Diagnostic] | None = None) -> None:
    """The findings, then (when given) the ``notes`` (why a file's rule checks ran on part of it or not at all:
    info lines in text, a ``"notes"`` list in JSON; never counted in the summary), then the summary."""
    out = out or sys.stdout
    summary = summarize(diagnostics, files)
    if fmt == "json":
        payload = {"diagnostics": [d.to_json() for d in diagnostics], "summary": summary}
        if notes is not None:
            payload["notes"] = [d.to_json() for d in notes]
        json.dump({**payload, **(extra or {})}, out, indent=2)
        out.write("\n")
        return
    for d in diagnostics:
        out.write(d.format_text() + "\n")
        if d.hint:
            out.write(f"    hint: {d.hint}\n")
    for d in notes or ():
        out.write(d.format_text() + "\n")
    out.write(f"{summary['files']} file(s): {summary['errors']} error(s), {summary['warnings']} warning(s), "
              f"{summary['infos']} info(s)" + (f"; rule checks partial or withheld in {len(notes)} file(s)"
                                              if notes else "") + "\n")


def run_on_scenario(command: str, args, body) -> int:
    """Load ``args.scenario`` (from ``args.play_project`` or ``args.project``) and return ``body(loaded)``; a refused
    scenario prints its diagnostics (exit 1, or 2 without any), a bad bundle, cluster or file exits 2."""
    from studio.rules.load import ScenarioRefused, load_game
    from studio.sim.bundle import BundleError

    try:
        loaded = load_game(args.scenario, args.play_project or getattr(args, "project", None))
        return body(loaded)
    except ScenarioRefused as exc:
        for d in exc.diagnostics:
            print(d.format_text())
        print(f"studio {command}: {exc}", file=sys.stderr)
        return 1 if exc.diagnostics else 2
    except (BundleError, RuntimeError, OSError, ValueError) as exc:
        print(f"studio {command}: {exc}", file=sys.stderr)
        return 2
