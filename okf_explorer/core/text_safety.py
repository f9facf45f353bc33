"""Untrusted text made safe to show: page names, titles and server replies.

A file name or a remote slug can hold anything: an ESC that retitles or clears
the terminal, a newline that splits one listing row in two, a tab that shifts a
column, a bidi override that shows `txt.exe` as `exe.txt`. Every human-readable
output (CLI lines and errors, TUI labels) passes such text through `printable`.

The convention, the same everywhere (it reads like a Python string literal):

- tab, newline and carriage return become `\\t`, `\\n`, `\\r`;
- every other C0 control (U+0000-U+001F), DEL (U+007F) and every C1 control
  (U+0080-U+009F) becomes `\\xNN` (two lower-case hex digits), e.g. ESC → `\\x1b`;
- the bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069),
  the line and paragraph separators (U+2028, U+2029), lone surrogates
  (U+D800-U+DFFF, which a JSON reply may carry) and the non-characters U+FFFE,
  U+FFFF become `\\uNNNN`;
- everything else, including a backslash, is left as it is.

`printable` is for display only: names stay exact in `--json` output and in
exports. `printable_body` shows a whole page body on a terminal the same way, its
layout kept (newlines, tabs, CRLF line ends). `reversible` also doubles
backslashes, so distinct names never look the same; the export formats use it
where a name must stay unique (node ids).
`json_text` is `json.dumps` whose output holds none of these characters raw (they
are `\\uNNNN` escapes, so the parsed values are exact).
"""

from __future__ import annotations

import json
import re
from typing import Any

_BEYOND_C0 = (
    "\x7f-\x9f"  # DEL, C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates
    "\ufffe\uffff"  # non-characters (XML cannot hold them)
)
UNSAFE_CHARACTERS = "\x00-\x1f" + _BEYOND_C0
"""The characters `printable` escapes, as the inside of a regex character class."""

_UNSAFE = re.compile(f"[{UNSAFE_CHARACTERS}]")
_JSON_RAW = re.compile(f"[{_BEYOND_C0}]")  # json.dumps escapes C0 itself
_UNSAFE_IN_BODY = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_BEYOND_C0}]|\r(?!\n)")
_UNSAFE_OR_BACKSLASH = re.compile(f"[{UNSAFE_CHARACTERS}\\\\]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    short = _SHORT.get(char)
    if short is not None:
        return short
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, multiline: bool = False) -> str:
    """`text` with every control, bidi and separator character shown as an escape.

    `multiline` keeps newlines as they are (prose such as a description).
    """
    # The usual case, in C: every character we escape is one `isprintable` refuses.
    if text.isprintable() or _UNSAFE.search(text) is None:
        return text
    if multiline:
        return "\n".join(_UNSAFE.sub(_escape, line) for line in text.split("\n"))
    return _UNSAFE.sub(_escape, text)


def printable_body(text: str) -> str:
    """A page body for a terminal: `printable`, but newlines, tabs and the CR of a CRLF
    line end are kept, so the text reads as it was written and drives nothing."""
    if _UNSAFE_IN_BODY.search(text) is None:
        return text
    return _UNSAFE_IN_BODY.sub(_escape, text)


def reversible(text: str) -> str:
    """`printable`, with each backslash doubled: two distinct texts never give the same."""
    if (text.isprintable() and "\\" not in text) or _UNSAFE_OR_BACKSLASH.search(text) is None:
        return text
    return _UNSAFE_OR_BACKSLASH.sub(_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


_STRING_ENCODER = json.JSONEncoder(ensure_ascii=False)


def json_string(text: str) -> str:
    """`json_text(text)` for one string, without `json.dumps`' set-up per call (the
    exports write millions of them)."""
    encoded = _STRING_ENCODER.encode(text)
    if _JSON_RAW.search(encoded) is None:
        return encoded
    return _JSON_RAW.sub(_json_escape, encoded)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`json.dumps(value, ensure_ascii=False)`, with the unsafe characters as `\\uNNNN`.

    `json.dumps` already escapes C0 controls; DEL, C1, bidi controls, the
    separators (which `str.splitlines` breaks JSON Lines on) and lone surrogates
    (which cannot be encoded as UTF-8) it would leave raw. Outside strings JSON
    holds only ASCII, so escaping them anywhere in the text keeps it exact.
    """
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if _JSON_RAW.search(text) is None:
        return text
    return _JSON_RAW.sub(_json_escape, text)
