"""The `studio print` command contract: --help, exit codes, clear messages, PNG previews."""
from __future__ import annotations

import pytest

from studio.cli.main import main


@pytest.mark.parametrize("kind", ["counters", "cards", "map", "scenario", "calibration"])
def test_help_on_each_kind(kind, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["print", kind, "--help"])
    assert exc.value.code == 0
    assert "-o OUT.pdf" in capsys.readouterr().out


@pytest.mark.parametrize("args,code,message", [
    (["counters", "m1", "--size", "big"], 2, "not a length"),
    (["counters", "m1", "--back-offset", "1"], 2, "not an offset"),
    (["counters", "nope"], 1, "no toe or scenario or unit with id 'nope'"),
    (["counters", "unit:m1*0"], 1, "bad unit item"),
    (["counters", "unit:m1", "--size", "300mm"], 1, "does not fit"),
    (["map", "m1"], 1, "no map or scenario"),
    (["counters", "unit:m1", "--layout", "missing-layout"], 1, "no valid layout"),
])
def test_bad_input_gives_a_message_not_a_traceback(project, tmp_path, capsys, args, code, message):
    assert main(["print", *args, "-o", str(tmp_path / "x.pdf"), "--project", str(project)]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_output_folder_is_an_io_error(project, tmp_path, capsys):
    assert main(["print", "counters", "m1", "-o", str(tmp_path / "no" / "x.pdf"), "--project", str(project)]) == 2


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["print", "counters", "m1", "-o", "x.pdf", "--paper", "legal"])
    assert exc.value.code == 2


def test_png_previews_of_each_kind(project, tmp_path, capsys):
    from PySide6.QtGui import QImage

    for kind, source in [("counters", "probe"), ("cards", "unit:m1,bmp2"), ("map", "board-2"),
                         ("scenario", "probe"), ("calibration", None)]:
        folder = tmp_path / kind
        args = ["print", kind, *([source] if source else []), "-o", str(tmp_path / f"{kind}.pdf"), "--png",
                str(folder), "--dpi", "40", "--project", str(project)]
        assert main(args) == 0
        pngs = sorted(folder.glob("*.png"))
        assert pngs, kind
        img = QImage(str(pngs[0]))
        assert not img.isNull() and img.width() > 300


def test_defaults_come_from_the_project(project, tmp_path):
    from studio.model.project import load_project
    from studio.printing.jobs import project_defaults

    opts = project_defaults(load_project(project), "counters")
    assert (opts.paper, opts.size, opts.duplex) == ("letter", "5/8in", "long")


def test_counter_images_for_vassal(project, tmp_path):
    from PySide6.QtGui import QImage

    folder = tmp_path / "vassal"
    args = ["print", "counters", "us-troop", "-o", str(tmp_path / "c.pdf"), "--counter-png", str(folder),
            "--dpi", "300", "--size", "1/2in", "--project", str(project)]
    assert main(args) == 0
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names == ["m1-back.png", "m1-front.png", "m3-back.png", "m3-front.png"]
    img = QImage(str(folder / "m1-front.png"))
    assert (img.width(), img.height()) == (150, 150)        # 1/2 in at 300 dpi
