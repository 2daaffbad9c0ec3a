#!/usr/bin/env python3
"""A CPU model of the row walk's divergence (docs/BENCHMARKS.md, after run 65).

Uniform random boids in [-L, L)^3 are keyed and sorted as the GPU does with slices (1 row a cell)
or quarter rows (2), and each boid's windows in the rows within reach are counted as searchRows()
takes them. For warps of 32 consecutive sorted boids it prints the steps of two candidates a warp
runs when every row is walked in lock-step (each row as long as its longest lane), when each lane
walks all its rows as one sequence (as long as the longest lane's total), and the lanes' mean.

usage: /usr/bin/python3 tools/walk_model.py BOIDS CELLS_PER_AXIS ROWS_PER_CELL  (e.g. 1e6 40 2)
"""
import sys

import numpy as np

n, dim, per = int(float(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
L, r = 100.0, 5.0
w = 2 * L / dim
f = (np.random.default_rng(1).uniform(-L, L, (n, 3)) + L) / w  # positions in cells
cell_x = np.minimum(np.floor(f[:, 0]).astype(int), dim - 1)
row_y, row_z = np.floor(per * f[:, 1]).astype(int), np.floor(per * f[:, 2]).astype(int)
rows, slices = per * dim, 8 * dim
key = (row_z * rows + row_y) * slices + cell_x * 8 + np.minimum(np.floor((f[:, 0] - cell_x) * 8), 7).astype(int)
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
        lo, hi = np.floor((f[:, 0] - rho) * 8).astype(int), np.floor((f[:, 0] + rho) * 8).astype(int)
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
