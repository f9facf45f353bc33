"""Scanning many page files, making rows of their bodies (`map_bodies`, for the text
index) and checking whole pages (`map_pages`, for `validate`): sequentially for small
batches, in two worker processes for large ones.

Parsing (YAML, the link grammar) is CPU-bound Python, so threads do not help;
processes do, once a batch is large enough to repay starting them and shipping
rows back. Measured on the shared 2-core dev machine (best of two, seconds,
in-process vs. pool): 1000 pages 0.081 vs 0.088, 2000 0.156 vs 0.115, 4000
0.324 vs 0.244, 10000 0.817 vs 0.556 — so the pool is used from
`PARALLEL_THRESHOLD` pages on. (On a machine already saturated by other work
the pool gains little, but it does not lose much either.)

Workers are started with `forkserver` when the calling process runs other
threads (the TUI scans from a worker thread; forking a threaded process can
deadlock), and with plain `fork` otherwise (the cheapest start).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import re
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from okf_explorer.core.errors import Cancelled, OkfError
from okf_explorer.core.links.dialects import links_text
from okf_explorer.core.links.grammar import RawTuple, extract_link_tuples
from okf_explorer.core.links.relation_lines import writes_relations
from okf_explorer.core.links.typed import frontmatter_links
from okf_explorer.core.pages import Page
from okf_explorer.core.port import CancelCheck, PageRow, ProgressCallback
from okf_explorer.sources.folder.dialect import Dialect
from okf_explorer.sources.folder.page_paths import inside
from okf_explorer.sources.folder.pagefile import page_row as general_page_row
from okf_explorer.sources.folder.pagefile import read_parts
from okf_explorer.sources.frontmatter import Undecodable, as_text, decode, info_fields, parts_of

PARALLEL_THRESHOLD = 2000
"""Batches smaller than this are scanned in-process."""

CHUNK_SIZE = 500
"""Pages per unit of work: cancellation and progress are checked between chunks."""

WORKERS = 2


_T = TypeVar("_T")

Resolve = Callable[[str, tuple[RawTuple, ...]], Any]
"""What resolves a page's links as it is read (`core.index.build.LinkPass`, picklable)."""
ResolvedRow = tuple[PageRow, Any]
"""A page's row and what `Resolve` made of its links (None: unreadable or no links)."""


def scan_rows(
    root: str,
    items: Sequence[tuple[str, str]],
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    dialect: Dialect | None = None,
) -> Iterator[PageRow]:
    """Rows of the `(slug, fingerprint)` items, in any order; raises `Cancelled`.
    `dialect`: the folder's (`sources.folder.dialect`), None for plain Markdown."""
    for row, _ in scan_resolving(root, items, None, progress, cancel, dialect):
        yield row


def scan_resolving(
    root: str,
    items: Sequence[tuple[str, str]],
    resolve: Resolve | None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    dialect: Dialect | None = None,
) -> Iterator[ResolvedRow]:
    """`scan_rows`, each row with what `resolve` made of its links, resolved in the
    worker that read the page (sent to each worker once)."""
    yield from _in_chunks(root, items, _ScanTask(resolve, dialect), progress, cancel)


def map_bodies(
    root: str, slugs: Sequence[str], make: Callable[[str, str, str], _T]
) -> Iterator[tuple[str, _T]]:
    """`(slug, make(slug, body, frontmatter))` of each readable page of `slugs` (its
    frontmatter block and body as `pagefile.read_parts` reads them), in any order; made
    in the workers that read the bodies for large batches (`make` is sent to each
    worker once)."""
    yield from _in_chunks(root, slugs, _BodiesTask(make))


def map_pages(
    root: str,
    slugs: Sequence[str],
    make: Callable[[Page], _T],
    *,
    okf_reserved: bool,
    dialect: Dialect | None = None,
) -> Iterator[tuple[str, _T]]:
    """`(slug, make(page))` of each page of `slugs` that reads (`pagefile.read_page`; a
    page raising an `OkfError` is skipped), in any order; made in the workers that read
    the pages for large batches. `okf_reserved`: whether `index` / `log` pages stay
    reserved (`BundleSource.okf_reserved`); `dialect` as `scan_rows` has it."""
    yield from _in_chunks(root, slugs, _PagesTask(make, okf_reserved, dialect))


def _chunk_rows(
    root: str, chunk: Sequence[tuple[str, str]], resolve: Resolve | None, dialect: Dialect | None
) -> list[ResolvedRow]:
    real_dirs: dict[str, bool] = {}
    rows = []
    for slug, fingerprint in chunk:
        row = page_row(root, slug, fingerprint, real_dirs, dialect)
        links = row[1]
        rows.append((row, resolve(slug, links) if resolve is not None and links else None))
    return rows


