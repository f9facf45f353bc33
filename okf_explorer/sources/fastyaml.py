"""A fast path for the frontmatter most pages have.

PyYAML's constructor is pure Python even with the C parser: ~75 µs for a
four-key block, which is seconds over 100k pages. Most frontmatter is flat
`key: value` lines with plain words, flow lists `[a, b]`, block lists of
words, small ints and dates. `parse_simple` handles exactly that subset and
returns None for anything else, so the caller falls back to `yaml.safe_load`.

Soundness: it accepts only forms whose YAML meaning is unambiguous and returns
what `yaml.safe_load` returns for them (a property test checks this). Plain
values must start with a letter or `_`, contain none of ``:#[]{}"'`|>&*!%@``
and not be a YAML 1.1 boolean or null word; anything looking like another
number, a timestamp or an anchor is left to PyYAML.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*\Z")
_ITEM = re.compile(r"[ \t]*-[ \t]+(.*?)[ \t]*\Z")
_WORD = re.compile(r"[^\W\d][^:#\[\]{}\"'`|>&*!%@\t]*\Z")
_INT = re.compile(r"(?:0|-?[1-9][0-9]{0,17})\Z")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
_SPECIAL_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})


def parse_simple(block: str) -> dict[str, Any] | None:
    """The mapping of a simple frontmatter block, or None when PyYAML must decide."""
    result: dict[str, Any] = {}
    list_key: str | None = None  # the last `key:` with no value: block-list items follow
    list_indent = -1
    for line in block.split("\n"):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if list_key is not None:
            item = _ITEM.match(line)
            if item is not None:
                indent = len(line) - len(line.lstrip(" \t"))
                value = _scalar(item.group(1), in_flow=False)
                if value is None or list_indent not in (-1, indent):
                    return None
                list_indent = indent
                if result[list_key] is None:
                    result[list_key] = []
                result[list_key].append(value)
                continue
        match = _KEY.match(line)
        if match is None or match.group(1).lower() in _SPECIAL_WORDS:
            return None
        key, text = match.group(1), match.group(2)
        list_key, list_indent = None, -1
        if not text:
            result[key] = None
            list_key = key
            continue
        value = _flow_list(text) if text.startswith("[") else _scalar(text, in_flow=False)
        if value is None:
            return None
        result[key] = value
    return result


def _scalar(text: str, *, in_flow: bool) -> Any:
    """A plain word, int or date; None when the text is anything else."""
    if _WORD.match(text):
        if in_flow and "," in text:
            return None
        if text.lower() in _SPECIAL_WORDS or text.endswith(("-", " ")):
            return None
        return text
    if _INT.match(text):
        return int(text)
    found = _DATE.match(text)
    if found:
        try:
            return date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
        except ValueError:
            return None
    return None


def _flow_list(text: str) -> list[Any] | None:
    """`[a, b, 3]` → `["a", "b", 3]`; None for nesting, quotes or empty items."""
    if not text.endswith("]"):
        return None
    inner = text[1:-1].strip()
    if not inner:
        return []
    items = []
    for part in inner.split(","):
        value = _scalar(part.strip(), in_flow=True)
        if value is None:
            return None
        items.append(value)
    return items
