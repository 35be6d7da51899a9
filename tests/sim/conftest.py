import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session")
def meeting():
    """The sample MBT meeting engagement (random bots play it in about 20 ms a game)."""
    from studio.rules.load import load_game

    return load_game("meeting-engagement", DATA)


@pytest.fixture(scope="session")
def hasty():
    from studio.rules.load import load_game

    return load_game("hasty-defense", DATA)

