"""`okf-explorer browse | serve | web`: the launchers of the long-running faces.

- `browse [SRC] [--start NAME] [--against URL]` runs the terminal explorer over the open
  brain; `--against` compares a folder with the server loaded from it (the token from
  `--token-file`, else `$GBRAIN_TOKEN`). Without a terminal it says so in one line
  and exits 1 (it would hang).
- `serve [SRC]` serves the brain over MCP (`server.run_server`), `web [SRC]` the
  explorer to browsers (`tui.web.server.run_web`). For both, `--token-file` is the
  token clients must give, never the source's: an MCP source being served again
  authenticates with `$GBRAIN_TOKEN`. Who may listen where is `net.serving_refusal`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from okf_explorer.cli.commands import open_brain
from okf_explorer.cli.reporting import UsageError, note

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.gbrain.source import McpSource


def run_browse(brain: Brain, args: argparse.Namespace) -> int:
    """Run the TUI; without a terminal, say so in one line and exit 1 (it would hang)."""
    from okf_explorer.tui.app import NoTerminal, make_app
    from okf_explorer.tui.fast_quit import QuickQuit, end_process

    against = _against_server(brain, args)
    try:
        app = make_app(
            brain,
            start=getattr(args, "start", None) or None,
            watch_files=True,
            against=against,
        )
        try:
            app.run()
        except NoTerminal as error:
            note(str(error))
            return 1
        status = int(getattr(app, "return_code", 0) or 0)
        if against is None and isinstance(app, QuickQuit):  # a server to close: the ordinary way
            end_process(app, status)
        return status
    finally:
        if against is not None:
            against.close()


def _against_server(brain: Brain, args: argparse.Namespace) -> McpSource | None:
    """The server `browse FOLDER --against URL` compares the folder with, or None; exit 2
    unless the brain is a folder and URL a server."""
    url = getattr(args, "against", None)
    if url is None:
        return None
    from okf_explorer.sources.factory import is_url, open_source
    from okf_explorer.sources.gbrain.source import McpSource

    parser = args.command_parser
    if brain.local_root is None:
        raise UsageError(parser, "--against needs a folder to browse (SRC is not a folder)")
    if not is_url(url):
        raise UsageError(parser, f"--against {url!r} is not an http(s)://.../mcp URL")
    server = open_source(url, token_file=args.token_file, timeout=args.timeout)
    if not isinstance(server, McpSource):
        server.close()
        raise UsageError(parser, f"--against {url!r} is not an MCP server URL")
    return server


def run_serve(args: argparse.Namespace) -> int:
    """`serve`: the brain over MCP until interrupted; the exit status."""
    from okf_explorer.server import run_server

    token = _clients_token(args)
    brain = open_brain(args, token_file=None)
    try:
        return run_server(
            brain,
            host=args.host,
            port=args.port,
            stdio=args.stdio,
            token=token,
            shapes=args.gbrain_shapes,
            show_private=args.show_private,
        )
    finally:
        brain.close()


def run_web(args: argparse.Namespace) -> int:
    """`web`: each browser session runs `browse` on the same source in a process of its
    own (`web_session_argv`); the exit status."""
    from okf_explorer.tui.web.server import run_web as serve_web

    token = _clients_token(args)
    brain = open_brain(args, token_file=None)
    try:
        return serve_web(brain, web_session_argv(args), host=args.host, port=args.port, token=token)
    finally:
        brain.close()


def _clients_token(args: argparse.Namespace) -> str | None:
    """The token `--token-file` holds: the one clients must give (None: no token)."""
    from okf_explorer.sources.factory import read_token

    return read_token(args.token_file).value if args.token_file is not None else None


def web_session_argv(args: argparse.Namespace) -> list[str]:
    """The `browse` command a `web` session runs: same source and source options, never
    the web token (an MCP source authenticates with `$GBRAIN_TOKEN`, which it inherits)."""
    argv = [sys.executable, "-m", "okf_explorer", "browse"]
    if getattr(args, "start", None):
        argv.append(f"--start={args.start}")
    if args.timeout is not None:
        argv.append(f"--timeout={args.timeout}")
    if args.scan:
        argv.append("--scan")
    spec = getattr(args, "src", None) or args.source
    return [*argv, "--", spec] if spec else argv
