"""`okf-explorer save SLUG… --as NEW_SLUG`: a slice or a trail saved as a page.

Without `--trail` the SLUGs are the roots of one slice (each walked at
`--depth`/`--direction`/`--rel`, the edges in root order, a repeated edge kept
once); with `--trail` they are the pages of a trail in order, each step the link
followed between two neighbours (`out`, or `in` when only the later page links to
the earlier one), or `jump` when neither links to the other.

Output: `OUTCOME<TAB>SLUG<TAB>WHERE` on stdout for `written`/`unchanged` (exit 0);
any other outcome exits 1 with `okf-explorer: OUTCOME: DETAIL` on stderr. `--json`
prints `{"outcome", "slug", "where", "detail", "attempts", "idempotency_key"}` in
every case (stdout). `--dry-run` prints the page that would be written (with
`--json`: outcome `dry-run` and the `text`), constructs no writer and sends the
brain no request beyond the reads the slice needs.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from okf_explorer.cli.commands import resolve_name
from okf_explorer.cli.reporting import UsageError, emit
from okf_explorer.core.port import SaveResult
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain

EXIT_FAILURE = 1


def run_save(brain: Brain, args: argparse.Namespace) -> int:
    """Check the name, draft the page (`core.save`), then print it (`--dry-run`)
    or save it and say what happened."""
    from okf_explorer.core import save
    from okf_explorer.sources.factory import check_target

    try:
        new_slug = check_target(brain.source, args.new_slug)
    except ValueError as error:
        raise UsageError(args.command_parser, f"--as: {error}") from None
    names = [resolve_name(brain, name) for name in args.slug]
    if args.trail:
        graph = save.trail_of(brain, names)
    else:
        graph = save.slice_of(brain, names, args.depth, args.direction, args.rel)
    draft = save.draft_page(brain, graph)
    if args.dry_run:
        if args.json:
            record = {
                "outcome": "dry-run",
                "slug": new_slug,
                "where": None,
                "detail": "",
                "attempts": 0,
                "idempotency_key": draft.key,
                "text": draft.text,
            }
            emit(json_text(record) + "\n")
        else:
            emit(draft.text)
        return 0
    from okf_explorer.sources.factory import writer_for

    result = save.save_draft(brain, draft, new_slug, writer_for(brain.source))
    return _report(result, draft.key, as_json=args.json)


def _report(result: SaveResult, key: str, *, as_json: bool) -> int:
    if as_json:
        record = {
            "outcome": str(result.outcome),
            "slug": result.slug,
            "where": result.where,
            "detail": result.detail,
            "attempts": result.attempts,
            "idempotency_key": key,
        }
        emit(json_text(record) + "\n")
    elif result.outcome.saved:
        emit(f"{result.outcome}\t{printable(result.slug)}\t{printable(result.where)}\n")
    if result.outcome.saved:
        return 0
    sys.stdout.flush()
    sys.stderr.write(f"okf-explorer: {result.outcome}: {printable(result.detail)}\n")
    return EXIT_FAILURE
