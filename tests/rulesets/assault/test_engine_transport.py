"""Transport (Assault 8), entrenchments (18) and smoke with the wind (20), through positions and play (examples
A46, A47, A49, A105, A121-A125)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]
PAID = {"c31-offboard-ops-visibility": "visible"}


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, dice=(), scenario="assault-meeting", extension=None, turn=1, to_act=None,
             **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | PAID | options)
    doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase, "units": units,
           "turn": turn, "to_act": to_act}
    if extension:
        doc["extension"] = extension
    state = game.state_from_position(Position.model_validate(doc))
    state.dice.force(*dice)
    return state


def unit(uid, card, side, hexlabel, facing=None, passengers=(), **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status,
            "passengers": list(passengers)}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


FAR = unit("far", "su-t80-platoon", "soviet", "B2121")


# ------------------------------------------------------------------ transport (Assault 8)

def test_A46_capacity_and_circles(index):
    """Assault 8.B (A46): a carrier takes as many steps as it has; an open circle leg units only."""
    full = state_of(index, [unit("apc", "us-m113-platoon", "us", "B1010"), unit("i", "us-mech-infantry-platoon", "us",
                                                                              "B1010"), FAR], "us-move-1")
    assert "mount i apc" in full.legal_actions()
    half = state_of(index, [unit("apc", "us-m113-platoon", "us", "B1010", steps=1),
                            unit("i", "us-mech-infantry-platoon", "us", "B1010"), FAR], "us-move-1")
    assert "mount i apc" not in half.legal_actions()
    opened = state_of(index, [unit("bmp", "su-bmp-platoon", "soviet", "B1010"),
                              unit("gun", "su-d30-battery", "soviet", "B1010"), unit("us", "us-m1-platoon", "us",
                                                                                    "B0101")], "soviet-move-1")
    assert "mount gun bmp" not in opened.legal_actions()                 # open circle: leg units only
    filled = state_of(index, [unit("apc", "us-m113-platoon", "us", "B1010"),
                              unit("gun", "su-d30-battery", "us", "B1010"), FAR], "us-move-1")
    assert "mount gun apc" in filled.legal_actions()


def test_A47_mount_and_dismount_timing(index):
    """Assault 8.C (A47): a leg unit walks to its carrier and mounts, then nothing moves; carried units are not
    targets and move with the carrier; a dismount needs a carrier that has not moved; a deployed unit does not
    mount."""
    state = state_of(index, [unit("apc", "us-m113-platoon", "us", "B1011"),
                             unit("i", "us-mech-infantry-platoon", "us", "B1010"), FAR], "us-move-1", dice=[1])
    state.play("move i B1011")
    state.play("mount i apc")
    u = by_id(state)
    assert u["i"].carrier == "apc" and not [a for a in state.legal_actions() if a.startswith(("move apc", "move i"))]
    assert "dismount i" not in state.legal_actions()
    while state.phase_id() != "us-move-2":
        state.play("end")
    state.play("move apc B1012")
    assert by_id(state)["i"].hex == state.game.map.hex("B1012")
    assert "dismount i" not in state.legal_actions()                     # the carrier moved this phase
    rest = state_of(index, [unit("apc", "us-m113-platoon", "us", "B1011", passengers=["i"]),
                            unit("i", "us-mech-infantry-platoon", "us", "B1011"), FAR], "us-move-1")
    rest.play("dismount i")
    assert by_id(rest)["i"].carrier == "" and by_id(rest)["i"].moved and by_id(rest)["apc"].moved
    assert not [a for a in rest.legal_actions() if a.startswith("move apc ")]
    dug = state_of(index, [unit("apc", "us-m113-platoon", "us", "B1011"),
                           unit("m", "us-m125-mortar", "us", "B1011", deployed=True), FAR], "us-move-1")
    assert not [a for a in dug.legal_actions() if a.startswith("mount m ")]


def test_A47_carried_units_are_not_targets(index):
    """Assault 8.C: a carried unit cannot be fired at; 8.D: carried infantry fires SA only, halved."""
    units = [unit("apc", "us-m113-platoon", "us", "B1011", passengers=["i"], spotted=True),
             unit("i", "us-mech-infantry-platoon", "us", "B1011", spotted=True),
             unit("su", "su-t80-platoon", "soviet", "B1012", spotted=True)]
    state = state_of(index, units, "soviet-fire")
    targets = {a.split()[3] for a in state.legal_actions() if a.startswith("fire ")}
    assert targets == {"apc"}
    us = state_of(index, units, "us-fire")
    assert {a.split()[2] for a in us.legal_actions() if a.startswith("fire i ")} == {"SA"}


def test_A49_carrier_losses(index):
    """Assault 8.E (A49): a full carrier's step loss costs its passenger a step; destroyed, the passenger loses a
    step and is suppressed in the hex; a half-strength carrier destroyed only suppresses it."""
    def shot(carrier_steps, dice, rider_steps=2):
        units = [unit("apc", "us-m113-platoon", "us", "B1011", passengers=["i"], spotted=True, steps=carrier_steps),
                 unit("i", "us-mech-infantry-platoon", "us", "B1011", steps=rider_steps),
                 unit("su", "su-t80-platoon", "soviet", "B1013", 0, spotted=True, steps=1)]
        state = state_of(index, units, "soviet-fire", dice=dice)
        state.play("fire su KP apc")
        state.play("end")
        state.play("end")
        return by_id(state)
    one = shot(2, [6, 10, 10, 10])                           # hit number 7: one hit, KP: one step lost
    assert one["apc"].steps == 1 and one["i"].steps == 1 and one["i"].carrier == "apc"
    gone = shot(2, [1, 10, 10, 10])                          # two hits: destroyed
    assert "apc" not in gone and gone["i"].steps == 1 and gone["i"].suppressed and gone["i"].carrier == ""
    half = shot(1, [6, 10, 10, 10], rider_steps=1)
    assert "apc" not in half and half["i"].steps == 1 and half["i"].suppressed


def test_A49_a_suppressed_armoured_carrier_keeps_its_passenger_whole(index):
    """Assault 8.E, 11.A.1: a carrier only suppressed (KP that does not penetrate) costs its passenger nothing;
    the passenger of an armoured carrier stays aboard."""
    units = [unit("apc", "us-m113-platoon", "us", "B1011", passengers=["i"], spotted=True),
             unit("i", "us-mech-infantry-platoon", "us", "B1011"),
             unit("su", "su-motor-rifle-platoon", "soviet", "B1012", 0, spotted=True)]
    state = state_of(index, units, "soviet-fire", dice=[1, 1, 10, 10, 10])
    fire = [a for a in state.legal_actions() if a.startswith("fire su ") and a.endswith(" apc")]
    state.play(fire[0])
    state.play("end")
    state.play("end")
    u = by_id(state)
    assert u["i"].steps == 2 and u["i"].carrier == "apc"


def test_A49_two_half_strength_passengers(index):
    """Assault 8.E (A49 d, option c42): a full carrier's step loss eliminates one of two half-strength
    passengers, chosen at random; destroyed, 'one-lost' loses one and suppresses the other, 'both-lost' both."""
    def shot(dice, **options):
        units = [unit("apc", "us-m2-platoon", "us", "B1011", passengers=["a", "b"], spotted=True),
                 unit("a", "us-mech-infantry-platoon", "us", "B1011", steps=1),
                 unit("b", "us-mech-infantry-platoon", "us", "B1011", steps=1),
                 unit("su", "su-t80-platoon", "soviet", "B1013", 0, spotted=True, steps=1)]
        state = state_of(index, units, "soviet-fire", dice=dice, **options)
        state.play("fire su KP apc")
        state.play("end")
        state.play("end")
        return by_id(state)
    hit = shot([6, 10, 10, 10])
    assert hit["apc"].steps == 1 and len([k for k in ("a", "b") if k in hit]) == 1
    one = shot([1, 10, 10, 10])
    assert "apc" not in one and len([k for k in ("a", "b") if k in one]) == 1
    assert all(one[k].suppressed and one[k].carrier == "" for k in ("a", "b") if k in one)
    both = shot([1, 10, 10, 10], **{"c42-carrier-two-passengers": "both-lost"})
    assert not {"a", "b"} & set(both)


def test_transport_in_the_sample_scenario(index):
    """Assault 8, d.28: the Probe's B/1 infantry platoons set up aboard their M-2s (extension counters.carrier)."""
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options})
    state = game.new_initial_state(1)
    riders = [c for c in state.counters if c.carrier]
    assert len(riders) >= 1
    for c in riders:
        carrier = by_id(state)[c.carrier]
        assert carrier.hex == c.hex and game.card(carrier.card).body.transport != "none"
    assert not any(c.carrier for c in state.observation(0).counters if c.side == 1)


