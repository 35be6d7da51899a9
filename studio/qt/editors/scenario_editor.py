"""Placeholder until the dedicated editor lands: the text editor."""
from .text_editor import QtTextEditor


class QtScenarioEditor(QtTextEditor):
    pass
