"""``--report out.html``: a self-contained HTML balance report (inline SVG charts, no scripts, no external
files), from the JSON form of a :class:`~studio.sim.report.BalanceReport` (``report.to_json()``).

Sections: summary table (wins, win rate with 95% interval, VP, losses per side, bots per side), stopping rule,
charts (win rate with intervals, game decided on turn, VP distribution per side, losses by unit type, losses by
range band, kills by weapon), placeholder tables used, environment rules, changes for the run. Every chart is
labelled (title, axis titles, a label per bar group, legend).
"""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from .charts import BarChart, to_svg


def report_charts(d: dict[str, Any]) -> list[BarChart]:
    """The charts of a balance report's JSON form, in reading order."""
    sides = list(d["win_rate"])
    charts = [BarChart("Win rate per side (bars: 95% interval)", sides,
                       {"win rate %": [100 * d["win_rate"][s]["p"] for s in sides]}, "side", "games won (%)",
                       {"win rate %": [(100 * d["win_rate"][s]["ci95"][0], 100 * d["win_rate"][s]["ci95"][1])
                                       for s in sides]})]
    turns = list(d.get("decided_turn", {}))
    charts.append(BarChart("Turn on which the game was decided", turns,
                           {"games": [d["decided_turn"][t] for t in turns]}, "turn", "games"))
    vp = d.get("vp_distribution", {})
    values = sorted({float(v) for dist in vp.values() for v in dist})
    labels = [f"{v:g}" for v in values]
    charts.append(BarChart("Victory points per game", labels,
                           {s: [vp[s].get(v, 0) for v in labels] for s in vp}, "victory points", "games"))
    types = d.get("losses_by_type", {})
    for side, counts in types.items():
        if counts:
            games = max(1, d["games"])
            charts.append(BarChart(f"{side} losses by unit type (mean per game)", list(counts),
                                   {side: [c / games for c in counts.values()]}, "unit type", "units lost per game"))
    bands = d.get("losses_by_range", {})
    names = list(next(iter(bands.values()), {}))
    if any(c for b in bands.values() for c in b.values()):
        charts.append(BarChart("Losses by range band (all games)", names,
                               {s: [b.get(n, 0) for n in names] for s, b in bands.items()},
                               f"range from the firer ({d.get('range_unit', 'hexes')})", "units lost"))
    weapons = dict(list(d.get("kills_by_weapon", {}).items())[:12])
    if weapons:
        charts.append(BarChart("Kills by weapon (all games)", list(weapons), {"kills": list(weapons.values())},
                               "weapon (firer type and ammunition)", "units killed"))
    return charts


def _table(head: list[str], rows: list[list[Any]]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>")
    return "\n".join(out) + "</table>"


def _summary(d: dict[str, Any]) -> str:
    rows = []
    for s in d["win_rate"]:
        w = d["win_rate"][s]
        rows.append([s, d.get("bots_by_side", {}).get(s, ""), d["wins"][s], f"{100 * w['p']:.1f}%",
                     f"{100 * w['ci95'][0]:.1f}–{100 * w['ci95'][1]:.1f}%", f"{d['vp'][s]['mean']:.2f}",
                     f"{d['losses'][s]:.2f}"])
    return _table(["Side", "Bot", "Wins", "Win rate", "95% interval", "VP (mean)", "Losses (mean)"], rows)


def _notes(d: dict[str, Any]) -> list[str]:
    out = []
    stop = d.get("stopping")
    if stop:
        out.append(f"<p>Precision ±{100 * stop['precision']:.1f} points "
                   f"{'reached' if stop.get('reached') else 'not reached'} after {stop['games']} games "
                   f"(at most {stop['max_games']}). Intervals: {escape(stop['rule'])}.</p>")
    if d.get("cancelled"):
        out.append(f"<p><b>Cancelled</b>: {d['games']} of {d.get('games_requested')} games finished; all of "
                   f"them are reported.</p>")
    for title, key in (("Changed for this run", "changes"), ("Placeholder tables used", "placeholder_tables"),
                       ("Environment rules applied", "environment_rules")):
        if d.get(key):
            out.append(f"<h2>{title}</h2><ul>" + "".join(f"<li>{escape(str(x))}</li>" for x in d[key]) + "</ul>")
    if d.get("casualty_source") == "derived":
        out.append("<p class=note>Losses by type and range and kills by weapon are derived from the actions "
                   "played (the unit an action names on the side that lost a unit; range = hex distance "
                   "to the firer); what cannot be derived is shown as “unknown”.</p>")
    return out


STYLE = """body{font-family:sans-serif;max-width:900px;margin:1em auto;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}
th{background:#eee}td:first-child{text-align:left}.note{color:#555;font-size:90%}figure{margin:1em 0}"""


def report_html(d: dict[str, Any], title: str | None = None) -> str:
    title = title or f"Balance report: {d['scenario']}"
    head = (f"<p>{d['games']} games of <b>{escape(d['scenario'])}</b> ({escape(d['ruleset'])} "
            f"{escape(str(d['ruleset_version']))}), seed {d['seed']}; draws {d['draws']}; turns mean "
            f"{d['turns']['mean']:.2f}.</p>")
    charts = "\n".join(f"<figure>{to_svg(c)}</figure>" for c in report_charts(d))
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n<h1>{escape(title)}</h1>\n{head}\n{_summary(d)}\n"
            + "\n".join(_notes(d)) + f"\n<h2>Charts</h2>\n{charts}\n</body></html>\n")


