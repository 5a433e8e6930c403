"""Server-rendered SVG charts (no JavaScript, no CDN).

Pure: takes plain values, returns SVG text. :func:`places_series` turns a
``{round: {player: place}}`` table (what
:func:`league.standings.places_by_round` gives) into one :class:`Series` per
player; :func:`places_chart` draws them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from html import escape
from typing import Hashable, Mapping

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
           "#8c6d31", "#843c39", "#7b4173", "#3182bd"]
DASHES = ["", "6 3", "2 3"]   # after the palette runs out, lines are dashed
LEGEND_ROW = 18               # px per legend line
TIE_SPREAD = 3                # px between lines sharing a place in a round


@dataclass(frozen=True)
class Series:
    """One line of the chart: a label and its ``(round, place)`` points."""

    label: str
    points: list[tuple[int, int]]   # (round, place)

    @property
    def final(self) -> tuple[int, int]:
        """The last ``(round, place)`` point."""
        return max(self.points)


def places_series(places: Mapping[int, Mapping[Hashable, int]],
                  labels: Mapping[Hashable, str], *,
                  players=None) -> list[Series]:
    """One :class:`Series` per player from ``{round: {player: place}}``,
    ordered by the final place (then label).

    :param labels: player -> the label shown (players without one are left
        out).
    :param players: only these players (``None``: everyone ranked).
    :raises ValueError: a place below 1 or a round number below 1.
    """
    points: dict[Hashable, list[tuple[int, int]]] = defaultdict(list)
    for rnd in sorted(places):
        if rnd < 1:
            raise ValueError(f"round {rnd!r}: round numbers start at 1")
        for player, place in places[rnd].items():
            if place < 1:
                raise ValueError(f"round {rnd}: place {place!r} of {player!r} is below 1")
            if (players is None or player in players) and player in labels:
                points[player].append((rnd, place))
    series = [Series(labels[p], pts) for p, pts in points.items() if pts]
    return sorted(series, key=lambda s: (s.final[1], -s.final[0], s.label))


#: the chart's words, in English; a page passes them in its reader's language
LABELS = {"empty": "no rounds played yet", "x": "round (place after it, all rounds so far)",
          "y": "place", "legend": "Final place", "round": "R%(n)s"}


def places_chart(series: list[Series], *, width: int = 640, height: int = 320,
                 title: str = "Places over rounds", labels: dict[str, str] | None = None) -> str:
    """A line chart of places (1 at the top) against rounds, as SVG text.

    ``labels`` overrides the chart's words (:data:`LABELS`: ``empty``,
    ``x``, ``y``, ``legend``, ``round`` with ``%(n)s``) for a page in
    another language.

    Each series is a ``<g class="series">`` with one polyline and one circle
    per round; the legend at the right lists the series in order of their
    final place. Lines sharing a place in a round are drawn a few pixels
    apart so none hides another. Labels are escaped; an empty ``series``
    gives a chart saying so.
    """
    words = {**LABELS, **(labels or {})}
    pad_l, pad_t, pad_b = 56, 20, 44
    label_w = max([len(s.label) for s in series] + [6]) * 7 + 50
    pad_r = min(max(label_w, 120), 260)
    height = max(height, pad_t + pad_b + LEGEND_ROW * (len(series) + 1))
    rounds = sorted({r for s in series for r, _ in s.points})
    places = [p for s in series for _, p in s.points]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="places-chart" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'font-family="sans-serif">',
           f'<title>{escape(title)}</title>']
    if not rounds:
        out.append(f'<text x="{width // 2}" y="{height // 2}" text-anchor="middle">'
                   f'{escape(words["empty"])}</text></svg>')
        return "".join(out)
    worst = max(places)
    plot_w = width - pad_l - pad_r
    plot_h = height - pad_t - pad_b

    def x(r):
        if len(rounds) == 1:
            return pad_l + plot_w / 2
        return pad_l + plot_w * rounds.index(r) / (len(rounds) - 1)

    def y(p):
        if worst == 1:
            return pad_t + plot_h / 2
        return pad_t + plot_h * (p - 1) / (worst - 1)

    # Lines sharing (round, place) are spread around the place's height.
    sharing: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, s in enumerate(series):
        for point in s.points:
            sharing[point].append(i)

    def y_of(i, point):
        group = sharing[point]
        return y(point[1]) + (group.index(i) - (len(group) - 1) / 2) * TIE_SPREAD

    for r in rounds:
        out.append(f'<line x1="{x(r):.1f}" y1="{pad_t}" x2="{x(r):.1f}" '
                   f'y2="{pad_t + plot_h}" stroke="#ddd"/>')
        out.append(f'<text x="{x(r):.1f}" y="{pad_t + plot_h + 18}" text-anchor="middle" '
                   f'font-size="12">{escape(words["round"] % {"n": r})}</text>')
    for p in sorted(set(places) | {1, worst}):
        out.append(f'<text x="{pad_l - 10}" y="{y(p) + 4:.1f}" text-anchor="end" '
                   f'font-size="12">{p}</text>')
    out.append(f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle" '
               f'font-size="12" fill="#555">{escape(words["x"])}</text>')
    out.append(f'<text x="14" y="{pad_t + plot_h / 2:.1f}" text-anchor="middle" '
               f'font-size="12" fill="#555" transform="rotate(-90 14 {pad_t + plot_h / 2:.1f})">'
               f'{escape(words["y"])}</text>')
    legend_x = width - pad_r + 16
    out.append(f'<g class="legend"><text x="{legend_x}" y="{pad_t + 4}" font-size="12" '
               f'font-weight="bold">{escape(words["legend"])}</text>')
    for i, s in enumerate(series):
        colour, dash = PALETTE[i % len(PALETTE)], DASHES[(i // len(PALETTE)) % len(DASHES)]
        ly = pad_t + 4 + LEGEND_ROW * (i + 1)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{legend_x}" y1="{ly - 4}" x2="{legend_x + 18}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="3"{dash_attr}/>'
                   f'<text x="{legend_x + 24}" y="{ly}" font-size="12">'
                   f'{s.final[1]}. {escape(s.label)}</text>')
    out.append("</g>")
    for i, s in enumerate(series):
        colour, dash = PALETTE[i % len(PALETTE)], DASHES[(i // len(PALETTE)) % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        pts = sorted(s.points)
        out.append(f'<g class="series" data-label="{escape(s.label)}">'
                   f'<title>{escape(s.label)}: places '
                   f'{", ".join(f"R{r} {p}" for r, p in pts)}</title>')
        coords = " ".join(f"{x(r):.1f},{y_of(i, (r, p)):.1f}" for r, p in pts)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash_attr} '
                   f'points="{coords}"/>')
        for r, p in pts:
            out.append(f'<circle cx="{x(r):.1f}" cy="{y_of(i, (r, p)):.1f}" r="3.5" '
                       f'fill="{colour}" data-round="{r}" data-place="{p}"/>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)
