"""Hex labels per board convention: (board, col, row) <-> text, both ways.

``col`` and ``row`` are the 0-based offset cell on the board (see ``coords`` offset kinds);
``board`` is the board id string (may be empty).  Two conventions:

* ``AlphaNumericLabels`` - MBT style ``2E9``: board number, column letter(s), row number
  (MBT b.8 / rulebook Mapboard: "the first character is the mapboard number followed by a
  specific hex identifier").  Rows count from 1 at the first full row; partial half-hexes
  cut by the board edge above it are row **0** (offset row -1), e.g. ``E0``.
  Columns after Z continue ``AA, BB, CC`` (``letters="doubled"``, the usual wargame style)
  or ``AA, AB, AC`` (``letters="excel"``).
* ``NumericLabels`` - four-digit style ``0405``: column then row, each zero-padded to
  ``digits`` (default 2) and numbered from ``first`` (default 1), optionally prefixed with a
  board id (Assault R19.B.1 ``A2121``).  Boards wider/taller than 99 need ``digits=3``
  (``001005``); a label with too many digits for its part is rejected when formatting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_AZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def column_letters(index: int, letters: str = "doubled") -> str:
    """0-based column index -> letters.

    >>> column_letters(0), column_letters(25), column_letters(26), column_letters(27)
    ('A', 'Z', 'AA', 'BB')
    >>> column_letters(26, "excel"), column_letters(27, "excel")
    ('AA', 'AB')
    """
    if index < 0:
        raise ValueError(f"column index must be >= 0, got {index}")
    if letters == "doubled":
        return _AZ[index % 26] * (index // 26 + 1)
    if letters == "excel":
        out = ""
        n = index + 1
        while n:
            n, rem = divmod(n - 1, 26)
            out = _AZ[rem] + out
        return out
    raise ValueError(f"unknown letters style {letters!r}; expected 'doubled' or 'excel'")


def column_index(text: str, letters: str = "doubled") -> int:
    """Letters -> 0-based column index (inverse of ``column_letters``).

    >>> column_index("A"), column_index("BB"), column_index("AB", "excel")
    (0, 27, 27)
    >>> column_index("AB")
    Traceback (most recent call last):
    ...
    ValueError: column 'AB' is not a valid doubled-letter column (expected one letter repeated, e.g. 'BB')
    """
    t = text.upper()
    if not t or any(ch not in _AZ for ch in t):
        raise ValueError(f"column {text!r} must be letters A-Z")
    if letters == "doubled":
        if t != t[0] * len(t):
            raise ValueError(
                f"column {text!r} is not a valid doubled-letter column "
                f"(expected one letter repeated, e.g. 'BB')"
            )
        return (len(t) - 1) * 26 + _AZ.index(t[0])
    if letters == "excel":
        n = 0
        for ch in t:
            n = n * 26 + _AZ.index(ch) + 1
        return n - 1
    raise ValueError(f"unknown letters style {letters!r}; expected 'doubled' or 'excel'")


def _check_bounds(col: int, row: int, cols: int | None, rows: int | None, min_row: int, label: str) -> None:
    if col < 0 or (cols is not None and col >= cols):
        raise ValueError(f"hex {label!r}: column {col} is off the board (0..{'' if cols is None else cols - 1})")
    if row < min_row or (rows is not None and row >= rows):
        raise ValueError(f"hex {label!r}: row {row} is off the board ({min_row}..{'' if rows is None else rows - 1})")


@dataclass(frozen=True, slots=True)
class AlphaNumericLabels:
    """MBT-style labels ``<board><COL><row>``, e.g. ``2E9`` = board 2, column E, row 9.

    ``board_ids``: the valid board ids; None accepts any run of digits.  Letter board ids
    (e.g. ``K`` in ``KH3``) need ``board_ids`` to split the prefix unambiguously.
    ``cols``/``rows``: board size for validation (None = unchecked); ``partial_row``
    allows row 0 (offset row -1, the partial half-hexes on the edge).

    >>> mbt = AlphaNumericLabels(cols=22, rows=10)
    >>> mbt.parse("2E9")
    ('2', 4, 8)
    >>> mbt.format("2", 4, -1)
    '2E0'
    >>> mbt.parse("2E11")
    Traceback (most recent call last):
    ...
    ValueError: hex '2E11': row 10 is off the board (-1..9)
    """

    board_ids: tuple[str, ...] | None = None
    cols: int | None = None
    rows: int | None = None
    partial_row: bool = True
    letters: str = "doubled"

    def format(self, board: str, col: int, row: int) -> str:
        """(board, col, row) -> label; ValueError for cells off the board or unknown boards."""
        label = f"{board}{column_letters(col, self.letters) if col >= 0 else '?'}{row + 1}"
        self._check(board, col, row, label)
        return label

    def _check(self, board: str, col: int, row: int, label: str) -> None:
        if self.board_ids is not None and board not in self.board_ids:
            raise ValueError(f"hex {label!r}: unknown board {board!r}; known boards: {', '.join(self.board_ids)}")
        if self.board_ids is None and not board.isdigit():
            raise ValueError(f"hex {label!r}: board id {board!r} must be digits (or configure board_ids)")
        _check_bounds(col, row, self.cols, self.rows, -1 if self.partial_row else 0, label)

    def parse(self, label: str) -> tuple[str, int, int]:
        """label -> (board, col, row); ValueError naming what is wrong."""
        text = label.strip()
        if self.board_ids is not None:
            board = next((b for b in sorted(self.board_ids, key=len, reverse=True) if text.startswith(b)), None)
            if board is None:
                raise ValueError(f"hex {label!r}: does not start with a known board id ({', '.join(self.board_ids)})")
            rest = text[len(board):]
        else:
            m = re.match(r"(\d*)", text)
            board = m.group(1) if m else ""
            rest = text[len(board):]
            if not board:
                raise ValueError(f"hex {label!r}: missing board number prefix (expected e.g. '2E9')")
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", rest)
        if not m:
            raise ValueError(f"hex {label!r}: expected <board><column letters><row number>, e.g. '2E9'")
        col = column_index(m.group(1), self.letters)
        row = int(m.group(2)) - 1
        self._check(board, col, row, label)
        return (board, col, row)


@dataclass(frozen=True, slots=True)
class NumericLabels:
    """Four-digit labels ``<board>CCRR``: column, then row, zero-padded to ``digits`` each.

    ``first``: number of offset cell 0 (1 for SPI-style ``0101`` corners).  ``board_ids``:
    allowed prefixes (None = no prefix).  ``cols``/``rows``: board size for validation.

    >>> spi = NumericLabels()
    >>> spi.format("", 3, 4), spi.parse("0405")
    ('0405', ('', 3, 4))
    >>> NumericLabels(board_ids=("A", "B")).parse("A2121")
    ('A', 20, 20)
    >>> NumericLabels(digits=3).format("", 120, 4)
    '121005'
    >>> spi.parse("405")
    Traceback (most recent call last):
    ...
    ValueError: hex '405': expected 4 digits (2 column + 2 row), got '405'
    """

    digits: int = 2
    first: int = 1
    board_ids: tuple[str, ...] | None = None
    cols: int | None = None
    rows: int | None = None

    def format(self, board: str, col: int, row: int) -> str:
        """(board, col, row) -> label; ValueError if a number does not fit ``digits``."""
        c, r = col + self.first, row + self.first
        label = f"{board}{c:0{self.digits}d}{r:0{self.digits}d}"
        limit = 10**self.digits
        if not (0 <= c < limit and 0 <= r < limit):
            raise ValueError(f"hex ({col}, {row}) does not fit {self.digits}-digit numbering (use more digits)")
        self._check(board, col, row, label)
        return label

    def _check(self, board: str, col: int, row: int, label: str) -> None:
        if self.board_ids is None and board:
            raise ValueError(f"hex {label!r}: this convention has no board prefix, got {board!r}")
        if self.board_ids is not None and board not in self.board_ids:
            raise ValueError(f"hex {label!r}: unknown board {board!r}; known boards: {', '.join(self.board_ids)}")
        _check_bounds(col, row, self.cols, self.rows, 0, label)

    def parse(self, label: str) -> tuple[str, int, int]:
        """label -> (board, col, row); ValueError naming what is wrong."""
        text = label.strip()
        board = ""
        if self.board_ids is not None:
            found = next((b for b in sorted(self.board_ids, key=len, reverse=True) if text.startswith(b)), None)
            if found is None:
                raise ValueError(f"hex {label!r}: does not start with a known board id ({', '.join(self.board_ids)})")
            board = found
        digits = text[len(board):]
        n = 2 * self.digits
        if len(digits) != n or not digits.isdigit():
            raise ValueError(
                f"hex {label!r}: expected {n} digits ({self.digits} column + {self.digits} row), got {digits!r}"
            )
        col = int(digits[: self.digits]) - self.first
        row = int(digits[self.digits:]) - self.first
        self._check(board, col, row, label)
        return (board, col, row)