def write_html(path: str | Path, html: str) -> Path:
    """Write ``html`` atomically (never through a symlink)."""
    from studio.model.safeio import write_atomic

    return write_atomic(Path(path), html)


def comparison_charts(data: dict[str, Any]) -> list[BarChart]:
    """Charts of a comparison (:func:`studio.sim.compare.compare_reports`): win rate with intervals and mean
    losses per side, one bar per variant."""
    names = data["variants"]
    runs = data["runs"]
    sides = list(runs[names[0]]["win_rate"])
    wins = BarChart("Win rate per side and variant (bars: 95% interval)", sides,
                    {n: [100 * runs[n]["win_rate"][s]["p"] for s in sides] for n in names}, "side",
                    "games won (%)", {n: [(100 * runs[n]["win_rate"][s]["ci95"][0],
                                           100 * runs[n]["win_rate"][s]["ci95"][1]) for s in sides] for n in names})
    losses = BarChart("Units lost per game, by side and variant", sides,
                      {n: [runs[n]["losses"][s] for s in sides] for n in names}, "side", "units lost per game")
    return [wins, losses]


def comparison_html(data: dict[str, Any]) -> str:
    """A self-contained HTML page of a variant comparison: the runs side by side, the paired differences with
    their intervals and the charts."""
    names = data["variants"]
    runs = data["runs"]
    sides = list(runs[names[0]]["win_rate"])
    rows = []
    for s in sides:
        rows.append([f"{s} wins"] + [f"{100 * runs[n]['win_rate'][s]['p']:.1f}% ({100 * runs[n]['win_rate'][s]['ci95'][0]:.0f}"
                                     f"–{100 * runs[n]['win_rate'][s]['ci95'][1]:.0f}%)" for n in names])
    rows.append(["turns (mean)"] + [f"{runs[n]['turns']['mean']:.2f}" for n in names])
    for s in sides:
        rows.append([f"VP {s} (mean)"] + [f"{runs[n]['vp'][s]['mean']:.2f}" for n in names])
        rows.append([f"losses {s} (mean)"] + [f"{runs[n]['losses'][s]:.2f}" for n in names])
    parts = [_table(["Measure", *names], rows)]
    for name, diffs in data["differences"].items():
        drows = [[k, f"{v['mean']:+.3f}", f"{v['ci95'][0]:+.3f} to {v['ci95'][1]:+.3f}"]
                 for k, v in diffs.items() if k != "losses by type"]
        parts.append(f"<h2>{escape(name)} minus {escape(names[0])} (paired by seed)</h2>"
                     + _table(["Measure", "Mean difference", "95% interval"], drows))
    for name in names:
        if runs[name].get("changes"):
            parts.append(f"<h2>Changes in {escape(name)}</h2><ul>"
                         + "".join(f"<li>{escape(c)}</li>" for c in runs[name]["changes"]) + "</ul>")
    charts = "\n".join(f"<figure>{to_svg(c)}</figure>" for c in comparison_charts(data))
    title = f"Variants compared: {data['scenario']}"
    games = runs[names[0]]["games"]
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n<h1>{escape(title)}</h1>\n<p>{games} games per variant, the same "
            f"seeds (master seed {data['seed']}).</p>\n" + "\n".join(parts) + f"\n<h2>Charts</h2>\n{charts}\n"
            "</body></html>\n")
