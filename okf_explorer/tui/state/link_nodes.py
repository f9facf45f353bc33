"""What the link tree's nodes stand for, and the edges it lists for a page.

`outgoing_links` and `incoming_links` read the brain (blocking: run them in a worker);
`tui.widgets.graph.link_tree` turns their `TreeLink`s into `LinkNode` tree nodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from okf_explorer.core.audit.model import Difference
from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.traverse import LINKS
from okf_explorer.core.index.model import ResolvedLink

Side = Literal["out", "in"]


@dataclass(slots=True)
class LinkNode:
    """What a tree node stands for. `loaded` turns True once its children are fetched."""

    slug: str
    side: Side
    exists: bool = True
    readable: bool = True
    loaded: bool = False
    link: ResolvedLink | None = None
    """The resolved link this node stands for, when the brain handed it over (outgoing)."""
    rel: str = LINKS
    group: bool = False
    """A heading that groups a side's links of relation `rel`, not a page."""
    mention: str | None = None
    """For a page under Mentions: the sentence naming the page (the subtitle shows it)."""
    difference: Difference | None = None
    """How the server disagrees with the text on this link (`server_view`), if it does."""


@dataclass(frozen=True, slots=True)
class TreeLink:
    """One edge the tree shows: the page at the other end, the edge's relation, whether
    the page exists, and the link the page states for it (outgoing), if any."""

    slug: str
    rel: str = LINKS
    exists: bool = True
    link: ResolvedLink | None = None


def outgoing_links(brain: Brain, slug: str) -> list[TreeLink]:
    """The edges leaving `slug` (its own links, and relations other pages state from its
    side), each with the link behind it when `slug` states it. Blocking: run in a worker."""
    stated = {(link.to, link.rel): link for link in brain.forward_links(slug) if not link.incoming}
    index = brain.index
    found = []
    for node, rel in brain.out_edges(slug):
        link = stated.get((node, rel))
        exists = link.exists if link is not None else index is None or index.exists(node)
        found.append(TreeLink(node, rel, exists, link))
    return found


def incoming_links(brain: Brain, slug: str) -> list[TreeLink]:
    """The edges into `slug`, slug order, once per (page, relation). Blocking: run in a worker."""
    return [TreeLink(node, rel) for node, rel in dict.fromkeys(brain.in_edges(slug))]
