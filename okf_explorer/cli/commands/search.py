"""`okf-explorer search QUERY` and `okf-explorer mentions SLUG`.

`search` prints one hit a line, best first: `SLUG<TAB>SNIPPET`, where the
snippet is one line of the page's text around the hits, each hit between
`«` and `»` (`HIT_OPEN_MARK` / `HIT_CLOSE_MARK`). `--json` prints a JSON array
of `{"slug", "title", "type", "score", "snippet"}` (score: higher is better;
the snippet marked the same way). Query syntax: words (ranked by how many a page holds),
`"a phrase"`, `prefix*`, `OR`, `NOT`, parentheses, and the filters `type:T`,
`tag:T`, `path:PREFIX` (see `core.search.query`); plain words past the first 32 are
not searched for (a line on stderr says how many). The pages a vault's Obsidian settings
exclude (`core.excluded`) are left out unless `--excluded`. Bad syntax exits 2. On a
terminal, a first search reading `LONG_FILL` pages or more says so in one line on
stderr.

`mentions` prints one page a line, in slug order: `SLUG<TAB>SENTENCE`, the
mention in the sentence between `«` and `»`. `--json`: an array of
`{"slug", "title", "sentence", "start", "end"}` (the mention is
`sentence[start:end]`, unmarked).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from okf_explorer.cli.commands import resolve_name
from okf_explorer.cli.reporting import UsageError, emit, note
from okf_explorer.core.search.query import SearchSyntaxError, parse_query
from okf_explorer.core.search.text_index import LONG_FILL
from okf_explorer.core.text_safety import printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain

HIT_OPEN_MARK, HIT_CLOSE_MARK = "«", "»"


def run_search(brain: Brain, args: argparse.Namespace) -> int:
    if sys.stderr.isatty():  # a person waits: a long first fill says so (never a script)
        brain.text_search().prepare(_say_long_fill, embeddings=False)
    try:
        query = parse_query(" ".join(args.query))
        hits = brain.text_search().search(query, args.limit, everything=args.excluded)
    except SearchSyntaxError as error:
        raise UsageError(args.command_parser, str(error)) from None
    if query.cut:
        searched = len(query.terms)
        note(f"searched for the query's first {searched} words, not its other {query.cut}")
    if args.json:
        records = [
            {
                "slug": hit.slug,
                "title": hit.title,
                "type": hit.type,
                "score": round(hit.score, 6),
                "snippet": hit.marked(HIT_OPEN_MARK, HIT_CLOSE_MARK),
            }
            for hit in hits
        ]
        emit(json.dumps(records, ensure_ascii=False, indent=2) + "\n")
        return 0
    lines = [
        f"{printable(hit.slug)}\t{printable(hit.marked(HIT_OPEN_MARK, HIT_CLOSE_MARK))}\n"
        for hit in hits
    ]
    emit("".join(lines))
    return 0


def _say_long_fill(done: int, total: int) -> None:
    """On a terminal: one line on stderr as a long text index fill starts."""
    if done == 0 and total >= LONG_FILL:
        note(f"reading {total:,} pages for full-text search, once (later: what changed)")


def run_mentions(brain: Brain, args: argparse.Namespace) -> int:
    """Mentions of the page the name given resolves to."""

    mentions = brain.unlinked_mentions(resolve_name(brain, args.slug))
    if mentions.partial:
        note(
            f"read {mentions.checked:,} of the {mentions.holding:,} pages holding its name"
            " (those where it weighs most): others may mention it too"
        )
    found = mentions.found
    if args.json:
        emit(json.dumps([m.to_json() for m in found], ensure_ascii=False, indent=2) + "\n")
        return 0
    emit("".join(f"{printable(m.slug)}\t{printable(m.marked())}\n" for m in found))
    return 0
