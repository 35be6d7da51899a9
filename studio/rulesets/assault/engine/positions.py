"""Positions as documents for Assault (``Game.state_from_position``) and the hidden information of a state.

Unit ``status`` keys: ``steps`` (1 or 2, at most the card's), ``formation`` (``march`` / ``combat``),
``spotted``, ``suppressed``, ``moved_first`` (moved in its side's first movement phase, Assault 12.B.4) and
``mp_used``, ``company`` (its morale company; default: its own id), ``fatigued`` (Assault 7.D) and ``cover``
(in cover, combat formation only: Assault 7.G) and ``designation`` (its TO&E designation, e.g. ``2C1`` or
``HQ3``: whom it obeys and, for HQs and TOCs, its rating, Assault 3-4; default none) and ``toc_bank`` (a TOC's
planning track, Assault 6.A.2), ``deployed`` (an indirect fire unit in deployment, 19.E), ``entrenched`` (18),
``attached`` (the HQ it is cross-attached to, 4.C.4) and ``dummy`` (a dummy counter imitating its card, 10.F; never
spotted); a unit's ``passengers`` are the ids it carries (8). A movement phase starts
with the phasing side's operations points granted (Assault 4.B). ``facing`` is a hexside (march) or vertex (combat) 0-5; null faces the enemy's edge. ``to_act``
names the side to act in the artillery and fire phases (default: the first side, the phasing side); in a
movement phase it must be the phasing side. ``extension``: ``force_levels`` (side id -> drawn level 1-6) and
``morale`` (company -> ``lost`` steps and ``state``) and ``ops`` (side -> source -> operations points left
this phase, replacing the granted pools), ``smoke`` (screens), ``markers`` (fire mission markers), ``wind`` (as
rolled) and ``ammo`` (ammunition used); the scenario's fire timetable lines are written (Assault 21).

Hidden (Assault 8.C, 10, 12.D, 19.B, 24.B): enemy counters that are not spotted (so what an enemy carrier carries),
the enemy's declared fires and fire missions, the enemy's drawn force level, the narration and the dice.
"""
from __future__ import annotations

import dataclasses
import random

from studio.rules.dice import Dice

STATUS = {"steps": int, "formation": str, "spotted": bool, "suppressed": bool, "moved_first": bool, "mp_used": int,
          "company": str, "fatigued": bool, "cover": bool, "designation": str, "toc_bank": int,
          "deployed": bool, "entrenched": bool, "attached": str, "dummy": bool}


def _error(message: str, pointer: str = ""):
    from studio.rules.position import PositionError
    return PositionError(message, pointer, code="position.assault")


def state_from_position(game, position):
    """The AssaultState of ``position`` (``studio.model.position.Position``); raises ``PositionError``."""
    state = game.new_initial_state(0)
    if position.units is not None:
        state.counters = [_counter(game, i, u) for i, u in enumerate(position.units)]
        state.dummy_pool = [0, 0]                                    # Assault 10.F: the position's dummies only
        state.dummies_made = [sum(1 for c in state.counters if c.dummy and c.side == s) for s in range(2)]
        _passengers(game, state, position.units)
        state.missions = state.timetable_missions()                  # Assault 21: the scenario's lines
    state.turn = position.turn
    state.phase = position.phase or state.phase
    _levels(game, state, position.extension or {})
    if position.units is None:
        state.counters = game.initial_counters(state.force_level)
    state.morale = game.initial_morale(state.counters if position.units is not None
                                       else game.all_counters(state.force_level))
    _morale(state, position.extension or {})
    _smoke(game, state, position.extension or {})
    _artillery_state(game, state, position.extension or {})
    if state.phase == "artillery" and game.options.get("c13-smoke-removal") == "adjust-first":
        state._adjust_smoke()                                # Assault 20.A.4, option c13
    _to_act(game, state, position)
    if state.phase.endswith(("move-1", "move-2")):
        state._grant_ops()                                   # Assault 4.B
    _ops(game, state, position.extension or {})
    state.dice.record = True       # a position is for test-play and tests: its rolls and narration are kept
    return state


