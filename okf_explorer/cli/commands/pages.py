"""The bodies of the `okf-explorer` commands: open a brain, ask it, print the answer.

Output rules (SPEC §6, and choices where it is silent):
- names and types in human-readable lines (`list`, `links`, notes, errors) show
  control, bidi and separator characters as escapes (`\\x1b`, `\\n`, `\\u202e`: see
  `core.text_safety`), so a page name cannot drive the terminal or split a line;
  `--json` keeps them exact (as JSON escapes);
- `get` prints the body as stored, ending with exactly one newline; a page that
  cannot be read is an error (exit 1), except with `--json`, whose record says
  `readable: false` and why when the source hands such a page back;
- `list` prints `slug<TAB>type` (`-` for no type) in slug order;
- `--status S` / `--min-trust T` (`list`, `links`, `export`) keep pages of those OKF
  v0.2 statuses and of at least that trust tier; a walk keeps the edges it would
  have if it never entered a page that fails, the root always kept (exact rules in
  `core.okf.filter`); `-n` counts the pages that pass;
- `links` prints the unique `to` nodes of the traversal in edge order (dangling
  targets as their node ids); `--json` prints the same bytes as
  `export --format json`;
- `export` writes exactly what `core.export.formats.render` returns, to stdout or
  atomically to `-o FILE` (`-o -` means stdout); without `--format` the
  format follows the file's suffix (`.dot`, `.graphml`, ...), else JSON;
- a depth outside 1-10 is clamped with a note on stderr;
- a name typed by the user that is not a slug resolves like a wiki link on a
  root page (`Brain.resolve_name`, SPEC §3) before `no page`, which then
  suggests close pages (`Brain.suggest`: slugs, file names, titles, aliases).
  `browse --start NAME` hands NAME to the TUI as typed: it opens an exact slug at
  once and resolves anything else once its index is ready (a notification says
  when nothing matches), so resolving never delays the first paint.
- `links --explain` prints one line per distinct link of the walk, in edge order,
  five or more tab-separated fields:

      FROM <TAB> WRITTEN <TAB> TO <TAB> RULE [<TAB> CANDIDATE]...

  FROM is the page the link is written on (for `--backlinks` the page linking
  to the one walked from); WRITTEN the target as written, in its syntax
  (`[[t]]` wiki, `![[t]]` embed, `(t)` Markdown link); TO the page it leads to,
  or the dangling node id; RULE the SPEC §3 rule that resolved it (`path`,
  `folder-index`, `refdef`, `exact`, `case`, `slugified`, `suffix`, `basename`,
  `alias`, `title`, `dangling`). When several pages matched at that rule, every
  candidate follows, the chosen one first; otherwise the line ends after RULE.
  A link a server's stored graph holds but no page body shows has WRITTEN and
  RULE `-`. Example: `docs/cli\t[[lint]]\tdocs/cli/lint\trefdef`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from okf_explorer.cli.common import (
    emit,
    emit_pieces,
    explain_lines,
    export_format,
    fetch_page,
    note,
    page_record,
    render_edges,
    resolve_name,
    unique_targets,
)
from okf_explorer.cli.okf_filter import filtered_pages, filtered_walk, okf_filter_of
from okf_explorer.cli.usage import UsageError
from okf_explorer.core.errors import PageUnreadable
from okf_explorer.core.graph.traverse import DEPTH_CAP, Edge, clamp_depth
from okf_explorer.core.text_safety import json_text, printable, printable_body

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.gbrain.source import McpSource


def run_command(args: argparse.Namespace) -> int:
    """Validate what argparse could not, open the brain, run the command."""
    command = args.command or "browse"
    _check_arguments(args)
    if command == "serve":
        return _serve(args)
    if command == "web":
        return _web(args)
    if command == "audit":
        from okf_explorer.cli.commands.audit import run_audit_command

        return run_audit_command(args)
    if command == "validate":
        from okf_explorer.cli.commands.validate import check_folder_source

        check_folder_source(args)
    handler = _HANDLERS[command]
    brain = open_brain(args, token_file=args.token_file)
    try:
        return handler(brain, args)
    finally:
        brain.close()


def open_brain(args: argparse.Namespace, *, token_file: Path | None) -> Brain:
    """The `Brain` over the source the arguments name (positional SRC wins)."""
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.factory import open_source

    spec = getattr(args, "src", None) or args.source
    source = open_source(spec, token_file=token_file, timeout=args.timeout)
    try:
        return Brain(source, scan=args.scan)
    except BaseException:
        source.close()
        raise


def _check_arguments(args: argparse.Namespace) -> None:
    parser = getattr(args, "command_parser", None)
    if getattr(args, "backlinks", False):
        if args.direction is not None:
            raise UsageError(parser, "--backlinks and --direction are mutually exclusive")
        args.direction = "in"
    if getattr(args, "direction", "out") is None:
        args.direction = "out"
    if hasattr(args, "depth"):
        args.depth = _clamped_depth(args.depth)
    if hasattr(args, "min_trust"):
        args.okf_filter = okf_filter_of(args)


def _clamped_depth(depth: int) -> int:
    clamped = clamp_depth(depth)
    if clamped != depth:
        note(f"depth {depth} clamped to {clamped} (depth is 1 to {DEPTH_CAP})")
    return clamped


# --- commands ----------------------------------------------------------------


def _get(brain: Brain, args: argparse.Namespace) -> int:
    page = fetch_page(brain, args.slug)
    if not page.readable and not args.json:  # a source may hand back a marked page
        kind = page.error_kind or "unreadable"
        raise PageUnreadable(page.slug, page.error or "unknown reason", kind)
    if args.json:
        emit(json_text(page.to_json(), indent=2) + "\n")
        return 0
    body = page.content.rstrip("\n") + "\n"
    # On a terminal the body's controls would drive it (retitle, clear, reorder);
    # piped or redirected, the bytes stay exact.
    emit(printable_body(body) if _stdout_is_terminal() else body)
    return 0


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (ValueError, OSError):  # closed: the write that follows reports it
        return False


def _list(brain: Brain, args: argparse.Namespace) -> int:
    pages = brain.pages(type=args.type, tag=args.tag)
    pages = filtered_pages(brain, pages, args.okf_filter)
    if args.n is not None:
        pages = pages[: args.n]
    if args.json:
        emit(json_text([page_record(p) for p in pages], indent=2) + "\n")
    else:
        emit("".join(f"{printable(p.slug)}\t{printable(p.type or '-')}\n" for p in pages))
    return 0


def _links(brain: Brain, args: argparse.Namespace) -> int:
    if getattr(args, "explain", False) and args.json:
        raise UsageError(args.command_parser, "--explain and --json are mutually exclusive")
    slug = resolve_name(brain, args.slug)
    edges = _walk(brain, slug, args)
    if getattr(args, "explain", False):
        emit("".join(explain_lines(brain, edges)))
    elif args.json:
        emit_pieces(render_edges(brain, edges, "json", slug, args.depth, args.direction))
    else:
        emit("".join(f"{printable(node)}\n" for node in unique_targets(edges)))
    return 0


def _export(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.core.export.formats import write_export

    slug = resolve_name(brain, args.slug)
    edges = _walk(brain, slug, args)
    fmt = export_format(args.format, args.output)
    pieces = render_edges(brain, edges, fmt, slug, args.depth, args.direction)
    if args.output is None or args.output == "-":
        emit_pieces(pieces)
        return 0
    written = write_export(Path(args.output), pieces, forbidden_root=brain.local_root, fmt=fmt)
    count = len(edges)
    note(f"exported {count} edge{'' if count == 1 else 's'} to {written}")
    return 0


def _walk(brain: Brain, slug: str, args: argparse.Namespace) -> list[Edge]:
    """The walk `links` and `export` print, kept to the `--rel` relations if given (a
    note on stderr when a relation asked for is not in the graph: a likely typo),
    and to `--status` / `--min-trust` (`core.okf.filter`: edges between pages that
    pass, reached from the root through them; the root always passes)."""
    rels = args.rel
    edges = brain.traverse(slug, args.depth, args.direction, rels)
    if rels and not edges and brain.answered_by == "index":
        known = brain.relations()
        missing = [rel for rel in dict.fromkeys(rels) if rel not in known]
        if missing:
            note(f"no edge has relation {', '.join(missing)} (relations here: {', '.join(known)})")
    return filtered_walk(brain, edges, slug, args.depth, args.okf_filter)


def _browse(brain: Brain, args: argparse.Namespace) -> int:
    """Run the TUI; without a terminal, say so in one line and exit 1 (it would hang)."""
    from okf_explorer.tui.app import NoTerminal, make_app

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
        return int(getattr(app, "return_code", 0) or 0)
    finally:
        if against is not None:
            against.close()


def _against_server(brain: Brain, args: argparse.Namespace) -> McpSource | None:
    """The server `browse FOLDER --against URL` compares the folder with (the token from
    `--token-file`, else `$GBRAIN_TOKEN`), or None; exit 2 unless the brain is a folder
    and URL a server."""
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


def _serve(args: argparse.Namespace) -> int:
    """`serve`: here `--token-file` is the token clients must send; an MCP source
    being re-served authenticates with `$GBRAIN_TOKEN`."""
    from okf_explorer.server import run_server
    from okf_explorer.sources.factory import read_token

    token = read_token(args.token_file).value if args.token_file is not None else None
    brain = open_brain(args, token_file=None)
    try:
        return run_server(brain, host=args.host, port=args.port, stdio=args.stdio, token=token)
    finally:
        brain.close()


def _web(args: argparse.Namespace) -> int:
    """`web`: `--token-file` is the token browsers must give, as for `serve`; each
    browser session runs `browse` on the same source in a process of its own."""
    from okf_explorer.sources.factory import read_token
    from okf_explorer.tui.web.server import run_web

    token = read_token(args.token_file).value if args.token_file is not None else None
    brain = open_brain(args, token_file=None)
    try:
        return run_web(brain, web_session_argv(args), host=args.host, port=args.port, token=token)
    finally:
        brain.close()


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


def _stats(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.stats import run_stats

    return run_stats(brain, args)


def _validate(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.validate import run_validate

    return run_validate(brain, args)


def _search(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.search import run_search

    return run_search(brain, args)


def _mentions(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.search import run_mentions

    return run_mentions(brain, args, resolve_name(brain, args.slug))


def _path(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.path import run_path

    return run_path(brain, args)


def _walk_command(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.walk import run_walk

    return run_walk(brain, args)


def _save(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.cli.commands.save import run_save

    return run_save(brain, args)


CommandHandler = Callable[["Brain", argparse.Namespace], int]

_HANDLERS: dict[str, CommandHandler] = {
    "browse": _browse,
    "get": _get,
    "list": _list,
    "links": _links,
    "export": _export,
    "stats": _stats,
    "validate": _validate,
    "search": _search,
    "mentions": _mentions,
    "path": _path,
    "walk": _walk_command,
    "save": _save,
}
"""The commands that run over an open brain (`serve` opens its own)."""
