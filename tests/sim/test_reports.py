"""Richer reports: casualties by unit type and range band, kills by weapon, turn of decision, VP distribution,
per-side bots, placeholder tables; the HTML report with every chart labelled."""
import re

from studio.sim.casualties import CasualtyTracker, band_labels, range_band
from studio.sim.html import report_charts, report_html
from studio.sim.runner import play_game, run_games
from toygame import RaceGame


def test_casualties_derived_from_the_actions_match_the_engine_losses(hasty):
    result, state = play_game(hasty.game, 11, ["heuristic", "heuristic"])
    assert result.error is None and result.casualty_source == "derived"
    per_side = [sum(1 for c in result.casualties if c.side == s) for s in range(2)]
    assert per_side == result.losses and sum(per_side) > 0
    names = {u.name: u for u in hasty.game.units}
    for c in result.casualties:
        unit = names[c.unit]
        assert unit.side == c.side and c.unit_type == unit.type.name
    fired = [c for c in result.casualties if c.by is not None]
    assert fired, "most kills are by a named firer"
    for c in fired:
        firer = names[c.by]
        assert firer.side != c.side and c.weapon.startswith(firer.type.name) and c.range is not None


def test_report_tables_and_text(hasty):
    report = run_games(hasty, 3, seed=2, bots=["heuristic", "heuristic"])
    d = report.statistics()
    assert d["bots_by_side"] == {"us": "heuristic", "sov": "heuristic"}
    for side in ("us", "sov"):
        assert sum(d["losses_by_type"][side].values()) == sum(r.losses[report.sides.index(side)]
                                                             for r in report.results)
        assert sum(d["losses_by_range"][side].values()) == sum(d["losses_by_type"][side].values())
        assert list(d["losses_by_range"][side]) == band_labels()
    assert sum(d["kills_by_weapon"].values()) == sum(sum(t.values()) for t in d["losses_by_type"].values())
    assert sum(d["decided_turn"].values()) == 3 and sum(d["end_turn"].values()) == 3
    assert all(sum(v.values()) == 3 for v in d["vp_distribution"].values())
    text = report.format_text()
    for words in ("losses by unit type", "losses by range band", "kills by weapon", "game decided on turn",
                  "us heuristic, sov heuristic", "placeholder tables used"):
        assert words in text


def test_range_bands():
    assert [range_band(r) for r in (0, 1, 3, 4, 6, 7, 10, 11, 15, 16, 20, 21, None)] == \
        ["0", "1-3", "1-3", "4-6", "4-6", "7-10", "7-10", "11-15", "11-15", "16-20", "16-20", "21+", "unknown"]
    assert range_band(5, (2, 5)) == "3-5" and range_band(9, (2, 5)) == "6+"


def test_an_engine_may_report_its_own_casualties():
    class Reporting(RaceGame):
        def new_initial_state(self, seed):
            state = super().new_initial_state(seed)
            state.casualties = lambda: [{"side": 1, "unit": "b1", "unit_type": "runner", "turn": 2,
                                         "weapon": "dice", "range": 4}]
            return state
    result, _ = play_game(Reporting(), 3, ["random", "random"])
    assert result.casualty_source == "engine"
    assert [(c.unit_type, c.weapon, c.range) for c in result.casualties] == [("runner", "dice", 4)]


def test_tracker_without_unit_names_reports_unknown():
    class State:
        def __init__(self):
            self.lost = [0, 0]

        def outcome(self):
            from studio.rules.api import Outcome
            return Outcome(None, [0, 0], "", 1, list(self.lost))
    game = type("G", (), {"units": []})()
    state = State()
    tracker = CasualtyTracker(game, state)
    tracker.before(state, "boom")
    state.lost[1] = 2
    tracker.after(state)
    assert [(c.side, c.unit, c.range) for c in tracker.casualties] == [(1, "unknown", None)] * 2


