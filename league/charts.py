"""Server-rendered SVG charts (no JavaScript, no CDN)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


@dataclass(frozen=True)
class Series:
    label: str
    points: list[tuple[int, int]]   # (round, place)


def places_chart(series: list[Series], *, width: int = 640, height: int = 320,
                 title: str = "Places over rounds") -> str:
    """A line chart of places (1 at the top) against rounds, as SVG text.

    Labels are escaped; an empty ``series`` gives a chart saying so.
    """
    pad_l, pad_r, pad_t, pad_b = 40, 150, 30, 30
    rounds = sorted({r for s in series for r, _ in s.points})
    places = [p for s in series for _, p in s.points]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="places-chart" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
           f'<title>{escape(title)}</title>']
    if not rounds:
        out.append(f'<text x="{width // 2}" y="{height // 2}" text-anchor="middle">'
                   'no rounds played yet</text></svg>')
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

    for r in rounds:
        out.append(f'<line x1="{x(r):.1f}" y1="{pad_t}" x2="{x(r):.1f}" '
                   f'y2="{pad_t + plot_h}" stroke="#ddd"/>')
        out.append(f'<text x="{x(r):.1f}" y="{height - 8}" text-anchor="middle" '
                   f'font-size="12">R{r}</text>')
    for p in sorted(set(places) | {1, worst}):
        out.append(f'<text x="{pad_l - 8}" y="{y(p) + 4:.1f}" text-anchor="end" '
                   f'font-size="12">{p}</text>')
    for i, s in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        pts = " ".join(f"{x(r):.1f},{y(p):.1f}" for r, p in sorted(s.points))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                   f'points="{pts}"><title>{escape(s.label)}</title></polyline>')
        for r, p in s.points:
            out.append(f'<circle cx="{x(r):.1f}" cy="{y(p):.1f}" r="3" fill="{colour}"/>')
        last_r, last_p = sorted(s.points)[-1]
        out.append(f'<text x="{x(last_r) + 8:.1f}" y="{y(last_p) + 4 + (i % 3) * 0:.1f}" '
                   f'font-size="12" fill="{colour}">{escape(s.label)}</text>')
    out.append("</svg>")
    return "".join(out)
