#!/usr/bin/env python3
"""Draws the held-out loss of `quasar train fit --curve` files as one SVG, with the
hand-written evaluation's loss on the same positions as a dashed line for each.

    experiments/plot-curves.py OUT.svg LABEL=CURVE.csv[:HAND_LOSS] ...

Plain SVG, no plotting library: each curve is a polyline over epochs.
"""
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: plot-curves.py OUT.svg LABEL=CURVE.csv[:HAND_LOSS] ...")
    out, series = argv[1], []
    for arg in argv[2:]:
        label, _, rest = arg.partition("=")
        path, _, hand = rest.partition(":")
        rows = []
        with open(path) as f:
            next(f)
            for line in f:
                epoch, train, valid = line.strip().split(",")
                rows.append((int(epoch), float(train), float(valid)))
        series.append((label, rows, float(hand) if hand else None))
    w, h, m = 640, 360, 60
    epochs = max(r[0] for _, rows, _ in series for r in rows)
    values = [r[2] for _, rows, _ in series for r in rows]
    values += [hd for _, _, hd in series if hd is not None]
    lo, hi = min(values) - 0.01, max(values) + 0.01
    x = lambda e: m + (w - 2 * m) * (e - 1) / max(1, epochs - 1)
    y = lambda v: h - m + (v - lo) / (hi - lo) * -(h - 2 * m)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
        f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
        f'<text x="{w / 2}" y="{h - 20}" text-anchor="middle">epoch</text>',
        f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" text-anchor="middle">held-out loss (nats)</text>',
    ]
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        parts.append(f'<text x="{m - 5}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.3f}</text>')
    for e in range(1, epochs + 1, max(1, epochs // 6)):
        parts.append(f'<text x="{x(e):.1f}" y="{h - m + 16}" text-anchor="middle">{e}</text>')
    for i, (label, rows, hand) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        pts = " ".join(f"{x(e):.1f},{y(v):.1f}" for e, _, v in rows)
        parts.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="{pts}"/>')
        if hand is not None:
            parts.append(f'<line x1="{m}" y1="{y(hand):.1f}" x2="{w - m}" y2="{y(hand):.1f}" stroke="{c}" stroke-dasharray="6,4"/>')
        parts.append(f'<text x="{w - m - 5}" y="{m + 16 * (i + 1)}" text-anchor="end" fill="{c}">{label}</text>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main(sys.argv)
