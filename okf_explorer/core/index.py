"""The link index: every page's summary, its resolved forward links, and the
reverse index, built by one scan of a source and cached on disk.

`build_index` is incremental: given the previous index (in memory) or the disk
cache, it rescans only pages whose fingerprint changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from okf_explorer.core.links import LinkKind, ResolveRule
from okf_explorer.core.pages import PageInfo


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    """One forward link of a page after resolution.

    `to` is the target slug, or the dangling node id when `rule == "dangling"`.
    `rule` records why the two pages are linked (shown by the UI).
    """

    target: str
    to: str
    kind: LinkKind
    rule: ResolveRule
    count: int = 1
    ambiguous: bool = False

    @property
    def exists(self) -> bool:
        return self.rule != "dangling"


@dataclass(slots=True)
class LinkIndex:
    """The parsed corpus.

    - `pages`: slug → PageInfo, in slug order (every page, readable or not).
    - `forward`: slug → resolved links in order of first appearance,
      de-duplicated after resolution (unreadable pages map to `()`).
    - `reverse`: node (slug or dangling id) → slugs of pages linking to it,
      de-duplicated, in slug order.
    - `ambiguous`: how many links resolved by an ambiguous basename.
    """

    pages: dict[str, PageInfo] = field(default_factory=dict)
    forward: dict[str, tuple[ResolvedLink, ...]] = field(default_factory=dict)
    reverse: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ambiguous: int = 0
