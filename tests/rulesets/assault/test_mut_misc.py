"""Opportunity fire, positions, smoke, transport and battle drill details a mutation run of the engine found
untested (COVERAGE.md, Measurements), through positions, legal actions and play, each with its rule."""
import sys
from pathlib import Path

import pytest

from studio.hexgrid import coords
from studio.rules.position import PositionError
from studio.rulesets.assault.engine.artillery import Screen, downwind

sys.path.insert(0, str(Path(__file__).resolve().parent))
import assault_states as states  # noqa: E402
from assault_states import FAR, PAID, by_id, rolls, u  # noqa: E402



@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


def state_of(index, units, phase, dice=(), extension=None, scenario="assault-meeting", **options):
    """A state from a position under the tests' default options (c31 visible) and ``options``."""
    return states.state_of(index, units, phase, dice, extension, scenario, **(PAID | options))


# ------------------------------------------------------------------ opportunity fire (15.B, option c40)
@pytest.mark.parametrize("choice, attacks", [(None, 1), ("combined", 1), ("separate", 2)])
def test_c40_two_opportunity_fires_at_one_entry(index, choice, attacks):
    """15.B, option c40 (default 'combined'): two conventional opportunity fires at a Soviet platoon entering
    B1012 are one attack on the CRT, or each alone ('separate')."""
    options = {} if choice is None else {"c40-opp-fire-aggregation": choice}
    units = [u("su", "su-motor-rifle-platoon", "soviet", "B1013"),
             u("a", "us-m1-platoon", "us", "B1010", cover=True), u("b", "us-m1-platoon", "us", "B1112", cover=True)]
    state = state_of(index, units, "soviet-move-1", dice=[10] * 6, **options)
    state.play("move su B1012")
    state.play("fire a HE su")
    state.play("fire b HE su")
    state.play("end")
    assert len(rolls(state, "CRT su")) == attacks


# ------------------------------------------------------------------ positions
@pytest.mark.parametrize("ammo", [{"m1": 3}, {"m1": {"m1-tp-he": -1}}, {"m1": {"m1-tp-he": "two"}},
                                  {"m1": {"m1-tp-he": 1.5}}])
def test_positions_refuse_bad_ammunition_records(index, ammo):
    """23: ammunition used is a count per pool, never negative; anything else is a position error, no traceback."""
    with pytest.raises(PositionError):
        state_of(index, [u("m1", "us-m1-platoon", "us", "B1010"), FAR], "us-fire", extension={"ammo": ammo})


def test_positions_take_zero_and_positive_ammunition_records(index):
    state = state_of(index, [u("m1", "us-m1-platoon", "us", "B1010"), FAR], "us-fire",
                     extension={"ammo": {"m1": {"m1-tp-he": 0, "m1-kp": 2}}})
    assert state.ammo_used[("m1", "m1-tp-he")] == 0 and state.ammo_used[("m1", "m1-kp")] == 2


def test_scrambled_hidden_enemies_face_any_of_the_six_hexsides(index):
    """7.F: the facing of an unspotted enemy is unknown: a scrambled state draws it among the six hexsides."""
    state = state_of(index, [u("su", "su-t80-platoon", "soviet", "B2220", facing=2), u("m1", "us-m1-platoon", "us",
                                                                                       "B0101")], "us-move-1")
    facings = {next(c for c in state.scramble_hidden(1, seed).counters if c.id == "su").facing for seed in range(80)}
    assert facings == set(range(6))


# ------------------------------------------------------------------ smoke drift (20.A.4)
def drift_state(index, direction, turn=3):
    extension = {"wind": {"direction": direction, "strength": "moderate"}} if direction else \
        {"wind": {"direction": "none", "strength": "moderate"}}
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "artillery", extension=extension)
    state.turn = turn
    return state


def test_a_screen_placed_last_turn_drifts_one_hex_downwind_and_one_placed_now_does_not(index):
    """20.A.4: in a moderate wind from the north a drifting chemical screen placed last turn adds one screen in
    the hex downwind (south); a screen placed this turn and a non-drifting one add nothing."""
    state = drift_state(index, "N")
    h = state.game.map.hex("B1010")
    old, new, still = Screen(h, "chemical", 0, 2, 9, True), Screen(h, "chemical", 0, 3, 9, True), \
        Screen(h, "chemical", 0, 2, 9, False)
    for screens, added in (([old], 1), ([new], 0), ([still], 0)):
        state.smoke = list(screens)
        state._adjust_smoke()
        extra = [s for s in state.smoke if s not in screens]
        assert len(extra) == added
        if added:
            d = coords.DIRECTIONS[downwind(0)]
            assert extra[0].hex == (h[0] + d[0], h[1] + d[1]) and state.game.map.label_of[extra[0].hex] == "B1011"


