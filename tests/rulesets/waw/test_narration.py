"""World at War narration for the replay viewer (COMMON narration contract): ``state.events`` tells each fire,
assault, overrun and artillery result, and the attack and save rolls are labelled with the units, only while
``dice.record`` is set; batch play (the default) records and narrates nothing."""
from __future__ import annotations

import random
from pathlib import Path

from studio.rules.load import load_game

from .helpers import at, build, to_ops, u

DATA = Path(__file__).resolve().parents[3] / "data"


def test_fire_is_narrated_with_labelled_rolls():
    g, s = build([("us-m60a3", "2C14")], [("su-t72", "2A14")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    mark, before = len(s.dice.history), len(s.events)
    fp, hit = s.fire_numbers(m60, t72, "ap", "normal")
    s.dice.force(*[6] * fp, *[1] * 10)             # every attack die hits, every save fails
    s._fire(m60, t72, "ap", "normal")
    said = s.events[before:]
    assert said[0].startswith("us.1 ") and " fires AP at su.1 " in said[0] and "range 2 (normal)" in said[0]
    assert f"{fp} dice hit on {hit}+: {fp} Hit(s)" in said[0]
    assert said[1].startswith("su.1 ") and f"saves 0 of {fp} Hit(s)" in said[1]
    assert said[1].endswith(("Disrupted", "Reduced", "Reduced and Disrupted", "destroyed"))
    labels = {lab for lab, _ in s.dice.history[mark:]}
    assert "attack AP us.1>su.1" in labels and "save su.1" in labels


def test_assault_and_artillery_are_narrated():
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J13")])
    m60, inf = u(g, "us.1"), u(g, "su.1")
    s.dice.force(*[6] * 12)
    s._assault([m60], at(g, "4J13"))
    assert any(e.startswith("Assault on 4J13: us.1 ") and "defenders su.1 " in e for e in s.events)
    g, s = build([("us-81mm-mortar", "2A14"), ("us-mech-hq", "4C10"), ("us-m2-bradley", "4C10")],
                 [("su-motor-rifle", "4A12")])
    mortar, hq, inf = u(g, "us.1"), u(g, "us.2"), u(g, "su.1")
    target = at(g, "2N9")
    s.hex[inf], s.hex[mortar] = target, at(g, "2N13")
    s.hex[hq] = s.hex[u(g, "us.3")] = at(g, "2N7")
    s.dice.force(2, 6, 6, 6)
    s._indirect(mortar, target)
    assert any(e.startswith("us.1 ") and "fires indirectly" in e and "spotted" in e for e in s.events)
    assert any(e.startswith("Artillery on 2N9: ") for e in s.events)


def test_an_artillery_call_names_the_accuracy_roll():
    g, s = build([("us-m60a3", "4T14")], [("su-mr-hq", "2A1"), ("su-t72", "2J14")],
                 extension={"artillery": [{"id": "su-he", "side": "soviet", "type": "HE", "formula": "2 x 54"}]})
    hq, t72 = u(g, "su.1"), u(g, "su.2")
    ai = [a.id for a in g.assets].index("su-he")
    s.dice.force(1)                                # accuracy 1: on target
    s._call(hq, ai, at(g, "4T14"))
    assert any(e.startswith("su.1 ") and "calls HE (su-he" in e and "accuracy 1, on target" in e for e in s.events)


def test_batch_play_records_and_narrates_nothing():
    """The default state (batch play, bots) keeps no rolls and no narration; with ``dice.record`` the same game
    narrates and plays the same actions (narration changes nothing)."""
    game = load_game(DATA / "scenarios" / "waw" / "waw-crossroads.yaml", DATA).game

    def play(record):
        st = game.new_initial_state(4)
        st.dice.record = record
        rng = random.Random(4)
        prints = []
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            prints.append(st.fingerprint())
        return st, prints

    quiet, quiet_prints = play(False)
    loud, loud_prints = play(True)
    assert quiet.events == [] and quiet.dice.history == []
    assert loud.events and loud.dice.history
    assert quiet_prints == loud_prints          # the narration is outside the fingerprint and changes no play
    assert any(" fires " in e for e in loud.events)


def test_clones_and_views_start_without_narration():
    g, s = build([("us-m60a3", "2C14")], [("su-t72", "2A14")])
    to_ops(s)
    s.dice.force(6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1)
    s._fire(u(g, "us.1"), u(g, "su.1"), "ap", "normal")
    assert s.events
    assert s.clone().events == [] and s.observation(1).events == []
    print_before = s.fingerprint()
    s.events.append("anything")
    assert s.fingerprint() == print_before
