"""Command control (Assault 4-6): HQ and TOC ratings, operations points per friendly movement phase and what they
pay for, as a mixin of ``AssaultState``.

- Ratings (4.B.1-2): at the start one roll on table command-ratings per HQ (command rating) and per TOC
  (command and planning ratings), for every HQ and TOC of the scenario's forces at every force level, so the
  rolls, which are public, tell nothing of the level drawn.
- Sources (4.B): at the start of each friendly movement phase every HQ and TOC in play and not broken (5, 17.C)
  gets its command rating; a TOC declared to plan (``toc <unit> plan``, at the start of its side's first
  movement phase) gives nothing and adds its command rating to its planning track up to its planning rating
  (6.A.2, each movement phase or once a turn by option c17), one declared to execute gives its track (6.A.3); the
  off-board OPs of the turn (4.B.3); and, when there are no others, the default OPs (4.B.4).
- Costs (4.C): moving in combat formation (once per unit and phase; the engine moves units one by one, so a
  stack pays per unit) and changing formation cost 1 OP when the unit's hex is visible to the HQ or TOC paying,
  2 when not; two sources may pay one each. Marching, firing and entering cover cost nothing; asterisk units
  (4.D.1) never pay. An HQ or TOC pays only for units subordinate to it (3.A); off-board and default OPs count as
  a superior HQ's (4.C.3) and cost as visible or not by option c31.
- Spending is automatic: the lowest superior that can pay (company HQ, battalion HQ, regiment HQ, TOC), then
  off-board, then default OPs. Unused OPs are lost or kept for the next friendly movement phase (option c16).
"""
from __future__ import annotations

from ..designations import parse, superiors
from .dice import d10

OFF_BOARD, DEFAULT = "off-board", "default"
HQ_ROLES = ("company-hq", "battalion-hq", "regiment-hq", "toc")


def rating_keys(game) -> list[tuple[int, str]]:
    """(side, designation) of every HQ and TOC of the scenario's forces (Assault 4.B.2), sorted."""
    out = set()
    for s, side in enumerate(game.scenario.sides):
        for force in side.forces:
            for text in game._slot_designations(force):
                d = parse(game.sides[s], text) if text else None
                if d is not None and d.role in HQ_ROLES:
                    out.add((s, text.replace("-", "")))
    return sorted(out)


def roll_ratings(game, dice) -> dict:
    """(side, designation) -> (command, planning), one roll each on table command-ratings (Assault 4.B.1-2)."""
    out = {}
    for side, key in rating_keys(game):
        row = game.command_ratings.get(dice.roll(game.data.constant("die-faces"), f"rating {key}"))
        if row is None:
            continue
        toc = key.startswith("TOC")
        out[(side, key)] = (row["toc_command"], row["toc_planning"]) if toc else (row["hq_command"], 0)
    return out


