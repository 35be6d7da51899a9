"""The Advanced movement chapter's choices of the MBT heuristic bot (``bots_advanced.AdvancedHeuristicBot``):
leg and towed units pivot toward the nearest enemy their side spots, or toward their goal (MBT 6.8.1), take Full
Cover where they hold their goal (MBT 6.8.3), dig in there with N/C (Hasty Entrenchments, 6.6.8) when they have
nothing worth firing at, and crawl the last hex into their goal, or any hex towards it while an enemy is near,
keeping Full Cover (6.6.4.3)."""
from __future__ import annotations

from studio.hexgrid.coords import FLAT_DIRECTION_NAMES, distance
from studio.hexgrid.facing import direction_to

#: an enemy this near (hexes) makes a Full Cover unit crawl rather than walk towards its goal
CRAWL_ENEMY = 10


def _enemy_near(bot, state, h, rng: int) -> bool:
    g = bot.game
    return any(state.st[k] == 1 and distance(h, state.hex[k]) <= rng for k in g.enemies_of(bot.side))


def pivot_choice(bot, state, i: int, legal):
    """The Pivot Step (MBT 6.8.1): the pivot facing the nearest enemy unit ``i``'s side spots, else its goal;
    None when it already faces that way (or there is no pivot to make)."""
    pivots = {a[2]: a for a in legal if a[0] == "pivot"}
    if not pivots:
        return None
    h = state.hex[i]
    seen = {t for s in range(bot.game.n) if bot.game.units[s].side == bot.side for t in state.spots[s]}
    seen = [t for t in seen if state.st[t] == 1]
    toward = min((state.hex[t] for t in seen), key=lambda x: (distance(h, x), x)) if seen else bot.objective(state, i)
    if toward is None or toward == h:
        return None
    return pivots.get(FLAT_DIRECTION_NAMES[direction_to(h, toward)])


def cover_choice(bot, state, legal):
    """The unit's Adjustment decision: a pivot first (``pivot_choice``, MBT 6.8.1), then the Adjust Full Cover
    Step (6.8.3): Full Cover for a unit at (or next to) its formation's goal, otherwise out of it (it has to
    move)."""
    g = bot.game
    i = g.uindex[legal[0][1]]
    pick = pivot_choice(bot, state, i, legal)
    if pick is not None:
        return pick
    want = "on" if distance(state.hex[i], bot.objective(state, i)) <= 1 else "off"
    return next((a for a in legal if a[0] == "cover" and a[2] == want), legal[0])


def dig_command(bot, state, i: int, opts: dict):
    """N/C for a dismounted leg unit in Full Cover at its goal with no shot worth firing: it digs a Hasty
    Entrenchment (MBT 6.6.8); None otherwise."""
    if "NC" not in opts or state.st[i] != 1 or not state.is_leg(i) or not state.fc[i]:
        return None
    from .engine.adv_move_data import adv_move

    if distance(state.hex[i], bot.objective(state, i)) > 0 or \
            state.hasty.get(state.hex[i], 0) >= adv_move(state.game).hasty_complete():
        return None
    if any(True for _ in state.fire_options(i, state.spots[i])):
        return None
    return opts["NC"]


def crawl_choice(bot, state, legal):
    """A Full Cover unit about to move crawls into the hex nearest its goal when that is nearer, if the goal is
    next to it or an enemy is within ``CRAWL_ENEMY`` (MBT 6.6.4.3); after a crawl the move is done."""
    i = state.mv_u
    if i < 0 or not state.is_leg(i):
        return None
    if state.crawled[i]:
        return next((a for a in legal if a[0] == "done"), None)
    crawls = [a for a in legal if a[0] == "crawl"]
    if not crawls:
        return None
    goal = bot.objective(state, i)
    gd = distance(state.hex[i], goal)
    if gd == 0 or not (gd == 1 or _enemy_near(bot, state, state.hex[i], CRAWL_ENEMY)):
        return None
    g = bot.game
    best = min(crawls, key=lambda a: (distance(g.map.hex(a[2]), goal), a[2]))
    return best if distance(g.map.hex(best[2]), goal) < gd else None


__all__ = ["cover_choice", "pivot_choice", "crawl_choice", "dig_command", "CRAWL_ENEMY"]
