"""What the explorer reads from its environment: the export folder, the terminal, the
frame rate and the animations."""

from __future__ import annotations

import os
import sys
from pathlib import Path

EXPORT_DIR_ENV = "OKF_EXPORT_DIR"
NO_TERMINAL = "the explorer needs a terminal (use get, list or links in scripts)"
FRAME_RATE_ENV = "TEXTUAL_FPS"
FRAME_RATE = 120
"""Screen updates a second at most, unless `$TEXTUAL_FPS` says otherwise (Textual's own
default is 60). A page opened is laid out twice: the first layout changes the panes'
sizes, and Textual lays them out again at its next frame, which at 60 comes 17-33 ms
later. At 120 the second paint comes 8-17 ms after the first: `enter` and `backspace` on
the sample brain went from 93 and 83 ms to 84 and 74 (`tests/bench/bench_keys.py`)."""

ANIMATIONS_ENV = "TEXTUAL_ANIMATIONS"
ANIMATIONS = "none"
"""Textual's animations, unless `$TEXTUAL_ANIMATIONS` says otherwise (`full`, `basic`):
none. A keyboard user's scroll lands at once, as in a pager: Textual's own default slid
the page for 1 s on `end` and `home` and for 0.25 s on `pagedown`, `pageup`, and the
link tree for 0.23 s on `end`, keys that should take under 0.1 s (issue 24). A busy
pane then says `Loading...` instead of its moving dots."""


class NoTerminal(Exception):
    """The explorer was started without a terminal on stdin and stdout."""


def default_export_dir() -> Path:
    """Where `e` writes: `$OKF_EXPORT_DIR` (with `~` expanded) if set, else the working dir."""
    configured = os.environ.get(EXPORT_DIR_ENV, "").strip()
    return Path(configured).expanduser() if configured else Path.cwd()


def web_driver_chosen() -> bool:
    """Whether Textual will run on its web driver (`okf-explorer web` starts each session
    with `TEXTUAL_DRIVER` naming it): the terminal is then a browser, over pipes."""
    return "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")


def prefer_display_settings() -> None:
    """Ask Textual for `FRAME_RATE` and `ANIMATIONS` unless the environment names its
    own: it reads the variables once, when first imported, so this runs before
    (`okf_explorer.tui`)."""
    os.environ.setdefault(FRAME_RATE_ENV, str(FRAME_RATE))
    os.environ.setdefault(ANIMATIONS_ENV, ANIMATIONS)


def has_terminal() -> bool:
    """Whether both stdin and stdout are terminals (a closed or missing stream is not)."""
    try:
        return bool(sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty())
    except (OSError, ValueError):
        return False
