"""What the command families share: the brain the arguments name, pages by the name
typed, and output to stdout and stderr (one write each, so a broken pipe stops cleanly)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.text_safety import printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.pages import Page


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


def note_unknown_relations(brain: Brain, rels: Iterable[str]) -> None:
    """A note naming the relations asked for that no edge has (a likely typo)."""
    known = brain.relations()
    missing = [rel for rel in dict.fromkeys(rels) if rel not in known]
    if missing:
        note(f"no edge has relation {', '.join(missing)} (relations here: {', '.join(known)})")


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
