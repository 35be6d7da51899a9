"""Command control details a mutation run of the engine found untested (COVERAGE.md, Measurements): the
cross-attachment limits counted in platoons (4.C.4) and HQ replacement for the Soviet side (4.C.3), through
positions and legal actions."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


def state_of(index, units, phase, extension=None, scenario="assault-probe", **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index,
                       {o.id: o.default for o in rs.options} | {"c31-offboard-ops-visibility": "visible"} | options)
    doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase, "units": units,
           "extension": extension or {}}
    return game.state_from_position(Position.model_validate(doc))


def u(uid, card, side, hexlabel, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


FAR = u("far", "su-t80-platoon", "soviet", "B2220")


def attachable(state, hq):
    """The platoons and sections (not the HQs) that may be cross-attached to ``hq`` now."""
    return sorted(a.split()[1] for a in state.legal_actions()
                  if a.startswith("attach ") and a.endswith(" " + hq) and not a.split()[1].startswith("hq"))


# ------------------------------------------------------------------ cross-attachment limits (4.C.4)
def test_three_sections_count_as_one_platoon_for_a_company_hq(index):
    """4.C.4: a U.S. company takes up to two platoons, any three sections counting as one platoon. HQB1 already
    holds a platoon and two sections (1 2/3 platoons): a third section still fits (exactly 2), a platoon does
    not; once the third section is in, a fourth does not."""
    units = [u("hqb", "us-hq", "us", "A0116", designation="HQB1"),
             u("p1", "us-m1-platoon", "us", "A0117", designation="1C1", attached="HQB1"),
             u("s1", "us-m3-section", "us", "A0118", designation="1S1", attached="HQB1"),
             u("s2", "us-m3-section", "us", "A0118", designation="2S1", attached="HQB1"),
             u("s3", "us-m3-section", "us", "A0119", designation="3S1"),
             u("s4", "us-m3-section", "us", "A0119", designation="4S1"),
             u("p2", "us-m1-platoon", "us", "A0120", designation="2C1"),
             u("hqc", "us-hq", "us", "A0121", designation="HQC1"), FAR]
    state = state_of(index, units, "us-move-1", extension={"ops": {"us": {"HQC1": 4, "HQ1": 4}}})
    assert attachable(state, "HQB1") == ["s3", "s4"]
    state.play("attach s3 HQB1")
    assert attachable(state, "HQB1") == []


def test_a_company_hq_with_two_sections_takes_one_more_platoon_equivalent_of_sections(index):
    """4.C.4: two sections are two thirds of a platoon: with one platoon attached, a second platoon no longer
    fits beside them (1 + 2/3 + 1 > 2), but with the sections alone it does (2/3 + 1)."""
    units = [u("hqb", "us-hq", "us", "A0116", designation="HQB1"),
             u("s1", "us-m3-section", "us", "A0118", designation="1S1", attached="HQB1"),
             u("s2", "us-m3-section", "us", "A0118", designation="2S1", attached="HQB1"),
             u("p1", "us-m1-platoon", "us", "A0117", designation="1C1"),
             u("p2", "us-m1-platoon", "us", "A0120", designation="2C1"),
             u("hqc", "us-hq", "us", "A0121", designation="HQC1"), FAR]
    state = state_of(index, units, "us-move-1", extension={"ops": {"us": {"HQC1": 4}}})
    assert attachable(state, "HQB1") == ["p1", "p2"]
    state.play("attach p1 HQB1")
    assert attachable(state, "HQB1") == []


# ------------------------------------------------------------------ HQ replacement (4.C.3), the Soviet side
def test_a_soviet_battalion_hq_is_replaced_on_a_platoon_of_its_battalion(index):
    """4.C.3: the Soviet battalion HQ (no company HQs, 3.C.2) comes back on a platoon of its own battalion: HQ3
    on the 3rd battalion's C3, not on the 2nd battalion's C2 nor at the regiment's TOC."""
    units = [u("c3", "su-motor-rifle-platoon", "soviet", "A1010", designation="C3"),
             u("c2", "su-motor-rifle-platoon", "soviet", "A1012", designation="C2"),
             u("toc", "su-toc", "soviet", "A1014", designation="TOC91"),
             u("m1", "us-m1-platoon", "us", "B2220")]
    state = state_of(index, units, "soviet-move-1", extension={"ops": {"soviet": {"default": 2}}})
    state.dead_hqs = ((0, "HQ3", "su-hq"),)
    assert [a for a in state.legal_actions() if a.startswith("replace ")] == ["replace HQ3 c3"]
    state.play("replace HQ3 c3")
    hq = next(c for c in state.counters if c.designation == "HQ3")
    assert state.game.map.label_of[hq.hex] == "A1010" and next(c for c in state.counters if c.id == "c3").steps == 1


def test_a_soviet_regimental_hq_is_replaced_at_its_toc_with_a_uaz(index):
    """4.C.3: a regimental HQ comes back at its TOC with a UAZ-469, never on a platoon."""
    units = [u("c3", "su-motor-rifle-platoon", "soviet", "A1010", designation="C3"),
             u("toc", "su-toc", "soviet", "A1014", designation="TOC91"),
             u("m1", "us-m1-platoon", "us", "B2220")]
    state = state_of(index, units, "soviet-move-1", extension={"ops": {"soviet": {"default": 2}}})
    state.dead_hqs = ((0, "HQ91", "su-hq"),)
    assert [a for a in state.legal_actions() if a.startswith("replace ")] == ["replace HQ91 toc"]
    state.play("replace HQ91 toc")
    here = sorted(c.card for c in state.counters if state.game.map.label_of[c.hex] == "A1014")
    assert here == ["su-hq", "su-toc", "su-uaz469"]
    car = next(c for c in state.counters if c.card == "su-uaz469")
    assert car.steps == state.game.card("su-uaz469").body.steps == 1


