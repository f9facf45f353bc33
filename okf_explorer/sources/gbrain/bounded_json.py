"""Decoding a server's JSON with bounded nesting.

`json.loads` recurses once per level: a reply nested 100,000 deep raises
`RecursionError` from inside the decoder, and one nested 600 deep decodes but
breaks whatever walks it next (printing it as indented JSON, rendering a page
header). Every JSON text an MCP server sends us (the JSON-RPC message, a tool's
payload text, an error body) goes through `decode`, which refuses both with a
`ProtocolError` naming the server. gbrain's replies nest under ten levels, plus a
page's frontmatter (which bundles cap at 64 levels, `bounded_yaml`).
"""

from __future__ import annotations

import json
from typing import Any

from okf_explorer.core.errors import ProtocolError

MAX_REPLY_DEPTH = 128
"""Deepest nesting of arrays and objects accepted in one JSON text from a server."""


def decode(text: str | bytes | bytearray, label: str) -> Any:
    """`json.loads(text)`, nested at most `MAX_REPLY_DEPTH` deep.

    Raises `ProtocolError` ("`label` sent JSON nested deeper than …") past it, and
    `ValueError` for text that is not JSON (each caller says what it was reading)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise too_deep(label) from None
    if not nested_within(value, MAX_REPLY_DEPTH):
        raise too_deep(label)
    return value


def too_deep(label: str) -> ProtocolError:
    return ProtocolError(f"{label} sent JSON nested deeper than {MAX_REPLY_DEPTH} levels")


def nested_within(value: Any, limit: int) -> bool:
    """True when no array or object in `value` sits more than `limit` levels deep
    (`[]` is one level). Iterative, so any depth can be measured."""
    if not isinstance(value, dict | list):
        return True
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return False
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True
