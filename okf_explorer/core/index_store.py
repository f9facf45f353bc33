"""What one index build hands the next: reusable pages from the previous
in-memory index or from the disk cache, and the cache payload itself.

The payload is plain values (marshal-able), columns aligned by page; its
layout is bound to `cache.FORMAT_VERSION`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from okf_explorer.core.pages import PageInfo

if TYPE_CHECKING:
    from okf_explorer.core.index import LinkIndex, ResolvedLink

    Reusable = tuple[PageInfo, tuple[tuple[str, str, int], ...], tuple[ResolvedLink, ...]]


class Known:
    """What an earlier build left: reusable pages, and its walk tables when all is unchanged.

    Built from the previous in-memory index or from a disk-cache payload
    (`cache_payload` layout); a payload of the wrong shape yields nothing reusable.
    """

    def __init__(self) -> None:
        self.signature: str | None = None
        self.reverse: dict[str, tuple[str, ...]] | None = None
        self.targets: dict[str, tuple[str, ...]] = {}
        self.ambiguous = 0
        self._rows: dict[str, tuple[str, int]] = {}  # slug → (fingerprint, row number)
        self._make: Callable[[int], Reusable] = _nothing

    def entry(self, slug: str, fingerprint: str) -> Reusable | None:
        """The reusable page when its fingerprint is unchanged (a malformed cache row: None)."""
        found = self._rows.get(slug)
        if found is None or found[0] != fingerprint:
            return None
        try:
            return self._make(found[1])
        except (TypeError, ValueError, IndexError):
            return None

    @classmethod
    def from_index(cls, index: LinkIndex) -> Known:
        known = cls()
        known.signature = index.signature or None
        known.reverse, known.targets, known.ambiguous = (
            index.reverse,
            index.targets,
            index.ambiguous,
        )
        entries: list[Reusable] = []
        for slug, info in index.pages.items():
            raw, links = index.raw_links.get(slug), index.forward.get(slug)
            if raw is not None and links is not None:
                known._rows[slug] = (info.fingerprint, len(entries))
                entries.append((info, raw, links))
        known._make = entries.__getitem__
        return known

    @classmethod
    def from_cache(cls, signature: str, data: object) -> Known:
        try:
            return cls._decode(signature, data)
        except (TypeError, ValueError, IndexError, KeyError):
            return cls()

    @classmethod
    def _decode(cls, signature: str, data: object) -> Known:
        infos, raws, table, forward_idx, targets, reverse, ambiguous = data  # type: ignore[misc]
        if not (len(infos) == len(raws) == len(forward_idx) == len(targets)):
            raise ValueError("cache columns differ in length")
        from okf_explorer.core.index import ResolvedLink  # index imports this module

        links: list[ResolvedLink] = []

        def make(i: int) -> Reusable:
            if not links and table:
                links.extend(ResolvedLink(*values) for values in table)
            return PageInfo(*infos[i]), raws[i], tuple(map(links.__getitem__, forward_idx[i]))

        known = cls()
        known.signature, known.ambiguous, known._make = signature, int(ambiguous), make
        known.reverse = dict(reverse)
        known.targets = {info[0]: found for info, found in zip(infos, targets, strict=True)}
        known._rows = {info[0]: (info[8], i) for i, info in enumerate(infos)}
        return known


def _nothing(_: int) -> Reusable:  # pragma: no cover - never reached
    """The maker of an empty `Known`: it has no rows, so `entry` never calls it."""
    raise IndexError("nothing to reuse")


def cache_payload(index: LinkIndex) -> tuple:
    """The index as plain values for `IndexCache` (layout bound to `cache.FORMAT_VERSION`).

    Columns aligned by page: PageInfo fields, raw links, indices into a table
    of distinct resolved links, targets; then the reverse index and the
    ambiguity count. marshal keeps shared strings shared.
    """
    infos, raws, forward_idx, targets = [], [], [], []
    table: list[tuple] = []
    position: dict[int, int] = {}
    for slug, i in index.pages.items():
        infos.append(
            (
                i.slug,
                i.title,
                i.type,
                i.tags,
                i.updated_at,
                i.reserved,
                i.readable,
                i.error,
                i.fingerprint,
                i.description,
            )
        )
        raws.append(index.raw_links[slug])
        targets.append(index.targets[slug])
        idx = []
        for link in index.forward[slug]:
            at = position.get(id(link))
            if at is None:
                at = position[id(link)] = len(table)
                table.append(
                    (link.target, link.to, link.kind, link.rule, link.count, link.ambiguous)
                )
            idx.append(at)
        forward_idx.append(tuple(idx))
    return infos, raws, table, forward_idx, targets, index.reverse, index.ambiguous
