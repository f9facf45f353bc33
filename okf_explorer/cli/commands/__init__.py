"""The command line's commands, one module per family: `run_command` checks what argparse
could not, opens the brain the arguments name, then hands both to the command's family.

- `pages`: get, list, links, export; `graph`: stats, path, walk; `search`: search,
  mentions; `save`; `validate`; `audit`; `serve`: serve, web, browse.
- Most commands run over the `Brain` this module opens from the arguments (`open_brain`,
  closed after); `serve`, `web`, `validate` and `audit` open what they need themselves
  (another token, a folder check first, two sources).
- The families find pages by the names typed here too: `fetch_page`, `resolve_name`
  (a name that is no page suggests close ones), `note_unknown_relations`.
- A family is imported when its command runs, so `links` never loads the exporters,
  the TUI or the audit.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from okf_explorer.cli.parser import source_among
from okf_explorer.cli.reporting import UsageError, note
from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.graph.traverse import DEPTH_CAP, clamp_depth

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.okf.filter import OkfFilter
    from okf_explorer.core.pages import Page

OVER_A_BRAIN: dict[str, tuple[str, str]] = {
    "browse": ("serve", "run_browse"),
    "get": ("pages", "run_get"),
    "list": ("pages", "run_list"),
    "links": ("pages", "run_links"),
    "export": ("pages", "run_export"),
    "stats": ("graph", "run_stats"),
    "analyze": ("graph", "run_analyze"),
    "path": ("graph", "run_path"),
    "walk": ("graph", "run_walk"),
    "search": ("search", "run_search"),
    "mentions": ("search", "run_mentions"),
    "save": ("save", "run_save"),
}
"""Command → (family module, function taking the open brain and the arguments)."""

ON_THEIR_OWN: dict[str, tuple[str, str]] = {
    "serve": ("serve", "run_serve"),
    "web": ("serve", "run_web"),
    "validate": ("validate", "run_validate"),
    "audit": ("audit", "run_audit_command"),
}
"""Command → (family module, function taking the arguments alone)."""


def run_command(args: argparse.Namespace) -> int:
    """Validate what argparse could not, open the brain, run the command."""
    command = args.command or "browse"
    check_arguments(args)
    if command in ON_THEIR_OWN:
        run_alone: Callable[[argparse.Namespace], int] = _function(*ON_THEIR_OWN[command])
        return run_alone(args)
    run: Callable[[Brain, argparse.Namespace], int] = _function(*OVER_A_BRAIN[command])
    brain = open_brain(args, token_file=args.token_file)
    try:
        return run(brain, args)
    finally:
        brain.close()


def _function(family: str, name: str) -> Callable[..., int]:
    module = importlib.import_module(f"{__name__}.{family}")
    function: Callable[..., int] = getattr(module, name)
    return function


def check_arguments(args: argparse.Namespace) -> None:
    """Before any source is opened: `--backlinks` is `--direction in` (not both), the
    depth is clamped to 1-10 with a note, and `--status` / `--min-trust` are checked."""
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
    if args.command == "search" and (place := source_among(args.query)) is not None:
        raise UsageError(
            parser, f"{place!r} is a source, not a search word: give it as --source {place}"
        )


def _clamped_depth(depth: int) -> int:
    clamped = clamp_depth(depth)
    if clamped != depth:
        note(f"depth {depth} clamped to {clamped} (depth is 1 to {DEPTH_CAP})")
    return clamped


def okf_filter_of(args: argparse.Namespace) -> OkfFilter:
    """The filter `--status` / `--min-trust` ask for (semantics in `core.okf.filter`); an
    unknown status or tier is a usage error (exit 2)."""
    from okf_explorer.core.okf.filter import FilterError, OkfFilter, parse_statuses, parse_trust

    try:
        return OkfFilter(parse_statuses(args.status), parse_trust(args.min_trust))
    except FilterError as error:
        raise UsageError(getattr(args, "command_parser", None), str(error)) from None


# --- the brain and its pages, by the names typed --------------------------------------


def open_brain(args: argparse.Namespace, *, token_file: Path | None) -> Brain:
    """The `Brain` over the source the arguments name (positional SRC wins)."""
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.factory import open_source

    spec = getattr(args, "src", None) or args.source
    source = open_source(spec, token_file=token_file, timeout=args.timeout)
    # a person waits on a terminal: a long index build says so (never to a script)
    progress = LongScanNote() if sys.stderr.isatty() else None
    try:
        return Brain(source, scan=args.scan, progress=progress)
    except BaseException:
        source.close()
        raise


LONG_SCAN = 10_000
"""An index build scanning this many pages or more says so on a terminal (a 35k-page
wiki's first command took 10 s in silence)."""


class LongScanNote:
    """An index build's progress: one line on stderr, the first time it hears of a build
    scanning `LONG_SCAN` pages or more."""

    def __init__(self) -> None:
        self._said = False

    def __call__(self, done: int, total: int) -> None:
        if not self._said and total >= LONG_SCAN:
            self._said = True
            note(f"indexing {total:,} pages, once (later runs read only what changed)")


def fetch_page(brain: Brain, name: str) -> Page:
    """The page `name` names: the exact slug first (no index needed unless its title
    comes from its heading: `Brain.titled_page`), then resolution."""
    try:
        return brain.titled_page(name)
    except PageNotFound:
        slug = brain.resolve_slug(name)
        if slug is None:
            raise not_found(brain, name) from None
        if slug == name:
            raise
        return brain.titled_page(slug)


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
