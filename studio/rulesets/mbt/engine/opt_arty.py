"""The artillery, smoke and indirect-fire optional rules as one mixin for :class:`~.advanced.AdvState`
(``ArtyRules``): 7.9 smoke dischargers, 7.22 infantry smoke (with the Advanced direct-fire smoke), 7.26 scatter,
7.27 illumination, 7.28 counter battery, 7.37 reconnaissance by fire, 7.38 air bursts, 7.39 dismounted FOs; the
smoke state and its functions (``smoke.py``), and the hooks ``advanced.py`` calls: reset, copy, fingerprint, turn start, Adjustment
Phase (6.8.6), the extra actions of the Command and Direct Fire steps and their application."""
from __future__ import annotations

from .actions import Action
from .if_data import if_data
from .opt_air_bursts import AirBurstRules
from .opt_counter_battery import CounterBatteryRules
from .opt_dismounted_fo import DismountedFoRules
from .opt_illumination import IlluminationRules
from .opt_recon_by_fire import ReconByFireRules
from .opt_scatter import ScatterRules
from .opt_smoke_dischargers import SmokeDischargerRules
from .smoke import ArtyState, SmokeRules
from .smoke_df import DfSmokeRules

#: verbs of this module (``actions.VERBS``): Command Phase dischargers, Direct Fire Step smoke; the Indirect Fire
#: Step's (``continue``, ``adjust``, ``check``, ``planned``) go through ``indirect.apply_if``
ARTY_VERBS = ("discharge", "smoke")
IF_VERBS = ("continue", "adjust", "check", "planned")
ARTY_SLOTS = ("arty",)


class ArtyRules(DfSmokeRules, SmokeDischargerRules, IlluminationRules, ScatterRules, CounterBatteryRules,
                AirBurstRules, ReconByFireRules, DismountedFoRules, SmokeRules):
    """Mixed into :class:`~.advanced.AdvState` before ``IndirectRules``."""

    __slots__ = ()

    def _arty_reset(self) -> None:
        g = self.game
        ifd = if_data(g)
        self.arty = ArtyState(len(g.batteries), len(ifd.plans), len(ifd.cb_assets))

    def _arty_copy(self, o) -> None:
        o.arty = self.arty.copy()

    def arty_fingerprint(self) -> str:
        return self.arty.fingerprint()

    def arty_actions(self) -> list[Action]:
        """Extra actions of the Command Phase (7.9) and the Direct Fire Step (6.1.4.3.10, 7.22)."""
        return self.discharge_actions() + self.df_smoke_actions()

    def apply_arty(self, action) -> None:
        if action[0] == "discharge":
            self.apply_discharge(action)
        else:
            self.apply_df_smoke(action)

    def _arty_adjust(self) -> None:
        """Adjustment Phase: counters (MBT 6.8.6) and battery recovery (7.28.2)."""
        self._smoke_adjust()
        self._battery_recovery()


__all__ = ["ArtyRules", "ARTY_VERBS", "IF_VERBS", "ARTY_SLOTS"]
