"""MBT Advanced Game transported fire (MBT 6.6.7.2; example MA45), through positions, legal actions, play and the
narration: a squad riding an M113 (no protection) or a BMP-2 (Under Armor) fires its GP weapons."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

from studio.rulesets.mbt.engine.adv_move_data import adv_move  # noqa: E402
from studio.rulesets.mbt.engine.codes import MFIRE, MFIRE_SA  # noqa: E402

A2, B2, D2 = clear_pair(2)
A3, B3, D3 = clear_pair(3)


def _ride(carrier="m113", cmd="NC", pair=(A3, B3, D3), dice=(50, 99, 99, 99, 99), mark=None):
    a, b, d = pair
    side, foe = ("us", "sov") if carrier == "m113" else ("sov", "us")
    squad, target = ("us-mech-squad", "sov-mr-squad") if side == "us" else ("sov-mr-squad", "us-mech-squad")
    cstatus = {"command": cmd, **({"mark": mark} if mark else {})}
    units = [unit("C", carrier, side, a, d, **cstatus), unit("P", squad, side, a, d, carried_by="C"),
             unit("T", target, foe, b, (d + 3) % 6)]
    return adv_state(units, phase="direct-fire-first", to_act=side, dice=list(dice))


def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def _net(st, name: str) -> int:
    ev = [e for e in st.events if e.startswith(f"{name} fires ")][-1]
    return int(re.search(r"roll \d+([+-]\d+) =", ev).group(1))


def test_values_from_the_text():
    v = adv_move(adv_state([unit("T", "t-80bv", "sov", A3, 0)]).game).val
    assert (v["transported-gp"], v["transported-ua-range"]) == (-10, 2)  # MA45


def test_a_passenger_fires_its_gp_weapons_when_the_carrier_has_no_move_command():
    for cmd in ("NC", "FIRE", "SH", "OW"):
        st = _ride(cmd=cmd)
        assert any(a.startswith("fire P at T ") for a in _legal(st)), cmd
    assert not any(a.startswith("fire P ") for a in _legal(_ride(cmd="MOVE")))


def test_transported_modifier_minus_10_and_no_short_halt_modifier():
    # the same squad dismounted in the carrier's hex with a Fire command: the passenger's net is 10 lower; with the
    # carrier on Short Halt it is the same as with N/C (the SH modifier is not applied, MBT 6.6.7.2)
    st = _ride()
    act(st, "fire P at T rifles:GP")
    rider = _net(st, "P")
    assert any(e == "P fires from C (transported fire)" for e in st.events)
    foot = adv_state([unit("C", "m113", "us", A3, D3, command="NC"),
                      unit("P", "us-mech-squad", "us", A3, D3, command="FIRE"),
                      unit("T", "sov-mr-squad", "sov", B3, (D3 + 3) % 6)], to_act="us", dice=[50, 99, 99, 99])
    act(foot, "fire P at T rifles:GP")
    assert rider == _net(foot, "P") - 10
    sh = _ride(cmd="SH")
    act(sh, "fire P at T rifles:GP")
    rest = [a for a in _legal(sh) if a.split()[1] == "C"]
    if rest:  # the carrier's own Short Halt shot is announced too; the passenger's resolves first
        act(sh, rest[0])
    assert _net(sh, "P") == rider


def test_under_armor_carrier_limits_the_range_to_two():
    near = _ride("bmp-2", "FIRE", (A2, B2, D2))
    assert any(a.startswith("fire P at T ") for a in _legal(near))
    far = _ride("bmp-2", "FIRE", (A3, B3, D3))
    assert 2 in far.spots[1]  # the passenger spots the squad 3 hexes away ...
    assert not any(a.split()[1] == "P" for a in _legal(far))  # ... but may not fire (nor is asked to hold)
    assert any(a.startswith("fire P at T ") for a in _legal(_ride("m113", "NC", (A3, B3, D3))))  # no protection


def test_the_carrier_is_marked_for_small_arms_fire_and_keeps_a_full_spot_fire():
    st = _ride()
    act(st, "fire P at T rifles:GP")
    assert st.mk[0] == MFIRE_SA
    full = _ride(mark="spot-fire")
    act(full, "fire P at T rifles:GP")
    assert full.mk[0] == MFIRE


def test_only_gp_rows_fire_from_a_carrier():
    st = _ride()
    rows = {a.split()[-1] for a in _legal(st) if a.startswith("fire P ")}
    g = st.game
    kinds = {r.key: r.kind for r in g.units[1].type.ap}
    assert rows and all(kinds[k] == "GP" for k in rows)


def test_towed_passengers_do_not_fire():
    # MBT 6.6.7.2 names squads, half-squads and sections: the SPG-9 (a towed unit carried like a leg unit) does not
    a, b, d = A2, B2, D2
    units = [unit("C", "bmp-2", "sov", a, d, command="NC"), unit("P", "spg-9", "sov", a, d, carried_by="C"),
             unit("T", "us-mech-squad", "us", b, (d + 3) % 6)]
    st = adv_state(units, phase="direct-fire-first", to_act="sov", dice=[50, 99, 99])
    assert not any(a.split()[1] == "P" for a in _legal(st))
    assert st.riding(1) == -1 and st.riding(1, fire=False) == -1


def test_a_passenger_spots_for_itself_even_when_it_may_not_fire():
    # its own spotting attempt: the target in range and sight, not a unit far away; with a Move carrier it still
    # spots (the command rules the fire, MBT 6.6.7.2) but may not fire
    st = _ride(cmd="MOVE")
    assert 2 in st.spots[1]
    far = _ride(pair=(A3, "4T13", D3))
    assert not far.spots[1]


def test_a_passenger_fires_no_ap_or_atgm_rows_at_a_vehicle():
    a, b, d = A3, B3, D3
    units = [unit("C", "m113", "us", a, d, command="NC"), unit("P", "us-mech-squad", "us", a, d, carried_by="C"),
             unit("T", "bmp-2", "sov", b, (d + 3) % 6)]
    st = adv_state(units, phase="direct-fire-first", to_act="us", dice=[50, 99, 99])
    kinds = {r.key: r.kind for r in st.game.units[1].type.ap}
    assert any(k != "GP" for k in kinds.values())  # the squad has AT weapons ...
    rows = [x.split()[-1] for x in _legal(st) if x.startswith("fire P ")]
    assert all(kinds[k] == "GP" for k in rows)  # ... which it does not fire from the carrier
