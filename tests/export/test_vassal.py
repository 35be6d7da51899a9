"""VASSAL module export (studio.export.vassal): the buildFile.xml structure, every referenced image in the zip at
the size the grid expects, and VASSAL's own hex-grid arithmetic (ported) placing and naming each piece's hex where
the studio draws and labels it."""
import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from studio.export import vassal_grid as vg
from studio.export.vassal import (BP, P, build_module, piece_definition, piece_images, preview_page, read_module,
                                  seq)
from studio.model.maps import assemble_scenario
from studio.model.project import load_project

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = ["delaying-action", "meeting-engagement", "hasty-defense", "waw-lab", "waw-crossroads",
             "waw-hill-fight", "assault-probe", "assault-meeting"]
DPI = 40.0


@pytest.fixture(scope="module")
def index():
    return load_project(DATA)


@pytest.fixture(scope="module")
def modules(index):
    return {sid: read_module(build_module(index, [sid], dpi=DPI).zip_bytes()) for sid in SCENARIOS}


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _grid(el) -> vg.VassalGrid:
    n = el.find(BP + "board.mapgrid.HexGridNumbering")
    b = lambda e, k: e.get(k) == "true"  # noqa: E731
    return vg.VassalGrid(float(el.get("dx")), float(el.get("dy")), int(el.get("x0")), int(el.get("y0")),
                         b(el, "sideways"), b(n, "stagger"), b(n, "hDescend"), b(n, "vDescend"), int(n.get("hOff")),
                         int(n.get("vOff")), n.get("hType"), n.get("vType"), int(n.get("hLeading")),
                         int(n.get("vLeading")), n.get("first"), n.get("sep"))


def _zones(board):
    out = []
    for z in board.iter(BP + "board.mapgrid.Zone"):
        poly = [tuple(int(v) for v in pt.split(",")) for pt in z.get("path").split(";")]
        prefix = z.get("locationFormat").replace("$gridLocation$", "")
        out.append((poly, prefix, _grid(z.find(BP + "board.HexGrid"))))
    return out


def _name_at(zones, x, y):
    """The location VASSAL names at (x, y): the first zone containing the point, its grid's snapped name."""
    for poly, prefix, g in zones:
        if vg.inside(poly, x, y):
            px, py = vg.snap_hex(g, x, y)
            return prefix + vg.location_name(g, px, py, vg.polygon_size(poly)), (px, py)
    return None, None


@pytest.mark.parametrize("sid", SCENARIOS)
def test_build_file_images_exist_with_the_expected_sizes(sid, modules, index):
    files = modules[sid]
    assert {"buildFile.xml", "moduledata", "studio-export.json"} <= set(files)
    root = ET.fromstring(files["buildFile.xml"])
    assert root.tag == "VASSAL.build.GameModule" and root.get("VassalVersion").startswith("3.7")
    ET.fromstring(files["moduledata"])
    boards = list(root.iter(BP + "Board"))
    assert len(boards) == 1
    board = boards[0]
    assert _png_size(files["images/" + board.get("image")]) == (int(board.get("width")), int(board.get("height")))
    k = json.loads(files["studio-export.json"])["boards"][sid]["px_per_mm"]
    side = round(15.875 * k)                    # the sample project's 5/8in counters at the maps' scale
    slots = list(root.iter("VASSAL.build.widget.PieceSlot"))
    assert slots
    for slot in slots:
        assert (int(slot.get("width")), int(slot.get("height"))) == (side, side)
        names = piece_images(slot.text)
        assert len(names) == 2, slot.get("entryName")
        for name in names:
            assert _png_size(files["images/" + name]) == (side, side)
    hexgrid = next(board.iter(BP + "board.HexGrid"))
    assert side < float(hexgrid.get("dy"))       # a counter fits inside its hex


