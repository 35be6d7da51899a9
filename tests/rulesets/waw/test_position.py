"""WaW positions (issue 10 point 8), observation privacy and phases, through the public API."""
from pathlib import Path

import pytest

from studio.rules.conformance import check_fingerprint_complete, check_observation_private
from studio.rules.position import PositionError, load_position
from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[3] / "data"


def doc(**kw):
    base = {"kind": "position", "schema_version": 1, "scenario": "waw-lab", "phase": "impulse",
            "units": [{"id": "us-armor.2", "card": "us-m60a3", "side": "us", "hex": "4J14"},
                      {"card": "su-t72", "side": "soviet", "hex": "4J10", "status": {"markers": ["disrupted"]}}],
            "extension": {"formation": "f-us-armor"}}
    base.update(kw)
    return base


def test_position_sets_up_an_impulse_and_plays():
    setup = load_position(doc(dice=[6, 6, 6, 6, 1, 1, 1, 1, 1]), DATA)
    s, g = setup.state, setup.loaded.game
    t72 = g.by_uid["su-tanks.2"]
    assert s.phase_id() == "impulse" and s.disr[t72]
    assert "fire us-armor.2 su-tanks.2 ap" in {str(a) for a in s.legal_actions()}
    s.play(g.parse_action("fire us-armor.2 su-tanks.2 ap"))
    assert s.strength[t72] == 2                    # 4 Hits on a Disrupted T-72, saves all 1s


def test_position_status_markers_and_map_markers():
    d = doc(units=[{"card": "us-m60a3", "side": "us", "hex": "4J14",
                    "status": {"damage": "reduced", "markers": ["ops_complete", "depleted"], "mp_used": 2}},
                   {"card": "su-t72", "side": "soviet", "hex": "4J10"}],
            extension={"formation": "f-us-armor", "wrecks": ["4J12"], "smoke": {"4J11": 1}, "thor": True,
                       "hand": ["volley"], "ip": ["4J10"], "jammed": ["f-us-mech"]})
    s = load_position(d, DATA).state
    g = s.game
    m60 = g.by_uid["us-armor.2"]
    assert (s.strength[m60], s.ops_complete[m60], s.depleted[m60] > 0, s.mp_used[m60]) == (1, True, True, 2.0)
    assert g.map.hex_of["4J12"] in s.wrecks and s.smoke == {g.map.hex_of["4J11"]: 1} and s.thor == 1
    assert ("volley", 1) in s.hand and g.map.hex_of["4J10"] in s.ip and s.jammed
    assert sum(1 for i in range(len(g.units)) if s.hex[i] is not None) == 2   # exactly the listed units


@pytest.mark.parametrize("change, pointer", [
    ({"units": [{"card": "us-m60a3", "side": "us", "hex": "9Z99"}]}, "/units/0/hex"),
    ({"units": [{"card": "us-m60a3", "side": "us", "hex": "4J14", "status": {"markers": ["asleep"]}}]},
     "/units/0/status/markers/0"),
    ({"units": [{"card": "us-m60a3", "side": "us", "hex": "4J14", "status": {"fuel": 1}}]}, "/units/0/status/fuel"),
    ({"units": [{"id": "us-armor.2", "card": "su-t72", "side": "us", "hex": "4J14"}]}, "/units/0/card"),
    ({"extension": {"weather": "rain"}}, "/extension/weather"),
    ({"phase": "opfire", "extension": {}}, "/extension/mover"),
])
def test_bad_positions_are_diagnostics_with_pointers(change, pointer):
    with pytest.raises(PositionError) as err:
        load_position(doc(**change), DATA)
    assert any(d.pointer == pointer for d in err.value.diagnostics), [d.pointer for d in err.value.diagnostics]


def test_observation_hides_the_dice_and_is_complete():
    game = load_game(DATA / "scenarios" / "waw" / "waw-crossroads.yaml", DATA).game
    s = game.new_initial_state(3)
    s.dice.force(6, 6, 6)
    view = s.observation(0)
    assert view.dice is not s.dice and view.clone().dice is not s.dice
    assert view.clone().dice.roll(6) != 6 or view.clone().dice.roll(6) != 6 or view.dice.roll(6) != 6
    check_observation_private(s, 0)
    check_fingerprint_complete(s)


def test_phase_ids_name_the_game_phases():
    game = load_game(DATA / "scenarios" / "waw" / "waw-crossroads.yaml", DATA).game
    ids = {p.id for p in game.phases}
    s = game.new_initial_state(1)
    seen = set()
    for _ in range(200):
        if s.is_terminal():
            break
        seen.add(s.phase_id())
        s.apply(s.legal_actions()[0])
    assert seen <= ids and {"operations", "impulse"} <= seen


