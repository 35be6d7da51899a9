"""MBT Advanced Game helicopter manoeuvres and rappelling (MBT 6.7.5.2-6.7.5.3.4, 6.7.6.4): movement costs of
forward and reverse flight, side slips, pylon and funnel turns (MA58), the facing a flight ends with, the
allowance spent and moving ATGM fire (MA62), rappelling (MA59), through positions and legal actions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio.hexgrid.coords import FLAT_DIRECTION_NAMES as FACINGS, distance, neighbour

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, unit  # noqa: E402

H0 = "2T4"  # a Clear hex in the middle of the sample boards, facing 0 (N)


def _ahead(h, d: int, n: int = 1):
    for _ in range(n):
        h = neighbour(h, d % 6)
    return h


def _costs(goal, budget: int = 10, start=H0, facing: int = 0):
    """Facing -> cheapest cost of ending in ``goal`` (the engine's flight search)."""
    from studio.rulesets.mbt.engine.heli_manoeuvre import facing_costs

    g = adv_game()
    return facing_costs(g, g.air.flight, g.map.hex(start), facing, budget, goal)


def _state(units, dice=(), side="us", options=None):
    return adv_state(list(units), phase="air-1", to_act=side, dice=dice, options=options)


# ------------------------------------------------------------------ movement costs (MA58, MBT 6.7.5.2)

def test_ma58_forward_one_per_hex_with_a_free_turn_of_one_hexside():
    # MBT 6.7.5.2, 6.7.5.2.1: forward 1 per hex; a turn of one hexside per new hex entered, free
    h = adv_game().map.hex(H0)
    c = _costs(_ahead(h, 0))
    assert c[0] == c[1] == c[5] == 1
    assert min(c[2], c[3], c[4]) > 1  # two or three hexsides are not one turn


def test_ma58_no_turn_at_the_start_of_a_move():
    # MBT 6.7.5.2.1: helicopters must enter a new hex to turn; with 1 to spend only the hex ahead is reached
    from studio.rulesets.mbt.engine.heli_manoeuvre import reachable

    g = adv_game()
    h = g.map.hex(H0)
    assert _costs(h, budget=1) == {0: 0}
    assert reachable(g, g.air.flight, h, 0, 1) == {h, _ahead(h, 0)}


def test_ma58_reverse_two_per_hex():
    # MBT 6.7.5.2.2: reverse 2 per hex (5 hexes back: 10, the whole NOE allowance)
    h = adv_game().map.hex(H0)
    assert _costs(_ahead(h, 3))[0] == 2
    assert _costs(_ahead(h, 3, 5))[0] == 10


def test_ma58_side_slip_one_per_hex_at_least_two_hexes():
    # MBT 6.7.5.2.3: a side slip keeps the facing, 1 per hex, at least 2 hexes: 2 hexes ahead-right cost 2,
    # the single hex ahead-right with the facing kept costs more than one slip hex
    h = adv_game().map.hex(H0)
    assert _costs(_ahead(h, 1, 2))[0] == 2
    assert _costs(_ahead(h, 5, 2))[0] == 2
    assert _costs(_ahead(h, 1))[0] > 1


def test_ma58_reverse_side_slip_two_per_hex():
    # MBT 6.7.5.2.3: side slip in reverse, 2 per hex, at least 2 hexes (behind-right twice: 4)
    h = adv_game().map.hex(H0)
    assert _costs(_ahead(h, 2, 2))[0] == 4


def test_ma58_pylon_two_and_funnel_three_per_hex():
    # MBT 6.7.5.2.4: a pylon turn circles the hex in front nose on it, 2 per hex; a funnel turn circles the hex
    # behind tail on it, 3 per hex
    h = adv_game().map.hex(H0)
    assert _costs(_ahead(h, 1))[5] == 2          # one pylon hex: nose still on the hex ahead (facing 5)
    assert _costs(_ahead(_ahead(h, 1), 0))[4] <= 4  # two pylon hexes around the same hex (or cheaper ways)
    assert _costs(_ahead(h, 4))[5] == 3          # one funnel hex: tail still on the hex behind
    assert _costs(_ahead(h, 1), facing=3)[2] == 3  # the same facing 3 round: tail on the hex behind (hexside 0)
    assert _costs(_ahead(h, 4), facing=3)[2] == 2  # and a pylon hex from there, nose on the hex ahead (hexside 3)


def test_ma58_forward_and_reverse_never_mix():
    # MBT 6.7.5.2.2: forward 1 then reverse 2 back would face the start hex the other way for 3 (a free turn):
    # not allowed in one Air Phase, so turning in place by flying costs more
    h = adv_game().map.hex(H0)
    assert min(c for f, c in _costs(h).items() if f != 0) > 3


def test_ma58_slip_and_pylon_example_within_eight():
    # MA58 [derived]: NOE 10, slipping 2 hexes (2) and 3 pylon hexes (6) spend 8: that end is reached for 8 or
    # less (the engine spends the cheapest manoeuvres to it)
    h = adv_game().map.hex(H0)
    x, f = _ahead(h, 1, 2), 0
    for _ in range(3):
        x, f = neighbour(x, (f + 1) % 6), (f - 1) % 6
    assert _costs(x)[f] <= 8


# ------------------------------------------------------------------ flights through the legal actions

def _roomy(ahead: int, behind: int):
    """A hex and facing with ``ahead`` hexes on the map in front and ``behind`` behind."""
    g = adv_game()
    return next((h, f) for f in range(6) for h in sorted(g.hexes) if _ahead(h, f, ahead) in g.map.label_of and
                _ahead(h, f + 3, behind) in g.map.label_of)


def test_flights_offer_only_hexes_the_manoeuvres_reach():
    # MBT 6.7.5.2: NOE 10: 10 ahead is reached, 5 straight behind too (reverse, 10); 9 straight behind is not
    # (reverse 18; turning round by forward flight takes three hexes entered before heading back)
    g = adv_game()
    for ahead, behind in ((10, 5), (0, 9)):
        h, f = _roomy(ahead, behind)
        st = _state([unit("H", "ah-1s", "us", g.label(h), f)])
        flights = {a[2] for a in st.legal_actions() if a[0] == "fly" and a[3:] == ()}
        assert g.label(_ahead(h, f, ahead)) in flights
        assert (g.label(_ahead(h, f + 3, behind)) in flights) == (behind == 5)


def test_a_flight_ends_facing_its_cheapest_way_and_face_picks_another():
    # MBT 6.7.5.2: 5 hexes in reverse keep the facing (10 spent); forward 3 hexes keep it (3 spent); ``face``
    # picks another facing the allowance reaches, spending what its manoeuvres cost
    st = _state([unit("H", "ah-1s", "us", H0, 0)])
    g = st.game
    h = g.map.hex(H0)
    act(st, f"fly H {g.label(_ahead(h, 0, 3))}")
    assert st.fac[0] == 0 and st.heli_spent[0] == 3 and not st.hover[0]
    faces = {a[2] for a in st.legal_actions() if a[0] == "face"}
    assert faces == {FACINGS[f] for f in range(1, 6)}
    act(st, f"face H {FACINGS[1]}")
    assert st.fac[0] == 1 and st.heli_spent[0] == _costs(_ahead(h, 0, 3))[1]
    assert any("ends its flight facing" in e for e in st.events)


def test_a_hovering_helicopter_turns_freely():
    # MBT 6.7.5.1.1, 6.7.5.2.1: hovering (no allowance spent) it may turn any number of hexsides
    st = _state([unit("H", "ah-1s", "us", H0, 0)])
    act(st, f"fly H {H0}")
    assert {a[2] for a in st.legal_actions() if a[0] == "face"} == set(FACINGS[1:])
    act(st, f"face H {FACINGS[3]}")
    assert st.fac[0] == 3 and st.hover[0] and st.heli_spent[0] == 0


@pytest.mark.parametrize("ahead, ok", [(5, True), (-3, False)])
def test_ma62_moving_atgm_after_at_most_half_the_allowance_spent(ahead, ok):
    # MA62: CL 1/2 ATGMs fire while moving after at most half the allowance spent (NOE 10 -> 5): 5 hexes forward
    # spend 5; 3 hexes in reverse spend 6, fewer hexes but more than half
    g = adv_game()
    h, d = next((h, d) for d in range(6) for h in sorted(g.hexes) if _ahead(h, d, 8) in g.map.label_of and
                _ahead(h, d + 3, 5) in g.map.label_of)
    a, b = g.label(h), g.label(_ahead(h, d, 8))
    st = _state([unit("H", "ah-1s", "us", a, (d + 3) % 6), unit("T", "t-80bv", "sov", b, 0)])
    g = st.game
    tow = next(r for r in g.units[0].type.ap if r.weapon == "tow")
    to = _ahead(g.map.hex(a), d + 3, ahead) if ahead > 0 else _ahead(g.map.hex(a), d, -ahead)
    act(st, f"fly H {g.label(to)}")
    assert st.heli_spent[0] == (5 if ok else 6) and st.fac[0] == (d + 3) % 6
    assert st.weapon_ok(0, 1, tow) == ok


# ------------------------------------------------------------------ rappelling (MA59, MBT 6.7.5.3.4)

def _hind(hex_="2A1", facing=2, dice=(), options=None, extra=()):
    squad = unit("P", "sov-mr-squad", "sov", hex_, facing, carried_by="H")
    units = [unit("H", "mi-24", "sov", hex_, facing), unit("M", "m1", "us", "4T14", 5), squad] + list(extra)
    return adv_state(units, phase="air-1", to_act="sov", dice=dice, options=options)


def _qm_top(st, p):
    from studio.rulesets.mbt.engine.opt_move_data import move_opt

    return move_opt(st.game).qm_supp[st.unit_grade(p)]


def test_ma59_rappel_costs_half_the_allowance_once():
    # MA59: rappel at NOE for floor(MSA / 2) (Mi-24 NOE 10: 5) for any number of leg units, from hover or after
    # a flight of at most 5; the helicopter stays hovering
    st = _hind(dice=[100])
    act(st, "fly H 2A1")
    assert "rappel H P" in [str(a) for a in st.legal_actions()]
    act(st, "rappel H P")
    assert st.carrier[2] == -1 and st.hex[2] == st.hex[0] and st.heli_spent[0] == 5 and st.hover[0]
    assert "popup H" in [str(a) for a in st.legal_actions()]  # still hovering: combat goes on
    far = _hind()
    g = far.game
    act(far, f"fly H {g.label(_ahead(g.map.hex('2A1'), 2, 6))}")
    assert far.heli_spent[0] == 6 and not [a for a in far.legal_actions() if a[0] == "rappel"]


def test_ma59_no_rappelling_at_low_or_into_woods():
    # MBT 6.7.5.3.4: at NOE only; not into Woods (nor Heavy Woods, Water)
    st = _hind()
    g = st.game
    act(st, "fly H 2A1 low")
    assert not [a for a in st.legal_actions() if a[0] == "rappel"]
    woods = next(h for h in sorted(g.hexes) if g.map.terrain.get(h) == "W")
    st = _hind(hex_=g.label(woods))
    act(st, f"fly H {g.label(woods)}")
    assert not [a for a in st.legal_actions() if a[0] == "rappel"]


def test_rappel_quickmarch_check_plus_twenty():
    # MBT 6.7.5.3.4: the Quickmarch Suppression check (Unit Grade range 01-top) with +20 for rappelling on the
    # roll (option rappel-modifiers 'roll'): top - 20 Suppresses, top - 19 does not
    st = _hind()
    top = _qm_top(st, 2)
    for roll, suppressed in ((top - 20, True), (top - 19, False)):
        st = _hind(dice=[roll])
        act(st, "fly H 2A1")
        act(st, "rappel H P")
        assert bool(st.sup[2]) == suppressed
        assert any("rappels from H" in e and f"roll {roll}+20" in e for e in st.events)


def test_rappel_terrain_and_smoke_modifiers():
    # MBT 6.7.5.3.4: Rough -20 (with +20: net 0), so the roll itself is checked against the range
    g = adv_game()
    rough = next((h for h in sorted(g.hexes) if g.map.terrain.get(h) == "R"), None)
    if rough is None:
        pytest.skip("no Rough hex on the sample boards")
    st = _hind(hex_=g.label(rough))
    top = _qm_top(st, 2)
    st = _hind(hex_=g.label(rough), dice=[top])
    act(st, f"fly H {g.label(rough)}")
    act(st, "rappel H P")
    assert st.sup[2]


def test_option_rappel_modifiers_range_widens_the_range():
    # option rappel-modifiers 'range': the +20 widens 01-top to 01-(top+20): top + 1 Suppresses
    st = _hind()
    top = _qm_top(st, 2)
    for option, suppressed in (("roll", False), ("range", True)):
        st = _hind(dice=[top + 1], options={"rappel-modifiers": option})
        act(st, "fly H 2A1")
        act(st, "rappel H P")
        assert bool(st.sup[2]) == suppressed


def test_rappel_into_brew_up_smoke_minus_ten():
    # MBT 6.7.5.3.4: Smoke in the hex (Brew Up smoke included) -10: net +10, so top - 10 Suppresses, top - 9 not
    top = _qm_top(_hind(), 2)
    for roll, suppressed in ((top - 10, True), (top - 9, False)):
        squad = unit("P", "sov-mr-squad", "sov", "2A1", 2, carried_by="H")
        units = [unit("H", "mi-24", "sov", "2A1", 2), unit("M", "m1", "us", "4T14", 5), squad]
        st = adv_state(units, phase="air-1", to_act="sov", dice=[roll], wrecks={"2A1": "brewed-up"})
        act(st, "fly H 2A1")
        act(st, "rappel H P")
        assert bool(st.sup[2]) == suppressed


def test_towed_units_never_rappel():
    # MBT 6.7.5.3.4: leg units only; towed units (the SPG-9, carried like a leg unit) may not rappel
    gun = unit("G", "spg-9", "sov", "2A1", 2, carried_by="H")
    st = _hind(extra=[gun])
    assert st.carrier[3] == 0
    act(st, "fly H 2A1")
    assert {a[2] for a in st.legal_actions() if a[0] == "rappel"} == {"P"}


# ------------------------------------------------------------------ the vectorised search against a plain one

def _reference_costs(g, start, facing: int, budget: int) -> dict:
    """(hex, facing) -> cheapest cost by a plain Dijkstra over the rule states of MBT 6.7.5.2 (the engine searches
    all states at once with arrays; this is the same rules written step by step)."""
    import heapq

    rules = g.air.flight
    c, k = rules.costs, rules.slip_min
    best = {}
    for reverse in (False, True):
        back = 3 if reverse else 0
        first = (start, facing, "normal", 0, 0, 0)  # hex, facing, mode, slip side, slip count, circling side
        seen, heap, n = {first: 0}, [(0, 0, first)], 0
        while heap:
            cost, _, st = heapq.heappop(heap)
            if seen[st] < cost:
                continue
            h, f, mode, slip, cnt, circle = st
            if not (mode == "slip" and cnt < k):
                best[(h, f)] = min(cost, best.get((h, f), cost))
            steps = []
            slip_cost = c["reverse-side-slip" if reverse else "side-slip"]
            if mode == "slip" and cnt < k:
                side = (f + 3 - slip) if reverse else (f + slip)
                steps.append((slip_cost, neighbour(h, side % 6), f, "slip", slip, cnt + 1, circle))
            else:
                for turn in (0, 1, -1):
                    steps.append((c["reverse" if reverse else "forward"], neighbour(h, (f + back) % 6),
                                  (f + turn) % 6, "normal", 0, 0, 0))
                if mode == "slip":
                    steps += [(0, h, (f + t) % 6, "turned", slip, 0, circle) for t in (1, -1)]
                for s in (1, -1):
                    if slip in (0, s):
                        more = min(k, cnt + 1) if mode == "slip" and slip == s else 1
                        side = (f + 3 - s) if reverse else (f + s)
                        steps.append((slip_cost, neighbour(h, side % 6), f, "slip", s, more, circle))
                    if circle in (0, s):
                        side = (f + 3 + s) if reverse else (f + s)
                        steps.append((c["funnel" if reverse else "pylon"], neighbour(h, side % 6), (f - s) % 6,
                                      "circle", slip, 0, s))
            for step, nh, nf, nm, ns, nc, ncirc in steps:
                nxt = (nh, nf, nm, ns, nc, ncirc)
                if cost + step <= budget and nh in g.map.label_of and cost + step < seen.get(nxt, budget + 1):
                    seen[nxt] = cost + step
                    n += 1
                    heapq.heappush(heap, (cost + step, n, nxt))
    return best


def test_the_flight_search_agrees_with_a_plain_dijkstra_on_random_starts():
    # the engine's vectorised search (and its cache: one search answers smaller budgets) gives the same reachable
    # hexes and facing costs as a plain Dijkstra over the same rule states
    import random

    from studio.rulesets.mbt.engine.heli_manoeuvre import facing_costs, reachable

    g = adv_game()
    g.__dict__.pop("_heli_space", None)  # build the search space here (it is cached on the game)
    g.__dict__.pop("_heli_reach", None)
    hexes = sorted(g.hexes)
    rnd = random.Random(7)
    for _ in range(4):
        h, f = rnd.choice(hexes), rnd.randrange(6)
        ref = _reference_costs(g, h, f, 8)
        for budget in (8, 4):
            assert reachable(g, g.air.flight, h, f, budget) == {x for (x, _), c in ref.items() if c <= budget}
        goal = rnd.choice(sorted({x for x, _ in ref}))
        assert facing_costs(g, g.air.flight, h, f, 8, goal) == {ff: c for (x, ff), c in ref.items() if x == goal}
