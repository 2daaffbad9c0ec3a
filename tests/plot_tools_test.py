#!/usr/bin/env python3
"""The chart scripts of tools/ under a Python without matplotlib: each says in one line what to
install and exits with status 1, instead of ending in a traceback.

    plot_tools_test.py SOURCE_DIR

matplotlib is hidden from the script (None in sys.modules, as where it is not installed), so the test
runs the same whether this Python has it or not.
"""

import glob
import os
import subprocess
import sys

HIDDEN = ("import runpy, sys; sys.modules['matplotlib'] = None; sys.argv = sys.argv[1:]; "
          "runpy.run_path(sys.argv[0], run_name='__main__')")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    scripts = [path for path in sorted(glob.glob(os.path.join(sys.argv[1], "tools", "*.py")))
               if "matplotlib" in open(path, encoding="utf-8").read()]
    if not scripts:
        print("plot_tools_test.py: no chart script found in tools/")
        return 1
    failed = 0
    for path in scripts:
        name = os.path.basename(path)
        run = subprocess.run([sys.executable, "-c", HIDDEN, path, "absent.csv"], capture_output=True,
                             text=True, timeout=60)
        lines = run.stderr.splitlines()
        fine = (run.returncode == 1 and len(lines) == 1 and lines[0].startswith(name + ": error: ")
                and "apt-get install python3-matplotlib" in lines[0] and "pip install matplotlib" in lines[0])
        if not fine:
            print(f"plot_tools_test.py: {name} without matplotlib: status {run.returncode}, stderr:\n{run.stderr}")
            failed += 1
    if failed:
        return 1
    print(f"plot_tools_test.py: {len(scripts)} chart scripts each name what to install")
    return 0


if __name__ == "__main__":
    sys.exit(main())