class CommandControl:
    """Methods of ``AssaultState`` for Assault 4-6 (needs counters, ratings, ops, game and LOS)."""

    def _grant_ops(self) -> None:
        """Assault 4.B at the start of a friendly movement phase: the phasing side's OP pools."""
        side = self.phasing()
        pools = {}
        for c in self.counters:
            key = c.designation.replace("-", "")
            if c.side == side and (side, key) in self.ratings and self._company(c).state != "broken":  # 5, 17.C
                if self.phase.endswith("move-1"):
                    c.toc_mode = "command"                                              # declared anew (6.A)
                pools.update(self._source_pool(c, key))
        pools.update(self._orphan_pools(side))                                          # Assault 6.B.3
        per_turn = self.game.scenario.extension.off_board_ops.get(self.game.sides[side], [])
        if self.turn <= len(per_turn) and per_turn[self.turn - 1] > 0:
            pools[OFF_BOARD] = per_turn[self.turn - 1]                                  # Assault 4.B.3
        if not any(pools.values()):
            pools[DEFAULT] = self.game.data.constant("default-ops")                     # Assault 4.B.4
        if self.game.options.get("c16-unused-ops") == "carry":
            for key, left in self.ops[side].items():
                if (side, key) not in self.orphan_banks:
                    pools[key] = pools.get(key, 0) + left                               # option c16
        self.ops[side] = pools
        self._self_rally(side)

    # ------------------------------------------------------------------ an eliminated TOC (Assault 6.B.3)
    def _orphan_pools(self, side: int) -> dict:
        """Assault 6.B.3 (A37): the planning track of an eliminated TOC is its unit HQ's to spend while that HQ
        is in play and not broken (the pool keeps the TOC's key, so it pays for whom the TOC could)."""
        out = {}
        for (s, key), bank in self.orphan_banks.items():
            if s == side and bank > 0 and self._orphan_hq(side, key) is not None:
                out[key] = bank
        return out

    def _orphan_hq(self, side: int, key: str):
        hq = f"HQ{key[3:]}"
        return next((c for c in self.counters if c.side == side and c.designation.replace("-", "") == hq
                     and self._company(c).state != "broken"), None)

    def _drain_orphan_banks(self, side: int) -> None:
        """Assault 6.B.3, ESoP (last step of the second movement phase): each eliminated TOC's track loses 2
        (constant toc-eliminated-drain), never below 0."""
        drain = self.game.data.constant("toc-eliminated-drain")
        for (s, key), bank in sorted(self.orphan_banks.items()):
            if s == side:
                self.orphan_banks[(s, key)] = max(0, bank - drain)

    def _self_rally(self, side: int) -> None:
        """Assault 17.C: a shaken HQ or TOC must try to rally itself each friendly movement phase, spending 1 OP
        (constant hq-self-rally-ops) of its own; it cannot when it has no OPs this phase (a planning TOC)."""
        cost = self.game.data.constant("hq-self-rally-ops")
        for c in self.counters:
            key = c.designation.replace("-", "")
            m = self.morale.get(c.company)
            if c.side != side or m is None or m.state != "shaken" or m.rally_tried or c.company != key:
                continue
            if self.ops[side].get(key, 0) < cost:
                continue
            self.ops[side][key] -= cost
            m.rally_tried = True
            roll = d10(self.dice, f"self-rally {key}")
            self.narrate(f"shaken {key} must rally itself on {m.level}: roll {roll}: "
                         f"{'rallies' if roll <= m.level else 'fails'} (17.C)")
            if roll <= m.level:
                m.state = "normal"
                for u in self.counters:
                    if u.side == side and u.company == key:
                        u.suppressed = False                                           # Assault 17.B

    def _source_pool(self, c, key: str) -> dict:
        """The OPs an HQ or TOC gives this phase (Assault 4.B.1, 6.A): its command rating, nothing while a TOC
        plans (its rating goes to the planning track, option c17), the track while it executes."""
        rating, planning = self.ratings[(c.side, key)]
        if c.toc_mode == "plan":
            if self.game.options.get("c17-plan-accrual", "per-phase") == "per-phase" or \
                    self.phase.endswith("move-1"):
                c.toc_bank = min(c.toc_bank + rating, planning)                         # Assault 6.A.2
            return {}
        if c.toc_mode == "execute":
            return {key: c.toc_bank}                                                    # Assault 6.A.3
        return {key: rating}

    def _toc_actions(self) -> list[str]:
        """Assault 6.A: at the start of its side's first movement phase each TOC commands (the default), plans
        (not when suppressed, 6.B.1) or executes; neither without its unit HQ in play (6.B.4)."""
        side = self.phasing()
        if not self.phase.endswith("move-1") or any(c.moved or c.changed or c.paid or c.rally_tried
                                                    for c in self.counters if c.side == side):
            return []
        out = []
        for c in self.counters:
            key = c.designation.replace("-", "")
            if c.side != side or not key.startswith("TOC") or (side, key) not in self.ratings:
                continue
            if c.toc_mode != "command" or key not in self.ops[side]:
                continue
            if not any(h.side == side and h.designation.replace("-", "") == f"HQ{key[3:]}" for h in self.counters):
                continue                                                                # Assault 6.B.4
            out += [f"toc {c.id} plan"] if not c.suppressed else []                     # Assault 6.B.1
            out += [f"toc {c.id} execute"] if c.toc_bank > 0 else []
        return out

    def _toc_order(self, c, mode: str) -> None:
        key = c.designation.replace("-", "")
        c.toc_mode = mode
        self.ops[c.side].pop(key, None)
        self.ops[c.side].update(self._source_pool(c, key))

    def _chain(self, c) -> list[str]:
        """The designations of the HQs and TOCs that may pay for ``c`` (Assault 3.A, 4.C), lowest first. A
        cross-attached unit (4.C.4) obeys, by option c5, the receiving HQ and its superiors ('receiving-chain'),
        the receiving HQ alone ('receiving-hq'), or its own chain and then the receiving one ('both-chains')."""
        own = self._chain_of(c.side, c.designation)
        if not c.attached:
            return own
        scope = self.game.options.get("c5-cross-attach-scope", "receiving-chain")
        receiving = [c.attached] + ([] if scope == "receiving-hq" else self._chain_of(c.side, c.attached))
        return own + receiving if scope == "both-chains" else receiving

    def _chain_of(self, side: int, designation: str) -> list[str]:
        """The superiors of a designation (Assault 3.A); Soviet battalions reach their regiment through the
        scenario's battalion -> regiment mapping (4.B.2)."""
        key = (side, designation)
        cache = self.game.chains
        if key not in cache:
            d = parse(self.game.sides[side], designation) if designation else None
            out = superiors(d) if d is not None else []
            regiment = self.game.regiment_of.get(d.battalion) if d and d.side == "soviet" and d.regiment is None \
                else None
            if regiment is not None and d.role in ("line", "battalion-hq"):
                out += [f"HQ{regiment}", f"TOC{regiment}"]
            cache[key] = tuple(out)
        return list(cache[key])

    # ------------------------------------------------------------------ cross-attachment (Assault 4.C.4)
    def _attach_actions(self) -> list[str]:
        """``attach <unit> <HQ>`` at the start of a friendly movement phase: 2 OPs (constant cross-attach-ops)
        from the HQ the unit is originally subordinate to, within the receiving HQ's limit (4.C.4, A29)."""
        side = self.phasing()
        if any(c.moved or c.changed or c.paid for c in self.counters if c.side == side):
            return []
        cost = self.game.data.constant("cross-attach-ops")
        hqs = sorted({h.designation.replace("-", "") for h in self.counters if h.side == side and h.designation
                      and self._receiver(side, h.designation.replace("-", "")) is not None})
        out = []
        for c in self.counters:
            own = self._chain_of(side, c.designation)
            if c.side != side or c.attached or not own or not own[0].startswith("HQ") \
                    or self.ops[side].get(own[0], 0) < cost:
                continue
            out += [f"attach {c.id} {hq}" for hq in hqs if hq not in own and hq != c.designation
                    and self._room(side, hq, c)]
        return out

    def _receiver(self, side: int, hq: str):
        d = parse(self.game.sides[side], hq)
        return d if d is not None and d.is_hq else None

    def _room(self, side: int, hq: str, c) -> bool:
        """Assault 4.C.4: the receiving HQ's limit in platoons (a section is a third)."""
        from ..checks import _attachment_limit
        limit = _attachment_limit(self._receiver(side, hq), self.game.data.constant)
        if limit is None:
            return True
        size = lambda u: 1.0 if self.game.card(u.card).body.size == "platoon" else 1 / 3  # noqa: E731
        load = sum(size(u) for u in self.counters if u.side == side and u.attached == hq)
        return load + size(c) <= limit + 1e-9

    def _attach(self, c, hq: str) -> None:
        """Assault 4.C.4, 17.A: paid by its own HQ; it now obeys ``hq`` and checks morale with its company."""
        own = self._chain_of(c.side, c.designation)[0]
        self.ops[c.side][own] -= self.game.data.constant("cross-attach-ops")
        c.attached, c.company = hq, receiving_company(self.game.sides[c.side], hq)
        self._company_record(c)
        self.narrate(f"{c.id} is cross-attached to {hq} (4.C.4)")

    def _visible_from(self, key: str, hexes: list, posts: dict) -> bool:
        """Assault 4.C.1: one of ``hexes`` is visible (Rule 10 LOS) from the paying HQ or TOC (``posts``: their
        hexes by designation); off-board and default OPs by option c31."""
        if key in (OFF_BOARD, DEFAULT):
            return self.game.options.get("c31-offboard-ops-visibility") == "visible"
        return any(self.has_los(h, t) for h in posts.get(key, ()) for t in hexes)

    def _payment_now(self, c, hexes: list | None = None) -> dict | None:
        """The OPs to take from each source for one order of ``c`` (Assault 4.C; seen if one of ``hexes``, by
        default its own, is visible), None when it cannot be paid; {} for units that never pay (asterisk units,
        4.D.1; not for a company rally). (``_payment`` asks it once per order and decision, ``caches.py``.)"""
        if hexes is None and (self.game.card(c.card).body.asterisk or c.dummy):
            return {}                                                 # 4.D.1; a dummy is nobody's order (10.F)
        pools = self.ops[c.side]
        sources = [k for k in self._chain(c) + [OFF_BOARD, DEFAULT] if pools.get(k, 0) > 0]
        if not sources:
            return None
        every = self._posts(c.side)
        posts = {key: every[key] for key in sources if key in every}
        for key in sources:
            if (c.side, key) in self.orphan_banks and self._orphan_hq(c.side, key) is not None:
                posts[key] = [self._orphan_hq(c.side, key).hex]                        # 6.B.3: the HQ spends it
        k = self.game.data.constant
        for key in sources:
            if self._visible_from(key, hexes or [c.hex], posts):
                return {key: k("ops-visible")}
        need = k("ops-not-visible")
        taken: dict = {}
        for key in sources:                      # one from each of two sources, or both from one (Assault 4.C)
            part = min(pools[key], need - sum(taken.values()))
            taken[key] = part
            if sum(taken.values()) == need:
                return taken
        return None

    def _pay(self, c, hexes: list | None = None) -> None:
        for key, n in (self._payment(c, hexes) or {}).items():
            self.ops[c.side][key] -= n
            if (c.side, key) in self.orphan_banks:
                self.orphan_banks[(c.side, key)] -= n                                   # Assault 6.B.3
            for toc in self.counters:
                if toc.side == c.side and toc.toc_mode == "execute" and toc.designation.replace("-", "") == key:
                    toc.toc_bank -= n                                                   # Assault 6.A.3

    def _needs_orders(self, c) -> bool:
        """Assault 4.C.2: moving in combat formation needs OPs once per phase (march is free, 7.C; a broken
        unit moves like march formation, 17.A.2)."""
        return c.formation == "combat" and not c.paid and self._company(c).state != "broken" and not c.dummy


