"""A fast path for the commonest frontmatter: a flat mapping of one-line values.

Most frontmatter is a few `key: value` lines (`title: X`, `type: table`,
`tags: [a, b]`, `updated: 2024-07-12`, a `- item` list), yet PyYAML builds it
through its composer, resolver and constructor at ~40 µs a page, the largest
single cost of a cold index. `load_flat` reads exactly that shape line by line
and hands anything else back (returns None) to the library: nested mappings,
multi-line or indented scalars, anchors, aliases, tags, escapes, comments
after a value, duplicate keys, tabs, CR, non-printable characters, flow
mappings, empty or quoted flow items. Values are typed by PyYAML's own
implicit resolver and built by its own `SafeConstructor` functions (dates,
numbers, booleans, null), so an answer is what `yaml.safe_load` gives; a value
whose tag is anything else, or whose constructor fails, is handed back too.

Measured on the 10k-page benchmark bundle's 5,000 frontmatter blocks against PyYAML
(`tests/bench/bench_fast_paths.py`; `tests/bench/bench_yaml.py FOLDER` on a folder of
your own): about 4x (figure in `core.fast_paths.FAST_PATHS`).
`OKF_EXPLORER_PLAIN=1` turns it off (see `core.fast_paths`).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from okf_explorer.core import fast_paths

_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?").fullmatch
"""`key:` or `key: value` at the start of a line (value may be empty)."""
_ITEM_LINE = re.compile(r"( *)-(?: +(.*))?").fullmatch
"""A block sequence item: `- value` (or a bare `-`, an empty item)."""
_PLAIN_START_BANNED = frozenset("-?:,[]{}#&*!|>'\"%@`")
"""Characters no plain scalar may start with (YAML indicators)."""
_FLOW_BANNED = frozenset("[]{}'\"")
_NO_SCALAR = object()
_STR_TAG = "tag:yaml.org,2002:str"
_BUILT = {
    tag: SafeConstructor.yaml_constructors[tag]
    for tag in (
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:timestamp",
    )
}
"""The implicit tags whose values this path builds (with PyYAML's own functions)."""
_CONSTRUCTOR = SafeConstructor()


def load_flat(block: str) -> dict[str, Any] | None:
    """The mapping `yaml.safe_load(block)` gives for a flat block of one-line values,
    or None when the block is anything else (then the library must read it)."""
    if not fast_paths.enabled() or "\t" in block or "\r" in block:
        return None
    lines = block.split("\n")
    result: dict[str, Any] = {}
    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        i += 1
        if not line or line[0] == "#" or not line.strip():
            continue  # a blank line or a whole-line comment at the margin
        found = _KEY_LINE(line)
        if found is None:
            return None
        key, text = found.groups()
        if key in result or _plain(key) != key:
            return None  # a duplicate, or a key that is not a plain string (`true`, `null`)
        text = (text or "").rstrip(" ")
        if text:
            value = _value(text)
        else:
            value, i = _items(lines, i)
        if value is _NO_SCALAR:
            return None
        result[key] = value
    return result or None


def _items(lines: list[str], i: int) -> tuple[Any, int]:
    """The block sequence that starts at line `i` (a key with nothing after its colon),
    or None when no item follows; `_NO_SCALAR` for anything else indented."""
    items: list[Any] = []
    indent: str | None = None
    count = len(lines)
    while i < count:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        found = _ITEM_LINE(line)
        if found is None:
            if line[0] == " ":
                return _NO_SCALAR, i  # an indented line that is no item: nested
            break
        margin, text = found.groups()
        if indent is None:
            indent = margin
        elif margin != indent:
            return _NO_SCALAR, i
        text = (text or "").rstrip(" ")
        item = _scalar(text) if text else None
        if item is _NO_SCALAR:
            return _NO_SCALAR, i
        items.append(item)
        i += 1
    return (items if indent is not None else None), i


def _value(text: str) -> Any:
    """A one-line value: a flow sequence of plain items, a quoted or a plain scalar."""
    if text[0] == "[":
        if text[-1] != "]":
            return _NO_SCALAR
        inner = text[1:-1]
        if not inner.strip():
            return []
        if not _FLOW_BANNED.isdisjoint(inner):
            return _NO_SCALAR
        items = []
        for part in inner.split(","):
            part = part.strip(" ")
            if not part or ": " in part or part.endswith(":"):
                return _NO_SCALAR
            item = _plain(part)
            if item is _NO_SCALAR:
                return _NO_SCALAR
            items.append(item)
        return items
    return _scalar(text)


def _scalar(text: str) -> Any:
    """A quoted (no escapes, no inner quote) or plain one-line scalar."""
    first = text[0]
    if first in "'\"":
        inner = text[1:-1]
        if len(text) < 2 or text[-1] != first or first in inner or "\\" in inner:
            return _NO_SCALAR
        return inner if inner.isprintable() else _NO_SCALAR
    if ": " in text or text.endswith(":"):
        return _NO_SCALAR
    return _plain(text)


def _plain(text: str) -> Any:
    """A plain scalar typed by PyYAML's resolver and built by its constructor (answers
    are immutable, so they are remembered: tags, types and dates repeat)."""
    known = _PLAIN_MEMO.get(text, _NO_SCALAR)
    if known is not _NO_SCALAR:
        return known
    if text[0] in _PLAIN_START_BANNED or " #" in text or not text.isprintable():
        return _NO_SCALAR
    tag = _tag(text)
    if tag == _STR_TAG:
        value: Any = text
    elif (build := _BUILT.get(tag)) is None:
        return _NO_SCALAR
    else:
        try:
            value = build(_CONSTRUCTOR, yaml.ScalarNode(tag, text))
        except Exception:  # the library words the failure (it reads the block instead)
            return _NO_SCALAR
    if len(_PLAIN_MEMO) >= _PLAIN_MEMO_LIMIT:
        _PLAIN_MEMO.clear()
    _PLAIN_MEMO[text] = value
    return value


def _tag(text: str) -> str:
    """`Resolver.resolve` for a plain scalar, without its per-call overhead: the first
    implicit resolver (by first character, then the wildcard ones) that matches."""
    resolvers = _RESOLVERS.get(text[0])
    if resolvers is None:
        table = Resolver.yaml_implicit_resolvers
        resolvers = _RESOLVERS[text[0]] = [*table.get(text[0], ()), *table.get(None, ())]
    for tag, regexp in resolvers:
        if regexp.match(text):
            return tag
    return _STR_TAG


_RESOLVERS: dict[str, list] = {}
_PLAIN_MEMO: dict[str, Any] = {}
_PLAIN_MEMO_LIMIT = 4096
"""Plain scalars remembered per process (bounded memory)."""
