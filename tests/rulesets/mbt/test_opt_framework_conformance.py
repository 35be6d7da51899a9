"""Issue 13: the conformance check of the MBT Optional Rules. Every optional rule some probe lists
(``Probe.optional_rules``, in ``probes_opt_<area>.py``) must play differently switched on than off; the rules no
probe lists yet are reported (``optional_rules_report``), not failed, until every area has its probes
(``-m slow`` runs the strict check over all 50)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.registry import plugin
from studio.rules import conformance

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def mbt():
    return plugin("mbt")


def test_listed_optional_rules_change_play(mbt):
    conformance.check_optional_rules_real(mbt, DATA, listed_only=True)


def test_probe_modules_are_collected(mbt):
    from studio.rulesets.mbt import probes

    listed = {o for p in probes.optional_probes() for o in p.optional_rules}
    assert listed <= {p_o for p in mbt.probes() for p_o in p.optional_rules}
    from pathlib import Path

    on_disk = {f.stem.removeprefix("probes_opt_") for f in Path(probes.__file__).parent.glob("probes_opt_*.py")}
    assert set(probes.OPTIONAL_AREAS) == on_disk  # every area's probe module is collected, none is missing


def test_unexposable_reasons_name_real_rules(mbt):
    from studio.rules.load import load_game

    ruleset = load_game("adv-combined-arms", DATA).index.model("ruleset", "mbt")
    ids = {o.id for o in ruleset.optional_rules}
    assert set(mbt.unexposable_optional_rules) <= ids
    assert all(len(why) > 20 for why in mbt.unexposable_optional_rules.values())


@pytest.mark.slow
def test_every_optional_rule_changes_play_or_says_why(mbt):
    report = conformance.optional_rules_report(mbt, DATA)
    print("\n".join(f"{rid}: {why or 'changes play'}" for rid, why in report.items()))
    conformance.check_optional_rules_real(mbt, DATA)
