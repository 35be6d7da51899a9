"""Conformance probes (issue 10): small positions on the rules laboratory scenario ``waw-lab`` that make each
rule option and each engine table show in play. Each probe is a position document (``engine/position.py`` lists
the WaW keys), the text actions played from it and the option and table ids it exposes. Dice are forced so the
probes are deterministic. Unit ids are the lab's: ``us-armor.2`` M60A3, ``su-rifles.11`` truck, ...
"""
from __future__ import annotations

from studio.rules.conformance import Probe

LAB = "waw-lab"
#: a cup that, after the position's own draws, gives the Chaos! marker next (the draw is seeded, so fixed)
CHAOS_NEXT = ["f-su-tanks", "chaos", "end_turn"]
SIX = [6] * 12
ONE = [1] * 12

# lab unit ids by role
M60, M60L, M1, M3, TOW, M113, ITV = (f"us-armor.{i}" for i in range(2, 9))   # M60L: with a Leader
ARMOR_HQ = "us-armor.1"
MECH_HQ, M2, INF_SW, INF, ABN, MORTAR, M198, VADS, TRUCK = (f"us-mech.{i}" for i in range(1, 10))
COBRA, COBRA2 = "us-air.1", "us-air.2"
TANK_HQ, T72_LEADER, T72, T64, T55, BRDM, BMP1 = (f"su-tanks.{i}" for i in range(1, 8))
MR_HQ, RIFLE_SW, RIFLE, BMP2, BTR, D30, GUN_2S1, ZSU, SA9, MTLB, SU_TRUCK, BRDM_AT = (
    f"su-rifles.{i}" for i in range(1, 13))
HIND = "su-air.1"

CARDS = {
    ARMOR_HQ: "us-armor-hq", M60: "us-m60a3", M60L: "us-m60a3", M1: "us-m1-abrams", M3: "us-m3-bradley",
    TOW: "us-tow-jeep", M113: "us-m113", ITV: "us-m901-itv", MECH_HQ: "us-mech-hq", M2: "us-m2-bradley",
    INF_SW: "us-mech-infantry", INF: "us-mech-infantry", ABN: "us-airborne-infantry", MORTAR: "us-81mm-mortar",
    M198: "us-m198", VADS: "us-m163-vads", TRUCK: "us-truck", COBRA: "us-ah1-cobra", COBRA2: "us-ah1-cobra",
    TANK_HQ: "su-tank-hq", T72_LEADER: "su-t72", T72: "su-t72", T64: "su-t64", T55: "su-t55", BRDM: "su-brdm2",
    BMP1: "su-bmp1", MR_HQ: "su-mr-hq", RIFLE_SW: "su-motor-rifle", RIFLE: "su-motor-rifle", BMP2: "su-bmp2",
    BTR: "su-btr70", D30: "su-d30", GUN_2S1: "su-2s1", ZSU: "su-zsu-23-4", SA9: "su-sa9", MTLB: "su-mtlb-120",
    SU_TRUCK: "su-truck", BRDM_AT: "su-brdm-at", HIND: "su-mi24-hind",
}


def unit(uid: str, hex_label: str, *markers: str, **status) -> dict:
    """A position unit of the lab (card and side from its id)."""
    side = "us" if uid.startswith("us-") else "soviet"
    st = dict(status)
    if markers:
        st["markers"] = list(markers)
    return {"id": uid, "card": CARDS[uid], "side": side, "hex": hex_label, "status": st}


def position(units, formation="f-us-armor", phase="impulse", dice=(), **extension) -> dict:
    ext = dict(extension)
    if phase != "operations":
        ext.setdefault("formation", formation)
    return {"kind": "position", "schema_version": 1, "scenario": LAB, "phase": phase,
            "units": list(units), "dice": list(dice), "extension": ext}


def probe(name, units, actions, options=(), tables=(), **kw) -> Probe:
    return Probe(name, position(units, **kw), tuple(actions), tuple(options), tuple(tables))


def probes() -> list[Probe]:
    """Every probe of the plugin (``RulesetPlugin.probes``)."""
    return FIRE + COMMAND + ASSAULT + SUPPORT + TABLES


