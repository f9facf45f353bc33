"""`okf-explorer get | list | links | export`: pages and the links between them.

Output rules (SPEC §6, and choices where it is silent; every family follows the first):
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
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from okf_explorer.cli.commands import fetch_page, note_unknown_relations, resolve_name
from okf_explorer.cli.reporting import UsageError, emit, emit_pieces, note
from okf_explorer.core.errors import PageUnreadable
from okf_explorer.core.graph.traverse import Direction, Edge
from okf_explorer.core.okf.filter import (
    OkfFilter,
    filter_pages,
    filter_walk,
)
from okf_explorer.core.text_safety import json_text, printable, printable_body

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.pages import PageInfo

LIST_JSON_KEYS = ("slug", "title", "type", "tags", "updated_at", "reserved", "readable", "error")
SUFFIX_FORMATS = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".dot": "dot",
    ".gv": "dot",
    ".graphml": "graphml",
    ".mmd": "mermaid",
    ".mermaid": "mermaid",
}


def run_get(brain: Brain, args: argparse.Namespace) -> int:
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


def run_list(brain: Brain, args: argparse.Namespace) -> int:
    pages = brain.pages(type=args.type, tag=args.tag)
    pages = filtered_pages(brain, pages, args.okf_filter)
    if args.n is not None:
        pages = pages[: args.n]
    if args.json:
        emit(json_text([page_record(p) for p in pages], indent=2) + "\n")
    else:
        emit("".join(f"{printable(p.slug)}\t{printable(p.type or '-')}\n" for p in pages))
    return 0


def page_record(info: PageInfo) -> dict[str, Any]:
    """One page as `list --json` prints it; `tags` is null while unknown (a gbrain
    listing carries no tags: they come with a scan, `--scan`)."""
    record = {key: getattr(info, key) for key in LIST_JSON_KEYS}
    record["tags"] = list(info.tags) if info.tags_known else None
    return record


def run_links(brain: Brain, args: argparse.Namespace) -> int:
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


def run_export(brain: Brain, args: argparse.Namespace) -> int:
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
    edges = brain.traverse(slug, args.depth, args.direction, rels, implied=args.implied)
    if rels and not edges and brain.answered_by == "index":
        note_unknown_relations(brain, rels)
    return filtered_walk(brain, edges, slug, args.depth, args.okf_filter)


def export_format(given: str | None, output: str | None) -> str:
    """`--format` if given, else what the `-o` file's suffix says, else JSON (SPEC §5)."""
    if given is not None:
        return given
    if output and output != "-":
        return SUFFIX_FORMATS.get(Path(output).suffix.lower(), "json")
    return "json"


def render_edges(
    brain: Brain, edges: list[Edge], fmt: str, root: str, depth: int, direction: Direction
) -> Iterator[str]:
    """The slice in `fmt`, a record at a time (`core.export.formats.render_pieces`),
    nodes labelled with their titles when the index already knows them."""
    from okf_explorer.core.export.formats import render_pieces

    index = brain.index
    titles = None if index is None else {slug: info.title for slug, info in index.pages.items()}
    return render_pieces(edges, fmt, root=root, depth=depth, direction=direction, titles=titles)


def explain_lines(brain: Brain, edges: Iterable[Edge]) -> list[str]:
    """The `links --explain` lines of `edges` (format in the module docstring)."""
    from okf_explorer.core.graph.explain import explain_edges

    return [
        "\t".join(map(printable, explained.fields())) + "\n"
        for explained in explain_edges(brain.link_between, edges)
    ]


def unique_targets(edges: Iterable[Edge]) -> list[str]:
    """The distinct `to` nodes of `edges`, in edge order."""
    return list(dict.fromkeys(edge.to for edge in edges))


# --- `--status S` / `--min-trust T` (semantics in `core.okf.filter`) -----------------
# A filter needs each page's frontmatter: over a server (whose listing carries none)
# the pages are read once, through the index.


def filtered_pages(brain: Brain, pages: Sequence[PageInfo], keep: OkfFilter) -> list[PageInfo]:
    """`pages` that pass `keep`, each judged by its indexed frontmatter."""
    if not keep.active:
        return list(pages)
    known = brain.ensure_index().pages
    return filter_pages([known.get(info.slug, info) for info in pages], keep)


def filtered_walk(
    brain: Brain, edges: list[Edge], root: str, depth: int, keep: OkfFilter
) -> list[Edge]:
    """The walk's edges between pages that pass, reached from `root` through them."""
    if not keep.active:
        return edges
    return filter_walk(edges, root, depth, keep, brain.ensure_index().pages)
