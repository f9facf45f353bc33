"""A tiny hand-made bundle for the CLI tests, with its links written out by hand.

Forward links (order of first appearance): a → b, c, missing (dangling), d;
b → c, a; d → c; notes/e → a. `bad` has malformed frontmatter, `latin1` is not
UTF-8 (unreadable). Backlinks of a: b, notes/e.
"""

from __future__ import annotations

from pathlib import Path

from tests.bundles import write_bundle

A_BODY = "# Alpha\n\nLinks to [[b]], [[c|see C]], [[missing]] and [d](d.md).\n"

FILES: dict[str, str] = {
    "a.md": "---\ntitle: Alpha\ntype: table\ntags: [core, sales]\n---\n" + A_BODY,
    "b.md": "---\ntype: metric\ntags: [core]\n---\nB uses [[c]] and goes back to [[a]].\n",
    "c.md": "C links nowhere.\n",
    "d.md": "---\ntype: table\n---\nD reads [[c]].\n",
    "notes/e.md": "---\ntitle: Epsilon\ntype: note\n---\nE cites [[a]].\n",
    "bad.md": "---\ntitle: [unclosed\n---\nBody after broken frontmatter.\n",
}
LATIN1 = "latin1.md"


def make_bundle(root: Path) -> Path:
    """Write the test bundle into `root` and return it."""
    return write_bundle(root, {**FILES, LATIN1: b"caf\xe9 [[a]]\n"})


def edge(frm: str, to: str, hop: int, direction: str) -> dict[str, object]:
    """One OKF edge record (SPEC §5), keys in their fixed order."""
    return {
        "type": "edge",
        "hemisphere": "knowledge",
        "from": frm,
        "to": to,
        "rel": "links",
        "direction": direction,
        "hop": hop,
    }
