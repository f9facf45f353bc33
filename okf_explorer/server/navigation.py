"""The tools only okf-explorer has, for agents: k paths between two pages, best paths
from several roots, why each link resolves, the brain's stats, the link targets that
have no page (gbrain's own `wanted_pages`), unlinked mentions and a context pack.

Faces are skins: each tool reads its arguments, calls the core entry point the CLI
calls for the same question, and answers what the CLI prints with `--json`:

| tool | the CLI | the core |
|---|---|---|
| `find_paths` | `path A B --json` | `Brain.explained_paths`, `paths.path_record` |
| `best_paths` | `walk --root … --json` | `Brain.resolve_roots`, `Brain.walk` |
| `explain_links` | `links SLUG --explain` | `graph.explain.explain_edges` |
| `graph_stats` | `stats --json` | `Brain.stats` |
| `find_mentions` | `mentions SLUG --json` | `Brain.unlinked_mentions` |
| `wanted_pages` | `stats --json`'s dangling targets | `Brain.wanted_pages` |
| `build_context` | (none) | `Brain.context_pack` |

Arguments are read as gbrain reads its own (`tools.required_str`, ...), with its
words for errors; names of pages are resolved as the CLI resolves a typed name
(SPEC §3), and a name that is no page answers `page_not_found` with the closest
pages as its `suggestion`. Numbers the CLI clamps (`k`, `max_hops`, `depth`,
`top`) are clamped here too. All tools are read-only.

`wanted_pages` has gbrain's arguments (`limit` 1-100, default 50; `offset`;
`count_only`; `source_id`, which must be ours, `default`) and reply (`{total, limit,
offset, next_offset, targets: [...]}`, a `note` when there are none); each row is
gbrain's `{target, target_source_id, ref_kind, referenced_by, sample_origins (the
first three pages that want it), link_types, existing_matches, first_seen,
last_checked, next}`. `ref_kind` is `slug` for a target naming a folder path, else
`name`; `link_types` are gbrain's names of the links' relations (`mentions` for a
body link); over a folder `first_seen` is the oldest modification time among the
pages that want the target, and `last_checked` the time of the answer (every answer
reads the current index).

Private pages (`server.tools`): a name of one is no page (`page_not_found`, and none is
suggested), a path never runs through one (they are avoided), and every reply is
`without_private`: a row naming one, or holding a list that names one, is left out, as
is its slug in a list of slugs. `graph_stats`, `build_context`, `analyze` and
`best_paths` read the graph as if the private pages and their links did not exist
(`LinkIndex.without`): no count, degree, rank, community, cut or walk counts them, a page
linked only from one is an orphan, and a walk reaches a page by the best path that avoids
them. A missing page only private pages link to is in no `wanted_pages` (its name is their
words), and they count for no other's `referenced_by`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.graph import context_pack
from okf_explorer.core.graph.analysis import TOP_HUBS
from okf_explorer.core.graph.best_paths import WALK_DIRECTIONS, check_min_weight
from okf_explorer.core.graph.explain import explain_edges
from okf_explorer.core.graph.paths import (
    DEFAULT_K,
    DEFAULT_MAX_HOPS,
    K_CAP,
    MAX_HOPS_CAP,
    PATH_DIRECTIONS,
    Avoid,
    NoPath,
    PathQuery,
    avoid_of,
    path_record,
)
from okf_explorer.core.port import WantedTarget
from okf_explorer.server.shapes import SOURCE_ID, gbrain_link_type
from okf_explorer.server.tools import (
    BrainTools,
    Tool,
    ToolError,
    invalid,
    is_hostile_slug,
    kept_from_caller,
    object_schema,
    optional_bool,
    optional_enum,
    optional_int,
    optional_str,
    required_str,
)

WALK_DEFAULT_DEPTH = 3
"""`walk`'s default depth (the CLI's)."""
STATS_TOP_CAP = 1000
WANTED_DEFAULT_LIMIT = 50
WANTED_MAX_LIMIT = 100
SAMPLE_ORIGINS = 3
"""gbrain names at most this many of the pages that want a target."""
NO_WANTED = "Every authored link resolves to an existing page."
SUGGESTED = 3
"""Close pages a `page_not_found` suggests at most (the CLI's)."""


# --- arguments --------------------------------------------------------------------------


def string_list(args: Mapping[str, Any], name: str, *, required: bool = False) -> list[str]:
    """An array-of-strings argument (empty when absent and not required)."""
    value = args.get(name)
    if value is None:
        if required:
            raise invalid(f"Missing required parameter: {name}")
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise invalid(f'Parameter "{name}" must be an array of strings')
    return value


def page_named(brain: BrainTools, name: str) -> str:
    """The slug a typed name resolves to (SPEC §3), else `page_not_found` naming the
    closest pages."""
    slug = None if is_hostile_slug(name) else brain.resolve_slug(name)
    if slug is None or slug in kept_from_caller(brain):
        raise not_found(brain, name)
    return slug


def not_found(brain: BrainTools, name: str) -> ToolError:
    kept = kept_from_caller(brain)
    close = [] if is_hostile_slug(name) else brain.suggest(name, SUGGESTED + len(kept))
    close = [slug for slug in close if slug not in kept][:SUGGESTED]
    hint = f"did you mean {' or '.join(close)}?" if close else "list_pages names every page"
    return ToolError("page_not_found", f"Page not found: {name}", {"suggestion": hint})


def _clamped(value: int | None, default: int, cap: int) -> int:
    return default if value is None else max(1, min(cap, value))


# --- the tools -------------------------------------------------------------------------


def find_paths(brain: Any, args: Mapping[str, Any]) -> Any:
    """`path A B --json`: the k shortest simple paths, each hop explained."""
    frm = required_str(args, "from")
    to = required_str(args, "to")
    k = optional_int(args, "k")
    direction = optional_enum(args, "direction", PATH_DIRECTIONS, "out")
    avoid = string_list(args, "avoid")
    rels = string_list(args, "rel")
    max_hops = optional_int(args, "max_hops")
    query = PathQuery(
        page_named(brain, frm),
        page_named(brain, to),
        k=_clamped(k, DEFAULT_K, K_CAP),
        direction=direction,  # type: ignore[arg-type]
        rels=frozenset(rels) if rels else None,
        avoid=_and_private(brain, avoid_of(avoid, lambda name: page_named(brain, name))),
        max_hops=_clamped(max_hops, DEFAULT_MAX_HOPS, MAX_HOPS_CAP),
    )
    try:
        found = brain.explained_paths(query)
    except NoPath as error:
        raise ToolError("no_path", str(error)) from None
    return [path_record(path, details) for path, details in found]


def _and_private(brain: BrainTools, avoid: Avoid) -> Avoid:
    """`avoid` and the pages the caller may not see."""
    kept = kept_from_caller(brain)
    return replace(avoid, unsaid=kept) if kept else avoid


def best_paths(brain: Any, args: Mapping[str, Any]) -> Any:
    """`walk --root … --json`: the best path to every page reachable from the roots."""
    roots = string_list(args, "roots", required=True)
    if not roots:
        raise invalid('Parameter "roots" must name at least one page, tag:T or type:T')
    depth = optional_int(args, "depth")
    weight = args.get("min_weight", 0.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        raise invalid('Parameter "min_weight" must be a number')
    direction = optional_enum(args, "direction", WALK_DIRECTIONS, "out")
    rels = string_list(args, "rel") or None
    implied = args.get("implied", False)
    if not isinstance(implied, bool):
        raise invalid('Parameter "implied" must be true or false')
    try:
        check_min_weight(float(weight))
        slugs = brain.resolve_roots(roots)
    except ValueError as error:
        raise invalid(str(error)) from None
    except PageNotFound as error:
        raise not_found(brain, error.slug) from None
    kept = kept_from_caller(brain)
    if any(slug in kept for slug in slugs):
        slugs = [slug for slug in slugs if slug not in kept]
        if not slugs:
            raise not_found(brain, roots[0])
    hops = _clamped(depth, WALK_DEFAULT_DEPTH, 10)
    rows = brain.walk(slugs, hops, float(weight), direction, rels, implied, kept)
    return [row.to_json() for row in rows]


def explain_links(brain: Any, args: Mapping[str, Any]) -> Any:
    """`links SLUG --explain`: one record per link of the page, how it resolved."""
    slug = page_named(brain, required_str(args, "slug"))
    edges = brain.traverse(slug, 1, "out")
    return [found.to_json() for found in explain_edges(brain.link_between, edges)]


def graph_stats(brain: Any, args: Mapping[str, Any]) -> Any:
    """`stats --json`, with the `top` hubs of each ranking (default 10), of the brain the
    caller may see: counted as if its private pages and their links did not exist."""
    top = _clamped(optional_int(args, "top"), TOP_HUBS, STATS_TOP_CAP)
    return brain.stats(top, kept_from_caller(brain)).to_json()


def find_mentions(brain: Any, args: Mapping[str, Any]) -> Any:
    """`mentions SLUG --json`: pages that name the page without linking to it."""
    slug = page_named(brain, required_str(args, "slug"))
    return [mention.to_json() for mention in brain.unlinked_mentions(slug).found]


def build_context(brain: Any, args: Mapping[str, Any]) -> Any:
    """The page's text, then its neighbours by hop, cut to the budget
    (`core.graph.context_pack`)."""
    name = required_str(args, "slug")
    depth = optional_int(args, "depth")
    budget = optional_int(args, "budget_chars")
    return brain.context_pack(page_named(brain, name), depth, budget, kept_from_caller(brain))


ANALYZE_DEFAULT = 10
ANALYZE_CAP = 100
ANALYZE_PAGES_CAP = 200
"""Pages listed per community in the tool's reply (its `size` says how many it has):
a community of a big brain holds thousands, more than an agent can read."""


def analyze(brain: Any, args: Mapping[str, Any]) -> Any:
    """`Brain.analyze`, the one entry point the CLI's `analyze` calls too; `top` is
    clamped to 0..`ANALYZE_CAP` (a reply stays bounded however big the brain)."""
    top = optional_int(args, "top")
    top = ANALYZE_DEFAULT if top is None else max(0, min(ANALYZE_CAP, top))
    shape = brain.analyze(top, unseen=kept_from_caller(brain)).to_json()
    for community in shape["communities"]:  # `size` keeps the whole count
        community["pages"] = community["pages"][:ANALYZE_PAGES_CAP]
    return shape


def wanted_pages(brain: Any, args: Mapping[str, Any]) -> Any:
    """gbrain's `wanted_pages` (module docstring): link targets that have no page."""
    source = optional_str(args, "source_id")
    if source is not None and source != SOURCE_ID:
        raise ToolError("invalid_params", f"wanted_pages: unknown source {source!r}")
    limit = optional_int(args, "limit")
    offset = optional_int(args, "offset")
    limit = WANTED_DEFAULT_LIMIT if limit is None else limit
    offset = 0 if offset is None else offset
    if not 1 <= limit <= WANTED_MAX_LIMIT or offset < 0:
        raise invalid(
            f"wanted_pages: limit must be 1-{WANTED_MAX_LIMIT} and offset a non-negative integer"
        )
    count_only = optional_bool(args, "count_only")
    wanted = _wanted_by_seen_pages(brain.wanted_pages(), kept_from_caller(brain))
    total = len(wanted)
    checked = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    times = _first_seen(brain, wanted[offset : offset + limit])
    rows = [] if count_only else [
        wanted_row(target, times.get(target.target), checked)
        for target in wanted[offset : offset + limit]
    ]  # fmt: skip
    reply: dict[str, Any] = {
        "total": total,
        "limit": limit,
        "offset": offset,
        "next_offset": None if count_only or offset + limit >= total else offset + limit,
        "targets": rows,
    }
    if total == 0:
        reply["note"] = NO_WANTED
    return reply


def _wanted_by_seen_pages(wanted: list[WantedTarget], kept: frozenset[str]) -> list[WantedTarget]:
    """`wanted` as the pages outside `kept` want them: a target only pages of `kept` link
    to is left out (its name is their words), and the others count those pages no more."""
    if not kept:
        return wanted
    seen = []
    for target in wanted:
        origins = tuple(slug for slug in target.origins if slug not in kept)
        if origins:
            gone = len(target.origins) - len(origins)
            seen.append(replace(target, origins=origins, referenced_by=target.referenced_by - gone))
        elif not target.origins:
            seen.append(target)  # a server's row names no page
    return seen


def _first_seen(brain: Any, wanted: list[WantedTarget]) -> dict[str, str | None]:
    """The oldest `updated_at` among each target's pages (when the index knows them)."""
    index = brain.index
    found: dict[str, str | None] = {}
    for target in wanted:
        times = [
            info.updated_at
            for slug in target.origins
            if index is not None and (info := index.pages.get(slug)) and info.updated_at
        ]
        found[target.target] = min(times) if times else None
    return found


def wanted_row(target: WantedTarget, first_seen: str | None, checked: str) -> dict[str, Any]:
    """One row of gbrain's `wanted_pages` reply, with its `next` step."""
    if target.existing_matches:
        match = target.existing_matches[0]
        next_step = (
            f"A page with this name exists ({match}); link it by its full slug, e.g. [[{match}]]."
        )
    else:
        next_step = (
            f"Create {target.target} if it is a real entity (the {target.referenced_by} linking "
            "page(s) gain the edge on the next extraction), or fix the link if it is a typo."
        )
    return {
        "target": target.target,
        "target_source_id": SOURCE_ID,
        "ref_kind": "slug" if "/" in target.target else "name",
        "referenced_by": target.referenced_by,
        "sample_origins": [
            {"slug": slug, "source_id": SOURCE_ID} for slug in target.origins[:SAMPLE_ORIGINS]
        ],
        "link_types": sorted({gbrain_link_type(rel) for rel in target.link_types}),
        "existing_matches": [
            {"slug": slug, "source_id": SOURCE_ID} for slug in target.existing_matches
        ],
        "first_seen": target.first_seen or first_seen,
        "last_checked": target.last_checked or checked,
        "next": next_step,
    }


# --- what `tools/list` says ------------------------------------------------------------

_SLUG = {"type": "string", "description": "A page: its slug, or a name (title, alias, file name)"}
_NAMES = {"type": "array", "items": {"type": "string"}}


NAVIGATION_SPECS: dict[str, dict[str, Any]] = {
    "find_paths": {
        "description": (
            "The k shortest paths between two pages, each hop with the sentence that links "
            "and the rule that resolved it; can avoid hubs, reserved pages or named pages."
        ),
        "inputSchema": object_schema(
            {
                "from": _SLUG,
                "to": _SLUG,
                "k": {"type": "number", "description": f"How many paths (default 3, max {K_CAP})"},
                "direction": {
                    "type": "string",
                    "enum": list(PATH_DIRECTIONS),
                    "description": "out: follow links (default); in: backlinks; any: either",
                },
                "avoid": {
                    **_NAMES,
                    "description": "Never pass through: hubs, reserved (index, log), or a page",
                },
                "rel": {**_NAMES, "description": "Follow only edges of these relations"},
                "max_hops": {
                    "type": "number",
                    "description": f"No path longer than this (default 10, max {MAX_HOPS_CAP})",
                },
            },
            ("from", "to"),
        ),
    },
    "best_paths": {
        "description": (
            "The best path (highest product of link weights) from several roots to every "
            "page within depth; roots are pages, tag:T or type:T."
        ),
        "inputSchema": object_schema(
            {
                "roots": {**_NAMES, "description": "Pages, tag:T (every page tagged T), type:T"},
                "depth": {"type": "number", "description": "Hops, 1-10 (default 3)"},
                "min_weight": {
                    "type": "number",
                    "description": "Follow only links weighing at least this, 0-1 (default 0)",
                },
                "direction": {
                    "type": "string",
                    "enum": list(WALK_DIRECTIONS),
                    "description": "default out",
                },
                "rel": {
                    **_NAMES,
                    "description": "Follow only edges of these relations (default: all)",
                },
                "implied": {
                    "type": "boolean",
                    "description": "Walk implied inverse edges too (down for up, ...)",
                },
            },
            ("roots",),
        ),
    },
    "explain_links": {
        "description": (
            "Every link of a page: the target as written, the page it leads to, the "
            "resolution rule (exact, title, alias, basename, ..., dangling) and the "
            "candidates when several pages matched."
        ),
        "inputSchema": object_schema({"slug": _SLUG}, ("slug",)),
    },
    "graph_stats": {
        "description": (
            "Counts, hubs by links in and out, orphans, dead ends and dangling targets of "
            "the whole brain."
        ),
        "inputSchema": object_schema(
            {"top": {"type": "number", "description": "Hubs listed per ranking (default 10)"}}
        ),
    },
    "wanted_pages": {
        "description": (
            "Link targets that have no page yet, most-referenced first, with pages that "
            "want them: entities worth a page, or typo links to fix."
        ),
        "inputSchema": object_schema(
            {
                "source_id": {"type": "string", "description": "Only this source (default)"},
                "limit": {
                    "type": "number",
                    "description": f"Rows per page (default 50, max {WANTED_MAX_LIMIT})",
                },
                "offset": {"type": "number", "description": "Skip the first N targets"},
                "count_only": {"type": "boolean", "description": "The total, no rows"},
            }
        ),
    },
    "find_mentions": {
        "description": (
            "Pages that name a page (title, file name, aliases) in their text without "
            "linking to it, each with the sentence."
        ),
        "inputSchema": object_schema({"slug": _SLUG}, ("slug",)),
    },
    "build_context": {
        "description": (
            "Everything to read before answering about a page, in one call: its text, "
            "then its neighbours by hop (links out, backlinks with the sentence that "
            "links, typed relations), each with title, type, status, trust and "
            "description; cut to a character budget, nearest and most-linked first, "
            "saying what was cut."
        ),
        "inputSchema": object_schema(
            {
                "slug": _SLUG,
                "depth": {
                    "type": "number",
                    "description": f"Hops, 1-{context_pack.MAX_DEPTH} (default 1)",
                },
                "budget_chars": {
                    "type": "number",
                    "description": (
                        f"Characters of text at most (default {context_pack.DEFAULT_BUDGET})"
                    ),
                },
            },
            ("slug",),
        ),
    },
    "analyze": {
        "description": (
            "The shape of the whole graph, as `okf-explorer analyze --json`: communities "
            "(labelled by their most central page), central pages (PageRank and in-degree), "
            "bridge pages with what they split, bridge edges, suggested links with reason "
            "and score. Read-only."
        ),
        "inputSchema": object_schema(
            {"top": {"type": "number", "description": "List N of each (default 10, max 100)"}}
        ),
    },
}


def without_private(tool: Tool) -> Tool:
    """`tool` whose reply names no page the caller may not see (the module doc)."""

    @functools.wraps(tool)
    def answer(brain: BrainTools, args: Mapping[str, Any]) -> Any:
        value = tool(brain, args)
        kept = kept_from_caller(brain)
        return _kept_out(value, kept) if kept else value

    return answer


NO_SLUGS = frozenset(
    {
        "type",
        "hemisphere",
        "rel",
        "direction",
        "rule",
        "kind",
        "ref_kind",
        "link_types",
        "status",
        "trust",
        "title",
        "description",
        "text",
        "context",
        "note",
    }
)
"""Keys of the replies whose values are words or text, never a page's slug: a private page
named `knowledge` or `edge` leaves every edge record (`hemisphere: knowledge`) alone."""


def _kept_out(value: Any, kept: frozenset[str]) -> Any:
    """`value` without the items of its lists that name a page of `kept`."""
    if isinstance(value, list):
        return [_kept_out(item, kept) for item in value if not _names(item, kept)]
    if isinstance(value, dict):
        return {
            key: item if key in NO_SLUGS else _kept_out(item, kept) for key, item in value.items()
        }
    return value


def _names(item: Any, kept: frozenset[str]) -> bool:
    """Whether a list's item names a page of `kept`: is its slug, or is a row one of
    whose values (but those of `NO_SLUGS`) is such a slug or a list holding one."""
    if isinstance(item, str):
        return item in kept
    if isinstance(item, dict):
        return any(
            (isinstance(value, str) and value in kept)
            or (isinstance(value, list) and any(isinstance(v, str) and v in kept for v in value))
            for key, value in item.items()
            if key not in NO_SLUGS
        )
    return False


NAVIGATION_TOOLS: dict[str, Tool] = {
    name: without_private(tool)
    for name, tool in (
        ("find_paths", find_paths),
        ("best_paths", best_paths),
        ("explain_links", explain_links),
        ("graph_stats", graph_stats),
        ("wanted_pages", wanted_pages),
        ("find_mentions", find_mentions),
        ("build_context", build_context),
        ("analyze", analyze),
    )
}
