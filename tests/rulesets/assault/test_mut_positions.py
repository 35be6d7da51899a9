"""Assault positions as documents (``engine/positions.py``): every status and extension key is read into the
state, and every bad value is a ``PositionError`` naming its place (pointer), never a traceback. Found untested by
a mutation run of the engine (COVERAGE.md, Measurements)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.rules.position import PositionError
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


@pytest.fixture(scope="module")
def game(index):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options})


def u(uid, card, side, hexlabel, facing=None, passengers=(), **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status,
            "passengers": list(passengers)}


M1 = u("m1", "us-m1-platoon", "us", "B1010")
T80 = u("t80", "su-t80-platoon", "soviet", "B2020")


def setup(game, units=None, phase="us-move-1", extension=None, **doc):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                   "phase": phase, "units": [M1, T80] if units is None else units,
                                   "extension": extension or {}, **doc})
    return game.state_from_position(pos)


def refused(game, pointer, **kwargs):
    with pytest.raises(PositionError) as err:
        setup(game, **kwargs)
    assert err.value.pointer == pointer
    return err.value


# ------------------------------------------------------------------ unit status
@pytest.mark.parametrize("status, pointer", [
    ({"colour": "red"}, "/units/0/status"),
    ({"steps": "2"}, "/units/0/status/steps"),
    ({"spotted": 1}, "/units/0/status/spotted"),
    ({"steps": 0}, "/units/0/status/steps"),
    ({"steps": 3}, "/units/0/status/steps"),
    ({"formation": "line"}, "/units/0/status/formation"),
    ({"deployed": True}, "/units/0/status/deployed"),                  # an M-1 has no indirect fire (19.E)
    ({"cover": True, "formation": "march"}, "/units/0/status/cover"),  # 7.G
    ({"dummy": True, "spotted": True}, "/units/0/status/dummy"),       # 10.F
])
def test_bad_unit_status_is_refused_at_its_key(game, status, pointer):
    refused(game, pointer, units=[u("m1", "us-m1-platoon", "us", "B1010", **status), T80])


@pytest.mark.parametrize("facing", [-1, 6])
def test_facing_is_a_hexside_or_vertex_0_to_5(game, facing):
    refused(game, "/units/0/facing", units=[u("m1", "us-m1-platoon", "us", "B1010", facing=facing), T80])


def test_a_bad_hex_is_refused(game):
    refused(game, "/units/1/hex", units=[M1, u("t80", "su-t80-platoon", "soviet", "Z9999")])


@pytest.mark.parametrize("steps", [1, 2])
def test_steps_within_the_card(game, steps):
    state = setup(game, units=[u("m1", "us-m1-platoon", "us", "B1010", steps=steps), T80])
    assert state.counters[0].steps == steps


@pytest.mark.parametrize("facing", [0, 5])
def test_extreme_facings_are_kept(game, facing):
    assert setup(game, units=[u("m1", "us-m1-platoon", "us", "B1010", facing=facing), T80]).counters[0].facing == facing


def test_every_status_key_is_read(game):
    status = {"steps": 1, "formation": "combat", "spotted": True, "suppressed": True, "moved_first": True,
              "mp_used": 3, "company": "K", "fatigued": True, "cover": True, "designation": "1C1",
              "toc_bank": 2, "entrenched": True, "attached": "HQB1"}
    state = setup(game, units=[u("m1", "us-m1-platoon", "us", "B1010", **status), T80,
                               u("mo", "us-m125-mortar", "us", "B1011", deployed=True),
                               u("d", "us-m1-platoon", "us", "B1012", dummy=True)])
    m1, _t80, mortar, dummy = state.counters
    assert {k: getattr(m1, k) for k in status} == status
    assert mortar.deployed and not m1.deployed and dummy.dummy and not m1.dummy


def test_unit_defaults(game):
    """Defaults: full strength, combat formation, not spotted, its own company, no designation; a counter
    without a facing faces the enemy's edge (U.S. hexside 5, Soviet 2); no id: 'u<n>'."""
    state = setup(game, units=[M1, T80, {"card": "us-m1-platoon", "side": "us", "hex": "B1013"}])
    m1, t80, anon = state.counters
    assert (m1.steps, m1.formation, m1.spotted, m1.suppressed, m1.cover, m1.company, m1.designation) == \
        (2, "combat", False, False, False, "m1", "")
    assert (m1.facing, t80.facing) == (5, 2)
    assert (anon.id, anon.company) == ("u3", "u3")
    assert (m1.moved_first, m1.mp_used, m1.fatigued, m1.toc_bank, m1.deployed, m1.entrenched, m1.attached,
            m1.dummy) == (False, 0, False, 0, False, False, "", False)


