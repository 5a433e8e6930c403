"""The analysis chart: each player's series over a game (tiles left,
distance to win or points in hand after each of their turns) as
server-rendered SVG, drawn as ``league/charts.py`` draws standings (no
JavaScript, no CDN). Pure: plain values in, SVG text out."""

from __future__ import annotations

from html import escape

from django.utils.translation import gettext as _

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def series_label(kind: str) -> str:
    """The y axis of a series kind (``engine.analysis.SERIES_KINDS``), in the
    reader's language."""
    return {"tiles_left": _("tiles left"), "distance_to_win": _("distance to win"),
            "points_in_hand": _("points in hand")}.get(kind, kind.replace("_", " "))


def series_chart(series: list[list[tuple[int, int]]], labels: list[str], kind: str, *, last: int,
                 width: int = 640, height: int = 260) -> str:
    """A line per player of ``(event version, value)`` points against the
    game's events (1 to ``last``), 0 at the bottom; each line a
    ``<g class="series" data-label=...>`` with a circle per turn carrying
    ``data-version`` and ``data-value``. Labels are escaped."""
    pad_l, pad_r, pad_t, pad_b = 48, 150, 16, 40
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    values = [v for s in series for _, v in s]
    top = max(values + [1])
    axis = series_label(kind)
    across = _("event")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="analysis-chart" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif">',
           f"<title>{escape(axis)}</title>"]

    def x(v: int) -> float:
        return pad_l + plot_w * (v - 1) / max(1, last - 1)

    def y(v: int) -> float:
        return pad_t + plot_h * (1 - v / top)

    for v in sorted({0, top, top // 2}):
        out.append(f'<line x1="{pad_l}" y1="{y(v):.1f}" x2="{pad_l + plot_w}" y2="{y(v):.1f}" stroke="#ddd"/>'
                   f'<text x="{pad_l - 8}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="12">{v}</text>')
    out.append(f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle" font-size="12" '
               f'fill="#555">{escape(across)}</text>')
    out.append(f'<text x="12" y="{pad_t + plot_h / 2:.1f}" text-anchor="middle" font-size="12" fill="#555" '
               f'transform="rotate(-90 12 {pad_t + plot_h / 2:.1f})">{escape(axis)}</text>')
    for i, (points, label) in enumerate(zip(series, labels)):
        colour = PALETTE[i % len(PALETTE)]
        ly = pad_t + 18 * (i + 1)
        lx = width - pad_r + 14
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 18}" y2="{ly - 4}" stroke="{colour}" '
                   f'stroke-width="3"/><text x="{lx + 24}" y="{ly}" font-size="12">{escape(label)}</text>')
        if not points:
            continue
        out.append(f'<g class="series" data-label="{escape(label)}"><title>{escape(label)}</title>')
        coords = " ".join(f"{x(v):.1f},{y(val):.1f}" for v, val in points)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coords}"/>')
        for v, val in points:
            out.append(f'<circle cx="{x(v):.1f}" cy="{y(val):.1f}" r="2.5" fill="{colour}" '
                       f'data-version="{v}" data-value="{val}"/>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)
