#!/usr/bin/env python3
"""The Windows build beside the Linux build's: a headless step and bench, file names beyond ASCII, bad
input and the demo's window, each run by both and compared, and live shader editing (--shaders) on Windows (label `windows`; tools/windows/check.sh
runs it under Wine after the MinGW build).

    windows_test.py --windows WINE_RUN VKBOIDS.EXE --linux VKBOIDS --shaders SHADERS_FOLDER

The Windows side is a command prefix, so the comparison can be tried on Linux alone by giving the
Linux binary for both sides. The demo needs an X display (check.sh's Xvfb). Needs numpy and PIL.
"""
import argparse
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image


def fail(message):
    print(f"windows_test: {message}", file=sys.stderr)
    sys.exit(1)


def run(command, *args, stderr=None):
    """Runs vkboids; its exit code. Wine's own messages are off, so that stderr is the program's."""
    env = dict(os.environ, WINEDEBUG="-all")
    return subprocess.run(command + list(args), stdout=subprocess.DEVNULL, stderr=stderr, env=env,
                          timeout=600).returncode


def must(command, *args):
    code = run(command, *args)
    if code != 0:
        fail(f"{' '.join(command + list(args))}: exit {code}")


def rows(name):
    with open(name, newline="") as f:
        return list(csv.DictReader(f))


def keys(value, prefix=""):
    """Every key path of a JSON value: what a reader of the file can look up."""
    if isinstance(value, dict):
        return {k for name, v in value.items() for k in keys(v, f"{prefix}/{name}")} | {prefix}
    if isinstance(value, list):
        return set().union(*[keys(v, prefix + "[]") for v in value]) if value else {prefix}
    return {prefix}


def lit(name, region):
    """Pixels inside `region` that differ from the demo's background."""
    image = Image.open(name).convert("RGB")
    width, height = image.size
    pixels = image.load()
    return sum(1 for y in range(height) for x in range(width)
               if region(x, y, width) and sum(abs(a - b) for a, b in zip(pixels[x, y], (5, 5, 9))) > 30)


def compare_step(windows, linux):
    """The state that Linux's build computes, to float rounding (the two C libraries differ)."""
    step = ["step", "--validation", "--quiet", "--boids", "2000", "--steps", "5", "--seed", "7"]
    must(windows, *step, "--save-state", "win.npy")
    must(linux, *step, "--save-state", "linux.npy")
    win, lin = np.load("win.npy"), np.load("linux.npy")
    if not win.shape == lin.shape == (2000, 6):
        fail(f"step: states of shape {win.shape} and {lin.shape}")
    difference = float(np.abs(win - lin).max())
    if difference >= 1e-4:
        fail(f"step: Windows and Linux states differ by {difference}")
    return difference


def compare_bench(windows, linux):
    """The same CSV columns and rows, the same JSON keys."""
    bench = ["bench", "--validation", "--mode", "naive,scattered,coherent", "--boids", "300", "--frames", "3",
             "--warmup", "1", "--warmup-ms", "0"]
    must(windows, *bench, "--csv", "win.csv", "--json", "win.json")
    must(linux, *bench, "--csv", "linux.csv", "--json", "linux.json")
    config = lambda r: (r["mode"], r["boids"], r["cells"], r["cell_order"], r["grid_build"], r["draw"])
    if sorted(map(config, rows("win.csv"))) != sorted(map(config, rows("linux.csv"))):
        fail("bench: the configurations differ from Linux's")
    w, l = keys(json.load(open("win.json"))), keys(json.load(open("linux.json")))
    if w != l:
        fail(f"bench: JSON keys differ from Linux's: {sorted(w ^ l)}")


def check_names(windows):
    """Names beyond ASCII reach the system as UTF-8 (the .exe's manifest), written and read back."""
    must(windows, "step", "--quiet", "--boids", "100", "--save-state", "böids-✓.npy")
    must(windows, "step", "--quiet", "--load-state", "böids-✓.npy", "--steps", "1", "--save-state", "zwei-ü.npy")
    if not (os.path.isfile("böids-✓.npy") and os.path.isfile("zwei-ü.npy")):
        fail(f"UTF-8 names: the folder holds {sorted(os.listdir('.'))}")


def check_bad_input(windows):
    """Exit code 2 and one line naming the problem, as on Linux."""
    for args in ("step --boids -5", "bench --mode fast", "step --boids 10 --save-state no/such/folder/state.npy"):
        with open("err.txt", "w+") as err:
            code = run(windows, *args.split(), stderr=err)
            err.seek(0)
            lines = [line for line in err.read().splitlines() if not line.startswith("vkboids: note:")]
        if code != 2 or len(lines) != 1:
            fail(f"'{args}': exit {code}, {lines}")


def compare_demo(windows, linux):
    """The demo's window for 60 frames: its screenshot beside Linux's of the same flock. Lit pixels
    right of the panel and outside the timings window (top right): the box and the boids; then the
    panel's own (ImGui 1.92 on Windows, Debian's 1.86 on Linux): its text and widgets drawn."""
    demo = ["--validation", "--boids", "3000", "--frames", "60", "--window", "1280x800"]
    must(windows, *demo, "--screenshot", "win.png", "--capture", "win-frames.csv")
    must(linux, *demo, "--screenshot", "linux.png", "--capture", "linux-frames.csv")
    flock = lambda x, y, width: x >= 360 and not (x >= width - 330 and y < 320)
    w, l = lit("win.png", flock), lit("linux.png", flock)
    if not (l > 12000 and 0.75 * l <= w <= 1.25 * l):
        fail(f"demo screenshot: {w} lit pixels on Windows, {l} on Linux")
    panel = lambda x, y, width: 10 <= x < 350 and 10 <= y < 700
    pw, pl = lit("win.png", panel), lit("linux.png", panel)
    if not (pl > 20000 and 0.8 * pl <= pw <= 1.25 * pl):
        fail(f"demo's panel: {pw} lit pixels on Windows, {pl} on Linux")
    return w, l, pw, pl


