"""The speed anchor every benchmark prints its figures beside: python-chess random playouts, measured in the same
run (these machines are noisy, so a figure means something only as a ratio to an anchor measured alongside it).

``chess_plies_per_s()`` plays random games from the initial position for about ``seconds`` and returns plies/s;
``report(label, value, anchor, unit)`` prints one line ``label: value unit = ratio x python-chess``.
"""
from __future__ import annotations

import random
import time

import chess

_CACHE: dict[str, float] = {}


def chess_plies_per_s(seconds: float = 2.0, seed: int = 0, clock=time.perf_counter) -> float:
    """Random-playout plies per second of python-chess (legal moves listed, one drawn, pushed; game over checked).

    ``clock`` is ``time.perf_counter`` (wall) by default; pass ``time.process_time`` for a CPU-time anchor, which
    moves less on a loaded machine (compare it only with figures timed the same way)."""
    rng = random.Random(seed)
    plies = 0
    start = clock()
    while clock() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 400:
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
            plies += 1
    return plies / (clock() - start)


def anchor(refresh: bool = False) -> float:
    """The anchor of this run (measured once per process unless ``refresh``); printed when measured."""
    if refresh or "chess" not in _CACHE:
        _CACHE["chess"] = chess_plies_per_s()
        print(f"\nanchor: python-chess random playouts {_CACHE['chess']:.0f} plies/s")
    return _CACHE["chess"]


def report(label: str, value: float, anchor_value: float, unit: str = "actions/s") -> float:
    """Print ``value`` beside the anchor with their ratio; return the ratio."""
    ratio = value / anchor_value if anchor_value else float("nan")
    print(f"{label}: {value:,.1f} {unit} = {ratio:.2f}x python-chess ({anchor_value:,.0f} plies/s)")
    return ratio
