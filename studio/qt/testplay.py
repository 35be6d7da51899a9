"""Test-play panel: run N games of a scenario in the background, show win rates, VP histogram and losses.

The runner is ``studio.sim`` (balance runs); until it is available the panel says so and stays inert.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class QtTestPlayPanel(QWidget):
    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.scenario_id: str | None = None
        self.message = QLabel("Test-play: open a scenario and press F8.")
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)

    def set_scenario(self, scenario_id: str | None) -> None:
        self.scenario_id = scenario_id
        self.message.setText(f"Scenario: {scenario_id}")

    def cancel(self) -> None:
        pass
