"""Issue 24 item 3: names and text holding emoji with a variation selector never misalign a
pane in a real terminal.

`🗂️` is U+1F5C2 U+FE0F: Rich (and so Textual's layout) counts the cluster 2 cells, tmux
3.3 draws it in 1 (it measures code point by code point: U+1F5C2 is 1, the selector 0),
so every row holding one lost a cell: its borders moved left and a stale `│` stayed at
the end (the community vault names its maps of content `🗂️ …`). An emoji with a skin
tone (`👍🏽`) is the reverse: Rich 2, tmux 4. The explorer now draws each such cluster
as the cells it was measured (`tui.cells.TerminalWidths`): the emoji alone, padded with a
space to Rich's count, which every terminal draws alike.

Checked in tmux itself (`capture-pane`), where the bug was seen: the app runs in a tmux
server of its own, and each row's cells are counted as tmux 3.3 counts them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color

from okf_explorer.tui.cells import TerminalWidths
from tests.bundles import write_pages

HUB = "🗂️ hub"
PAGES = {
    HUB: "# 🗂️ hub\n\nSee [[✔️ done]], [[❤️ love]], [[⚠️ warn]] and [[👍🏽 thumbs]].\n\n"
    "| map | mark |\n|---|---|\n| 🗂️ maps | ✔️ yes |\n| ❤️ love | 👍🏽 ok |\n",
    "✔️ done": "# ✔️ done\n\nBack to [[🗂️ hub]].\n",
    "❤️ love": "# ❤️ love\n\nBack to [[🗂️ hub]] too.\n",
    "⚠️ warn": "# ⚠️ warn\n",
    "👍🏽 thumbs": "# 👍🏽 thumbs\n\nTo [[🗂️ hub]].\n",
}
CORNERS = "╭╮╰╯"
SIDES = "│┃▌▐"


def tmux_cells(char: str) -> int:
    """How many cells tmux 3.3 gives a code point (its `wcwidth`, one code point at a time)."""
    if char in "\ufe0e\ufe0f\u200d" or unicodedata.category(char) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def columns(line: str) -> list[tuple[int, str]]:
    """(column, character) of each visible character of a captured row, as tmux places it."""
    found, column = [], 0
    for char in line:
        width = tmux_cells(char)
        if width:
            found.append((column, char))
        column += width
    return found


def misaligned(screen: list[str], width: int) -> list[str]:
    """The rows whose pane borders do not sit where the top border puts them: a side
    missing under a corner, a side one cell inside the pane (where its padding is), or
    a row wider than the terminal."""
    top = next(line for line in screen if "╭" in line)
    corners = dict(columns(top))
    edges = [column for column, char in corners.items() if char in "╭╮"]
    inside = [column + 1 if corners[column] == "╭" else column - 1 for column in edges]
    bad = []
    start = screen.index(top)
    for line in screen[start + 1 : start + 12]:  # rows inside the top panes
        placed = dict(columns(line))
        lost = any(placed.get(column, " ") not in SIDES + CORNERS for column in edges)
        shifted = any(placed.get(column, " ") in SIDES for column in inside)
        if lost or shifted or sum(map(tmux_cells, line)) > width:
            bad.append(line)
    return bad


class Tmux:
    """A tmux server of our own (`-L`), one session, removed at the end."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        command = ["tmux", "-L", self.socket, *args]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout

    def screen(self) -> list[str]:
        return self.run("capture-pane", "-p", "-t", "t").splitlines()

    def wait_for(self, text: str, timeout: float = 30) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if any(text in line for line in screen):
                time.sleep(0.5)  # the rest of the frame
                return self.screen()
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed:\n" + "\n".join(self.screen()))


@pytest.mark.slow  # a tmux server and the explorer in it: ~3 s each
@pytest.mark.parametrize("size", [(150, 45), (80, 24)], ids=["150x45", "80x24"])
def test_rows_holding_emoji_keep_their_borders_in_tmux(tmp_path: Path, size) -> None:  # type: ignore[no-untyped-def]
    assert shutil.which("tmux"), "tmux is needed to check widths in a real terminal"
    root = write_pages(tmp_path / "vault", PAGES)
    tmux = Tmux(f"okf-widths-{os.getpid()}-{size[0]}")
    env = "OKF_EXPLORER_CACHE=off TERM=xterm-256color COLORTERM=truecolor"
    command = f"env {env} {sys.executable} -m okf_explorer browse '{root}' --start '{HUB}'"
    try:
        tmux.run("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), command)
        tmux.wait_for("answered by")
        tmux.run("send-keys", "-t", "t", "f")  # the page tree: every page by name
        screen = tmux.wait_for("thumbs")
        assert any("🗂" in line for line in screen)
        assert misaligned(screen, size[0]) == []
    finally:
        subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)


def test_the_filter_draws_clusters_in_the_cells_rich_counts() -> None:
    """Each cluster is replaced by text of the same width in Rich and in a terminal."""
    filter_ = TerminalWidths()
    text = "🗂️ hub ✔️ ❤️ #️⃣ 👍🏽 plain é 中"
    (out,) = filter_.apply([Segment(text)], Color(0, 0, 0))
    assert cell_len(out.text) == cell_len(text)
    assert sum(map(tmux_cells, out.text)) == cell_len(text)
    assert "\ufe0f" not in out.text and out.text.startswith("🗂  hub ✔  ❤  #⃣  👍 plain")
    assert filter_.apply([Segment("no emoji")], Color(0, 0, 0))[0].text == "no emoji"
