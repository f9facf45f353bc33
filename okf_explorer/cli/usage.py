"""`UsageError`: what a command raises for arguments it cannot use. Its own module so
`cli` (which reports it) and `cli_commands` (which raise it) do not import each other."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Arguments argparse accepted but the command cannot use (exit 2, with usage)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
