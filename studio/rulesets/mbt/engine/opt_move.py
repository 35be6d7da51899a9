"""The movement optional rules (MBT 7.29-7.34) as one mixin for :class:`~.advanced.AdvState`: each rule's code is
in its own module (``opt_mines``, ``opt_terrain``); every rule is off unless the scenario switches it on."""
from __future__ import annotations

from .adv_move import ADV_MOVE_SLOTS, AdvMoveRules  # MBT 6.6.1.2, 6.6.3, 6.6.4.3, 6.6.6, 6.6.7.2, 6.6.8
from .full_cover import FullCoverRules
from .leg_levels import LevelSpottingRules  # MBT 6.1.4.3.1: under the Full Cover spotter rule
from .hull_down import HullDownRules
from .opt_assault_cover import AssaultCoverRules
from .opt_avlb import AvlbRules
from .opt_engineers import EngineerRules
from .opt_fires import FiresRules
from .opt_hedgerow import HedgerowRules
from .opt_long_guns import LongGunRules
from .opt_mines import MinesRules
from .opt_narrow import NarrowRoadRules
from .opt_terrain import TerrainMoveRules

#: the AdvState slots the movement optional rules and quickmarch keep (``advanced.AG_SLOTS``)
MOVE_SLOTS = ("mines", "plow", "bogged", "qm", "ovr", "hd", "hdrev", "razed", "burning", "fire_gp", "cov0", "escort",
              "fc", "fcq", "shoulder", "avlb", "avlbc", "avlbh", "inb") + ADV_MOVE_SLOTS


class MoveOptionalRules(AdvMoveRules, HedgerowRules, AvlbRules, NarrowRoadRules, AssaultCoverRules, LongGunRules, EngineerRules,
                        FiresRules, MinesRules, TerrainMoveRules, HullDownRules, FullCoverRules,
                        LevelSpottingRules):
    """MBT 7.10 hedgerow spotting, 7.19 engineers vs terrain, 7.20 long guns, 7.29 bogging, 7.30 narrow roads,
    7.31 mines, 7.32 weight limits, 7.33 dual driving controls, 7.34 amphibious, 7.35 fires, 7.41 vehicle assault
    cover, 7.49 AVLB; and the Advanced Hull Down positions (6.6.9, 6.5.2.2.3), Full Cover (6.1.4.2, 6.8.3) and the
    rest of the Advanced movement chapter (``adv_move``)."""

    __slots__ = ()


__all__ = ["MoveOptionalRules", "MOVE_SLOTS"]
