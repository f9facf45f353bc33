"""The walk tables of a link index (`targets`, `reverse`, `out_rels`, `in_rels`), built
from every page's resolved links once they are all known (see `index_model.LinkIndex`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from okf_explorer.core.links.typed import LINKS

if TYPE_CHECKING:
    from okf_explorer.core.index.model import LinkIndex


def plain_tables(index: LinkIndex, targets: dict[str, tuple[str, ...]] | None = None) -> None:
    """The walk tables of a corpus whose links are all `links` (the hot path);
    `targets` (slug → its links' nodes, in page order) when already known."""
    if targets is None:
        targets = {
            slug: tuple([link.to for link in links]) for slug, links in index.forward.items()
        }
    reverse: dict[str, list[str]] = {}
    for slug, tos in targets.items():
        for node in tos:
            froms = reverse.get(node)
            if froms is None:
                reverse[node] = [slug]
            else:
                froms.append(slug)
    index.targets, index.out_rels, index.in_rels = targets, {}, {}
    index.reverse = {node: tuple(froms) for node, froms in reverse.items()}


def typed_tables(index: LinkIndex, injected: dict[str, list[tuple[str, str]]]) -> None:
    """The walk tables with relations: pages in slug order, so `reverse` stays in slug order."""
    targets: dict[str, tuple[str, ...]] = {}
    out_rels: dict[str, tuple[str, ...]] = {}
    reverse: dict[str, list[tuple[str, str]]] = {}
    for slug, links in index.forward.items():
        stated = [(link.to, link.rel) for link in links if not link.incoming]
        # the same edge may be stated from both ends (`company` on a person and
        # `key_people` on the company): it is one edge
        edges = list(dict.fromkeys([*stated, *injected.get(slug, ())]))
        targets[slug] = tuple([node for node, _ in edges])
        if any(rel != LINKS for _, rel in edges):
            out_rels[slug] = tuple([rel for _, rel in edges])
        for node, rel in edges:
            reverse.setdefault(node, []).append((slug, rel))
    index.targets, index.out_rels = targets, out_rels
    index.reverse = {node: tuple([frm for frm, _ in pairs]) for node, pairs in reverse.items()}
    index.in_rels = {
        node: tuple([rel for _, rel in pairs])
        for node, pairs in reverse.items()
        if any(rel != LINKS for _, rel in pairs)
    }
