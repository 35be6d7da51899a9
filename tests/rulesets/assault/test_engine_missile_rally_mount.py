"""The missile-firer spotting step of the fire phase (ESoP fire phase 1-2, Assault 10.A, 10.D), the shaken HQ's
compulsory self-rally (17.C, example A98-A101 chain) and opportunity fire at a mounting unit (8.C, 15), through
positions and the public API."""
import functools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import assault_states as states  # noqa: E402
from assault_states import u  # noqa: E402,F401

from studio.model.validate import validate_paths  # noqa: E402

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


#: a state of the Probe set up from a position (``assault_states.state_of``)
state_of = functools.partial(states.state_of, scenario="assault-probe")


# ------------------------------------------------------------------ missile firers (ESoP fire phase 1-2)
def duel(**m901):
    return [u("su", "su-t80-platoon", "soviet", "A0520", spotted=True),
            u("m901", "us-m901-section", "us", "A0120", **m901)]


def test_an_unspotted_missile_firer_of_the_non_phasing_side_may_be_spotted_and_fired_on(index):
    """The M-901 (unspotted) declares its missile in the Soviet fire phase: the Soviet player tries to spot it
    first (roll 1 spots); it is spotted, so the Soviet player may declare at it, and only at it, before all
    fires are resolved together."""
    state = state_of(index, duel(), "soviet-fire", dice=[1])
    assert not any(a.endswith(" m901") for a in state.legal_actions())
    state.play("end")                                          # the Soviet player declares nothing yet
    state.play("fire m901 Msl su")
    assert state._by_id("m901").spotted and state.missile_spotted == ("m901",)
    assert any("spotting m901" in str(r) for r in state.dice.history)
    state.play("end")
    assert state.current_player() == 0 and state.phase_id() == "soviet-fire"
    legal = state.legal_actions()
    assert legal and all(a == "end" or a.endswith(" m901") for a in legal)
    assert "fire su KP m901" in legal
    state.play("fire su KP m901")
    state.play("end")
    assert state.phase_id() == "soviet-move-2"


def test_a_missile_firer_that_stays_unseen_ends_the_phase_as_before(index):
    state = state_of(index, duel(), "soviet-fire", dice=[10, 10, 10, 10, 10, 10])
    state.play("end")
    state.play("fire m901 Msl su")
    assert not state._by_id("m901").spotted and state.missile_spotted == ()
    state.play("end")
    assert state.phase_id() == "soviet-move-2"


def test_a_spotted_missile_firer_draws_no_spotting_roll(index):
    state = state_of(index, duel(spotted=True), "soviet-fire")
    state.play("end")
    state.play("fire m901 Msl su")
    assert not any("spotting" in str(r) for r in state.dice.history)


# ------------------------------------------------------------------ shaken HQ self-rally (17.C)
def hq_position(state_name):
    units = [u("hq", "us-hq", "us", "A0913", designation="HQC1", company="HQC1"),
             u("su", "su-t80-platoon", "soviet", "B2220")]
    return units, {"morale": {"HQC1": {"state": state_name}}}


@pytest.mark.parametrize("roll, after", [(8, "normal"), (9, "shaken")])
def test_a_shaken_hq_must_rally_itself_spending_one_op(index, roll, after):
    """At the start of its side's movement phase the shaken HQ rolls on its morale (8, 17.C) and pays 1 OP
    (constant hq-self-rally-ops) of its command rating; nobody chooses it."""
    units, ext = hq_position("shaken")
    state = state_of(index, units, "us-fire", extension=ext)
    rating = state.ratings[(1, "HQC1")][0]
    state.dice.force(roll)
    state.play("end")
    state.play("end")
    assert state.phase_id() == "us-move-2"
    assert state.morale["HQC1"].state == after
    assert state.ops[1]["HQC1"] == rating - 1
    assert not any(a == "rally-company HQC1" for a in state.legal_actions())     # tried once this phase


def test_a_broken_hq_does_not_rally_itself(index):
    """17.C: a broken HQ spends no OPs, so it cannot rally itself (a superior may, option c27)."""
    units, ext = hq_position("broken")
    state = state_of(index, units, "us-fire", extension=ext)
    state.play("end")
    state.play("end")
    assert state.morale["HQC1"].state == "broken" and "HQC1" not in state.ops[1]
    assert not any("self-rally" in str(r) for r in state.dice.history)


# ------------------------------------------------------------------ opportunity fire at mounting (8.C)
def mount_units():
    return [u("inf", "us-mech-infantry-platoon", "us", "A0913", spotted=True),
            u("apc", "us-m113-platoon", "us", "A0913", spotted=True),
            u("su", "su-t80-platoon", "soviet", "A1113", cover=True)]


def test_mounting_draws_opportunity_fire_before_the_unit_is_under_its_carrier(index):
    state = state_of(index, mount_units(), "us-move-1")
    state.play("mount inf apc")
    assert state.opp_target == "inf" and state.current_player() == 0
    assert not state._by_id("inf").carrier
    assert any(a.startswith("fire su ") and a.endswith(" inf") for a in state.legal_actions())
    state.play("end")
    assert state._by_id("inf").carrier == "apc" and state.current_player() == 1


def test_a_unit_suppressed_while_mounting_a_suppressed_armoured_carrier_stays_down(index):
    """The carrier suppressed meanwhile (an AFV) takes nobody aboard (11.A.1)."""
    state = state_of(index, mount_units(), "us-move-1")
    state.play("mount inf apc")
    state._by_id("apc").suppressed = True
    state.play("end")
    assert not state._by_id("inf").carrier
