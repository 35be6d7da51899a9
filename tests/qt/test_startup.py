"""Start-up on a fresh Debian machine: a clear message naming the missing X11 libraries, not Qt's plugin error."""
from studio.qt import app


def test_missing_xcb_libraries_are_named_with_the_install_command():
    present = {"xcb-icccm"}
    message = app.xcb_problem({"DISPLAY": ":0"}, find=lambda name: name in present and name)
    assert "libxcb-cursor0" in message and "libxcb-keysyms1" in message and "libxcb-icccm4" not in message
    assert "sudo apt-get install libxcb-cursor0 libxcb-keysyms1" in message


def test_nothing_is_said_when_the_libraries_are_there_or_x11_is_not_used():
    assert app.xcb_problem({"DISPLAY": ":0"}, find=lambda name: f"lib{name}.so") == ""
    assert app.xcb_problem({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, find=lambda name: None) == ""
    assert app.xcb_problem({}, find=lambda name: None) == ""
    assert app.uses_xcb({"QT_QPA_PLATFORM": "xcb"})


def test_run_stops_with_the_message_and_exit_code_2(monkeypatch, capsys, tmp_path):
    (tmp_path / "project.yaml").write_text("kind: project\nid: p\nname: P\n")
    monkeypatch.setattr(app, "xcb_problem", lambda environ=None, find=None: "studio: needs libxcb-cursor0")
    assert app.run(str(tmp_path)) == 2
    assert "libxcb-cursor0" in capsys.readouterr().err
