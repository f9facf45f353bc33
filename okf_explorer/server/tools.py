"""The read-only tools: plain functions over a `Brain`, with gbrain's names,
arguments, reply shapes and errors (GBRAIN_PROTOCOL §4-§5, SPEC §7), and what
`tools/list` says of them (`TOOL_SPECS`).

`call_tool(brain, name, arguments)` is the one entry the transports use: it
never raises, and returns a `ToolReply` whose `text` is what goes into
`content[0].text` (pretty JSON on success, compact JSON on errors).

The schemas describe what gbrain accepts; the tools validate arguments themselves
(`required_str`, `optional_int`, ...), so the SDK's own schema validation stays off and
unknown keys are accepted (`additionalProperties` is left open; each is answered with
an `unknown_param` warning). Tool errors and argument messages have gbrain's exact
wording (GBRAIN_PROTOCOL §5): clients written against gbrain match on the `error` code
and sometimes on the message, so the texts are copied from a real gbrain server.

Private pages: a page whose frontmatter says `visibility: private` is kept from every
caller, as gbrain keeps it from every MCP caller (stdio and HTTP alike, gbrain 0.46.28's
`private-visibility`): it reads exactly as a page that does not exist (`page_not_found`,
`[]`), is in no listing, search, slug resolution or orphan count, and every link to or
from it is left out of the link and graph tools. `serve --show-private` shows them
(`call_tool`'s `show_private`), as gbrain's operator opt-out does.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, Protocol

from okf_explorer.core.errors import Cancelled, OkfError, PageNotFound, PageUnreadable
from okf_explorer.core.graph.traverse import DEPTH_CAP, DIRECTIONS, clamp_depth
from okf_explorer.core.pages import Page, is_private
from okf_explorer.core.port import CancelCheck, relation_of
from okf_explorer.core.search.find_rank import Findable, rank_pages
from okf_explorer.core.search.query import (
    QueryTooLong,
    SearchSyntaxError,
    parse_query,
    words_query,
)
from okf_explorer.core.search.text_index import HIT_CLOSE, HIT_OPEN
from okf_explorer.server import walk
from okf_explorer.server.limits import TRAVERSE_ROW_CAP, Truncated, capped
from okf_explorer.server.shapes import (
    CONTEXTS,
    SOURCE_ID,
    BrainLike,
    ContextCache,
    LinkReader,
    canonical_markdown,
    decode_cursor,
    gbrain_link_type,
    list_row,
    page_record,
    referrer_page,
    referrer_type,
)

log = logging.getLogger(__name__)

LIST_DEFAULT = 50
LIST_CAP = 100
SORTS = ("updated_desc", "updated_asc", "created_desc", "slug")
GBRAIN_DIRECTIONS = ("in", "out", "both")
FUZZY_CANDIDATES = 10

CANCEL: ContextVar[CancelCheck | None] = ContextVar("okf_tool_cancel", default=None)
"""The running call's `cancel` (see `call_tool`), for the tools whose work can be long."""
GBRAIN_CURRENT = "current"
GBRAIN_PINNED = "0.46.28"
GBRAIN_SHAPES = (GBRAIN_CURRENT, GBRAIN_PINNED)
"""Whose shapes the tools give where gbrain changed them: current gbrain's (v0.48.1 on),
or those of the pinned 0.46.28 (`serve --gbrain-shapes 0.46.28`, for clients written
against it). Only `traverse_graph` without `direction` differs (see there)."""
SHAPES: ContextVar[str] = ContextVar("okf_gbrain_shapes", default=GBRAIN_CURRENT)
PRIVATE_SHOWN: ContextVar[bool] = ContextVar("okf_private_shown", default=False)
"""Whether the running call sees private pages (`call_tool`'s `show_private`)."""
REMOTE_BOTH_DEPTH = 2
"""gbrain v0.48.1: a remote `traverse_graph` that leaves direction and depth to default
walks both ways at this depth (a bidirectional walk is combinatorial on hubs)."""
BACKLINK_PAGE_DEFAULT = 50
BACKLINK_PAGE_CAP = 500
SEARCH_DEFAULT = 20
SEARCH_CAP = 100
CHUNK_WORDS = 48
TRUNCATED = "… [truncated]"


# --- what `tools/list` says ------------------------------------------------------------

_SLUG = {"type": "string", "description": "Page slug, e.g. people/alice"}
_DEPTH = {"type": "number", "description": "Max hops (default 5, or 2 without direction; 1..10)"}