@dataclass(frozen=True, slots=True)
class _ScanTask:
    """A chunk of `(slug, fingerprint)` items → their rows, resolved by `resolve`."""

    resolve: Resolve | None
    dialect: Dialect | None = None

    def __call__(self, root: str, chunk: Sequence[Any]) -> list[Any]:
        return _chunk_rows(root, chunk, self.resolve, self.dialect)


@dataclass(frozen=True, slots=True)
class _BodiesTask:
    """A chunk of slugs → `(slug, make(slug, body, frontmatter))` of the readable ones."""

    make: Callable[[str, str, str], Any]

    def __call__(self, root: str, chunk: Sequence[Any]) -> list[Any]:
        real_dirs: dict[str, bool] = {}
        made = []
        for slug in chunk:
            parts = page_parts(root, slug, real_dirs)
            if parts is not None:
                made.append((slug, self.make(slug, parts[1], parts[0])))
        return made


@dataclass(frozen=True, slots=True)
class _PagesTask:
    """A chunk of slugs → `(slug, make(page))` of the pages that read."""

    make: Callable[[Page], Any]
    okf_reserved: bool
    dialect: Dialect | None = None

    def __call__(self, root: str, chunk: Sequence[Any]) -> list[Any]:
        from okf_explorer.sources.folder.pagefile import read_page

        real_dirs: dict[str, bool] = {}
        made = []
        for slug in chunk:
            try:
                page = read_page(root, slug, real_dirs=real_dirs, dialect=self.dialect)
            except OkfError:
                continue
            if page.reserved and not self.okf_reserved:
                page = replace(page, reserved=False)
            made.append((slug, self.make(page)))
        return made


Task = Callable[[str, Sequence[Any]], list[Any]]
"""One chunk's work: `(root, chunk)` → its results (picklable: sent to each worker)."""

_WORKER_TASK: Task | None = None
"""The task of this worker process (set once, by the pool's initializer)."""


def _start_worker(task: Task) -> None:
    """A worker's start: its task, no hold on the caller's stdout, and an end with it.

    Without these a worker that the caller could not kill on its way out (one being
    started as a signal came) lived on, waiting for chunks, holding the stdout pipe
    of `serve --stdio`: its client waited forever for the end of the replies."""
    global _WORKER_TASK
    _WORKER_TASK = task
    _let_go_of_stdout()
    threading.Thread(target=_end_with_parent, name="okf-scan-orphan-watch", daemon=True).start()


def _let_go_of_stdout() -> None:
    """Point fd 1 at the null device: a worker writes nothing there, and the stream
    belongs to the caller (the MCP stream over stdio)."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
        finally:
            os.close(null)


def _end_with_parent() -> None:
    """Exit as soon as the process that started the pool has ended (its sentinel is
    ready then), whatever this worker is busy with."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)


def _worker_chunk(root: str, chunk: Sequence[Any]) -> list[Any]:
    """One chunk's results, by this worker's task."""
    assert _WORKER_TASK is not None
    return _WORKER_TASK(root, chunk)