# ------------------------------------------------------------------ entrenchments (Assault 18)

def test_A105_entrenchments(index):
    """Assault 18 (A105): entering takes the phase; two steps of personnel or weapons; not beside an
    entrenched enemy; entrenched units defend on the entrenchment row and count as covered for spotting."""
    hexes = ("A1111", "A1212")
    inf = unit("i", "us-mech-infantry-platoon", "us", hexes[0])
    state = state_of(index, [inf, unit("su", "su-t80-platoon", "soviet", "B2121")], "us-move-1",
                     scenario="assault-probe")
    assert "entrench i" in state.legal_actions()
    state.play("entrench i")
    assert by_id(state)["i"].entrenched and not [a for a in state.legal_actions() if a.startswith("move i ")]
    tank = state_of(index, [unit("t", "us-m1-platoon", "us", hexes[0]), unit("su", "su-t80-platoon", "soviet",
                                                                             "B2121")], "us-move-1",
                    scenario="assault-probe")
    assert "entrench t" not in tank.legal_actions()
    full = state_of(index, [unit("a", "us-mech-infantry-platoon", "us", hexes[0], entrenched=True),
                            unit("b", "us-mech-infantry-platoon", "us", hexes[0]),
                            unit("su", "su-t80-platoon", "soviet", "B2121")], "us-move-1", scenario="assault-probe")
    assert "entrench b" not in full.legal_actions()
    enemy = state_of(index, [unit("a", "su-motor-rifle-platoon", "soviet", hexes[0], entrenched=True, steps=1),
                             unit("b", "us-mech-infantry-platoon", "us", hexes[0], steps=1)], "us-move-1",
                     scenario="assault-probe")
    assert "entrench b" not in enemy.legal_actions()
    nowhere = state_of(index, [unit("i", "us-mech-infantry-platoon", "us", "A1010"),
                               unit("su", "su-t80-platoon", "soviet", "B2121")], "us-move-1", scenario="assault-probe")
    assert "entrench i" not in nowhere.legal_actions()


