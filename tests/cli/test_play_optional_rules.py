"""`studio play --optional-rule ID` / `--all-optional-rules` and `studio rules RULESET` (issue 13 item 3)."""
from __future__ import annotations

import json
from pathlib import Path

from studio.cli.main import main
from studio.rules.load import load_game

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"


def _play(capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["play", *extra, "--project", str(DATA), "--games", "1", "--format", "json"])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_unknown_optional_rule_is_refused_with_a_suggestion(capsys):
    code, out, _ = _play(capsys, "adv-combined-arms", "--optional-rule", "morale", "--optional-rule", "mines2")
    assert code == 1
    found = json.loads(out)["diagnostics"]
    assert [d["code"] for d in found] == ["scenario.optional-rule-unknown"]
    assert "'mines2'" in found[0]["message"]


def test_usage_errors(capsys):
    assert main(["play", "adv-combined-arms", "--optional-rule", "morale", "--all-optional-rules"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["play", "--from", "x.yaml", "--optional-rule", "morale"]) == 2
    assert "position lists its own" in capsys.readouterr().err


def _without_needs(tmp_path: Path) -> Path:
    """A copy of the sample project whose optional rules need no scenario data (so any Advanced scenario may
    switch them all on)."""
    import shutil

    import yaml

    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    path = root / "rulesets/mbt/ruleset.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    for rule in data["optional_rules"]:
        rule.pop("needs", None)
    path.write_text(yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
    return root


def test_optional_rules_reach_the_game(monkeypatch, capsys, tmp_path):
    """The flags become ``load_game(optional_rules=)``; --all-optional-rules switches every rule of the ruleset."""
    from studio.cli.commands import play

    seen = []
    monkeypatch.setattr(play, "_play", lambda args, loaded, bots: seen.append(loaded) or 0)
    assert main(["play", "adv-combined-arms", "--project", str(DATA), "--optional-rule", "morale"]) == 0
    assert seen[-1].game.optional_rules == {"morale"} and seen[-1].spec.optional_rules == ("morale",)
    project = _without_needs(tmp_path)
    assert main(["play", "adv-combined-arms", "--project", str(project), "--all-optional-rules"]) == 0
    ruleset = load_game("adv-combined-arms", project).index.model("ruleset", "mbt")
    assert seen[-1].game.optional_rules == {o.id for o in ruleset.optional_rules}
    assert len(seen[-1].game.optional_rules) == 50
    assert seen[-1].spec.optional_rules == tuple(o.id for o in ruleset.optional_rules)


def test_rules_lists_optional_rules_with_numbers(capsys):
    assert main(["rules", "mbt", "--project", str(DATA)]) == 0
    out = capsys.readouterr().out
    assert "optional rules (50):" in out
    assert any(line.split()[:3] == ["MBT", "7.31", "mines:"] for line in out.splitlines())
    assert main(["rules", "mbt", "--project", str(DATA), "--format", "json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert {"id": "mines", "rule": "MBT 7.31"}.items() <= next(o for o in info["optional_rules"]
                                                              if o["id"] == "mines").items()
    assert main(["rules", "--project", str(DATA)]) == 0
    assert "mbt: MBT (2nd edition)" in capsys.readouterr().out
    assert main(["rules", "nothing", "--project", str(DATA)]) == 2
    assert "no ruleset 'nothing'" in capsys.readouterr().err


def test_rules_probes_reports_each_optional_rule(monkeypatch, capsys):
    """--probes plays the conformance probes: each optional rule gets a verdict (here faked to keep it fast)."""
    from studio.cli.commands import rules

    monkeypatch.setattr(rules, "_probe_verdicts", lambda rid, root: {"mines": "", "morale": "no probe lists it"})
    assert main(["rules", "mbt", "--project", str(DATA), "--probes"]) == 0
    out = capsys.readouterr().out
    assert "mines: " in out and "probe: changes play" in out and "probe: no probe lists it" in out
    assert "probes show 1 of 50 optional rules changing play" in out

    def broken(rid, root):
        raise RuntimeError("probe 'x' cannot be set up")

    monkeypatch.setattr(rules, "_probe_verdicts", broken)
    assert main(["rules", "mbt", "--project", str(DATA), "--probes"]) == 1
    assert "cannot be played: probe 'x'" in capsys.readouterr().err


def test_bundles_carry_the_optional_rules():
    """Dask and variant runs serialize the game as a bundle: the optional rules in force travel with it."""
    from studio.sim.bundle import Bundle

    loaded = load_game("adv-combined-arms", DATA, optional_rules=["morale"])
    bundle = Bundle.from_loaded(loaded)
    assert bundle.optional_rules == ("morale",)
    assert bundle.load().game.optional_rules == {"morale"}
    assert Bundle.from_loaded(load_game("adv-combined-arms", DATA)).digest != bundle.digest


def test_play_from_a_position_with_optional_rules(monkeypatch, capsys, tmp_path):
    """A position's optional_rules replace the scenario's for `studio play --from` (and its worker recipe)."""
    from studio.cli.commands import play

    seen = []
    monkeypatch.setattr(play, "_play", lambda args, loaded, bots: seen.append(loaded) or 0)
    position = tmp_path / "p.yaml"
    position.write_text("kind: position\nscenario: mbt-adv-combined-arms\noptional_rules: [morale]\n",
                        encoding="utf-8")
    assert main(["play", "--from", str(position), "--project", str(DATA)]) == 0
    assert seen[-1].game.optional_rules == {"morale"}
    assert seen[-1].spec.load().game.optional_rules == {"morale"}
    position.write_text("kind: position\nscenario: mbt-adv-combined-arms\noptional_rules: [morale, nope]\n",
                        encoding="utf-8")
    assert main(["play", "--from", str(position), "--project", str(DATA)]) == 1
    assert "p.yaml:3" in capsys.readouterr().out


def test_all_optional_rules_on_a_basic_scenario_is_refused(capsys):
    code, out, _ = _play(capsys, "meeting-engagement", "--all-optional-rules")
    assert code == 1
    assert "mbt.optional-basic-game" in [d["code"] for d in json.loads(out)["diagnostics"]]
