"""More exact-outcome tests written against the survivors of the sampled mutation run of 2026-12-01 (COVERAGE.md):
each pins a rule's numbers through play (legal actions, dice rolled, Hits, markers), so a changed comparison,
constant or dropped statement fails."""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, rolls, to_ops, u  # noqa: E402

from studio.rules.dice import Dice  # noqa: E402
from studio.rules.load import load_game  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "data"


# ---------------------------------------------------------------- WaW 1.0: every roll is a d6 (2d6 = two d6)

@pytest.mark.parametrize("name", ["waw-crossroads", "waw-hill-fight", "waw-lab"])
def test_every_roll_is_a_d6(name, monkeypatch):
    """WaW rolls only six-sided dice ("roll on a d6", "2d6"): a die of another size anywhere fails."""
    sizes = set()
    real = Dice.roll

    def roll(self, sides, label=""):
        sizes.add((sides, label))
        return real(self, sides, label)
    monkeypatch.setattr(Dice, "roll", roll)
    game = load_game(DATA / "scenarios" / "waw" / f"{name}.yaml", DATA).game
    bots = [game.make_bot("heuristic", s, s) for s in (0, 1)]
    for seed in range(2):
        st = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            p = st.current_player()
            a = bots[p].choose(st.observation(p), legal) if seed else legal[rng.randrange(len(legal))]
            st.apply(a)
    bad = {s for s in sizes if s[0] != 6}
    assert sizes and not bad, bad
