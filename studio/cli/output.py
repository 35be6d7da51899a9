"""Printing diagnostics as text or JSON, shared by every command that reports findings."""
from __future__ import annotations

import json
import sys
from typing import TextIO

from studio.model.diagnostics import Diagnostic, summarize


def print_diagnostics(diagnostics: list[Diagnostic], files: int, fmt: str, out: TextIO | None = None,
                      extra: dict | None = None) -> None:
    out = out or sys.stdout
    summary = summarize(diagnostics, files)
    if fmt == "json":
        payload = {"diagnostics": [d.to_json() for d in diagnostics], "summary": summary, **(extra or {})}
        json.dump(payload, out, indent=2)
        out.write("\n")
        return
    for d in diagnostics:
        out.write(d.format_text() + "\n")
        if d.hint:
            out.write(f"    hint: {d.hint}\n")
    out.write(f"{summary['files']} file(s): {summary['errors']} error(s), {summary['warnings']} warning(s), "
              f"{summary['infos']} info(s)\n")
