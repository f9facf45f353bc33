"""The explorer's frame rate (`tui.settings.prefer_frame_rate`): 120 a second unless the
environment names one. Textual reads it once, when first imported, so each case is a fresh
interpreter starting the way the command line does (the explorer's package first)."""

from __future__ import annotations

import os
import subprocess
import sys

from okf_explorer.tui.settings import FRAME_RATE, FRAME_RATE_ENV

READ_RATE = "import okf_explorer.tui.app, textual.constants as c; print(c.MAX_FPS)"


def _rate_seen(environment: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", READ_RATE], env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_the_explorer_asks_textual_for_its_own_frame_rate() -> None:
    environment = {k: v for k, v in os.environ.items() if k != FRAME_RATE_ENV}
    assert _rate_seen(environment) == FRAME_RATE == 120


def test_a_rate_the_environment_names_wins() -> None:
    assert _rate_seen({**os.environ, FRAME_RATE_ENV: "30"}) == 30
