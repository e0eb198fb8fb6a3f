"""The score-over-time chart of a past game, drawn as inline SVG on the page.

No chart library or external service: a phone at a table may have no internet, and a
few polylines are all a game's story needs. Each player's line has its own colour and
dash pattern (told apart without colour too), and the chart carries a text summary for
screen readers.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from companion.timeline import Timeline

#: Line colours, each at least 4.5:1 against the white chart, and dash patterns.
COLOURS = ("#1d3557", "#b5179e", "#2a6f4e", "#b3470b", "#6d28d9", "#0e6a7e")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
WIDTH, HEIGHT = 360, 210
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 30


def nice_top(value: int) -> int:
    """The y axis' top: `value` rounded up to 1, 2 or 5 times a power of ten."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)


def line_chart(timeline: Timeline, unit: str, key: str = "chart") -> Markup:
    """An `<svg>` with one line per player: the running total after each accepted event.
    `key` names its title and description, unique on a page with several charts."""
    top = nice_top(max((max(row) for row in timeline.totals if row), default=0))
    low = min((min(row) for row in timeline.totals if row), default=0)
    low = -nice_top(-low) if low < 0 else 0
    steps = max(timeline.steps, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / steps, 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (1 - (v - low) / (top - low)), 1)

    summary = "; ".join(f"{name} ends on {row[-1]} {unit}" for name, row in zip(timeline.names, timeline.totals) if row)
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{key}-title {key}-desc" '
             f'xmlns="http://www.w3.org/2000/svg">',
             f'<title id="{key}-title">Score over the game</title>',
             f'<desc id="{key}-desc">{escape(summary)}, after {timeline.steps} events.</desc>']
    for value in sorted({low, 0, top // 2, top}):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value)}" y2="{y(value)}"/>'
                     f'<text class="tick" x="{LEFT - 4}" y="{y(value) + 4}" text-anchor="end">{value}</text>')
    parts.append(f'<text class="tick" x="{LEFT}" y="{HEIGHT - 8}">start</text>'
                 f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">'
                 f'event {timeline.steps}</text>')
    for seat, row in enumerate(timeline.totals):
        colour, dash = COLOURS[seat % len(COLOURS)], DASHES[seat % len(DASHES)]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(row))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline class="line" data-player="{escape(timeline.names[seat])}" points="{points}" '
                     f'stroke="{colour}"{dashed}/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def legend(timeline: Timeline) -> list[dict[str, str]]:
    """Each line's player, colour and dash, for the HTML legend under the chart."""
    return [{"name": name, "colour": COLOURS[seat % len(COLOURS)], "dash": DASHES[seat % len(DASHES)]}
            for seat, name in enumerate(timeline.names)]
