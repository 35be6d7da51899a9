"""One "Problems | Test-play" tab strip from the first frame on (issue 16: a second, dead strip showed under the real
one, e.g. in screenshots with the table editor open: Qt leaves a stale tab bar behind when a second dock group is
tabified, until its deferred deletion runs)."""
from PySide6.QtWidgets import QTabBar


def _strips(window, titles):
    return [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisibleTo(window)
            and [b.tabText(i) for i in range(b.count())] == titles]


def test_each_dock_group_has_one_live_tab_strip(make_window, project, qtbot):
    window = make_window(project)  # shown: checked before the event loop deletes anything
    assert len(_strips(window, ["Problems", "Test-play"])) == 1
    assert len(_strips(window, ["Project", "Inspector"])) == 1
    window.open_path(project / "maps" / "bfops-mill-valley.yaml")  # the table editor
    qtbot.wait(20)
    bottom = _strips(window, ["Problems", "Test-play"])
    assert len(bottom) == 1
    bottom[0].setCurrentIndex(1)  # the strip left is the one that switches the docks
    qtbot.waitUntil(lambda: not window.testplay_dock.visibleRegion().isEmpty(), timeout=2000)
    bottom[0].setCurrentIndex(0)
    qtbot.waitUntil(lambda: not window.problems_dock.visibleRegion().isEmpty(), timeout=2000)
    assert window.testplay_dock.visibleRegion().isEmpty()


def test_the_dock_raised_before_the_window_shows_stays_raised(qtbot, settings, project):
    from studio.document.session import ProjectSession
    from studio.qt.main_window import QtMainWindow
    window = QtMainWindow(ProjectSession(project), settings, live_validation=False)
    window._autosave_timer.stop()
    qtbot.addWidget(window)
    window.show_testplay()  # F8 before the first show (as the screenshot mode does)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: not window.testplay_dock.visibleRegion().isEmpty(), timeout=2000)
    assert window.problems_dock.visibleRegion().isEmpty()
    assert len(_strips(window, ["Problems", "Test-play"])) == 1
