"""The state contract with every fire optional rule switched on (MBT 7.8-7.50): clones are independent, replays
deterministic, phase ids declared, the fingerprint covers the fire records and observations stay private; a few
random playouts end without an engine error."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import opt_game  # noqa: E402

from studio.rules import conformance as C  # noqa: E402
from studio.rulesets.mbt.engine.opt_fire_data import RULES  # noqa: E402


def test_state_contract_with_every_fire_rule():
    g = opt_game(tuple(RULES))
    C.check_clone_independence(g, seed=3, probes=3, depth=60)
    C.check_replay_determinism(g, seed=4)
    C.check_phase_ids(g, seed=5, steps=400)
    for state in C.sample_states(g, seed=6, count=3, spacing=40):
        assert state.ofire is not None
        C.check_fingerprint_complete(state)
        C.check_observation_private(state, 0)
        C.check_observation_private(state, 1)


def test_random_playouts_with_every_fire_rule():
    g = opt_game(tuple(RULES))
    for seed in range(3):
        state, _ = C.random_playout(g, seed)
        assert state.current_player() < 0
