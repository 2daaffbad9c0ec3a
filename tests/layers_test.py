#!/usr/bin/env python3
"""Fails on an #include that points up the layers or sideways (docs/DESIGN.md, Layers).

    layers_test.py SOURCE_DIR     checks SOURCE_DIR/src and SOURCE_DIR/shaders
    layers_test.py --self-test    checks that a tree with each kind of violation fails

Each file lies in a room: io, gpu, sort, sim, render, app (its rooms demo, headless, cli and the
shared files directly in app/), harness, or main.cpp; the shaders' files in the room of their
folder, those at the top of shaders/ with gpu. A file may include its own room and rooms of lower
rank, never higher or equal rank elsewhere: sim and render do not include each other, nor app/demo
and app/headless, and the files shared by the app include neither. harness, the demo's test
harness, reads app/demo and the demo never includes it (it calls it through app::DemoHarness).
app/cli, the command line, sits on top of them all: only main.cpp includes it.
"""

import os
import re
import sys
import tempfile

RANK = {"io": 0, "gpu": 1, "tuning.h": 1.5, "sort": 2, "sim": 3, "render": 3,
        "app": 4, "app/demo": 5, "app/headless": 5, "harness": 5.2, "app/cli": 5.5, "main.cpp": 6,
        "build_info.h": 0}  # generated: the build's commit, which main.cpp alone includes
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def room(rel):
    """The room of a path relative to src/ or shaders/, or None where it is no file of ours."""
    parts = rel.split("/")
    if len(parts) == 1:
        return parts[0] if parts[0] in RANK else "gpu" if parts[0].endswith(".glsl") else None
    if parts[0] == "app":
        return "app/" + parts[1] if len(parts) > 2 else "app"
    return parts[0] if parts[0] in RANK else None


def resolve(root, including, name):
    """The included file's path relative to src/ or shaders/: beside the includer, or from a top."""
    here = os.path.dirname(including)
    for top in ("src", "shaders"):
        base = os.path.join(root, top)
        for candidate in (os.path.join(here, name), os.path.join(base, name)):
            candidate = os.path.normpath(candidate)
            if os.path.isfile(candidate) and candidate.startswith(base + os.sep):
                return os.path.relpath(candidate, base).replace(os.sep, "/")
    return name if name in RANK else None  # build_info.h is generated


def allowed(source, target):
    if source == target or target is None:
        return True
    return RANK[target] < RANK[source] and not (source == "app" and target.startswith("app/"))


def violations(root):
    found = []
    for top in ("src", "shaders"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, os.path.join(root, top)).replace(os.sep, "/")
                source = room(rel)
                if source is None:
                    continue
                with open(path, encoding="utf-8", errors="replace") as text:
                    for number, line in enumerate(text, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        included = resolve(root, path, match.group(1))
                        target = room(included) if included else None
                        if not allowed(source, target):
                            found.append(f"{top}/{rel}:{number}: {source} includes {target} "
                                         f"(\"{match.group(1)}\")")
    return found


def self_test():
    cases = {
        "src/gpu/context.h": '#include "sim/flock.h"',              # up
        "src/sim/flock.h": '#include "render/renderer.h"',           # sideways
        "src/app/demo/demo.cpp": '#include "app/headless/run.h"',    # sideways in app
        "src/app/capture.h": '#include "app/demo/panel.h"',          # up inside app
        "src/app/headless/run.h": '#include "app/cli/cli.h"',        # up to the command line
        "src/app/demo/window.h": '#include "app/cli/cli.h"',         # up to the command line
        "src/app/run.h": '#include "app/cli/cli.h"',                 # up to the command line
        "src/app/demo/panel.cpp": '#include "harness/harness.h"',    # the demo up to its harness
        "src/harness/harness.cpp": '#include "app/cli/cli.h"',       # the harness up to the command line
        "shaders/sort/onesweep.comp": '#include "../sim/sim_types.h"',
    }
    fine = {"src/render/renderer.h": '#include "gpu/context.h"\n#include "tuning.h"',
            "src/app/cli/cli.h": '#include "app/demo/demo.h"\n#include "app/headless/bench.h"',
            "src/main.cpp": '#include "app/cli/cli.h"', "src/app/demo/demo.h": "",
            "src/app/headless/bench.h": "", "src/render/renderer.cpp": "",
            "src/app/demo/panel.h": '#include "app/capture.h"', "shaders/sim/sim_types.h": "",
            "src/harness/harness.h": '#include "app/demo/demo.h"', "src/app/cli/cli_demo.cpp":
            '#include "harness/harness.h"'}
    with tempfile.TemporaryDirectory() as root:
        for path, text in {**cases, **fine}.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text + "\n")
        found = violations(root)
    reported = sorted(line.split(":")[0] for line in found)
    if reported != sorted(cases):
        print("layers_test.py: the self-test reported", found, "expected", sorted(cases))
        return 1
    print(f"layers_test.py: the self-test's {len(cases)} violations were each reported")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    found = violations(sys.argv[1])
    for line in found:
        print(line)
    if found:
        print(f"layers_test.py: {len(found)} include(s) against the layers (docs/DESIGN.md, Layers)")
        return 1
    print("layers_test.py: every include points down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
