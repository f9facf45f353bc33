"""`tools/list` entries: names, descriptions and JSON Schemas of the read-only tools.

Schemas describe what gbrain accepts; the tools validate arguments themselves
(with gbrain's messages), so the SDK's own schema validation stays off and
unknown keys are accepted (`additionalProperties` is left open).
"""

from __future__ import annotations

from typing import Any

_SLUG = {"type": "string", "description": "Page slug, e.g. people/alice"}
_DEPTH = {"type": "number", "description": "Max hops (default 5, clamped to 1..10)"}


def _schema(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


TOOL_SPECS: dict[str, dict[str, Any]] = {
    "get_page": {
        "description": "Read a page by slug (supports fuzzy slug matching).",
        "inputSchema": _schema(
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
        "inputSchema": _schema(
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
        "inputSchema": _schema({"slug": _SLUG}, ("slug",)),
    },
    "get_backlinks": {
        "description": "Pages linking to a page.",
        "inputSchema": _schema({"slug": _SLUG}, ("slug",)),
    },
    "traverse_graph": {
        "description": (
            "Walk the link graph from a page. Without direction/link_type: nodes with their "
            "links; with them: edges with depth."
        ),
        "inputSchema": _schema(
            {
                "slug": _SLUG,
                "depth": _DEPTH,
                "link_type": {"type": "string", "description": "Only edges of this type (links)"},
                "direction": {
                    "type": "string",
                    "enum": ["in", "out", "both"],
                    "description": "Edge form: follow links out, in, or both",
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
        "inputSchema": _schema(
            {
                "query": {"type": "string", "description": "Search text"},
                "limit": {"type": "number", "description": "Max results (default 20, max 100)"},
                "offset": {"type": "number", "description": "Skip first N results"},
                "mode": {"type": "string", "description": "Accepted and ignored"},
                "types": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Only pages whose type is in this list",
                },
                "snippet_chars": {
                    "type": "number",
                    "description": "Cap each chunk_text at N characters (0: no cap)",
                },
            },
            ("query",),
        ),
    },
    "memory_navigate": {
        "description": (
            "One-call navigation for agents: op get | list | links | backlinks | traverse "
            "(traverse returns OKF edge records). Never fails: returns [] instead."
        ),
        "inputSchema": _schema(
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
