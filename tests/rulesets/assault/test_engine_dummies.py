"""Dummy counters (Assault 10.F, 18; example A61), through positions and the public API (observation included)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def game_of(index, **options):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options} | options)


def state_of(index, units, phase, dice=(), extension=None, **options):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": phase, "units": units, "extension": extension or {}})
    state = game_of(index, **options).state_from_position(pos)
    state.dice.force(*dice)
    return state


def u(uid, card, side, hexlabel, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


def test_set_up_places_the_scenarios_dummies_hidden_from_the_enemy(index):
    """Assault 10.F, 24: the probe lists 4 Soviet and 2 U.S. dummies; each is in a friendly counter's hex,
    imitating its card, unspotted; the enemy's observation holds none of them, the owner's all."""
    state = game_of(index).new_initial_state(3)
    dummies = [c for c in state.counters if c.dummy]
    assert sorted(c.side for c in dummies) == [0, 0, 0, 0, 1, 1]
    for d in dummies:
        host = [c for c in state.counters if not c.dummy and c.hex == d.hex and c.side == d.side]
        assert host and d.card in {c.card for c in host} and not d.spotted
    for player in (0, 1):
        seen = state.observation(player).counters
        assert sorted(c.id for c in seen if c.dummy) == sorted(d.id for d in dummies if d.side == player)
        assert not any(c.company == d.company for c in seen for d in dummies if d.side != player)
        assert not any(k == d.company for k in state.observation(player).morale for d in dummies)


def test_A61_a_spotted_dummy_is_removed(index):
    """A dummy M-1 driving into clear terrain in sight of a T-80 platoon is spotted at once (10.E) and so removed
    (10.F); it goes to its side's pool and no step is lost."""
    state = state_of(index, [u("d", "us-m1-platoon", "us", "A0913", dummy=True),
                             u("su", "su-t80-platoon", "soviet", "A1313")], "us-move-1")
    state.play("move d A1013")
    assert [c.id for c in state.counters] == ["su"]
    assert state.dummy_pool == [0, 1] and state.lost_steps == [0, 0]
    assert state.current_player() == 1                        # no opportunity-fire decision at a dummy


def test_A61_a_dummy_returns_with_an_unspotted_unit_at_the_start_of_a_movement_phase(index):
    state = state_of(index, [u("inf", "us-mech-infantry-platoon", "us", "A0913", formation="march"),
                             u("m1", "us-m1-platoon", "us", "A0915", spotted=True),
                             u("su", "su-t80-platoon", "soviet", "B2220")], "us-move-1")
    assert not any(a.startswith("dummy ") for a in state.legal_actions())       # the pool is empty
    state.dummy_pool[1] = 1
    assert [a for a in state.legal_actions() if a.startswith("dummy ")] == ["dummy inf"]   # m1 is spotted
    state.play("dummy inf")
    new = state.counters[-1]
    assert new.dummy and new.hex == state.game.map.hex("A0913") and new.card == "us-mech-infantry-platoon"
    assert state.dummy_pool == [0, 0]
    state.dummy_pool[1] = 1
    state.play("move inf A0914")
    assert not any(a.startswith("dummy ") for a in state.legal_actions())       # only before any move


def test_a_dummy_needs_no_operations_points_and_never_fires(index):
    """10.F: a dummy moves as the unit it imitates, but it is nobody's order (4.C) and fires nothing (12)."""
    units = [u("d", "us-m1-platoon", "us", "A0120", dummy=True), u("m1", "us-m1-platoon", "us", "A0118"),
             u("su", "su-t80-platoon", "soviet", "A0520", spotted=True)]
    state = state_of(index, units, "us-move-1", extension={"ops": {"us": {}}})
    legal = state.legal_actions()
    assert any(a.startswith("move d ") for a in legal) and not any(a.startswith("move m1 ") for a in legal)
    fire = state_of(index, units, "us-fire")
    shots = fire.legal_actions()
    assert any(a.startswith("fire m1 ") for a in shots) and not any(a.startswith("fire d ") for a in shots)