def test_no_screen_drifts_without_wind(index):
    state = drift_state(index, None)
    h = state.game.map.hex("B1010")
    state.smoke = [Screen(h, "chemical", 0, 2, 9, True)]
    state._adjust_smoke()
    assert [s.hex for s in state.smoke] == [h]


# ------------------------------------------------------------------ smoke blocks sight (20.B.1)
def test_a_screen_between_two_level_hexes_blocks_the_line_through_its_hexsides(index):
    """20.B.1: a screen is an obstacle one level above its hex: on level ground it blocks a line that crosses
    its blocked hexsides, whatever the range."""
    state = state_of(index, [FAR, u("m1", "us-m1-platoon", "us", "B0101")], "us-move-1")
    game = state.game
    a, mid, b = (game.map.hex(x) for x in ("B1008", "B1010", "B1012"))
    assert game.map.elevation.get(a, 0) == game.map.elevation.get(mid, 0) == game.map.elevation.get(b, 0)
    assert state.has_los(a, b)
    for vertex in range(6):
        state.smoke = [Screen(mid, "chemical", vertex, 1, 9)]
        blocks = {vertex, (vertex + 1) % 6} & {0, 3}                 # the line runs north-south through B1010
        assert (not state.has_los(a, b)) is bool(blocks)


# ------------------------------------------------------------------ transport (8.C, 8.E, 11.A)
def test_a_unit_that_mounts_leaves_cover_entrenchment_rooftop_and_sight(index):
    """8.C: a unit under its carrier is not in cover, not entrenched, not on a roof and not seen itself."""
    units = [u("i", "su-motor-rifle-platoon", "soviet", "B1010", spotted=True, cover=True),
             u("apc", "su-btr70-platoon", "soviet", "B1010"), u("m1", "us-m1-platoon", "us", "B0101")]
    state = state_of(index, units, "soviet-move-1")
    i = by_id(state)["i"]
    i.entrenched = i.roof = True
    state.play("mount i apc")
    state.play("end")                                       # the U.S. player's opportunity fire decision (8.C)
    i = by_id(state)["i"]
    assert i.carrier == "apc" and (i.cover, i.entrenched, i.roof, i.spotted) == (False, False, False, False)


def test_a_suppressed_unarmoured_carrier_suppresses_and_sets_down_its_personnel(index):
    """11.A.1-2: when a non-armoured vehicle (the M-151) is suppressed, its passengers are suppressed too and
    personnel dismount."""
    units = [u("jeep", "us-m151", "us", "B1010", passengers=["hq"]), u("hq", "us-hq", "us", "B1010"), FAR]
    state = state_of(index, units, "soviet-fire")
    assert by_id(state)["hq"].carrier == "jeep"
    state._apply_result(by_id(state)["jeep"], "S")
    hq = by_id(state)["hq"]
    assert hq.suppressed and hq.carrier == "" and by_id(state)["jeep"].steps == 1


# ------------------------------------------------------------------ battle drill (4.D.2)
def test_a_march_formation_drill_costs_no_ops(index):
    """4.D.2, 7.C: moving in march formation needs no OPs, so a drill of a company in march pays nothing."""
    units = [u("t1", "su-t80-platoon", "soviet", "A0120", designation="A1", formation="march"),
             u("t2", "su-t80-platoon", "soviet", "A0320", designation="A1", formation="march"),
             u("hq", "su-hq", "soviet", "A0119", designation="HQ1"), u("us", "us-m1-platoon", "us", "B2220")]
    state = state_of(index, units, "soviet-move-1", extension={"ops": {"soviet": {"HQ1": 3}}},
                     scenario="assault-probe")
    state.play("drill A1 2")
    assert state.ops[0]["HQ1"] == 3 and by_id(state)["t1"].hex != state.game.map.hex("A0120")


