#!/usr/bin/env python3
"""A CPU model of the row walk's divergence (docs/BENCHMARKS.md, after run 65 and run 66).

Uniform random boids in [-L, L)^3 are keyed and sorted as the GPU does with slices (1 row a cell)
or quarter rows (2), and each boid's windows in the rows within reach are counted as searchRows()
takes them. For warps of 32 consecutive sorted boids it prints the steps of two candidates a warp
runs when every row is walked in lock-step (each row as long as its longest lane), when each lane
walks all its rows as one sequence (as long as the longest lane's total), and the lanes' mean.

With a fourth argument W it also walks W random warps row by row in lock-step and prints, per
warp, the distinct 128-byte lines of positions (16 bytes a boid) that each step's two loads touch,
and the candidates of the union of its lanes' windows (what a warp walking together would test).

With a fifth argument S, cells are cut into S slices along x instead of 8 (the GPU takes 8).

usage: /usr/bin/python3 tools/walk_model.py BOIDS CELLS_PER_AXIS ROWS_PER_CELL [W [S]]  (e.g. 1e6 40 1 1000)
"""
import sys

import numpy as np

n, dim, per = int(float(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
sampled = int(sys.argv[4]) if len(sys.argv) > 4 else 0
S = int(sys.argv[5]) if len(sys.argv) > 5 else 8  # slices a cell along x
L, r = 100.0, 5.0
w = 2 * L / dim
f = (np.random.default_rng(1).uniform(-L, L, (n, 3)) + L) / w  # positions in cells
cell_x = np.minimum(np.floor(f[:, 0]).astype(int), dim - 1)
row_y, row_z = np.floor(per * f[:, 1]).astype(int), np.floor(per * f[:, 2]).astype(int)
rows, slices = per * dim, S * dim
key = (row_z * rows + row_y) * slices + cell_x * S + np.minimum(np.floor((f[:, 0] - cell_x) * S), S - 1).astype(int)
order = np.argsort(key, kind="stable")
key, f, row_y, row_z = key[order], f[order], row_y[order], row_z[order]
starts = np.searchsorted(key, np.arange(rows * rows * slices + 1))
reach = r / w
span = int(np.ceil(per * reach))


def gap(x, h):
    return np.maximum(0, np.maximum(h / per - x, x - (h + 1) / per))


counts = []
for dz in range(-span, span + 1):
    for dy in range(-span, span + 1):
        hz, hy = row_z + dz, row_y + dy
        g2 = gap(f[:, 2], hz) ** 2 + gap(f[:, 1], hy) ** 2
        rho = np.sqrt(np.maximum(reach * reach - g2, 0))
        lo, hi = np.floor((f[:, 0] - rho) * S).astype(int), np.floor((f[:, 0] + rho) * S).astype(int)
        base = ((hz % rows) * rows + hy % rows) * slices
        c = np.zeros(n, dtype=np.int64)
        for shift in (-slices, 0, slices):  # a window split where it crosses the domain's face
            a, b = np.clip(lo + shift, 0, slices), np.clip(hi + 1 + shift, 0, slices)
            c += np.where(b > a, starts[base + b] - starts[base + a], 0)
        counts.append(np.where(g2 < reach * reach, c, 0))
c = np.stack(counts, 1)
m = n // 32
steps = np.ceil(c[: m * 32] / 2).reshape(m, 32, -1)
print(f"candidates a boid {c.sum(1).mean():.1f}; steps of two a warp: rows in lock-step "
      f"{steps.max(1).sum(1).mean():.1f}, each lane's rows as one sequence {steps.sum(2).max(1).mean():.1f}, "
      f"lanes' mean {steps.sum(2).mean():.1f}")

if sampled:
    # Rows are taken by absolute index, each lane's window clipped at the domain's faces (the
    # split windows of boids near a face are left out: a small effect on the means).
    lines = union = walked = 0
    for warp in np.random.default_rng(2).choice(m, sampled, replace=False):
        fl = f[warp * 32:warp * 32 + 32]
        for hz in range(int(np.floor(per * (fl[:, 2].min() - reach))), int(np.floor(per * (fl[:, 2].max() + reach))) + 1):
            for hy in range(int(np.floor(per * (fl[:, 1].min() - reach))), int(np.floor(per * (fl[:, 1].max() + reach))) + 1):
                g2 = gap(fl[:, 2], hz) ** 2 + gap(fl[:, 1], hy) ** 2
                need = g2 < reach * reach
                if not need.any():
                    continue
                rho = np.sqrt(np.maximum(reach * reach - g2, 0))
                a = np.clip(np.floor((fl[:, 0] - rho) * S).astype(int), 0, slices)
                b = np.clip(np.floor((fl[:, 0] + rho) * S).astype(int) + 1, 0, slices)
                base = ((hz % rows) * rows + hy % rows) * slices
                s, e = np.where(need, starts[base + a], 0), np.where(need, starts[base + b], 0)
                for t in range(int(np.ceil((e - s).max() / 2))):
                    k = np.concatenate([s + 2 * t, s + 2 * t + 1])
                    k = k[k < np.concatenate([e, e])]
                    lines += len(np.unique(k // 8))
                    walked += 1
                union += e[need].max() - s[need].min()
    print(f"{sampled} warps: steps of two in lock-step {walked / sampled:.1f}, distinct position lines "
          f"{lines / sampled:.1f} ({lines / walked:.2f} a step), union of the lanes' windows "
          f"{union / sampled:.1f} candidates")