FIRE = [
    probe("unarmored-in-woods", [unit(M60, "2D2"), unit(SU_TRUCK, "2I5", "ops_complete")],
          [f"fire {M60} {SU_TRUCK} ap"], ("c03_leopard_example",), dice=[6, 1, 1, 1] + ONE),
    probe("ap-hit-unarmored", [unit(M60, "4J14"), unit(SU_TRUCK, "4J10")], [f"fire {M60} {SU_TRUCK} ap"],
          ("c04_unarmored_ap_hit",), dice=[6, 1, 1, 1] + ONE),
    probe("thin-skinned-saves", [unit(M60, "4J14"), unit(BTR, "4J10")], [f"fire {M60} {BTR} ap"],
          ("c05_thin_skinned_saves",), dice=[6, 6, 1, 1] + ONE),
    probe("smoke-advanced-imaging", [unit(M1, "4J14"), unit(T72, "4J10")], [f"fire {M1} {T72} ap"],
          ("c07_smoke_imaging",), dice=[3, 3, 3, 3, 3, 5, 5, 5] + ONE, smoke={"4J12": 2}),
    probe("flying-helicopter-underline", [unit(COBRA, "4J14"), unit(BMP2, "4J12")], [],
          ("c08_flying_heli_underline",), formation="f-su-rifles"),
    probe("heli-he-armor", [unit(COBRA, "4J14", "hovering"), unit(T72, "4J10")], [],
          ("c25_heli_he_armor",), formation="f-us-air"),
    probe("half-range", [unit(M60, "4J14"), unit(T72, "4J9")], [f"fire {M60} {T72} ap"],
          ("c49_half_range",), dice=[3, 3, 3, 3] + ONE),
    probe("adjacent-flying", [unit(COBRA, "4J14"), unit(BMP2, "4J13")], [],
          ("c50_adjacent_flying",), formation="f-su-rifles"),
    probe("depleted-underlined-ap", [unit(M60, "4J14", "depleted"), unit(T72, "4J10")], [],
          ("c54_underline_uses",)),
    probe("towed-target", [unit(M60, "4J14"), unit(D30, "4J10")], [], ("c57_towed_target",)),
    probe("sw-opfire", [unit(INF_SW, "4J14"), unit(SU_TRUCK, "4J11")], [f"opfire {INF_SW} {SU_TRUCK} he"],
          ("c48_sw_opfire",), phase="opfire", mover=SU_TRUCK, formation="f-su-rifles", dice=[1, 1, 1] + SIX),
    probe("leadership-cap", [unit(ARMOR_HQ, "4J14"), unit(M60L, "4J14"), unit(T72, "4J10")],
          [f"fire {M60L} {T72} ap"], ("c37_leadership_cap",), dice=SIX + ONE),
]

COMMAND = [
    probe("ooc-rally", [unit(TANK_HQ, "4A1"), unit(T72, "4J10", "disrupted"), unit(M60, "4T14")],
          ["activate f-su-tanks"], ("c11_ooc_rally",), phase="operations", cup=["f-su-tanks"],
          dice=[6, 6, 1, 1, 1, 1]),
    probe("skip-back-to-cup", [unit(M60, "4J14"), unit(T72, "4J10")], ["skip f-us-armor"],
          ("c13_skip_marker",), phase="operations", cup=["f-us-armor", "end_turn", "end_turn", "end_turn"]),
    probe("jam-threshold", [unit(ARMOR_HQ, "2A1"), unit(M60, "2A1"), unit(ITV, "4J14"), unit(M1, "4J10"),
                            unit(M3, "4T1"), unit(TOW, "4T14"), unit(T72, "2J1")],
          ["activate f-us-armor"], ("c14_jam_threshold",), phase="operations", cup=["f-us-armor"],
          jammed=["f-us-armor"], dice=[2, 3, 4, 5] + ONE),
    probe("chaos-seven", [unit(M60, "4J14"), unit(T72, "4J10")], ["end"], ("c15_chaos_seven",),
          cup=CHAOS_NEXT, dice=[3, 4, 2, 2, 3, 6, 6, 6] + ONE),
    probe("battle-drill-calls", [unit(TANK_HQ, "4J10"), unit(T72, "4J10"), unit(M60, "4J14")], [],
          ("c16_battle_drill_artillery",), formation="f-su-tanks", drill="f-su-rifles"),
    probe("rendezvous-lock", [unit(INF, "4J14", mp_used=1), unit(TRUCK, "4J14"), unit(T72, "4T1")],
          [f"load {INF} {TRUCK}", "end"], ("c20_rendezvous_lock",), formation="f-us-mech",
          cup=["f-us-mech", "f-su-tanks"]),
    probe("hq-leadership-command", [unit(TANK_HQ, "2J1"), unit(T72, "4T1"), unit(MR_HQ, "4A14"),
                                    unit(RIFLE, "2J1"), unit(M60, "4T14")],
          ["activate f-su-rifles"], ("c29_hq_leadership_checks",), phase="operations", cup=["f-su-rifles"],
          dice=[3, 4] + ONE),
    probe("two-markers-skip", [unit(INF, "4J14"), unit(T72, "4T1")], [], ("c34_two_markers_skip",),
          phase="operations", cup=["f-us-mech"]),
    probe("miscommunication-oc", [unit(M60, "4J14"), unit(M60L, "4J13", "ops_complete"), unit(T72, "4J10")],
          [f"fire {M60} {T72} ap", "end"], ("c45_miscommunication_oc",), cup=CHAOS_NEXT, dice=[1, 1, 1, 1, 1, 2] + ONE),
    probe("held-end-turn", [unit(M60, "4J14"), unit(INF, "4J13"), unit(T72, "4T1")],
          ["skip f-us-mech", "skip f-us-armor"], ("c51_held_end_turn",), phase="operations",
          cup=["f-us-armor", "f-us-mech"]),
]