def wait_for(log, text, process, seconds=90):
    """Until the demo's stderr (the file `log`) holds `text`; fails where the demo ended or time ran out."""
    for _ in range(seconds * 10):
        if text in open(log, errors="replace").read():
            return
        if process.poll() is not None:
            fail(f"live edit: the demo ended (exit {process.returncode}) before '{text}':\n{open(log).read()}")
        time.sleep(0.1)
    process.kill()
    fail(f"live edit: no '{text}' in the demo's stderr:\n{open(log).read()}")


def check_live_edit(windows, shaders):
    """--shaders on Windows: a copy of the source tree's shaders steps as the built-in ones do; a GLSL
    error is one line naming FILE:LINE; in the demo an edit is compiled again and swapped in, and a
    bad one reported while the flock flies on."""
    shutil.copytree(shaders, "shaders")
    rules = os.path.join("shaders", "sim", "rules.glsl")
    text = open(rules).read()
    step = ["step", "--validation", "--quiet", "--boids", "2000", "--steps", "3", "--seed", "5"]
    must(windows, *step, "--save-state", "built-in.npy")
    must(windows, *step, "--shaders", "shaders", "--save-state", "source.npy")
    if open("built-in.npy", "rb").read() != open("source.npy", "rb").read():
        fail("--shaders: the unchanged sources step otherwise than the built-in shaders")
    broken = text.replace("    n.cohesionCount = 0.0;", "    n.cohesionCount = 0.0 +;")
    line = broken[:broken.index("0.0 +;")].count("\n") + 1
    with open(rules, "w", newline="\n") as f:
        f.write(broken)
    with open("err.txt", "w+") as err:
        code = run(windows, *step, "--shaders", "shaders", stderr=err)
        err.seek(0)
        lines = [l for l in err.read().splitlines() if not l.startswith("vkboids: note:")]
    if code != 2 or len(lines) != 1 or not lines[0].startswith(f"vkboids: error: sim/rules.glsl:{line}: error: "):
        fail(f"--shaders with a GLSL error: exit {code}, {lines}")
    with open(rules, "w", newline="\n") as f:
        f.write(text)

    with open("live.txt", "w") as log:
        demo = subprocess.Popen(windows + ["--validation", "--boids", "2000", "--frames", "100000", "--shaders",
                                           "shaders", "--screenshot", "live.png"],
                                stdout=subprocess.DEVNULL, stderr=log, env=dict(os.environ, WINEDEBUG="-all"))
    try:
        wait_for("live.txt", "shaders compiled from shaders", demo)
        time.sleep(2)
        with open(rules, "w", newline="\n") as f:
            f.write(broken)
        wait_for("live.txt", f"sim/rules.glsl:{line}: error: ", demo)
        with open(rules, "w", newline="\n") as f:
            f.write(text.replace("* c.cohesionScale;", "* c.cohesionScale * 0.5;", 1))
        wait_for("live.txt", "shaders reloaded: sim/rules.glsl", demo)
        time.sleep(1)
        demo.send_signal(signal.SIGINT)
        code = demo.wait(timeout=60)
    finally:
        if demo.poll() is None:
            demo.kill()
    if code != 0 or not os.path.isfile("live.png"):
        fail(f"live edit: the demo's exit code {code} after Ctrl-C:\n{open('live.txt').read()}")


def compare_csv_files():
    """The bench's and the capture's CSV: the header and row count of Linux's, and no CRLF."""
    for name in ("win.csv", "win-frames.csv"):
        linux = name.replace("win", "linux")
        if open(name).readline() != open(linux).readline():
            fail(f"{name}: columns differ from Linux's")
        if b"\r" in open(name, "rb").read():
            fail(f"{name} has CRLF line endings")
        if len(rows(name)) != len(rows(linux)):
            fail(f"{name}: {len(rows(name))} rows, Linux {len(rows(linux))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--windows", nargs="+", required=True, help="the command that runs the Windows build")
    parser.add_argument("--linux", required=True, help="the Linux build's vkboids")
    parser.add_argument("--shaders", required=True, help="the source tree's shaders folder")
    args = parser.parse_args()
    windows = [os.path.abspath(p) if os.path.exists(p) else p for p in args.windows]
    linux = [os.path.abspath(args.linux)]
    shaders = os.path.abspath(args.shaders)
    with tempfile.TemporaryDirectory() as out:
        os.chdir(out)
        difference = compare_step(windows, linux)
        compare_bench(windows, linux)
        check_names(windows)
        check_bad_input(windows)
        w, l, pw, pl = compare_demo(windows, linux)
        compare_csv_files()
        check_live_edit(windows, shaders)
        os.chdir("/")
    print(f"windows: step within {difference:.1e} of Linux's; bench and capture columns as Linux's; bad input "
          f"exit 2 in one line; screenshot {w} lit pixels (Linux {l}), its panel {pw} (Linux {pl}); --shaders "
          f"steps as the built-in shaders, and an edit is swapped into the demo's flock")


if __name__ == "__main__":
    main()
