"""Labelled charts as self-contained SVG text (no dependency): grouped bars and x-y plots with error bars.

Every chart has a title, both axis titles, a label under every bar group (or tick values on a numeric axis),
value ticks on the value axis and a legend naming each series. PNG output of the same charts needs
matplotlib (the ``plots`` extra): :func:`save_chart` writes ``.svg`` always, ``.png`` through matplotlib.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

COLOURS = ["#1f5fd6", "#d62828", "#2a9d3a", "#9b30c8", "#e08a00", "#555555"]
W, H = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 46, 50
#: extra height under the plot when bar labels are written slanted
SLANT = 70


@dataclass
class BarChart:
    title: str
    categories: list[str]
    series: dict[str, list[float]]
    xlabel: str
    ylabel: str
    #: optional (low, high) per value, same shape as ``series`` (drawn as error bars)
    errors: dict[str, list[tuple[float, float]]] = field(default_factory=dict)


@dataclass
class XYChart:
    title: str
    xlabel: str
    ylabel: str
    #: name -> [(x, y, low, high)] points with vertical error bars
    points: dict[str, list[tuple[float, float, float, float]]] = field(default_factory=dict)
    #: name -> [(x, y)] polylines (a fitted curve)
    lines: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    #: vertical markers: (x, label) and an optional shaded band (x low, x high)
    marks: list[tuple[float, str]] = field(default_factory=list)
    band: tuple[float, float] | None = None
    y_range: tuple[float, float] | None = None


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering ``lo..hi``.

    >>> nice_ticks(0, 10)
    [0, 2, 4, 6, 8, 10]
    """
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, t = [], start
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    return ticks


def _fmt(v: float) -> str:
    return f"{v:g}" if abs(v) >= 0.01 or v == 0 else f"{v:.2g}"


def _frame(title: str, xlabel: str, ylabel: str, extra: int = 0) -> list[str]:
    """The SVG head, title, axis titles; the plot spans TOP..H - BOTTOM (``extra`` px more below it)."""
    h = H + extra
    mid = (TOP + H - BOTTOM) / 2
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" '
            f'font-family="sans-serif" font-size="11" role="img" aria-label="{escape(title)}">',
            f'<rect width="{W}" height="{h}" fill="#ffffff"/>',
            f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>',
            f'<text x="{(LEFT + W - RIGHT) / 2}" y="{h - 8}" text-anchor="middle">{escape(xlabel)}</text>',
            f'<text x="14" y="{mid}" text-anchor="middle" transform="rotate(-90 14 {mid})">{escape(ylabel)}</text>']


def _y_axis(out: list[str], lo: float, hi: float) -> callable:
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    bottom, top = H - BOTTOM, TOP

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - lo) / ((hi - lo) or 1)

    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y(t) + 4:.1f}" text-anchor="end">{_fmt(t)}</text>')
    out.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{top}" y2="{bottom}" stroke="#333"/>')
    out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{bottom}" y2="{bottom}" stroke="#333"/>')
    return y


def _legend(out: list[str], names: list[str]) -> None:
    """One swatch and name per series, in a row between the title and the plot."""
    x = LEFT + 8
    for i, name in enumerate(names):
        out.append(f'<rect x="{x}" y="{TOP - 20}" width="10" height="10" fill="{COLOURS[i % len(COLOURS)]}"/>')
        out.append(f'<text x="{x + 14}" y="{TOP - 11}">{escape(name)}</text>')
        x += 24 + 7 * len(name)


def bar_svg(chart: BarChart) -> str:
    """Grouped vertical bars, one group per category, a label under each group (slanted when long)."""
    n = max(1, len(chart.categories))
    group = (W - LEFT - RIGHT) / n
    rotate = n > 8 or max((len(c) for c in chart.categories), default=0) * 6 > group
    out = _frame(chart.title, chart.xlabel, chart.ylabel, SLANT if rotate else 0)
    values = [v for vs in chart.series.values() for v in vs] + \
        [hi for es in chart.errors.values() for _, hi in es] + [0.0]
    y = _y_axis(out, 0.0, max(values) or 1.0)
    width = group * 0.8 / max(1, len(chart.series))
    for c, cat in enumerate(chart.categories):
        gx = LEFT + c * group + group * 0.1
        for s, (name, vs) in enumerate(chart.series.items()):
            v = vs[c] if c < len(vs) else 0
            x = gx + s * width
            out.append(f'<rect x="{x:.1f}" y="{y(v):.1f}" width="{width * 0.92:.1f}" height="{y(0) - y(v):.1f}" '
                       f'fill="{COLOURS[s % len(COLOURS)]}"><title>{escape(name)} {escape(cat)}: {_fmt(v)}</title>'
                       f'</rect>')
            err = chart.errors.get(name)
            if err and c < len(err):
                lo, hi = err[c]
                cx = x + width * 0.46
                out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" stroke="#000"/>')
        lx, ly = LEFT + (c + 0.5) * group, H - BOTTOM + 14
        if rotate:
            out.append(f'<text x="{lx:.1f}" y="{ly}" text-anchor="end" transform="rotate(-35 {lx:.1f} {ly})">'
                       f'{escape(cat[:22])}</text>')
        else:
            out.append(f'<text x="{lx:.1f}" y="{ly}" text-anchor="middle">{escape(cat)}</text>')
    _legend(out, list(chart.series))
    out.append("</svg>")
    return "\n".join(out)


