"""`fast_yaml.load_flat` answers as PyYAML does, or hands the block back (None).

A differential test over blocks assembled from tricky pieces (YAML indicators,
implicit types, quoting, sequences in both styles, comments, nesting), against
the library loader the frontmatter uses, comparing types as well as values.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core import fast_paths
from okf_explorer.sources import frontmatter
from okf_explorer.sources.fast_yaml import load_flat

pytestmark = pytest.mark.plain

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

KEYS = [
    "title",
    "type",
    "tags",
    "aliases",
    "updated",
    "a-b",
    "_x",
    "Key",
    "k1",
    "yes",
    "null",
    "on",
    "True",
    "1a",
    "<<",
    "x y",
    "é",
    "~",
]
SCALARS = [
    "",
    "plain text",
    "Topic 000042 alias",
    "a: b",
    "a:b",
    "a:",
    "x #c",
    "x#c",
    "#c",
    "'q'",
    "'it''s'",
    "'a\\b'",
    "''",
    '"dq"',
    '"a\\nb"',
    '""',
    '"un',
    "'un",
    '"a"b"',
    "2024-07-12",
    "2024-02-30",
    "2024-1-5",
    "2024-01-01 10:00:00",
    "2024-01-01T10:00:00Z",
    "1",
    "-1",
    "+1",
    "0x1F",
    "0o17",
    "017",
    "1_000",
    "1:20",
    "1.5",
    ".inf",
    "-.inf",
    ".nan",
    "1e5",
    "1.0e+5",
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "n",
    "true",
    "False",
    "~",
    "null",
    "Null",
    "&a x",
    "*a",
    "!!str x",
    "!x",
    "|",
    ">",
    "%x",
    "@x",
    "`x`",
    "=",
    "<<",
    "ü",
    "\xa0x",
    "a  b",
    "x ",
    "- a",
    "-a",
    "?",
    "? a",
    "a, b",
    "a,b",
    "[a, b]",
    "[]",
    "[ ]",
    "[a, [b]]",
    "[a,]",
    "[a, b: c]",
    "[a, 'b']",
    "[1, yes, ~, 2024-07-12]",
    "[a b, c]",
    "[a #b]",
    "[a",
    "{a: 1}",
    "{}",
    "a ]",
    "x\x01",
    "\u2028",
    "a\\b",
    "---",
    "...",
]


def shapes() -> st.SearchStrategy[str]:
    key = st.sampled_from(KEYS)
    scalar = st.sampled_from(SCALARS)
    indent = st.sampled_from(["", " ", "  ", "    "])
    pair = st.builds(lambda k, v: f"{k}: {v}", key, scalar)
    bare = st.builds(lambda k: f"{k}:", key)
    item = st.builds(lambda i, v: f"{i}- {v}".rstrip(), indent, scalar)
    odd = st.sampled_from(
        [
            "",
            "# comment",
            "  # indented comment",
            "   ",
            "  nested: 1",
            "  continued",
            "\tkey: v",
            "key: v\r",
            "key:v",
            "key :v",
            "---",
            "- top",
            "? complex",
            "key:  spaced",
            "key: v  # trailing",
        ]
    )
    return st.lists(st.one_of(pair, bare, item, odd), min_size=1, max_size=8).map("\n".join)


def typed(value: Any) -> Any:
    """A value with its type spelled out at every level (1 != True, date != datetime)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    return (type(value).__name__, value)


def library(block: str) -> Any:
    try:
        return ("ok", typed(yaml.load(block, Loader=LOADER)))
    except (yaml.YAMLError, ValueError, TypeError) as error:
        return ("error", type(error).__name__)


@pytest.fixture(autouse=True)
def fast_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast_paths.PLAIN_ENV, "0")


@settings(max_examples=3000, deadline=None)
@given(shapes())
def test_answers_as_the_library_or_hands_back(block: str) -> None:
    fast = load_flat(block)
    if fast is not None:
        assert ("ok", typed(fast)) == library(block), block


@pytest.mark.parametrize(
    "block",
    [
        "title: Topic 000042 alias\ntype: table\ntags: [cache, alias]\nupdated: 2024-07-12\n",
        "title: 'Quoted: yes'\naliases:\n  - One\n  - two words\nstatus: draft\n",
        "tags:\n- a\n- 1\n- yes\n-\nnext: ~\n",
        "empty:\nn: 1_000\nf: 1.5\nb: Off\nwhen: 2024-01-01T10:00:00Z\n",
        "# a comment\n\ntitle: x:y\nlist: []\n",
    ],
)
def test_the_common_shapes_are_answered(block: str) -> None:
    fast = load_flat(block)
    assert fast is not None
    assert ("ok", typed(fast)) == library(block)


@pytest.mark.parametrize(
    "block",
    [
        "a: 1\na: 2\n",  # a duplicate key (the library keeps the last)
        "outer:\n  inner: 1\n",
        "title: long\n  continued\n",
        "x: &a 1\ny: *a\n",
        "x: !!str 1\n",
        "x: {a: 1}\n",
        "x: 1 # comment\n",
        "yes: 1\n",
        "d: 2024-02-30\n",
        "",
        "# only a comment\n",
    ],
)
def test_anything_else_is_handed_back(block: str) -> None:
    assert load_flat(block) is None


def test_the_answers_are_fresh_values() -> None:
    first = load_flat("tags: [a, b]\nwhen: 2024-07-12\n")
    assert first is not None
    first["tags"].append("c")
    assert load_flat("tags: [a, b]\nwhen: 2024-07-12\n") == {
        "tags": ["a", "b"],
        "when": datetime.date(2024, 7, 12),
    }


def test_plain_mode_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast_paths.PLAIN_ENV, "1")
    assert load_flat("title: x\n") is None
    assert frontmatter.load_bounded("title: x\n") == {"title": "x"}
