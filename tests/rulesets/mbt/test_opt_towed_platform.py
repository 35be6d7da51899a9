"""Optional Rule 7.16 Platform Gun Mounts (``platform-gun-mounts``, example MA126): the NSV HMG (SM-14A) fires in
any direction, pivoting to face a target outside its front field of fire, and its Overwatch shots take the
Overwatch Front modifier. Without the rule a towed unit fires only into its front 60 degrees (MBT 5.2)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from towed_fixtures import act, clear_pair, legal, towed_state, unit  # noqa: E402

RULE = ("platform-gun-mounts",)


def _behind(card: str, rules, command: str = "FIRE", dice=(50, 50, 50)):
    """``card`` faces away from a US squad 4 hexes behind it."""
    a, b, d = clear_pair(4)
    return towed_state([unit("N", card, "sov", a, (d + 3) % 6, command=command),
                        unit("T", "us-mech-squad", "us", b, (d + 3) % 6)], to_act="sov", rules=rules, dice=list(dice)), d


def test_without_the_rule_a_towed_unit_fires_only_to_its_front():
    # MBT 5.2: all towed units have a Front 60 degree field of fire
    st, _ = _behind("nsv-hmg", ())
    assert not [x for x in legal(st) if x.startswith("fire")]


def test_ma126_platform_mount_fires_behind_and_pivots_to_face_the_target():
    # MBT 7.16 (MA126): the NSV fires at a target outside its field of fire and pivots to face it
    st, d = _behind("nsv-hmg", RULE)
    assert "fire N at T hmg:GP" in legal(st)
    act(st, "fire N at T hmg:GP")
    assert st.fac[0] == d
    assert any("pivots on its platform mount" in e for e in st.events)


def test_the_rule_needs_the_card_flag():
    # MBT 7.16: only the towed cards with a Platform Gun Mount (the SPG-9 has none)
    st, _ = _behind("spg-9", RULE)
    assert not [x for x in legal(st) if x.startswith("fire")]


def _overwatch(rules):
    a, b, d = clear_pair(4)
    st = towed_state([unit("N", "nsv-hmg", "sov", a, (d + 3) % 6, command="OW"),
                      unit("T", "us-mech-squad", "us", b, d, command="MOVE")], phase="move-first", to_act="us",
                     rules=rules, dice=[50] * 4)
    act(st, "move T")
    act(st, "fwd T")
    return st, d


def test_ma126_platform_mount_overwatches_in_any_direction_with_the_front_modifier():
    # MBT 7.16 (MA126): for Overwatch its field of fire faces the target; every shot takes the Overwatch Front
    # modifier (gp-fire-modifiers overwatch -5, never overwatch-adjust -10)
    off, _ = _overwatch(())
    assert not [x for x in legal(off) if x.startswith("ow ")]
    st, d = _overwatch(RULE)
    assert "ow N at T hmg:GP" in legal(st)
    row = st.game.units[0].type.ap[0]
    band = st.gp_factor(row, 4)[0]
    m = st.game.ag.gp_mod
    assert st.gp_modifiers(0, 1, row, band, True) - st.gp_modifiers(0, 1, row, band, False) == m["overwatch"]
    act(st, "ow N at T hmg:GP")
    assert st.fac[0] == d


def test_platform_mount_pivots_to_any_hexside():
    # MBT 7.16: the target lies along hexside (d + 3) % 6 this time (the last of the six)
    a, b, d = clear_pair(4)
    st = towed_state([unit("N", "nsv-hmg", "sov", b, d, command="FIRE"), unit("T", "us-mech-squad", "us", a, d)],
                     to_act="sov", rules=RULE, dice=[50, 50, 50])
    act(st, "fire N at T hmg:GP")
    assert st.fac[0] == (d + 3) % 6


def test_no_pivot_for_a_target_in_front():
    # MBT 7.16: only a target outside the field of fire makes the gun pivot
    a, b, d = clear_pair(4)
    st = towed_state([unit("N", "nsv-hmg", "sov", a, d, command="FIRE"), unit("T", "us-mech-squad", "us", b, d)],
                     to_act="sov", rules=RULE, dice=[50, 50, 50])
    act(st, "fire N at T hmg:GP")
    assert st.fac[0] == d and not any("pivots" in e for e in st.events)
