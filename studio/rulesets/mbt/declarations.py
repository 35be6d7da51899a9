"""What the MBT engine declares to the core (``RulesetPlugin`` fields): the tables it reads, the scenario
environment fields its rules use, and the options and tables the conformance probes cannot expose (with why).

Kept free of engine imports except the table specs, so registering the plugin stays cheap."""
from __future__ import annotations

from studio.model.registry import lazy

from .engine.data import ENGINE_TABLES

#: MBT 7.36.1 limited visibility (light, night turns) and the scenario's visibility cap, both on spotting
ENVIRONMENT_FIELDS = frozenset({"visibility", "light", "night_turns"})

NOT_YET = "the Advanced Game engine does not model {what} yet (COVERAGE-ADVANCED.md), so no choice changes play"

BOARDS = "the sample boards (board-2, board-4) have no {what}, and a probe can only place units on a scenario's " \
         "boards; the option is tested on synthetic terrain in tests/rulesets/mbt ({test})"

UNEXPOSABLE_OPTIONS = {
    "gully-two-up": BOARDS.format(what="gully or stream hexes", test="test_M45_gully_sees_one_height_up_only_adjacent"),
    "hedgerow-crossing": BOARDS.format(what="hedgerow hexsides", test="test_hedgerow_crossing_option"),
    "blind-zone-n": BOARDS.format(what="obstacle whose blind zone differs between the two readings",
                                  test="test_M35_M37_M38_M39_blind_zones, test_blind_zone_options"),
    "hexside-obstacle-distance": BOARDS.format(what="blocking hexsides (crest, hedgerow)",
                                               test="test_blind_zone_options"),
    "available-commands-grade": "Q10: a position's formations take their side's Force Grade (scenario "
                                "formation_grades apply to scenario forces only), so both readings give the same "
                                "grade in a probe; test_adv_adv_formation_grades.py plays both on the sample scenario",
    "special-armor-rounding": "no sample card's penetration lies between the exact and the table-row armor of a "
                              "location (e.g. 130 vs 133): the armor differs but the result does not "
                              "(test_adv_fire.py::test_era_on_t62mv_hull_front shows both values)",
    "aa-radar-gun-spoofing": "read only when AA radars are active (option aa-radar-state 'active'; probes play one "
                             "option at a time with the others at their defaults, and 'optical' is the default) "
                             "against an aircraft with an ECM Pod "
                             "(test_adv_air_fw.py::test_ma66_ecm_pod_spoofs_radar_tracked_guns plays both)",
}

_AG_ROW = "Advanced Game row (MBT 6.1.3.3): the Recon spotting bonus is not modelled yet (COVERAGE-ADVANCED.md)"

_READ = "; each cell is read (tests/rulesets/mbt/test_adv_tables.py runs check_tables_read on it)"

#: Advanced Game tables no probe can expose, with why
AG_UNEXPOSABLE = {
    "initiative": "Force Grade modifiers are compared between the sides: one more on every grade changes no "
                  "comparison (MBT 6.3.2; test_adv_command.py::test_initiative_force_grade_modifier)" + _READ,
    "ap-number-of-hits": "the published row is for hit number 56 and ROF F: no sample AP weapon has ROF F "
                         "(test_adv_fire.py::test_known_number_of_hits_row_56_rof_f)" + _READ,
    "ap-hit-locations": "one more on every tens cell leaves a tens without a row, which the engine refuses "
                        "(mbt.engine-data); the rows are played by test_adv_fire.py" + _READ,
    "special-armor-rows": "read only under option special-armor-rounding 'table-row' (probes perturb tables with "
                          "the default options; test_adv_fire.py::test_era_on_t62mv_hull_front)" + _READ,
    "ap-damage-modifiers": "applies to S-Type vehicles only and no sample card is an S-Type vehicle" + _READ,
}

UNEXPOSABLE_TABLES = {
    **AG_UNEXPOSABLE,
    "spotting-modifiers:spotter-recon:modifier": _AG_ROW,
    "range-factors": "the reading order is relative: raising every order by one keeps the order (each cell alone "
                     "is read: check_tables_read)",
}

#: Optional Rules (issue 13) no probe can show changing play, with why (``RulesetPlugin.unexposable_optional_rules``);
#: each area adds its own entries
UNEXPOSABLE_OPTIONAL_RULES: dict[str, str] = {
    # 7.20 long guns, 7.33 dual driving, 7.45 small turrets, 7.48 CIS: exposed by probes_opt_optb.py on the
    # hypothetical M1 test-bed card
}

#: MOVE: tables of movement optional rules no probe can expose on the sample data
UNEXPOSABLE_TABLES["bog-modifiers"] = ("the only row is the towing modifier (MBT 7.29), and no sample vehicle can tow: "
                                       "MBT fields no towed unit with a towed component (6.6.7.1); "
                                       "test_opt_towed_rules.py tows with test-only cards")
#: MBT 6.5.4.2.2 (EXM): the leg GP Defense cover of Brush, Crops and buildings is text (cover names) only
UNEXPOSABLE_TABLES["leg-gp-cover"] = ("its cells are cover names, no numeric cell to perturb (read by leg.leg_gp_cover; "
                                      "test_examples_m_adv.py::test_m191_leg_gp_defense_cover_of_brush_crops_and_buildings "
                                      "plays every row but the placeholder stone one)")
UNEXPOSABLE_TABLES["long-gun-terrain"] = "read only with a Long Gun card, and no sample card has one (MBT 7.20)"

#: MBT 6.6.4.1 (building levels, leg_levels.py): read only in a building of two or more stories
UNEXPOSABLE_OPTIONS["upper-floor-exit"] = (
    "read only for a leg unit on the top floor of a multi-story building, and no sample scenario has one (scenario "
    "extension building_stories; a probe plays a scenario's own map); test_adv_leg_levels.py::"
    "test_down_first_a_unit_on_the_top_floor_does_not_leave_the_hex and ::test_free_exit_the_step_out_brings_it_down "
    "play both readings on a game copy with building_stories")

#: FIRE: direct-fire optional rules no probe can expose on the sample data (each tested on game copies)
UNEXPOSABLE_OPTIONS["track-small-arms-factor"] = (
    "every sample vehicle that fires AP also has a non-small-arms GP weapon, and ATGMs and hand-held AT weapons "
    "always keep their Track hits (MBT 7.21); test_opt_fire_damage.py::test_track_factor_of_units_without_a_gp_weapon "
    "plays both readings on a game copy")
AG_UNEXPOSABLE["small-turret-locations"] = UNEXPOSABLE_TABLES["small-turret-locations"] = (
    "read only for vehicles noted Small Turret (MBT 7.45) and no sample card is; test_opt_fire_turrets.py plays "
    "the rows" + _READ)

DECLARATIONS = {
    "unexposable_optional_rules": UNEXPOSABLE_OPTIONAL_RULES,
    "unexposable_tables": UNEXPOSABLE_TABLES,
    "probes": lazy("studio.rulesets.mbt.probes:probes"),
    "engine_tables": ENGINE_TABLES,
    "environment_fields": ENVIRONMENT_FIELDS,
    "unexposable_options": UNEXPOSABLE_OPTIONS,
}

#: COMMAND: night aids work only on limited-visibility turns; no Advanced sample scenario has one and a position
#: cannot change a scenario's light (test_opt_command_spotting.py::test_night_ir_searchlight plays it at night)
UNEXPOSABLE_TABLES["night-aids"] = ("read only on limited-visibility turns (MBT 7.36.4): every Advanced sample "
                                    "scenario is in daylight and a position cannot change the light")
