"""The tests' one way to write a bundle, and their sources built around a real bundle.

- `write_file` / `write_bundle` / `write_pages` write Markdown files into a tmp folder;
  `indexed_brain` writes pages and opens them as a brain, its index built.
- `WrappedSource` shows a real `BundleSource` through the plain `PageSource` protocol
  only (no `Folder`), records each scan's slugs, and goes down on demand.
- `CountingSource` is a `BundleSource` (row fast paths kept) recording each scan's slugs.
- `scan_sequentially` is the plain `scan` for in-memory fake sources.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import (
    Cancelled,
    OkfError,
    PageNotFound,
    PageUnreadable,
    SourceUnavailable,
)
from okf_explorer.core.pages import Page, PageInfo
from okf_explorer.core.port import (
    CancelCheck,
    PageSource,
    PageStub,
    ProgressCallback,
    ScannedPage,
    scan_one,
)
from okf_explorer.sources.folder.bundle import BundleSource


def write_file(root: Path, rel: str, content: str | bytes) -> Path:
    """Write one file `root/rel` (folders created; bytes as they are); returns its path."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def write_bundle(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write `{relative path: content}` under `root` (created even if empty); returns `root`."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        write_file(root, rel, content)
    return root


def write_pages(root: Path, pages: Mapping[str, str | bytes]) -> Path:
    """`write_bundle` keyed by slug: `{slug: markdown}` as `root/slug.md`; returns `root`."""
    return write_bundle(root, {f"{slug}.md": text for slug, text in pages.items()})


def indexed_brain(root: Path, pages: Mapping[str, str | bytes]) -> Brain:
    """`pages` written under `root` (`write_pages`) as a brain, its index built, no cache."""
    brain = Brain(BundleSource(write_pages(root, pages)), cache_dir=False)
    brain.ensure_index()
    return brain


class WrappedSource:
    """A real bundle behind the plain `PageSource` protocol (pure delegation).

    `scans` records the slugs of each `scan`; while `down` is set every call raises
    `SourceUnavailable`; `label` may be given.
    """

    def __init__(self, root: Path, *, down: bool = False, label: str | None = None) -> None:
        self.inner = BundleSource(root)
        self.down = down
        self.label = label or self.inner.label
        self.cache_key = self.inner.cache_key
        self.scans: list[list[str]] = []

    def _check(self) -> None:
        if self.down:
            raise SourceUnavailable("the brain is unreachable (test)")

    def enumerate(self) -> list[PageStub]:
        self._check()
        return self.inner.enumerate()

    def get_page(self, slug: str) -> Page:
        self._check()
        return self.inner.get_page(slug)

    def scan(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[ScannedPage]:
        self._check()
        self.scans.append([stub.slug for stub in stubs])
        return self.inner.scan(stubs, progress, cancel)

    def server_graph(self) -> None:
        return None

    def close(self) -> None:
        self.inner.close()


class CountingSource(BundleSource):
    """A bundle that records which slugs each scan was asked for (`build_index` asks a
    `Folder` for `scan_resolving`; `scan` goes through `scan_rows`)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.scans: list[list[str]] = []

    def scan_rows(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[tuple[Any, ...]]:
        self.scans.append([stub.slug for stub in stubs])
        return super().scan_rows(stubs, progress, cancel)

    def scan_resolving(
        self,
        stubs: Sequence[PageStub],
        resolve: Callable[..., Any],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[tuple[Any, Any]]:
        self.scans.append([stub.slug for stub in stubs])
        return super().scan_resolving(stubs, resolve, progress, cancel)


def scan_sequentially(
    source: PageSource,
    stubs: Sequence[PageStub],
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> Iterator[ScannedPage]:
    """A plain `scan` for fakes: one `get_page` per stub, in order; missing or
    unreadable pages become unreadable entries, as real sources report them."""
    total = len(stubs)
    for done, stub in enumerate(stubs, start=1):
        if cancel is not None and cancel():
            raise Cancelled("scan")
        try:
            page = source.get_page(stub.slug)
        except OkfError as error:
            if not isinstance(error, (PageNotFound, PageUnreadable)):
                raise
            title = stub.info.title if stub.info else stub.slug.rsplit("/", 1)[-1]
            yield ScannedPage(
                PageInfo(
                    slug=stub.slug,
                    title=title,
                    readable=False,
                    error=str(error),
                    fingerprint=stub.fingerprint,
                    error_kind=error.kind if isinstance(error, PageUnreadable) else "missing",
                ),
                (),
            )
        else:
            yield scan_one(page)
        if progress is not None:
            progress(done, total)


def open_refusing(suffix: str) -> Callable[..., int]:
    """An `os.open` that refuses (EACCES) any path ending in `suffix`: a file that
    cannot be read for a passing reason. Patch it over `os.open`."""
    real_open = os.open

    def refusing_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith(suffix):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    return refusing_open
