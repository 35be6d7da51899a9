"""A game's content hash covers every document it depends on, including cards named only inside a plugin's
scenario block (a WaW attachment): editing such a card changes the hash, so replays and balance files notice."""
from __future__ import annotations

import shutil
from pathlib import Path

from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[2] / "data"


def test_a_card_named_only_in_the_extension_is_a_dependency(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    before = load_game("waw-hill-fight", root).content_hash
    card = root / "units/waw/us-dragon-sw.yaml"
    card.write_text(card.read_text() + "\n# edited\n")
    assert load_game("waw-hill-fight", root).content_hash != before
