"""The heuristic bot's fixed-wing decisions (MBT 6.7.2-6.7.3, 6.7.8), called by ``bots_advanced``: sortie while
enemy ground units are on the map and attacks are left (High with bombs when enemy AA guns cannot reach High,
Low when strafe, rockets or high-drag bombs remain, else Medium), enter on the line that passes over the most
enemy units and keeps away from enemy AA units that reach the altitude, attack when a pattern holds more enemy
than friendly units, turn (Slow) toward the better line, and fire every AA shot offered at an aircraft.
Helicopters carrying passengers land near the passengers' goal and unload; the others never land. A vehicle
dodges a helicopter's ATGM whenever it may (MBT 5.1.3.3.4)."""
from __future__ import annotations

from studio.hexgrid.coords import distance, neighbour

from .air_data import row_profile
from .fixed_wing import FW_VERBS

#: an enemy AA unit within this many hexes of a flight line costs the line this much
AA_REACH, AA_COST = 10, 4.0

LOW_KINDS = ("strafe", "rockets", "high_drag_bomb")
#: at most this many entries are scored (evenly spread over the legal ones)
ENTRY_SAMPLE = 80


def air_choice(bot, state, legal):
    """The bot's action for a fixed-wing decision, or None when ``legal`` is not one."""
    verbs = {a[0] for a in legal}
    g = bot.game
    names = {a.name for a in g.aircraft}
    if "ow" in verbs and any(a[0] == "ow" and a[2] in names for a in legal):
        return next(a for a in legal if a[0] == "ow")  # MBT 6.7.8: every AA shot at an aircraft is worth taking
    if verbs & {"fwd", "rev"} and verbs <= {"fwd", "rev", "hold"}:
        return next(a for a in legal if a[0] in ("fwd", "rev"))  # MBT 5.1.3.3.4: a dodge is an automatic miss
    if "fly" in verbs:
        return _heli_flight(bot, state, legal)
    if "dismount" in verbs:
        return next(a for a in legal if a[0] == "dismount")  # a landed helicopter unloads its passengers
    if not verbs & set(FW_VERBS):
        return None
    if "sortie" in verbs:
        return _sortie(bot, state, legal)
    if "arrive" in verbs:
        return _arrive(bot, state, legal)
    return _fly(bot, state, legal)


def _heli_flight(bot, state, legal):
    """A helicopter carrying passengers lands as near its passengers' goal as it may (MBT 6.7.5.3); the others
    do not land (they fight flying: ``bots_advanced``'s choice among the flights)."""
    g = bot.game
    name = legal[0][1]
    i = g.uindex[name]
    mine = [a for a in legal if a[0] == "fly" and a[1] == name]
    if state.passengers(i):
        lands = [a for a in mine if a[3:] == ("land",)]
        if lands:
            goal = bot.goal(state, state.passengers(i)[0])
            return min(lands, key=lambda a: distance(g.map.hex(a[2]), goal))
    flying = [a for a in mine if a[3:] != ("land",)] or mine
    return bot._fly(state, flying)


def _enemies(bot, state) -> list:
    """Hexes of the enemy ground units an aircraft could acquire: not in woods or buildings (those need an FO,
    MBT 6.7.3.1.2)."""
    g = bot.game
    return [state.hex[t] for t in g.enemies_of(bot.side) if state.st[t] == 1 and not g.units[t].type.ag.heli and
            state.hex[t] not in g.los.blocking]


def _friends(bot, state) -> list:
    g = bot.game
    return [state.hex[t] for t in g.units_of(bot.side) if state.st[t] == 1 and not g.units[t].type.ag.heli]


def _aa_units(bot, state, alt: str) -> list:
    """Hexes of the enemy's AA units that can fire at ``alt`` (MBT 6.7.8.1.2: some are N/A vs High)."""
    g = bot.game
    out = []
    for t in g.enemies_of(bot.side):
        if state.st[t] != 1:
            continue
        rows = [r for r in g.units[t].type.ap if r.aa]
        if any(not (alt == "high" and row_profile(g, t, r).high_na) for r in rows):
            out.append(state.hex[t])
    return out


def _sortie(bot, state, legal):
    g = bot.game
    if not _enemies(bot, state):
        return next(a for a in legal if a[0] == "pass")
    safe_high = not _aa_units(bot, state, "high") and bool(_aa_units(bot, state, "low"))
    for a in legal:
        if a[0] != "sortie":
            continue
        k = next(k for k, x in enumerate(g.aircraft) if x.name == a[1])
        ammo = state.fw.ammo[k]
        kinds = ["strafe"] + [x.kind for x in g.aircraft[k].loads]
        low = any(n > 0 and kind in LOW_KINDS for n, kind in zip(ammo, kinds))
        other = any(n > 0 and kind not in LOW_KINDS and g.aircraft[k].loads[j - 1].gp
                    for j, (n, kind) in enumerate(zip(ammo, kinds)) if j)
        want = ("slow", "high") if other and safe_high else ("slow", "low") if low else \
            ("slow", "medium") if other else None
        if want and (a[2], a[3]) == want:
            return a
    return next(a for a in legal if a[0] == "pass")


def _line(g, h, face: int) -> list:
    out = []
    while h in g.map.label_of:
        out.append(h)
        h = neighbour(h, face)
    return out


def _line_score(g, line, enemies, friends, aa=()) -> float:
    on = set(line)
    score = -AA_COST * sum(1 for x in aa if any(distance(x, h) <= AA_REACH for h in line[::2]))
    for e in enemies:
        if e in on:
            score += 2.0
        elif any(distance(e, h) == 1 for h in line[::2]):
            score += 0.5
    return score - 3.0 * sum(1 for f in friends if f in on)


def _arrive(bot, state, legal):
    g = bot.game
    enemies, friends = _enemies(bot, state), _friends(bot, state)
    aa = _aa_units(bot, state, state.fw.alt)
    options = [a for a in legal if a[0] == "arrive"]
    step = max(1, len(options) // ENTRY_SAMPLE)
    best, score = options[0], float("-inf")
    for a in options[::step]:
        from studio.hexgrid.coords import FLAT_DIRECTION_NAMES

        line = _line(g, g.map.hex(a[2]), FLAT_DIRECTION_NAMES.index(a[3]))
        s = _line_score(g, line, enemies, friends, aa)
        if s > score:
            best, score = a, s
    return best


def _fly(bot, state, legal):
    g, f = bot.game, state.fw
    side = bot.side
    best, value = None, 0.5
    for a in legal:
        if a[0] != "attack":
            continue
        t = g.uindex[a[3]]
        j, kind = next((j, kind) for j, key, kind in state._ammo_slots() if key == a[2])
        hexes = set(state.fw_pattern(j, kind, t))
        v = sum((1.0 if g.units[u].side != side else -2.0) for u in range(g.n)
                if state.st[u] == 1 and state.hex[u] in hexes)
        if v > value:
            best, value = a, v
    if best is not None:
        return best
    wings = [a for a in legal if a[0] == "wing"]
    if len(wings) > 1:
        enemies, friends = _enemies(bot, state), _friends(bot, state)
        aa = _aa_units(bot, state, f.alt)
        scored = []
        for a in wings:
            face = (f.face + {"ahead": 0, "left": -1, "right": 1}[a[2]]) % 6
            scored.append((_line_score(g, _line(g, neighbour(f.hex, face), face), enemies, friends, aa), a[2] == "ahead",
                           a))
        return max(scored, key=lambda x: (x[0], x[1]))[2]
    return wings[0] if wings else legal[0]


__all__ = ["air_choice"]
