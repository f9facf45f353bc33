"""Is an export well-formed? Each format is parsed, not just read back.

`check_export(fmt, data)` raises `MalformedExport` (one sentence) unless `data`
is UTF-8 and parses as `fmt`: JSON with `json.loads` (a list), JSON Lines one
`json.loads` per line (each an object), GraphML with the standard library's XML
parser (a `graphml` root holding a `graph`), DOT and Mermaid with the small
structural parsers below, which accept the subset of each language that
`core.export` writes (any quoted text, any attributes, any edge style), and
refuse raw control characters, which our renderers always escape.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree

GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"

_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
"""Controls that no export of ours holds raw (tab and newline are layout)."""


class MalformedExport(ValueError):
    """The export does not parse as its format; `str()` says where."""


def check_export(fmt: str, data: bytes) -> None:
    """Raise `MalformedExport` unless `data` is a well-formed `fmt` document."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedExport(f"not UTF-8 at byte {error.start}") from None
    checker = _CHECKERS.get(fmt)
    if checker is None:
        raise MalformedExport(f"unknown export format {fmt!r}")
    checker(text)


def _check_json(text: str) -> None:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise MalformedExport(f"not valid JSON: {error}") from None
    if not isinstance(value, list):
        raise MalformedExport("not a JSON list of edge records")


def _check_jsonl(text: str) -> None:
    if text and not text.endswith("\n"):
        raise MalformedExport("JSON Lines must end with a newline")
    for number, line in enumerate(text.split("\n")[:-1], 1):
        try:
            value = json.loads(line)
        except ValueError as error:
            raise MalformedExport(f"line {number} is not valid JSON: {error}") from None
        if not isinstance(value, dict):
            raise MalformedExport(f"line {number} is not a JSON object")


def _check_graphml(text: str) -> None:
    try:
        root = ElementTree.fromstring(text.encode("utf-8"))
    except ElementTree.ParseError as error:
        raise MalformedExport(f"not well-formed XML: {error}") from None
    if root.tag != f"{GRAPHML_NS}graphml" or root.find(f"{GRAPHML_NS}graph") is None:
        raise MalformedExport("not a GraphML document (no graphml root holding a graph)")


# --- DOT ---------------------------------------------------------------------

_DOT_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<arrow>->|--)
    | (?P<punct>[{}\[\];,=])
    | (?P<number>-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
    | (?P<name>[A-Za-z_\x80-\U0010ffff][A-Za-z_0-9\x80-\U0010ffff]*)
    """,
    re.VERBOSE | re.DOTALL,
)


def _dot_tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        match = _DOT_TOKEN.match(text, position)
        if match is None:
            raise MalformedExport(f"unexpected DOT text at character {position}")
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append((kind, match.group()))
        position = match.end()
    return tokens


class _DotParser:
    """`[strict] digraph|graph [ID] { stmt* }` with node, edge, attribute statements."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self, *values: str) -> str:
        kind, value = self.peek()
        wanted_id = "ID" in values and kind in ("string", "number", "name")
        if not wanted_id and value not in values:
            shown = value or "the end"
            raise MalformedExport(f"DOT: expected {' or '.join(values)}, found {shown!r}")
        self.at += 1
        return value

    def graph(self) -> None:
        if self.peek()[1] == "strict":
            self.take("strict")
        kind = self.take("digraph", "graph")
        if self.peek()[1] != "{":
            self.take("ID")
        self.take("{")
        arrow = "->" if kind == "digraph" else "--"
        while self.peek()[1] != "}":
            self.statement(arrow)
        self.take("}")
        if self.at != len(self.tokens):
            raise MalformedExport("DOT: text after the closing brace")

    def statement(self, arrow: str) -> None:
        head = self.take("ID", "graph", "node", "edge")
        if head not in ("graph", "node", "edge") and self.peek()[1] == "=":
            self.take("=")
            self.take("ID")
        else:
            while self.peek()[1] == arrow:
                self.take(arrow)
                self.take("ID")
            if self.peek()[1] == "[":
                self.attributes()
        if self.peek()[1] in (";", ","):
            self.at += 1

    def attributes(self) -> None:
        self.take("[")
        while self.peek()[1] != "]":
            self.take("ID")
            self.take("=")
            self.take("ID")
            if self.peek()[1] in (";", ","):
                self.at += 1
        self.take("]")


def _check_dot(text: str) -> None:
    _refuse_raw_controls(text, "DOT")
    _DotParser(_dot_tokens(text)).graph()


# --- Mermaid -----------------------------------------------------------------

_MERMAID_NODE = re.compile(r"\s+(?P<id>[A-Za-z0-9_]+)\[\"[^\"]*\"\]")
_MERMAID_EDGE = re.compile(
    r"\s+(?P<a>[A-Za-z0-9_]+)\s+(?:-->|---|-\.->|==>|--[ox])"
    r"(?:\|(?:\"[^\"]*\"|[^|\"]*)\|)?\s*(?P<b>[A-Za-z0-9_]+)"
)
_MERMAID_TITLE = re.compile(r"title: \"(?:[^\"\\]|\\\\)*\"")
_MERMAID_OTHER = re.compile(r"\s*(?:%%.*|(?:classDef|class|style|linkStyle)\s[^\"]*)?")


def _check_mermaid(text: str) -> None:
    _refuse_raw_controls(text, "Mermaid")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines[:1] == ["---"]:
        try:
            end = lines.index("---", 1)
        except ValueError:
            raise MalformedExport("Mermaid: front matter is not closed by ---") from None
        for line in lines[1:end]:
            if not _MERMAID_TITLE.fullmatch(line):
                raise MalformedExport(f"Mermaid: unexpected front matter line {line!r}")
        lines = lines[end + 1 :]
    if not lines or not re.fullmatch(r"(?:flowchart|graph) (?:LR|RL|TB|TD|BT)", lines[0]):
        raise MalformedExport("Mermaid: no flowchart header")
    defined: set[str] = set()
    used: set[str] = set()
    for line in lines[1:]:
        if node := _MERMAID_NODE.fullmatch(line):
            defined.add(node.group("id"))
        elif edge := _MERMAID_EDGE.fullmatch(line):
            used.update((edge.group("a"), edge.group("b")))
        elif not _MERMAID_OTHER.fullmatch(line):
            raise MalformedExport(f"Mermaid: unexpected line {line!r}")
    if used - defined:
        raise MalformedExport(f"Mermaid: edges to undefined nodes {sorted(used - defined)}")


def _refuse_raw_controls(text: str, name: str) -> None:
    found = _RAW_CONTROL.search(text)
    if found is not None:
        raise MalformedExport(
            f"{name}: raw control character U+{ord(found.group()):04X} at character {found.start()}"
        )


_CHECKERS = {
    "json": _check_json,
    "jsonl": _check_jsonl,
    "dot": _check_dot,
    "graphml": _check_graphml,
    "mermaid": _check_mermaid,
}
