"""MBT SAMs against fixed-wing aircraft (MBT 6.7.8.1.1-6.7.8.2.1): tail-chase (MT) and all-round (MA) tracking,
the doubled SAM requirement and radar-guided half, the minimum range, CM-rating spoofing. The sample data has no
SAM card: the tests give the ZSU-23-4 card a SAM weapon instead of its guns (test data only)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio.rules.position import position_state
from studio.rulesets.mbt.engine import game as G

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, index, unit  # noqa: E402
from test_adv_air_fw import SCENARIO, US, _aa_roll_for, fly  # noqa: E402


def _sam(aspect: str, guidance: str = "IR", cm: int | None = 5) -> dict:
    return {"id": "sam", "name": "test SAM", "rof": "N", "sight": {"primary": "O"}, "tt_factor": 360, "min_range": 3,
            "weapon_type": "sam",
            "aa": {"modifier": 0, "sam": {"aspect": aspect, "guidance": guidance, "cm_rating": cm}},
            "ammo": [{"ammo_type": "SAM", "kind": "GP", "range": {"P": 4, "S": 8, "M": 12, "L": 16, "E": 20},
                      "gp_factor": {"P": 8, "S": 8, "M": 8, "L": 8, "E": 8}}]}


class _SamIndex:
    """The project index whose ZSU-23-4 card carries one SAM weapon."""

    def __init__(self, idx, weapon: dict):
        self._idx, self._weapon = idx, weapon

    def model(self, kind, mid):
        m = self._idx.model(kind, mid)
        if kind == "unit" and mid == "zsu-23-4":
            from studio.rulesets.mbt.cards import Weapon

            m = m.model_copy(update={"body": m.body.model_copy(update={"weapons": [Weapon(**self._weapon)]})})
        return m

    def __getattr__(self, name):
        return getattr(self._idx, name)


def _state(units, weapon: dict, loads=("bomb",), dice=()):
    from studio.rulesets.mbt.cards import AircraftAssignment

    idx = _SamIndex(index(), weapon)
    sc = idx.model("scenario", SCENARIO)
    ext = sc.extension.model_copy(update={"aircraft": [AircraftAssignment(side="us", aircraft="a-10",
                                                                          loads=list(loads))]})
    g = G.create_game(sc.model_copy(update={"extension": ext}), idx)
    st = position_state(g, {"scenario": SCENARIO, "phase": "air-1", "turn": 3, "units": list(units) + [US],
                            "dice": list(dice), "to_act": "us"})
    st.dice.record = True
    return st


def _site(hex_: str) -> dict:
    return unit("Z", "zsu-23-4", "sov", hex_, 0, command="OW")


@pytest.mark.parametrize("aspect, tracked", [("MA", True), ("MT", False)])
def test_tail_chase_sams_track_only_from_the_rear(aspect, tracked):
    # MBT 6.7.8.1.1: an MT SAM tracks only while the aircraft flies away from it (its rear 120); an MA SAM from any
    # angle, and an aircraft entering in its LOS is tracked at once
    st = fly(_state([_site("2B9")], _sam(aspect)), "A-10A-1", "slow", "medium", "2B1", "S")
    assert bool(st.fw.pending) == tracked


def test_sam_minimum_range():
    # MBT 6.7.8.1.2: range at least the missile's minimum (3 here); tracking is not affected by it
    st = fly(_state([_site("2B3")], _sam("MA")), "A-10A-1", "slow", "medium", "2B1", "S")
    assert not st.fw.pending  # range 2
    for _ in range(5):
        act(st, "wing A-10A-1 ahead")
    assert st.fw.pending  # 2B6: range 3, tracked since the entry


def test_sam_tracking_requirement_doubled_and_radar_halved():
    # MBT 6.7.8.1.1: SAMs x2; radar-guided SAMs x1/2; both: the listed Track range (Slow/Medium 5, placeholder)
    ir = _state([_site("2B9")], _sam("MT"))
    radar = _state([_site("2B9")], _sam("MA", "radar"))
    base = ir.game.air.spotting[("slow", "medium")][1]
    assert ir.aa_requirement(0, ir.game.units[0].type.ap[0], "slow", "medium") == 2 * base
    assert radar.aa_requirement(0, radar.game.units[0].type.ap[0], "slow", "medium") == base


@pytest.mark.parametrize("roll, spoofed", [(5, True), (6, False)])
def test_ecm_pod_spoofs_a_sam_at_or_under_its_cm_rating(roll, spoofed):
    # MA66: roll (10) <= the SAM's CM rating (5) -> No Effect, whatever the radar state
    st = fly(_state([_site("2B9")], _sam("MA"), loads=("ecm-pod",)), "A-10A-1", "slow", "medium", "2B1", "S")
    st.dice.force(_aa_roll_for(st, "down"), roll, 9)
    act(st, "ow Z at A-10A-1 sam:SAM")
    assert any("spoofed" in e for e in st.events) == spoofed
    assert st.fw.dead == [not spoofed]
