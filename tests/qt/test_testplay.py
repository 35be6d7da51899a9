"""Test-play panel: games run in the background with progress, results with CIs and labelled charts, losses by
unit type and range band, the balance file for the scenario sheet, cancel keeping finished games, comparison
with the previous run, the Tune tab, and the replay viewer stepping through a saved game on the map."""
import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton


def run_games(window, qtbot, games=3, scenario="hasty-defense", bots="random"):
    panel = window.testplay
    panel.set_scenario(scenario)
    panel.games.setValue(games)
    panel.bots.setCurrentText(bots)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=90_000)
    return panel


def test_run_games_shows_win_rates_with_ci_and_labelled_charts(window, qtbot):
    panel = run_games(window, qtbot)
    assert panel.report is not None and panel.report.games == 3
    assert panel.progress.value() == 3
    assert panel.table.rowCount() == 2
    assert "%" in panel.table.item(0, 3).text() and "–" in panel.table.item(0, 4).text()
    assert panel.table.item(0, 1).text() == "random", "per-side bot names"
    assert panel.vp_chart is not None and panel.turn_chart is not None
    turns = panel.turn_chart.labels()
    assert turns and turns == list(panel.report.statistics()["decided_turn"]), "a label under every bar"
    assert "hasty-defense" in panel.summary.text()
    assert len(panel.replays()) >= 3, "replays of the run are saved"


def test_a_finished_run_writes_the_balance_file_the_scenario_sheet_reads(window, project, qtbot):
    target = project / "scenarios" / "mbt" / "hasty-defense.balance.json"
    assert not target.exists()
    panel = run_games(window, qtbot, games=2)
    assert panel.balance_file == target
    data = json.loads(target.read_text())
    assert data["games"] == 2 and data["scenario"] == "hasty-defense"
    assert "balance estimate written" in panel.summary.text().lower()


def test_losses_by_unit_type_and_range_band(window, qtbot):
    panel = run_games(window, qtbot, games=1, bots="heuristic")
    stats = panel.report.statistics()
    assert panel.losses_table.rowCount() == sum(len(t) for t in stats["losses_by_type"].values()) > 0
    assert panel.losses_table.horizontalHeaderItem(1).text() == "Unit type"
    header = [panel.range_table.horizontalHeaderItem(c).text() for c in range(panel.range_table.columnCount())]
    assert header[:3] == ["Side", "0", "1-3"] and header[-1] == "unknown"
    assert "Losses by range band (all games)" in panel.charts and "Kills by weapon (all games)" in panel.charts


def test_second_run_is_compared_with_the_first(window, qtbot, project):
    panel = run_games(window, qtbot, games=2)
    first = panel.report
    scenario = project / "scenarios" / "mbt" / "hasty-defense.yaml"
    text = scenario.read_text()
    assert "        entry:\n          turn: 2\n          edge: east" in text
    # story 1 step 7: a force arrives later (here the motor rifle platoon, turn 2 -> 5), then the run again
    scenario.write_text(text.replace("        entry:\n          turn: 2\n          edge: east",
                                     "        entry:\n          turn: 5\n          edge: east", 1))
    window.session.refresh()
    panel = run_games(window, qtbot, games=2)
    assert panel.previous is first and panel.report is not first
    rows = [panel.compare_table.item(r, 0).text() for r in range(panel.compare_table.rowCount())]
    assert rows[:2] == ["us wins", "sov wins"] and "turns (mean)" in rows
    assert "paired by seed" in panel.compare_label.text()
    assert "points" in panel.compare_table.item(0, 3).text()


def test_cancel_is_quick_and_keeps_finished_games(window, qtbot):
    panel = window.testplay
    panel.set_scenario("hasty-defense")
    panel.games.setValue(5000)
    panel.jobs.setValue(2)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.progress.maximum() == 5000 and panel.progress.value() >= 1, timeout=60_000)
    panel.cancel()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=30_000)
    assert panel.report.cancelled and 1 <= panel.report.games < 5000
    assert "all reported" in panel.summary.text()
    assert panel.balance_file is None, "a cancelled run does not replace the balance estimate"


