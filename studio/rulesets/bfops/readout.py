"""The table editor's LOS readout for Battlefield Ops!: the modifiers the obstacles crossed give, from the
ruleset tables (terrain per inch, fire through an obstruction, cover as Pen - Cover). Registered as the plugin
extra ``table_los_modifiers(los, ruleset) -> [(label, text)]``."""
from __future__ import annotations

SOLID = ("building", "wall")


def _rows(rs, table_id: str) -> list[dict]:
    try:
        t = rs.table(table_id)
    except KeyError:
        return []
    return [dict(zip(t.columns, r)) for r in t.rows if len(r) == len(t.columns)]


def table_los_modifiers(los, rs) -> list[tuple[str, str]]:
    terrain = {str(r.get("terrain")): r for r in _rows(rs, "terrain")}
    through = next((r.get("modifier") for r in _rows(rs, "hit-modifiers") if r.get("condition") == "through"), None)
    spot = hit = 0.0
    out: list[tuple[str, str]] = []
    faces = 0.0
    for c in los.crossings:
        row = terrain.get(c.area.kind)
        if row and not c.at_observer:
            spot += float(row.get("spot_per_in") or 0) * c.length        # BfOps 3.0 / base rule 6.1.1
            hit += float(row.get("hit_per_in") or 0) * c.length
        if c.blocking and c.area.kind in SOLID:
            faces += c.area.cover * c.faces
        if c.at_target and c.area.cover:
            out.append(("Cover", f"target inside {c.area.id}: Pen - {c.area.cover:g} (BfOps p.21)"))
    if spot or hit:
        out.append(("Terrain", f"Spot {spot:+.1f}, to hit {hit:+.1f} (per inch crossed; placeholder table "
                               "'terrain')"))
    if faces and los.ground_block is None and all(c.area.kind in SOLID for c in los.crossings if c.blocking):
        out.append(("Fire through", f"AP only, to hit {through:+g}, Pen (Pen - {faces:g}) / 3 rounded (BfOps "
                                    "p.21-22)"))
    return out
