"""Issue 12 leftover: the scenario's ``attachments`` (MBT 5.1.3) are read by the engine. A slot's crew-served
weapons replace the leg card's ``attached_weapons`` for the units of that slot only (slot named with or without
the TO&E root)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    return root


def with_attachments(root: Path, block: str) -> Path:
    path = root / "scenarios/mbt/adv-combined-arms.yaml"
    text = path.read_text(encoding="utf-8")
    assert "extension:\n  game: advanced\n" in text
    path.write_text(text.replace("extension:\n  game: advanced\n", "extension:\n  game: advanced\n" + block, 1),
                    encoding="utf-8")
    return path


def weapons(game, card: str) -> list[tuple[str, list[str]]]:
    return [(u.force, sorted(r.key.split(":")[0] for r in u.type.ap)) for u in game.units if u.type.id == card]


def test_card_default_without_attachments():
    game = load_game("adv-combined-arms", DATA).game
    found = weapons(game, "us-mech-squad")
    assert found and all("dragon" in keys and "law" in keys for _force, keys in found)


@pytest.mark.parametrize("slot", ["sqd", "plt/sqd"])
def test_slot_attachments_replace_the_cards_weapons(project, slot):
    with_attachments(project, f"  attachments:\n    - {{force: mech, slot: {slot}, weapons: [at4]}}\n")
    game = load_game("adv-combined-arms", project).game
    found = weapons(game, "us-mech-squad")
    assert len(found) == 4
    for force, keys in found:
        assert force == "mech" and "at4" in keys and "dragon" not in keys and "law" not in keys
    state = game.new_initial_state(1)
    assert not state.is_terminal()


def test_no_weapons_leaves_the_intrinsic_rows_only(project):
    with_attachments(project, "  attachments:\n    - {force: mech, slot: sqd, weapons: []}\n")
    game = load_game("adv-combined-arms", project).game
    assert {tuple(keys) for _f, keys in weapons(game, "us-mech-squad")} == {("rifles", "rifles-h")}