def _ops(game, state, extension: dict) -> None:
    """``extension.ops``: side -> {source designation (or 'off-board', 'default'): OPs left this phase}."""
    for side, pools in (extension.get("ops") or {}).items():
        ptr = f"/extension/ops/{side}"
        if side not in game.sides or not isinstance(pools, dict):
            raise _error(f"ops: side {side!r} -> {{source: points}}", ptr)
        for key, n in pools.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise _error("operations points are whole numbers >= 0", f"{ptr}/{key}")
        state.ops[game.sides.index(side)] = {str(k): n for k, n in pools.items()}


def _counter(game, i: int, u):
    from .game import Counter

    ptr = f"/units/{i}"
    try:
        h = game.map.hex(str(u.hex))
    except KeyError:
        raise _error(f"no hex '{u.hex}' on the scenario's boards", f"{ptr}/hex") from None
    body = game.card(u.card).body
    unknown = sorted(set(u.status) - set(STATUS))
    if unknown:
        raise _error(f"unknown status key(s) {unknown}; known: {sorted(STATUS)}", f"{ptr}/status")
    for key, kind in STATUS.items():
        if key in u.status and not isinstance(u.status[key], kind):
            raise _error(f"status '{key}' must be {kind.__name__}", f"{ptr}/status/{key}")
    steps = u.status.get("steps", body.steps)
    if not 1 <= steps <= body.steps:
        raise _error(f"a {body.size} has 1..{body.steps} steps, not {steps}", f"{ptr}/status/steps")
    formation = u.status.get("formation", "combat")
    if formation not in ("march", "combat"):
        raise _error(f"formation is march or combat, not '{formation}'", f"{ptr}/status/formation")
    facing = u.facing if u.facing is not None else (5 if u.side == "us" else 2)
    if not (isinstance(facing, int) and 0 <= facing <= 5):
        raise _error("facing is a hexside or vertex 0-5 (Assault 7.F)", f"{ptr}/facing")
    _check_states(u, body, formation, ptr)
    return Counter(u.id or f"u{i + 1}", u.card, game.sides.index(u.side), h, steps, formation, facing,
                   cover=u.status.get("cover", False), designation=u.status.get("designation", ""),
                   toc_bank=u.status.get("toc_bank", 0),
                   spotted=u.status.get("spotted", False), suppressed=u.status.get("suppressed", False),
                   moved_first=u.status.get("moved_first", False), mp_used=u.status.get("mp_used", 0),
                   company=u.status.get("company", u.id or f"u{i + 1}"), fatigued=u.status.get("fatigued", False),
                   deployed=u.status.get("deployed", False), entrenched=u.status.get("entrenched", False),
                   attached=u.status.get("attached", ""), dummy=u.status.get("dummy", False))


def _check_states(u, body, formation: str, ptr: str) -> None:
    """Status keys that only some units may have (Assault 19.E, 7.G, 10.F)."""
    if u.status.get("deployed") and body.indirect_fire is None:
        raise _error("only indirect fire units deploy (Assault 19.E)", f"{ptr}/status/deployed")
    if u.status.get("cover") and formation != "combat":
        raise _error("only units in combat formation may be in cover (Assault 7.G)", f"{ptr}/status/cover")
    if u.status.get("dummy") and (u.status.get("spotted") or u.passengers):
        raise _error("a dummy is never spotted and carries nothing (Assault 10.F)", f"{ptr}/status/dummy")


def _passengers(game, state, units) -> None:
    """``passengers``: ids of the units this one carries (Assault 8.A-B: circle, mobility, capacity)."""
    by_id = {c.id: c for c in state.counters}
    for i, u in enumerate(units):
        carrier = by_id[u.id or f"u{i + 1}"]
        for k, pid in enumerate(u.passengers):
            ptr = f"/units/{i}/passengers/{k}"
            p = by_id.get(pid)
            if p is None or p is carrier or p.side != carrier.side or not state._may_carry(carrier, p):
                raise _error(f"'{carrier.id}' cannot carry '{pid}' (Assault 8.A-B: circle, leg or static, steps)",
                             ptr)
            p.carrier, p.hex, p.spotted = carrier.id, carrier.hex, False


