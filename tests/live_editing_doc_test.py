#!/usr/bin/env python3
"""docs/LIVE_EDITING.md's field of view, made as the page tells a reader, does what the page says.

    live_editing_doc_test.py VKBOIDS SOURCE_DIR

The page's edits are sentences of one form, each followed by a ```glsl block:

    In `FILE` (and `FILE`), after the line `LINE` add:      the block goes after that line
    In `FILE` (and `FILE`), replace the line `LINE` with:   the block takes that line's place

LINE must be exactly one line of FILE (leading and trailing spaces aside), and every glsl block of
the page must follow such a sentence: a block or a line that goes stale fails here. The edits are made
on a copy of SOURCE_DIR/shaders, and `vkboids step --shaders COPY` then runs in every mode:

- Boids placed by hand: a boid ignores a neighbour straight behind it and one 150 degrees off its
  heading (its step is exactly its step alone), sees one at 120 or 90 degrees, and the boid behind
  reacts to the one ahead of it; the built-in passes, which see all around, do react to the one behind.
- A dense random flock: one step matches a CPU reference of the rules with the field of view (plain
  Python, the coherent mode's packed velocities too), and the built-in passes' step matches the same
  reference without it; most boids of the sample tell the two apart.
- 2000 boids, 3 steps from the same seed: the edited passes' state is not the built-in passes'.
- The page's mistake (a misspelled name) fails with the errors the page quotes, FILE:LINE and all,
  and so does the page's warning about saving rules.glsl before the passes.
- `bench --shaders COPY` writes `source` and the sources' hash in its CSV and JSON.
"""

import ast
import csv
import json
import math
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

VKBOIDS = sys.argv[1] if len(sys.argv) == 3 else sys.exit(__doc__)
SOURCE = Path(sys.argv[2])
PAGE = SOURCE / "docs" / "LIVE_EDITING.md"
MODES = ("naive", "scattered", "coherent")
# The lab's defaults, which the page's runs use.
R1, R2, R3, S1, S2, S3, MAX_SPEED, DT = 5.0, 3.0, 5.0, 0.01, 0.1, 0.1, 1.0, 0.2
COS2_VIEW = 0.5  # cos^2 135 degrees: the page's field of view
TOLERANCE = 1e-4  # float32 sums of tens of terms are off by about 1e-6; the field of view moves by 1e-2

INSTRUCTION = re.compile(r"In ((?:`[^`]+`(?: and |, )?)+), (after|replace) the line `([^`]+)` (add|with):\s*$")
GLSL_BLOCK = re.compile(r"```glsl\n(.*?)```", re.S)


def fail(message):
    sys.exit(f"live_editing_doc_test.py: {message}")


class PageError(Exception):
    """The page's edits no longer apply: a block follows no instruction, or a line is not in its file."""


def page_edits(text):
    """[(files, 'after' or 'replace', line, block)] in the page's order."""
    edits = []
    for block in GLSL_BLOCK.finditer(text):
        before = text[: block.start()].rstrip("\n")
        sentence = before[before.rfind("\n\n") + 2:].replace("\n", " ")
        m = INSTRUCTION.search(sentence)
        if not m or (m.group(2) == "after") != (m.group(4) == "add"):
            raise PageError("a glsl block follows no 'In `FILE`, after/replace the line `...`' sentence:\n"
                            + block.group(1))
        files = re.findall(r"`([^`]+)`", m.group(1))
        edits.append((files, m.group(2), m.group(3), block.group(1)))
    if not edits:
        raise PageError("no glsl block")
    return edits


def apply_edits(folder, edits):
    for files, kind, anchor, block in edits:
        for name in files:
            path = folder / name
            if not path.is_file():
                raise PageError(f"{name}: no such file in shaders/")
            lines = path.read_text().splitlines(keepends=True)
            at = [i for i, line in enumerate(lines) if line.strip() == anchor.strip()]
            if len(at) != 1:
                raise PageError(f"{name}: the line `{anchor}` is there {len(at)} times, not once")
            i = at[0]
            lines[i:i + 1] = ([lines[i]] if kind == "after" else []) + [block]
            path.write_text("".join(lines))


