"""Loading untrusted frontmatter YAML within fixed bounds.

Frontmatter comes from whoever wrote the files, so a few hundred bytes must
not cost gigabytes: YAML aliases can repeat an anchored node, and chained
anchors (`b: &b [*a, *a, ...]`, `c: &c [*b, *b, ...]`) grow exponentially
(the "billion laughs"); an alias inside its own anchor (`a: &a [*a]`) makes a
structure that contains itself, on which every consumer recurses forever.

`load_bounded` therefore composes the YAML node graph first (PyYAML shares
one node per anchor, so this costs the size of the text), measures it without
recursion, and only then builds Python values, refusing a block that is too
large (`MAX_FRONTMATTER_BYTES`), nests too deeply (`MAX_FRONTMATTER_DEPTH`),
refers to itself, or whose aliases would add more than
`MAX_ALIAS_EXPANSION` values. A refusal is a `FrontmatterRefused` whose
message is the one-line reason.
"""

from __future__ import annotations

from typing import Any

import yaml

from okf_explorer.sources.fast_yaml import load_flat

MAX_FRONTMATTER_BYTES = 256 * 1024
"""Largest frontmatter block (UTF-8 bytes between the fences) that is parsed.
Real frontmatter is a few hundred bytes; a larger block is ignored, with the
page kept and its error saying why."""

MAX_FRONTMATTER_DEPTH = 64
"""Deepest nesting of lists and mappings accepted in frontmatter (the top
mapping is level 1; counted after aliases are expanded)."""

MAX_ALIAS_EXPANSION = 10_000
"""Most values aliases may add to frontmatter once expanded: `x: &x [a, b]` then
`y: *x` adds 3 (the list and its two items). Ordinary reuse of an anchor stays
far below; an exponential alias chain goes over at once."""

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class FrontmatterRefused(ValueError):
    """The block is over one of the bounds; the message is the user-facing reason."""


def load_bounded(block: str) -> Any:
    """The value of one YAML document within the bounds, or `FrontmatterRefused`.

    Malformed YAML raises `yaml.YAMLError` as `yaml.load` would; an empty
    document is None.
    """
    check_size(block)
    flat = load_flat(block)  # the commonest shape, without the library (a fast path)
    if flat is not None:
        return flat
    loader = _Loader(block)  # a safe loader (C when available)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "*" in block or _collection_bound(block) > MAX_FRONTMATTER_DEPTH:
            check_node_graph(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def check_size(block: str) -> None:
    """Refuse a block over `MAX_FRONTMATTER_BYTES` (UTF-8 bytes, counted only when
    the characters alone do not settle it)."""
    if len(block) > MAX_FRONTMATTER_BYTES or (
        4 * len(block) > MAX_FRONTMATTER_BYTES
        and len(block.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES
    ):
        raise FrontmatterRefused(f"it is larger than {MAX_FRONTMATTER_BYTES // 1024} KiB")


def check_node_graph(root: yaml.Node) -> None:
    """Refuse a composed node graph that refers to itself, nests deeper than
    `MAX_FRONTMATTER_DEPTH` or whose aliases expand beyond `MAX_ALIAS_EXPANSION`.

    One iterative post-order walk over the distinct nodes: each node's expanded
    size and height are computed once (an alias reuses them), so the cost is the
    size of the text, whatever the expansion.
    """
    sizes: dict[int, int] = {}  # id(node) -> values in its expansion (itself included)
    heights: dict[int, int] = {}  # id(node) -> levels of collections in its expansion
    open_nodes: set[int] = set()  # entered, not yet finished: the current path
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            children = _children(node)
            size = 1 + sum(sizes[id(child)] for child in children)
            height = int(not isinstance(node, yaml.ScalarNode))
            height += max((heights[id(child)] for child in children), default=0)
            if height > MAX_FRONTMATTER_DEPTH:
                raise FrontmatterRefused(f"it nests deeper than {MAX_FRONTMATTER_DEPTH} levels")
            if size - len(sizes) - 1 > MAX_ALIAS_EXPANSION:  # a lower bound of the whole's
                raise FrontmatterRefused(
                    f"its aliases expand to more than {MAX_ALIAS_EXPANSION:,} values"
                )
            sizes[key], heights[key] = size, height
            continue
        if key in sizes:
            continue  # an alias of a finished node: measured already
        if key in open_nodes:
            raise FrontmatterRefused("an alias refers to the node that holds it")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(_children(node)))


def _collection_bound(block: str) -> int:
    """An upper bound of the collections in a block without aliases, so of its depth:
    each list or mapping has an indicator of its own (`[`, `{`, `-`, `:` or `?`).
    Counting them is far cheaper than walking the nodes, and settles most blocks."""
    return sum(block.count(indicator) for indicator in "[{-:?")


def _children(node: yaml.Node) -> list[yaml.Node]:
    """The nodes directly inside a collection node (keys and values of a mapping)."""
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []
