"""The engine's numbers come from the ruleset file (issue 10: tables are real): editing one cell changes play.

Each test builds the same situation with the published value and with an edited copy of the ruleset
(``helpers.build(tables=...)``) and shows the rule follows the data.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, edited_ruleset, index, legal, rolls, to_ops, u  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.rulesets.waw import PLUGIN  # noqa: E402
from studio.rulesets.waw.engine.tables import compile_tables  # noqa: E402


def const(**values):
    return {"constants": {k: {"value": v} for k, v in values.items()}}


def test_engine_tables_declared_for_validation():
    ids = {t.id for t in PLUGIN.engine_tables}
    assert {"constants", "terrain_effects", "battlefield_chaos", "volley_fire", "targeting", "helicopter_los",
            "moving_fire_effects"} <= ids


def test_data_fingerprint_follows_every_compiled_value():
    base = compile_tables(index().model("ruleset", "waw")).fingerprint()
    for cells in (const(stack_limit=3), {"terrain": {"C": {"tracked": 2.0}}},
                  {"battlefield_chaos": {5: {"result": "thors_hammer"}}}, {"targeting": {"AP": {"infantry": True}}},
                  {"helicopter_los": {"wooded hill": {"flight_level": 4}}}):
        assert compile_tables(edited_ruleset(cells)).fingerprint() != base, cells
    g, _ = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    g2, _ = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables=const(soft_save=4))
    assert g.data_fingerprint() != g2.data_fingerprint()


def test_stack_limit():                             # WaW 1.4
    def moves(tables=None):
        g, s = build([("us-m60a3", "4J14"), ("us-m1-abrams", "4J13"), ("us-m60a3", "4J13")], [("su-t72", "4T1")],
                     morale=({"value": 12}, None), tables=tables)
        to_ops(s)
        return "move us.1 4J13" in legal(s)
    assert moves() is False and moves(const(stack_limit=3)) is True


def test_soft_save_and_armored_db_cap():             # WaW 6.1, 6.1.6
    g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4T1")], tables=const(soft_save=4))
    assert s.defense_dice(u(g, "us.1"))[1] == 4
    for cap, dice in ((2, 4 + 2), (1, 4 + 1)):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables=const(armored_db_cap=cap))
        t72 = u(g, "su.1")
        s.hex[t72] = next(h for h in sorted(g.hexes) if g.terrain[h] == "W")
        assert s.defense_dice(t72)[0] == dice          # woods 1 + Concealed 1, capped


def test_conditional_morale_cap_and_radius():      # WaW 1.6.1
    morale = (None, {"value": 2, "conditional": True})
    units = [("su-t72", "2A1"), ("su-t72", "2A1"), ("su-t72", "2C1"), ("su-t72", "2D1")]
    g, s = build([("us-m60a3", "4T14")], units, morale=morale)
    assert s.morale(u(g, "su.1")) == 2 + 2             # 2A1 and 2C1 within 2 hexes, 2D1 at 3
    g, s = build([("us-m60a3", "4T14")], units, morale=morale, tables=const(conditional_morale_radius=3))
    assert s.morale(u(g, "su.1")) == 2 + 3
    g, s = build([("us-m60a3", "4T14")], units, morale=morale, tables=const(conditional_morale_cap=3))
    assert s.morale(u(g, "su.1")) == 3


def test_helicopter_fire_move_limit():             # WaW 6.1.3.1
    for limit, fires in ((12, True), (5, False)):
        g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")], tables=const(helicopter_fire_move_limit=limit))
        to_ops(s)
        s.heli_moves[u(g, "us.1")] = 6
        assert any(a.startswith("fire us.1 ") for a in legal(s)) is fires


def test_overrun_multiplier():                     # WaW 6.4
    def dice(tables=None):
        g, s = build([("us-m60a3", "2B5")], [("su-motor-rifle", "2B4")], tables=tables)
        m60 = u(g, "us.1")
        exit_hex = next(x for x in g.nbrs[at(g, "2B4")] if x != s.hex[m60] and g.terrain.get(x) == "C")
        mark = len(s.dice.history)
        s._overrun(m60, at(g, "2B4"), exit_hex)
        return len(rolls(s, mark, "attack"))
    assert dice(const(overrun_multiplier=2)) == dice() - 2   # M60A3 Assault factor 2: 6 dice vs 4, + 3 back


def test_hq_loss_roll_modifier():                  # WaW 1.3.3.2
    for mod, result in ((-2, 1), (0, 0)):       # a 3, with -2 when a unit died: Reduced
        g, s = build([("us-armor-hq", "4J10"), ("us-m60a3", "4J10"), ("us-m1-abrams", "4J10")], [("su-t72", "4T1")],
                     tables=const(hq_loss_destroyed_mod=mod))
        s.dice.force(3)
        s._hq_check(at(g, "4J10"), 0, True, True)
        assert s.strength[u(g, "us.1")] == result


def test_thor_command_range():                     # Battlefield Chaos 14
    def command_rolls(tables=None):
        g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "2A1"), ("su-t72", "2A1"), ("su-t72", "2C1")],
                     tables=tables)
        s.thor = 1
        assert distance(at(g, "2A1"), at(g, "2C1")) == 2
        mark = len(s.dice.history)
        to_ops(s, "f-su")
        return len(rolls(s, mark, "command"))
    assert command_rolls() == 0 and command_rolls(const(thor_command_range=1)) == 2


def test_end_turn_markers_from_the_rules():        # WaW 1.7.2
    for n in (2, 3):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables=const(end_turn_markers=n))
        assert g.end_turn_markers == n
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], extension={"cup": {"end_turn": 1}},
                 tables=const(end_turn_markers=3))
    assert g.end_turn_markers == 1                    # the scenario's own number wins


def test_chaos_results_come_from_the_table():      # WaW 11.0
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables={"battlefield_chaos": {
        5: {"result": "thors_hammer"}}})
    s.dice.force(2, 3)
    s._chaos()
    assert s.thor == 1 and not s.comms
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables=const(chaos_breakdown=1))
    s.dice.force(3, 5)                               # 8: Wear and tear
    s._chaos()
    assert max(s.breakdown) == 1


def test_chaos_close_air_support_values():         # Chaos 4: one 3-4 HE mission
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables=const(chaos_cas_he_fp=5))
    a = next(a for a in g.assets if a.id == "chaos-he-34")
    assert (a.fp, a.to_hit) == (5, 4)


def test_built_up_terrain_class():                 # WaW 8.1: city HE saves with 2 dice
    def save_dice(tables=None):
        g, s = build([("us-mech-infantry", "4K5")], [("su-t72", "4A1")], tables=tables)
        assert g.terrain[at(g, "4K5")] == "T"
        s.dice.force(6)
        mark = len(s.dice.history)
        s.artillery_he(at(g, "4K5"), 1, 5)
        return len(rolls(s, mark, "save"))
    city = {"terrain_effects": {"T": {"db_infantry": 1}}}
    assert save_dice(city) == 2                      # built-up: city_artillery_db dice whatever the DB
    assert save_dice({"terrain_effects": {"T": {"db_infantry": 1, "terrain_class": "brush"}}}) == 1
    assert save_dice({"terrain_effects": {"T": {"db_infantry": 1}}, **const(city_artillery_db=3)}) == 3


def test_movement_costs_have_one_source():         # WaW 5.0, TEC
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables={"terrain": {"C": {"tracked": 2.0}}})
    m60 = u(g, "us.1")
    clear = next(n for n in g.nbrs[s.hex[m60]] if g.terrain[n] == "C" and not g.map.road(s.hex[m60], n)
                 and not g.map.hexside(s.hex[m60], n))
    assert s._terrain_cost(m60, s.hex[m60], clear) == 2.0


def test_targeting_table_cells():                  # WaW 6.1 Targeting Table
    for allowed in (False, True):
        g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J10")],
                     tables={"targeting": {"AP": {"infantry": allowed}}})
        assert (s.fire_numbers(u(g, "us.1"), u(g, "su.1"), "ap", "normal") is not None) is allowed


def test_moving_fire_effects():                    # WaW 6.1.3
    def numbers(tables=None):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], tables=tables)
        s.mp_used[u(g, "us.1")] = 1.0
        return s.fire_numbers(u(g, "us.1"), u(g, "su.1"), "ap", "moving")
    fp, hit = numbers()
    assert numbers({"moving_fire_effects": {"L1": {"hit_mod": 2, "fp_mod": -1}}}) == (fp - 1, hit + 1)


def test_volley_fire_numbers():                    # Volley Fire
    def dice(tables=None):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10"), ("su-t72", "4J9"), ("su-t72", "4K10")],
                     tables=tables)
        mark = len(s.dice.history)
        s._volley(u(g, "su.1"), [u(g, "su.2"), u(g, "su.3")], u(g, "us.1"))
        return len(rolls(s, mark, "attack"))
    assert dice({"volley_fire": {"dice_per_support": {"value": 2}}}) == dice() + 2


def test_helicopter_flight_levels():               # WaW 9.4 Helicopter LOS Table
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4T1")],
                 tables={"helicopter_los": {"clear terrain": {"flight_level": 2}}})
    assert g.los.flight_level(at(g, "4J14")) == 2


def test_compiled_tables_named_records():
    t = compile_tables(edited_ruleset({"battlefield_chaos": {5: {"result": "storm"}},
                                       "targeting": {"AA": {"afv": "yes_note_1"}}}))
    assert t.chaos[5] == "none" and t.chaos[14] == "thors_hammer"        # an unknown result does nothing
    assert "afv" in t.targeting["aa"] and "soft" in t.targeting["infantry_he"]
    assert t.codes_of("city", "ruins") == {"T", "RU"} and t.codes_of("nothing") == frozenset()
    assert t.heli_levels == (1, 2, 3) and t.mf_effects["L2"] == (-1, 1)
    assert t.ridges == {"slope", "ridge"} and t.features["stream"]["wheeled"] == 2.0
    assert t.move_cost["W"]["foot"] == 2.0 and t.volley["support_units"] == 2
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables={"battlefield_chaos": {5: {"result": "storm"}}})
    s.dice.force(2, 3)
    s._chaos()
    assert not s.comms and s.log[-1].action == "chaos 5"
