"""Where an index is kept between runs: `IndexCache`, the on-disk cache of scanned
pages (one file per source), and what one build hands the next (`Known`): reusable
pages from the previous in-memory index or from the disk cache, and the cache
payload itself (`cache_payload`).

Where: `$OKF_EXPLORER_CACHE` when set (the value `off` disables caching), else
`platformdirs.user_cache_dir("okf-explorer")`. The file of a source is named by
the sha256 of its `cache_key`.

Format: a fixed header (magic, format version, payload length, CRC-32 of the
payload) followed by a `marshal` payload of plain values `(package version,
key, signature, data)`; a cache written by another okf-explorer version is
ignored (parsing rules may have changed). marshal is the fastest loader of
plain values in the standard library (100k pages load in about a second); the
CRC guards against truncated, half-written or garbage files, and the version
against older layouts. The payload is only ever produced by this module in the
user's own cache folder.

Every failure is soft: an unreadable, corrupt, truncated or wrong-version file
loads as None (the index is rebuilt), and a cache that cannot be written
(read-only folder, full disk) is skipped. Writes are atomic: a temporary file
in the same folder, then `os.replace`; without fsync (`atomic_write(durable=
False)`): after a crash the file is the old one or one the CRC rejects, and a
rejected cache is only a rebuild (fsync cost ~12 ms of a 10k-page cold build).

Caches hold titles, links and frontmatter of pages, token-protected remote
brains included, so they are private: files are `FILE_MODE` (older, looser
files are tightened when loaded), a folder this module creates is
`FOLDER_MODE`, and so is the default folder; a folder the user named
(`$OKF_EXPLORER_CACHE`, `IndexCache(path)`) keeps the mode they gave it.

The payload is plain values (marshal-able), columns aligned by page; its layout is
bound to `FORMAT_VERSION`. It is split in two so a warm start with nothing changed
loads only what a walk needs: the listing (slugs and fingerprints), the page
summaries, the walk tables (`targets`, `reverse`) and, as a nested marshal blob
parsed only when first asked for, the raw and resolved links.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import marshal
import os
import stat
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

import okf_explorer
from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.index.model import LinkIndex, ResolvedLink, Reusable
from okf_explorer.core.links.grammar import RawTuple
from okf_explorer.core.pages import (
    LASTING_ERROR_KINDS,
    PageInfo,
    fingerprint_of_row,
    slug_of_row,
)

ENV_VAR = "OKF_EXPLORER_CACHE"
FORMAT_VERSION = 31
"""Bump whenever the row layout of `cache_payload` changes, a stored record's
fields included (`tests/test_record_shapes.py` fails until you do). 3: microsecond
`updated_at`; 4: page rows are `PageInfo.to_row()`, with `tags_known` and `error_kind`;
5: typed edges, a `rel` per link and the relation tables; 6: aliases and stated titles
in page rows, reference definitions in raw links, candidates in resolved links;
7: every raw link is a whole `RawLink.to_row()` (`rel` and `incoming` for body links too);
8: OKF v0.2 status, trust tier and `stale_after` in page rows; 9: the same rows, read
anew (a title from a heading as it reads, no links inside HTML comments), and `named` in raw
links (a gbrain field's name or a link written in link syntax: inline fields, properties);
10: the same rows, read anew (a title only from a `#` heading that is the page's first);
11: the same rows, read anew (nor from one after text); 12: the same rows, read anew (a
heading's Dataview query of the page's own field as its value); 13: the same rows, read
anew (nor from the first of three `# ` headings); 14: the same rows, read anew (no link
inside dollar math); 15: the same rows, resolved anew (a folder without an `index` leads
to its `README`); 16: the same rows, read anew (a Logseq tag ends before an emphasis
closing around it); 17: the same rows, resolved anew (a Foam workspace's wiki names may
name folders); 18: the same rows, read anew (tags written as a quoted list, `tags: "[a,
b]"`, are that list); 19: the same rows, read anew (a title's dollar math as the page
draws it, `core.links.reading`); 20: the same rows, read anew (no dollar math from one list
item into the next); 21: `heading_title` in page rows (a heading many pages share names
none of them: `core.index.build.name_shared_headings`); 22: the same rows, read anew (a
Basic Memory note's relation lines type their links: `core.links.relation_lines`); 23:
`private` in page rows (`visibility: private`, which `serve` hides as gbrain does); 24: the
same rows, read anew (a `status:` left empty states no status, and makes no OKF concept);
25: the same rows, resolved anew (a gbrain field's path-like name matching no page is no
edge); 26: the same rows, read anew (a title's character references as the page draws
them, `&#58;` as `:`); 27: the same rows, read anew (a title without the attribute block
ending its heading, `# Usage {#usage}` → `Usage`); 28: the same rows, read anew (a title's
math accents over any character, `$\\hat{\\rho}$` as `ρ` with its circumflex); 29: the same
rows, read anew (a code span hiding a comment's `-->` keeps the comment open over the `#tags`
after it, `core.links.tags`); 30: the same rows, read anew (a title's `\\vDash` as `⊨`,
math inside its `\\text{…}` read as math); 31: the same rows, read anew (a code span, and
inline math, end with their paragraph: a list item, a heading, a rule or a deeper quote ends
it, `core.links.grammar.paragraph_breaks`; a title's `\\mathbb{1}` as `𝟙`, and without the
MDX comment React's docs name a heading's id in, `# useState {/*usestate*/}`)."""

FILE_MODE = 0o600
"""Permission bits of every cache file: the user's alone."""
FOLDER_MODE = 0o700
"""Permission bits of a cache folder okf-explorer creates, and of the default one."""

_MAGIC = b"OKFXIDX\n"
_HEADER = struct.Struct("<8sIQI")  # magic, version, payload length, crc32


@dataclass(frozen=True, slots=True)
class CachedCorpus:
    """What a cache file holds for one source.

    `signature` identifies the corpus the stored resolutions were made
    against; `data` is `core.index.build`'s payload of plain values (the caller
    validates its shape).
    """

    signature: str
    data: Any


class IndexCache:
    """One folder of cache files. `IndexCache()` uses the default folder."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._ours = directory is None and not os.environ.get(ENV_VAR, "").strip()

    @classmethod
    def from_environment(cls) -> IndexCache | None:
        """The default cache, or None when `$OKF_EXPLORER_CACHE` is `off`."""
        if os.environ.get(ENV_VAR, "").strip().lower() == "off":
            return None
        return cls()

    def path_for(self, key: str) -> Path:
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        return self.directory / f"{digest}.idx"

    def load(self, key: str) -> CachedCorpus | None:
        """The stored corpus of `key`, or None when absent or not trustworthy."""
        path = self.path_for(key)
        try:
            with open(path, "rb") as handle:
                _make_private(handle.fileno(), FILE_MODE)
                data = handle.read()
        except OSError:
            return None
        return decode_cache(data, key)

    def save(self, key: str, signature: str, data: Any) -> bool:
        """Store atomically; False (and nothing raised) when it cannot be written."""
        target = self.path_for(key)
        try:
            blob = encode_cache(key, signature, data)
        except ValueError:  # not marshallable: a caller bug, but never fatal
            return False
        try:
            self._make_folder()
            _remove_stale_temps(target)
            atomic_write(target, blob, mode=FILE_MODE, durable=False)
        except OSError:
            return False
        return True

    def _make_folder(self) -> None:
        """Create the folder `FOLDER_MODE` (whatever the umask); tighten the default
        folder if an older version left it open, never a folder the user named."""
        folder = self.directory
        try:
            folder.mkdir(parents=True, mode=FOLDER_MODE)
        except FileExistsError:
            if self._ours:
                with contextlib.suppress(OSError):
                    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
                    try:
                        _make_private(fd, FOLDER_MODE)
                    finally:
                        os.close(fd)
        else:
            with contextlib.suppress(OSError):
                os.chmod(folder, FOLDER_MODE)  # mkdir's mode is cut by the umask

    def clear(self, key: str) -> None:
        """Forget one source's cache (missing file is fine)."""
        _remove_quietly(str(self.path_for(key)))


def default_directory() -> Path:
    """`$OKF_EXPLORER_CACHE` if set (and not `off`), else the platform's user cache folder."""
    value = os.environ.get(ENV_VAR, "").strip()
    if value and value.lower() != "off":
        return Path(value).expanduser()
    return Path(platformdirs.user_cache_dir("okf-explorer"))


def encode_cache(key: str, signature: str, data: Any) -> bytes:
    payload = marshal.dumps((okf_explorer.__version__, key, signature, data))
    header = _HEADER.pack(_MAGIC, FORMAT_VERSION, len(payload), zlib.crc32(payload))
    return header + payload


def decode_cache(data: bytes, key: str) -> CachedCorpus | None:
    """Validate header, length, checksum and shape; None for anything off."""
    if len(data) < _HEADER.size:
        return None
    magic, version, length, crc = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size :]
    if magic != _MAGIC or version != FORMAT_VERSION or length != len(payload):
        return None
    if zlib.crc32(payload) != crc:
        return None
    try:
        version, stored_key, signature, data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if version != okf_explorer.__version__ or stored_key != key or not isinstance(signature, str):
        return None
    return CachedCorpus(signature, data)


def _remove_stale_temps(target: Path, age: float = 3600.0) -> None:
    """Temp files an interrupted save (a kill, a power cut) left behind, an hour on."""
    cutoff = time.time() - age
    leftovers = [
        *target.parent.glob(f".{target.name}.*.tmp"),  # core.atomic's temp names
        *target.parent.glob(f"{target.name}*.tmp"),  # names of cache format 1
    ]
    for leftover in leftovers:
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()


def _make_private(fd: int, mode: int) -> None:
    """`fchmod` an open file or folder to `mode` when it grants more than that (a
    file we do not own, or a file system without modes, is left as it is)."""
    with contextlib.suppress(OSError, AttributeError):  # no os.fchmod on Windows
        if stat.S_IMODE(os.fstat(fd).st_mode) & ~mode:
            os.fchmod(fd, mode)


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from okf_explorer.core.port import PageStub


def lasting_failure(info: PageInfo) -> bool:
    """Unreadable because of its bytes (kept until the file changes), not because of
    an I/O error, a permission or a server hiccup (retried at every refresh)."""
    return info.error_kind in LASTING_ERROR_KINDS


class LazyMapping(Mapping[str, Any]):
    """A read-only mapping built on first use (the links of a warm-loaded index).

    A warm start that only walks the graph never pays for building 400k link
    objects; the first lookup builds the whole dict at once.
    """

    __slots__ = ("_data", "_make")

    def __init__(self, make: Callable[[], dict[str, Any]]) -> None:
        self._make = make
        self._data: dict[str, Any] | None = None

    def _dict(self) -> dict[str, Any]:
        data = self._data
        if data is None:  # two threads may both build it: same result, no harm
            data = self._data = self._make()
        return data

    def __getitem__(self, key: str) -> Any:
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __contains__(self, key: object) -> bool:
        return key in self._dict()

    def get(self, key: str, default: Any = None) -> Any:
        return self._dict().get(key, default)

    def items(self):  # type: ignore[override]
        return self._dict().items()

    def values(self):  # type: ignore[override]
        return self._dict().values()

    def keys(self):  # type: ignore[override]
        return self._dict().keys()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyMapping):
            other = other._dict()
        return self._dict() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazyMapping({self._dict()!r})"


class _Links:
    """The nested links blob of a cache payload, parsed once, on first use.

    A blob that does not decode (the file's checksum held, its inside did not)
    is dropped at the first try: every later use fails at once with `ValueError`.
    A thread that asks while another decodes waits for it (it once took the empty
    columns for the decoded ones, and the whole index was built again).
    """

    def __init__(self, blob: bytes, slugs: list[str]) -> None:
        self._blob: bytes | None = blob
        self._slugs = slugs
        self._lock = threading.Lock()
        self._loaded = False
        self._broken = False
        self.raws: list = []
        self.rows: list = []

    def load(self) -> _Links:
        if self._loaded:
            return self
        with self._lock:
            if self._blob is not None:
                blob, self._blob = self._blob, None
                try:
                    raws, rows = marshal.loads(blob)
                    if not (len(raws) == len(rows) == len(self._slugs)):
                        raise ValueError("cache columns differ in length")
                except (ValueError, EOFError, TypeError):
                    self._broken = True
                else:
                    self.raws, self.rows = raws, rows
                    self._loaded = True  # only once both columns are in place
            if self._broken:
                raise ValueError("the cached links do not decode")
        return self

    def make(self, i: int) -> tuple[tuple[RawTuple, ...], tuple[ResolvedLink, ...]]:
        self.load()
        return self.raws[i], ResolvedLink.from_rows(self.rows[i])

    def forward(self) -> dict[str, tuple[ResolvedLink, ...]]:
        self.load()
        from_rows = ResolvedLink.from_rows
        return {slug: from_rows(rows) for slug, rows in zip(self._slugs, self.rows, strict=True)}

    def raw_links(self) -> dict[str, tuple[RawTuple, ...]]:
        return dict(zip(self._slugs, self.load().raws, strict=True))


class _Rebuild:
    """The index rebuilt without the disk cache, once, for the lazy parts of a
    cached index that turn out not to decode (see `Known.from_cache`)."""

    def __init__(self, rebuild: Callable[[], LinkIndex]) -> None:
        self._rebuild = rebuild
        self._lock = threading.Lock()
        self._index: LinkIndex | None = None

    def index(self) -> LinkIndex:
        with self._lock:
            if self._index is None:
                self._index = self._rebuild()
            return self._index

    def guard(
        self, make: Callable[[], dict[str, Any]], part: str, slugs: list[str]
    ) -> Callable[[], dict[str, Any]]:
        """`make`, or on any decoding failure the same part (`forward`, `raw_links`)
        of the rebuilt index, for the same slugs."""

        def guarded() -> dict[str, Any]:
            try:
                return make()
            except _DECODING_FAILURES:
                log.warning("the index cache does not decode; rebuilding it")
                fresh = getattr(self.index(), part)
                return {slug: fresh.get(slug, ()) for slug in slugs}

        return guarded


_DECODING_FAILURES = (TypeError, ValueError, IndexError, KeyError, EOFError)
"""What decoding a cache payload of the wrong shape or bytes can raise."""


class Known:
    """What an earlier build left: reusable pages, and its walk tables when all is unchanged.

    Built from the previous in-memory index or from a disk-cache payload
    (`cache_payload` layout); a payload of the wrong shape yields nothing reusable.
    """

    def __init__(self) -> None:
        self.signature: str | None = None
        self.reverse: dict[str, tuple[str, ...]] | None = None
        self.targets: dict[str, tuple[str, ...]] = {}
        self.out_rels: dict[str, tuple[str, ...]] = {}
        self.in_rels: dict[str, tuple[str, ...]] = {}
        self.ambiguous = 0
        self._rows: dict[str, tuple[str, int]] = {}  # slug → (fingerprint, row number)
        self._make: Callable[[int], Reusable] = _nothing
        self._whole: Callable[[], LinkIndex] | None = None
        self._listing: tuple[list[str], list[str]] | None = None  # slugs, fingerprints
        self._rebuild: _Rebuild | None = None

    def entry(self, slug: str, fingerprint: str) -> Reusable | None:
        """The reusable page when its fingerprint is unchanged (a malformed cache row: None)."""
        found = self._rows.get(slug)
        if found is None or found[0] != fingerprint:
            return None
        try:
            return self._make(found[1])
        except _DECODING_FAILURES:
            return None

    def unchanged(self, stubs: Sequence[PageStub]) -> LinkIndex | None:
        """The whole stored index when the listing is exactly the stored one and no page
        needs a retry: a warm start then costs the listing and one cache load."""
        if self._whole is None or self._listing is None:
            return None
        slugs, fingerprints = self._listing
        if [stub.slug for stub in stubs] != slugs:  # list == list: a C loop, identity first
            return None
        if [stub.fingerprint for stub in stubs] != fingerprints:
            return None
        try:
            return self._whole()
        except (TypeError, ValueError, IndexError, KeyError):
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
        known.out_rels, known.in_rels = index.out_rels, index.in_rels
        entries: list[Reusable] = []
        for slug, info in index.pages.items():
            raw, links = index.raw_links.get(slug), index.forward.get(slug)
            if raw is not None and links is not None:
                known._rows[slug] = (info.fingerprint, len(entries))
                entries.append(Reusable(info, raw, links))
        known._make = entries.__getitem__
        return known

    @classmethod
    def from_cache(
        cls, signature: str, data: object, rebuild: Callable[[], LinkIndex] | None = None
    ) -> Known:
        """What a cache payload offers. The links of a whole index are decoded only when
        first used; if they then fail to decode, `rebuild` (a build that skips and
        replaces the cache) answers instead, once, for every lazy part."""
        try:
            known = cls._decode(signature, data)
        except (TypeError, ValueError, IndexError, KeyError):
            return cls()
        known._rebuild = _Rebuild(rebuild) if rebuild is not None else None
        return known

    @classmethod
    def _decode(cls, signature: str, data: object) -> Known:
        complete, infos, targets, reverse, ambiguous, blob, out_rels, in_rels = data  # type: ignore[misc]
        if len(infos) != len(targets) or not isinstance(blob, bytes):
            raise ValueError("cache columns differ in length")
        slugs = list(map(slug_of_row, infos))
        fingerprints = list(map(fingerprint_of_row, infos))
        links = _Links(blob, slugs)

        def make(i: int) -> Reusable:
            return Reusable(PageInfo.from_row(infos[i]), *links.make(i))

        known = cls()
        known.signature, known.ambiguous, known._make = signature, int(ambiguous), make
        known.reverse = dict(reverse)
        known.out_rels, known.in_rels = dict(out_rels), dict(in_rels)
        known.targets = dict(zip(slugs, targets, strict=True))
        pairs = zip(slugs, fingerprints, strict=True)
        known._rows = {slug: (fingerprint, i) for i, (slug, fingerprint) in enumerate(pairs)}
        if complete is True:
            known._listing = slugs, fingerprints
            known._whole = lambda: _whole_index(signature, known, slugs, infos, links)
        return known


def _whole_index(
    signature: str, known: Known, slugs: list[str], infos: list, links: _Links
) -> LinkIndex:
    assert known.reverse is not None
    forward: Callable[[], dict[str, Any]] = links.forward
    raw_links: Callable[[], dict[str, Any]] = links.raw_links
    if known._rebuild is not None:
        forward = known._rebuild.guard(forward, "forward", slugs)
        raw_links = known._rebuild.guard(raw_links, "raw_links", slugs)
    return LinkIndex(
        pages=dict(zip(slugs, map(PageInfo.from_row, infos), strict=True)),
        forward=LazyMapping(forward),  # type: ignore[arg-type]
        reverse=known.reverse,
        ambiguous=known.ambiguous,
        raw_links=LazyMapping(raw_links),  # type: ignore[arg-type]
        targets=known.targets,
        signature=signature,
        out_rels=known.out_rels,
        in_rels=known.in_rels,
    )


def _nothing(_: int) -> Reusable:  # pragma: no cover - never reached
    """The maker of an empty `Known`: it has no rows, so `entry` never calls it."""
    raise IndexError("nothing to reuse")


def cache_payload(index: LinkIndex, rows: Mapping[str, Sequence[Any]] | None = None) -> tuple:
    """The index as plain values for `IndexCache` (layout bound to `cache.FORMAT_VERSION`).

    `(complete, infos, targets, reverse, ambiguous, links blob, out_rels, in_rels)`: whether
    every page may be reused as is (none waits for a retry); columns aligned
    by page (`PageInfo.to_row()` values, forward targets); the reverse index and the
    ambiguity count; then a marshal blob of the raw links and the resolved
    links (`RawLink.to_row()` and `ResolvedLink.to_row()` rows), per page; then the
    relation tables (empty for a plain bundle). marshal keeps shared strings shared
    within each part. `rows`: every page's `ResolvedLink.to_row()` rows, when the
    build has them (else they are made from `index.forward`).
    """
    infos, raws, forward, targets = [], [], [], []
    complete = True
    to_rows = ResolvedLink.to_rows
    for slug, i in index.pages.items():
        infos.append(i.to_row())
        complete = complete and (i.readable or lasting_failure(i))
        raws.append(index.raw_links[slug])
        targets.append(index.targets[slug])
        forward.append(rows[slug] if rows is not None else to_rows(index.forward[slug]))
    blob = marshal.dumps((raws, forward))
    rels = dict(index.out_rels), dict(index.in_rels)
    return complete, infos, targets, dict(index.reverse), index.ambiguous, blob, *rels
