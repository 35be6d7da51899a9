"""Build small World at War games in memory for rule tests: any counters, any hexes of the sample boards."""
from __future__ import annotations

import itertools
from pathlib import Path

from studio.model.documents import Toe
from studio.model.kinds import scenario_model
from studio.model.project import LoadedDocument, load_project
from studio.rulesets.waw.engine.game import create_game

DATA = Path(__file__).resolve().parents[3] / "data"
_INDEX = None
_COUNTER = itertools.count()


def index():
    global _INDEX
    if _INDEX is None:
        _INDEX = load_project(DATA)
    return _INDEX


def _add(model, kind):
    doc = LoadedDocument(Path(f"<memory>/{model.id}.yaml"), f"<memory>/{model.id}.yaml",
                         data={"kind": kind, "id": model.id}, model=model)
    index().add(doc)


class _EditedIndex:
    """The project index with the WaW ruleset replaced by an edited copy (for table tests)."""

    def __init__(self, base, ruleset):
        self._base, self._ruleset = base, ruleset

    def model(self, kind, doc_id):
        if kind == "ruleset" and doc_id == "waw":
            return self._ruleset
        return self._base.model(kind, doc_id)

    def __getattr__(self, name):
        return getattr(self._base, name)


def edited_ruleset(cells: dict):
    """A deep copy of the WaW ruleset with ``{table id: {row key: {column: value}}}`` cells replaced
    (``terrain`` edits ``terrain[].move_cost``: ``{"terrain": {code: {mobility: cost}}}``)."""
    rs = index().model("ruleset", "waw").model_copy(deep=True)
    for tid, rows in cells.items():
        if tid == "terrain":
            for t in rs.terrain:
                t.move_cost.update(rows.get(t.code, {}))
            continue
        table = rs.table(tid)
        for row in table.rows:
            for col, value in rows.get(row[0], {}).items():
                row[table.columns.index(col)] = value
    return rs


def build(us: list[tuple[str, str]], soviet: list[tuple[str, str]], *, options=None, extension=None,
          markers=(1, 1), morale=(None, None), victory=None, turns=3, seed=0, soviet2=None, tables=None):
    """A game with one formation per side: ``[(card id, hex label), ...]``; unit ids are ``us.1``, ``su.1`` ...
    ``soviet2``: a second Soviet formation ``f-su2`` (units ``su2.1`` ...); ``tables``: ruleset cells to edit
    (see ``edited_ruleset``)."""
    n = next(_COUNTER)
    forces = []
    groups = [("us", us, "United States"), ("su", soviet, "Soviet Union")]
    if soviet2:
        groups.append(("su2", soviet2, "Soviet Union"))
    for side, units, nation in groups:
        toe = Toe.model_validate({"kind": "toe", "id": f"t-{side}-{n}", "ruleset": "waw", "name": side,
                                  "nation": nation, "root": {"id": "r", "echelon": "company", "slots": [
                                      {"id": f"s{i}", "unit": c, "role": "line"} for i, (c, _) in enumerate(units)]}})
        _add(toe, "toe")
        forces.append({"id": side, "toe": toe.id, "setup": {"hexes": [h for _, h in units]}})
    ext = {"roles": [{"side": "us", "role": "NATO"}, {"side": "soviet", "role": "Alliance"}],
           "formations": [{"id": "f-us", "force": "us", "markers": markers[0]},
                          {"id": "f-su", "force": "su", "markers": markers[1]}]}
    if soviet2:
        ext["formations"].append({"id": "f-su2", "force": "su2", "markers": 1})
    for i, m in enumerate(morale):
        if m is not None:
            ext["formations"][i]["morale"] = m
    ext.update(extension or {})
    sc = scenario_model("waw").model_validate({
        "kind": "scenario", "id": f"sc-{n}", "ruleset": "waw", "name": "test",
        "boards": [{"map": "board-2", "at": [0, 0]}, {"map": "board-4", "at": [20, 0]}],
        "turns": turns, "first_player": "initiative",
        "sides": [{"id": "us", "name": "US", "nation": "United States", "forces": [forces[0]]},
                  {"id": "soviet", "name": "Soviet", "nation": "Soviet Union", "forces": forces[1:]}],
        "victory": victory or [{"id": "a", "type": "destroy_units", "side": "us", "points": 1},
                               {"id": "b", "type": "destroy_units", "side": "soviet", "points": 1}],
        "extension": ext})
    game = create_game(sc, _EditedIndex(index(), edited_ruleset(tables)) if tables else index(), options)
    return game, recording(game.new_initial_state(seed))


def recording(state):
    """``state`` with its dice recording (rule tests read the rolls and narration; batch play records nothing)."""
    state.dice.record = True
    return state


def u(game, uid: str) -> int:
    return game.by_uid[uid]


def at(game, label: str):
    return game.map.hex_of[label]


def place(state, uid: str, label: str) -> None:
    g = state.game
    state.hex[g.by_uid[uid]] = g.map.hex_of[label]


def rolls(state, mark: int, label: str | None = None) -> list[int]:
    """The rolls since ``mark`` whose label starts with the word ``label`` ("attack AP us.1>su.1" is "attack")."""
    return [v for lab, v in state.dice.history[mark:] if label is None or lab.split(" ", 1)[0] == label]


def to_ops(s, formation="f-us"):
    """Play (text actions) until an impulse of ``formation`` starts: other formations are set aside or ended,
    Opportunity Fire windows passed."""
    g = s.game
    for _ in range(200):
        p = s.pending
        if p[0] == "decide":
            fid = g.formations[p[1]].id
            s.play(g.parse_action(("activate " if fid == formation else "skip ") + fid))
            if fid == formation:
                return
        elif p[0] == "ops":
            s.play(g.parse_action("end"))
        elif p[0] == "strike":
            s.play(s.legal_actions()[0])
        elif p[0] == "terminal":
            break
        else:
            s.play(g.parse_action("pass"))
    raise AssertionError(f"formation {formation} never drawn")


def finish_turn(s):
    """Set aside / end everything until the turn number changes (the Marker Removal Phase has run)."""
    g = s.game
    turn = s.turn
    for _ in range(400):
        if s.turn != turn or s.is_terminal():
            return
        p = s.pending
        if p[0] == "decide":
            s.play(g.parse_action("skip " + g.formations[p[1]].id))
        elif p[0] == "ops":
            s.play(g.parse_action("end"))
        elif p[0] == "strike":
            s.play(s.legal_actions()[0])
        else:
            s.play(g.parse_action("pass"))
    raise AssertionError("turn never ended")


def legal(s) -> set[str]:
    return {str(a) for a in s.legal_actions()}