def check_stale_lines_fail(text, edits):
    """A line that no longer matches, and a block that follows no sentence, fail: the test has teeth."""
    files, kind, anchor, block = edits[0]
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "shaders"
        shutil.copytree(SOURCE / "shaders", copy)
        try:
            apply_edits(copy, [(files, kind, anchor + " // changed", block)])
            fail("a line the page names that is not in the file went unnoticed")
        except PageError:
            pass
    try:
        page_edits(text + "\nAnd then:\n\n```glsl\nvoid stray() {}\n```\n")
        fail("a glsl block after no instruction went unnoticed")
    except PageError:
        pass


# State files (docs/CLI.md, State files): .npy, '<f4', shape (N, 6), rows px py pz vx vy vz.
def write_state(path, rows):
    header = f"{{'descr': '<f4', 'fortran_order': False, 'shape': ({len(rows)}, 6), }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        for row in rows:
            f.write(struct.pack("<6f", *row))


def read_state(path):
    data = Path(path).read_bytes()
    if data[:6] != b"\x93NUMPY":
        fail(f"{path}: not an .npy file")
    size_bytes = 2 if data[6] == 1 else 4
    length = int.from_bytes(data[8:8 + size_bytes], "little")
    start = 8 + size_bytes
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    if header["descr"] != "<f4" or header["fortran_order"] or header["shape"][1] != 6:
        fail(f"{path}: unexpected header {header}")
    values = struct.unpack(f"<{header['shape'][0] * 6}f", data[start + length:])
    return [list(values[i:i + 6]) for i in range(0, len(values), 6)]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def wrap(x, L):
    return x - 2 * L * math.floor((x + L) / (2 * L))


def packed(v):
    """A velocity component as the coherent pass sums it: whole packing steps (common.glsl's packVelocity)."""
    scale = f32(511.0 / MAX_SPEED)
    return max(-511, min(511, round(f32(f32(v) * scale)))) * f32(MAX_SPEED / 511.0)


def reference(state, i, L, view, pack):
    """Boid i's next row, and whether float rounding could decide one of its neighbours (ambiguous)."""
    p, v = state[i][:3], state[i][3:]
    coh, sep, ali = [0.0] * 3, [0.0] * 3, [0.0] * 3
    n_coh = n_ali = 0
    ambiguous = False
    for j, other in enumerate(state):
        if j == i:
            continue
        d = [wrap(other[a] - p[a], L) for a in range(3)]
        dist2 = sum(x * x for x in d)
        if dist2 >= 36:
            continue
        ambiguous |= any(abs(dist2 - r * r) < 1e-4 * r * r for r in (R1, R2, R3))
        if view:
            ahead, hh = sum(d[a] * v[a] for a in range(3)), sum(x * x for x in v)
            margin = ahead * ahead - COS2_VIEW * dist2 * hh
            ambiguous |= ahead < 0 and abs(margin) < 1e-4 * dist2 * hh
            if ahead < 0 and margin > 0:
                continue
        if dist2 < R1 * R1:
            coh = [coh[a] + d[a] for a in range(3)]
            n_coh += 1
        if dist2 < R2 * R2:
            sep = [sep[a] + d[a] for a in range(3)]
        if dist2 < R3 * R3:
            ali = [ali[a] + (packed(other[3 + a]) if pack else other[3 + a]) for a in range(3)]
            n_ali += 1
    new_v = []
    for a in range(3):
        dv = -sep[a] * S2
        if n_coh:
            dv += coh[a] / n_coh * S1
        if n_ali:
            dv += ali[a] / n_ali * S3
        new_v.append(v[a] + dv)
    speed = math.sqrt(sum(x * x for x in new_v))
    if speed > MAX_SPEED:
        new_v = [x * MAX_SPEED / speed for x in new_v]
    return [wrap(p[a] + new_v[a] * DT, L) for a in range(3)] + new_v, ambiguous


def distance(row, expected, L):
    """The largest difference of a component, positions taken as the minimum image."""
    return max([abs(wrap(row[a] - expected[a], L)) for a in range(3)]
               + [abs(row[a] - expected[a]) for a in range(3, 6)])


def turn(row, before):
    """How much a boid's velocity changed in a step: 0 for a boid that met no neighbour."""
    return max(abs(row[a] - before[a]) for a in range(3, 6))


def vkboids(*args, expect=0):
    done = subprocess.run([VKBOIDS, *map(str, args)], capture_output=True, text=True)
    if done.returncode != expect:
        fail(f"vkboids {' '.join(map(str, args))}: exit code {done.returncode}, not {expect}:\n"
             f"{done.stdout}{done.stderr}")
    return done


