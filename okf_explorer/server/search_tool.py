"""gbrain's `search` tool over our own text index (GBRAIN_PROTOCOL: gbrain's
`src/core/ops/search.ts`): `{query, limit?, offset?, types?, snippet_chars?}`
→ a list of `{slug, page_id, title, type, chunk_text, chunk_source, chunk_id,
chunk_index, score, stale, source_id, id}`, best first.

Differences, by design: our index has one chunk per page (`chunk_index` 0,
`chunk_source` `compiled_truth`), whose `chunk_text` is the text around the
hits (about `CHUNK_WORDS` words) rather than a stored chunk; `page_id` and
`chunk_id` are the page's place in slug order (1-based), stable while the
set of pages is. The query is our search syntax (`core.search.query`); a
query that is not valid syntax is searched as its plain words, as gbrain does
with any text. `limit` defaults to 20 and is clamped to `SEARCH_CAP`.

A query past the caps of `core.search.query` is an `invalid_params` error,
refused before any work; one that runs past the search deadline is an
`internal_error` saying so (as gbrain answers a database timeout).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from okf_explorer.core.search.query import (
    QueryTooLong,
    SearchSyntaxError,
    parse_query,
    words_query,
)
from okf_explorer.core.search.text_index import HIT_CLOSE, HIT_OPEN
from okf_explorer.server.params import (
    SOURCE_ID,
    invalid,
    optional_int,
    optional_str,
    required_str,
)

SEARCH_DEFAULT = 20
SEARCH_CAP = 100
CHUNK_WORDS = 48
TRUNCATED = "… [truncated]"


def search(brain: Any, args: Mapping[str, Any]) -> Any:
    text = required_str(args, "query")
    limit = optional_int(args, "limit")
    limit = SEARCH_DEFAULT if not limit or limit <= 0 else min(limit, SEARCH_CAP)
    offset = max(0, optional_int(args, "offset") or 0)
    types = _types(args)
    cap = optional_int(args, "snippet_chars")
    optional_str(args, "mode")  # accepted, and ignored: a remote caller's mode is (gbrain)
    try:
        query = parse_query(text)
    except QueryTooLong as error:
        raise invalid(str(error)) from None
    except SearchSyntaxError:
        query = None
    searcher = brain.text_search()
    hits = None
    if query is not None:
        try:
            hits = searcher.search(
                _with_types(query, types), limit, offset=offset, tokens=CHUNK_WORDS
            )
        except SearchSyntaxError:
            hits = None
    if hits is None:
        try:
            query = words_query(text)
        except QueryTooLong as error:
            raise invalid(str(error)) from None
        except SearchSyntaxError:
            return []
        hits = searcher.search(_with_types(query, types), limit, offset=offset, tokens=CHUNK_WORDS)
    order = {slug: i for i, slug in enumerate(brain.ensure_index().pages, 1)}
    return [_row(hit, order.get(hit.slug, 0), cap) for hit in hits]


def _types(args: Mapping[str, Any]) -> tuple[str, ...]:
    value = args.get("types")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise invalid('Parameter "types" must be an array of strings')
    return tuple(value)


def _with_types(query: Any, types: tuple[str, ...]) -> Any:
    return replace(query, types=types) if types else query


def _row(hit: Any, page_id: int, cap: int | None) -> dict[str, Any]:
    text = hit.snippet.replace(HIT_OPEN, "").replace(HIT_CLOSE, "")
    if cap is not None and cap > 0 and len(text) > cap:
        text = text[:cap] + TRUNCATED
    return {
        "slug": hit.slug,
        "page_id": page_id,
        "title": hit.title,
        "type": hit.type,
        "chunk_text": text,
        "chunk_source": "compiled_truth",
        "chunk_id": page_id,
        "chunk_index": 0,
        "score": hit.score,
        "stale": False,
        "source_id": SOURCE_ID,
        "id": hit.slug,
    }
