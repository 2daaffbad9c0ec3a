#!/usr/bin/env python3
"""docs/CLI.md and `--help` name the same options.

    cli_reference_test.py VKBOIDS DOCS/CLI.md

Each option that a command's `--help` lists is named in that command's section of the page or in a
section shared by several commands; each option named in a section is listed by the `--help` of a
command that section covers (outside the commands' sections, of any command).
"""

import re
import subprocess
import sys

COMMANDS = {"demo": [], "step": ["step"], "bench": ["bench"], "sort-bench": ["sort-bench"]}
# The page's sections by the start of their title, and the commands each covers.
SECTIONS = {
    "Every command": set(COMMANDS),
    "Flocking parameters": {"demo", "step", "bench"},
    "The demo": {"demo"},
    "step": {"step"},
    "bench": {"bench"},
    "sort-bench": {"sort-bench"},
    "Expert": {"demo", "step", "bench"},
}
# Named on the page but no option: the typo in its example of one, and a chart script's.
NOT_OPTIONS = {"--boid", "--out"}
HELP_OPTION = re.compile(r"^ {2}(?:-\w,)?(--[a-z][a-z0-9-]*(?:,--[a-z][a-z0-9-]*)*)")  # with its aliases
DOC_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def help_options(binary, args):
    text = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, check=True).stdout
    options = {name for line in text.splitlines() if (m := HELP_OPTION.match(line))
               for name in m.group(1).split(",")}
    if len(options) < 5:
        sys.exit(f"cli_reference_test.py: '{' '.join(args)} --help' lists only {sorted(options)}")
    return options


def doc_sections(path):
    """{title: options named} for each '## ' section, '' for the text before the first."""
    sections, title = {"": set()}, ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                title = line[3:].strip()
                sections[title] = set()
            sections[title] |= set(DOC_OPTION.findall(line)) - NOT_OPTIONS
    return sections


def covers(title):
    for start, commands in SECTIONS.items():
        if title == start or title.startswith(start + " "):
            return commands
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    binary, page = sys.argv[1:]
    helps = {command: help_options(binary, args) for command, args in COMMANDS.items()}
    sections = doc_sections(page)
    problems = [f"no section '## {s}' in {page}" for s in SECTIONS
                if not any(t == s or t.startswith(s + " ") for t in sections)]
    for command, options in helps.items():
        documented = set().union(*(o for t, o in sections.items() if command in (covers(t) or ())))
        for option in sorted(options - documented):
            problems.append(f"{command} --help lists {option}, which {page} does not name for it")
    every = set().union(*helps.values())
    for title, options in sections.items():
        commands = covers(title)
        known = set().union(*(helps[c] for c in commands)) if commands else every
        for option in sorted(options - known):
            problems.append(f"{page}, '{title or 'top'}': {option} is not an option of "
                            f"{', '.join(sorted(commands)) if commands else 'any command'}")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"cli_reference_test.py: {len(every)} options, each where --help and {page} agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