def test_html_report_every_chart_labelled(hasty, tmp_path):
    d = run_games(hasty, 2, seed=3, bots=["heuristic", "heuristic"]).to_json()
    html = report_html(d)
    charts = report_charts(d)
    titles = [c.title for c in charts]
    assert any("losses by unit type" in t for t in titles) and "Losses by range band (all games)" in titles
    assert "Kills by weapon (all games)" in titles and "Turn on which the game was decided" in titles
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    assert len(svgs) == len(charts) >= 6
    for chart, svg in zip(charts, svgs):
        assert chart.title.replace("&", "&amp;") in svg and chart.xlabel in svg and chart.ylabel in svg
        for category in chart.categories:          # every bar group has its label
            assert f">{category[:22]}</text>" in svg.replace("&amp;", "&").replace("&lt;", "<")
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "Placeholder tables used" in html and "ap-hit" in html


def test_unit_type_names():
    from types import SimpleNamespace as NS

    from studio.sim.casualties import unit_keys, unit_type

    assert unit_type(NS(type=NS(name="M1 Abrams", id="m1"))) == "M1 Abrams"
    assert unit_type(NS(type=NS(name="", id="m1"))) == "m1"
    assert unit_type(NS(type="T-72")) == "T-72"
    assert unit_type(NS(card="us-m60a3", name="x")) == "us-m60a3"
    assert unit_type(NS(name="BMP-2-3")) == "BMP-2" and unit_type(NS(name="rifles.12")) == "rifles"
    assert unit_keys(NS(uid="us.1", name="Tank HQ", id=None)) == ["us.1", "Tank HQ"]


def test_tracker_names_firer_weapon_and_range():
    from types import SimpleNamespace as NS

    from studio.rules.api import Outcome

    units = [NS(name="A-1", side=0, type=NS(name="Tank")), NS(name="B-1", side=1, type=NS(name="IFV"))]

    class State:
        turn = 3

        def __init__(self):
            self.hex = [(0, 0), (3, -1)]
            self.lost = [0, 0]

        def outcome(self):
            return Outcome(0 if self.lost[1] else None, [0, 0], "", 3, list(self.lost))
    state = State()
    tracker = CasualtyTracker(NS(units=units), state)
    tracker.before(state, "fire A-1 at B-1 main:HEAT")
    state.lost[1] = 1
    state.hex[1] = None                           # the wreck leaves the board: the range is from before
    tracker.after(state)
    (c,) = tracker.casualties
    assert (c.side, c.unit, c.unit_type, c.turn, c.weapon, c.range, c.by) == \
        (1, "B-1", "IFV", 3, "Tank main:HEAT", 3, "A-1")
    assert tracker.decided == 3 and tracker.leader == 0
    tracker.before(state, "move A-1 2P12")       # a hex id is not a weapon; no loss: nothing recorded
    tracker.after(state)
    assert len(tracker.casualties) == 1
    state.lost[0] = 1
    tracker.before(state, "move A-1 2P12")
    tracker.after(state)
    assert (tracker.casualties[1].unit, tracker.casualties[1].weapon, tracker.casualties[1].range) == \
        ("A-1", None, None)


def test_range_bands_name_the_unit_the_game_measures_in(hasty):
    """A hex game's casualty ranges count hexes; a measured table's count inches (the game's ``range_unit``),
    in the text and in the JSON report."""
    from pathlib import Path

    from studio.rules.load import load_game

    hexes = run_games(hasty, 2, seed=2, bots=["heuristic", "heuristic"])
    assert "losses by range band (hexes, total)" in hexes.format_text()
    assert hexes.to_json()["range_unit"] == "hexes"
    data = Path(__file__).resolve().parents[2] / "data"
    table = run_games(load_game("bfops-meeting-at-the-ford", data), 1, seed=1, bots=["heuristic", "random"])
    assert table.to_json()["range_unit"] == "inches"
    assert "losses by range band (inches, total)" in table.format_text()
    html = report_html(table.to_json())
    assert "range from the firer (inches)" in html and "range from the firer (hexes)" not in html
