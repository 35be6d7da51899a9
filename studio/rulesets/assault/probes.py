"""Conformance probes for Assault (``RulesetPlugin.probes``): small positions on the sample boards that expose
each option the engine plays and each engine table (issue 10).

A probe is a position document plus action texts (``studio.rules.conformance.Probe``). The core plays it under
each choice of an option it lists (or with a table's numeric cells one higher) and requires a different
signature: legal actions, fingerprints, outcome. Forced dice sit at the edge the sample tables give (a roll
at a hit, confirmation or spotting number passes, one above fails: Assault 1.E).
"""
from __future__ import annotations

MEETING = "assault-meeting"     # board B alone
#: the off-board OPs pay each mover's order at 1 OP (option c31 'visible', Assault 4.B.3, 4.C)
PAID = {"c31-offboard-ops-visibility": "visible"}
PROBE = "assault-probe"         # boards A and B


def _unit(uid: str, card: str, side: str, hex_: str, facing: int | None = None, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def _position(phase: str, units: list, scenario: str = MEETING, dice=(), to_act: str | None = None,
              turn: int = 1, options: dict | None = None, **extension) -> dict:
    out = {"scenario": scenario, "phase": phase, "turn": turn, "units": units, "dice": list(dice),
           "options": dict(options or {})}
    if to_act:
        out["to_act"] = to_act
    if extension:
        out["extension"] = extension
    return out


def _spotting_probes() -> list:
    from studio.rules.conformance import Probe

    flat = [_unit("su", "su-t80-platoon", "soviet", "B1421"), _unit("us", "us-m1-platoon", "us", "B1821")]
    far = [_unit("su", "su-t80-platoon", "soviet", "A2220"), _unit("us", "us-m1-platoon", "us", "A0120")]
    far_spotted = [_unit("su", "su-t80-platoon", "soviet", "A2220", spotted=True),
                   _unit("us", "us-m1-platoon", "us", "A0120")]
    strip = [_unit("su", "su-t80-platoon", "soviet", "A1313"), _unit("us", "us-m1-platoon", "us", "A1309")]
    # a U.S. infantry platoon moving into woods B0506 seen by the T-80 platoon (armoured spotter) five hexes
    # away: the spotting number is base 6 (range 4-6) - 2 (woods) + 2 (moved) - 1 (armoured spotter) = 5; the
    # entry roll 1 passes, the spotting roll 6 fails
    woods = [_unit("su", "su-t80-platoon", "soviet", "B1006"),
             _unit("us", "us-mech-infantry-platoon", "us", "B0406")]
    return [
        # Assault 10.A (c44): both players spot at the end of a movement phase, or the non-phasing one only
        Probe("spot-after-move", _position("soviet-move-1", flat), ("end",), ("c44-spotting-side",)),
        # Assault 10.E (c22): autospot at 21 hexes on flat clear ground
        Probe("autospot-range", _position("soviet-move-1", far, PROBE), ("end",), ("c22-autospot-range",)),
        # Assault 10.G (c20): flipped back at the end of a fire phase, or only after its own movement
        Probe("unspot-timing", _position("us-fire", far_spotted, PROBE, options={"c22-autospot-range": "max-range"}),
              ("end", "end"), ("c20-unspot-timing",)),
        # Assault 10.B.2 (c7): the urban strip A1311 between two units blocks the line of sight or not
        Probe("urban-strip-los", _position("soviet-move-1", strip, PROBE), ("end",), ("c7-urban-strip-los",),
              ("constants",)),
        Probe("spotting-number", _position("us-move-1", woods, dice=[1, 6]), ("move us B0506", "end"), (),
              ("spotting", "terrain-spotting", "target-status", "spotter-status")),
    ]


def _fire_probes() -> list:
    from studio.rules.conformance import Probe

    duel = [_unit("us", "us-m1-platoon", "us", "B1010", 3, spotted=True),
            _unit("su", "su-t80-platoon", "soviet", "B1012", 0, spotted=True)]
    exchange = ("fire us KP su", "end", "fire su KP us", "end")
    # TP 17 against the chobham flank 12 of an M-1 platoon: confirm on 5 or less (13.B.3)
    flank = [_unit("us", "us-m1-platoon", "us", "B1010", spotted=True),
             _unit("su", "us-m1-platoon", "soviet", "B1012", 3, spotted=True)]
    tp = ("fire us TP su", "end", "end")
    # 16 HE (two M-1 steps, 8 each at range 1) on infantry in clear (defence 4) sharing its hex with an M-1 platoon
    crowd = [_unit("us", "us-m1-platoon", "us", "B1010", spotted=True), _unit("us2", "us-m1-platoon", "us", "B1011"),
             _unit("su", "su-motor-rifle-platoon", "soviet", "B1011", spotted=True)]
    he = ("fire us HE su", "end", "end")
    lone = [_unit("us", "us-m1-platoon", "us", "B1010", 3, spotted=True),
            _unit("su", "su-t80-platoon", "soviet", "B1012", 0, spotted=True, steps=1)]
    # a suppressed BMP platoon fires its missile (5 at range 3) at M-1s in woods B0506 (13.A.4, 11.A.1)
    woods = [_unit("su", "su-bmp-platoon", "soviet", "B0806", suppressed=True),
             _unit("us", "us-m1-platoon", "us", "B0506", spotted=True)]
    # eight T-80 steps in the urban strip A1311 (defence 9, less 6 for the stacking, floor half of 9) under
    # 16 HE of an M-1 platoon at range 1; CRT roll 10
    strip = [_unit("us", "us-m1-platoon", "us", "A1310", spotted=True)] + [
        _unit(f"su{n}", "su-t80-platoon", "soviet", "A1311", spotted=True, company="A1") for n in range(4)]
    # a U.S. TOC (one personnel step in clear, defence 4) under 14 HE of a T-80 platoon at range 1, CRT roll 1
    toc = [_unit("su", "su-t80-platoon", "soviet", "B1011", spotted=True),
           _unit("toc", "us-toc", "us", "B1010", spotted=True),
           _unit("m1", "us-m1-platoon", "us", "B0101", company="toc")]
    jeep = [_unit("su", "su-bmp-platoon", "soviet", "B0606", suppressed=True, steps=1),
            _unit("us", "us-m151", "us", "B0506", spotted=True)]
    return [
        # Assault 13.A.3 (c9): a lone AFV step takes the -1 of the formula or nothing: KP 8 at range 2, roll 8
        Probe("single-afv-step", _position("us-fire", lone, dice=[8, 8, 10]), ("fire us KP su", "end", "end"),
              ("c9-single-afv-step",)),
        # Assault 13.A (c23): (5 // 2) - 1 = 1 in the text's order, (5 - 1) // 2 = 2 additions first; roll 2
        Probe("hit-modifier-order", _position("soviet-fire", woods, dice=[2, 2, 10, 10, 10]),
              ("fire su Msl us", "end", "end"), ("c23-hit-modifier-order",)),
        # Assault 14.A (c10): the floor of 9 is 5 (up: 16:5 reads 3:1, no effect) or 4 (down: 4:1, suppressed)
        Probe("defence-floor", _position("us-fire", strip, PROBE, dice=[10, 10]), ("fire us HE su0", "end", "end"),
              ("c10-defence-floor",)),
        # Assault 6.B.3 (c46): the TOC's lost step counts against its company's morale or not
        Probe("toc-step-loss", _position("soviet-fire", toc, dice=[1, 10]), ("fire su HE toc", "end", "end"),
              ("c46-toc-morale-loss",)),
        # Assault 11.A.1 (c11): a suppressed one-step BMP fires HE 5 at range 1, halved to 2 (1:2 against the
        # jeep's 3 in woods) or 3 (1:1); CRT roll 3
        Probe("suppressed-afv-halving", _position("soviet-fire", jeep, dice=[3, 10]), ("fire su HE us", "end", "end"),
              ("c11-halving",)),
        # Assault 12.D (c2): a platoon destroyed earlier in the phase still fires ('simultaneous') or not
        Probe("fire-resolution", _position("us-fire", duel, dice=[1] * 12), exchange, ("c2-fire-resolution",),
              ("constants",)),
        # Assault 12.B.1: KP at range 2 (column 2-3) hits on 8; with the columns one higher range 2 reads
        # column 1 (9): the rolls of 9 miss, or hit
        Probe("range-columns", _position("us-fire", duel, dice=[9, 9, 10, 10]), ("fire us KP su", "end", "end"),
              (), ("fire-ranges",)),
        # Assault 13.A (c24): two hits, one confirmation each or one for both; rolls 1 (two hits), 3, 9
        Probe("two-hits", _position("us-fire", flank, dice=[1, 3, 9, 10, 10, 10]), tp, ("c24-two-hits",)),
        # Assault 13.B.3: a confirmation roll of 6 fails against 5, passes with the addition one higher
        Probe("confirmation-edge", _position("us-fire", flank, dice=[1, 6, 6, 10, 10]), tp, (),
              ("hit-confirmation",)),
        # Assault 14.A (c25): the stacking penalty counts the target's side only, or every step in the hex
        Probe("defence-steps", _position("us-fire", crowd, dice=[10]), he, ("c25-defence-steps",),
              ("conventional-defence",)),
    ]


def _game_probes() -> list:
    from studio.rules.conformance import Probe

    apart = [_unit("su", "su-t80-platoon", "soviet", "B2121"), _unit("us", "us-m1-platoon", "us", "B0101")]
    leg = [_unit("inf", "us-mech-infantry-platoon", "us", "A0712"), _unit("su", "su-t80-platoon", "soviet", "B2220")]
    open_leg = [_unit("inf", "us-mech-infantry-platoon", "us", "A0913"),
                _unit("su", "su-t80-platoon", "soviet", "B2220")]
    return [
        # Assault 24.E (c30): no victory points on either side at the end
        Probe("victory-tie", _position("us-move-2", apart, turn=6), ("end",), ("c30-victory-tie",)),
        # Assault 7.F (c19): after its one hex a leg unit may re-face free, or keeps its facing
        Probe("leg-facing", _position("us-move-1", open_leg, PROBE, dice=[1], options=PAID), ("move inf A0914",),
              ("c19-leg-facing",)),
        # Assault 7.E (c18): woods A0613 needs 8 or less, the 10 fails: stay, or try another hex
        Probe("leg-roll", _position("us-move-1", leg, PROBE, dice=[10], options=PAID), ("move inf A0613",),
              ("c18-leg-roll-fail",), ("terrain-effects",)),
    ]


def _opportunity_probes() -> list:
    from studio.rules.conformance import Probe

    # a T-80 platoon moves into woods B0506 (no autospot there) four hexes from an M-1 platoon in cover
    hidden = [_unit("su", "su-t80-platoon", "soviet", "B0606"), _unit("us", "us-m1-platoon", "us", "B0906", cover=True)]
    # Soviet infantry enters clear B1011 (autospotted) next to two M-1 platoons in cover: two HE fires
    pair = [_unit("su", "su-motor-rifle-platoon", "soviet", "B1012"),
            _unit("us1", "us-m1-platoon", "us", "B1010", cover=True),
            _unit("us2", "us-m1-platoon", "us", "B0911", cover=True)]
    # six M-1 platoons (12 steps) in cover in one hex: at most ten steps fire (9.B)
    stack = [_unit("su", "su-t80-platoon", "soviet", "B1013")] + [
        _unit(f"u{n}", "us-m1-platoon", "us", "B1010", cover=True) for n in range(6)]
    fires = tuple(f"fire u{n} KP su" for n in range(5))
    mover = [_unit("us", "us-m1-platoon", "us", "B1010"), _unit("su", "su-t80-platoon", "soviet", "B2121")]
    # an unspotted Dragon platoon in cover in woods B0506 fires its missiles at a T-80 entering clear B0808
    # (autospotted, range 3): the T-80 gets a spotting attempt with the firing-missiles modifier first, or not
    dragon = [_unit("su", "su-t80-platoon", "soviet", "B0908"),
              _unit("us", "us-mech-infantry-platoon", "us", "B0506", cover=True)]
    return [
        Probe("missile-opp-spot", _position("soviet-move-1", dragon, dice=[1, 10, 10, 10], options=PAID),
              ("move su B0808", "fire us Msl su"), ("c45-missile-opp-unspotted",), ("target-status",)),
        # Assault 15 (c26): an unspotted mover may be fired at ('in-los') or not ('spotted')
        Probe("opp-unspotted", _position("soviet-move-1", hidden, options=PAID), ("move su B0506",), ("c26-opp-fire-spotted",)),
        # Assault 15.B (c40): the two HE fires make one attack (one CRT roll) or two
        Probe("opp-aggregation", _position("soviet-move-1", pair, dice=[1, 10, 10], options=PAID),
              ("move su B1011", "fire us1 HE su", "fire us2 HE su", "end"), ("c40-opp-fire-aggregation",)),
        # Assault 9.B (c41): the ten-step limit binds opportunity fire, or only fire-phase fire
        Probe("opp-fire-stack", _position("soviet-move-1", stack, options=PAID), ("move su B1012",) + fires,
              ("c41-fire-stack-scope",)),
        # Assault 12.B.4 (c43): a formation change counts as moving for own-turn fire, or only leaving the hex
        Probe("moved-counts", _position("us-move-1", mover), ("form us march",), ("c43-moved",)),
    ]


def _command_probes() -> list:
    from studio.rules.conformance import Probe

    # the U.S. company HQ C/1 (its rating from table command-ratings, rolled with the game's seed) and a
    # platoon of its company; the U.S. has no off-board OPs on the Meeting's turn 1
    company = [_unit("hq", "us-hq", "us", "B0101", designation="HQC1"),
               _unit("p", "us-m1-platoon", "us", "B0102", designation="1C1"),
               _unit("su", "su-t80-platoon", "soviet", "B2121")]
    # two Soviet platoons without designation: only the off-board OP (1 on the Meeting's turn 1) pays
    pair = [_unit("a", "su-t80-platoon", "soviet", "B2120"), _unit("b", "su-t80-platoon", "soviet", "B2119"),
            _unit("us", "us-m1-platoon", "us", "B0101")]
    staff = [_unit("toc", "us-toc", "us", "B0101", designation="TOC1"),
             _unit("hq", "us-hq", "us", "B0102", designation="HQ1"),
             _unit("su", "su-t80-platoon", "soviet", "B2121")]
    shaken = [_unit("p", "us-m1-platoon", "us", "B1010"),
              _unit("e1", "su-t80-platoon", "soviet", "B1012", spotted=True),
              _unit("e2", "su-t80-platoon", "soviet", "B1006", spotted=True)]
    # platoon 1C1 cross-attached to HQB1 (not on the map); its own company HQ C/1 and the battalion HQ 1 are
    attached = [_unit("p", "us-m1-platoon", "us", "B0102", designation="1C1", attached="HQB1"),
                _unit("hqc", "us-hq", "us", "B0101", designation="HQC1"),
                _unit("hq1", "us-hq", "us", "B0103", designation="HQ1"),
                _unit("su", "su-t80-platoon", "soviet", "B2121")]
    return [
        # Assault 17.C (c27): a broken company HQ C/1 is rallied with the battalion HQ's OPs, or never
        Probe("broken-hq-rally", _position("us-move-1", attached[1:], morale={"hqc": {"state": "broken"}}), (),
              ("c27-broken-hq-rally",)),
        # Assault 4.C.4 (c5): the attached platoon obeys HQB1's chain (HQ1 pays), HQB1 alone (nobody pays), or its
        # own chain first (HQC1 pays)
        Probe("cross-attach-scope", _position("us-move-1", attached), ("move p B0202",), ("c5-cross-attach-scope",)),
        # Assault 4.B.1: the HQ's OPs are its rolled command rating
        Probe("command-rating", _position("us-move-1", company), ("end",), (), ("command-ratings",)),
        # Assault 4.B (c16): OPs left at the end of the first movement phase are lost or kept for the second
        Probe("unused-ops", _position("us-move-1", company), ("end", "end", "end"), ("c16-unused-ops",)),
        # Assault 4.C (c31): off-board OPs pay as for a visible hex (1) or not (2): the one OP moves a platoon
        # in combat formation, or none
        Probe("offboard-visibility", _position("soviet-move-1", pair), (), ("c31-offboard-ops-visibility",)),
        # Assault 6.A.2 (c17): a planning TOC adds its command rating in each movement phase or once a turn
        Probe("toc-planning", _position("us-move-1", staff), ("toc toc plan", "end", "end", "end"),
              ("c17-plan-accrual",)),
        # Assault 17.A.2 (c37): a shaken platoon between two spotted enemies may not close on either ('any-closer')
        # or only on the nearer one ('nearest-closer')
        Probe("shaken-toward", _position("us-move-1", shaken, options=PAID, morale={"p": {"state": "shaken"}}), (),
              ("c37-toward",)),
    ]


def _artillery_probes() -> list:
    from studio.rules.conformance import Probe

    far = _unit("su", "su-t80-platoon", "soviet", "B2121")
    # an M-109 battery (2 steps, 3 screens per step) deployed on B1010 observes for itself (delay 0, 19.B.2-3)
    m109 = [_unit("m", "us-m109-battery", "us", "B1010", deployed=True), far]
    # an M-125 mortar section (1 step, HE 3, incendiary smoke) deployed on B1010
    m125 = [_unit("m", "us-m125-mortar", "us", "B1010", deployed=True), far]
    inf = _unit("inf", "su-motor-rifle-platoon", "soviet", "B1011")
    dug_in = _unit("inf", "su-motor-rifle-platoon", "soviet", "B1011", entrenched=True)
    marsh = [_unit("m", "us-m109-battery", "us", "B0220", deployed=True), far]
    screen = [{"hex": "B1011", "kind": "chemical", "vertex": 0, "removed_at": 1}]
    # U.S. observer on A1010 for the off-board M-109 battery of the Probe (delay 'other' 1, 19.B.3)
    spotter = [_unit("obs", "us-m1-platoon", "us", "A1010"), _unit("su", "su-t80-platoon", "soviet", "B2121")]
    us = {"to_act": "us"}
    return [
        # Assault 19.D.3 (c12): three screens per step: six for the battery, or three per unit
        Probe("smoke-screens", _position("artillery", m109, **us),
              ("plot m B1011 smoke-chemical", "plot m B1012 smoke-chemical", "plot m B1013 smoke-chemical"),
              ("c12-smoke-screens",), (), {"wind": {"direction": "W", "strength": "strong"}}),
        # Assault 20.A.3-4 (c15): the incendiary screen faces a vertex along the west wind, or toward the enemy;
        # it goes at the start of next turn's artillery phase (table smoke-duration)
        Probe("smoke-orientation", _position("artillery", m125, **us), ("plot m B1011 smoke-incendiary", "end"),
              ("c15-smoke-orientation",), ("smoke-duration",), {"wind": {"direction": "N", "strength": "moderate"}}),
        # Assault 20.A.4 (c13): a screen due to go is adjusted before or after the missions are written
        Probe("smoke-removal", _position("artillery", m125, smoke=screen, **us), (), ("c13-smoke-removal",)),
        # Assault 19.C.5 (c34): HE 3 against infantry in clear (defence 4) reads 1:2; roll 10: no effect or S
        Probe("indirect-no-effect", _position("artillery", [m125[0], inf], dice=[10], **us),
              ("plot m B1011 HE", "end"), ("c34-indirect-no-effect",)),
        # Assault 19.C.3-4: HE 12 against infantry in clear (4) reads 3:1 (roll 1: E), against 5 only 2:1 (H)
        Probe("indirect-defence", _position("artillery", [m109[0], inf], dice=[1], **us),
              ("plot m B1011 HE", "end"), (), ("indirect-defence",)),
        # Assault 18 (c28): HE 12 against entrenched infantry: 14 on the conventional entrenchment row (1:2, roll
        # 1: S) or 12 on the indirect one (1:1: H)
        Probe("entrenched-indirect", _position("artillery", [m109[0], dug_in], dice=[1], **us),
              ("plot m B1011 HE", "end"), ("c28-entrenched-indirect",)),
        # Assault 19.D.2 (c8): ICM may fall on marsh B0320 ('distinct') or not ('same': marsh is swamp)
        Probe("icm-marsh", _position("artillery", marsh, **us), (), ("c8-marsh-swamp",)),
        # Assault 19.B.3: the off-board battery's mission arrives after the observer's delay
        Probe("indirect-delay", _position("artillery", spotter, PROBE, **us), ("plot m109-div/1 A1011 HE",), (),
              ("indirect-delay",)),
        # Assault 19.D.4 (c35): an M-1 platoon in march drives through a marked hex twice: attacked twice or once
        Probe("pass-through", _position("us-move-1", [_unit("us", "us-m1-platoon", "us", "B1010", formation="march")],
                                        dice=[10] * 6, markers=[{"hex": "B1011", "value": 12}]),
              ("move us B1011", "move us B1010", "move us B1011"), ("c35-pass-through",)),
    ]


def _supply_probes() -> list:
    from studio.rules.conformance import Probe

    # a Dragon platoon with its 3 missiles fired and an M-1 platoon with 12 TP/HE fired, a T-80 at range 3
    units = [_unit("inf", "us-mech-infantry-platoon", "us", "B1010"), _unit("m1", "us-m1-platoon", "us", "B1010"),
             _unit("su", "su-t80-platoon", "soviet", "B1013", spotted=True)]
    # the M-109 (CLGP) deployed on A1014 and its company's designator 1C1 on A1012; a T-80 platoon in cover on
    # A1010 facing the designator (the covered side: 8 // 2 = 4 with the 13.A modifiers); roll 6
    clgp = [_unit("m", "us-m109-battery", "us", "A1014", deployed=True),
            _unit("d", "us-m1-platoon", "us", "A1012", designation="1C1"),
            _unit("su", "su-t80-platoon", "soviet", "A1010", 3, cover=True, spotted=True)]
    # option c36: in a strong wind (position extension wind) the M-1 fires IS at the T-80, or not
    strong = {"direction": "W", "strength": "strong"}
    # option c42: a full M-2 carrying two half-strength infantry platoons destroyed by two KP hits
    carried = [_unit("m2", "us-m2-platoon", "us", "B1010", spotted=True),
               _unit("i1", "us-mech-infantry-platoon", "us", "B1010", steps=1),
               _unit("i2", "us-mech-infantry-platoon", "us", "B1010", steps=1),
               _unit("su", "su-t80-platoon", "soviet", "B1012", 0, spotted=True)]
    carried[0]["passengers"] = ["i1", "i2"]
    return [
        # Assault 23 (option ammo-supply): nothing tracked, the Dragon's 3 tracked (limited), or every load
        Probe("ammo-supply", _position("us-fire", units, ammo={"inf": {"Msl": 3}, "m1": {"m1-tp-he": 12}}), (),
              ("ammo-supply",)),
        # Assault 22 (clgp, c29): a CLGP mission can be written or not; directed at base 8, or 4 with 13.A.1
        Probe("clgp", _position("artillery", clgp, PROBE, dice=[6, 10, 10], to_act="us", options={"clgp": "on"}),
              ("plot m A1011 CLGP", "end"), ("c29-clgp-modifiers",)),
        Probe("clgp-option", _position("artillery", clgp, PROBE, to_act="us"), (), ("clgp",)),
        Probe("strong-wind-is", _position("us-fire", units[1:], wind=strong), (), ("c36-strong-wind-is",)),
        # Assault 8.E (c42): one passenger lost at random and the other suppressed, or both lost
        Probe("carrier-destroyed", _position("soviet-fire", carried, dice=[1, 1, 10, 10]),
              ("fire su KP m2", "end", "end"), ("c42-carrier-two-passengers",)),
    ]


def _geometry_probes() -> list:
    """Sight lines along hex spines and through vertices, and steep slopes (c21, c39, c32)."""
    from studio.rules.conformance import Probe

    # B1010 -> B0911 runs along the spine between B0910 (clear) and B1011 (woods, one level up): blocked when
    # either flank blocks, clear when both must
    spine = [_unit("su", "su-t80-platoon", "soviet", "B1010"), _unit("us", "us-m1-platoon", "us", "B0911")]
    # the M-1 at B1001 fires KP (8 at range 2) at a T-80 platoon in cover at B0902 facing vertex 1 (covered
    # hexsides 1 and 2); the line passes through the vertex between hexsides 0 and 1 (clear flanks): covered
    # (4, the roll 6 misses) or not (8, it hits), and frontal armour or flank
    vertex = [_unit("us", "us-m1-platoon", "us", "B1001", spotted=True),
              _unit("su", "su-t80-platoon", "soviet", "B0902", 1, spotted=True, cover=True)]
    # a leg unit fatigued by a first-phase climb onto the knoll A1615, in the second movement phase
    climber = [_unit("inf", "us-mech-infantry-platoon", "us", "A1615", fatigued=True, formation="march"),
               _unit("su", "su-t80-platoon", "soviet", "B2220")]
    return [
        Probe("los-spine", _position("soviet-move-1", spine), ("end",), ("c21-los-spine",)),
        Probe("vertex-boundary", _position("us-fire", vertex, dice=[6, 10, 10, 10]), ("fire us KP su", "end", "end"),
              ("c39-vertex-boundary",)),
        Probe("slope-fatigue", _position("us-move-2", climber, PROBE), ("end",), ("c32-slope-fatigue",)),
    ]


def probes() -> list:
    return _spotting_probes() + _fire_probes() + _game_probes() + _opportunity_probes() + _command_probes() + \
        _artillery_probes() + _supply_probes() + _geometry_probes()
