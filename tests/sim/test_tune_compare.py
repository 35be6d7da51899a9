"""Sweeps to the 50/50 point (logistic fit with intervals, plot, JSON), variants side by side (paired by seed),
bundles and JSON pointers, the house rules on the scenario sheet."""
import json
import math
import random
import shutil
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.model.variant import Variant, variant_problems
from studio.sim.bundle import Bundle, BundleError, get_pointer, set_pointer
from studio.sim.compare import compare_reports, paired
from studio.sim.runner import run_games
from studio.sim.tune import logistic_fit, parse_values, sweep
from studio.sim.variants import parameter_bundle, variant_bundle

DATA = Path(__file__).resolve().parents[2] / "data"
VARIANT = "mbt-house-moving-targets"


def test_logistic_fit_recovers_the_50_50_point_and_its_interval_covers():
    rng = random.Random(3)
    xs = [1, 2, 3, 4, 5, 6, 7]
    true_b0, true_b1 = 4.0, -1.0            # 50% at 4
    covered = 0
    for _ in range(200):
        wins = [sum(rng.random() < 1 / (1 + math.exp(-(true_b0 + true_b1 * x))) for _ in range(40)) for x in xs]
        fit = logistic_fit(xs, wins, [40] * len(xs))
        assert fit.converged
        covered += fit.x50_ci[0] <= 4.0 <= fit.x50_ci[1]
    assert covered >= 180                   # about 95% of 200
    lo, hi = fit.band(4.0)
    assert lo < 0.5 < hi


def test_logistic_fit_survives_separation():
    fit = logistic_fit([1, 2, 3], [0, 0, 10], [10, 10, 10])
    assert fit.x50 is not None and 2 < fit.x50 < 3


def test_parse_values():
    assert parse_values("1..10") == list(range(1, 11))
    assert parse_values("2..10:4") == [2, 6, 10]
    assert parse_values("0.5..1.5:0.5") == [0.5, 1.0, 1.5]
    assert parse_values("1, 3,7") == [1, 3, 7]
    for bad in ("5..1", "1", "1..1000000", "1..5:0"):
        with pytest.raises(ValueError):
            parse_values(bad)


def test_sweep_with_check_uses_the_fit():
    rng = random.Random(1)

    def play(value):
        p = 1 / (1 + math.exp(-(2.5 - value)))
        wins = sum(rng.random() < p for _ in range(200))
        return {"games": 200, "wins": {"a": wins, "b": 200 - wins}, "draws": 0}
    result = sweep("s", "/x", "a", [0, 1, 2, 3, 4, 5], play, seed=1, bots=["r", "r"], check=True)
    assert 2 <= result.fit.x50 <= 3 and result.within_range()
    assert result.check["value"] in (2, 3) and result.check["consistent"]
    chart = result.chart()
    assert chart.marks and chart.band and len(chart.lines["logistic fit"]) == 61
    assert "50/50 at" in result.format_text()


def test_json_pointers():
    d = {"a": [{"b": 1}], "c~/d": 2}
    set_pointer(d, "/a/0/b", 5)
    set_pointer(d, "/c~0~1d", 3)
    set_pointer(d, "/a/-", 9)
    assert d == {"a": [{"b": 5}, 9], "c~/d": 3} and get_pointer(d, "/a/1") == 9
    for bad in ("a", "/zz", "/a/7", "/a/0/b/x"):
        with pytest.raises(BundleError):
            set_pointer(d, bad, 1)


def test_bundle_rebuilds_the_game_without_the_project_folder(meeting, tmp_path):
    bundle = Bundle.from_loaded(meeting)
    assert any(rel == "project.yaml" for rel, _ in bundle.files)
    rebuilt = bundle.load()
    assert Path(rebuilt.project) != Path(meeting.project)
    assert rebuilt.game.data_fingerprint() == meeting.game.data_fingerprint()
    assert rebuilt.content_hash == meeting.content_hash
    changed = parameter_bundle(meeting, "/turns", 3, bundle).load()
    assert changed.game.max_turns == 3 != meeting.game.max_turns
    with pytest.raises(BundleError, match="no key /nope"):
        parameter_bundle(meeting, "/nope", 1, bundle)
    with pytest.raises(BundleError, match="no toe 'none'"):
        parameter_bundle(meeting, "toe:none/name", "x", bundle)