def test_A105_entrenched_defence_and_spotting(index):
    """Assault 18: the conventional entrenchment row (14 open for personnel) and the covered spotting column."""
    units = [unit("t", "su-t80-platoon", "soviet", "A1110", spotted=True),
             unit("i", "us-mech-infantry-platoon", "us", "A1111", entrenched=True, spotted=True)]
    state = state_of(index, units, "soviet-fire", scenario="assault-probe", dice=[10, 10])
    state.dice.record = True
    state.play("fire t HE i")
    state.play("end")
    state.play("end")
    assert any("(defence 14)" in e for e in state.events)
    spot = state_of(index, [unit("t", "su-t80-platoon", "soviet", "A1110"),
                            unit("i", "us-mech-infantry-platoon", "us", "A1111", entrenched=True)], "us-move-1",
                    scenario="assault-probe")
    open_ = state_of(index, [unit("t", "su-t80-platoon", "soviet", "A1110"),
                             unit("i", "us-mech-infantry-platoon", "us", "A1111")], "us-move-1",
                     scenario="assault-probe")
    t, i = by_id(spot)["t"], by_id(spot)["i"]
    assert spot._spot_number(t, i, False) < open_._spot_number(by_id(open_)["t"], by_id(open_)["i"], False)


# ------------------------------------------------------------------ smoke and wind (Assault 20)

def test_A121_wind_fixed_or_rolled_and_strong_wind(index):
    """Assault 20.A.1-2 (A121): the Meeting's wind is its environment's (west, moderate); the Probe rolls it once;
    in a strong wind no smoke missions are written."""
    m125 = [unit("m", "us-m125-mortar", "us", "B1010", deployed=True), FAR]
    state = state_of(index, m125, "artillery", to_act="us")
    assert (state.wind_bearing, state.wind_speed) == (270, "moderate")
    assert any(a.endswith("smoke-incendiary") for a in state.legal_actions())
    strong = state_of(index, m125, "artillery", to_act="us", extension={"wind": {"direction": "W",
                                                                                  "strength": "strong"}})
    assert not any("smoke" in a for a in strong.legal_actions())


def test_A122_wind_axis_vertices(index):
    """Assault 20.A.3 (option c15 'wind-axis'): a north wind allows the east and west vertices (1, 4), whose
    hexside pairs lie along it; a west wind the four oblique ones; no wind any vertex."""
    from studio.rulesets.assault.engine.artillery import BEARING, axis_vertices
    assert BEARING["N"] == 0 and axis_vertices(BEARING["N"]) == [1, 4]
    assert axis_vertices(BEARING["W"]) == [0, 2, 3, 5] and axis_vertices(-1) == list(range(6))