# ------------------------------------------------------------------ opportunity fire range (15.A)
def opp_state(index, firer_hex, mover_hex):
    units = [u("m", "su-t80-platoon", "soviet", mover_hex, spotted=True),
             u("f", "us-m1-platoon", "us", firer_hex, cover=True)]
    state = state_of(index, units, "soviet-move-1")
    state.opp_target = "m"
    return state, by_id(state)["f"], by_id(state)["m"]


@pytest.mark.parametrize("d", [4, 5, 8, 9, 12, 13])
def test_opportunity_fire_range_bands(index, d):
    """15.A (A93): any ammunition to 4 hexes; to 12 at a mover seen when its move began; beyond 4 only from the
    second consecutive observed hex up to 8, from the third up to 12; never beyond 12; missiles to 4 only."""
    state, f, m = opp_state(index, "B0101", "B0101")
    k = state.game.data.constant
    assert (k("opp-fire-any-hex-range"), k("opp-fire-second-hex-range"), k("opp-fire-max-range"),
            k("opp-fire-missile-max-range")) == (4, 8, 12, 4)
    m.hex = next(h for h in state.game.map.label_of if coords.distance(f.hex, h) == d)
    for seen_start, run, ammo, ok in (
            (("f",), 0, "KP", d <= 12), ((), 0, "KP", d <= 4), ((), 1, "KP", d <= 4),
            ((), 2, "KP", d <= 8), ((), 3, "KP", d <= 12), (("f",), 3, "Msl", d <= 4)):
        m.seen_start, m.seen_run = seen_start, {"f": run} if run else {}
        assert state._opp_range_ok(f, m, ammo) is ok, (d, seen_start, run, ammo)


def test_opportunity_fire_at_a_unit_leaving_or_entering_the_firers_hex(index):
    """15.A: a unit entering or leaving the firer's hex may always be fired at (within the missile limit)."""
    state, f, m = opp_state(index, "B0101", "B0101")
    m.seen_start, m.seen_run = (), {}
    assert state._opp_range_ok(f, m, "KP")                       # entering the firer's hex
    m.hex = next(h for h in state.game.map.label_of if coords.distance(f.hex, h) == 6)
    state.opp_from = f.hex
    assert state._opp_range_ok(f, m, "KP")                       # it left the firer's hex (the rule's case)
    state.opp_from = ()
    assert not state._opp_range_ok(f, m, "KP")


# ------------------------------------------------------------------ ammunition (23.A)
def test_a_load_of_one_fires_once_and_of_none_never(index):
    """23.A: a basic load of one fire (the Dragon's missiles, set to 1 here) allows one fire, then none; a load
    of 0 none at all."""
    row = next(r for r in index.model("unit", "us-mech-infantry-platoon").body.direct_fire if r.ammo == "Msl")
    kept = row.ammo_supply
    object.__setattr__(row, "ammo_supply", 1)                     # before the game compiles its cards
    try:
        units = [u("inf", "us-mech-infantry-platoon", "us", "B1010"),
                 u("su", "su-t80-platoon", "soviet", "B1013", spotted=True)]
        state = state_of(index, units, "us-fire", **{"ammo-supply": "limited"})
        assert "fire inf Msl su" in state.legal_actions()
        state.play("fire inf Msl su")
        used = state_of(index, units, "us-fire", extension={"ammo": {"inf": {"Msl": 1}}}, **{"ammo-supply": "limited"})
        assert not any(a.startswith("fire inf Msl ") for a in used.legal_actions())
        object.__setattr__(row, "ammo_supply", 0)
        empty = state_of(index, units, "us-fire", **{"ammo-supply": "limited"})
        assert not any(a.startswith("fire inf Msl ") for a in empty.legal_actions())
    finally:
        object.__setattr__(row, "ammo_supply", kept)