def test_a_variant_changes_the_game_and_its_marks_are_checked(hasty):
    bundle = variant_bundle(hasty, VARIANT)
    played = bundle.load()
    assert played.game.data_fingerprint() != hasty.game.data_fingerprint()
    assert any("target moving: -4" in c for c in bundle.changes)
    variant = hasty.index.model("variant", VARIANT)
    ruleset = hasty.index.model("ruleset", "mbt")
    assert variant_problems(variant, ruleset) == []
    data = variant.model_dump()
    data["tables"][0]["rows"][1][1] = -9                        # a change left unmarked
    data["tables"][0]["changed"].append([2, 1])                 # a mark on an unchanged cell
    codes = [c for c, _, _ in variant_problems(Variant.model_validate(data), ruleset)]
    assert codes == ["variant.unmarked-change", "variant.unchanged-mark"]
    with pytest.raises(BundleError, match="no variant 'nope'"):
        variant_bundle(hasty, "nope")


def test_compare_pairs_games_by_seed(hasty):
    base = run_games(hasty, 4, seed=3, bots=["random", "random"])
    house = run_games(variant_bundle(hasty, VARIANT).load(), 4, seed=3, bots=["random", "random"])
    same = compare_reports({"base": base, "again": run_games(hasty, 4, seed=3, bots=["random", "random"])})
    assert all(v["mean"] == 0 and v["ci95"] == [0, 0] for k, v in same["differences"]["again"].items()
               if k != "losses by type")
    data = compare_reports({"base": base, VARIANT: house})
    assert set(data["differences"][VARIANT]) >= {"win us", "win sov", "turns", "VP us", "losses sov",
                                                  "losses by type"}
    assert [r.seed for r in base.results] == [r.seed for r in house.results]
    assert paired([1, 2, 3], [2, 4, 6]) == {"mean": 2.0, "ci95": pytest.approx([0.868, 3.132], abs=0.001), "n": 3}


