"""The CLI's argument types: each turns one command-line word into a value, or raises
`argparse.ArgumentTypeError` with the one line the user sees."""

from __future__ import annotations

import argparse
import math


def relation_name(text: str) -> str:
    """`--rel R`: a relation name, not empty."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError("a relation name must not be empty")
    return name


def whole_number(text: str) -> int:
    """`--depth N`: any whole number (the command clamps it to 1-10)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"depth must be a whole number from 1 to 10, not {text!r}"
        ) from None


def non_negative(text: str) -> int:
    """A count: a whole number 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number 0 or more, not {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """A duration: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text!r}")
    return value
