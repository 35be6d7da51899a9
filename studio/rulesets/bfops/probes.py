"""Conformance probes for Battlefield Ops! (``RulesetPlugin.probes``): small positions on the Mill Valley table
that expose each option the engine plays, each engine table and each environment field (issue 10).

Forced dice sit at the edge the sample tables give (a roll equal to a number passes, one above fails: every
check is roll <= number). Distances are worked in the comments (edge to edge unless the probe says).
"""
from __future__ import annotations

MEETING = "bfops-meeting-at-the-ford"
VILLAGE = "bfops-village-defence"


def _unit(uid: str, card: str, side: str, x: float, y: float, facing: float = 0.0, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "x": x, "y": y, "facing": facing, "status": status}


def _position(phase: str, units: list, scenario: str = MEETING, dice=(), to_act: str | None = None,
              options: dict | None = None, **extension) -> dict:
    out = {"scenario": scenario, "phase": phase, "turn": 1, "units": units, "dice": list(dice),
           "options": dict(options or {})}
    if to_act:
        out["to_act"] = to_act
    if extension:
        out["extension"] = extension
    return out


def _fire_probes() -> list:
    from studio.rules.conformance import Probe

    # M60A1 (30,10) at a BMP-1 (30,25) 15" away: medium, to hit 7 - 1 (low profile) = 6; roll 7 misses
    bmp = [_unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
           _unit("b", "wp-bmp1", "warpac", 30, 25, 180, spotted=True)]
    moving = [bmp[0], _unit("b", "wp-bmp1", "warpac", 30, 25, 180, spotted=True, moved=4.5)]
    # T-62 at (30, 40.7): edge distance 29.7 (medium, 7), centre 30.7 (long, 5); roll 6
    far = [_unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
           _unit("b", "wp-t62", "warpac", 30, 40.7, 180, spotted=True)]
    # firer inside the north woods at (12,34): shortest depth 4.47", along the line 10.67"; woods -1 per inch
    woods = [_unit("a", "nato-m60a1", "nato", 12, 34, 90, spotted=True),
             _unit("b", "wp-t62", "warpac", 40, 34, 270, spotted=True)]
    # BMP-1 73mm (Pen 10 at medium) at an M113 facing north, 45.5 degrees off its facing: side armour 3 (roll 7
    # disables), front armour 4 with the front arc one degree wider (roll 7 fails)
    arc = [_unit("b", "nato-m113", "nato", 30, 30, 0, spotted=True),
           _unit("a", "wp-bmp1", "warpac", 37.13, 37.01, 225, spotted=True)]
    # T-62 115mm HE at a U.S. 3-Hit squad: 1 Hit (row 115mm), a second squad 0.8" away outside any splash
    squad = [_unit("a", "wp-t62", "warpac", 30, 30, 180),
             _unit("b", "nato-us-rifle-squad", "nato", 30, 15, 0, spotted=True),
             _unit("c", "nato-us-rifle-squad", "nato", 30.8, 15, 0)]
    # 120mm mortar (indirect Fire Rate 4 -> at most 1 Hit per phase, BfOps 8.2) at the same squad
    mortar = [_unit("a", "wp-120mm-mortar", "warpac", 30, 40, 180),
              _unit("b", "nato-us-rifle-squad", "nato", 30, 15, 0, spotted=True)]
    # AGS-17 team (30,40) at a U.S. squad 10" away: standard fires one to-hit die (roll 10 misses), burst three
    agl = [_unit("a", "wp-ags17-team", "warpac", 30, 40, 180),
           _unit("b", "nato-us-rifle-squad", "nato", 30, 29.4, 0, spotted=True)]
    # two 120mm mortars of one element at two squads: grouped on one target marker, the second barrage may
    # only go where the first went (BfOps p.13)
    battery = [_unit("a", "wp-120mm-mortar", "warpac", 30, 40, 180, element="battery"),
               _unit("b", "wp-120mm-mortar", "warpac", 31, 40, 180, element="battery"),
               _unit("p", "nato-us-rifle-squad", "nato", 30, 15, 0, spotted=True),
               _unit("q", "nato-us-rifle-squad", "nato", 34, 15, 0, spotted=True)]
    # the same mortar with deviation (option indirect-fire): deviation roll 4 lands on the aim point (table
    # deviation: 4 -> 0"), then the to-hit roll; on-target rolls no deviation die (BfOps p.13)
    return [
        Probe("indirect-fire", _position("fire", mortar, dice=[4, 1, 1], to_act="warpac"), ("fire a b 0 HE",),
              ("indirect-fire",)),
        Probe("deviation", _position("fire", mortar, dice=[4, 1, 1], to_act="warpac",
                                     options={"indirect-fire": "deviation"}), ("fire a b 0 HE",), (), ("deviation",)),
        Probe("barrage-grouping", _position("fire", battery, dice=[10], to_act="warpac"), ("fire a p 0 HE",),
              ("barrage-grouping",)),
        Probe("to-hit", _position("fire", bmp, dice=[7, 1]), ("fire a b 0 AP", "hold b"), (),
              ("to-hit", "hit-modifiers", "target-speed")),
        Probe("speed-rounding", _position("fire", moving, dice=[6, 1]), ("fire a b 0 AP", "hold b"),
              ("speed-rounding",)),
        Probe("distance-mode", _position("fire", far, dice=[6, 1]), ("fire a b 0 AP", "hold b"), ("distance-mode",)),
        Probe("depth-mode", _position("fire", woods, dice=[2, 1]), ("fire a b 0 AP", "hold b"), ("depth-mode",)),
        Probe("terrain", _position("fire", woods, dice=[3, 1]), ("fire a b 0 AP", "hold b"), (), ("terrain",)),
        Probe("armour-arcs", _position("fire", arc, dice=[1, 7], to_act="warpac"), ("fire a b 1 AP",), (),
              ("armour-arcs",)),
        Probe("infantry-hits", _position("fire", squad, dice=[1], to_act="warpac"), ("fire a b 0 HE",), (),
              ("infantry-hits",)),
        Probe("max-hits", _position("fire", mortar, dice=[1], to_act="warpac"), ("fire a b 0 HE",), (),
              ("max-hits",)),
        Probe("agl-mode", _position("fire", agl, dice=[10, 1, 10], to_act="warpac"), ("fire a b 0 HE",),
              ("agl-mode",)),
    ]


