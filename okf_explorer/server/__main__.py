"""`python -m okf_explorer.server ROOT [--host H] [--port P] [--stdio] [--token-file F]`.

The server's own entry, taking the options of `okf-explorer serve` for a folder
source; handy for tests and for running the server without the CLI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from okf_explorer.server.run import DEFAULT_HOST, DEFAULT_PORT, EXIT_USAGE, run_server, say


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m okf_explorer.server")
    parser.add_argument("root", type=Path, help="bundle folder to serve")
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--token-file", type=Path)
    args = parser.parse_args(argv)
    token = None
    if args.token_file is not None:
        try:
            token = args.token_file.read_text(encoding="utf-8").strip()
        except OSError as error:
            say(f"cannot read token file {args.token_file}: {error.strerror or error}")
            return EXIT_USAGE
        if not token:
            say(f"token file {args.token_file} is empty")
            return EXIT_USAGE
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.bundle import BundleSource

    brain = Brain(BundleSource(args.root))
    try:
        return run_server(brain, host=args.host, port=args.port, stdio=args.stdio, token=token)
    finally:
        brain.close()


if __name__ == "__main__":
    sys.exit(main())
