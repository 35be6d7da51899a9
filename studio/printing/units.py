"""Lengths and paper sizes: parse '5/8in', '0.125in', '3mm', '1.5' (mm) into millimetres. Qt-free.

>>> length_mm("5/8in"), length_mm("3mm"), length_mm("0.125in"), length_mm("1in")
(15.875, 3.0, 3.175, 25.4)
>>> paper_mm("a4")
(210.0, 297.0)
"""
from __future__ import annotations

import re
from fractions import Fraction

MM_PER_INCH = 25.4
MM_PER_PT = MM_PER_INCH / 72.0

#: Paper sizes, portrait (width, height) in mm.
PAPERS: dict[str, tuple[float, float]] = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}

#: The standard counter sizes offered in the CLI and the preview (any length is accepted).
COUNTER_SIZES: tuple[str, ...] = ("1/2in", "9/16in", "5/8in", "3/4in", "1in")

_UNITS = {"in": MM_PER_INCH, '"': MM_PER_INCH, "mm": 1.0, "cm": 10.0, "pt": MM_PER_PT, "": 1.0}
_LENGTH = re.compile(r'^\s*(\d+(?:\.\d*)?|\.\d+)(?:\s*/\s*(\d+))?\s*(in|mm|cm|pt|")?\s*$')


class LengthError(ValueError):
    """A length or paper name that cannot be understood; the message says what is accepted."""


def length_mm(text: str | float | int) -> float:
    """Millimetres of ``text``: a number with an optional unit (in, ", mm, cm, pt; default mm).

    Fractions are allowed for any unit (``5/8in``). Raises :class:`LengthError` on anything else.
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    else:
        m = _LENGTH.match(str(text))
        if not m:
            raise LengthError(f"not a length: {text!r} (use e.g. 5/8in, 0.125in, 3mm)")
        number = Fraction(m.group(1))
        if m.group(2):
            if int(m.group(2)) == 0:
                raise LengthError(f"not a length: {text!r} (division by zero)")
            number /= int(m.group(2))
        value = round(float(number) * _UNITS[m.group(3) or ""], 6)
    if value < 0:
        raise LengthError(f"a length cannot be negative: {text!r}")
    return value


def paper_mm(name: str) -> tuple[float, float]:
    """Portrait (width, height) in mm of a named paper size."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise LengthError(f"unknown paper {name!r} (use {' or '.join(PAPERS)})") from None


def offset_mm(text: str | list | tuple) -> tuple[float, float]:
    """An (x, y) pair in mm from ``'1.5,-0.5'`` or a two-item sequence; negative values allowed.

    >>> offset_mm("1.5,-0.5"), offset_mm([0, 2])
    ((1.5, -0.5), (0.0, 2.0))
    """
    parts = text.split(",") if isinstance(text, str) else list(text)
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except (TypeError, ValueError):
        raise LengthError(f"not an offset: {text!r} (use X,Y in mm, e.g. 1.5,-0.5)") from None
    return (x, y)