def _levels(game, state, extension: dict) -> None:
    unknown = sorted(set(extension) - {"force_levels", "morale", "ops", "smoke", "markers", "wind", "ammo"})
    if unknown:
        raise _error(f"unknown extension key(s) {unknown}", "/extension")
    for side, level in (extension.get("force_levels") or {}).items():
        if side not in game.sides or not isinstance(level, int) or not 1 <= level <= len(game.levels[side]):
            raise _error(f"force level {level!r} for side {side!r}", f"/extension/force_levels/{side}")
        state.force_level[game.sides.index(side)] = level


def _morale(state, extension: dict) -> None:
    """``extension.morale``: company -> {lost: steps lost, state: normal | shaken | broken} (Assault 17)."""
    for company, spec in (extension.get("morale") or {}).items():
        ptr = f"/extension/morale/{company}"
        if company not in state.morale or not isinstance(spec, dict) or set(spec) - {"lost", "state"}:
            raise _error(f"unknown company {company!r} or keys (lost, state)", ptr)
        if spec.get("state", "normal") not in ("normal", "shaken", "broken"):
            raise _error("state is normal, shaken or broken", f"{ptr}/state")
        state.morale[company].lost = int(spec.get("lost", 0))
        state.morale[company].state = spec.get("state", "normal")


def _smoke(game, state, extension: dict) -> None:
    """``extension.smoke``: screens on the map, each {hex, kind: incendiary | chemical, vertex 0-5, removed_at:
    the turn at whose artillery phase it goes (default next turn)} (Assault 20)."""
    from .artillery import Screen
    out = []
    for i, spec in enumerate(extension.get("smoke") or []):
        ptr = f"/extension/smoke/{i}"
        if not isinstance(spec, dict) or spec.get("hex") not in game.map.hex_of or \
                spec.get("kind") not in ("incendiary", "chemical") or spec.get("vertex", 0) not in range(6):
            raise _error("a screen is {hex, kind: incendiary | chemical, vertex 0-5, removed_at}", ptr)
        out.append(Screen(game.map.hex_of[spec["hex"]], spec["kind"], spec.get("vertex", 0), state.turn,
                          int(spec.get("removed_at", state.turn + 1))))
    state.smoke = out


def _artillery_state(game, state, extension: dict) -> None:
    """``extension.markers``: fire mission markers in place, each {hex, value} (Assault 19.C.1, 19.D.4);
    ``extension.wind``: {direction: N..NW or none, strength: light | moderate | strong} as rolled (20.A);
    ``extension.ammo``: unit id -> {pool or ammunition: units used} (Assault 23)."""
    from .artillery import BEARING, FireMarker
    markers = []
    for i, spec in enumerate(extension.get("markers") or []):
        if not isinstance(spec, dict) or spec.get("hex") not in game.map.hex_of or not isinstance(spec.get("value"), int):
            raise _error("a fire mission marker is {hex, value}", f"/extension/markers/{i}")
        markers.append(FireMarker(i + 1, game.map.hex_of[spec["hex"]], spec["value"]))
    state.markers = markers or state.markers
    wind = extension.get("wind")
    if wind is not None:
        if not isinstance(wind, dict) or wind.get("direction", "none") not in (*BEARING, "none") or \
                wind.get("strength") not in ("light", "moderate", "strong"):
            raise _error("wind is {direction: N, NE, E, SE, S, SW, W, NW or none, strength: light | moderate | "
                         "strong}", "/extension/wind")
        state.wind_bearing, state.wind_speed = BEARING.get(wind.get("direction", "none"), -1), wind["strength"]
    for uid, pools in (extension.get("ammo") or {}).items():
        if not isinstance(pools, dict) or not all(isinstance(n, int) and n >= 0 for n in pools.values()):
            raise _error("ammo is unit id -> {pool: units used}", f"/extension/ammo/{uid}")
        state.ammo_used.update({(uid, str(k)): n for k, n in pools.items()})