def test_a_dummy_spots_as_a_non_recon_armoured_vehicle(index):
    """10.F: a dummy imitating infantry spots with the armoured-vehicle modifier (spotter-status, -1)."""
    units = [u("d", "us-mech-infantry-platoon", "us", "A0120", dummy=True),
             u("inf", "us-mech-infantry-platoon", "us", "A0121"), u("su", "su-t80-platoon", "soviet", "A0520")]
    state = state_of(index, units, "us-move-1")
    d, inf, su = state.counters
    su.cover = True                                           # not 'Auto' in clear: a number
    mod = state.game.spotter_mod["armored-vehicle"]
    assert state._spot_number(d, su, moving=False) == state._spot_number(inf, su, moving=False) + mod


def test_a_dummy_found_in_an_enemy_hex_is_removed_and_does_not_stop_the_mover(index):
    """10.F, 7.B: a real enemy entering the dummy's hex finds it; it is removed and the mover goes on."""
    state = state_of(index, [u("d", "su-t80-platoon", "soviet", "A0914", dummy=True),
                             u("m1", "us-m1-platoon", "us", "A0913", formation="march"),
                             u("su", "su-t80-platoon", "soviet", "B2220")], "us-move-1")
    state.play("move m1 A0914")
    assert [c.id for c in state.counters] == ["m1", "su"] and state.dummy_pool == [1, 0]
    assert any(a.startswith("move m1 ") for a in state.legal_actions())


def test_a_dummy_may_occupy_an_entrenchment(index):
    """Assault 18: dummies may occupy entrenchments (A1111 is one of the probe's)."""
    state = state_of(index, [u("d", "us-mech-infantry-platoon", "us", "A1111", dummy=True),
                             u("su", "su-t80-platoon", "soviet", "B2220")], "us-move-1")
    state.play("entrench d")
    assert state.counters[0].entrenched


def test_dummies_take_no_fire_and_add_no_defence_steps(index):
    """Indirect fire on a hex attacks its units, not a dummy in it; a dummy adds nothing to the steps of the
    conventional defence (14.A) nor to the AFV steps of the hit number (13.A.3)."""
    units = [u("d", "us-m1-platoon", "us", "A0913", dummy=True), u("m1", "us-m1-platoon", "us", "A0913"),
             u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units, "us-move-1")
    alone = state_of(index, units[1:], "us-move-1")
    su, m1 = state._by_id("su"), state._by_id("m1")
    assert state._hit_situation(su, m1, "KP") == alone._hit_situation(alone._by_id("su"), alone._by_id("m1"), "KP")
    assert state._hit_situation(su, m1, "KP").afv_steps == 2
    state.dice.force(10)
    state._bombard(m1.hex, 1, "clear")
    assert [r for r in state.dice.history if "indirect fire" in str(r)] == [("indirect fire m1", 10)]


def test_scrambled_states_draw_the_dummy_flag_of_hidden_enemies(index):
    """What is hidden about an unspotted enemy includes whether it is a dummy (10.F)."""
    state = game_of(index).new_initial_state(5)
    flags = set()
    for seed in range(12):
        scrambled = state.scramble_hidden(1, seed)
        flags |= {c.dummy for c in scrambled.counters if c.side == 0 and not c.spotted}
    assert flags == {True, False}


def test_set_up_dummies_imitate_units_that_move(index):
    """The engine never places a dummy as a static or indirect fire unit (10.F: it moves 'as normal units')."""
    for seed in range(3):
        state = game_of(index).new_initial_state(seed)
        for d in (c for c in state.counters if c.dummy):
            body = state.game.card(d.card).body
            assert body.mobility != "S" and body.indirect_fire is None
        ids = [c.id for c in state.counters]
        assert len(ids) == len(set(ids))


def test_no_dummy_returns_after_an_order_was_paid(index):
    state = state_of(index, [u("inf", "us-mech-infantry-platoon", "us", "A0913"),
                             u("m1", "us-m1-platoon", "us", "A0915"),
                             u("su", "su-t80-platoon", "soviet", "B2220")], "us-move-1")
    state.dummy_pool[1] = 1
    assert "dummy inf" in state.legal_actions()
    state.counters[1].paid = True
    assert not any(a.startswith("dummy ") for a in state.legal_actions())
