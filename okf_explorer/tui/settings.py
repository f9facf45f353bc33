"""What the explorer reads from its environment: the export folder and the terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

EXPORT_DIR_ENV = "OKF_EXPORT_DIR"
NO_TERMINAL = "the explorer needs a terminal (use get, list or links in scripts)"


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


def has_terminal() -> bool:
    """Whether both stdin and stdout are terminals (a closed or missing stream is not)."""
    try:
        return bool(sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty())
    except (OSError, ValueError):
        return False