# ------------------------------------------------------------------ passengers (8.A-B)
def test_passengers_ride_unseen_in_the_carriers_hex(game):
    state = setup(game, units=[u("apc", "us-m113-platoon", "us", "B1010", passengers=["inf"]),
                               u("inf", "us-mech-infantry-platoon", "us", "B1012", spotted=True), T80])
    inf = state.counters[1]
    assert (inf.carrier, inf.hex, inf.spotted) == ("apc", state.counters[0].hex, False)


@pytest.mark.parametrize("passenger", ["nobody", "apc", "t80", "m1"])
def test_impossible_passengers_are_refused(game, passenger):
    """8.A-B: only an existing friendly unit the circle, mobility and capacity allow (not a tank, not itself)."""
    units = [u("apc", "us-m113-platoon", "us", "B1010", passengers=[passenger]), M1, T80]
    refused(game, "/units/0/passengers/0", units=units)


def test_a_dummy_carries_nothing(game):
    units = [u("apc", "us-m113-platoon", "us", "B1010", passengers=["inf"], dummy=True),
             u("inf", "us-mech-infantry-platoon", "us", "B1012"), T80]
    refused(game, "/units/0/status/dummy", units=units)


# ------------------------------------------------------------------ extension
@pytest.mark.parametrize("extension, pointer", [
    ({"cup": 1}, "/extension"),
    ({"force_levels": {"nato": 1}}, "/extension/force_levels/nato"),
    ({"force_levels": {"us": 0}}, "/extension/force_levels/us"),
    ({"force_levels": {"us": 7}}, "/extension/force_levels/us"),
    ({"force_levels": {"us": "1"}}, "/extension/force_levels/us"),
    ({"morale": {"nobody": {"lost": 1}}}, "/extension/morale/nobody"),
    ({"morale": {"m1": {"lost": 1, "mood": "x"}}}, "/extension/morale/m1"),
    ({"morale": {"m1": 3}}, "/extension/morale/m1"),
    ({"morale": {"m1": {"state": "routed"}}}, "/extension/morale/m1/state"),
    ({"smoke": [{"hex": "Z0101", "kind": "chemical"}]}, "/extension/smoke/0"),
    ({"smoke": [{"hex": "B1010", "kind": "white"}]}, "/extension/smoke/0"),
    ({"smoke": [{"hex": "B1010", "kind": "chemical", "vertex": 6}]}, "/extension/smoke/0"),
    ({"smoke": ["B1010"]}, "/extension/smoke/0"),
    ({"markers": [{"hex": "B1010"}]}, "/extension/markers/0"),
    ({"markers": [{"hex": "Z0101", "value": 4}]}, "/extension/markers/0"),
    ({"markers": ["B1010"]}, "/extension/markers/0"),
    ({"wind": {"direction": "NNE", "strength": "light"}}, "/extension/wind"),
    ({"wind": {"direction": "N", "strength": "gale"}}, "/extension/wind"),
    ({"wind": "N"}, "/extension/wind"),
    ({"ops": {"nato": {"default": 1}}}, "/extension/ops/nato"),
    ({"ops": {"us": 2}}, "/extension/ops/us"),
    ({"ops": {"us": {"HQC1": -1}}}, "/extension/ops/us/HQC1"),
    ({"ops": {"us": {"HQC1": True}}}, "/extension/ops/us/HQC1"),
    ({"ops": {"us": {"HQC1": "2"}}}, "/extension/ops/us/HQC1"),
])
def test_bad_extension_values_are_refused_at_their_key(game, extension, pointer):
    refused(game, pointer, extension=extension)


def test_extension_values_are_read(game):
    ext = {"force_levels": {"soviet": 1, "us": 6}, "morale": {"m1": {"lost": 1, "state": "shaken"}},
           "smoke": [{"hex": "B1010", "kind": "incendiary", "vertex": 5, "removed_at": 4},
                     {"hex": "B1011", "kind": "chemical"}],
           "markers": [{"hex": "B1012", "value": 7}, {"hex": "B1013", "value": 0}],
           "wind": {"direction": "SW", "strength": "strong"}, "ops": {"us": {"HQC1": 0, "default": 3}}}
    state = setup(game, extension=ext, turn=2)
    label = state.game.map.label_of
    assert state.force_level == [1, 6]
    assert (state.morale["m1"].lost, state.morale["m1"].state) == (1, "shaken")
    assert [(label[s.hex], s.kind, s.vertex, s.placed, s.removed_at) for s in state.smoke] == \
        [("B1010", "incendiary", 5, 2, 4), ("B1011", "chemical", 0, 2, 3)]
    assert [(m.number, label[m.hex], m.value) for m in state.markers] == [(1, "B1012", 7), (2, "B1013", 0)]
    assert (state.wind_bearing, state.wind_speed) == (225, "strong")
    assert state.ops[1] == {"HQC1": 0, "default": 3}


