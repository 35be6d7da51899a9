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
        args = ["print", kind, *([source] if source else []), *(["--force"] if kind == "scenario" else []),
                "-o", str(tmp_path / f"{kind}.pdf"), "--png",
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


def _run(project, tmp_path, *args, out="x.pdf"):
    return main(["print", *args, "-o", str(tmp_path / out), "--project", str(project)])


def test_file_paths_are_sources_like_ids(project, tmp_path, capsys):
    """A scenario, TO&E or map file works wherever its id does; its project is found from the file."""
    scenario = project / "scenarios" / "probe.yaml"
    assert main(["print", "counters", str(scenario), "-o", str(tmp_path / "a.pdf")]) == 0
    assert main(["print", "cards", str(project / "toe" / "troop.yaml"), "-o", str(tmp_path / "b.pdf")]) == 0
    assert main(["print", "map", str(project / "maps" / "board-2.yaml"), "-o", str(tmp_path / "c.pdf")]) == 0
    assert main(["print", "scenario", str(scenario), "--force", "-o", str(tmp_path / "d.pdf")]) == 0
    assert main(["print", "map", str(tmp_path / "none.yaml"), "-o", str(tmp_path / "e.pdf"),
                 "--project", str(project)]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["print", "map", str(project / "toe" / "troop.yaml"), "-o", str(tmp_path / "e.pdf")]) == 1
    assert "is a toe, not a map or scenario" in capsys.readouterr().err


def test_output_format_follows_the_suffix(project, tmp_path, capsys):
    from PySide6.QtGui import QImage

    assert _run(project, tmp_path, "counters", "unit:m1*3", "--duplex", "none", out="sheet.svg") == 0
    svg = (tmp_path / "sheet.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and 'width="215.9mm"' in svg
    assert _run(project, tmp_path, "counters", "unit:m1*3", out="sheet.png") == 0      # front + back
    pngs = sorted(p.name for p in tmp_path.glob("sheet-*.png"))
    assert pngs == ["sheet-01.png", "sheet-02.png"]
    img = QImage(str(tmp_path / "sheet-01.png"))
    assert (img.width(), img.height()) == (1275, 1650)               # letter at the default 150 dpi
    assert _run(project, tmp_path, "counters", "unit:m1", out="sheet.tiff") == 2
    assert "use .pdf, .svg or .png" in capsys.readouterr().err
    assert not (tmp_path / "sheet.tiff").exists()


@pytest.mark.parametrize("kind,source,option", [
    ("cards", "unit:m1", ["--duplex", "long"]), ("cards", "unit:m1", ["--back-offset=1,0"]),
    ("cards", "unit:m1", ["--size", "1in"]), ("map", "board-2", ["--duplex", "short"]),
    ("map", "board-2", ["--bleed", "3mm"]), ("scenario", "probe", ["--back-offset=1,0"]),
    ("scenario", "probe", ["--layout", "x"]), ("calibration", None, ["--size", "1in"]),
    ("map", "board-2", ["--counter-png", "d"]),
])
def test_options_a_kind_does_not_use_are_refused(project, tmp_path, capsys, kind, source, option):
    assert _run(project, tmp_path, kind, *([source] if source else []), *option) == 2
    err = capsys.readouterr().err
    assert f"{option[0].split('=')[0]} is not used by '{kind}' sheets" in err
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("kind,offset", [("counters", "50,0"), ("counters", "0,-20"), ("calibration", "150,0")])
def test_back_offsets_that_push_backs_off_the_page_are_an_error(project, tmp_path, capsys, kind, offset):
    source = ["unit:m1*40"] if kind == "counters" else []
    assert _run(project, tmp_path, kind, *source, f"--back-offset={offset}") == 1
    assert "off the" in capsys.readouterr().err
    assert _run(project, tmp_path, kind, *source, "--back-offset=1.5,-0.5") == 0
    assert _run(project, tmp_path, kind, *source, f"--back-offset={offset}", "--duplex", "none") == 0


def test_pdf_has_print_hints_and_consistent_boxes(project, tmp_path):
    import re

    for paper in ("a4", "letter"):
        assert _run(project, tmp_path, "counters", "unit:m1*3", "--paper", paper, "--duplex", "short") == 0
        data = (tmp_path / "x.pdf").read_bytes()
        assert b"/ViewerPreferences << /PrintScaling /None /Duplex /DuplexFlipShortEdge >>" in data
        assert data.rstrip().endswith(b"%%EOF") and data.count(b"startxref") == 2 and data.startswith(b"%PDF-1.7")
        media = [list(map(float, m.split())) for m in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)]
        trim = [list(map(float, m.split())) for m in re.findall(rb"/TrimBox\s*\[([^\]]*)\]", data)]
        assert len(media) == len(trim) == 2
        for mb, tb in zip(media, trim):
            assert mb[0] <= tb[0] and mb[1] <= tb[1] + 1e-6 and tb[2] <= mb[2] + 1e-6 and tb[3] <= mb[3] + 1e-6
    from .pdfparse import read_pdf
    assert len(read_pdf(tmp_path / "x.pdf")) == 2              # the incremental update keeps the PDF readable


def test_counter_images_have_their_own_dpi_and_optional_bleed(project, tmp_path):
    from PySide6.QtGui import QImage

    folder = tmp_path / "vassal"
    args = ["print", "counters", "unit:m1", "-o", str(tmp_path / "c.pdf"), "--counter-png", str(folder),
            "--counter-dpi", "200", "--counter-bleed", "1/16in", "--dpi", "40", "--size", "1/2in",
            "--project", str(project)]
    assert main(args) == 0
    img = QImage(str(folder / "m1-front.png"))
    assert (img.width(), img.height()) == (125, 125)        # (1/2 + 2 x 1/16) in at 200 dpi
    corner = img.pixelColor(2, 2)                           # the bleed carries the counter's background
    assert (corner.red(), corner.green(), corner.blue()) != (255, 255, 255)
