"""The MBT LOS answer of the map tools (``studio map los``, the map editor): the blocking hex is named with its
terrain and level (MBT 4.1.4)."""
from pathlib import Path

from studio.model.los import LosService
from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[3] / "data"


def test_a_hex_that_blocks_is_named_with_its_terrain_and_level():
    loaded = load_game("meeting-engagement", DATA)
    game = loaded.game
    service = LosService.for_scenario(loaded.scenario, loaded.index)
    names = {t.code: t.name for t in loaded.index.model("ruleset", "mbt").terrain}
    hexes = sorted(game.map.label_of)
    found = 0
    for a in hexes[::37]:
        for b in hexes[::53]:
            sight = service.check(a, b)
            if sight.clear or sight.blocker is None or "|" in sight.blocker:
                continue
            _, _, kind, ident = game.los.explain(a, b)
            if kind != "hex":
                continue
            code = game.map.terrain.get(ident, "")
            assert sight.reason.startswith(f"{names.get(code, code)} on level {game.elev.get(ident, 0)}: ")
            found += 1
            if found > 3:
                return
    raise AssertionError("no blocking hex found")
