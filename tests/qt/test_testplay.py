"""Test-play panel: games run in the background with progress, results with CIs and charts, cancel, and the
replay viewer stepping through a saved game on the map."""


def run_games(window, qtbot, games=3):
    panel = window.testplay
    panel.set_scenario("hasty-defense")
    panel.games.setValue(games)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=60_000)
    return panel


def test_run_games_shows_win_rates_with_ci_and_histograms(window, qtbot):
    panel = run_games(window, qtbot)
    assert panel.report is not None and panel.report.games == 3
    assert panel.progress.value() == 3
    assert panel.table.rowCount() == 2
    assert "%" in panel.table.item(0, 2).text() and "–" in panel.table.item(0, 3).text()
    assert panel.vp_chart.bins() and panel.turn_chart.bins()
    assert "hasty-defense" in panel.summary.text()
    assert len(panel.replays()) >= 3, "replays of the run are saved"


def test_replay_viewer_steps_phase_by_phase(window, qtbot):
    panel = run_games(window, qtbot, games=1)
    viewer = panel.viewer
    assert viewer.open(panel.replays()[0], window.session.root) == ""
    stepper = viewer.stepper
    start = stepper.frames[-1]
    assert start.positions, "units are drawn on the map at the start"
    assert viewer.scene.layer("units:0")
    viewer.goto(1)
    assert stepper.position == 1 and "Action:" in viewer.info.text()
    viewer.next_phase()
    frame = stepper.frames[-1]
    assert (frame.turn, frame.phase) != (start.turn, start.phase)
    rolled = next((f for f in (stepper.step() for _ in range(400)) if f is not None and f.rolls), None)
    assert rolled is not None, "die rolls are shown per action"
    viewer.show_frame(rolled)
    assert "Die rolls: none" not in viewer.info.text()
    viewer.goto(0)
    assert stepper.position == 0


def test_cancel_stops_a_long_run(window, qtbot):
    panel = window.testplay
    panel.set_scenario("hasty-defense")
    panel.games.setValue(5000)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.progress.value() >= 1, timeout=60_000)
    panel.cancel()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=30_000)
    assert panel.report.cancelled and panel.report.games < 5000


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