def object_schema(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """A tool's `inputSchema`: an object of `properties`, `required` ones named."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


_RESULTS: dict[str, Any] = {
    "limit": {"type": "number", "description": "Max results (default 20, max 100)"},
    "offset": {"type": "number", "description": "Skip first N results"},
    "types": {
        "type": "array",
        "items": {"type": "string"},
        "description": "Only pages whose type is in this list",
    },
    "snippet_chars": {
        "type": "number",
        "description": "Cap each chunk_text at N characters (0: no cap)",
    },
}
"""The arguments `search` and `query` share: which rows, and how much of each."""
TOOL_SPECS: dict[str, dict[str, Any]] = {
    "get_page": {
        "description": "Read a page by slug (supports fuzzy slug matching).",
        "inputSchema": object_schema(
            {
                "slug": _SLUG,
                "fuzzy": {"type": "boolean", "description": "Resolve a partial or titled name"},
                "include_content": {
                    "type": "boolean",
                    "description": "Add `content`: frontmatter plus body as Markdown",
                },
            },
            ("slug",),
        ),
    },
    "list_pages": {
        "description": "List pages with optional filters (at most 100 per call; page with offset).",
        "inputSchema": object_schema(
            {
                "type": {"type": "string", "description": "Exact page type"},
                "tag": {"type": "string", "description": "Exact tag"},
                "limit": {"type": "number", "description": "Max results (default 50, max 100)"},
                "offset": {"type": "number", "description": "Skip this many rows"},
                "sort": {
                    "type": "string",
                    "enum": ["updated_desc", "updated_asc", "created_desc", "slug"],
                    "description": "Order (default updated_desc)",
                },
                "updated_after": {
                    "type": "string",
                    "description": "Only pages updated strictly after this date or timestamp",
                },
            }
        ),
    },
    "get_links": {
        "description": "Outgoing links of a page (existing targets only).",
        "inputSchema": object_schema({"slug": _SLUG}, ("slug",)),
    },
    "get_backlinks": {
        "description": 'Links to a page; group:"page" pages by referrer, newest first.',
        "inputSchema": object_schema(
            {
                "slug": _SLUG,
                "type": {"type": "string", "description": "Referrer type."},
                "group": {"type": "string", "enum": ["page"], "description": "Per page."},
                "limit": {"type": "number", "description": "Max 500."},
                "cursor": {"type": "string", "description": "Paging."},
            },
            ("slug",),
        ),
    },
    "traverse_graph": {
        "description": (
            "Walk the link graph from a page: edges with depth (GraphPath[]). Without "
            "direction, both ways, at depth 2 unless depth is given."
        ),
        "inputSchema": object_schema(
            {
                "slug": _SLUG,
                "depth": _DEPTH,
                "link_type": {"type": "string", "description": "Only edges of this type (links)"},
                "direction": {
                    "type": "string",
                    "enum": ["in", "out", "both"],
                    "description": "Follow links out, in, or both (default both)",
                },
            },
            ("slug",),
        ),
    },
    "search": {
        "description": (
            "Full-text search of page text, best first (keyword index; no LLM call). "
            'Words, "phrases", prefix*, OR, NOT; filters type:T tag:T path:P.'
        ),
        "inputSchema": object_schema(
            {
                "query": {"type": "string", "description": "Search text"},
                **_RESULTS,
                "mode": {"type": "string", "description": "Accepted and ignored"},
            },
            ("query",),
        ),
    },
    "query": {
        "description": (
            "gbrain's search for questions in plain words. Here it ranks as search does: "
            "keywords, then the best pages of a question ranked again by word embeddings "
            "(no LLM call, no expansion)."
        ),
        "inputSchema": object_schema(
            {
                "query": {"type": "string", "description": "Question or topic text"},
                **_RESULTS,
                "expand": {"type": "boolean", "description": "Accepted and ignored"},
                "detail": {"type": "string", "description": "Accepted and ignored"},
            },
            ("query",),
        ),
    },
    "get_tags": {
        "description": "A page's tags ([] for a slug naming no page)",
        "inputSchema": object_schema({"slug": _SLUG}, ("slug",)),
    },
    "resolve_slugs": {
        "description": (
            "The slugs a partial slug or title finds, best first (the page finder's "
            "ranking: exact, prefix, substring, fuzzy; at most 10)"
        ),
        "inputSchema": object_schema(
            {"partial": {"type": "string", "description": "Partial slug or title text"}},
            ("partial",),
        ),
    },
    "find_orphans": {
        "description": (
            "Pages no other page links to, with their domain; OKF's index and log pages "
            "left out unless include_pseudo"
        ),
        "inputSchema": object_schema(
            {
                "include_pseudo": {
                    "type": "boolean",
                    "description": "Include index and log pages (default false)",
                }
            },
            (),
        ),
    },
    "fetch": {
        "description": (
            "The whole text of one search result by its id (the search/fetch pair of "
            "OpenAI's deep research): {id, title, text, url, metadata}."
        ),
        "inputSchema": object_schema(
            {"id": {"type": "string", "description": "A search row's id (the page's slug)"}},
            ("id",),
        ),
    },
    "memory_navigate": {
        "description": (
            "One-call navigation for agents: op get | list | links | backlinks | traverse "
            "(links and backlinks return slugs, traverse OKF edge records). Never fails: "
            "returns [] instead."
        ),
        "inputSchema": object_schema(
            {
                "op": {"type": "string", "enum": ["get", "list", "links", "backlinks", "traverse"]},
                "slug": _SLUG,
                "type": {"type": "string", "description": "list: exact page type"},
                "tag": {"type": "string", "description": "list: exact tag"},
                "limit": {"type": "number", "description": "list: max results (max 100)"},
                "offset": {"type": "number", "description": "list: skip this many rows"},
                "depth": {"type": "number", "description": "traverse: hops 1..10 (default 1)"},
                "direction": {
                    "type": "string",
                    "enum": ["out", "in", "both"],
                    "description": "traverse: default out",
                },
            },
            ("op",),
        ),
    },
}


# --- arguments and errors, in gbrain's words ------------------------------------------


@dataclass(frozen=True)
class ToolError(Exception):
    """A tool failure sent back as `isError: true` with `{"error": code, "message": …}`.

    `extra` keys are appended after `message` (e.g. `suggestion`).
    """

    code: str
    message: str
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message

    def payload(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def invalid(message: str) -> ToolError:
    return ToolError("invalid_params", message)


def page_not_found(slug: str) -> ToolError:
    return ToolError(
        "page_not_found",
        f"Page not found: {slug}",
        {"suggestion": "Page may be soft-deleted; pass include_deleted: true to verify"},
    )


SHUTTING_DOWN = ToolError("shutting_down", "the server is shutting down")


def is_hostile_slug(slug: str) -> bool:
    """Slugs that could name something outside the bundle: never looked up at all."""
    return not slug or ".." in slug or slug.startswith("/") or "\\" in slug or "\x00" in slug


def required_str(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    if value is None:
        raise invalid(f"Missing required parameter: {name}")
    if not isinstance(value, str):
        raise invalid(f'Parameter "{name}" must be a string')
    return value


def optional_str(args: Mapping[str, Any], name: str) -> str | None:
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise invalid(f'Parameter "{name}" must be a string')
    return value


def optional_bool(args: Mapping[str, Any], name: str) -> bool:
    value = args.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise invalid(f'Parameter "{name}" must be a boolean')
    return value


def optional_int(args: Mapping[str, Any], name: str) -> int | None:
    """A number argument as an int (fractions truncated); bools and strings are refused."""
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f'Parameter "{name}" must be a number')
    if isinstance(value, float) and value != value:  # NaN
        raise invalid(f'Parameter "{name}" must be a number')
    try:
        return int(value)
    except OverflowError:
        raise invalid(f'Parameter "{name}" must be a number') from None


def optional_enum(
    args: Mapping[str, Any], name: str, choices: Sequence[str], default: str | None
) -> str | None:
    value = args.get(name)
    if value is None:
        return default
    if not isinstance(value, str) or value not in choices:
        raise invalid(f'Parameter "{name}" must be one of: {", ".join(choices)}')
    return value


def parse_timestamp(value: str) -> datetime:
    """`YYYY-MM-DD` or an ISO 8601 timestamp as an aware datetime (naive → UTC).

    Garbage gives gbrain's reply, an `internal_error` quoting Postgres.
    """
    text = value.strip()
    try:
        if len(text) == 10:
            parsed = datetime.combine(date.fromisoformat(text), datetime.min.time())
        else:
            parsed = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        raise ToolError(
            "internal_error",
            f'invalid input syntax for type timestamp with time zone: "{value}"',
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


@functools.lru_cache(maxsize=1 << 18)
def timestamp_or_none(value: str | None) -> datetime | None:
    """A page's `updated_at` as a datetime, or None when absent or unparseable.

    Memoised: `list_pages` sorts every page by time on each call, and clients
    page through a corpus in hundreds of calls.
    """
    if not value:
        return None
    try:
        return parse_timestamp(value)
    except ToolError:
        return None


# --- the tools -------------------------------------------------------------------------


def _cancel_check() -> CancelCheck:
    return CANCEL.get() or _never


def _never() -> bool:
    return False


@dataclass(frozen=True)
class ToolReply:
    """One `tools/call` result: the JSON value, whether it is an error, and warnings."""

    value: Any
    is_error: bool = False
    warnings: list[dict[str, str]] = field(default_factory=list)
    truncated: bool = False

    @property
    def text(self) -> str:
        if self.is_error:
            return json.dumps(self.value, ensure_ascii=False, separators=(",", ":"))
        return json.dumps(self.value, ensure_ascii=False, indent=2)


class BrainTools(BrainLike, Protocol):
    """The `Brain` methods the tools call beyond `BrainLike`."""

    def ensure_index(self) -> Any: ...

    def pages(self, type: str | None = None, tag: str | None = None) -> list[Any]: ...

    def resolve_slug(self, name: str) -> str | None: ...

    def resolve_name(self, name: str) -> Any: ...

    def suggest(self, name: str, limit: int = 3) -> list[str]: ...

    def traverse(
        self,
        slug: str,
        depth: object = 1,
        direction: Any = "out",
        rels: Collection[str] | None = None,
        implied: bool = False,
        unseen: Collection[str] = (),
    ) -> list[Any]: ...

    def orphans(
        self, include_reserved: bool = False, unseen: Collection[str] = ()
    ) -> list[str]: ...

    def findables(self) -> list[Findable]: ...

    def private_pages(self) -> frozenset[str]: ...


def kept_from_caller(brain: BrainTools) -> frozenset[str]:
    """The pages the running call may not see: the private ones, unless it shows them
    (see the module doc)."""
    return frozenset() if PRIVATE_SHOWN.get() else brain.private_pages()


def shown_to_caller(page: Page) -> bool:
    """Whether the running call may see `page`, read from its own frontmatter: `get_page`
    and `fetch` read one file and never wait for the index."""
    return PRIVATE_SHOWN.get() or not is_private(page.frontmatter)


def _known(brain: BrainTools, slug: str) -> bool:
    """True for a slug naming a page the caller may see (hostile or dangling names never
    do)."""
    return (
        not is_hostile_slug(slug)
        and slug in brain.ensure_index().pages
        and slug not in kept_from_caller(brain)
    )


def get_page(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    slug = required_str(args, "slug")
    fuzzy = optional_bool(args, "fuzzy")
    include_content = optional_bool(args, "include_content")
    resolved = slug
    if fuzzy and not is_hostile_slug(slug):
        candidates = _fuzzy_candidates(brain, slug)
        if len(candidates) > 1:
            return {"error": "ambiguous_slug", "candidates": candidates}
        if candidates:
            resolved = candidates[0]
    if is_hostile_slug(resolved):
        raise page_not_found(slug)
    try:
        page = brain.page(resolved)
    except PageNotFound:
        raise page_not_found(slug) from None
    if not shown_to_caller(page):
        raise page_not_found(slug)
    record = page_record(brain, page, include_content=include_content)
    if fuzzy:
        record["resolved_slug"] = resolved
    return record


def _fuzzy_candidates(brain: BrainTools, name: str) -> list[str]:
    """The core resolver first (a name typed by a person, SPEC §3); else the core
    suggester's close pages (slugs, file names, titles, aliases).

    A name several pages match at the same rule (`orders` for `glossary/orders`
    and `tables/orders`) is ambiguous, as in gbrain: the candidates come in the
    resolver's tie order, so the caller picks.
    """
    kept = kept_from_caller(brain)
    resolution = brain.resolve_name(name)
    if resolution is not None:
        found = list(resolution.candidates) or [resolution.node]
    else:
        found = brain.suggest(name, FUZZY_CANDIDATES + len(kept))
    return [slug for slug in found if slug not in kept][:FUZZY_CANDIDATES]


def list_pages(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """gbrain's `list_pages`. `updated_at` is the file's mtime to the microsecond, and
    equal times are in slug order in every sort, so answers are reproducible.

    gbrain's recommended paging (`sort=updated_asc` + `updated_after=<last updated_at>`)
    returns every page once as long as no two pages share a microsecond. Files that
    do (copied with their times kept, or touched together) cannot be split by a
    strictly-greater-than filter: the part of such a tie after a page boundary is
    skipped. We do not nudge times to break ties (that would misreport them);
    `offset` paging is exact in every case, and is what our own client uses.
    """
    kind = optional_str(args, "type")
    tag = optional_str(args, "tag")
    limit = optional_int(args, "limit")
    offset = optional_int(args, "offset") or 0
    sort = optional_enum(args, "sort", SORTS, "updated_desc")
    after_text = optional_str(args, "updated_after")
    after = parse_timestamp(after_text) if after_text is not None else None
    limit = LIST_DEFAULT if limit is None or limit <= 0 else min(limit, LIST_CAP)
    kept = kept_from_caller(brain)
    infos = [info for info in brain.pages(type=kind, tag=tag) if info.slug not in kept]
    if after is not None:
        infos = [i for i in infos if (t := timestamp_or_none(i.updated_at)) and t > after]
    infos = _sorted(infos, sort)
    return [list_row(info) for info in infos[max(0, offset) : max(0, offset) + limit]]


def _sorted(infos: list[Any], sort: str | None) -> list[Any]:
    """Sort by time (pages without a time last), ties in slug order; `created_*` = `updated_*`."""
    if sort == "slug":
        return sorted(infos, key=lambda i: i.slug)
    by_slug = sorted(infos, key=lambda i: i.slug)
    timed = [(timestamp_or_none(i.updated_at), i) for i in by_slug]
    dated = [pair for pair in timed if pair[0] is not None]
    undated = [i for t, i in timed if t is None]
    dated.sort(key=lambda pair: pair[0], reverse=sort != "updated_asc")
    return [i for _, i in dated] + undated


def get_links(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    slug = required_str(args, "slug")
    return (
        LinkReader(brain, kept_from_caller(brain)).forward_rows(slug) if _known(brain, slug) else []
    )


def get_backlinks(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """gbrain's `get_backlinks`: the link rows into the page (0.46.28's reply); with
    `group: "page"`, one row per referring page, newest first, `{rows, total,
    truncated, cursor, coverage}` (`shapes.referrer_page`); `type` keeps referrers of
    that type (`untyped` for none), `limit` cuts the link rows (in either reply)."""
    slug = required_str(args, "slug")
    group = optional_str(args, "group")
    kind = optional_str(args, "type")
    cursor_text = optional_str(args, "cursor")
    limit = _backlink_limit(args)
    if group is not None and group != "page":
        raise invalid('get_backlinks: group must be "page".')
    if group is None and cursor_text is not None:
        raise invalid('get_backlinks: cursor needs group: "page".')
    cursor = None if cursor_text is None else decode_cursor(cursor_text)
    if cursor_text is not None and cursor is None:
        raise invalid("get_backlinks: cursor is not one this tool returned.")
    reader = LinkReader(brain, kept_from_caller(brain))
    rows = reader.backward_rows(slug) if _known(brain, slug) else []
    if group is None and kind is None and limit is None:
        return rows
    infos = brain.ensure_index().pages
    referrers = [infos[s] for s in dict.fromkeys(r["from_slug"] for r in rows) if s in infos]
    if kind is not None:
        if kind != "untyped" and kind not in {referrer_type(info) for info in referrers}:
            raise invalid(f'get_backlinks: unknown type "{kind}".')
        referrers = [info for info in referrers if referrer_type(info) == kind]
    if group is None:
        kept = {info.slug for info in referrers}
        rows = [row for row in rows if row["from_slug"] in kept]
        return rows if limit is None else rows[:limit]
    referrers = [info for info in referrers if info.slug != slug]
    body = functools.partial(_body_or_empty, brain)
    return referrer_page(referrers, body, limit or BACKLINK_PAGE_DEFAULT, cursor)


def _backlink_limit(args: Mapping[str, Any]) -> int | None:
    if args.get("limit") is None:
        return None
    limit = args.get("limit")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= BACKLINK_PAGE_CAP:
        raise invalid(f"get_backlinks: limit must be an integer from 1 to {BACKLINK_PAGE_CAP}.")
    return limit


def _body_or_empty(brain: BrainTools, slug: str) -> str:
    try:
        return brain.page(slug).content
    except OkfError:
        return ""


def traverse_graph(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """gbrain's `traverse_graph`. Current gbrain (v0.48.1 on) answers a remote call
    that gives no `direction` as one asking `both`, with `GraphPath[]` edge rows, at
    depth 2 when `depth` is not given either; an explicit `direction` pins a shape.
    The pinned 0.46.28 (`SHAPES`) answered such a call with the node form at depth 5
    (and read a negative depth as 1, where current gbrain reads it as not given)."""
    slug = required_str(args, "slug")
    asked = optional_int(args, "depth")
    link_type = optional_str(args, "link_type")
    direction = optional_enum(args, "direction", GBRAIN_DIRECTIONS, None)
    pinned = SHAPES.get() == GBRAIN_PINNED
    if pinned:
        depth = walk.gbrain_depth(asked)
    elif asked is not None and asked > 0:
        depth = min(asked, DEPTH_CAP)
    else:
        depth = REMOTE_BOTH_DEPTH if direction is None else walk.DEFAULT_DEPTH
    if not _known(brain, slug):
        return []
    reader = LinkReader(brain, kept_from_caller(brain))
    probe = TRAVERSE_ROW_CAP + 1
    cancel = _cancel_check()
    if pinned and direction is None and link_type is None:
        rows = walk.node_rows(slug, depth, reader.out_slugs, _describer(brain), probe, cancel)
        return capped(rows, "traverse_graph")
    if direction is None:
        direction = "out" if pinned else "both"
    out, into = reader.out_slugs, reader.in_slugs
    if link_type is not None:  # gbrain's filter: the walk follows links of that type only
        out, into = _of_type(out, link_type), _of_type(into, link_type)
    rows = walk.edge_rows(slug, depth, direction, out, into, reader.edge_context, probe, cancel)
    return capped(rows, "traverse_graph")


def _of_type(neighbours: Callable[[str], list[str]], link_type: str) -> Callable[[str], list[str]]:
    """`neighbours` kept to links whose gbrain `link_type` is `link_type` (our relation
    name is accepted too: `links` for `mentions`)."""

    def kept(node: str) -> list[str]:
        found = []
        for n in neighbours(node):
            rel = relation_of(n)
            if link_type in (rel, gbrain_link_type(rel)):
                found.append(n)
        return found

    return kept


def _describer(brain: BrainTools) -> Callable[[str], tuple[str, str | None]]:
    infos = {info.slug: info for info in brain.pages()}

    def describe(slug: str) -> tuple[str, str | None]:
        info = infos.get(slug)
        return (info.title, info.type) if info else (slug, None)

    return describe


def memory_navigate(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """SPEC §7: one tool for agents; never an error, `[]` for a bad op or any failure."""
    try:
        return _navigate(brain, args)
    except (ToolError, OkfError, ValueError, TypeError, KeyError) as error:
        log.debug("memory_navigate gave [] for %s", type(error).__name__)
        return []


def _navigate(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    op = args.get("op")
    if op == "get":
        return get_page(brain, {"slug": args.get("slug"), "include_content": True})
    if op == "list":
        return list_pages(brain, {k: args.get(k) for k in ("type", "tag", "limit", "offset")})
    if op == "links":
        return _navigate_links(brain, args, "out")
    if op == "backlinks":
        return _navigate_links(brain, args, "in")
    if op == "traverse":
        return _navigate_traverse(brain, args)
    return []


def _navigate_links(brain: BrainTools, args: Mapping[str, Any], direction: str) -> Any:
    """SPEC §7: the slugs `links SLUG` (`out`) or `links SLUG --backlinks` (`in`) print:
    the distinct ends of a one-hop walk, in edge order (dangling targets as their ids)."""
    slug = required_str(args, "slug")
    if not _known(brain, slug):
        return []
    edges = brain.traverse(slug, 1, direction, unseen=kept_from_caller(brain))
    return list(dict.fromkeys(edge.to for edge in edges))


def _navigate_traverse(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """SPEC §5 edge records of a SPEC §4 walk (depth default 1, direction default out)."""
    from okf_explorer.core.graph.traverse import edge_records

    slug = required_str(args, "slug")
    direction = args.get("direction") or "out"
    if direction not in DIRECTIONS:
        return []
    if not _known(brain, slug):
        return []
    depth = clamp_depth(args.get("depth", 1))
    edges = brain.traverse(slug, depth, direction, unseen=kept_from_caller(brain))
    return capped(edge_records(edges), "memory_navigate")


def search(brain: Any, args: Mapping[str, Any]) -> Any:
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
    text = required_str(args, "query")
    limit = optional_int(args, "limit")
    limit = SEARCH_DEFAULT if not limit or limit <= 0 else min(limit, SEARCH_CAP)
    offset = max(0, optional_int(args, "offset") or 0)
    types = _search_types(args)
    cap = optional_int(args, "snippet_chars")
    optional_str(args, "mode")  # accepted, and ignored: a remote caller's mode is (gbrain)
    try:
        query = parse_query(text)
    except QueryTooLong as error:
        raise invalid(str(error)) from None
    except SearchSyntaxError:
        query = None
    searcher = brain.text_search()
    kept = kept_from_caller(brain)
    hide = kept.__contains__ if kept else None
    hits = None
    if query is not None:
        try:
            hits = searcher.search(
                _with_types(query, types), limit, offset=offset, tokens=CHUNK_WORDS, hide=hide
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
        hits = searcher.search(
            _with_types(query, types), limit, offset=offset, tokens=CHUNK_WORDS, hide=hide
        )
    order = {slug: i for i, slug in enumerate(brain.ensure_index().pages, 1)}
    return [_search_row(hit, order.get(hit.slug, 0), cap) for hit in hits]


def query(brain: Any, args: Mapping[str, Any]) -> Any:
    """gbrain's `query` (hybrid search with expansion): here the rows `search` answers,
    ranked the same way (`core.search.meaning` ranks a question's best pages again when
    installed), each without `id` (gbrain's `query` rows carry none: `id` is its
    `search`'s, for the search/fetch pair). `expand` and `detail` are accepted and
    ignored."""
    rows = search(brain, args)
    return [{key: value for key, value in row.items() if key != "id"} for row in rows]


def get_tags(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """gbrain's `get_tags`: the page's tags, `[]` for a slug naming no page (as gbrain
    answers, no error)."""
    slug = required_str(args, "slug")
    info = brain.ensure_index().pages.get(slug) if _known(brain, slug) else None
    return list(info.tags) if info is not None else []


RESOLVED_SLUGS = 10
"""Slugs `resolve_slugs` answers at most."""


def resolve_slugs(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """gbrain's `resolve_slugs`: the slugs a partial slug or title finds, best first, as
    the explorer's page finder ranks them (`core.search.find_rank` over `Brain.findables`:
    an exact name, then a prefix, a substring, the letters in order; slugs, file names,
    titles and aliases; the page more linked to first, excluded pages last)."""
    partial = required_str(args, "partial")
    findables, kept = brain.findables(), kept_from_caller(brain)
    if kept:
        findables = [page for page in findables if page.slug not in kept]
    return [hit.slug for hit in rank_pages(partial, findables, RESOLVED_SLUGS)]


def find_orphans(brain: BrainTools, args: Mapping[str, Any]) -> Any:
    """gbrain's `find_orphans`: the pages no other page links to, `{orphans: [{slug,
    title, domain}], total_orphans, total_linkable, total_pages, excluded}`, in slug
    order. `domain` is the slug's first folder (the slug itself at the top), as gbrain
    derives it for a page whose frontmatter states none (the frontmatter is not read
    here: a file a page). The pages where no link in is expected (gbrain's pseudo pages;
    here an OKF bundle's reserved `index` and `log` pages) are left out unless
    `include_pseudo`, and counted in `excluded`; `total_linkable` is every page but
    those. Private pages are counted as if never written (`LinkIndex.without`): a page
    only they link to is an orphan."""
    include = bool(optional_bool(args, "include_pseudo"))
    hidden = kept_from_caller(brain)
    every = brain.orphans(include_reserved=True, unseen=hidden)
    pages = {slug: info for slug, info in brain.ensure_index().pages.items() if slug not in hidden}
    kept = every if include else [slug for slug in every if not pages[slug].reserved]
    return {
        "orphans": [
            {"slug": slug, "title": pages[slug].title, "domain": slug.split("/")[0]}
            for slug in kept
        ],
        "total_orphans": len(kept),
        "total_linkable": len(pages) - (len(every) - len(kept)),
        "total_pages": len(pages),
        "excluded": len(every) - len(kept),
    }


def fetch(brain: Any, args: Mapping[str, Any]) -> Any:
    """gbrain's `fetch`: the page a `search` row's `id` names (its slug), as OpenAI's deep
    research reads a search/fetch pair: `{id, title, text, url, metadata}`, `text` the
    page's Markdown with its frontmatter (`get_page` with `include_content`), `url`
    `okf://page/default/SLUG` (gbrain's is `gbrain://page/default/SLUG`), `metadata` its
    type, source, update time and tags. An id naming no page is gbrain's `page_not_found`
    with its suggestion."""
    slug = required_str(args, "id")
    try:
        if is_hostile_slug(slug):
            raise PageNotFound(slug)
        page = brain.page(slug)
        if not shown_to_caller(page):
            raise PageNotFound(slug)
    except PageNotFound:
        suggestion = {"suggestion": "Pass an id returned by a `search` call."}
        raise ToolError("page_not_found", f"Page not found: {slug}", suggestion) from None
    return {
        "id": page.slug,
        "title": page.title,
        "text": canonical_markdown(page),
        "url": f"okf://page/{SOURCE_ID}/{page.slug}",
        "metadata": {
            "type": page.type,
            "source_id": SOURCE_ID,
            "updated_at": page.updated_at,
            "tags": list(page.tags),
        },
    }


def _search_types(args: Mapping[str, Any]) -> tuple[str, ...]:
    value = args.get("types")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise invalid('Parameter "types" must be an array of strings')
    return tuple(value)


def _with_types(query: Any, types: tuple[str, ...]) -> Any:
    return replace(query, types=types) if types else query


def _search_row(hit: Any, page_id: int, cap: int | None) -> dict[str, Any]:
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


Tool = Callable[[BrainTools, Mapping[str, Any]], Any]
TOOLS: dict[str, Tool] = {
    "get_page": get_page,
    "list_pages": list_pages,
    "get_links": get_links,
    "get_backlinks": get_backlinks,
    "traverse_graph": traverse_graph,
    "memory_navigate": memory_navigate,
    "search": search,
    "query": query,
    "get_tags": get_tags,
    "resolve_slugs": resolve_slugs,
    "find_orphans": find_orphans,
    "fetch": fetch,
}


def call_tool(
    brain: BrainTools,
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    contexts: ContextCache | None = None,
    cancel: CancelCheck | None = None,
    tools: Mapping[str, Tool] | None = None,
    specs: Mapping[str, dict[str, Any]] | None = None,
    shapes: str = GBRAIN_CURRENT,
    show_private: bool = False,
) -> ToolReply:
    """Run one tool; every failure becomes an `isError` reply, never an exception.

    `contexts` lets link contexts outlive the call (the server keeps one cache).
    `cancel` answers True once the server is stopping: a call not yet begun is not
    run, and a long walk stops at its next check; both answer `shutting_down`.
    `tools` and `specs` are the tools callable by name and their schemas (gbrain's,
    `TOOLS` and `TOOL_SPECS`, unless given: `server.catalog` adds ours). `shapes` says
    whose gbrain shapes to give (`GBRAIN_SHAPES`). `show_private`: the call sees private
    pages too (see the module doc).
    """
    if cancel is not None and cancel():
        return ToolReply(SHUTTING_DOWN.payload(), True)
    shown = PRIVATE_SHOWN.set(show_private)
    token = CONTEXTS.set(contexts), CANCEL.set(cancel), SHAPES.set(shapes)
    try:
        return _dispatch(brain, name, arguments, tools or TOOLS, specs or TOOL_SPECS)
    except Cancelled:
        return ToolReply(SHUTTING_DOWN.payload(), True)
    finally:
        CONTEXTS.reset(token[0])
        CANCEL.reset(token[1])
        SHAPES.reset(token[2])
        PRIVATE_SHOWN.reset(shown)


def _dispatch(
    brain: BrainTools,
    name: str,
    arguments: Mapping[str, Any] | None,
    tools: Mapping[str, Tool],
    specs: Mapping[str, dict[str, Any]],
) -> ToolReply:
    tool = tools.get(name)
    if tool is None:
        return ToolReply(ToolError("unknown_operation", f"Unknown: {name}").payload(), True)
    args = dict(arguments or {})
    known = specs[name]["inputSchema"]["properties"]
    warnings = [{"code": "unknown_param", "param": key} for key in args if key not in known]
    try:
        value = tool(brain, args)
    except ToolError as error:
        return ToolReply(error.payload(), True, warnings)
    except PageUnreadable as error:
        # `message` names the page for any client; `reason` lets ours rebuild the error
        # without naming it twice.
        unreadable = ToolError("page_unreadable", str(error), {"reason": error.reason})
        return ToolReply(unreadable.payload(), True, warnings)
    except Cancelled:
        raise
    except OkfError as error:
        return ToolReply(ToolError("internal_error", str(error)).payload(), True, warnings)
    except Exception as error:  # a bug must not kill the server; log it, answer an error
        log.exception("tool %s failed", name)
        payload = ToolError("internal_error", f"{type(error).__name__}: {error}").payload()
        return ToolReply(payload, True, warnings)
    if isinstance(value, Truncated):
        return ToolReply(value.rows, False, [*warnings, value.warning()], truncated=True)
    return ToolReply(value, False, warnings)


__all__ = ["TOOLS", "ToolReply", "call_tool"]