# ------------------------------------------------------------------ missiles fired as opportunity fire (15, c45)
@pytest.mark.parametrize("choice, tried", [(None, True), ("spot-first", True), ("no-spot", False)])
def test_c45_an_unspotted_missile_opportunity_firer_may_be_spotted_first(index, choice, tried):
    """Option c45 (default 'spot-first'): an unspotted unit firing missiles as opportunity fire gets a spotting
    attempt by the mover's side, with the firing-missiles modifier (10.D); 'no-spot' fires unspotted."""
    options = {} if choice is None else {"c45-missile-opp-unspotted": choice}
    units = [u("su", "su-t80-platoon", "soviet", "B1013", formation="march"),
             u("m901", "us-m901-section", "us", "B1010", cover=True)]
    state = state_of(index, units, "soviet-move-1", dice=[1] * 8, **options)
    state.play("move su B1012")
    assert "fire m901 Msl su" in state.legal_actions()
    state.play("fire m901 Msl su")
    assert bool(rolls(state, "spotting m901")) is tried
    assert by_id(state)["m901"].spotted is tried


# ------------------------------------------------------------------ suppression and transport (11.A.1-2, 8.C)
def test_a_suppressed_armoured_carrier_neither_takes_aboard_nor_sets_down(index):
    """11.A.1: a suppressed AFV takes no one aboard and sets no one down; unsuppressed it does both (8.C)."""
    for suppressed in (False, True):
        units = [u("apc", "su-btr70-platoon", "soviet", "B1010", suppressed=suppressed),
                 u("i", "su-motor-rifle-platoon", "soviet", "B1010"),
                 u("apc2", "su-btr70-platoon", "soviet", "B1012", passengers=["j"], suppressed=suppressed),
                 u("j", "su-motor-rifle-platoon", "soviet", "B1012"), u("m1", "us-m1-platoon", "us", "B0101")]
        legal = state_of(index, units, "soviet-move-1").legal_actions()
        assert ("mount i apc" in legal) is not suppressed and ("dismount j" in legal) is not suppressed


def test_a_suppressed_weapons_unit_stays_aboard(index):
    """11.A.2: a suppressed weapons unit (the static D-30 on its filled-circle carrier here) may not dismount."""
    for suppressed in (False, True):
        units = [u("car", "us-m113-platoon", "soviet", "B1010", passengers=["gun"]),
                 u("gun", "su-d30-battery", "soviet", "B1010", suppressed=suppressed),
                 u("m1", "us-m1-platoon", "us", "B0101")]
        legal = state_of(index, units, "soviet-move-1").legal_actions()
        assert ("dismount gun" in legal) is not suppressed


# ------------------------------------------------------------------ strong wind (20.A.2, c36) and broken HQs (17.C, c27)
@pytest.mark.parametrize("choice, direct_is", [(None, True), ("missions-only", True), ("all-smoke", False)])
def test_c36_a_strong_wind_bans_smoke_missions_and_perhaps_direct_is(index, choice, direct_is):
    """20.A.2: no smoke missions in a strong wind; option c36 (default 'missions-only') also bans direct-fire
    IS under 'all-smoke'. In a moderate wind both are allowed."""
    options = {} if choice is None else {"c36-strong-wind-is": choice}
    units = [u("m1", "us-m1-platoon", "us", "B1010", spotted=True), u("su", "su-motor-rifle-platoon", "soviet",
                                                                      "B1012", spotted=True),
             u("m", "us-m109-battery", "us", "B0909", deployed=True)]
    for strength in ("moderate", "strong"):
        wind = {"wind": {"direction": "W", "strength": strength}}
        fire = state_of(index, units, "us-fire", extension=wind, **options)
        assert ("fire m1 IS su" in fire.legal_actions()) is (strength == "moderate" or direct_is)
        art = state_of(index, units, "artillery", extension=wind, **options)
        art.actor = 1
        smoke = [a for a in art.legal_actions() if a.startswith("plot m ") and "smoke" in a]
        assert bool(smoke) is (strength == "moderate")


@pytest.mark.parametrize("choice, offered", [(None, True), ("superior", True), ("never", False)])
def test_c27_a_broken_hq_is_rallied_by_a_superior_or_never(index, choice, offered):
    """17.C, option c27 (default 'superior'): a broken HQ (its own company) may be rallied with a superior's,
    off-board or default OPs, or never recovers."""
    options = {} if choice is None else {"c27-broken-hq-rally": choice}
    units = [u("hq", "us-hq", "us", "B1010", designation="HQC1", company="HQC1"), FAR]
    state = state_of(index, units, "us-move-1", extension={"morale": {"HQC1": {"state": "broken"}},
                                                           "ops": {"us": {"default": 2}}}, **options)
    assert ("rally-company HQC1" in state.legal_actions()) is offered