M60 = {"card": "us-m60a3", "side": "us", "hex": "4J14"}
T72 = {"card": "su-t72", "side": "soviet", "hex": "4J10"}


@pytest.mark.parametrize("change, pointer", [
    ({"extension": {"formation": "f-us-armor", "cup": ["f-nobody"]}}, "/extension/cup/0"),
    ({"extension": {"formation": "f-nobody"}}, "/extension/formation"),
    ({"extension": {"formation": "f-us-armor", "jammed": ["f-nobody"]}}, "/extension/jammed/0"),
    ({"extension": {"formation": "f-us-armor", "drill": "f-nobody"}}, "/extension/drill"),
    ({"extension": {"formation": "f-us-armor", "hand": ["luck"]}}, "/extension/hand/0"),
    ({"extension": {"formation": "f-us-armor", "smoke": ["4J12"]}}, "/extension/smoke"),
    ({"extension": {"formation": "f-us-armor", "wrecks": ["9Z9"]}}, "/extension/wrecks/0"),
    ({"units": [dict(M60, status={"damage": "half"})]}, "/units/0/status/damage"),
    ({"units": [dict(M60, status={"markers": "disrupted"})]}, "/units/0/status/markers"),
    ({"units": [dict(M60, status={"mp_used": -1})]}, "/units/0/status/mp_used"),
    ({"units": [dict(M60, status={"moved": True})]}, "/units/0/status/moved"),
    ({"units": [dict(M60, passengers=["nobody"])]}, "/units/0/passengers/0"),
    ({"units": [dict(M60, hex=None)]}, "/units/0/hex"),
    ({"units": [dict(M60, id="us-armor.2"), dict(M60, id="us-armor.2")]}, "/units/1/id"),
    ({"units": [dict(M60, id="us-armor.99")]}, "/units/0/id"),
    ({"units": [dict(M60, side="soviet")]}, "/units/0/card"),
    ({"units": [dict(M60), dict(M60), dict(M60)]}, "/units/2/card"),
    ({"units": [{"card": "us-armor-hq", "side": "us", "hex": "4J14", "status": {"damage": "reduced"}},
                {"card": "us-m163-vads", "side": "us", "hex": "4J14", "status": {"damage": "reduced"}}]},
     "/units/1/status/damage"),
    ({"phase": "marker_removal"}, "/phase"),
])
def test_more_bad_positions(change, pointer):
    with pytest.raises(PositionError) as err:
        load_position(doc(**change), DATA)
    assert any(d.pointer == pointer for d in err.value.diagnostics), [d.pointer for d in err.value.diagnostics]


def test_position_cup_passengers_opfire_and_status():
    d = doc(phase="opfire", to_act="us",
            units=[dict(M60, status={"markers": ["hovering", "breakdown", "berserk", "out_of_command"]}),
                   {"id": "us-mech.3", "card": "us-mech-infantry", "side": "us", "hex": None},
                   {"id": "us-mech.9", "card": "us-truck", "side": "us", "hex": "4J13", "passengers": ["us-mech.3"]},
                   dict(T72, hex="4J12", status={"moved": 3, "mp_used": 1.5})],
            extension={"mover": "su-tanks.2", "cup": ["f-us-armor", "end_turn", "chaos"], "mines": ["4J11"],
                       "drill": "f-us-mech"})
    s = load_position(d, DATA).state
    g = s.game
    inf, truck, t72, m60 = (g.by_uid[x] for x in ("us-mech.3", "us-mech.9", "su-tanks.2", "us-armor.2"))
    assert s.phase_id() == "opfire" and s.current_player() == 0 and s.pending[1] == t72
    assert s.carrier[inf] == truck and s.hex[inf] == s.hex[truck] == g.map.hex_of["4J13"]
    assert sorted(m[0] for m in s.cup) == ["C", "E", "F"] and g.map.hex_of["4J11"] in s.mines
    assert s.breakdown[m60] and s.berserk[m60] == 1 and s.out_of_command[m60]
    assert (s.heli_moves[t72], s.mp_used[t72]) == (3, 1.5) and s.drill is not None


def test_position_units_null_keeps_the_scenario_set_up():
    s = load_position(doc(units=None, phase="operations", extension={}), DATA).state
    g = s.game
    assert all(s.hex[i] is not None for i in range(len(g.units)) if g.units[i].formation in s.entered_f
               and g.units[i].uid != "mob.1") and s.phase_id() == "operations"
