"""What the CLI commands share: pages by the name typed, export formats, the
`links --explain` lines, `list --json` records, and output to stdout and stderr."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.graph.traverse import Direction, Edge
from okf_explorer.core.text_safety import printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.pages import Page, PageInfo

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


def export_format(given: str | None, output: str | None) -> str:
    """`--format` if given, else what the `-o` file's suffix says, else JSON (SPEC §5)."""
    if given is not None:
        return given
    if output and output != "-":
        return SUFFIX_FORMATS.get(Path(output).suffix.lower(), "json")
    return "json"


def fetch_page(brain: Brain, name: str) -> Page:
    """The page `name` names: the exact slug first (no index needed), then resolution."""
    try:
        return brain.page(name)
    except PageNotFound:
        slug = brain.resolve_slug(name)
        if slug is None:
            raise not_found(brain, name) from None
        if slug == name:
            raise
        return brain.page(slug)


def resolve_name(brain: Brain, name: str) -> str:
    """A user-typed page name → its slug, or `PageNotFound`."""
    slug = brain.resolve_slug(name)
    if slug is None:
        raise not_found(brain, name)
    return slug


def not_found(brain: Brain, name: str) -> PageNotFound:
    """`PageNotFound` for `name`, suggesting up to three close pages (typos happen)."""
    close = brain.suggest(name)
    detail = f"did you mean {' or '.join(close)}?" if close else ""
    return PageNotFound(name, detail)


WRITTEN = {"wiki": "[[{}]]", "embed": "![[{}]]", "markdown": "({})"}
"""How a link of each kind is written (the WRITTEN field of `links --explain`)."""


def explain_lines(brain: Brain, edges: Iterable[Edge]) -> list[str]:
    """The `links --explain` lines of `edges` (format in `cli_commands`' docstring)."""
    lines: dict[tuple[str, str], str] = {}
    for edge in edges:
        frm, to = (edge.frm, edge.to) if edge.direction == "out" else (edge.to, edge.frm)
        if (frm, to) in lines:
            continue
        link = brain.link_between(frm, to)
        if link is None:
            lines[frm, to] = f"{printable(frm)}\t-\t{printable(to)}\t-\n"
            continue
        fields = [frm, WRITTEN[link.kind].format(link.target), link.to, link.rule]
        if link.ambiguous:
            fields.extend(link.candidates)
        lines[frm, to] = "\t".join(map(printable, fields)) + "\n"
    return list(lines.values())


def unique_targets(edges: Iterable[Edge]) -> list[str]:
    """The distinct `to` nodes of `edges`, in edge order."""
    return list(dict.fromkeys(edge.to for edge in edges))


def page_record(info: PageInfo) -> dict[str, Any]:
    """One page as `list --json` prints it; `tags` is null while unknown (a gbrain
    listing carries no tags: they come with a scan, `--scan`)."""
    record = {key: getattr(info, key) for key in LIST_JSON_KEYS}
    record["tags"] = list(info.tags) if info.tags_known else None
    return record


def render_edges(
    brain: Brain, edges: list[Edge], fmt: str, root: str, depth: int, direction: Direction
) -> Iterator[str]:
    """The slice in `fmt`, a record at a time (`core.export.formats.render_pieces`)."""
    from okf_explorer.core.export.formats import render_pieces

    titles = titles_of(brain)
    return render_pieces(edges, fmt, root=root, depth=depth, direction=direction, titles=titles)


def titles_of(brain: Brain) -> dict[str, str] | None:
    """Page titles for formats that label nodes, when the index already knows them."""
    index = brain.index
    if index is None:
        return None
    return {slug: info.title for slug, info in index.pages.items()}


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
