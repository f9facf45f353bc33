"""What the `okf-explorer` command line writes, and how it reports what went wrong (SPEC §6).

Command output goes to stdout as one write (`emit`; a big export a block at a time,
`emit_pieces`), so a broken pipe stops it cleanly; a remark that is no error is one
line on stderr (`note`). Every failure is one line on stderr, `okf-explorer: <sentence>`,
with every secret this run may hold masked (`known_secrets`) and control characters
shown as escapes (`core.text_safety.printable`), so neither a token nor a page name
reaches the terminal raw. `--debug` adds the traceback, scrubbed the same way.
Arguments a command cannot use raise `UsageError`, reported as argparse reports its own
(exit 2).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path

from okf_explorer.cli.parser import PROG
from okf_explorer.core.errors import OkfError, PageNotFound, SourceUnavailable
from okf_explorer.core.text_safety import printable


class UsageError(Exception):
    """Arguments argparse accepted but the command cannot use (exit 2, with usage)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser


def report_usage(error: UsageError) -> None:
    """`PROG COMMAND: error: MESSAGE (see 'PROG COMMAND --help')`: argparse's own shape."""
    prog = error.parser.prog
    sys.stderr.write(f"{prog}: error: {printable(str(error))} (see '{prog} --help')\n")


def user_message(error: OkfError) -> str:
    """The one-line sentence for `error`, with the words the SPEC promises scripts."""
    message = " ".join(str(error).splitlines()).strip() or type(error).__name__
    if isinstance(error, SourceUnavailable) and "unreachable" not in message.lower():
        message = f"unreachable: {message}"
    if isinstance(error, PageNotFound) and "no page" not in message.lower():
        message = f"no page {error.slug!r}: {message}"
    return message


def emit(text: str) -> None:
    """Write command output to stdout (as one write, so a broken pipe stops it cleanly)."""
    sys.stdout.write(text)


def emit_pieces(pieces: Iterable[str]) -> None:
    """Write output rendered in pieces to stdout a block at a time (an export of a
    million edges is never held whole)."""
    from okf_explorer.core.export.formats import text_blocks

    for block in text_blocks(pieces):
        sys.stdout.write(block)


def note(message: str) -> None:
    """A one-line remark on stderr that is not an error."""
    sys.stderr.write(f"okf-explorer: {printable(message)}\n")


def report(message: str, args: argparse.Namespace) -> None:
    """One line on stderr, with every secret we know of masked and controls escaped."""
    line = f"{PROG}: {printable(scrub(message, known_secrets(args)))}\n"
    with contextlib.suppress(BrokenPipeError, ValueError):
        sys.stderr.write(line)
        sys.stderr.flush()


def report_traceback(args: argparse.Namespace) -> None:
    """`--debug`: the traceback, still without secrets, controls escaped line by line."""
    text = scrub(traceback.format_exc(), known_secrets(args))
    with contextlib.suppress(BrokenPipeError, ValueError):
        sys.stderr.write("".join(printable(line) + "\n" for line in text.splitlines()))


def known_secrets(args: argparse.Namespace) -> list[str]:
    """Every secret this run may hold: the token file, `$GBRAIN_TOKEN`, URL credentials."""
    found = [os.environ.get("GBRAIN_TOKEN", "").strip()]
    token_file = getattr(args, "token_file", None)
    if token_file is not None:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            found.append(Path(token_file).expanduser().read_text(encoding="utf-8").strip())
    for spec in (getattr(args, "src", None), getattr(args, "source", None)):
        if spec:
            found += _url_secrets(spec)
    for variable in ("OKF_SOURCE", "GBRAIN_MCP_URL"):
        found += _url_secrets(os.environ.get(variable, ""))
    return [secret for secret in found if len(secret) >= 3]


def _url_secrets(spec: str) -> list[str]:
    """`url_secrets` of `spec`, asked only when it can hold any (user-info needs an `@`,
    a query a `?`): the MCP transport it lives in costs ~70 ms to import, which a
    folder command's error need not pay."""
    if "@" not in spec and "?" not in spec:
        return []
    from okf_explorer.sources.gbrain.transport import url_secrets

    return url_secrets(spec)


def scrub(text: str, secrets: Iterable[str]) -> str:
    """`text` with each secret replaced by `***` (longest first, so parts don't leak)."""
    for secret in sorted(set(secrets), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def harden_stdout() -> None:
    """Escape what the output encoding cannot hold rather than crash mid-listing: on
    a non-UTF-8 terminal, and for a lone surrogate a server's JSON may carry.

    A closed stdout (`>&-`) leaves `sys.stdout` None: say so instead of crashing.
    """
    stream = sys.stdout
    if stream is None:
        raise OSError(errno.EBADF, "standard output is closed")
    if isinstance(stream, io.TextIOWrapper):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")


def silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush cannot complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