# ------------------------------------------------------------------ ratings (4.B.1-2)
@pytest.mark.parametrize("scenario", ["assault-meeting", "assault-probe"])
def test_every_hq_and_toc_of_every_force_level_is_rated_by_one_roll(index, scenario):
    """4.B.1-2: one roll on table command-ratings per HQ (its command rating) and per TOC (command and planning
    ratings), for the HQs and TOCs of all the scenario's forces (the rolls say nothing of the level drawn)."""
    from studio.rules.dice import Dice
    from studio.rulesets.assault.designations import parse
    from studio.rulesets.assault.engine.command import rating_keys, roll_ratings
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options})
    keys = rating_keys(game)
    expected = set()
    for s, side in enumerate(game.scenario.sides):
        for force in side.forces:
            for text in game._slot_designations(force):
                d = parse(game.sides[s], text) if text else None
                if d is not None and (d.is_hq or d.role == "toc"):
                    expected.add((s, text.replace("-", "")))
    assert keys == sorted(expected) and any(k.startswith("TOC") for _, k in keys) and \
        any(k.startswith("HQ") for _, k in keys)
    row = {r[0]: dict(zip(rs.table("command-ratings").columns, r)) for r in rs.table("command-ratings").rows}[3]
    dice = Dice(0)
    dice.force(*[3] * len(keys))
    ratings = roll_ratings(game, dice)
    assert set(ratings) == set(keys)
    for (_, key), value in ratings.items():
        assert value == ((row["toc_command"], row["toc_planning"]) if key.startswith("TOC") else (row["hq_command"], 0))
    assert len(dice.history) == len(keys)


# ------------------------------------------------------------------ off-board OPs (4.B.3)
@pytest.mark.parametrize("scenario, side, turn, ops", [("assault-meeting", "soviet", 6, 1), ("assault-probe", "us", 8, 1),
                                                       ("assault-probe", "soviet", 3, 1),
                                                       ("assault-probe", "soviet", 2, None)])
def test_off_board_ops_of_each_turn_to_the_last(index, scenario, side, turn, ops):
    """4.B.3: the scenario lists the off-board OPs of every turn; the last turn's are granted too (the Meeting's
    Soviet 1 on turn 6, the Probe's U.S. 1 on turn 8), a turn listing 0 grants none."""
    units = [u("a", "su-t80-platoon", "soviet", "B2220"), u("b", "us-m1-platoon", "us", "B0101")]
    doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "phase": f"{side}-move-1", "units": units,
           "turn": turn}
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options})
    state = game.state_from_position(Position.model_validate(doc))
    assert state.ops[game.sides.index(side)].get("off-board") == ops


def test_the_unit_hq_spends_an_eliminated_tocs_track(index):
    """6.B.3 (A37): the planning track of an eliminated TOC is its unit HQ's to spend: an order paid from it
    lowers the track kept for the TOC."""
    units = [u("p", "us-m1-platoon", "us", "A0120", designation="1C1"),
             u("hq", "us-hq", "us", "A0121", designation="HQ1"), FAR]
    state = state_of(index, units, "us-move-1", extension={"ops": {"us": {"TOC1": 5}}})
    state.orphan_banks[(1, "TOC1")] = 5
    move = next(a for a in state.legal_actions() if a.startswith("move p "))
    state.play(move)
    assert state.ops[1]["TOC1"] == 4 and state.orphan_banks[(1, "TOC1")] == 4


@pytest.mark.parametrize("bank, hq_state, pool", [(5, "normal", 5), (5, "broken", None), (0, "normal", None)])
def test_an_eliminated_tocs_track_is_granted_to_its_hq_while_it_can_command(index, bank, hq_state, pool):
    """6.B.3, 5: at each friendly movement phase the track of an eliminated TOC is a pool for its unit HQ, unless
    that HQ is broken or the track is empty."""
    units = [u("hq", "us-hq", "us", "A0121", designation="HQ1", company="HQ1"), FAR]
    state = state_of(index, units, "us-move-2", extension={"morale": {"HQ1": {"state": hq_state}}})
    state.orphan_banks[(1, "TOC1")] = bank
    state._grant_ops()
    assert state.ops[1].get("TOC1") == pool


def test_toc_orders_come_at_the_start_of_the_first_movement_phase_only(index):
    """6.A: a TOC is ordered to plan or execute at the start of its side's first movement phase: not once a unit
    of the side has moved, not in the second phase; a suppressed TOC may execute but not plan (6.B.1)."""
    units = [u("toc", "us-toc", "us", "A0120", designation="TOC1", toc_bank=3),
             u("hq", "us-hq", "us", "A0121", designation="HQ1"),
             u("p", "us-m1-platoon", "us", "A0220", designation="1C1", formation="march"), FAR]
    state = state_of(index, units, "us-move-1")
    assert {"toc toc plan", "toc toc execute"} <= set(state.legal_actions())
    state.play(next(a for a in state.legal_actions() if a.startswith("move p ")))
    assert not [a for a in state.legal_actions() if a.startswith("toc ")]
    second = state_of(index, units, "us-move-2")
    assert not [a for a in second.legal_actions() if a.startswith("toc ")]
    units[0] = u("toc", "us-toc", "us", "A0120", designation="TOC1", toc_bank=3, suppressed=True)
    dazed = state_of(index, units, "us-move-1")
    assert [a for a in dazed.legal_actions() if a.startswith("toc ")] == ["toc toc execute"]
