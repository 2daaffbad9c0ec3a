#!/usr/bin/env python3
"""Fails on a command-line flag written in a string below app/ (docs/DESIGN.md, Layers).

    flag_strings_test.py SOURCE_DIR     checks SOURCE_DIR/src/{io,gpu,sort,sim,render}
    flag_strings_test.py --self-test    checks that a planted flag string fails and a comment passes

The layers below the command line report which value is wrong and its bounds as data; the command
line names the flag, the panel the slider, the input script its key. A string literal there that
holds "--" and a word ("--boids", "--domain-half") is the command line leaking down. Comments may
still say which flag sets a value.
"""

import os
import re
import sys
import tempfile

BELOW_APP = ("io", "gpu", "sort", "sim", "render")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def code_without_comments(text):
    """The text with // and /* */ comments blanked, strings kept (a "//" inside a string stays)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif text[i] == '"':
            match = STRING.match(text, i)
            end = match.end() if match else i + 1
            out.append(text[i:end])
            i = end
        elif text[i] == "'":
            end = text.find("'", i + 1 + (text[i + 1] == "\\" if i + 1 < n else 0))
            end = n if end < 0 else end + 1
            out.append(text[i:end])
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def violations(root):
    found = []
    for room in BELOW_APP:
        for folder, _, files in os.walk(os.path.join(root, "src", room)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8", errors="replace") as source:
                    code = code_without_comments(source.read())
                for number, line in enumerate(code.splitlines(), 1):
                    for literal in STRING.findall(line):
                        for flag in FLAG.findall(literal):
                            rel = os.path.relpath(path, root).replace(os.sep, "/")
                            found.append(f"{rel}:{number}: {flag} in {literal}")
    return found


def self_test():
    planted = {
        "src/sim/params.cpp": 'std::string e = "--max-speed must be a positive number";',
        "src/gpu/context.cpp": 'throw Unsupported(std::string("see --list-devices"));',
        "src/render/renderer.h": 'const char* help =\n    "the window"\n    " (--window)";',
    }
    fine = {
        "src/sim/flock.cpp": '// The count (--boids) is checked here.\nint x = y--;\n/* "--boids" */',
        "src/io/output.cpp": 'const char* a = "a -- b"; const char* c = "x--y";',
        "src/app/cli/cli_flags.cpp": 'const char* flag = "--boids";',
    }
    with tempfile.TemporaryDirectory() as root:
        for path, text in {**planted, **fine}.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text + "\n")
        found = violations(root)
    reported = sorted({line.split(":")[0] for line in found})
    if reported != sorted(planted) or len(found) != len(planted):
        print("flag_strings_test.py: the self-test reported", found, "expected one in each of", sorted(planted))
        return 1
    print(f"flag_strings_test.py: the self-test's {len(planted)} planted flag strings were each reported")
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
        print(f"flag_strings_test.py: {len(found)} flag string(s) below app/: report the value as data, "
              "and let the caller name it")
        return 1
    print("flag_strings_test.py: no flag string below app/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
