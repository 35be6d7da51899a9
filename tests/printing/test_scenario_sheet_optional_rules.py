"""The scenario sheet lists the optional rules in force with their numbers and titles (issue 13 item 5), on the
sample project's MBT scenario with rules switched on in a copy."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths
from studio.printing.primitives import Text

DATA = Path(__file__).resolve().parents[2] / "data"


def texts(items):
    for it in items:
        if isinstance(it, Text):
            yield it.text
        elif hasattr(it, "items"):
            yield from texts(it.items)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    return root


def sheet_text(root: Path, scenario: str) -> str:
    from studio.printing.render import ensure_app, text_height_mm
    from studio.printing.scenario_sheet import scenario_pages

    ensure_app()
    index = validate_paths([root]).index
    return "\n".join(t for p in scenario_pages(index, scenario, "a4", text_height_mm) for t in texts(p.items))


def test_optional_rules_in_force_are_printed_in_rule_order(project):
    path = project / "scenarios/mbt/adv-combined-arms.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\nenvironment:", "\noptional_rules: [mines, morale]\nenvironment:", 1),
                    encoding="utf-8")
    index = validate_paths([project]).index
    rules = {o.id: o for o in index.model("ruleset", "mbt").optional_rules}
    printed = sheet_text(project, "mbt-adv-combined-arms")
    assert "Optional rules in force" in printed
    morale, mines = f"- 7.1 {rules['morale'].title}", f"- 7.31 {rules['mines'].title}"
    assert morale in printed and mines in printed
    assert printed.index(morale) < printed.index(mines)
    assert f"7.2 {rules['hidden-units'].title}" not in printed


def test_no_section_without_optional_rules():
    assert "Optional rules in force" not in sheet_text(DATA, "mbt-adv-combined-arms")


def test_unknown_id_is_marked():
    from studio.printing.scenario_sheet import optional_rule_lines

    index = validate_paths([DATA]).index
    sc = index.model("scenario", "mbt-adv-combined-arms").model_copy(update={"optional_rules": ["morale", "bogus"]})
    lines = optional_rule_lines(index, sc)
    assert lines[0].startswith("7.1 ") and lines[1] == "bogus (not an optional rule of ruleset mbt)"
