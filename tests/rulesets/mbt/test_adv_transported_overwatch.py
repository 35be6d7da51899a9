"""MBT Advanced Game: the passenger of a carrier with an Overwatch command (MBT 6.6.7.2, 6.5.3), option
``passenger-overwatch``: in the Direct Fire Step (default) or as Overwatch fire with its carrier; through positions,
legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

A3, B3, D3 = clear_pair(3)


def _units(target_cmd=None):
    t = {"command": target_cmd} if target_cmd else {}
    return [unit("C", "m113", "us", A3, D3, command="OW"), unit("P", "us-mech-squad", "us", A3, D3, carried_by="C"),
            unit("T", "sov-mr-squad", "sov", B3, (D3 + 3) % 6, **t)]


def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def _df(option):
    return adv_state(_units(), phase="direct-fire-first", to_act="us", options={"passenger-overwatch": option})


def _moving_target(option):
    st = adv_state(_units("MOVE"), phase="move-first", to_act="sov", dice=[99] * 8,
                   options={"passenger-overwatch": option})
    act(st, "move T")
    act(st, "fwd T")  # two hexes from the carrier: the US Overwatch window opens (MBT 6.5.3)
    return st


def test_direct_fire_step_by_default():
    assert any(a.startswith("fire P at T ") for a in _legal(_df("direct-fire-step")))
    assert not any(a.startswith("ow P ") for a in _legal(_moving_target("direct-fire-step")))


def test_with_carrier_the_passenger_fires_overwatch_not_in_the_direct_fire_step():
    assert not any(a.startswith("fire P ") for a in _legal(_df("with-carrier")))
    st = _moving_target("with-carrier")
    shots = [a for a in _legal(st) if a.startswith("ow P at T ")]
    assert shots
    act(st, shots[0])
    assert st.fired[1] and any("P fires from C (transported fire)" == str(e) for e in st.events)
    assert not any(a.startswith("ow P ") for a in _legal(st))  # once a turn
