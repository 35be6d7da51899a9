"""Deep snow and iced roads on Bog checks (BfOps p.12; digest c.10; B53, B54).

- Deep snow: ground is one step worse (``game.ground_of``), and ground that was Extreme already takes a further
  -2 on every Bog check its row gives (table ``procedures`` deep_snow_extreme_bog; reading ``deep-snow-extreme``:
  Rough ground made Extreme takes the Extreme row without the extra -2). B53: Extreme in deep snow at Cruise -4,
  faster -5, below Cruise -3.
- Iced roads (A9: "limit all movement to less than Cruise" vs "if Cruise speed is reached"): movement is held
  below Cruise (``state._speed``); a vehicle that still reaches Cruise (moving double-time) makes a Bog check at
  -3 (``procedures`` iced_road_bog) as it sets off; failure bogs it, and its next Move Phase a second, mandatory
  Bog check at the same number frees it or, failed, disables it (reading ``iced-roads``).
"""
from __future__ import annotations


def snow_extra(game, x: float, y: float) -> float:
    """The deep-snow extra on a Bog check at (x, y): -2 on ground already Extreme, else 0."""
    if game.scenario.environment.weather != "deep_snow" or game.ground_of(x, y, weather=False) != "extreme":
        return 0.0
    return game.tables.procedure("deep_snow_extreme_bog")                  # BfOps p.12


def _iced(state, card) -> bool:
    return state.game.scenario.environment.weather == "iced_roads" and card.propulsion not in ("foot", "none")


def iced_bog(state, u, card, band: str) -> bool:
    """A vehicle reaching Cruise on iced roads: the Bog check at -3; True when it bogs (it does not move)."""
    if not _iced(state, card) or band == "cruise":
        return False
    number = card.bog_check + state.game.tables.procedure("iced_road_bog")
    roll = state.dice.roll(10, f"bog ice {u.id}")
    if roll <= number:
        state.narrate(f"{u.id} reaches Cruise on iced roads: Bog check roll {roll} <= {number:g}")
        return False
    u.bogged = True
    state.work[f"iced:{u.id}"] = 1
    state.narrate(f"{u.id} reaches Cruise on iced roads: Bog check roll {roll} > {number:g}: bogged (BfOps p.12)")
    return True


def iced_free(state, u) -> None:
    """The mandatory second Bog check of a vehicle bogged on iced roads: freed, or disabled (BfOps p.12)."""
    if state.work.pop(f"iced:{u.id}", None) is None:
        return
    card = state.game.card_of(u)
    number = card.bog_check + state.game.tables.procedure("iced_road_bog")
    roll = state.dice.roll(10, f"bog ice free {u.id}")
    if roll <= number:
        u.bogged = False
        state.narrate(f"{u.id} frees itself on the ice: Bog check roll {roll} <= {number:g}")
    else:
        u.disabled = True
        state.narrate(f"{u.id} fails to free itself on the ice: roll {roll} > {number:g}: disabled (BfOps p.12)")
