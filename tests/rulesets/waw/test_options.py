"""Every World at War option with two or more choices changes what happens (issue 10: options are real).

One test per option (named after it), each comparing the choices on the same situation. Options the engine cannot
expose are listed in the plugin's ``unexposable_options`` with the reason; the last test checks that list.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import DATA, at, build, finish_turn, index, legal, rolls, to_ops, u  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402


def each(option, choices, run):
    """``run(options)`` for every choice of ``option``: the results, keyed by choice."""
    return {c: run({option: c}) for c in choices}


def hex_with(g, code, level=0):
    return next(h for h in sorted(g.hexes) if g.terrain[h] == code and g.level[h] == level)


# ---------------------------------------------------------------- combat values

def test_c03_leopard_example():
    def run(opts):
        g, s = build([("us-tow-jeep", "4J14")], [("su-t72", "4T1")], options=opts)
        jeep = u(g, "us.1")
        s.hex[jeep] = hex_with(g, "W")
        s.ops_complete[jeep] = True                          # not Concealed: only the terrain counts
        return s.defense_dice(jeep)
    out = each("c03_leopard_example", ["woods_1d6", "as_printed_3d6"], run)
    assert out["woods_1d6"] == (1, 5) and out["as_printed_3d6"] == (3, 5)


def test_c04_unarmored_ap_hit():
    def run(opts):
        g, s = build([("us-tow-jeep", "4J14")], [("su-t72", "4J10")], options=opts)
        jeep = u(g, "us.1")
        s.apply_hits(jeep, 1, ap_armored=True)
        return s.disr[jeep], s.strength[jeep]
    out = each("c04_unarmored_ap_hit", ["reduce_and_disrupt", "disrupt"], run)
    assert out == {"reduce_and_disrupt": (True, 1), "disrupt": (True, 0)}


def test_c05_thin_skinned_saves():
    def run(opts):
        g, s = build([("us-m113", "4J14")], [("su-t72", "4T1")], options=opts)
        return s.defense_dice(u(g, "us.1"))
    out = each("c05_thin_skinned_saves", ["armor", "terrain"], run)
    assert out["armor"] != out["terrain"] and out["terrain"][1] == 5


def test_c06_infantry_vs_vehicles():
    def run(opts):
        g, s = build([("us-mech-infantry", "4J14")], [("su-btr70", "4J13")], options=opts)
        s.dice.force(3, 3, 3, 3, 3, 3)           # Assault Hit 4: a 3 hits only with the -1
        return s._assault_dice(u(g, "us.1"), [u(g, "su.1")], at(g, "4J13"), False, False)
    out = each("c06_infantry_vs_vehicles", ["all_vehicles", "heavily_armored_only"], run)
    assert out["all_vehicles"] > out["heavily_armored_only"]   # Hit -1 only against an all-vehicle hex


def _smoke_between(g, s, a, b):
    for st in g.hexes:
        if 1 < distance(st, s.hex[a]) and 1 < distance(st, s.hex[b]) and distance(st, s.hex[a]) + \
                distance(st, s.hex[b]) == distance(s.hex[a], s.hex[b]):
            return st
    raise AssertionError("no smoke hex")


def test_c07_smoke_imaging():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], options=opts)
        m60, t72 = u(g, "us.1"), u(g, "su.1")
        before = s.fire_numbers(m60, t72, "ap", "normal")
        g.units[m60].body.advanced_imaging = True
        try:
            s.smoke[_smoke_between(g, s, m60, t72)] = 2
            return before, s.fire_numbers(m60, t72, "ap", "normal")
        finally:
            g.units[m60].body.advanced_imaging = False
    out = each("c07_smoke_imaging", ["plus_one_total", "minus_one"], run)
    (fp, hit), after = out["plus_one_total"]
    assert after == (fp, hit + 1) and out["minus_one"][1] == (fp, hit - 1)


def test_c08_flying_heli_underline():
    def run(opts):
        g, s = build([("us-ah1-cobra", "4J14")], [("su-bmp2", "4J12")], options=opts)
        return s.fire_numbers(u(g, "su.1"), u(g, "us.1"), "ap", "normal")    # underlined range, plain AP
    out = each("c08_flying_heli_underline", ["range", "firepower"], run)
    assert out["range"] is None and out["firepower"] is not None


def test_c25_heli_he_armor():
    def run(opts):
        g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")], options=opts)
        s.hover[u(g, "us.1")] = True
        return s.fire_numbers(u(g, "us.1"), u(g, "su.1"), "he", "normal")
    out = each("c25_heli_he_armor", [True, False], run)
    assert out[True] == (3, 4) and out[False] is None


def test_c37_leadership_cap():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-t72", "4J10")], options=opts,
                     extension={"leaders": [{"unit": "su-leader", "force": "su", "index": 1}]})
        g.units[u(g, "su.1")].body.full.leadership = 2
        try:
            mark = len(s.dice.history)
            s._fire(u(g, "su.2"), u(g, "us.1"), "ap", "normal")
            return len(rolls(s, mark, "attack"))
        finally:
            g.units[u(g, "su.1")].body.full.leadership = 1
    out = each("c37_leadership_cap", ["capped", "uncapped"], run)
    assert out["uncapped"] == out["capped"] + 1    # HQ 2 + Leader 1 = 3 extra dice, capped at 2


def test_c49_half_range():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], options=opts)
        m60, t72 = u(g, "us.1"), u(g, "su.1")
        s.hex[t72] = next(h for h in sorted(g.hexes) if g.terrain[h] == "C" and not g.level[h]
                          and distance(h, s.hex[m60]) == 5 and g.los.clear(s.hex[m60], h))
        return s.fire_numbers(m60, t72, "ap", "normal")      # range 9: half is 4 (floor) or 5 (ceil)
    out = each("c49_half_range", ["floor", "ceil"], run)
    fp, hit = out["floor"]
    assert out["ceil"] == (fp, hit - 1)                      # 6.1.2 reduced-range bonus at 5 only when ceil


def test_c50_adjacent_flying():
    def run(opts):
        g, s = build([("us-ah1-cobra", "4J14")], [("su-bmp2", "4J13")], options=opts)
        return s.fire_numbers(u(g, "su.1"), u(g, "us.1"), "ap", "normal")
    out = each("c50_adjacent_flying", ["underline_wins", "adjacent_wins"], run)
    assert out["underline_wins"] is None and out["adjacent_wins"] is not None


def test_c54_underline_uses():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], options=opts)
        s.depleted[u(g, "us.1")] = 2
        return s.fire_numbers(u(g, "us.1"), u(g, "su.1"), "ap", "normal")
    out = each("c54_underline_uses", ["range_ap", "underlined_ap"], run)
    assert out["range_ap"] is not None and out["underlined_ap"] is None   # M60A3: underlined AP, plain range


def test_c57_towed_target():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-d30", "4J10")], options=opts)
        return g.tclass[u(g, "su.1")][0], s.fire_numbers(u(g, "us.1"), u(g, "su.1"), "ap", "normal")
    out = each("c57_towed_target", ["thin_skinned", "soft"], run)
    assert out["thin_skinned"][0] == "thin" and out["soft"][0] == "soft"
    assert out["thin_skinned"][1] is not None and out["soft"][1] is None   # AP cannot attack a soft target


def test_c48_sw_opfire():
    def run(opts):
        ext = {"support_weapons": [{"unit": "us-dragon-sw", "force": "us", "index": 0}]}
        g, s = build([("us-mech-infantry", "4J14")], [("su-truck", "4J12")], options=opts, extension=ext)
        s.dice.force(1, 1, 1)                      # the platoon's 3 HE dice miss
        mark = len(s.dice.history)
        s._fire(u(g, "us.1"), u(g, "su.1"), "he", "opfire")
        return len(rolls(s, mark, "attack"))
    out = each("c48_sw_opfire", [True, False], run)
    assert out == {True: 3 + 2, False: 3}


# ---------------------------------------------------------------- command, morale, sequence

def test_c11_ooc_rally():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], options=opts)
        m60 = u(g, "us.1")
        s.disr[m60] = s.out_of_command[m60] = True
        mark = len(s.dice.history)
        s.dice.force(1, 1)
        s._rally(0)
        return rolls(s, mark, "rally"), s.disr[m60]
    out = each("c11_ooc_rally", [True, False], run)
    assert out[True] == ([1, 1], False) and out[False] == ([], True)


def test_c13_skip_marker():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], options=opts)
        while s.pending[0] != "decide":
            s.play(s.legal_actions()[-1])
        fi = s.pending[1]
        s.cup.append(("E", 0))                     # an End Turn marker still in the cup
        s.play(g.parse_action("skip " + g.formations[fi].id))
        return s.activated, ("F", fi) in s.cup or s.pending == ("decide", fi)
    out = each("c13_skip_marker", ["set_aside", "back_to_cup"], run)
    assert out["set_aside"][1] is False and out["back_to_cup"][1] is True


def test_c14_jam_threshold():
    def run(opts):
        g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-m60a3", "4A1")], [("su-t72", "2A1")],
                     options=opts)
        s.jammed = {0: 1}
        s.dice.force(3)
        s._command(0, False)
        return s.out_of_command[u(g, "us.3")]
    out = each("c14_jam_threshold", [2, 3, 4, 5, 6], run)
    assert out == {2: False, 3: False, 4: True, 5: True, 6: True}


def test_c15_chaos_seven():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], options=opts)
        s.dice.force(3, 4, 2, 2, 3, 6, 6, 6)        # 7, then 3d6 = 7 again, then 18
        mark = len(s.dice.history)
        s._chaos()
        return len(rolls(s, mark, "chaos")), s.log[-1].action
    out = each("c15_chaos_seven", ["reroll_3d6", "apply_7"], run)
    assert out["reroll_3d6"] == (8, "chaos 18") and out["apply_7"] == (5, "chaos 7")


def test_c16_battle_drill_artillery():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-t72", "4J10")], options=opts,
                     extension={"artillery": [{"id": "he", "side": "soviet", "formula": "2 x 45"}]},
                     morale=(None, {"value": 12}))
        s.drill = 1                                # a Battle Drill impulse
        to_ops(s, "f-su")
        s.drill = 1
        return any(a.startswith("call ") for a in legal(s))
    out = each("c16_battle_drill_artillery", [True, False], run)
    assert out == {True: True, False: False}


def test_c18_dpicm():
    def run(opts):
        g, s = build([("us-m60a3", "4J12")], [("su-t72", "4A1")], options=opts)
        m60 = u(g, "us.1")
        s.dice.force(3, 3)
        s.artillery_he(at(g, "4J12"), 2, 3, dpicm=True, nato=False)   # Alliance DPICM
        return s.disr[m60], s.strength[m60]
    out = each("c18_dpicm", ["nato_reduces", "all_reduce", "disrupt_only"], run)
    assert out == {"nato_reduces": (True, 0), "all_reduce": (True, 1), "disrupt_only": (True, 0)}
    g, s = build([("su-t72", "4J12")], [("us-m60a3", "4A1")], options={"c18_dpicm": "disrupt_only"})
    s.dice.force(3, 3)
    s.artillery_he(at(g, "4J12"), 2, 3, dpicm=True, nato=True)        # even NATO DPICM only Disrupts
    assert s.strength[u(g, "us.1")] == 0


def test_c20_rendezvous_lock():
    def run(opts):
        g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "4T1")], options=opts,
                     morale=({"value": 12}, None), markers=(2, 1), extension={"cup": {"end_turn": 0}})
        to_ops(s)
        inf, m113 = u(g, "us.1"), u(g, "us.2")
        s.mp_used[inf] = 1.0                       # a rendezvous: the infantry moved first
        s.play(g.parse_action("load us.1 us.2"))
        s.play(g.parse_action("end"))
        assert s.turn == 1
        return s.locked[m113]
    out = each("c20_rendezvous_lock", ["turn", "impulse"], run)
    assert out == {"turn": True, "impulse": False}


def test_c29_hq_leadership_checks():
    def run(opts):
        g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "2A1"), ("su-t72", "2A1")], options=opts,
                     soviet2=[("su-mr-hq", "2A14"), ("su-motor-rifle", "2A14"), ("su-motor-rifle", "2J1")])
        rifles = next(i for i, f in enumerate(g.formations) if f.id == "f-su2")
        s.hex[u(g, "su.1")] = s.hex[u(g, "su.2")] = at(g, "2J1")   # the tank HQ stacked with a far rifle platoon
        s.dice.force(3, 4)                         # 7 > 6: fails unless the stacked HQ's Leadership 1 helps
        s._command(rifles, False)
        return s.out_of_command[u(g, "su2.3")]
    out = each("c29_hq_leadership_checks", ["rally", "rally_and_command"], run)
    assert out == {"rally": True, "rally_and_command": False}


def test_c34_two_markers_skip():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], markers=(2, 2), options=opts)
        while s.pending[0] != "decide":
            s.play(s.legal_actions()[-1])
        return sorted(a.kind for a in s.legal_actions())
    out = each("c34_two_markers_skip", [True, False], run)
    assert out == {True: ["activate", "skip"], False: ["activate"]}


def test_c45_miscommunication_oc():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], options=opts)
        m60 = u(g, "us.1")
        s.ops_complete[m60] = True
        start = s.hex[m60]
        s.dice.force(1, 2)
        s._chaos()
        return s.hex[m60] != start
    out = each("c45_miscommunication_oc", [True, False], run)
    assert out == {True: True, False: False}


def test_c51_held_end_turn():
    from studio.rules.load import load_game

    def run(opts):
        game = load_game(DATA / "scenarios" / "waw" / "waw-crossroads.yaml", DATA, options=opts).game
        s = game.new_initial_state(0)
        finish_turn(s)                             # every formation set aside
        return list(s.held_marker)
    out = each("c51_held_end_turn", ["per_side", "per_formation"], run)
    assert max(out["per_side"]) == 1 and max(out["per_formation"]) == 2


def test_c66_command_morale_hex_is_unexposable():
    from studio.rulesets.waw import PLUGIN

    assert "c66_command_morale_hex" in PLUGIN.unexposable_options


def test_c23_hq_type():
    def run(opts):
        g, s = build([("us-mech-hq", "4J14"), ("us-mech-infantry", "4J14"), ("us-m60a3", "4J14")],
                     [("su-t72", "4T1")], options=opts)
        return sorted(g.formations[0].hq_company)
    out = each("c23_hq_type", ["formation", "formation_and_type"], run)
    assert len(out["formation"]) == 2 and len(out["formation_and_type"]) == 1   # only the M60A3 is an AFV
    # played out in test_deviations.test_1_3_3_1_hq_follows_the_last_unit_of_its_type


def test_c41_heli_12_hexes():
    def run(opts):
        g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")], markers=(2, 1), options=opts,
                     extension={"cup": {"end_turn": 0}})
        to_ops(s)
        s.heli_moves[u(g, "us.1")] = 13
        s.play(g.parse_action("end"))
        to_ops(s)
        return s.heli_moves[u(g, "us.1")]
    assert each("c41_heli_12_hexes", ["activation", "turn"], run) == {"activation": 0, "turn": 13}


# ---------------------------------------------------------------- assault, HQ, SW, Hero

def test_c31_hq_trigger():
    def run(opts):
        g, s = build([("us-armor-hq", "4J12"), ("us-m60a3", "4J12")], [("su-t72", "4A1")], options=opts)
        s.disr[u(g, "us.2")] = True                # already Disrupted: HE can do nothing more to a tank
        s.dice.force(6, 1)
        mark = len(s.dice.history)
        s.artillery_he(at(g, "4J12"), 1, 5)
        return rolls(s, mark, "hq")
    out = each("c31_hq_trigger", ["any_hit", "disrupt_or_reduce"], run)
    assert out == {"any_hit": [1], "disrupt_or_reduce": []}


def test_c32_assault_more_hits():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J13")], options=opts,
                     extension={"fortifications": {"improved_positions": ["4J13"]}})
        m60 = u(g, "us.1")
        s.dice.force(6, 1, 1, 1, 1, 1, 1, 1)       # 1 Hit scored, negated by the IP; none back
        s._assault([m60], at(g, "4J13"))
        return s.hex[m60] == at(g, "4J13")
    out = each("c32_assault_more_hits", ["applied", "scored"], run)
    assert out == {"applied": False, "scored": True}


def test_c33_assault_saves():
    def run(opts):
        g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4J13")], options=opts)
        mark = len(s.dice.history)
        s.dice.force(6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6)
        s._assault([u(g, "us.1")], at(g, "4J13"))
        return len(rolls(s, mark, "save")) > 0
    out = each("c33_assault_saves", ["none", "saves"], run)
    assert out == {"none": False, "saves": True}


def test_c62_sw_loss_trigger():
    def run(opts):
        ext = {"support_weapons": [{"unit": "su-sagger-sw", "force": "su", "index": 0}]}
        g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4A1"), ("su-t72", "4A2")], options=opts,
                     extension=ext)
        mark = len(s.dice.history)
        s._destroy(u(g, "su.2"))                   # a tank platoon is lost
        return rolls(s, mark, "sw-loss")
    out = each("c62_sw_loss_trigger", ["any_platoon", "infantry_only"], run)
    assert len(out["any_platoon"]) == 1 and out["infantry_only"] == []


def test_c64_hero_first_hit():
    def run(opts):
        g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4J10")], options=opts,
                     extension={"heroes": [{"unit": "us-hero", "force": "us", "index": 0}]})
        inf, t72 = u(g, "us.1"), u(g, "su.1")
        s.ops_complete[inf] = True
        first = s.resolve_hits(inf, 1, "he", t72)
        second = s.resolve_hits(inf, 1, "he", t72)
        return first, second
    out = each("c64_hero_first_hit", ["per_attack", "once"], run)
    assert out["per_attack"] == (0, 0) and out["once"] == (0, 1)


def test_c67_artillery_calls():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-brdm2", "4J11"), ("su-t72", "4J10")],
                     options=opts, morale=(None, {"value": 12}),
                     extension={"artillery": [{"id": "he", "side": "soviet", "formula": "4 x 45"}]})
        to_ops(s, "f-su")
        s.calls = {u(g, "su.1"): 2}                # the HQ called twice
        return any(a.startswith("call su.2 ") for a in legal(s))
    out = each("c67_artillery_calls", ["per_caller", "per_formation"], run)
    assert out == {"per_caller": True, "per_formation": False}


def test_c70_disrupted_assault():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J13")], options=opts,
                     morale=({"value": 12}, None))
        to_ops(s)
        s.disr[u(g, "us.1")] = True
        return "assault us.1 4J13" in legal(s)
    out = each("c70_disrupted_assault", ["forbid", "hit_6"], run)
    assert out == {"forbid": False, "hit_6": True}


# ---------------------------------------------------------------- movement, artillery

def test_c40_chemical():
    def run(opts):
        ext = {"artillery": [{"id": "gas", "side": "soviet", "type": "Chemical", "formula": "1 x 45",
                              "nationality": "Cuba"}]}
        g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-t72", "4J10")], options=opts,
                     extension=ext, morale=(None, {"value": 12}))
        to_ops(s, "f-su")
        return any(a.startswith("call su.1 gas ") for a in legal(s))
    out = each("c40_chemical", ["soviet_only", "alliance"], run)
    assert out == {"soviet_only": False, "alliance": True}


def test_c61_texas_scrub_vehicles():
    def run(opts):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], options=opts)
        m60 = u(g, "us.1")
        scrub = hex_with(g, "S")
        nb = next(n for n in g.nbrs[scrub] if g.terrain[n] == "C" and not g.map.road(n, scrub))
        s.hex[m60] = nb
        return s._terrain_cost(m60, nb, scrub)
    out = each("c61_texas_scrub_vehicles", ["trail_only", "ignore_cost"], run)
    assert out == {"trail_only": None, "ignore_cost": 1.0}


def test_c74_mlrs_rolls():
    def run(opts):
        g, s = build([("us-m60a3", "4J12")], [("su-t72", "4A1")], options=opts)
        mark = len(s.dice.history)
        s.mission("MLRS", at(g, "4J12"), 3, 4, False)
        return len(rolls(s, mark, "attack"))
    out = each("c74_mlrs_rolls", ["per_hex", "shared"], run)
    assert out == {"per_hex": 7 * 3, "shared": 3}


# ---------------------------------------------------------------- completeness

def test_every_option_is_tested_or_declared_unexposable():
    from studio.rulesets.waw import PLUGIN

    rs = index().model("ruleset", "waw")
    names = set(globals())
    for o in rs.options:
        assert len(o.choices) >= 2, o.id
        tested = any(n.startswith(f"test_{o.id[:3]}") for n in names)
        assert tested or o.id in PLUGIN.unexposable_options, o.id
    for oid, reason in PLUGIN.unexposable_options.items():
        assert oid in {o.id for o in rs.options} and len(reason) > 20
