"""MBT Advanced Game: every roll of random playouts of both sample Advanced scenarios is made with its rule's die
(MBT 3.2: roll (10) or roll (100); ``adv_states.dice_sides``), and the playouts run without an engine error."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import adv_game  # noqa: E402



@pytest.mark.parametrize("scenario, seed, steps", [("mbt-adv-combined-arms", 1, 2000), ("mbt-adv-combined-arms", 2, 2000),
                                                   ("mbt-adv-air-strike", 3, 150)])
def test_random_playout_rolls_the_rules_dice(scenario, seed, steps, dice_sides):
    # whole games of the combined-arms scenario (about 750 actions), the first turns of the slower air strike
    g = adv_game(scenario=scenario)
    st = g.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.play(rng.choice(st.legal_actions()))
    assert len(dice_sides) > 2   # the playout rolled for several rules (each roll checked after the test)