@pytest.mark.parametrize("sid", SCENARIOS)
def test_grid_names_every_hex_as_the_studio_and_stacks_sit_on_the_drawn_centres(sid, modules, index):
    from studio.printing.mapsheet import draw_map

    root = ET.fromstring(modules[sid]["buildFile.xml"])
    board = next(root.iter(BP + "Board"))
    zones = _zones(board)
    amap = assemble_scenario(index.model("scenario", sid), index)
    record = json.loads(modules[sid]["studio-export.json"])["boards"][sid]
    k, (ox, oy) = record["px_per_mm"], record["offset_px"]
    assert abs(k * 25.4 - DPI) < DPI * 0.1          # near the chosen dpi
    assert float(next(board.iter(BP + "board.HexGrid")).get("dy")) == pytest.approx(amap.hex_mm * k)
    drawing = draw_map(amap, {})
    for h, (x, y) in drawing.centres.items():
        cx, cy = x * k + ox, y * k + oy                # where the studio draws the hex centre in the image
        name, (px, py) = _name_at(zones, cx, cy)
        assert name == amap.label_of[h]
        assert abs(py - cy) < 0.01 and abs(px - cx) <= 1.5
    stacks = [s for s in root.iter(P + "map.SetupStack")]
    set_up = [f for side in index.model("scenario", sid).sides for f in side.forces
              if f.setup is not None and (f.setup.hexes or f.setup.zone)]
    assert bool(stacks) == bool(set_up)
    assert len(record["notes"]) == sum(len(side.forces) for side in index.model("scenario", sid).sides) - len(set_up)
    for s in stacks:
        assert s.get("owningBoard") == board.get("name")
        name, _ = _name_at(zones, int(s.get("x")), int(s.get("y")))
        assert name == s.get("location")


def test_setup_follows_the_scenario(modules, index):
    root = ET.fromstring(modules["waw-crossroads"]["buildFile.xml"])
    at = {s.get("location"): len(list(s.iter("VASSAL.build.widget.PieceSlot"))) for s in root.iter(P + "map.SetupStack")}
    sc = index.model("scenario", "waw-crossroads")
    zone = set(sc.sides[0].forces[0].setup.zone)
    assert zone <= set(at)
    palette = sum(1 for _ in next(root.iter(P + "PieceWindow")).iter("VASSAL.build.widget.PieceSlot"))
    assert sum(at.values()) == palette          # every counter starts on the map in this scenario


def test_several_scenarios_are_separate_boards(index):
    files = read_module(build_module(index, ["waw-crossroads", "waw-hill-fight"], dpi=DPI).zip_bytes())
    root = ET.fromstring(files["buildFile.xml"])
    names = [b.get("name") for b in root.iter(BP + "Board")]
    assert len(names) == 2
    owners = {s.get("owningBoard") for s in root.iter(P + "map.SetupStack")}
    assert owners == set(names)


def test_export_is_deterministic(index):
    a = build_module(index, ["assault-probe"], dpi=DPI).zip_bytes()
    assert a == build_module(index, ["assault-probe"], dpi=DPI).zip_bytes()


def test_sequence_encoder_escapes_like_vassal():
    assert seq(["a;b", "", "c"], ";") == "a\\;b;;c"
    assert seq(["\\x"], ";") == "'\\x'"
    d = piece_definition("1/A T-72", "t-front.png", "t-back.png", 7)
    assert d.startswith("+/null/emb2;") and "1\\/A T-72" in d
    assert piece_images(d) == ["t-front.png", "t-back.png"]


def test_vassal_numbering_port():
    assert [vg.part_name(v, "A", 0) for v in (0, 25, 26, 27)] == ["A", "Z", "AA", "BB"]
    assert vg.part_name(4, "N", 1) == "04" and vg.part_name(12, "N", 1) == "12"


def test_pointy_boards_get_a_sideways_grid():
    dy = 40.0
    dx = dy * vg.SQRT3_2
    hexes = []
    for r in range(5):
        for q in range(6):
            x = 30 + dy * q + (dy / 2 if r % 2 else 0)
            y = 30 + dx * r
            hexes.append(vg.BoardHex(x, y, q, r, f"{q + 1:02d}{r + 1:02d}"))
    poly = vg.zone_polygon(hexes, dx, dy, True)
    g, bad = vg.solve_board_grid(hexes, dy, True, False, vg.LabelStyle(alpha=False), "", vg.polygon_size(poly))
    assert g.sideways and bad == []


def test_preview_draws_pieces_from_the_module(index, tmp_path):
    from studio.printing.render import page_image

    files = read_module(build_module(index, ["waw-hill-fight"], dpi=DPI).zip_bytes())
    board = next(ET.fromstring(files["buildFile.xml"]).iter(BP + "Board")).get("name")
    page = preview_page(files, board, tmp_path)
    assert len(page.items) > 1
    img = page_image(page, 25.4)
    plain = page_image(page.__class__(page.width, page.height, page.items[:1]), 25.4)
    assert img.size() == plain.size() and img != plain
