"""The Advanced movement chapter's rules (MBT 6.6.1.2 advancing attacks, 6.6.3 buildings, 6.6.4.3 crawling, 6.6.6
barrage movement, 6.6.7.2 transported fire, 6.6.8 Hasty Entrenchments and Improved Positions) and the Pivot Step
of the Advanced Adjustment Phase (6.8.1, played with the Adjust Full Cover Step) as one mixin for
:class:`~.advanced.AdvState`; each rule's code is in its own module."""
from __future__ import annotations

from .advancing import AdvancingRules
from .barrage_move import BarrageMoveRules
from .buildings import BuildingMoveRules
from .crawl import CrawlRules
from .entrench import EntrenchRules
from .ip_hull_down import IP_SLOTS, ImprovedHullDownRules
from .leg_levels import LEVEL_SLOTS, LegLevelsRules
from .motorcycles import MotorcycleRules
from .pivot import PIVOT_SLOTS, PivotRules
from .transported_fire import TransportedFireRules
from .transported_observers import TransportedObserverRules
from .transported_overwatch import TransportedOverwatchRules

#: the AdvState slots of this chapter (``advanced.AG_SLOTS`` through ``opt_move.MOVE_SLOTS``)
ADV_MOVE_SLOTS = ("crawled", "cr_mk", "hasty", "bfires", "bhit", "adv_pend") + PIVOT_SLOTS + LEVEL_SLOTS + IP_SLOTS


class AdvMoveRules(PivotRules, LegLevelsRules, MotorcycleRules, ImprovedHullDownRules, AdvancingRules,
                   TransportedObserverRules, TransportedOverwatchRules, TransportedFireRules, BarrageMoveRules, BuildingMoveRules, CrawlRules, EntrenchRules):
    """MBT 6.6.1.2, 6.6.3, 6.6.4.3, 6.6.6, 6.6.7.2, 6.6.8 (with 6.1.4.3.6-7), 6.8.1; building levels (6.1.4.3.1, 6.6.4.1:
    ``leg_levels``); motorcycles (6.6.4.4: ``motorcycles``);
    an Improved Position's Hull Down (6.1.4.3.7: ``ip_hull_down``); passengers observing for indirect fire
    (6.6.7.2: ``transported_observers``) and Overwatch (``transported_overwatch``)."""

    __slots__ = ()


__all__ = ["AdvMoveRules", "ADV_MOVE_SLOTS"]
