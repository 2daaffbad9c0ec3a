#!/usr/bin/env python3
"""docs/CLI.md and `--help` name the same options, and the page's lists of choices are the program's.

    cli_reference_test.py VKBOIDS DOCS/CLI.md
    cli_reference_test.py --self-test VKBOIDS DOCS/CLI.md

Each option that a command's `--help` lists is named in that command's section of the page or in a
section shared by several commands; each option named in a section is listed by the `--help` of a
command that section covers (outside the commands' sections, of any command).

Each list of choices on the page, written `--mode naive|scattered|coherent`, is the list that the
program prints when the option is given a value it does not know. That message is built from the
enum's name table (io::NameTable), the same table that parses the value, so a name added to or taken
from a table shows here until the page follows. --self-test plants wrong lists in a copy of the page
and requires that each of them is caught.
"""

import os
import re
import subprocess
import sys
import tempfile

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
# A list of choices on the page: `--flag a|b|c`, which may run over a line break.
DOC_CHOICES = re.compile(r"`(--[a-z][a-z0-9-]*) ([^`\s|]+(?:\|[^`\s|]+)+)`")
# A list of choices in the program's message: "a, b or c", "a, b, c" or "a or b".
MESSAGE_CHOICES = re.compile(r"[\w-]+(?:(?:, or |, | or )[\w-]+)+")
# A value that no option takes, to make the program print its choices.
NOT_A_CHOICE = "not-a-choice"


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


def doc_choice_lists(path):
    """[(section title, option, [choices])] for each `--option a|b|c` on the page."""
    lists, title = [], ""
    with open(path, encoding="utf-8") as f:
        paragraphs = f.read().split("\n\n")
    for paragraph in paragraphs:
        for line in paragraph.splitlines():
            if line.startswith("## "):
                title = line[3:].strip()
        for option, choices in DOC_CHOICES.findall(" ".join(paragraph.splitlines())):
            lists.append((title, option, choices.split("|")))
    return lists


def message_choice_lists(binary, args, option):
    """The program's one-line error for a value `option` does not take, and the lists of choices in it."""
    result = subprocess.run([binary, *args, option, NOT_A_CHOICE], capture_output=True, text=True)
    message = result.stderr.strip()
    after_value = message.split(f"'{NOT_A_CHOICE}'", 1)[-1]
    return message, [re.split(r", or |, | or ", found) for found in MESSAGE_CHOICES.findall(after_value)]


def choice_problems(binary, page, helps):
    """Each list of choices on the page that is not a list the program prints for its option."""
    problems = []
    lists = doc_choice_lists(page)
    if not lists:
        problems.append(f"{page} has no list of choices (`--option a|b`) to check")
    for title, option, choices in lists:
        commands = [c for c in COMMANDS if c in (covers(title) or COMMANDS) and option in helps[c]]
        if not commands:
            problems.append(f"{page}, '{title}': {option} {'|'.join(choices)} is no option with choices")
            continue
        message, printed = message_choice_lists(binary, COMMANDS[commands[0]], option)
        if choices not in printed:
            problems.append(f"{page}, '{title}': {option} {'|'.join(choices)}, but the program says: "
                            f"'{message}'")
    return problems, len(lists)


def covers(title):
    for start, commands in SECTIONS.items():
        if title == start or title.startswith(start + " "):
            return commands
    return None


def self_test(binary, page, helps):
    """Wrong lists planted in a copy of the page: each must be caught, and the page itself must pass."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    plants = {
        "a name the program does not take": ("naive|scattered|coherent", "naive|scattered|coherent|fast"),
        "a name left out": ("auto|cells|full|half|quarter", "auto|cells|full|half"),
        "a name misspelt": ("speed|heading|cell|order", "speed|heading|cell|hue"),
        "the order changed": ("fifo|mailbox|immediate", "mailbox|fifo|immediate"),
        "the alias's list": ("`--cells 27|8`", "`--cells 27|9`"),
    }
    failures = []
    problems, _ = choice_problems(binary, page, helps)
    failures += [f"the page itself: {p}" for p in problems]
    for what, (right, wrong) in plants.items():
        if right not in text:
            failures.append(f"the page no longer holds '{right}' to plant {what} in")
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False, encoding="utf-8") as planted:
            planted.write(text.replace(right, wrong, 1))
        try:
            problems, _ = choice_problems(binary, planted.name, helps)
        finally:
            os.unlink(planted.name)
        if not any(wrong.strip("`").split(" ")[-1] in p for p in problems):
            failures.append(f"{what} ('{wrong}') was not caught")
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"cli_reference_test.py --self-test: the page passes and each of {len(plants)} planted lists fails")
    return 0


def main():
    args = sys.argv[1:]
    testing_itself = args[:1] == ["--self-test"]
    if testing_itself:
        args = args[1:]
    if len(args) != 2:
        print(__doc__)
        return 2
    binary, page = args
    helps = {command: help_options(binary, args) for command, args in COMMANDS.items()}
    if testing_itself:
        return self_test(binary, page, helps)
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
    choices, lists = choice_problems(binary, page, helps)
    problems += choices
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"cli_reference_test.py: {len(every)} options, each where --help and {page} agree, and "
          f"{lists} lists of choices, each the program's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
