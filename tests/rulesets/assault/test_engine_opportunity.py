"""Cover (Assault 7.G), formations (7.C) and opportunity fire (15), through positions and play (examples A45,
A67, A75, A78, A91, A93-A95; options c26, c40, c41, c43 are exposed by the conformance probes)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


#: the scenario's off-board OPs pay for each mover's order at 1 OP (option c31 'visible', Assault 4.B.3, 4.C)
PAID = {"c31-offboard-ops-visibility": "visible"}


def state_of(index, units, phase, dice=(), scenario="assault-meeting", **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | PAID | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase,
                                   "units": units})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def unit(uid, card, side, hexlabel, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


def opp_fires(state, firer="us") -> list[str]:
    return [a for a in state.legal_actions() if a.startswith(f"fire {firer} ")]


def test_A45_cover_takes_the_phase_and_moving_out_removes_it(index):
    """Assault 7.G: only combat formation may enter cover; it takes the whole phase (no move after) and counts
    as movement for spotting; leaving the hex removes the marker."""
    units = [unit("us", "us-m1-platoon", "us", "B0101"), unit("su", "su-t80-platoon", "soviet", "B2121")]
    state = state_of(index, units, "us-move-1")
    assert "cover us" in state.legal_actions()
    state.play("cover us")
    assert by_id(state)["us"].cover and by_id(state)["us"].moved
    assert not [a for a in state.legal_actions() if a.startswith("move us ")]
    march = state_of(index, [unit("us", "us-m1-platoon", "us", "B0101", formation="march"), units[1]], "us-move-1")
    assert "cover us" not in march.legal_actions() and "form us combat" in march.legal_actions()
    covered = state_of(index, [unit("us", "us-m1-platoon", "us", "B0101", cover=True), units[1]], "us-move-1")
    covered.play("move us B0102")
    assert not by_id(covered)["us"].cover


def test_march_formation_removes_cover_and_cannot_fire(index):
    """Assault 7.C, 7.G, A75 (12.B.3): a unit changing to march formation leaves cover; in march it cannot fire
    in the fire phase."""
    units = [unit("us", "us-m1-platoon", "us", "B1010", cover=True, spotted=True),
             unit("su", "su-t80-platoon", "soviet", "B1012", spotted=True)]
    state = state_of(index, units, "us-move-2")
    state.play("form us march")
    assert by_id(state)["us"].formation == "march" and not by_id(state)["us"].cover
    march = [unit("us", "us-m1-platoon", "us", "B1010", formation="march", spotted=True), units[1]]
    assert state_of(index, march, "us-fire").legal_actions() == ["end"]


def test_A67_suppressed_personnel_take_cover(index):
    """Assault 11.A.1: a suppressed personnel unit is placed in cover at once (CRT 'S')."""
    units = [unit("us", "us-m1-platoon", "us", "B1010", spotted=True),
             unit("su", "su-motor-rifle-platoon", "soviet", "B1011", spotted=True)]
    state = state_of(index, units, "us-fire", dice=[10, 10])      # 16 HE vs 4: 4:1, roll 10 suppresses
    state.play("fire us HE su")
    state.play("end")
    state.play("end")
    su = by_id(state)["su"]
    assert su.suppressed and su.cover and su.steps == 2


def test_A78_cover_halves_the_hit_number_across_a_covered_hexside(index):
    """Assault 13.A.1: KP 8 at range 2 into a T-80 platoon in cover facing the firer: 8 // 2 = 4; a roll of 5
    misses in cover and hits in the open."""
    out = []
    for cover in (False, True):
        units = [unit("us", "us-m1-platoon", "us", "B1010", spotted=True),
                 unit("su", "su-t80-platoon", "soviet", "B1012", 5, spotted=True, cover=cover)]
        state = state_of(index, units, "us-fire", dice=[5, 5, 10])
        state.play("fire us KP su")
        state.play("end")
        state.play("end")
        out.append(by_id(state)["su"].steps if "su" in by_id(state) else 0)
    assert out[0] < out[1] == 2


def mover(index, us_status, su_hex="B1013", us_hex="B1010", to="B1012", **options):
    units = [unit("su", "su-t80-platoon", "soviet", su_hex), unit("us", "us-m1-platoon", "us", us_hex, **us_status)]
    state = state_of(index, units, "soviet-move-1", **options)
    state.play(f"move su {to}")
    return state


def test_A91_only_units_in_cover_opportunity_fire_at_movers(index):
    """Assault 15: each move into a hex gives the non-phasing player a decision; only units in cover fire."""
    covered = mover(index, {"cover": True})
    assert covered.current_player() == 1 and opp_fires(covered)
    open_ = mover(index, {})
    assert open_.current_player() == 1 and opp_fires(open_) == [] and open_.legal_actions() == ["end"]
    open_.play("end")
    assert open_.current_player() == 0 and open_.phase_id() == "soviet-move-1"


def test_opportunity_fire_is_resolved_at_once(index):
    """Assault 15.B: the fire and its morale check are resolved before movement goes on (rolls 1: two hits)."""
    state = mover(index, {"cover": True})
    state.dice.force(1, 1, 1, 1, 10)
    state.play("fire us KP su")
    state.play("end")
    assert "su" not in by_id(state) and state.current_player() == 0


def test_A93_range_bands(index):
    """Assault 15.A: beyond 4 hexes a mover seen when its move began may be fired at (A93); one not seen then
    only from the second consecutive observed hex (to 8 hexes). Flat clear ground, rows 15-22 of board B."""
    seen = mover(index, {"cover": True}, su_hex="B2118", us_hex="B1418", to="B2018")        # range 6
    assert opp_fires(seen)
    # behind the woods (B1318 hides B1218 from B1918): the first observed hex (B1318, range 6) gives no fire,
    # the second (B1418, range 5) does; option c26 'in-los' because woods are not autospotted
    state = mover(index, {"cover": True}, su_hex="B1218", us_hex="B1918", to="B1318",
                  **{"c26-opp-fire-spotted": "in-los"})
    assert by_id(state)["su"].seen_start == () and opp_fires(state) == []
    state.play("end")
    state.play("move su B1418")
    assert by_id(state)["su"].seen_run == {"us": 2} and opp_fires(state)


def test_c26_unspotted_movers(index):
    """Option c26: under 'spotted' an unspotted mover (woods: no autospot) gives no decision point at all."""
    state = mover(index, {"cover": True}, su_hex="B1218", us_hex="B1918", to="B1318")
    assert state.current_player() == 0 and not by_id(state)["su"].spotted


def test_A94_fire_at_units_entering_the_firers_hex(index):
    """Assault 15.A: an eligible unit may always fire at an enemy entering its hex."""
    state = mover(index, {"cover": True}, su_hex="B1011", us_hex="B1010", to="B1010")
    assert opp_fires(state)


def test_A95_armour_facing_as_it_enters(index):
    """Assault 15.A, 13.B.2: the mover faces the hex it entered; fire from behind hits the flank."""
    state = mover(index, {"cover": True}, su_hex="B1011", us_hex="B1010", to="B1012")
    su, us = by_id(state)["su"], by_id(state)["us"]
    assert not state._front(su, us)
    ahead = mover(index, {"cover": True}, su_hex="B1008", us_hex="B1012", to="B1009")
    su, us = by_id(ahead)["su"], by_id(ahead)["us"]
    assert ahead._front(su, us)


def test_march_units_do_not_opportunity_fire(index):
    """A75: march formation cannot opportunity fire (and so cannot be in cover)."""
    state = mover(index, {"formation": "march"})
    assert opp_fires(state) == []
