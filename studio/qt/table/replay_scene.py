"""The replay viewer's drawing of a game on a measured table (Battlefield Ops!): the table with the scenario's
prepared works, zones and objectives, and per step the units as their bases at their positions and facings
(wrecks grey and crossed), the units the action names ringed and the shot drawn from firer to target.

The unit positions per step come from replaying the logged actions on a fresh state of the same game (the
walk in ``studio.document.replay_walk`` keeps hex positions only). The replay viewer calls
:func:`table_replay_view` for a measured table and ``show_step`` for each step.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from .scene import TableGraphicsView, TableScene, terrain_colours


@dataclass(frozen=True, slots=True)
class UnitAt:
    """A unit of one replay step as drawn: position (inches), facing (degrees), base size, wreck or not."""

    id: str
    card: str
    side: int
    x: float
    y: float
    facing: float
    width_in: float
    length_in: float
    disabled: bool


def snapshots(game, seed: int, actions: list[str]) -> list[list[UnitAt]]:
    """The units before any action (index 0) and after each action in turn; stops at an action that does not
    apply (the walk reports it)."""
    state = game.new_initial_state(seed)
    out = [_units(game, state)]
    for text in actions:
        try:
            state.apply(game.parse_action(text))
        except Exception:  # noqa: BLE001 - the replay walk reports the bad action
            break
        out.append(_units(game, state))
    return out


def _units(game, state) -> list[UnitAt]:
    out = []
    for u in getattr(state, "units", []):
        base = game.card_of(u).base
        out.append(UnitAt(u.id, u.card, u.side, u.x, u.y, u.facing, base.width_in, base.length_in, u.disabled))
    return out


class TableReplayView(QWidget):
    """The table of a replay and its units at the shown step."""

    def __init__(self, loaded, replay: dict, parent=None):
        super().__init__(parent)
        game = loaded.game
        table = game.table.model_dump(mode="json", exclude_defaults=True)
        self.scene = TableScene(game.geometry.width, game.geometry.depth,
                                terrain_colours(loaded.index, loaded.scenario.ruleset), self)
        self.scene.draw_table(table)
        self.scene.draw_scenario(game.ext.model_dump(mode="json"), list(game.sides))
        actions = [a for a in replay.get("actions", []) if isinstance(a, str)]
        self.frames = snapshots(game, int(replay.get("seed", 0)), actions)
        self.view = TableGraphicsView(self.scene, self)
        self.caption = QLabel(f"Played on a measured table, {game.geometry.width:g}\" x {game.geometry.depth:g}\" "
                              f"({loaded.scenario.boards[0].map}): units drawn as their bases, the named units "
                              "ringed, the shot as a line.")
        self.caption.setWordWrap(True)
        self.caption.setStyleSheet("color: #555")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.view, 1)
        self.show_step(None)

    def text(self) -> str:
        """The caption (what the replay viewer says about the table)."""
        return self.caption.text()

    def units_at(self, index: int) -> list[UnitAt]:
        return self.frames[max(0, min(index, len(self.frames) - 1))] if self.frames else []

    def show_step(self, step) -> None:
        """Draw the units after ``step`` (a ``replay_walk.Step``; None = the set-up), ring the units it names
        and draw the line from the first to the second (a shot)."""
        index = getattr(step, "index", 0) or 0
        units = self.units_at(index)
        self.scene.set_units(units)
        before = {u.id: u for u in self.units_at(index - 1)} if index else {}
        named = [before.get(n) or next((u for u in units if u.id == n), None) for n in getattr(step, "named", [])]
        named = [u for u in named if u is not None]
        self.scene.set_marks([(u.x, u.y) for u in named])
        shot = step is not None and str(getattr(step, "action", "")).split()[:1] in (["fire"], ["cqb"])
        if shot and len(named) >= 2:
            self.scene.set_shot((named[0].x, named[0].y), (named[1].x, named[1].y), bool(step.losses))
        else:
            self.scene.set_shot(None, None, False)


def table_replay_view(loaded, replay: dict, parent=None) -> TableReplayView:
    """The replay viewer's entry point for a measured table."""
    return TableReplayView(loaded, replay, parent)
