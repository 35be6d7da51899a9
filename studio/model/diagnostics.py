"""Diagnostics: the one currency of validation, shared by the CLI, the GUI and the engine.

A Diagnostic names a finding precisely: severity, a stable code (never renamed once released, so CI scripts
and editors can filter on it), a message in plain words, the file, 1-based line and column, the JSON pointer
of the offending node and the rule reference (e.g. ``MBT 3.8``) when a rule is the reason.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(slots=True)
class Diagnostic:
    severity: Severity
    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    pointer: str = ""
    rule: str = ""
    hint: str = field(default="", compare=False)

    def format_text(self) -> str:
        """``file:line:column: severity code: message [rule]`` (one line)."""
        where = f"{self.file}:{self.line}:{self.column}"
        text = f"{where}: {self.severity.value} {self.code}: {self.message}"
        if self.rule:
            text += f" [{self.rule}]"
        return text

    def to_json(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        data.pop("hint")
        return data

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, SEVERITY_ORDER[self.severity], self.code, self.message)


def summarize(diagnostics: list[Diagnostic], files: int) -> dict:
    """Counts per severity, as the CLI's JSON ``summary`` block."""
    count = {s: 0 for s in Severity}
    for d in diagnostics:
        count[d.severity] += 1
    return {
        "files": files,
        "errors": count[Severity.ERROR],
        "warnings": count[Severity.WARNING],
        "infos": count[Severity.INFO],
    }
