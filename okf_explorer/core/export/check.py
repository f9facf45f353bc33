"""Is an export well-formed? Each format is parsed, not just read back, as it streams.

`check_export_stream(fmt, blocks)` raises `MalformedExport` (one sentence) unless
the bytes are UTF-8 and parse as `fmt`: JSON as a list whose items `json` decodes
one by one, JSON Lines one `json.loads` per line (each an object), GraphML with the
standard library's XML parser fed block by block (a `graphml` root holding a
`graph`), DOT and Mermaid with the small line-by-line grammars below, which accept
the subset of each language that `core.export.formats` writes (any quoted text, any
attributes, any edge style), and refuse raw control characters, which our
renderers always escape. Memory holds a block and one record (or line) at a time,
whatever the export's size; Mermaid also remembers the node ids it has seen
(`_IdSet`: one bit each for ours). `check_export(fmt, data)` checks bytes in hand.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterable
from typing import Protocol
from xml.parsers import expat

GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"

_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
"""Controls that no export of ours holds raw (tab and newline are layout)."""

MAX_RECORD_CHARS = 64 * 1024 * 1024
"""The longest JSON list item read in one piece (an edge record is a few hundred)."""


class MalformedExport(ValueError):
    """The export does not parse as its format; `str()` says where."""


class _Checker(Protocol):
    def feed(self, text: str) -> None: ...

    def close(self) -> None: ...


def check_export(fmt: str, data: bytes) -> None:
    """Raise `MalformedExport` unless `data` is a well-formed `fmt` document."""
    check_export_stream(fmt, [data])


def check_export_stream(fmt: str, blocks: Iterable[bytes]) -> None:
    """Raise `MalformedExport` unless the bytes of `blocks`, in order, are a
    well-formed `fmt` document (read once, a block at a time)."""
    make = _CHECKERS.get(fmt)
    if make is None:
        raise MalformedExport(f"unknown export format {fmt!r}")
    checker = make()
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # bytes given to the decoder before this block
    for block in blocks:
        checker.feed(_decoded(decoder, block, offset, final=False))
        offset += len(block)
    checker.feed(_decoded(decoder, b"", offset, final=True))
    checker.close()


def _decoded(decoder: codecs.IncrementalDecoder, block: bytes, offset: int, *, final: bool) -> str:
    held = len(decoder.getstate()[0])  # the start of a character cut by the last block
    try:
        return decoder.decode(block, final)
    except UnicodeDecodeError as error:
        raise MalformedExport(f"not UTF-8 at byte {offset - held + error.start}") from None


class _Lines:
    """Splits fed text into lines at `\\n` (as `str.split("\\n")`) for `line(number,
    text)`; `end(rest)` gets what follows the last `\\n`. Raw controls are refused
    on the way in when `name` is given."""

    def __init__(self, name: str | None = None) -> None:
        self._name = name
        self._partial: list[str] = []
        self._number = 0
        self._chars = 0

    def feed(self, text: str) -> None:
        if self._name is not None and (found := _RAW_CONTROL.search(text)) is not None:
            code, where = ord(found.group()), self._chars + found.start()
            raise MalformedExport(
                f"{self._name}: raw control character U+{code:04X} at character {where}"
            )
        self._chars += len(text)
        pieces = text.split("\n")
        if len(pieces) == 1:
            if text:
                self._partial.append(text)
            return
        self._partial.append(pieces[0])
        first = "".join(self._partial)
        self._partial = [pieces[-1]] if pieces[-1] else []
        for line in (first, *pieces[1:-1]):
            self._number += 1
            self.line(self._number, line)

    def close(self) -> None:
        self.end("".join(self._partial))

    def line(self, number: int, text: str) -> None:
        raise NotImplementedError

    def end(self, rest: str) -> None:
        raise NotImplementedError


# --- JSON and JSON Lines -------------------------------------------------------

_WHITESPACE = re.compile(r"[ \t\n\r]*")


class _JsonList:
    """A JSON list, its items decoded one at a time (`JSONDecoder.raw_decode`): an
    item cut by the end of a block is tried again once more text is in."""

    def __init__(self) -> None:
        self._decoder = json.JSONDecoder()
        self._buffer = ""
        self._consumed = 0  # characters before the buffer
        self._state = "start"  # start, first, item, after, end
        self._wanted = 0  # buffer length worth another try at a cut item

    def feed(self, text: str, final: bool = False) -> None:
        self._buffer += text
        if len(self._buffer) < self._wanted and not final:
            return
        position = self._step(final)
        self._consumed += position
        self._buffer = self._buffer[position:]

    def close(self) -> None:
        self.feed("", final=True)
        if self._state == "start":
            raise self._error("not valid JSON: expecting a value", 0)
        if self._state != "end":
            raise self._error("not valid JSON: the list is not closed", 0)

    def _step(self, final: bool) -> int:
        buffer, position = self._buffer, 0
        while True:
            position = _WHITESPACE.match(buffer, position).end()  # type: ignore[union-attr]
            if position == len(buffer):
                return position
            if self._state == "end":
                raise self._error("not valid JSON: extra data after the list", position)
            char = buffer[position]
            if self._state == "start":
                if char != "[":
                    raise self._not_a_list(char)
                self._state, position = "first", position + 1
            elif self._state in ("first", "after") and char == "]":
                self._state, position = "end", position + 1
            elif self._state == "after":
                if char != ",":
                    raise self._error("not valid JSON: expecting ',' delimiter", position)
                self._state, position = "item", position + 1
            else:
                try:
                    _, position = self._decoder.raw_decode(buffer, position)
                except json.JSONDecodeError as error:
                    if final or len(buffer) - position > MAX_RECORD_CHARS:
                        raise self._error(f"not valid JSON: {error.msg}", error.pos) from None
                    self._wanted = 2 * (len(buffer) - position)  # twice the cut item's text
                    return position
                self._state, self._wanted = "after", 0

    def _not_a_list(self, char: str) -> MalformedExport:
        if char in '{"-0123456789tfn':
            return MalformedExport("not a JSON list of edge records")
        return MalformedExport(f"not valid JSON: expecting a value at char {self._consumed}")

    def _error(self, message: str, position: int) -> MalformedExport:
        return MalformedExport(f"{message} (char {self._consumed + position})")


class _JsonLines(_Lines):
    def line(self, number: int, text: str) -> None:
        try:
            value = json.loads(text)
        except ValueError as error:
            raise MalformedExport(f"line {number} is not valid JSON: {error}") from None
        if not isinstance(value, dict):
            raise MalformedExport(f"line {number} is not a JSON object")

    def end(self, rest: str) -> None:
        if rest:
            raise MalformedExport("JSON Lines must end with a newline")


# --- GraphML -------------------------------------------------------------------


class _GraphMl:
    """Well-formed XML (expat, the parser behind `xml.etree`, fed block by block,
    without building a tree) whose root is `graphml` and which holds a `graph`."""

    def __init__(self) -> None:
        self._root, self._graph = f"{GRAPHML_NS} graphml", f"{GRAPHML_NS} graph"
        self._found: list[str] = []
        self._parser = expat.ParserCreate(namespace_separator=" ")
        self._parser.StartElementHandler = self._opened

    def _opened(self, name: str, attributes: object) -> None:
        if not self._found or (name == self._graph and len(self._found) == 1):
            self._found.append(name)

    def feed(self, text: str) -> None:
        self._parse(text.encode("utf-8"), final=False)

    def close(self) -> None:
        self._parse(b"", final=True)
        if self._found != [self._root, self._graph]:
            raise MalformedExport("not a GraphML document (no graphml root holding a graph)")

    def _parse(self, data: bytes, *, final: bool) -> None:
        try:
            self._parser.Parse(data, final)
        except expat.ExpatError as error:
            raise MalformedExport(f"not well-formed XML: {error}") from None


# --- DOT ---------------------------------------------------------------------

_QUOTED = r'"(?:[^"\\\n]|\\.)*+"'  # one line: our writer escapes line breaks
_NAME = r"[A-Za-z_\x80-\U0010ffff][A-Za-z_0-9\x80-\U0010ffff]*+"
_NUMERAL = r"-?(?:\.[0-9]++|[0-9]++(?:\.[0-9]*+)?)"
_ID = rf"(?:{_QUOTED}|{_NAME}|{_NUMERAL})"
_ATTRIBUTES = rf"\[(?:\s*+{_ID}\s*+=\s*+{_ID}\s*+[,;]?+)*+\s*+\]"
_DOT_HEADER = re.compile(rf"(?:strict\s+)?(?P<kind>digraph|graph)(?:\s+{_ID})?\s*\{{\s*")
_DOT_STATEMENT = {
    arrow: re.compile(
        rf"\s*+(?:(?:graph|node|edge)\s*+{_ATTRIBUTES}"
        rf"|{_ID}\s*+=\s*+{_ID}"
        rf"|{_ID}(?:\s*+{arrow}\s*+{_ID})*+(?:\s*+{_ATTRIBUTES})?+)\s*+;?+\s*+"
    )
    for arrow in ("->", "--")
}


class _Dot(_Lines):
    """`[strict] digraph|graph [ID] {`, one statement a line (node, edge, attribute
    or `graph|node|edge [...]`), then `}`: the layout `core.export.formats` writes. The last
    line that is not blank must be `}`, so each is checked once the next one comes."""

    def __init__(self) -> None:
        super().__init__("DOT")
        self._statement: re.Pattern[str] | None = None
        self._held: tuple[int, str] | None = None  # the last line that is not blank

    def line(self, number: int, text: str) -> None:
        if number == 1:
            header = _DOT_HEADER.fullmatch(text)
            if header is None:
                raise _NOT_DOT
            self._statement = _DOT_STATEMENT["->" if header.group("kind") == "digraph" else "--"]
            return
        if not text.strip():
            return
        if self._held is not None:
            self._check_statement(*self._held)
        self._held = (number, text)

    def _check_statement(self, number: int, text: str) -> None:
        assert self._statement is not None
        if not self._statement.fullmatch(text):
            raise MalformedExport(f"DOT: line {number} is not a statement: {_shown(text)}")

    def end(self, rest: str) -> None:
        if rest:
            self.line(self._number + 1, rest)
        if self._statement is None or self._held is None or self._held[1].strip() != "}":
            raise _NOT_DOT


_NOT_DOT = MalformedExport("DOT: not `digraph NAME {` ... `}`")


# --- Mermaid -----------------------------------------------------------------

_MERMAID_NODE = re.compile(r"\s+(?P<id>[A-Za-z0-9_]+)\[\"[^\"]*\"\]")
_MERMAID_EDGE = re.compile(
    r"\s+(?P<a>[A-Za-z0-9_]+)\s+(?:-->|---|-\.->|==>|--[ox])"
    r"(?:\|(?:\"[^\"]*\"|[^|\"]*)\|)?\s*(?P<b>[A-Za-z0-9_]+)"
)
_MERMAID_TITLE = re.compile(r"title: \"(?:[^\"\\]|\\\\)*\"")
_MERMAID_OTHER = re.compile(r"\s*(?:%%.*|(?:classDef|class|style|linkStyle)\s[^\"]*)?")


_MERMAID_HEADER = re.compile(r"(?:flowchart|graph) (?:LR|RL|TB|TD|BT)")


class _Mermaid(_Lines):
    """Optional front matter (`---`, a title, `---`), a flowchart header, then node,
    edge and styling lines; every node an edge names must be defined somewhere."""

    def __init__(self) -> None:
        super().__init__("Mermaid")
        self._state = "start"  # start, front matter, header, body
        self._defined = _IdSet()
        self._undefined: set[str] = set()  # named by an edge, not defined yet

    def line(self, number: int, text: str) -> None:
        if self._state == "start":
            self._state = "front matter" if text == "---" else "header"
            if self._state == "front matter":
                return
        if self._state == "front matter":
            if text == "---":
                self._state = "header"
            elif not _MERMAID_TITLE.fullmatch(text):
                raise MalformedExport(f"Mermaid: unexpected front matter line {_shown(text)}")
        elif self._state == "header":
            if not _MERMAID_HEADER.fullmatch(text):
                raise _NO_FLOWCHART
            self._state = "body"
        elif node := _MERMAID_NODE.fullmatch(text):
            self._defined.add(node.group("id"))
            self._undefined.discard(node.group("id"))
        elif edge := _MERMAID_EDGE.fullmatch(text):
            for end in (edge.group("a"), edge.group("b")):
                if end not in self._defined:
                    self._undefined.add(end)
        elif not _MERMAID_OTHER.fullmatch(text):
            raise MalformedExport(f"Mermaid: unexpected line {_shown(text)}")

    def end(self, rest: str) -> None:
        if rest:
            self.line(self._number + 1, rest)
        if self._state == "front matter":
            raise MalformedExport("Mermaid: front matter is not closed by ---")
        if self._state != "body":
            raise _NO_FLOWCHART
        if self._undefined:
            raise MalformedExport(f"Mermaid: edges to undefined nodes {sorted(self._undefined)}")


_NO_FLOWCHART = MalformedExport("Mermaid: no flowchart header")


class _IdSet:
    """A set of Mermaid node ids: ours (`n0`, `n1`, …) one bit each, any other in a
    set, so a million-node export is checked in 128 KB."""

    _OURS = re.compile(r"n(?:0|[1-9][0-9]{0,7})")

    def __init__(self) -> None:
        self._bits = bytearray()
        self._others: set[str] = set()

    def add(self, node_id: str) -> None:
        if self._OURS.fullmatch(node_id):
            number = int(node_id[1:])
            if number // 8 >= len(self._bits):
                self._bits.extend(bytes(max(number // 8 + 1 - len(self._bits), len(self._bits))))
            self._bits[number // 8] |= 1 << (number % 8)
        else:
            self._others.add(node_id)

    def __contains__(self, node_id: str) -> bool:
        if self._OURS.fullmatch(node_id):
            number = int(node_id[1:])
            byte = number // 8
            return byte < len(self._bits) and bool(self._bits[byte] >> (number % 8) & 1)
        return node_id in self._others


def _shown(line: str) -> str:
    """A line quoted for an error message, cut to a readable length."""
    return repr(line if len(line) <= 60 else line[:57] + "...")


_CHECKERS: dict[str, Callable[[], _Checker]] = {
    "json": _JsonList,
    "jsonl": _JsonLines,
    "dot": _Dot,
    "graphml": _GraphMl,
    "mermaid": _Mermaid,
}
