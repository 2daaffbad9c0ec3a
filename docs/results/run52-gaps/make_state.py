#!/usr/bin/env python3
# make_state.py OUT N: a vkboids state file (.npy, float32, shape (N, 6)) with N boids uniform in
# x and y over [-100, 100) but z only in [-100, 0): the upper half of the default domain is empty,
# so the sorted keys end with one long run of empty cells (run 52). Velocities uniform in [-1, 1).
import random, struct, sys
out, n = sys.argv[1], int(float(sys.argv[2]))
rng = random.Random(52)
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, 6), }" % n
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    for _ in range(n):
        f.write(struct.pack("<6f", rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-100, 0),
                            rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)))