def _turn_probes() -> list:
    from studio.rules.conformance import Probe

    # spotting after the Move Phase: M60A1 and T-62 19" apart: spot 7 (band 24"); roll 8 fails
    spot = [_unit("a", "nato-m60a1", "nato", 30, 10), _unit("b", "wp-t62", "warpac", 30, 30, 180)]
    # at dusk (village scenario) the Chieftain (Gen 1 night vision, NATO +2) spots at 7 - 4 + 2 = 5: roll 6 fails
    # (day, or a modifier or offset one higher: passes)
    dusk = [_unit("a", "nato-chieftain", "nato", 30, 10), _unit("b", "wp-t55", "warpac", 30, 30, 180)]
    # an M60A1 inside the broken ground heading for the ford: Bog check at Cruise 6 - 1 = 5; roll 6 bogs
    rough = [_unit("a", "nato-m60a1", "nato", 28, 10, 0, order="to-ford", element="tanks"),
             _unit("b", "wp-t62", "warpac", 69, 47, 180)]
    # an M60A1 on open ground heading for the ford, its enemy hidden behind the ridge: no roll by day; in a flood
    # the ground is Rough (a Bog check); the turn ends and the next draw follows the deck
    road = [_unit("a", "nato-m60a1", "nato", 40, 5, 0, order="to-ford", element="tanks"),
            _unit("b", "wp-t62", "warpac", 69, 47, 180)]
    # an M60A1 crossing the hidden minefield north of the ford (low density: explodes on 4; roll 5 does not)
    mines = [_unit("a", "nato-m60a1", "nato", 47, 26.2, 0, order="to-village", element="tanks"),
             _unit("b", "wp-t62", "warpac", 69, 47, 180)]
    # the same M60A1 moving double-time (its order stands from turn 0): 2 x Cruise 8 = 16" toward the ford (p.16)
    double = [_unit("a", "nato-m60a1", "nato", 40, 5, 0, order="to-ford", element="tanks", double_time=True),
              _unit("b", "wp-t62", "warpac", 69, 47, 180)]
    # a BTR-60 (4 axles, Cruise 11) at the village's prepared wire: half Cruise 5.5", Bog check 6 - 1; roll 1 passes
    wire = [_unit("a", "nato-chieftain", "nato", 60, 46, 180),
            _unit("b", "wp-btr60", "warpac", 31, 31, 0, order="to-village", element="btrs")]
    # an M60A1 holding 7.5" south of the hidden minefield (inside its 10" zone): its minefield Spot check (UR 6 - 3)
    # succeeds on 1; the side knows it at once, or only the M60A1's element until a Command Card alerts the rest
    watch = [_unit("a", "nato-m60a1", "nato", 47, 20, 0, element="tanks"), _unit("b", "wp-t62", "warpac", 69, 47, 180)]
    return [
        Probe("minefield-alert", _position("command", watch, dice=[1]), ("pass", "pass"), ("minefield-alert",)),
        Probe("wire", _position("command", wire, VILLAGE, dice=[1]), ("pass", "pass"), (), ("obstacle-crossing",)),
        Probe("double-time", _position("command", double), ("pass", "pass"), (), ("procedures",)),
        Probe("spotting", _position("command", spot, dice=[8, 10]), ("pass", "pass"), (), ("spot",)),
        Probe("dusk", _position("command", dusk, VILLAGE, dice=[6, 10]), ("pass", "pass"), (),
              ("spot-modifiers", "night-vision"), {"light": "day"}),
        Probe("bog", _position("command", rough, dice=[6]), ("pass", "pass"), (), ("ground-bog",)),
        Probe("turn", _position("command", road), ("pass", "pass"), (), ("sequence", "deck"), {"weather": "flood"}),
        # the next Turn's draw comes from the Large Force deck (no Platoon cards beside the Company cards, p.23)
        Probe("large-force", _position("command", road), ("pass", "pass"), ("large-force",)),
        Probe("mines", _position("command", mines, dice=[5, 10, 10]), ("pass", "pass"), (), ("mines",)),
    ]


