"""Optional rule 7.39 Dismounted FOs: a vehicle whose card has an integrated crew FO (``crew_fo``, with
``crew_fo_card`` the leg section it dismounts as) carries that section from the start (:func:`add_fo_sections`,
called when the game is compiled with the rule on). The section dismounts normally (``dismount``, MBT 6.6.7) and
then is a leg FO unit (it observes as an FO); the vehicle operates as before (its laser designator stays aboard).
The section remounts its parent even without leg capacity, or rides another vehicle as a normal passenger.
While aboard its parent it is crew, not a passenger: it is not attacked through the carrier, never bails out
as an independent unit (it goes with the crew) and dies with the vehicle. Dismounted, it takes
``dismounted-fo-gp`` (-10) on its GP fire, close assaults and hand-to-hand combat
(:meth:`DismountedFoRules.dismounted_fo_modifier`)."""
from __future__ import annotations

from .actions import Action
from .codes import CARRIED, DEAD, ON
from .data import DataError, UnitSpec, engine_type
from .if_data import if_data


def add_fo_sections(game) -> None:
    """Append one FO section unit per crew-FO vehicle (``NAME-FO``, same side, force and entry)."""
    out: dict = {}
    if not game.advanced or not game.optional_on("dismounted-fos"):
        return
    types = game.types
    for i, u in list(enumerate(game.units)):
        cid = _crew_fo_card(game, u.type.id)
        if not cid:
            continue
        if cid not in types:
            model = game.index.model("unit", cid)
            ut = engine_type(model, game.index, True) if model is not None else None
            if ut is None or not ut.ag or not ut.ag.leg:
                raise DataError(f"unit card '{u.type.id}': crew_fo_card '{cid}' is not a leg card (MBT 7.39)")
            types[cid] = ut
        game.units.append(UnitSpec(f"{u.name}-FO", u.side, types[cid], u.force, u.setup_hex, u.facing,
                                   u.entry_turn, u.entry_hexes, u.entry_facing))
        out[len(game.units) - 1] = i
    if out:
        game.uindex = {u.name: k for k, u in enumerate(game.units)}
        game.n = len(game.units)


def _crew_fo_card(game, card_id: str) -> str | None:
    card = game.index.model("unit", card_id)
    body = getattr(card, "body", None)
    return getattr(body, "crew_fo_card", None) if getattr(body, "crew_fo", False) else None


def fo_parents(game) -> dict:
    """{FO section index: parent index}: units ``NAME-FO`` of the parent's crew_fo_card, with the rule on (kept on
    the game with its unit list, so a position's own units get theirs)."""
    cached = game.__dict__.get("_fo_parents")
    if cached is not None and cached[0] is game.units:
        return cached[1]
    out = {}
    if game.advanced and game.optional_on("dismounted-fos"):
        for p, u in enumerate(game.units):
            c = game.uindex.get(u.name[:-3]) if u.name.endswith("-FO") else None
            if c is not None and _crew_fo_card(game, game.units[c].type.id) == u.type.id:
                out[p] = c
    game.__dict__["_fo_parents"] = (game.units, out)
    return out


def seat_fo_sections(game) -> None:
    """Each FO section starts aboard its parent (``game.initial_carrier``)."""
    for p, c in fo_parents(game).items():
        game.initial_carrier[p] = c


class DismountedFoRules:
    """Mixed into :class:`~.advanced.AdvState` before the transport and fire chapters."""

    __slots__ = ()

    def _fo_aboard(self, c: int) -> list[int]:
        parent = fo_parents(self.game)
        if not parent:
            return []
        return [p for p, x in parent.items() if x == c and self.st[p] == CARRIED and self.carrier[p] == c]

    def dismounted_fo_modifier(self, s: int) -> int:
        """-10 for a dismounted FO section's GP fire, close assault and hand-to-hand combat (MBT 7.39)."""
        parent = fo_parents(self.game)
        if parent and s in parent and self.st[s] == ON:
            return if_data(self.game).opt["dismounted-fo-gp"]
        return 0

    def gp_modifiers(self, s: int, t: int, row, band: str, overwatch: bool) -> int:
        return super().gp_modifiers(s, t, row, band, overwatch) + self.dismounted_fo_modifier(s)

    def _as_crew(self, c: int, call) -> None:
        """Run ``call`` with the FO sections aboard ``c`` hidden from the passenger list."""
        aboard = self._fo_aboard(c)
        for p in aboard:
            self.carrier[p] = -2
        try:
            call()
        finally:
            for p in aboard:
                self.carrier[p] = c

    def passengers_bail(self, c: int, result: str) -> None:
        """The FO aboard its parent is crew (MBT 7.39): it dies with a KO or BU vehicle, else stays aboard."""
        self._as_crew(c, lambda: super(DismountedFoRules, self).passengers_bail(c, result))
        if result in ("KO", "BU"):
            self._fo_lost(c, "dies with")

    def crew_bailed(self, c: int) -> None:
        """It may not bail out as an independent unit (MBT 7.39): it leaves with the crew."""
        self._as_crew(c, lambda: super(DismountedFoRules, self).crew_bailed(c))
        self._fo_lost(c, "leaves with the crew of")

    def _fo_lost(self, c: int, how: str) -> None:
        for p in self._fo_aboard(c):
            self.st[p] = DEAD
            self.carrier[p] = -1
            self.narrate(f"{self.game.units[p].name} {how} {self.game.units[c].name} (7.39)")

    def passenger_gp(self, s: int, c: int, row, factor: int, net: int, label: str = "", direct: bool = True) -> None:
        self._as_crew(c, lambda: super(DismountedFoRules, self).passenger_gp(s, c, row, factor, net, label, direct))

    def move_options(self, i: int) -> list[Action]:
        """A dismounted FO section may remount its parent in its hex whatever the parent's capacity (7.39)."""
        out = super().move_options(i)
        parent = fo_parents(self.game)
        if not parent or i not in parent or self.st[i] != ON:
            return out
        c = parent[i]
        if self.st[c] == ON and self.hex[c] == self.hex[i] and self.mv_steps == 0 and not self.mv_spent:
            act = Action(("mount", self.game.units[i].name, self.game.units[c].name))
            if act not in out:
                out.append(act)
        return out


__all__ = ["DismountedFoRules", "add_fo_sections", "seat_fo_sections"]
