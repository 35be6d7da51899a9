"""Conformance probes for MBT (``RulesetPlugin.probes``): small positions on the sample boards of scenario
``meeting-engagement`` that expose each rule option, engine table and environment field (issue 10).

A probe is a position document plus action texts (``studio.rules.conformance.Probe``). The core plays it under
each choice of an option it lists (or with a table's numeric cells one higher, or an environment field changed)
and requires a different signature: legal actions, fingerprints, outcome. Forced dice sit at the edge that the
sample tables give: a hit number of 68 at net -2 (range band P), 76 at -1 and 60 at -3.
"""
from __future__ import annotations

SCENARIO = "meeting-engagement"


def _unit(uid: str, card: str, side: str, hex_: str, facing: int | None = None, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(phase: str, units: list, to_act: str | None = None, dice=(), turn: int = 1, scenario: str = SCENARIO,
              **extension) -> dict:
    out = {"scenario": scenario, "phase": phase, "turn": turn, "units": units, "dice": list(dice)}
    if to_act:
        out["to_act"] = to_act
    if extension:
        out["extension"] = extension
    return out


def _spotting(name: str, us_hex: str, sov: list, options=(), tables=(), environment=None, **ext):
    """The US vehicle at ``us_hex`` is commanded first: FIRE and SH are legal only if it spots a Soviet vehicle
    (MBT 4.2.1, 4.1.3)."""
    from studio.rules.conformance import Probe

    units = [_unit("A", "m1", "us", us_hex, 0)] + sov
    return Probe(name, _position("command", units, **ext), (), tuple(options), tuple(tables),
                 dict(environment or {}))


def _fire_probes() -> list:
    from studio.rules.conformance import Probe

    # T-72A APFSDS at range 3 (band P, penetration 92) on the front of an M1IP (armor 92): difference 0
    duel = [_unit("M", "m1ip", "us", "2B4", 0), _unit("T", "t-72a", "sov", "2A1", 0, command="FIRE")]
    moving = [_unit("M", "m1ip", "us", "2B4", 0, command="MOVE", revealed=True),
              _unit("T", "t-72a", "sov", "2A1", 0, command="FIRE")]
    shot = ("fire T at M main:APFSDS",)
    return [
        Probe("difference-zero", _position("direct-fire-first", duel, "sov", dice=[1]), shot,
              ("penetration-zero", "penetration-band"), ("ap-penetration-results",)),
        # target moving (-2) in the open: hit number 68, the roll 69 misses unless a cell is one higher
        Probe("hit-number-edge", _position("direct-fire-first", moving, "sov", dice=[69]), shot,
              (), ("ap-hit", "ap-hit-modifiers", "cover-types")),
    ]


def _overwatch_probes() -> list:
    from studio.rules.conformance import Probe

    fired = {"command": "FIRE", "fired": True, "revealed": True, "mark": "spot-fire"}
    # two US Overwatch shooters facing N: D1 is in their 120-degree front arc, E2 only in the 180-degree one;
    # a roll of 76 hits with the Overwatch modifier (-1) and misses with Overwatch Adjust (-3)
    arcs = [_unit("S1", "m1", "us", "2A2", 0, command="OW"), _unit("S2", "m1", "us", "2A3", 0, command="OW"),
            _unit("A", "t-72a", "sov", "2D1", 5, **fired), _unit("B", "t-72a", "sov", "2E2", 5, **fired)]
    # the NE neighbour only touches the 60-degree front arc along a hexside (Q15)
    edge = [_unit("S", "m1", "us", "2A1", 0, command="OW"), _unit("A", "t-72a", "sov", "2B1", 5, **fired)]
    # both sides hold fired triggers and Overwatch vehicles: who shoots after the first overwatch shot (Q12)
    order = [_unit("F", "m1", "us", "2A1", 0, **fired), _unit("O1", "m1", "us", "2A2", 0, command="OW"),
             _unit("O2", "m1", "us", "2A3", 0, command="OW"), _unit("X", "t-72a", "sov", "2D1", 5, **fired),
             _unit("Y", "t-72a", "sov", "2E2", 5, command="OW")]
    return [
        Probe("overwatch-arcs", _position("overwatch", arcs, "us", dice=[76, 76]),
              ("ow S1 at A main:APFSDS", "ow S2 at B main:APFSDS"), ("ow-arc",)),
        Probe("overwatch-arc-edge", _position("overwatch", edge, "us", dice=[76]), ("ow S at A main:APFSDS",),
              ("fof-hex-inclusion",)),
        Probe("overwatch-order", _position("overwatch", order, "us", dice=[100]), ("ow O1 at X main:APFSDS",),
              ("overwatch-order",)),
    ]


def _movement_probes() -> list:
    from studio.rules.conformance import Probe

    # 2D5 -> 2E5 (Brew-Up Smoke), two hexside turns there (the second pays the Turn cost), up the slope to 2D6
    mover = [_unit("V", "m1", "us", "2D5", 2, command="MOVE"), _unit("E", "t-72a", "sov", "4T1", 5)]
    steps = ("move V", "fwd V", "turn V right", "turn V right", "fwd V")
    # in reverse from 2E5 up the slope to 2D6: twice the terrain cost, and the height cost too under 'all'
    backwards = [_unit("V", "m1", "us", "2E5", 1, command="MOVE"), _unit("E", "t-72a", "sov", "4T1", 5)]
    damaged = [_unit("V", "m1ip", "us", "4C4", 1, command="MOVE"), _unit("S", "t-72a", "sov", "4G2", 4, command="OW")]
    cliff = [_unit("V", "m1", "us", "2T3", 1, command="MOVE"), _unit("E", "t-72a", "sov", "4T10", 5)]
    return [
        Probe("movement-costs", _position("move-first", mover, "us", wrecks={"2E5": "brewed-up"}), steps,
              ("brew-up-turn-cost",), ("msa-fractions", "damage-effects", "terrain-effects", "height-change",
                                       "movement-rules")),
        # through two rough hexes (4 each: 1 of 9 left), then damaged by Overwatch (difference 0): the remaining
        # allowance is halved at once (Q27: floor 0 or 1)
        Probe("damaged-mid-move", _position("move-first", damaged, "us", dice=[1]), ("move V", "fwd V", "pass",
                                                                                      "fwd V", "ow S at V main:APFSDS"),
              ("msa-remaining-floor",), ("damage-effects",)),
        Probe("reverse-up-a-slope", _position("move-first", backwards, "us"), ("move V", "rev V"),
              ("reverse-cost",)),
        Probe("unmarked-level-change", _position("move-first", cliff, "us"), ("move V",),
              ("unmarked-level-change",)),
    ]


def _command_probes() -> list:
    from studio.rules.conformance import Probe

    units = [_unit("A", "m1", "us", "2A1", 0), _unit("B", "t-72a", "sov", "2B4", 0, command="NC")]
    # turn 2: the initiative dice tie (50, 50), then 30 against 80
    ties = Probe("initiative", _position("command", units, dice=[50, 50, 30, 80], turn=2), ("command A NC",),
                 ("initiative-winner", "initiative-ties"))
    # A (US) fires at X and gets a new Spot/Fire counter; Z (Soviet), 25 hexes from A, spotted only W in the
    # Spotting Phase (Q2: may Z fire at A now?)
    pending = [_unit("A", "m1", "us", "2A13", 2, command="FIRE"), _unit("W", "m1", "us", "4F10", 5),
               _unit("X", "t-72a", "sov", "2D13", 5), _unit("Z", "t-72a", "sov", "4F14", 5, command="FIRE")]
    spot = Probe("spot-pending", _position("direct-fire-first", pending, "us", dice=[100]),
                 ("fire A at X main:APFSDS",), ("spot-pending",))
    return [ties, spot]


ADVANCED = "mbt-adv-combined-arms"  # US Seasoned, Soviet Regulars


def _adv(phase: str, units: list, to_act: str | None = None, dice=()) -> dict:
    return _position(phase, units, to_act, dice, scenario=ADVANCED)


def _adv_fire_probes() -> list:
    """Advanced Game AP/ATGM fire on the Advanced sample scenario (sample-table values in the comments): 2A1 ->
    2F4 is range 5 along hexside 2; a target facing 5 faces the shooter (Front angle)."""
    from studio.rules.conformance import Probe

    def duel(shooter, target, facing=5, side="us", **status):
        enemy = "sov" if side == "us" else "us"
        return [_unit("S", shooter, side, "2A1", 2, command="FIRE"), _unit("T", target, enemy, "2F4", facing, **status)]

    return [
        # M1 APFSDS at a T-80BV: net +1, band P, hit number 92; 93 misses unless a grade or sight cell is higher
        Probe("adv-hit-edge", _adv("direct-fire-first", duel("m1", "t-80bv"), "us", [93, 76, 99]),
              ("fire S at T main:APFSDS",), (), ("unit-grade-modifiers", "weapon-sight-modifiers")),
        # ITOW at a moving T-80BV: -1 (ATGM), net -1 at M: 49; 50 misses unless the ATGM modifier is 0
        Probe("adv-atgm-moving", _adv("direct-fire-first", duel("m150", "t-80bv", command="MOVE", revealed=True),
                                      "us", [50, 76, 9, 99, 99]), ("fire S at T tow:ITOW",), (), ("ag-hit-modifiers",)),
        # ITOW at a T-62MV's HF (53, L-ERA): ERA roll 8 fails (7-), so 126 penetrates; at 8- it stops it (133)
        Probe("adv-era", _adv("direct-fire-first", duel("m150", "t-62mv"), "us", [1, 55, 8, 99, 99]),
              ("fire S at T tow:ITOW",), (), ("era-effect",)),
        # ITOW at a T-72A's HF (75, CEx1.25 = 93): penetrates; with CEx2.25 it would not
        Probe("adv-ce-armor", _adv("direct-fire-first", duel("m150", "t-72a"), "us", [1, 55, 99, 99]),
              ("fire S at T tow:ITOW",), (), ("special-armor",)),
        # M2A1 25mm APDS (ROF R) at a T-80BV's rear: roll 1 of 84 is three hits (placeholder fractions); Track
        # hits (location 05): the crew stays (99), later Track hits are ignored; a fourth hit uses one more die
        Probe("adv-rof-hits", _adv("direct-fire-first", duel("m2a1", "t-80bv", facing=2), "us",
                                   [1, 5, 99, 5, 5, 5, 42]), ("fire S at T main:APDS",), (), ("ap-hits-by-rof",)),
        # a Track hit (05); the crew's Bail Out roll 31 stays at TK - Crew 30-
        Probe("adv-bail-out", _adv("direct-fire-first", duel("m1", "t-80bv"), "us", [1, 5, 31]),
              ("fire S at T main:APFSDS",), (), ("bail-out",)),
        # M1 APFSDS KOs a BMP-1 (location 75: HF, damage digit 5); its squad survives on 21+ (Knock Out - Leg)
        Probe("adv-passenger-bail", _adv("direct-fire-first", duel("m1", "bmp-1") + [
            _unit("P", "sov-mr-squad", "sov", "2F4", 5, carried_by="T")], "us", [1, 75, 21]),
              ("fire S at T main:APFSDS",), (), ("bail-out-passengers",)),
        # BMP-2 APDS at an M150 (armor 5): damage digit 5 is DM on the APDS row, KO on the card (Q22)
        Probe("adv-ap-damage-source", _adv("direct-fire-first", duel("bmp-2", "m150", side="sov"), "sov",
                                           [1, 55, 99, 99]),
              ("fire S at T main:APDS",), ("ap-damage-source",), ("ap-damage-default",)),
        # M2A1 APDS (ROF R) three hits on roll 1 (placeholder fractions); the second goes to the vehicle one hex
        # away (2E3, the Seasoned firer's Command Range 1) with 'spread' (a BMP-1: penetrated), to T with 'original'
        Probe("adv-hit-spread", _adv("direct-fire-first", duel("m2a1", "t-80bv") + [
            _unit("A", "bmp-1", "sov", "2E3", 5)], "us", [1, 50, 55, 54, 9, 9, 9]),
              ("fire S at T main:APDS",), ("hit-spread",)),
    ]


def _adv_gp_probes() -> list:
    """GP fire: a Regulars T-80BV's HE at an M2 (3A) at range 13 (2A1 -> 2A14): GP 6 (L) vs GPD 3, N 39 / S 69;
    net -20 (A-type -20, grade -10, Laser sight +10 at L, sample placeholders). Each shot first rolls (10) 1 for the
    T-80BV's Ammo Limit G9 (MBT 5.16.2)."""
    from studio.rules.conformance import Probe

    units = [_unit("S", "t-80bv", "sov", "2A1", 3, command="FIRE"), _unit("T", "m2", "us", "2A14", 0)]
    shot = ("fire S at T main:HE",)
    return [
        Probe("adv-gp-modifiers", _adv("direct-fire-first", units, "sov", [1, 59]), shot, (), ("gp-fire-modifiers",)),
        Probe("adv-gp-combat", _adv("direct-fire-first", units, "sov", [1, 60]), shot, (), ("gp-combat",)),
        # through an M113 (no protection): its squad is attacked at GPD 1 (GP 6: N 33), net 0: 34 suppresses it
        Probe("adv-passenger-gp", _adv("direct-fire-first", [units[0], _unit("T", "m113", "us", "2A14", 0),
                                                             _unit("P", "us-mech-squad", "us", "2A14", 0,
                                                                   carried_by="T")], "sov", [1, 59, 34]),
              shot, (), ("passenger-gp-defense",)),
        # 95 - 20 = 75: Effective ending in 5, DAMAGE; roll (10) 5 is Hull (Turret at 1-4)
        Probe("adv-gp-damage", _adv("direct-fire-first", units, "sov", [1, 95, 5, 99]), shot, (),
              ("gp-vehicle-effects",)),
    ]


def _adv_command_probes() -> list:
    """Command control for the Regulars Soviets (range 0): A and B share a hex (one counter with option
    command-range-zero 'same-hex', two with 'no-spreading'), C is next to them (a counter of its own at range 0,
    the shared one at range 1), D is far apart."""
    from studio.rules.conformance import Probe

    units = [_unit("U", "m1", "us", "2A1", 0, command="NC"), _unit("A", "t-80bv", "sov", "4K5", 5),
             _unit("B", "t-80bv", "sov", "4K5", 5), _unit("C", "t-80bv", "sov", "4K6", 5),
             _unit("D", "t-80bv", "sov", "4T2", 5)]
    orders = ("command A MOVE", "command B MOVE", "command C MOVE")
    # a suppressed (Off) US tank with an Overwatch command: roll 35 + 20 = 55 recovers (Seasoned 01-55,
    # placeholder) once the last move ends the turn
    recover = [_unit("a", "m1", "us", "2A1", 0, command="OW", suppression="off"),
               _unit("m", "m1", "us", "2A13", 0, command="MOVE"), _unit("t", "t-80bv", "sov", "4T10", 5)]
    return [
        Probe("adv-command-control", _adv("command", units), orders, ("command-range-zero",),
              ("available-commands", "command-range")),
        Probe("adv-recovery", _adv("move-first", recover, "us", [35]), ("move m", "done m"), (),
              ("suppression-recovery",)),
    ]


def _adv_indirect_probes() -> list:
    """Called indirect fire: an M106 24 hexes from a T-80BV (beyond its own sight), the FIST 3 hexes from it."""
    from studio.rules.conformance import Probe

    def units(**fo):
        return [_unit("M", "m106", "us", "2A1", 2, command="FIRE"),
                _unit("F", "m981", "us", "4B1", 2, command="OW", **fo), _unit("T", "t-80bv", "sov", "4E1", 5)]
    call = ("call M by F at 4E1",)
    return [
        # FO / Attached 2: a 2 responds, unless the factor is one higher
        Probe("adv-if-response", _adv("indirect-fire", units(), "us", [2, 50]), call, (), ("called-if-response",)),
        # a suppressed observer (-2): a 3 fails, unless the modifier is one higher
        Probe("adv-if-modifiers", _adv("indirect-fire", units(suppression="on"), "us", [3, 50]), call, (),
              ("if-response-modifiers",)),
    ]


def _adv_close_probes() -> list:
    """A Seasoned US squad close assaults an adjacent T-80BV: GP 8 against GPD 5 (N 40): 41 suppresses it."""
    from studio.rules.conformance import Probe

    units = [_unit("I", "us-mech-squad", "us", "2A1", 2, command="MOVE"), _unit("T", "t-80bv", "sov", "2B1", 5)]
    return [Probe("adv-close-assault", _adv("close-combat", units, "us", [41]), ("assault I T",), (),
                  ("close-combat",))]


def _adv_air_probes() -> list:
    """A hovering AH-1S and a Regulars ZSU-23-4 on Overwatch 5 hexes away: GP 7 (M) vs GPD 4, S 71; net +5
    (hovering +10, grade -5): 66 makes 71, Suppressed, unless the hovering modifier is one higher."""
    from studio.rules.conformance import Probe

    units = [_unit("H", "ah-1s", "us", "2A1", 2), _unit("Z", "zsu-23-4", "sov", "2A6", 0, command="OW")]
    return [Probe("adv-aa", _adv("air-1", units, "us", [66]), ("fly H 2A1", "hold H", "ow Z at H guns:HEI"), (),
                  ("aa-modifiers",))]


OPTIONAL_AREAS = ("fire", "move", "arty", "air", "command", "towed", "opta", "optb")


def optional_probes() -> list:
    """The Optional Rules probes (issue 13): each area's ``probes_opt_<area>.probes()``."""
    from importlib import import_module  # noqa: PLC0415

    return [p for area in OPTIONAL_AREAS for p in import_module(f"{__package__}.probes_opt_{area}").probes()]


def probes() -> list:
    """Every MBT probe (``RulesetPlugin.probes``), the Optional Rules probes last."""
    from importlib import import_module  # noqa: PLC0415

    woods6 = [_unit(f"B{k}", "bmp-2", "sov", "2L12", 0) for k in range(6)]
    return [
        # clear target at 21: range 20 (net 0); one more on the range, the cover or the light modifier spots it
        _spotting("spot-range-21", "2D4", [_unit("T", "t-72a", "sov", "4E12", 0)],
                  tables=("spotting-ranges", "cover-types", "limited-visibility")),
        # clear target at 15: spotted by day; not at night, nor with visibility 10
        _spotting("spot-range-15", "2A10", [_unit("T", "t-72a", "sov", "2P14", 0)],
                  environment={"light": "night", "night_turns": [1], "visibility": 10}),
        # a target in crops (medium) with Spot/Move at 22: net 0 -> 20 hexes; +3 for Spot/Move spots it
        _spotting("spot-move-counter", "2A12", [_unit("T", "t-72a", "sov", "4C14", 0, mark="spot-move")],
                  tables=("spotting-modifiers",)),
        # six vehicles in woods at 10: over-stacked, no cover (20 hexes); with a limit of 7, Medium cover (7)
        _spotting("over-stacked-woods", "2B11", woods6, tables=("stacking",)),
        # a town hex at 6: Heavy cover (5 hexes) or brick Medium (7)
        _spotting("town-cover", "2C12", [_unit("T", "t-72a", "sov", "2I9", 0)],
                  options=("building-spotting-cover",), tables=("building-cover",)),
        # LOS along a hexside of blocking terrain (Q7) and only the highest obstacle (Q37)
        _spotting("los-along-hexside", "4H6", [_unit("T", "t-72a", "sov", "4N6", 0)],
                  options=("los-along-hexside",)),
        _spotting("los-obstacles", "2D7", [_unit("T", "t-72a", "sov", "2G5", 0)], options=("los-obstacles",)),
    ] + _fire_probes() + _overwatch_probes() + _movement_probes() + _command_probes() + _adv_fire_probes() + \
        _adv_gp_probes() + _adv_command_probes() + _adv_indirect_probes() + _adv_close_probes() + _adv_air_probes() + \
        import_module(f"{__package__}.probes_adv_move").probes() + optional_probes()
