"""The indirect-fire, smoke and artillery optional-rule tables the MBT engine reads (MBT 6.5.1, 6.1.4.3.10, 7.9,
7.22, 7.26-7.28, 7.37-7.39), declared like ``ag_specs.AG_TABLES`` (``data.ENGINE_TABLES`` adds them). Free of
engine imports so the declarations stay cheap."""
from __future__ import annotations

from studio.model.requirements import TableSpec

#: hindrances on a line of fire or sight, per unique occurrence (MBT 6.5.2.5, 6.5.4.3, 7.36.4.3)
HINDRANCE_IDS = ("smoke-open", "smoke-closed", "barrage-open", "barrage-closed", "thermal-first", "thermal-next",
                 "on-fire")
#: single values of the Indirect Fire Step (MBT 6.5.1.4-6.5.1.13)
IF_VALUE_IDS = ("observer-hindered", "pre-registered", "adjusted", "command-recon-observer", "heat-haze",
                "danger-close-range", "adjust-max-hexes", "planned-max-turns", "open-sheaf-gp", "icm-gp",
                "open-radius", "closed-radius", "linear-length", "heat-haze-s", "heat-haze-l", "heat-haze-v",
                "clgp-ko-max", "clgp-bu-max")
OBSERVER_GRADES = ("elite", "veteran", "seasoned", "regulars", "green", "raw")
#: optional rules' single values (MBT 7.9, 7.22, 7.26, 7.27, 7.28, 7.37, 7.38, 7.39)
OPT_VALUE_IDS = ("illumination-spotting", "recon-by-fire-response", "air-burst-gp", "dismounted-fo-gp",
                 "infantry-smoke-limit", "infantry-smoke-elite-veteran", "infantry-smoke-green-raw",
                 "infantry-smoke-engineer", "scatter-one-hex-max", "fw-scatter-no-effect-max", "fw-scatter-hit-max",
                 "cb-consecutive-2-3", "cb-consecutive-4", "cb-self-propelled", "cb-suppressed-max",
                 "cb-damaged-max", "cb-damaged-response", "cb-recovery-max")

IF_TABLES = (
    TableSpec("hindrance-modifiers", "MBT 6.5.2.5", ("id", "ap", "gp"), ("ap", "gp"), ("ap", "gp"),
              keys=HINDRANCE_IDS),
    TableSpec("indirect-fire-values", "MBT 6.5.1", ("id", "value"), ("value",), ("value",), keys=IF_VALUE_IDS),
    TableSpec("observer-capacity", "MBT 6.5.1.1.1", ("observer",) + OBSERVER_GRADES, OBSERVER_GRADES,
              OBSERVER_GRADES, keys=("fo", "command", "recon")),
    TableSpec("artillery-optional-values", "MBT 7.26", ("id", "value"), ("value",), ("value",),
              keys=OPT_VALUE_IDS),
    TableSpec("air-burst-terrain", "MBT 7.38", ("terrain",), (), min_rows=1),
)

__all__ = ["IF_TABLES", "HINDRANCE_IDS", "IF_VALUE_IDS", "OPT_VALUE_IDS", "OBSERVER_GRADES"]
