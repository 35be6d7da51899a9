"""MBT fire and spotting details played from positions (``studio.rules.position``): the penetration band read
under option ``penetration-band`` (MBT 4.4.3.2.5) and unarmed vehicles that may not spot (MBT 4.1.1)."""
from __future__ import annotations

from pathlib import Path

from studio.rules.position import load_position
from studio.rulesets.mbt.engine.data import BANDS

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES: dict = {}


def unit(uid, card, side, hex_, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def setup(phase, units, to_act=None, options=None, dice=()):
    pos = {"scenario": "meeting-engagement", "phase": phase, "turn": 1, "units": units, "options": options or {},
           "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    return load_position(pos, DATA, games=GAMES).state


DUEL = [unit("M1", "m1", "us", "2C5", 2, command="FIRE"), unit("T", "t-72a", "sov", "2H5", 5)]


def test_penetration_of_the_same_band_or_the_next():
    """4.4.3.2.5 (option penetration-band): the penetration of the range factor's band, or of the next band in
    reading order (the last band stays the last)."""
    for option, shift in (("same", 0), ("next", 1)):
        s = setup("direct-fire-first", DUEL, "us", options={"penetration-band": option})
        row = next(r for r in s.game.units[s.game.uindex["M1"]].type.ap if r.key == "main:APFSDS")
        order = s.game.tables.bands
        assert len({row.pens[BANDS.index(b)] for b in order}) == len(order)   # every band different
        for k, band in enumerate(order):
            want = order[min(len(order) - 1, k + shift)]
            assert s.penetration(row, band) == row.pens[BANDS.index(want)], (option, band)


def test_unarmed_vehicles_spot_nothing():
    """4.1.1: only armed combat vehicles spot; an unarmed AVLB beside a tank sees nothing, the tank sees the
    enemy, and an enemy only the AVLB could see keeps no Spot counter (4.1.5)."""
    s = setup("spotting", [unit("AVLB", "m60-avlb", "us", "2C5", 2), unit("M1", "m1", "us", "2C5", 2),
                           unit("T", "t-72a", "sov", "2H5", 5, mark="spot-fire")])
    g = s.game
    assert s.spots[g.uindex["AVLB"]] == () and s.spots[g.uindex["M1"]] == (g.uindex["T"],)
    s = setup("spotting", [unit("AVLB", "m60-avlb", "us", "2C5", 2),
                           unit("T", "t-72a", "sov", "2H5", 5, mark="spot-fire")])
    g = s.game
    assert s.spots[g.uindex["AVLB"]] == () and s.mk[g.uindex["T"]] == 0
    assert [str(a) for a in s.legal_actions()] == ["command AVLB NC", "command AVLB MOVE"]


def ow_position(options=None):
    """Combat Phase overwatch (MBT 4.4.2): each side has an Overwatch vehicle and a vehicle that fired."""
    return setup("overwatch", [unit("A", "m1", "us", "2C5", 2, command="OW"),
                               unit("A2", "m1", "us", "2C5", 2, command="OW"),
                               unit("B", "m1", "us", "2C5", 2, command="FIRE", fired=True, revealed=True),
                               unit("T", "t-72a", "sov", "2H5", 5, command="OW"),
                               unit("U", "t-72a", "sov", "2H5", 5, command="FIRE", fired=True, revealed=True)],
                 "us", options=options)


def test_combat_overwatch_ends_only_when_both_sides_pass_in_turn():
    """4.4.2: overwatch alternates from the First Player; one pass hands the choice to the other side, and it
    closes only when both have passed in turn."""
    s = ow_position()
    assert s.current_player() == 0 and any(a.startswith("ow A at U") for a in {str(x) for x in s.legal_actions()})
    s.play(s.game.parse_action("pass"))
    assert s.phase_id() == "overwatch" and s.current_player() == 1
    assert any(str(a).startswith("ow T at B") for a in s.legal_actions())
    s.play(s.game.parse_action("pass"))
    assert s.phase_id() != "overwatch"


def test_combat_overwatch_alternates_after_each_shot_or_stays_with_the_first_player():
    """4.4.2, Q12 (option overwatch-order): after a shot the other side may fire ('alternate'), or the First
    Player resolves all its overwatch first ('first-player')."""
    s = ow_position()
    s.dice.force(100)                                   # a miss: nothing changes but the turn to fire
    s.play(s.game.parse_action("ow A at U main:APFSDS"))
    assert s.current_player() == 1 and any(str(a).startswith("ow T at") for a in s.legal_actions())
    s = ow_position({"overwatch-order": "first-player"})
    s.dice.force(100)
    s.play(s.game.parse_action("ow A at U main:APFSDS"))
    assert s.phase_id() == "overwatch" and s.current_player() == 0
    assert {str(a) for a in s.legal_actions()} >= {"pass", "ow A2 at U main:APFSDS"}


def test_the_ap_hit_roll_is_a_roll_100():
    """3.2, 4.4.3.2.3: the hit roll is a roll (100): 100 is a face (it misses), 101 is not."""
    import pytest

    s = setup("direct-fire-first", DUEL, "us")
    s.dice.force(100)
    s.play(s.game.parse_action("fire M1 at T main:APFSDS"))   # the only shot: resolved at once
    assert s.st[s.game.uindex["T"]] == 1 and not s.dmg[s.game.uindex["T"]]
    s = setup("direct-fire-first", DUEL, "us")
    s.dice.force(101)
    with pytest.raises(ValueError, match="outside 1..100"):
        s.play(s.game.parse_action("fire M1 at T main:APFSDS"))


def _pixel(h):
    """Centre of a flat-top hex in units of the hex's circumradius (axial q, r; y grows southward)."""
    import math

    return 1.5 * h[0], math.sqrt(3) * (h[1] + h[0] / 2)


def _on_boundary(origin, facing, target, arc, rear) -> bool:
    """Does a hexside of ``target`` lie along a boundary ray of the field of fire (float geometry)?"""
    import math

    from studio.hexgrid.coords import DIRECTIONS

    d = DIRECTIONS[(facing + (3 if rear else 0)) % 6]
    fx, fy = _pixel(d)
    ox, oy = _pixel(origin)
    cx, cy = _pixel(target)
    on = []
    for k in range(6):
        x, y = cx + math.cos(math.radians(60 * k)) - ox, cy + math.sin(math.radians(60 * k)) - oy
        if math.hypot(x, y) < 1e-9:
            on.append(False)
            continue
        cos = (x * fx + y * fy) / (math.hypot(x, y) * math.hypot(fx, fy))
        on.append(abs(math.degrees(math.acos(max(-1.0, min(1.0, cos)))) - arc / 2) < 1e-6)
    return any(on[k] and on[(k + 1) % 6] for k in range(6))


def test_fields_of_fire_take_hexes_with_a_side_along_the_boundary_under_any_part():
    """4.4.3.1.4-5, Q15 (option fof-hex-inclusion): a hex whose centre is inside the arc (or on its boundary) is
    in the field of fire; under 'any-part' so is a hex with a hexside lying along a boundary ray. Checked against
    float geometry for the 60, 120 and 180 degree arcs, front and rear, every facing, to range 5."""
    from studio.hexgrid.coords import distance
    from studio.hexgrid.facing import in_arc
    from studio.rulesets.mbt.engine.fire import in_field

    origin = (0, 0)
    targets = [(q, r) for q in range(-5, 6) for r in range(-5, 6) if 0 < distance(origin, (q, r)) <= 5]
    extra = 0
    for arc in (60, 120, 180):
        for rear in (False, True):
            for facing in range(6):
                for t in targets:
                    centre = in_arc(origin, facing, t, arc, rear)
                    assert in_field(origin, facing, t, arc, rear, False) == centre
                    want = centre or _on_boundary(origin, facing, t, arc, rear)
                    assert in_field(origin, facing, t, arc, rear, True) == want, (arc, rear, facing, t)
                    extra += want and not centre
    assert extra > 0



def test_a_shot_renews_the_other_sides_chance_to_pass():
    """4.4.2: overwatch ends when both sides pass in turn; a shot in between starts the count again, so the side
    that fired may fire again after the other side's next pass."""
    s = setup("overwatch", [unit("A", "m1", "us", "2C5", 2, command="OW"),
                            unit("A2", "m1", "us", "2C5", 2, command="OW"),
                            unit("A3", "m1", "us", "2C5", 2, command="OW"),
                            unit("B", "m1", "us", "2C5", 2, command="FIRE", fired=True, revealed=True),
                            unit("T", "t-72a", "sov", "2H5", 5, command="OW"),
                            unit("U", "t-72a", "sov", "2H5", 5, command="FIRE", fired=True, revealed=True)],
              "us", dice=[100, 100, 100])
    for shooter in ("A", "A2"):
        s.play(s.game.parse_action(f"ow {shooter} at U main:APFSDS"))   # a miss (100)
        assert s.current_player() == 1
        s.play(s.game.parse_action("pass"))
    assert s.phase_id() == "overwatch" and s.current_player() == 0
    assert "ow A3 at U main:APFSDS" in {str(a) for a in s.legal_actions()}
    s.play(s.game.parse_action("pass"))                  # both sides have now passed in turn after the last shot
    assert s.phase_id() != "overwatch"
