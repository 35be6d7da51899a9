"""Alerting friendly units to a spotted minefield with a Command Card (option ``minefield-alert``, BfOps p.11,
B43, A31), and what observations show of minefields and barrages: positions and play with forced dice."""
from __future__ import annotations

import pytest

from studio.rulesets.bfops.engine.alert import Alert
from studio.rulesets.bfops.engine.state import Pass

from .conftest import unit

ZONE = [unit("a", "nato-m60a1", "nato", 47, 20, 0, element="tanks"),      # 7.5" south of the hidden minefield
        unit("c", "nato-m60a1", "nato", 44, 21, 0, element="others"),     # also in its 10" zone
        unit("z", "wp-t62", "warpac", 69, 47, 180)]


def _spot(position, option):
    """The Move Phase's spotting: 'a' spots the minefield (1 <= UR 6 - 3); 'c' rolls 10 if it must roll."""
    s = position(ZONE, phase="command", dice=[1, 10], options={"minefield-alert": option})
    s.play(Pass())
    s.play(Pass())
    return s


def test_b43_by_default_the_spotted_minefield_frees_the_whole_side(position):
    s = _spot(position, "side")
    assert s.mines_known[0] == {"ford-mines"}
    assert s.compulsory_minefield(s.unit("c")) is None
    assert not any(label.startswith("spot minefield c") for label, _ in s.dice.history)


def test_a31_with_command_card_alerting_only_the_spotters_element_knows_until_a_card_is_spent(position):
    s = _spot(position, "command-card")
    assert not s.mines_known[0]
    assert s.compulsory_minefield(s.unit("a")) is None                  # its element found it
    assert s.compulsory_minefield(s.unit("c")) is not None              # the rest still must move straight
    assert ("spot minefield c>ford-mines", 10) in s.dice.history
    while s.phase != "command":
        s.play(s.legal_actions()[0])
    s.hand, s.player, s.legal_cache = [2, 0], 0, None
    assert Alert("ford-mines") in s.legal_actions()
    s.play(Alert("ford-mines"))
    assert s.hand[0] == 1 and s.mines_known[0] == {"ford-mines"}
    assert s.compulsory_minefield(s.unit("c")) is None
    assert Alert("ford-mines") not in s.legal_actions()


@pytest.mark.parametrize("option", ["side", "command-card"])
def test_the_player_sees_a_minefield_any_of_its_units_spotted(position, option):
    s = _spot(position, option)
    view = s.observation(0)
    assert "ford-mines" in {a.id for a in view.game.geometry.areas}
    assert "ford-mines" not in {a.id for a in position(ZONE, phase="command").observation(0).game.geometry.areas}
    assert not s.observation(1).mines_local                            # nor does the enemy learn what it knows


def test_an_observation_hides_who_fired_the_enemy_barrages(position):
    s = position(ZONE, phase="command")
    s.barrages = {"unit:z": ("a", 1, 4, 47.0, 20.0), "unit:a": ("z", 1, 4, 69.0, 47.0)}
    assert set(s.observation(0).barrages) == {"unit:a"}
    assert set(s.observation(1).barrages) == {"unit:z"}
