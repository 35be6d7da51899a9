"""MBT optional rule 7.31 Mines, a scenario's scattered plot (OPTB): 'unless otherwise indicated' (7.31.1.1) a
plot's hexes must touch; ``contiguous: false`` on the plot lets the scenario indicate otherwise."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import opt_game, opt_state, unit  # noqa: E402
from test_adv_move_quickmarch import _line  # noqa: E402

(H0, H1, H2), D = _line(("C", "C", "C"))
FAR = "4T13"


def test_a_scattered_minefield_plot_when_the_scenario_says_so():
    # MBT 7.31.1.1: "unless otherwise indicated, a minefield's hexes must be contiguous": a plot marked
    # contiguous: false may be scattered; the default refuses it
    import pytest

    from studio.rules.load import ScenarioRefused

    far = [H0, FAR]
    plot = {"side": "sov", "hexes": far, "field": "hasty", "mines": "both"}
    with pytest.raises(ScenarioRefused):
        opt_game(("mines",), minefields=[plot])
    g = opt_game(("mines",), minefields=[dict(plot, contiguous=False)])
    st = opt_state(g, [unit("V", "m1", "us", H2, D), unit("E", "t-80bv", "sov", "4T14", 2)], to_act=None)
    assert st.mines[0].field.hexes == {g.map.hex(H0), g.map.hex(FAR)}