def test_A122_screen_blocks_through_its_two_hexsides(index):
    """Assault 20.A.3, 20.B.1 (A122): a screen faces a vertex and blocks the lines crossing its two hexsides."""
    units = [unit("su", "su-t80-platoon", "soviet", "B1010"), unit("us", "us-m60a3-platoon", "us", "B1013")]
    between = {"hex": "B1012", "kind": "incendiary", "vertex": 2, "removed_at": 3}     # hexsides 2 and 3 (S)
    side = {"hex": "B1012", "kind": "incendiary", "vertex": 4, "removed_at": 3}        # hexsides 4 and 5
    clear = state_of(index, units, "soviet-move-1")
    a, b = clear.game.map.hex("B1010"), clear.game.map.hex("B1013")
    assert clear.has_los(a, b)
    assert not state_of(index, units, "soviet-move-1", extension={"smoke": [between]}).has_los(a, b)
    assert state_of(index, units, "soviet-move-1", extension={"smoke": [side]}).has_los(a, b)


def test_A123_smoke_durations_and_drift(index):
    """Assault 20.A.4 (A123, table smoke-duration): incendiary goes at the next artillery phase; chemical in a
    moderate wind adds a screen one hex downwind (east of a west wind) at T+1, the original goes at T+2 and the
    drifted one at T+3."""
    m = [unit("m", "us-m109-battery", "us", "B1010", deployed=True), FAR]
    state = state_of(index, m, "artillery", to_act="us", dice=[10] * 8)
    state.play("plot m B1011 smoke-chemical")
    state.play("end")
    seen = {1: sorted((state.game.map.label_of[s.hex], s.placed) for s in state.smoke)}
    while state.turn <= 4:
        if state.phase_id() == "artillery" and state.art_step == "deploy" and state.turn not in seen:
            seen[state.turn] = sorted((state.game.map.label_of[s.hex], s.placed) for s in state.smoke)
        state.play("end")
    drifted = seen[2][1][0] if len(seen[2]) > 1 else None
    assert seen[1] == [("B1011", 1)] and len(seen[2]) == 2 and seen[3] == [(drifted, 2)] and seen[4] == []
    h = state.game.map.hex(drifted)
    assert state.game.map.offset(h)[0] == state.game.map.offset(state.game.map.hex("B1011"))[0] + 1


def test_A125_thermal_sights_and_chemical_smoke(index):
    """Assault 20.B.2 (A125): M-1s see through chemical smoke, T-80s do not; Dragon infantry spots and fires Msl
    through it, not TP or SA; incendiary smoke blocks everyone."""
    chem = {"hex": "B1012", "kind": "chemical", "vertex": 2, "removed_at": 3}
    fire = {"hex": "B1012", "kind": "incendiary", "vertex": 2, "removed_at": 3}
    units = [unit("m1", "us-m1-platoon", "us", "B1010"), unit("inf", "us-mech-infantry-platoon", "us", "B1010"),
             unit("su", "su-t80-platoon", "soviet", "B1013", spotted=True)]
    state = state_of(index, units, "us-fire", extension={"smoke": [chem]})
    fires = {(a.split()[1], a.split()[2]) for a in state.legal_actions() if a.startswith("fire ")}
    assert ("m1", "KP") in fires and ("inf", "Msl") in fires and ("inf", "TP") not in fires
    su = state_of(index, units, "soviet-fire", extension={"smoke": [chem]})
    assert not [a for a in su.legal_actions() if a.startswith("fire ")]
    burning = state_of(index, units, "us-fire", extension={"smoke": [fire]})
    assert not [a for a in burning.legal_actions() if a.startswith("fire ")]


def test_direct_fire_is_leaves_a_screen(index):
    """Assault 20.C: IS fired directly places an incendiary screen on the target hex, removed at the start of
    the artillery phase two turns on (a screen of turn 1 goes in turn 3)."""
    units = [unit("m1", "us-m1-platoon", "us", "B1010"), unit("su", "su-t80-platoon", "soviet", "B1013", spotted=True)]
    state = state_of(index, units, "us-fire", dice=[10] * 6)
    state.play("fire m1 IS su")
    state.play("end")
    state.play("end")
    assert [(state.game.map.label_of[s.hex], s.kind, s.removed_at) for s in state.smoke] == [("B1013", "incendiary", 3)]
