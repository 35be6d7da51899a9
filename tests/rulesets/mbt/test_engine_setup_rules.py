"""MBT set-up from the scenario (MBT 3.3, 4.5.1.1.9): facings by default and entry facings for entries given as
hexes (no edge), played through the public API (commands, ``enter``)."""
from __future__ import annotations

from pathlib import Path

from studio.model.documents import Entry, Force, Setup, Side
from studio.model.project import load_project
from studio.rulesets.mbt.engine.game import create_game

DATA = Path(__file__).resolve().parents[3] / "data"
INDEX = load_project(DATA)


def game_with(us_force: Force, sov_force: Force):
    base = INDEX.model("scenario", "meeting-engagement")
    sides = [Side(id="us", name="US", nation="US", forces=[us_force]),
             Side(id="sov", name="SOV", nation="SOV", forces=[sov_force])]
    return create_game(base.model_copy(update={"sides": sides}), INDEX)


def test_entry_hexes_without_an_edge_face_into_the_map_from_their_half():
    """4.5.1.1.9 (ENGINE_POLICIES entry): units entering by hexes (no edge) face east from the west half of the
    map and west from the east half; they enter facing so."""
    g = game_with(Force(id="a", toe="us-tank-platoon", entry=Entry(turn=1, hexes=["2C5", "2C6"])),
                  Force(id="b", toe="sov-tank-platoon", entry=Entry(turn=1, hexes=["4R5"])))
    west = [u for u in g.units if u.side == 0]
    east = [u for u in g.units if u.side == 1]
    assert west and east
    assert {u.entry_facing for u in west} == {2} and {u.entry_facing for u in east} == {5}
    assert west[0].entry_hexes == (g.map.hex("2C5"), g.map.hex("2C6"))
    s = g.new_initial_state(0)
    while s.phase_id() == "command":
        a = next(x for x in s.legal_actions() if x[2] == "MOVE")
        s.play(a)
    while s.phase_id() == "initiative":
        s.play(s.legal_actions()[0])
    while not s.phase_id().startswith("move"):
        s.play(next((a for a in s.legal_actions() if a[0] == "pass"), s.legal_actions()[0]))
    name = s.legal_actions()[0][1]
    i = g.uindex[name]
    s.play(s.legal_actions()[0])
    enter = next(a for a in s.legal_actions() if a[0] == "enter")
    s.play(enter)
    assert s.fac[i] == g.units[i].entry_facing and s.hex[i] == g.map.hex(enter[2])
    while s.current_player() != g.units[i].side:          # overwatch may interrupt
        s.play(next(a for a in s.legal_actions() if a[0] == "pass"))
    left = s.mv_left
    s.play(next(a for a in s.legal_actions() if a[0] == "turn"))
    assert s.mv_left == left                               # 4.5.1.1.4: the first hexside in the hex is free


def test_entry_edge_sets_the_facing_and_setup_faces_the_centre_by_default():
    """3.3: set-up vehicles without a facing face east in the west half and west in the east half; an entry
    edge faces away from it (north -> south)."""
    g = game_with(Force(id="a", toe="us-tank-platoon", setup=Setup(hexes=["2C5"])),
                  Force(id="b", toe="sov-tank-platoon", entry=Entry(turn=2, edge="north")))
    assert {u.facing for u in g.units if u.side == 0} == {2}
    assert {u.entry_facing for u in g.units if u.side == 1} == {3}
    assert all(u.entry_turn == 2 for u in g.units if u.side == 1)
    g = game_with(Force(id="a", toe="us-tank-platoon", setup=Setup(hexes=["4R5"])),
                  Force(id="b", toe="sov-tank-platoon", entry=Entry(turn=1, edge="south")))
    assert {u.facing for u in g.units if u.side == 0} == {5}
    assert {u.entry_facing for u in g.units if u.side == 1} == {0}