def test_cli_compare_two_variants_differing_in_one_cell(capsys):
    code = main(["compare", "hasty-defense", "--variants", f"base,{VARIANT}", "--games", "3", "--seed", "2",
                 "--project", str(DATA), "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variants"] == ["base", VARIANT] and data["runs"][VARIANT]["changes"]
    assert "win us" in data["differences"][VARIANT]
    assert main(["compare", "hasty-defense", "--variants", "base", "--project", str(DATA)]) == 2
    assert main(["compare", "hasty-defense", "--variants", "base,nope", "--project", str(DATA)]) == 2
    assert "no variant 'nope'" in capsys.readouterr().err


def test_cli_tune_json_and_plot(capsys, tmp_path):
    plot = tmp_path / "sweep.svg"
    code = main(["tune", "meeting-engagement", "--param", "/turns", "--values", "1,2", "--games", "2",
                 "--project", str(DATA), "--format", "json", "--plot", str(plot)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["value"] for p in data["points"]] == [1, 2] and all(p["games"] == 2 for p in data["points"])
    assert data["param"] == "/turns" and data["side"] == "us" and "fit" in data
    assert plot.read_text().startswith("<svg") and "/turns" in plot.read_text()
    assert main(["tune", "meeting-engagement", "--param", "/nope", "--values", "1,2",
                 "--project", str(DATA)]) == 2
    assert "no key /nope" in capsys.readouterr().err
    assert main(["tune", "meeting-engagement", "--param", "/turns", "--values", "9..1",
                 "--project", str(DATA)]) == 2


def test_scenario_sheet_names_the_house_rules_in_force(tmp_path):
    from studio.model.project import load_project
    from studio.model.variant import house_rules

    project = tmp_path / "p"
    shutil.copytree(DATA, project)
    path = project / "variants" / f"{VARIANT}.yaml"
    path.write_text(path.read_text().replace("scenarios: []", "scenarios: [hasty-defense]"))
    index = load_project(project)
    rules = house_rules(index, "hasty-defense")
    assert rules and "target moving: -4 to hit instead of -2" in rules[0][1][0]
    assert house_rules(index, "meeting-engagement") == []
    from studio.printing.render import ensure_app, text_height_mm
    from studio.printing.primitives import Text
    from studio.printing.scenario_sheet import scenario_pages

    ensure_app()

    def texts(items):
        for it in items:
            if isinstance(it, Text):
                yield it.text
            elif hasattr(it, "items"):
                yield from texts(it.items)
    pages = scenario_pages(index, "hasty-defense", "a4", text_height_mm)
    words = "\n".join(t for p in pages for t in texts(p.items))
    assert "House rules in force" in words and "moving targets are harder to hit" in words


def test_a_variant_that_breaks_the_ruleset_is_refused_naming_the_project_file(tmp_path, capsys):
    project = tmp_path / "p"
    shutil.copytree(DATA, project)
    path = project / "variants" / f"{VARIANT}.yaml"
    text = path.read_text()
    path.write_text(text.replace("[target-moving, -4,", "[target-moving, lots,"))
    assert main(["play", "hasty-defense", "--games", "1", "--variant", VARIANT, "--project", str(project)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("rulesets/mbt/ruleset.yaml:") and "in the copy changed by: variant " + VARIANT in out
    assert "studio-bundle" not in out
    path.write_text(text.replace("[short-halt-sb0, -4,", "[short-halt-sb0, -5,"))     # changed, not marked
    assert main(["play", "hasty-defense", "--games", "1", "--variant", VARIANT, "--project", str(project)]) == 2
    err = capsys.readouterr().err
    assert f"variants/{VARIANT}.yaml /tables/0/rows/1/1" in err and "variant.unmarked-change" in err


def test_compare_html_page(tmp_path, capsys):
    out = tmp_path / "cmp.html"
    assert main(["compare", "hasty-defense", "--variants", f"base,{VARIANT}", "--games", "2", "--project",
                 str(DATA), "--report", str(out)]) == 0
    html = out.read_text()
    assert "Variants compared: hasty-defense" in html and f"{VARIANT} minus base (paired by seed)" in html
    assert html.count("<svg") == 2 and "Win rate per side and variant" in html
    assert (tmp_path / f"cmp-{VARIANT}.html").read_text().count("<svg") >= 3


def test_new_variant_copies_tables_and_marks_follow_the_edits(hasty):
    from studio.sim.variants import mark_changes, new_variant

    ruleset = hasty.index.model("ruleset", "mbt")
    data = new_variant(ruleset, "house", "House", ["range-factors", "ap-hit"])
    variant = Variant.model_validate(data)
    assert variant_problems(variant, ruleset) == [] and all(not t.changed for t in variant.tables)
    data["tables"][1]["rows"][3][2] = 99
    assert [c for c, _, _ in variant_problems(Variant.model_validate(data), ruleset)] == ["variant.unmarked-change"]
    mark_changes(data, ruleset)
    assert data["tables"][1]["changed"] == [[3, 2]]
    assert variant_problems(Variant.model_validate(data), ruleset) == []
    with pytest.raises(BundleError, match="no table nope"):
        new_variant(ruleset, "x", "X", ["nope"])


def test_png_plot_needs_matplotlib(tmp_path):
    pytest.importorskip("matplotlib")
    from studio.sim.charts import BarChart, save_chart

    chart = BarChart("t", ["a", "b"], {"s": [1, 2]}, "x", "y")
    assert save_chart(chart, tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match=".svg or .png"):
        save_chart(chart, tmp_path / "c.gif")


def test_comparison_text_names_every_measure(hasty):
    from studio.sim.compare import format_comparison

    base = run_games(hasty, 3, seed=4, bots=["random", "random"])
    house = run_games(variant_bundle(hasty, VARIANT).load(), 3, seed=4, bots=["random", "random"])
    text = format_comparison(compare_reports({"base": base, VARIANT: house}))
    lines = text.splitlines()
    assert lines[0] == "hasty-defense: 3 paired games per variant (seed 4)"
    assert "base" in lines[1] and VARIANT in lines[1]
    for label in ("us wins", "sov wins", "turns (mean)", "VP us (mean)", "VP sov (mean)", "losses us (mean)",
                  "losses sov (mean)", f"{VARIANT} minus base (paired by seed, 95% CI):", "win us", "VP sov"):
        assert any(line.strip().startswith(label) for line in lines), label
    assert " points (" in next(line for line in lines if line.strip().startswith("win us"))


def test_flat_sweep_has_no_50_50_value():
    def play(value):
        return {"games": 20, "wins": {"a": 10, "b": 10}, "draws": 0}
    flat = sweep("s", "/x", "a", [1, 2, 3], play, seed=1, bots=["r", "r"], check=True)
    assert flat.check is None
    assert flat.fit.x50 is None and "win rate does not change with the value" in flat.format_text()

    def lopsided(value):
        return {"games": 20, "wins": {"a": 18, "b": 2}, "draws": 0}
    far = sweep("s", "/x", "a", [1, 2, 3], lopsided, seed=1, bots=["r", "r"], check=True)
    assert not far.within_range() and far.check is None
    data = far.to_json()
    assert data["x50_within_sweep"] is False and [p["value"] for p in data["points"]] == [1, 2, 3]
    assert data["points"][0]["p"] == 0.9 and data["points"][0]["ci95"][0] < 0.9 < data["points"][0]["ci95"][1]
    assert "no 50/50 value within the swept values" in far.format_text()
    words = sweep("s", "/x", "a", ["low", "high"], lopsided, seed=1, bots=["r", "r"])
    assert words.fit is None and "no logistic fit" in words.format_text()