def test_tune_tab_sweeps_a_parameter(window, qtbot, tmp_path):
    panel = window.testplay
    panel.set_scenario("meeting-engagement")
    tune = panel.tune
    assert tune.side.count() == 2
    tune.param.setText("/turns")
    tune.values.setText("1,2")
    tune.games.setValue(2)
    assert tune.start()
    qtbot.waitUntil(lambda: tune.run_button.isEnabled(), timeout=90_000)
    assert tune.result is not None and [pt.value for pt in tune.result.points] == [1, 2]
    assert tune.table.rowCount() == 2 and tune.chart.chart is not None
    assert tune.save_plot(str(tmp_path / "t.svg")) == "" and (tmp_path / "t.svg").read_text().startswith("<svg")
    tune.param.setText("/nope")
    assert tune.start()
    qtbot.waitUntil(lambda: tune.run_button.isEnabled(), timeout=60_000)
    assert "Cannot tune" in tune.summary.text() and "/nope" in tune.summary.text()


def test_rules_choice_plays_a_variant(window, qtbot):
    panel = window.testplay
    panel.set_scenario("hasty-defense")
    index = panel.rules.findData("mbt-house-moving-targets")
    assert index > 1 and panel.rules.itemData(0) is None and panel.rules.itemData(1) == "base"
    panel.rules.setCurrentIndex(index)
    panel = run_games(window, qtbot, games=1)
    assert any("mbt-house-moving-targets" in c for c in panel.report.changes)
    assert panel.balance_file is None, "a run under other rules does not replace the balance estimate"


def test_replay_viewer_steps_phase_by_phase(window, qtbot):
    """The panel's viewer is the window's replay viewer (one class): Step, Phase and a step with its rolls."""
    from studio.qt.replay_viewer import QtReplayView
    panel = run_games(window, qtbot, games=1)
    viewer = panel.viewer
    assert isinstance(viewer, QtReplayView)
    assert viewer.open(panel.replays()[0], window.session.root) == ""
    start = viewer.current
    assert start.index == 0 and start.positions, "units are drawn on the map at the start"
    assert viewer.scene.layer("units")
    QTest.mouseClick(next(b for b in viewer.findChildren(QPushButton) if b.text() == "Step ▶"),
                     Qt.MouseButton.LeftButton)
    assert viewer.position == 1 and "Action" in viewer.detail_text()
    viewer.next_phase()
    assert (viewer.current.turn, viewer.current.phase) != (start.turn, start.phase)
    rolled = next((s for s in viewer.walk.steps if s.rolls), None)
    assert rolled is not None, "die rolls are shown per action"
    viewer.goto(rolled.index)
    label, value = rolled.rolls[0]
    assert f"{label}: {value}" in viewer.detail_text(), "each roll is named by its label"
    viewer.goto(0)
    assert viewer.position == 0


def test_a_scenario_that_fails_validation_is_refused_with_the_reason(window, project, qtbot):
    path = project / "scenarios" / "mbt" / "hasty-defense.yaml"
    path.write_text(path.read_text().replace("turns: ", "turns: -"))
    window.session.refresh()
    panel = window.testplay
    panel.set_scenario("hasty-defense")
    panel.games.setValue(2)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=60_000)
    assert "Cannot play" in panel.summary.text()


def test_precision_run_stops_when_the_intervals_are_narrow_enough(window, qtbot):
    panel = window.testplay
    panel.precision.setValue(0.25)
    panel = run_games(window, qtbot, games=400)
    stop = panel.report.stopping
    assert stop["reached"] and panel.report.games < 400
    assert "precision" in panel.summary.text() and f"after {panel.report.games} games" in panel.summary.text()


def test_a_finished_run_lists_its_replays_and_opens_one(window, qtbot, monkeypatch):
    panel = run_games(window, qtbot, games=2)
    assert panel.replay_list.count() == 2 and "game 1:" in panel.replay_list.item(0).text()
    opened = []
    monkeypatch.setattr(window, "open_replay", lambda path: opened.append(path) or "viewer")
    panel.replay_list.itemActivated.emit(panel.replay_list.item(1))
    assert opened and opened[0].name.endswith("-00001.replay.json") and opened[0].is_file()