def _in_chunks(
    root: str,
    items: Sequence[Any],
    task: Task,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> Iterator[Any]:
    """`task`'s results over `items`, `CHUNK_SIZE` at a time: in this process for small
    batches, in a pool of `WORKERS` from `PARALLEL_THRESHOLD` items on."""
    chunks = [items[i : i + CHUNK_SIZE] for i in range(0, len(items), CHUNK_SIZE)]
    workers = min(WORKERS, os.cpu_count() or 1)
    if len(items) < PARALLEL_THRESHOLD or workers < 2:
        yield from _here(root, chunks, len(items), task, progress, cancel)
    else:
        yield from _pool(root, chunks, len(items), workers, task, progress, cancel)


def page_row(
    root: str,
    slug: str,
    fingerprint: str,
    real_dirs: dict[str, bool],
    dialect: Dialect | None = None,
) -> PageRow:
    """`pagefile.page_row`, cheaper for the common file (`_plain_file`): turned into a row
    without a `Page` or a `RawLink`. Anything else (a symlink, a slug a listing could not
    produce, any error, bytes that are not UTF-8) takes the general path,
    `pagefile.scan_page`, which gives the same row and words the reason. An empty
    `fingerprint` (an unstamped listing) becomes the file's own, taken before reading."""
    data = _plain_file(root, slug, real_dirs)
    if data is not None:
        try:
            text = decode(data[1])
        except Undecodable:
            pass  # the general path words the reason
        else:
            info, body, frontmatter = info_fields(slug, text, data[0], fingerprint or data[2])
            if dialect is not None:
                info = dialect.named_row(info, body)
                body = links_text(dialect.markup, body)
            links = extract_link_tuples(body, relation_lines=writes_relations(frontmatter))
            if frontmatter:
                page_type = as_text(frontmatter.get("type"))
                links.extend(frontmatter_links(frontmatter, page_type))
            return info, tuple(links)
    return general_page_row(root, slug, fingerprint, real_dirs, dialect)


def page_parts(root: str, slug: str, real_dirs: dict[str, bool]) -> tuple[str, str] | None:
    """`pagefile.read_parts`, cheaper for the common file (`_plain_file`); anything else
    takes the general path, which gives the same answer."""
    data = _plain_file(root, slug, real_dirs)
    if data is None:
        return read_parts(root, slug, real_dirs)
    try:
        return parts_of(decode(data[1]))
    except Undecodable:
        return None


def _plain_file(root: str, slug: str, real_dirs: dict[str, bool]) -> tuple[int, bytes, str] | None:
    """`_read_regular` of the common file, a plain regular file in a folder already known
    to lie inside the root, opened with `O_NOFOLLOW` (no `lstat`) and read with `os.read`;
    None for anything else (a symlink, a slug a listing could not produce, any error):
    the caller takes the general path."""
    if not (
        _NOFOLLOW and _PLAIN_SLUG(slug) and _folder_inside(root, slug.rpartition("/")[0], real_dirs)
    ):
        return None
    try:
        fd = os.open(f"{root}/{slug}.md", _FAST_FLAGS)
    except OSError:
        return None
    try:
        return _read_regular(fd)
    except OSError:  # the general path reports it
        return None
    finally:
        os.close(fd)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""Without it (Windows) every page takes the general path, which checks symlinks itself."""
_FAST_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW
_PLAIN_SLUG = re.compile(r"(?:[^./\\\x00][^/\\\x00]*/)*[^./\\\x00][^/\\\x00]*").fullmatch
"""Slugs a listing produces: no empty, hidden, `.` or `..` segment, no backslash or NUL."""


def _folder_inside(root: str, folder: str, memo: dict[str, bool]) -> bool:
    """True when the bundle folder `folder` (a slug prefix) really lies inside `root`.

    Memoised in the scan's `real_dirs`, under keys that cannot clash with
    `pagefile.page_path`'s (absolute paths): a NUL, then the slug folder.
    """
    key = "\x00" + folder
    found = memo.get(key)
    if found is None:
        found = memo[key] = inside(os.path.realpath(f"{root}/{folder}"), root)
    return found


def _read_regular(fd: int) -> tuple[int, bytes, str] | None:
    """`(mtime_ns, bytes, fingerprint)` of an open regular file (its fingerprint as
    `stat`ed before reading), or None for anything else."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        return None
    size = info.st_size
    # pagefile.file_fingerprint, inlined in this hot loop
    fingerprint = f"{info.st_mtime_ns}:{size}:{info.st_ctime_ns}"
    first = os.read(fd, size + 1)
    if len(first) == size:  # the whole file, as big as it was: no read to see the end
        return info.st_mtime_ns, first, fingerprint
    chunks = [first]
    while chunks[-1]:
        chunks.append(os.read(fd, 1 << 16))
    return info.st_mtime_ns, b"".join(chunks), fingerprint


def _here(
    root: str,
    chunks: list[Sequence[Any]],
    total: int,
    task: Task,
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
) -> Iterator[Any]:
    done = 0
    for chunk in chunks:
        if cancel is not None and cancel():
            raise Cancelled("scan")
        yield from task(root, chunk)
        done += len(chunk)
        if progress is not None:
            progress(done, total)


def _pool(
    root: str,
    chunks: list[Sequence[Any]],
    total: int,
    workers: int,
    task: Task,
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
) -> Iterator[Any]:
    """Keeps at most two chunks per worker in flight, so cancelling is quick.

    If worker processes cannot be started or die (no semaphores in a sandbox,
    the OOM killer), the chunks not yet done are worked in-process instead.
    """
    pending = list(reversed(chunks))
    running: dict[Future[list[Any]], Sequence[Any]] = {}
    done = 0
    try:
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=_context(),
            initializer=_start_worker,
            initargs=(task,),
        )
    except (OSError, ValueError, ImportError):
        yield from _here(root, chunks, total, task, progress, cancel)
        return
    try:
        while pending or running:
            while pending and len(running) < 2 * workers:
                chunk = pending.pop()
                running[pool.submit(_worker_chunk, root, chunk)] = chunk
            finished, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            if cancel is not None and cancel():
                raise Cancelled("scan")
            for future in finished:
                results = future.result()
                done += len(running.pop(future))
                yield from results
                if progress is not None:
                    progress(done, total)
    except (BrokenProcessPool, OSError):
        rest = [*running.values(), *reversed(pending)]
        yield from _here(root, rest, total, task, _offset(progress, done), cancel)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _offset(progress: ProgressCallback | None, done: int) -> ProgressCallback | None:
    """Progress of a fallback scan, counted on from what the pool finished."""
    if progress is None:
        return None
    return lambda more, total: progress(done + more, total)


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # workers start with the parser loaded
        return context
    return multiprocessing.get_context("spawn")