def _to_act(game, state, position) -> None:
    if state.phase.endswith(("move-1", "move-2")):
        if position.to_act is not None and game.sides.index(position.to_act) != state.phasing():
            raise _error(f"in {state.phase} the phasing side acts (Assault 2)", "/to_act")
        return
    default = state.phasing() if state.phase.endswith("fire") else 0
    state.actor = game.sides.index(position.to_act) if position.to_act is not None else default


# ------------------------------------------------------------------ hidden information

def _hidden(state, player: int, c) -> bool:
    return c.side != player and not c.spotted


class LazyView:
    """``AssaultState.observation(player)``: the view (``observation``) is built when first read, so a bot that
    never looks at it (the random bot) costs nothing; every attribute read or written is the view's. Read it
    before the state applies another action: reading it later raises (it would show the later state)."""

    __slots__ = ("_state", "_player", "_applied", "_view")

    def __init__(self, state, player: int):
        for name, value in (("_state", state), ("_player", player), ("_applied", state.applied), ("_view", None)):
            object.__setattr__(self, name, value)

    def materialize(self):
        """The view itself (an ``AssaultState``)."""
        if self._view is None:
            if self._state.applied != self._applied:
                raise RuntimeError("an observation read after its state applied another action: take a new one")
            object.__setattr__(self, "_view", observation(self._state, self._player))
        return self._view

    def __getattr__(self, name: str):
        return getattr(self.materialize(), name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self.materialize(), name, value)


def observation(state, player: int):
    """What ``player`` sees: no unspotted enemy counters, no enemy fire declarations, no enemy force level,
    and fresh dice seeded from the visible rest."""
    view = state.clone()
    view.counters = [c for c in view.counters if not _hidden(state, player, c)]
    seen = {c.id for c in view.counters}
    for c in view.counters:                      # which hidden enemies saw a mover (Assault 15.A) stays hidden
        c.seen_start = tuple(i for i in c.seen_start if i in seen)
        c.seen_run = {i: n for i, n in c.seen_run.items() if i in seen}
    sides = {c.id: c.side for c in state.counters}
    view.declared = [d for d in view.declared if sides.get(d.firer) == player]
    view.missions = [m for m in view.missions if m.side == player]   # Assault 19.B: written secretly
    view.events = []                                                 # narration may name hidden units
    view.force_level = [lv if s == player else 0 for s, lv in enumerate(view.force_level)]
    view.casualty_log = []                       # who fired from where is not all public: reports only
    view.dice = Dice(0)
    view.dice = Dice.seeded_from(view.fingerprint(), record=False)
    return view


def scramble_hidden(state, player: int, seed: int):
    """A clone with everything ``player`` may not know randomized."""
    rng = random.Random(seed)
    out = state.clone()
    labels = sorted(out.game.map.hex_of)
    for c in out.counters:
        if _hidden(state, player, c):
            c.hex = out.game.map.hex_of[rng.choice(labels)]
            c.steps = rng.randint(1, out.game.card(c.card).body.steps)
            c.facing = rng.randrange(6)
            c.dummy = rng.random() < 0.25                            # Assault 10.F: real or dummy is unknown
    sides = {c.id: c.side for c in state.counters}
    targets = [c.id for c in out.counters if c.side == player] or [""]   # what the enemy fires at: ours (12.D)
    out.declared = [d if sides.get(d.firer) == player else type(d)(d.firer, d.ammo, rng.choice(targets))
                    for d in out.declared]
    sizes = [len(out.game.levels[sid]) for sid in out.game.sides]
    out.force_level = [lv if s == player or not sizes[s] else rng.randint(1, sizes[s])
                       for s, lv in enumerate(out.force_level)]
    out.missions = [m if m.side == player else dataclasses.replace(m, hex=out.game.map.hex_of[rng.choice(labels)])
                    for m in out.missions]
    for c in out.counters:
        if _hidden(state, player, c) and c.carrier:
            c.carrier = ""                                           # what rides in a hidden carrier is unknown
    out.dice = Dice(seed)
    return out