def receiving_company(side: str, hq: str) -> str:
    """The company a unit cross-attached to ``hq`` checks morale with (Assault 17.A): a U.S. company HQ's
    company, else the HQ's own."""
    d = parse(side, hq)
    if d is not None and d.side == "us" and d.role == "company-hq":
        return f"{d.company}{d.battalion}"
    return hq


class Replacement:
    """HQ replacement (Assault 4.C.3, 5; examples A26, A27) as a mixin of ``AssaultState``.

    An eliminated HQ is remembered (``dead_hqs``). At the start of a friendly movement phase, before any unit
    moves, ``replace <designation> <unit>`` puts it back:
    - a U.S. company HQ or a Soviet battalion HQ in the hex of ``<unit>``, a platoon of its company (battalion):
      a full-strength one takes a hit (half strength), a half-strength one is removed; paid like an order for a
      unit in that hex (1 OP seen, 2 not) by a superior of the dead HQ, off-board or default OPs (4.C.3);
    - a U.S. battalion or Soviet regimental HQ in the hex of ``<unit>``, its TOC, with a jeep (M-151) or a
      UAZ-469 beside it; the TOC loses nothing; no OP cost is stated (none is paid); no TOC, no replacement.
    Its command rating is rolled again (table command-ratings)."""

    VEHICLE = {"us": "us-m151", "soviet": "su-uaz469"}

    def _replace_actions(self) -> list[str]:
        side = self.phasing()
        if any(c.moved or c.changed or c.paid for c in self.counters if c.side == side):
            return []
        out = []
        for dead_side, key, _card in self.dead_hqs:
            if dead_side != side:
                continue
            for c in self._replacement_hosts(side, key):
                out.append(f"replace {key} {c.id}")
        return out

    def _replacement_hosts(self, side: int, key: str) -> list:
        """The counters the HQ ``key`` may be replaced on (see the class docstring)."""
        d = parse(self.game.sides[side], key)
        if d is None:
            return []
        if d.role == "company-hq" or (d.role == "battalion-hq" and self.game.sides[side] == "soviet"
                                      and (d.battalion or 0) < 90):
            hosts = [c for c in self.counters if c.side == side and not c.carrier and self._in_command(c, d)]
            tmp = [c for c in hosts if self._payment(self._stand_in(side, key), [c.hex]) is not None]
            return tmp
        number = d.regiment if d.regiment is not None else d.battalion
        return [c for c in self.counters if c.side == side and c.designation.replace("-", "") == f"TOC{number}"]

    def _in_command(self, c, hq) -> bool:
        """A line platoon of the dead HQ's company (U.S.) or battalion (Soviet)."""
        d = parse(self.game.sides[c.side], c.designation) if c.designation else None
        if d is None or d.role != "line":
            return False
        if hq.side == "us":
            return d.company == hq.company and d.battalion == hq.battalion
        return d.battalion == hq.battalion

    def _stand_in(self, side: int, key: str):
        """A counter with the dead HQ's designation, to find who may pay for it (Assault 4.C.3)."""
        from .game import Counter
        card = next(card for s, k, card in self.dead_hqs if s == side and k == key)
        return Counter(f"{key}-replaced", card, side, None, 1, designation=key)

    def _replace(self, key: str, host) -> None:
        side = host.side
        new = self._stand_in(side, key)
        new.id = f"{key}-r{sum(1 for c in self.counters if c.id.startswith(key + '-r')) + 1}"
        new.hex, new.steps, new.company = host.hex, self.game.card(new.card).body.steps, key
        new.facing = host.facing
        if host.designation.replace("-", "").startswith("TOC"):
            vehicle = self.VEHICLE[self.game.sides[side]]
            self.counters.append(type(new)(f"{new.id}-car", vehicle, side, host.hex, 1, facing=host.facing,
                                           designation=key, company=key))
            self.narrate(f"{key} is replaced at its TOC {host.id} with a {vehicle} (4.C.3)")
        else:
            self._pay(new, [host.hex])
            if host.steps == self.game.card(host.card).body.steps:
                host.steps -= 1                                           # Assault 4.C.3: a hit marker
                self.lost_steps[side] += 1
                self._record_loss(host, 1, None, "HQ replacement")
            else:
                self.counters = [c for c in self.counters if c is not host]
            self.narrate(f"{key} is replaced in {self.game.map.label_of[host.hex]} from {host.id} (4.C.3)")
        self.counters.append(new)
        self.dead_hqs = tuple(x for x in self.dead_hqs if not (x[0] == side and x[1] == key))
        row = self.game.command_ratings.get(self.dice.roll(self.game.data.constant("die-faces"), f"rating {key}"))
        if row is not None:
            self.ratings[(side, key)] = (row["hq_command"], 0)            # Assault 4.C.3: rolled again

    def _note_eliminated(self, c) -> None:
        """Remember an eliminated HQ (not its carrier) for replacement (Assault 4.C.3), and an eliminated TOC's
        planning track for its unit HQ (6.B.3)."""
        body = self.game.card(c.card).body
        key = c.designation.replace("-", "")
        if body.role == "toc" and key.startswith("TOC") and c.toc_bank > 0:
            self.orphan_banks[(c.side, key)] = c.toc_bank
        d = parse(self.game.sides[c.side], key) if key else None
        if body.role == "hq" and not body.hq_transport and d is not None and d.is_hq \
                and not any(x[:2] == (c.side, key) for x in self.dead_hqs):
            self.dead_hqs = self.dead_hqs + ((c.side, key, c.card),)
