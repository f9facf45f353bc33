"""The explorer's display settings (`tui.settings.prefer_display_settings`): 120 frames a
second and no animations, unless the environment names its own. Textual reads them once,
when first imported, so each case is a fresh interpreter starting the way the command line
does (the explorer's package first)."""

from __future__ import annotations

import os
import subprocess
import sys

from okf_explorer.tui.settings import ANIMATIONS, ANIMATIONS_ENV, FRAME_RATE, FRAME_RATE_ENV

READ = (
    "import okf_explorer.tui.app, textual.constants as c;"
    " print(c.MAX_FPS); print(c.TEXTUAL_ANIMATIONS)"
)


def _seen(environment: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", READ], env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    rate, animations = done.stdout.split()
    return int(rate), animations


def _without(*names: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in names}


def test_the_explorer_asks_textual_for_its_own_frame_rate() -> None:
    assert _seen(_without(FRAME_RATE_ENV))[0] == FRAME_RATE == 120


def test_a_rate_the_environment_names_wins() -> None:
    assert _seen({**os.environ, FRAME_RATE_ENV: "30"})[0] == 30


def test_the_explorer_scrolls_without_animations() -> None:
    """Textual's default slid the page for 1 s on `end` and `home`, 0.25 s on `pagedown`."""
    assert _seen(_without(ANIMATIONS_ENV))[1] == ANIMATIONS == "none"


def test_animations_the_environment_asks_for_win() -> None:
    assert _seen({**os.environ, ANIMATIONS_ENV: "full"})[1] == "full"