def step(tmp, name, state_args, mode, shaders=None):
    out = tmp / f"{name}-{mode}-{'source' if shaders else 'built-in'}.npy"
    vkboids("step", *(["--shaders", shaders, "--validation"] if shaders else []), "--mode", mode, *state_args,
            "--save-state", out, "--quiet")
    return read_state(out)


# The hand-placed scenes, 40 apart along x: a boid A flying along +x, and a neighbour B 2 away at the
# given angle from A's heading. B flies along +x too, so that when B is straight behind, A is straight
# ahead of B.
SCENE_ANGLES = (180, 150, 120, 90)
HEADING = (0.8, 0.0, 0.0)


def scene_rows(with_neighbours):
    rows = []
    for k, angle in enumerate(SCENE_ANGLES):
        a = (-60.0 + 40.0 * k, 10.0, -20.0)
        rows.append([*a, *HEADING])
        if with_neighbours:
            t = math.radians(angle)
            rows.append([a[0] + 2 * math.cos(t), a[1] + 2 * math.sin(t), a[2], *HEADING])
    return rows


def check_scenes(tmp, shaders):
    L = 100.0
    write_state(tmp / "scenes.npy", scene_rows(True))
    write_state(tmp / "alone.npy", scene_rows(False))
    start = read_state(tmp / "scenes.npy")
    for mode in MODES:
        both = step(tmp, "scenes", ["--load-state", tmp / "scenes.npy"], mode, shaders)
        alone = step(tmp, "alone", ["--load-state", tmp / "alone.npy"], mode, shaders)
        built_in = step(tmp, "scenes", ["--load-state", tmp / "scenes.npy"], mode)
        for k, angle in enumerate(SCENE_ANGLES):
            a, b = 2 * k, 2 * k + 1
            seen = angle <= 135
            if (both[a] != alone[k]) == (not seen):
                fail(f"{mode}: a neighbour {angle} degrees from a boid's heading was "
                     f"{'ignored' if seen else 'seen'}: {both[a]} beside {alone[k]} alone")
            if turn(both[a], start[a]) < 0.01 and seen:
                fail(f"{mode}: a boid did not react to a neighbour {angle} degrees off its heading")
            for i in (a, b):
                expected, _ = reference(start, i, L, True, mode == "coherent")
                if distance(both[i], expected, L) > TOLERANCE:
                    fail(f"{mode}: boid {i} of the scenes is {both[i]}, the CPU's {expected}")
            if angle == 180:
                if turn(both[b], start[b]) < 0.01:
                    fail(f"{mode}: the boid behind did not react to the one ahead of it")
                if turn(built_in[a], start[a]) < 0.01:
                    fail(f"{mode}: the built-in passes ignore the boid behind too: the scene proves nothing")
    print("scenes: behind and 150 degrees off ignored, 120 and 90 seen, the boid behind reacts, in every mode")


def check_dense_flock(tmp, shaders):
    n, L = 2000, 12.5  # about the lab's density, 0.125: some 60 boids within 5 of each
    rng = random.Random(7)
    rows = []
    for _ in range(n):
        v = [rng.uniform(-0.6, 0.6) for _ in range(3)]
        rows.append([rng.uniform(-L, L) for _ in range(3)] + v)
    write_state(tmp / "dense.npy", rows)
    start = read_state(tmp / "dense.npy")
    sample = range(0, n, 20)
    args = ["--load-state", tmp / "dense.npy", "--domain-half", L]
    for mode in MODES:
        pack = mode == "coherent"
        for folder, view in ((shaders, True), (None, False)):
            out = step(tmp, "dense", args, mode, folder)
            compared = differing = 0
            for i in sample:
                expected, ambiguous = reference(start, i, L, view, pack)
                other, _ = reference(start, i, L, not view, pack)
                if ambiguous:
                    continue
                compared += 1
                differing += distance(expected, other, L) > 10 * TOLERANCE
                if distance(out[i], expected, L) > TOLERANCE:
                    fail(f"{mode}, {'edited' if view else 'built-in'} passes: boid {i} is {out[i]}, "
                         f"the CPU's {'with' if view else 'without'} the field of view {expected}")
            if compared < len(sample) * 0.9 or differing < compared / 2:
                fail(f"{mode}: only {compared} boids compared, {differing} of them changed by the field of view")
        print(f"dense flock, {mode}: {compared} boids match the CPU with the field of view (edited) and "
              f"without (built-in); {differing} of them tell the two apart")


