"""Direct fire arithmetic (Assault 12-14): range columns, anti-armour hit numbers and results, conventional
defence and odds. Every number comes from the compiled ruleset (``AssaultData``) and the options."""
from __future__ import annotations

from dataclasses import dataclass

from .data import AssaultData


def range_column(data: AssaultData, rng: int) -> int | None:
    """Assault 12.B.1: the index of the fire chart's range column holding ``rng``; None = out of range."""
    for i, col in enumerate(data.ranges):
        if col.low <= rng <= col.high:
            return i
    return None


@dataclass(frozen=True, slots=True)
class HitSituation:
    """What modifies an anti-armour hit number (Assault 13.A.1-4, 11.A.1)."""

    covered_side: bool = False     # target in cover and the LOS crosses one of its two covered hexsides
    cover_divisor: int = 0         # the target card's divisor (M-901: 3); 0 = the ruleset's cover-divisor
    afv_steps: int = 2             # AFV steps in the target hex
    missile_in_woods: bool = False
    firer_suppressed_afv: bool = False


def _multi_target(data: AssaultData, steps: int, options: dict) -> int:
    """Assault 13.A.3: + steps // 2 - 1; option c9 decides whether a lone AFV step takes the -1."""
    if steps <= 1 and options.get("c9-single-afv-step") == "none":
        return 0
    return steps // data.constant("multi-target-divisor") + data.constant("multi-target-offset")


def hit_number(data: AssaultData, base: int, s: HitSituation, options: dict) -> int:
    """The final anti-armour hit number (Assault 13.A). Option c23: 'text-order' applies 13.A.1-2 (cover,
    fractions down), 13.A.3 (multiple targets), 13.A.4 (missiles into woods), then 11.A.1 (suppressed AFV
    firer); 'additions-first' adds 13.A.3 and 11.A.1 to the base before dividing."""
    multi = _multi_target(data, s.afv_steps, options)
    suppressed = data.constant("suppressed-afv-hit") if s.firer_suppressed_afv else 0
    first = options.get("c23-hit-modifier-order") == "additions-first"
    h = base + multi + suppressed if first else base
    if s.covered_side:
        h //= s.cover_divisor or data.constant("cover-divisor")      # Assault 13.A.1-2
    if not first:
        h += multi                                                    # Assault 13.A.3
    if s.missile_in_woods:
        h //= data.constant("missile-woods-divisor")                 # Assault 13.A.4
    return h if first else h + suppressed                             # Assault 11.A.1


def hits_scored(data: AssaultData, number: int, roll: int) -> int:
    """Assault 13.A: a roll at or under the hit number scores a hit, at or under it minus the margin two hits."""
    if roll <= number - data.constant("double-hit-margin"):
        return 2
    return 1 if roll <= number else 0


def confirmation_number(data: AssaultData, ammo: str, penetration: int, armour: int, armour_type: str) -> int | None:
    """Assault 13.B.3: None = no roll needed (KP penetrating, or non-penetration: suppression only); else the
    number to roll at or under for a step loss: (penetration - armour) + the armour type's addition."""
    if penetration < armour or ammo == "KP":
        return None
    return penetration - armour + data.confirmation[armour_type]


def penetrates(penetration: int, armour: int) -> bool:
    """Assault 13.B: a penetration below the armour only suppresses."""
    return penetration >= armour


def is_hit_number(data: AssaultData, anti_armour_hits: list[int]) -> int | None:
    """Assault 13.C (reading c52): IS against an AFV uses the least accurate anti-armour hit number at this range
    (X entries excluded) plus the ruleset's offset; None when the unit has none at this range."""
    return min(anti_armour_hits) + data.constant("is-hit-offset") if anti_armour_hits else None


def defence_value(data: AssaultData, chart_value: int, steps_in_hex: int, options: dict) -> int:
    """Assault 14.A: minus 1 per step in the hex beyond the free steps, never below half the chart value
    (option c10 rounds the half up or down)."""
    free = data.constant("defence-stack-free-steps")
    half, odd = divmod(chart_value, data.constant("defence-floor-divisor"))
    floor = half + (1 if odd and options.get("c10-defence-floor", "up") == "up" else 0)
    return max(chart_value - max(0, steps_in_hex - free), floor)


def odds(fire: int, defence: int) -> int:
    """Assault 14.C: the ratio rounded in favour of the target (down): 32 against 7 is 4 (to 1)."""
    return fire // defence if defence > 0 else fire
