"""A server's page listing, answering `Brain.pages` and name lookups before any scan.

With a server graph (the fast path) a body scan is only needed for link kinds and
dangling targets; listing pages and resolving typed names need no more than the
server's `list_pages` rows. Choices where the SPEC is silent:

- The listing is used only when every row gave a title (a `PageInfo`); otherwise
  the caller falls back to the index.
- gbrain's rows carry no tags, so such infos have `tags_known` False (shown as
  unknown, never as "no tags"). A `tag` filter over them asks the server's own
  `list_pages` `tag` filter (a `TagListing` source's `slugs_with_tag`, paged), which
  is exact and costs a call per 100 matches instead of a body scan; a source without
  that capability makes the caller fall back to the index. The matching pages keep
  `tags_known` False: the server said they carry that tag, not which others.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from okf_explorer.core.links import SlugResolver
from okf_explorer.core.pages import PageInfo
from okf_explorer.core.port import PageSource, TagListing


class ServerListing:
    """The source's listing, fetched once (a `Brain` drops it on `refresh`)."""

    def __init__(self, source: PageSource) -> None:
        self._source = source
        self._lock = threading.Lock()
        self._infos: list[PageInfo] | None = None
        self._usable = True
        self._resolver: SlugResolver | None = None
        self._tagged: dict[str, frozenset[str]] = {}

    def infos(self) -> list[PageInfo] | None:
        """Every page's info in slug order, or None when the listing lacks some."""
        with self._lock:
            if self._infos is None and self._usable:
                stubs = self._source.enumerate()
                if any(stub.info is None for stub in stubs):
                    self._usable = False
                else:
                    self._infos = [stub.info for stub in stubs]  # type: ignore[misc]
            return self._infos

    def pages(self, type: str | None, tag: str | None) -> list[PageInfo] | None:
        """The filtered listing, or None when the index must answer instead."""
        infos = self.infos()
        if infos is None:
            return None
        if tag is not None and not all(info.tags_known for info in infos):
            tagged = self._tagged_slugs(tag)
            if tagged is None:
                return None
            infos = [info for info in infos if info.slug in tagged]
            tag = None
        return [
            info
            for info in infos
            if (type is None or info.type == type) and (tag is None or tag in info.tags)
        ]

    def _tagged_slugs(self, tag: str) -> frozenset[str] | None:
        if not isinstance(self._source, TagListing):
            return None
        found = self._tagged.get(tag)
        if found is None:
            found = self._tagged[tag] = frozenset(self._source.slugs_with_tag(tag))
        return found

    def resolver(self) -> tuple[SlugResolver, Mapping[str, PageInfo]] | None:
        """A resolver over the listing (titles included), or None without a listing."""
        infos = self.infos()
        if infos is None:
            return None
        resolver = self._resolver
        if resolver is None:
            resolver = self._resolver = SlugResolver.for_pages(infos)
        return resolver, {info.slug: info for info in infos}