ASSAULT = [
    probe("infantry-vs-vehicles", [unit(INF, "4J14"), unit(BTR, "4J13")], [f"assault {INF} 4J13"],
          ("c06_infantry_vs_vehicles",), formation="f-us-mech", dice=[3, 3, 3, 1, 1] + ONE),
    probe("hq-trigger", [unit(ARMOR_HQ, "4J14"), unit(M60, "4J14", "disrupted"), unit(TANK_HQ, "4J10"),
                         unit(T72, "4J10")],
          [f"call {TANK_HQ} su-he 4J14"], ("c31_hq_trigger",), formation="f-su-tanks", dice=[1, 6, 1, 1, 1] + ONE),
    probe("assault-more-hits", [unit(M60, "4J14"), unit(RIFLE, "4J13")], [f"assault {M60} 4J13"],
          ("c32_assault_more_hits",), dice=[6, 1, 1, 1, 1, 1], ip=["4J13"]),
    probe("assault-saves", [unit(INF, "4J14"), unit(T72, "4J13")], [f"assault {INF} 4J13"],
          ("c33_assault_saves",), formation="f-us-mech", dice=SIX + SIX),
    probe("sw-loss", [unit(RIFLE_SW, "4A1"), unit(T64, "4J10"), unit(M60, "4J14")], [f"fire {M60} {T64} ap"],
          ("c62_sw_loss_trigger",), dice=[6, 6, 6, 6] + ONE, cup=["f-us-armor"]),
    probe("hero-once", [unit(ABN, "4J14", "ops_complete"), unit(RIFLE, "4J11"), unit(RIFLE_SW, "4J11")],
          [f"fire {RIFLE} {ABN} he", f"fire {RIFLE_SW} {ABN} he"], ("c64_hero_first_hit",),
          formation="f-su-rifles", dice=[6, 1, 1, 1, 1, 6, 1, 1, 1, 1] + ONE),
    probe("hq-follows-its-type", [unit(ARMOR_HQ, "4J14"), unit(M60, "4J14"), unit(M113, "4J14"),
                                  unit(T72, "4T1")], [f"move {M60} 4J13"], ("c23_hq_type",)),
    probe("helicopter-12-hexes", [unit(COBRA, "4J14", moved=13), unit(T72, "4J10")], ["activate f-us-air"],
          ("c41_heli_12_hexes",), phase="operations", cup=["f-us-air"]),
    probe("disrupted-assault", [unit(M60, "4J14", "disrupted"), unit(RIFLE, "4J13")], [],
          ("c70_disrupted_assault",)),
]

SUPPORT = [
    probe("chemical-nationality", [unit(MR_HQ, "4J10"), unit(RIFLE, "4J10"), unit(M60, "4J14")], [],
          ("c40_chemical",), formation="f-su-rifles"),
    probe("calls-per-formation", [unit(ARMOR_HQ, "4J14"), unit(M60, "4J14"), unit(M3, "4J13"),
                                  unit(T72, "4J10")],
          [f"call {ARMOR_HQ} us-dpicm 4J10", f"call {ARMOR_HQ} us-dpicm 4J10"], ("c67_artillery_calls",),
          dice=ONE),
    probe("texas-scrub", [unit(M60, "2D6"), unit(T72, "4T1")], [], ("c61_texas_scrub_vehicles",)),
    probe("mlrs-rolls", [unit(MR_HQ, "4J10"), unit(RIFLE, "4J10"), unit(M60, "4J14"), unit(M60L, "4J13")],
          [f"call {MR_HQ} su-mlrs 4J14"], ("c74_mlrs_rolls",), formation="f-su-rifles", dice=[1] + SIX * 3),
    probe("dpicm", [unit(ARMOR_HQ, "4J14"), unit(M60, "4J14"), unit(TANK_HQ, "4J10"), unit(T72, "4J10")],
          [f"call {ARMOR_HQ} us-dpicm 4J10", "end", "activate f-su-tanks", f"call {TANK_HQ} su-dpicm 4J14"],
          ("c18_dpicm",), cup=["f-su-tanks"], dice=[1, 6, 6, 6, 6, 6, 1, 6, 6] + ONE),
]

TABLES = [
    probe("fire-table-cells", [unit(M60, "4J14"), unit(T72, "4J10"), unit(RIFLE, "4J9")],
          [f"fire {M60} {T72} ap"], (), ("constants", "terrain_effects", "targeting"), dice=[4, 4, 4, 4] + ONE),
    probe("moving-fire", [unit(M60, "4J14", mp_used=1), unit(T72, "4J10")], [f"fire {M60} {T72} ap"], (),
          ("moving_fire_effects",), dice=[5, 5, 5, 5] + ONE),
    probe("chaos-table", [unit(M60, "4J14"), unit(T72, "4J10")], ["end"], (), ("battlefield_chaos",),
          cup=CHAOS_NEXT, dice=[2, 3] + ONE),
    probe("volley", [unit(T72, "4J10"), unit(T64, "4J9"), unit(T55, "4K10"), unit(M60, "4J14")],
          [f"volley {T72} {T64}+{T55} {M60}"], (), ("volley_fire",), formation="f-su-tanks", hand=["volley"],
          dice=SIX + ONE),
    probe("helicopter-levels", [unit(COBRA, "4J14"), unit(T72, "4J6")], [], (), ("helicopter_los",),
          formation="f-us-air"),
]