def _engineering_probes() -> list:
    from studio.rules.conformance import Probe

    far = _unit("b", "wp-t62", "warpac", 69, 47, 180)
    # a NATO AVLB 0.17" from the stream's south bank lays its bridge in 1 full Turn (its one Move Phase, table
    # bridging: deploy_turns 1); one more Move Phase or Turn and it is not down yet
    avlb = [_unit("a", "nato-m60-avlb", "nato", 56.0, 23.2, 0, element="br"), far]
    # an engineer squad 0.175" from the churchyard wall sets a Level 1 charge in 1 Move Phase (table demolition,
    # squad sized); roll 7 = UR 6 + 1 breaches the wall
    charge = [_unit("e", "nato-engineer-squad", "nato", 43, 34.5, 0, element="eng"), far]
    # an M113 east of the churchyard wall, blown once at (46, 37.8): through the gap with wall-breach 'once',
    # round the wall's north end otherwise (vehicles need it blown twice)
    gap = [_unit("m", "nato-m113", "nato", 47.0, 37.8, 270, order="to-village", element="apc"), far]
    breach = {"breaches": {"churchyard-wall": [[46.0, 37.8]]}}
    return [
        Probe("bridging", _position("command", avlb), ("bridge a", "pass", "pass"), (), ("bridging",)),
        Probe("demolition", _position("command", charge, dice=[7]), ("demolish e churchyard-wall 1", "pass", "pass"),
              (), ("demolition",)),
        Probe("wall-breach", _position("command", gap, VILLAGE, engineering=breach), ("pass", "pass"),
              ("wall-breach",)),
    ]


def probes() -> list:
    return _fire_probes() + _turn_probes() + _engineering_probes()