def check_differs(tmp, shaders):
    for mode in MODES:
        args = ["--boids", 2000, "--steps", 3]
        if step(tmp, "random", args, mode, shaders) == step(tmp, "random", args, mode):
            fail(f"{mode}: 3 steps of 2000 boids are the same with the edited passes as with the built-in ones")
    print("2000 boids, 3 steps: the edited passes' state differs from the built-in passes' in every mode")


def quoted_errors(text, after):
    """The error lines the page quotes in the first text block after `after`."""
    block = re.search(r"```text\n(.*?)```", text[text.index(after):], re.S)
    return [line for line in block.group(1).splitlines() if ": error: " in line]


def check_errors(tmp, text, edits):
    m = re.search(r"in the line `([^`]+)`, write `([^`]+)` for `([^`]+)`", " ".join(text.split()))
    if not m:
        fail("the page's mistake is not 'in the line `...`, write `...` for `...`'")
    line, typo, right = m.groups()
    folder = tmp / "typo"
    shutil.copytree(tmp / "shaders", folder)
    rules = folder / "sim" / "rules.glsl"
    source = rules.read_text()
    if source.count(line) != 1 or line.count(right) != 1:
        fail(f"the page's mistake: `{line}` is not once in rules.glsl, or `{right}` not once in it")
    rules.write_text(source.replace(line, line.replace(right, typo)))
    stderr = vkboids("step", "--shaders", folder, "--boids", 100, "--quiet", expect=2).stderr
    # The page quotes the panel's lines; the command line says the first in one line, and how many more.
    expected = quoted_errors(text, "Now make a mistake")
    more = len(expected) - 1
    one_line = f"vkboids: error: {expected[0] if expected else ''}" + (
        f" (and {more} more error{'s' if more > 1 else ''})" if more > 0 else "")
    if not expected or one_line not in stderr.splitlines():
        fail(f"the page quotes {expected}; vkboids says:\n{stderr}")

    folder = tmp / "rules-only"
    shutil.copytree(SOURCE / "shaders", folder)
    apply_edits(folder, [e for e in edits if e[0] == ["sim/rules.glsl"]])
    stderr = vkboids("step", "--shaders", folder, "--boids", 100, "--quiet", expect=2).stderr
    m = re.search(r"`(sim/\S+:\d+: error:\s[^`]*)`", text[text.index("before the passes"):])
    quoted = " ".join(m.group(1).split())
    if quoted not in " ".join(stderr.split()):
        fail(f"the page says saving rules.glsl alone gives `{quoted}`; vkboids says:\n{stderr}")
    print(f"the page's errors are vkboids': {expected[0]}; {quoted}")


def check_bench(tmp, shaders):
    csv_path, json_path = tmp / "bench.csv", tmp / "bench.json"
    vkboids("bench", "--shaders", shaders, "--boids", 2000, "--frames", 3, "--warmup", 1, "--csv", csv_path,
            "--json", json_path)
    rows = list(csv.DictReader(open(csv_path)))
    columns = {(r["shaders"], r["shaders_hash"]) for r in rows}
    if len(columns) != 1:
        fail(f"bench --shaders: the CSV's shaders and shaders_hash columns hold {columns}")
    (origin, digest), = columns
    if origin != "source" or not re.fullmatch(r"[0-9a-f]{16}", digest):
        fail(f"bench --shaders: the CSV's shaders column is {origin!r}, its shaders_hash {digest!r}")
    build = json.load(open(json_path))["build"]
    if (build["shaders"], build["shaders_hash"], build["shaders_folder"]) != ("source", digest, str(shaders)):
        fail(f"bench --shaders: the JSON's build is {build}")
    print(f"bench --shaders: {len(rows)} rows from source, hash {digest}")


def main():
    text = PAGE.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        shaders = tmp / "shaders"
        shutil.copytree(SOURCE / "shaders", shaders)
        try:
            edits = page_edits(text)
            apply_edits(shaders, edits)
        except PageError as e:
            fail(f"docs/LIVE_EDITING.md no longer applies: {e}")
        check_stale_lines_fail(text, edits)
        print(f"the page's {len(edits)} edits applied to a copy of shaders/")
        check_scenes(tmp, shaders)
        check_dense_flock(tmp, shaders)
        check_differs(tmp, shaders)
        check_errors(tmp, text, edits)
        check_bench(tmp, shaders)


main()
