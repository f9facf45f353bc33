"""The README and the manual in docs/: the README stays short and opens with the two
set-up commands, every relative link lands on a file (and a heading, when it names one),
and every `console` example prints what it shows, run against the sample brain."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 200

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def outside_code(text: str) -> str:
    """The page without code blocks and inline code (their brackets are examples)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """GitHub's anchors for the headings of a Markdown page."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", outside_code(text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_the_readme_is_short_and_opens_with_the_two_set_up_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    first = FENCE.search(text)
    assert first is not None and first.group(1) == "sh"
    commands = first.group(2).strip().splitlines()
    assert len(commands) == 2
    assert commands[0].endswith(".venv/bin/okf-explorer")  # the explorer on the sample brain
    assert commands[1].endswith(".venv/bin/python -m pytest -n 2")  # the default tier


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_lands(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = [target for target in LINK.findall(outside_code(text)) if not lands(page, target)]
    assert broken == []


def lands(page: Path, target: str) -> bool:
    """Whether a link of `page` reaches a file (and its heading, if it names one); URLs
    are not followed."""
    if re.match(r"[a-z]+:", target):
        return True
    path, _, anchor = target.partition("#")
    landing = (page.parent / path).resolve() if path else page
    if not landing.exists():
        return False
    return not anchor or anchor in anchors(landing.read_text(encoding="utf-8"))


def console_examples() -> list[tuple[str, str, list[str]]]:
    """`(page, command, shown output)` of every `$ okf-explorer …` in a `console` block."""
    found = []
    for page in PAGES:
        for kind, body in FENCE.findall(page.read_text(encoding="utf-8")):
            if kind != "console":
                continue
            for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
                command, *shown = chunk.rstrip("\n").split("\n")
                found.append((page.relative_to(ROOT).as_posix(), command, shown))
    return found


def matches(shown: list[str], printed: list[str]) -> bool:
    """The output as shown: a line `…` alone ends the comparison (the rest left out), and a
    line cut with `…` must begin the printed line."""
    for index, line in enumerate(shown):
        if line.strip() == "…":
            return True
        if index >= len(printed):
            return False
        cut = line.find("…")
        if printed[index] != line and (cut < 0 or not printed[index].startswith(line[:cut])):
            return False
    return len(printed) == len(shown)


@pytest.mark.parametrize(("page", "command", "shown"), console_examples())
def test_every_console_example_prints_what_it_shows(run, page, command, shown) -> None:
    argv = shlex.split(command)
    lines = None
    if "|" in argv:  # `| head -N` is the one pipe the examples use
        argv, pipe = argv[: argv.index("|")], argv[argv.index("|") + 1 :]
        assert pipe[0] == "head" and pipe[1].startswith("-"), command
        lines = int(pipe[1][1:])
    assert argv[0] == "okf-explorer", command
    _, out, err = run(*argv[1:])
    printed = out.splitlines()[:lines] + err.splitlines()
    assert matches(shown, printed), (page, command, printed)
