"""The `okf-explorer` command line (SPEC §6): `main` parses, runs, and reports.

The grammar lives in `cli.parser`, the commands in `cli.commands` (one module per
command family), what it writes and how it reports errors in `cli.reporting`; all
logic lives in `core/` and `sources/`. Every failure becomes one line on stderr,
`okf-explorer: <sentence>`, and an exit status: 1 for a failure (unreachable source,
unknown page, auth, export), 2 for bad arguments, 130 for Ctrl-C, 141 when the reader
of our output went away (`| head`). Tracebacks only with `--debug`, and never a token.
What we print about pages (names in errors, listings) shows control characters as
escapes (`core.text_safety.printable`): a page name cannot drive the terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from okf_explorer.cli.parser import EXIT_USAGE, EXPORT_FORMATS, build_parser, opened_as_browse
from okf_explorer.cli.reporting import (
    UsageError,
    harden_stdout,
    report,
    report_traceback,
    report_usage,
    silence_stdout,
    user_message,
)
from okf_explorer.core.errors import OkfError

__all__ = ["EXPORT_FORMATS", "build_parser", "main"]

EXIT_FAILURE = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (never raises SystemExit)."""
    parser = build_parser()
    try:
        args = parser.parse_args(opened_as_browse(sys.argv[1:] if argv is None else argv, parser))
    except SystemExit as stop:  # --help, --version, or a usage error (already printed)
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    debug = bool(getattr(args, "debug", False))
    try:
        harden_stdout()
        from okf_explorer.cli.commands import run_command

        status = run_command(args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except UsageError as error:  # the same shape as argparse's own usage errors
        report_usage(error)
        return EXIT_USAGE
    except OkfError as error:
        if debug:
            report_traceback(args)
        report(user_message(error), args)
        return EXIT_FAILURE
    except OSError as error:  # writing our output failed (a full disk, a closed stdout)
        if debug:
            report_traceback(args)
        report(f"cannot write output: {(error.strerror or str(error)).lower()}", args)
        return EXIT_FAILURE
    except Exception as error:
        if debug:
            report_traceback(args)
            return EXIT_FAILURE
        detail = " ".join(str(error).split())
        report(
            f"internal error: {type(error).__name__}: {detail} (run with --debug for details)",
            args,
        )
        return EXIT_FAILURE