def xy_svg(chart: XYChart) -> str:
    """Points with vertical error bars, polylines, vertical marks and a shaded x band."""
    out = _frame(chart.title, chart.xlabel, chart.ylabel)
    xs = [p[0] for ps in chart.points.values() for p in ps] + [p[0] for ps in chart.lines.values() for p in ps]
    xlo, xhi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    ylo, yhi = chart.y_range or (0.0, 1.0)
    y = _y_axis(out, ylo, yhi)

    def x(v: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * (v - xlo) / ((xhi - xlo) or 1)

    for t in nice_ticks(xlo, xhi):
        if xlo - 1e-9 <= t <= xhi + 1e-9:
            out.append(f'<text x="{x(t):.1f}" y="{H - BOTTOM + 14}" text-anchor="middle">{_fmt(t)}</text>')
    if chart.band:
        a, b = (max(xlo, min(xhi, v)) for v in chart.band)
        out.append(f'<rect x="{x(a):.1f}" y="{TOP}" width="{max(1.0, x(b) - x(a)):.1f}" height="{H - BOTTOM - TOP}" '
                   f'fill="#f4d35e" opacity="0.35"/>')
    for xv, label in chart.marks:
        out.append(f'<line x1="{x(xv):.1f}" x2="{x(xv):.1f}" y1="{TOP}" y2="{H - BOTTOM}" stroke="#e08a00" '
                   f'stroke-dasharray="4 3"/><text x="{x(xv) + 3:.1f}" y="{TOP + 12}">{escape(label)}</text>')
    names = list(chart.points) + [n for n in chart.lines if n not in chart.points]
    for name, pts in chart.lines.items():
        colour = COLOURS[names.index(name) % len(COLOURS)]
        path = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for name, pts in chart.points.items():
        colour = COLOURS[names.index(name) % len(COLOURS)]
        for a, b, lo, hi in pts:
            out.append(f'<line x1="{x(a):.1f}" x2="{x(a):.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" stroke="#000"/>')
            out.append(f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="4" fill="{colour}"><title>{_fmt(a)}: '
                       f'{_fmt(b)} ({_fmt(lo)}-{_fmt(hi)})</title></circle>')
    _legend(out, names)
    out.append("</svg>")
    return "\n".join(out)


def to_svg(chart: BarChart | XYChart) -> str:
    return bar_svg(chart) if isinstance(chart, BarChart) else xy_svg(chart)


def save_chart(chart: BarChart | XYChart, path: str | Path) -> Path:
    """Write ``chart`` as SVG (``.svg``) or PNG (``.png``, needs matplotlib: the ``plots`` extra), atomically.
    ValueError names the problem (unknown suffix, matplotlib missing)."""
    from studio.model.safeio import write_atomic

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        return write_atomic(path, to_svg(chart) + "\n")
    if suffix != ".png":
        raise ValueError(f"{path.name}: a plot is written as .svg or .png")
    return write_atomic(path, png_bytes(chart))


def png_bytes(chart: BarChart | XYChart) -> bytes:
    """The chart as PNG through matplotlib (ValueError when it is not installed)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ValueError("PNG plots need matplotlib (pip install -e '.[plots]'); write .svg instead") from exc
    import io

    fig, ax = plt.subplots(figsize=(6.4, 3.2), dpi=100)
    try:
        _draw_matplotlib(ax, chart)
        ax.set_title(chart.title)
        ax.set_xlabel(chart.xlabel)
        ax.set_ylabel(chart.ylabel)
        ax.legend(loc="best", fontsize=8)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()
    finally:
        plt.close(fig)


def _draw_matplotlib(ax, chart) -> None:
    if isinstance(chart, BarChart):
        n = max(1, len(chart.series))
        for s, (name, vs) in enumerate(chart.series.items()):
            xs = [c + (s - (n - 1) / 2) * 0.8 / n for c in range(len(vs))]
            ax.bar(xs, vs, width=0.8 / n, label=name, color=COLOURS[s % len(COLOURS)])
        ax.set_xticks(range(len(chart.categories)), chart.categories, rotation=30 if len(chart.categories) > 6 else 0)
        return
    names = list(chart.points) + [n for n in chart.lines if n not in chart.points]
    if chart.band:
        ax.axvspan(*chart.band, color="#f4d35e", alpha=0.35)
    for xv, label in chart.marks:
        ax.axvline(xv, color="#e08a00", linestyle="--", label=label)
    for name, pts in chart.lines.items():
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=COLOURS[names.index(name) % len(COLOURS)],
                label=name)
    for name, pts in chart.points.items():
        ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                    yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]], fmt="o",
                    color=COLOURS[names.index(name) % len(COLOURS)], label=name)
    if chart.y_range:
        ax.set_ylim(*chart.y_range)