def test_no_wind_direction_is_no_bearing(game):
    state = setup(game, extension={"wind": {"direction": "none", "strength": "light"}})
    assert (state.wind_bearing, state.wind_speed) == (-1, "light")
    assert setup(game, extension={"wind": {"direction": "N", "strength": "light"}}).wind_bearing == 0


# ------------------------------------------------------------------ who acts (2)
def test_the_side_to_act(game):
    """2: in a movement phase only the phasing side acts; in the artillery phase the Soviet player first, in a
    fire phase the phasing player first, unless ``to_act`` says otherwise."""
    refused(game, "/to_act", phase="us-move-1", to_act="soviet")
    assert setup(game, phase="us-move-1", to_act="us").current_player() == 1
    assert setup(game, phase="artillery").actor == 0
    assert setup(game, phase="artillery", to_act="us").actor == 1
    assert setup(game, phase="us-fire").actor == 1
    assert setup(game, phase="soviet-fire").actor == 0
    assert setup(game, phase="soviet-fire", to_act="us").actor == 1


def test_the_scenarios_own_set_up_when_units_are_absent(game):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                   "phase": "soviet-move-1", "extension": {"force_levels": {"soviet": 2, "us": 3}}})
    state = game.state_from_position(pos)
    assert sorted(c.id for c in state.counters) == sorted(c.id for c in game.initial_counters([2, 3]))


# ------------------------------------------------------------------ hidden information (8.C, 10, 12.D, 19.B, 24.B)
def hidden_state(game):
    """A U.S. fire phase: a spotted and an unspotted T-80 platoon, an unspotted BTR carrying infantry, one fire
    declared by each side and one fire mission of each side (the seen/unseen split of the observation)."""
    from studio.rulesets.assault.engine.artillery import Mission
    from studio.rulesets.assault.engine.game import Declared
    units = [M1, u("seen", "su-t80-platoon", "soviet", "B1013", spotted=True),
             u("hid", "su-t80-platoon", "soviet", "B2020"),
             u("btr", "su-btr70-platoon", "soviet", "B2120", passengers=["inf"]),
             u("inf", "su-motor-rifle-platoon", "soviet", "B2120")]
    state = setup(game, units=units, phase="us-fire", extension={"force_levels": {"soviet": 2, "us": 3}})
    state.declared = [Declared("m1", "KP", "seen"), Declared("seen", "KP", "m1")]
    h = state.game.map.hex("B1012")
    state.missions = [Mission(1, "x", h, "HE", 3), Mission(0, "y", h, "HE", 3)]
    state.counters[0].seen_start, state.counters[0].seen_run = ("seen", "hid"), {"seen": 2, "hid": 3}
    return state


def test_an_observation_shows_only_what_the_player_may_know(game):
    state = hidden_state(game)
    view = state.observation(1)
    assert sorted(c.id for c in view.counters) == ["m1", "seen"]
    m1 = next(c for c in view.counters if c.id == "m1")
    assert m1.seen_start == ("seen",) and m1.seen_run == {"seen": 2}
    assert [d.firer for d in view.declared] == ["m1"] and [m.firer for m in view.missions] == ["x"]
    assert view.force_level == [0, 3] and view.casualty_log == [] and view.events == []
    soviet = state.observation(0)
    assert sorted(c.id for c in soviet.counters) == ["btr", "hid", "inf", "seen"]   # m1 is not spotted
    assert soviet.force_level == [2, 0] and [m.firer for m in soviet.missions] == ["y"]
    assert state.observation(1).dice.fingerprint() == view.dice.fingerprint()   # seeded from what is seen


def test_a_scrambled_state_redraws_only_what_is_hidden(game):
    state = hidden_state(game)
    steps, dummies, declared_targets, mission_hexes, carried = set(), set(), set(), set(), set()
    for seed in range(60):
        out = state.scramble_hidden(1, seed)
        byid = {c.id: c for c in out.counters}
        assert (byid["m1"].hex, byid["seen"].hex, byid["seen"].steps, byid["seen"].dummy) == \
            (state.counters[0].hex, state.counters[1].hex, 2, False)
        steps.add(byid["hid"].steps)
        dummies.add(byid["hid"].dummy)
        carried.add(byid["inf"].carrier)
        own = [d for d in out.declared if d.firer == "m1"]
        assert own == [state.declared[0]]
        declared_targets |= {d.target for d in out.declared if d.firer == "seen"}
        assert [m for m in out.missions if m.side == 1] == [state.missions[0]]
        mission_hexes |= {m.hex for m in out.missions if m.side == 0}
        assert out.force_level[1] == 3 and 1 <= out.force_level[0] <= len(game.levels["soviet"])
        assert out.dice.fingerprint() == state.scramble_hidden(1, seed).dice.fingerprint()
    assert steps == {1, 2} and dummies == {True, False} and carried == {""}
    assert declared_targets == {"m1"}              # an enemy fire's target is unknown, but it is one of ours
    assert len(mission_hexes) > 1
