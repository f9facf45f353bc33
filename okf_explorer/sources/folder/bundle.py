"""`BundleSource`: an OKF bundle or Obsidian vault, a folder of Markdown files.

SPEC §2 on disk:

- the slug is the POSIX path relative to the root without `.md`; only files
  ending in `.md` are pages; names starting with `.` (`.git`, `.obsidian`,
  dot-files) are skipped, and so are names that are not valid UTF-8 or contain
  a backslash (they could not be named by a slug);
- a symbolic link is followed only when its real path stays inside the bundle
  root, and every real directory is walked once: folders reached by their real
  path win over symlinked aliases, so a link loop or a second alias adds nothing;
- a file that cannot be read or decoded is listed with `readable=False` and the
  reason; `get_page` raises `PageUnreadable` for it;
- a missing root (or one that is not a folder) raises `SourceUnavailable`, whose
  sentence contains "unreachable" (the CLI maps it to exit 1); an empty folder
  is a bundle with no pages;
- a sub-folder that cannot be listed (permissions) is skipped silently;
- `index` / `log` pages are OKF reserved files only when the folder reads as an
  OKF bundle (`is_okf_bundle`, below); in a plain vault they are ordinary pages.

`enumerate` only lists and stats; `scan` reads and parses, in two worker
processes when the batch is large enough to pay for them.

Is a folder an OKF bundle, or a plain vault (`is_okf_bundle`)? It decides what
`index.md` and `log.md` are. OKF reserves `index.md` (a directory listing) and
`log.md` (an update history) at every level of a bundle (OKF §3.1). A Foam workspace
or an Obsidian vault has no such rule: there `index.md` is an ordinary page its author
wrote ("What is Foam?"), and showing it as "(reserved)", leaving it out of orphans and
mentions, misreads it.

A folder is read as an **OKF bundle** when either

1. its root `index.md` declares `okf_version` in its frontmatter (OKF §12, the only
   frontmatter an OKF index may carry), or
2. at least half of its concept files (any `.md` but `index.md` / `log.md`) state a
   non-empty `type` in their frontmatter: OKF requires `type` on every concept (§4.1,
   §11), while vaults seldom set it. The files looked at are the first
   `SAMPLE_FILES` met walking the folder breadth-first (the root's files, then its
   sub-folders', each folder in name order, hidden names skipped), each read only
   to `HEAD_BYTES`: a sample, so the answer costs a few milliseconds however large
   the folder is and is ready before the index (the first page drawn already knows).

Otherwise it is a vault, and its `index`/`log` pages are ordinary pages. A folder
with no concept files at all is a vault unless it declares `okf_version`.
`okf-explorer validate` is unaffected: it checks a folder as an OKF bundle, so it
always applies the reserved-file rules (§8, §9).

A folder written for Logseq or Dendron is read in that app's dialect
(`sources.folder.dialect`): a **Logseq graph** (`logseq/config.edn`) has its pages
called as Logseq calls them (`sources.folder.logseq`: namespaces in file names,
`title::`, `alias::`, journal dates), and its `logseq/` folder, Logseq's settings and
backups (`logseq/bak/`), holds no pages; a **Dendron workspace** (`dendron.yml`) names
a link's note last. Such a folder's index cache is a file of its own (`cache_key`), so
a folder that becomes one, or changes how it writes names, is read again. A vault's
Obsidian settings (`.obsidian/app.json`) give its line-break rule and the files it
excludes from search (`vault_excluded`). A vault (or a bundle Obsidian keeps) is read in
Obsidian's dialect: a note's `#tags` are among its tags (`dialect.ObsidianVault`), and
its cache is a file of its own too.
"""

from __future__ import annotations

import os
import re
import stat
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import replace
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeVar

from okf_explorer.core.errors import SourceUnavailable
from okf_explorer.core.excluded import Excluded, excluded_files
from okf_explorer.core.links.grammar import RawTuple
from okf_explorer.core.pages import PAGE_INFO_FIELDS, LineBreaks, Markup, Page
from okf_explorer.core.port import (
    CancelCheck,
    PageRow,
    PageStub,
    ProgressCallback,
    ScannedPage,
    ServerGraph,
)
from okf_explorer.sources.folder.dialect import (
    DENDRON_BREAKS,
    OBSIDIAN_VAULT,
    SILVERBULLET_BREAKS,
    DendronWorkspace,
    Dialect,
    FoamWorkspace,
    SilverBulletSpace,
    foam_line_breaks,
    foam_workspace,
    folder_dialect,
)
from okf_explorer.sources.folder.logseq import (
    LOGSEQ_FOLDER,
    LogseqGraph,
    MacrosFilled,
    block_texts,
)
from okf_explorer.sources.folder.page_paths import (
    MARKDOWN_SUFFIX,
    file_fingerprint,
    inside,
    page_path,
)
from okf_explorer.sources.folder.regular_files import read_head

# `pagefile` (PyYAML) and `parallel` (multiprocessing) are imported by the methods that
# read pages: a warm start that only lists the folder loads neither (~20 ms).


class BundleSource:
    """A folder on disk. `label` is the folder as given; `cache_key` its real absolute path."""

    def __init__(self, root: Path | str) -> None:
        self._given = str(root)
        self._root = os.path.realpath(os.path.expanduser(self._given))
        self._okf: bool | None = None  # is_okf_bundle, asked again after every listing
        self._breaks: LineBreaks | None = None  # vault_line_breaks, read again likewise
        self._excluded: Excluded | None = None  # vault_excluded, read again likewise
        self._dialect: Dialect | None = self._read_dialect()  # read again likewise
        self._blocks: dict[str, str] | None = None  # a Logseq graph's, read again likewise
        self._blocks_lock = threading.Lock()

    @property
    def label(self) -> str:
        return self._given

    @property
    def cache_key(self) -> str:
        """The real root path; a vault's, Logseq graph's or Dendron workspace's says so."""
        dialect = self._dialect
        return self._root if dialect is None else f"{self._root}\0{dialect.cache_tag}"

    @property
    def local_root(self) -> Path:
        """The real (symlink-resolved) absolute root folder (`Folder`)."""
        return Path(self._root)

    def enumerate(self) -> list[PageStub]:
        """Every page file, by an `os.scandir` walk (no file is read), in slug order."""
        return self._listing(stamp=True)

    def enumerate_unstamped(self) -> list[PageStub]:
        """`enumerate` without a `stat` per file (`Folder`): each stub's
        fingerprint is empty, and the scan takes the file's own as it reads it (at
        10k pages the walk costs 7 ms instead of 45)."""
        return self._listing(stamp=False)

    def _listing(self, *, stamp: bool) -> list[PageStub]:
        self._check_root()
        self._okf = self._breaks = self._excluded = None  # a listing reads them again
        self._dialect = self._read_dialect()
        self._blocks = None
        stubs = walk_bundle(self._root, stamp=stamp)
        if isinstance(self._dialect, LogseqGraph):
            stubs = [stub for stub in stubs if not stub.slug.startswith(LOGSEQ_FOLDER)]
        stubs.sort(key=_SLUG)
        return stubs

    def get_page(self, slug: str) -> Page:
        """One page read fresh from disk; hostile or unknown slugs raise `PageNotFound`."""
        self._check_root()
        from okf_explorer.sources.folder.pagefile import read_page

        page = read_page(self._root, slug, dialect=self._dialect)
        if page.reserved and not self.okf_reserved():
            page = replace(page, reserved=False)
        return page

    def okf_reserved(self) -> bool:
        """Whether `index` / `log` pages are OKF reserved files (`Folder`): only
        when the folder reads as an OKF bundle (`is_okf_bundle`)."""
        okf = self._okf
        if okf is None:
            okf = self._okf = is_okf_bundle(self._root)
        return okf

    def _reads_as_obsidian(self) -> bool:
        """A vault, or an OKF bundle kept in Obsidian: read as its owner sees it there
        (line breaks, tags)."""
        return not self.okf_reserved() or self._kept_in_obsidian()

    def _kept_in_obsidian(self) -> bool:
        """Whether Obsidian keeps the folder (its `.obsidian/` folder)."""
        return os.path.isdir(os.path.join(self._root, ".obsidian"))

    def _read_dialect(self) -> Dialect | None:
        """The folder's dialect (`dialect.folder_dialect`): Logseq's or Dendron's, else
        in a folder read as a vault (`_reads_as_obsidian`: a note's `#tags` are among its
        tags) Foam's where it is a Foam workspace Obsidian does not keep (no `.obsidian/`),
        else Obsidian's; else None (an OKF bundle)."""
        dialect = folder_dialect(self._root)
        if dialect is None and self._reads_as_obsidian():
            foam = None if self._kept_in_obsidian() else foam_workspace(self._root)
            return foam or OBSIDIAN_VAULT
        return dialect

    def line_breaks(self) -> LineBreaks:
        """How a single newline reads on its pages (`StatesLineBreaks`): CommonMark in an
        OKF bundle; in a vault as Obsidian shows it, a line break, unless the vault's
        `.obsidian/app.json` turns "Strict line breaks" on (`vault_line_breaks`). A bundle
        kept in Obsidian (its `.obsidian/` folder: two LLM-kept wikis of OKF pages, whose
        index tables of one-line entries ran together as one paragraph) reads as its
        owner sees it there. A Dendron workspace reads as Dendron's preview shows it
        (`DENDRON_BREAKS`) unless Obsidian keeps it too, a SilverBullet space as its
        editor shows it (`SILVERBULLET_BREAKS`)."""
        if not self._reads_as_obsidian():
            return LineBreaks(False, "CommonMark, as an OKF bundle: a single newline is a space")
        breaks = self._breaks
        if breaks is None:
            dialect = self._dialect
            if isinstance(dialect, FoamWorkspace):  # as VS Code shows it (`foam_line_breaks`)
                breaks = self._breaks = foam_line_breaks(dialect)
            elif isinstance(dialect, DendronWorkspace) and not self._kept_in_obsidian():
                breaks = self._breaks = DENDRON_BREAKS
            elif isinstance(dialect, SilverBulletSpace):
                breaks = self._breaks = SILVERBULLET_BREAKS
            else:
                breaks = self._breaks = vault_line_breaks(self._root)
        return breaks

    def wiki_folders(self) -> bool:
        """Whether a wiki name may name a folder (`NamesFolders`): in a Foam workspace,
        as Foam opens `[[projects]]` at `projects/index.md` (its default
        `foam.links.directory.mode`, `resolve`)."""
        return isinstance(self._dialect, FoamWorkspace)

    def markup(self) -> Markup:
        """Logseq's or Dendron's Markdown in a folder written for them (`StatesMarkup`,
        `dialect.folder_dialect`), else Markdown."""
        return self._dialect.markup if self._dialect is not None else "markdown"

    def tasks_global_filter(self) -> str:
        """The Tasks plugin's global filter in a vault's settings (`StatesTasksFilter`),
        else ""."""
        found = obsidian_settings(self._root, TASKS_SETTINGS).get("globalFilter")
        return found.strip() if isinstance(found, str) else ""

    def macros(self) -> dict[str, str]:
        """A Logseq graph's own macros, by name (`StatesMacros`); none in any other folder."""
        return dict(self._dialect.macros) if isinstance(self._dialect, LogseqGraph) else {}

    def block_texts(self, ids: Collection[str]) -> dict[str, str]:
        """The text of each block of `ids` on the pages of a Logseq graph (`HoldsBlocks`,
        `logseq.block_texts`): every page is read once, in the scan's workers for a large
        graph, and again after the next listing. None found in any other folder."""
        if not isinstance(self._dialect, LogseqGraph) or not ids:
            return {}
        with self._blocks_lock:
            blocks = self._blocks
            if blocks is None:
                from okf_explorer.sources.folder.scan import map_bodies

                slugs = [stub.slug for stub in self._listing(stamp=False)]
                blocks = {}
                for _, found in map_bodies(self._root, slugs, block_texts):
                    for block_id, text in found:
                        blocks.setdefault(block_id, text)
                self._blocks = blocks
        wanted = {block_id.lower() for block_id in ids}
        return {block_id: blocks[block_id] for block_id in wanted if block_id in blocks}

    def read_base(self, name: str) -> object:
        """The YAML of the Obsidian base `name` names (`HoldsBases`,
        `base_files.find_base`); `BaseError` says why it cannot be read."""
        self._check_root()
        from okf_explorer.sources.folder.base_files import find_base, read_base_file

        return read_base_file(find_base(self._root, name))

    def parse_base(self, text: str) -> object:
        """A base written in a page, loaded within bounds (`HoldsBases`)."""
        from okf_explorer.sources.folder.base_files import parse_base_text

        return parse_base_text(text, "the base written here")

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        """The page the app a folder is written for opens first (`StatesHome`,
        `Dialect.home_page`: a Logseq graph's home or latest journal, a Dendron vault's
        `root`); None for a plain folder."""
        dialect = self._dialect
        return dialect.home_page(slugs) if dialect is not None else None

    def excluded(self) -> Excluded:
        """The pages the vault's Obsidian settings exclude from search, and those a
        Logseq graph's settings hide (`StatesExcluded`, `vault_excluded`), read once a
        listing."""
        excluded = self._excluded
        if excluded is None:
            hidden = self._dialect.hidden if isinstance(self._dialect, LogseqGraph) else ()
            excluded = self._excluded = vault_excluded(self._root, hidden)
        return excluded

    def page_file(self, slug: str) -> Path:
        """The file of `slug` (`Folder`); `PageNotFound` for a hostile slug."""
        return Path(page_path(self._root, slug))

    def scan(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[ScannedPage]:
        """Read and parse these pages (in parallel for large batches); see `parallel`."""
        for row in self.scan_rows(stubs, progress, cancel):
            yield ScannedPage.from_row(row)

    def scan_rows(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[PageRow]:
        """`scan` as plain `PageRow` tuples (`RowScanner`): what `build_index` uses,
        skipping a million small objects per 100k pages."""
        self._check_root()
        items = [(stub.slug, stub.fingerprint) for stub in stubs]
        if not items:
            return
        from okf_explorer.sources.folder.scan import scan_rows

        dialect = self._dialect
        if self.okf_reserved():
            yield from scan_rows(self._root, items, progress, cancel, dialect)
            return
        for info, links in scan_rows(self._root, items, progress, cancel, dialect):
            yield _unreserved(info), links

    def scan_resolving(
        self,
        stubs: Sequence[PageStub],
        resolve: Callable[[str, tuple[RawTuple, ...]], Any],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[tuple[PageRow, Any]]:
        """`scan_rows`, each page's links also resolved by `resolve` in the worker that
        read it (`Folder`)."""
        self._check_root()
        items = [(stub.slug, stub.fingerprint) for stub in stubs]
        if not items:
            return
        from okf_explorer.sources.folder.scan import scan_resolving

        dialect = self._dialect
        if self.okf_reserved():
            yield from scan_resolving(self._root, items, resolve, progress, cancel, dialect)
            return
        scanned = scan_resolving(self._root, items, resolve, progress, cancel, dialect)
        for (info, links), began in scanned:
            yield (_unreserved(info), links), began

    def read_bodies(self, slugs: Sequence[str]) -> Iterator[tuple[str, str]]:
        """Bodies of these pages, frontmatter cut off unparsed (`BodyReader`)."""
        self._check_root()
        from okf_explorer.sources.folder.pagefile import read_body

        real_dirs: dict[str, bool] = {}
        for slug in slugs:
            body = read_body(self._root, slug, real_dirs)
            if body is not None:
                yield slug, body

    def map_bodies(
        self, slugs: Sequence[str], make: Callable[[str, str, str], _Made]
    ) -> Iterator[tuple[str, _Made]]:
        """`read_bodies`'s pages, each made into `make(slug, body, frontmatter)` (the
        frontmatter as written) by the process that read it: two worker processes for a
        large batch (`BodyMapper`). A page's body is given as a reader reads it: a
        Markdown page's Dataview queries of its own fields as their values
        (`QueriesFilled`), a Logseq page's macro calls as their templates (`MacrosFilled`)."""
        self._check_root()
        from okf_explorer.sources.folder.scan import map_bodies
        from okf_explorer.sources.frontmatter import QueriesFilled

        dialect = self._dialect
        if dialect is None or dialect.markup == "markdown":
            filled: Callable[[str, str, str], _Made] = QueriesFilled(make)
        elif isinstance(dialect, LogseqGraph) and dialect.macros:
            filled = MacrosFilled(make, dialect.macros)
        else:
            filled = make
        yield from map_bodies(self._root, slugs, filled)

    def map_pages(
        self, slugs: Sequence[str], make: Callable[[Page], _Made]
    ) -> Iterator[tuple[str, _Made]]:
        """`get_page`'s pages, each made into `make(page)` by the process that read it:
        two worker processes for a large batch (`PageMapper`)."""
        self._check_root()
        from okf_explorer.sources.folder.scan import map_pages

        yield from map_pages(
            self._root, slugs, make, okf_reserved=self.okf_reserved(), dialect=self._dialect
        )

    def server_graph(self) -> ServerGraph | None:
        return None

    def close(self) -> None:
        """Nothing to release: worker pools live only as long as one scan."""

    def __repr__(self) -> str:
        return f"BundleSource({self._given!r})"

    def _check_root(self) -> None:
        try:
            mode = os.stat(self._root).st_mode
        except FileNotFoundError:
            raise SourceUnavailable(
                f"bundle {self._given} is unreachable: no such folder"
            ) from None
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            raise SourceUnavailable(f"bundle {self._given} is unreachable: {reason}") from None
        if not stat.S_ISDIR(mode):
            raise SourceUnavailable(f"bundle {self._given} is unreachable: not a folder")
        if not os.access(self._root, os.R_OK | os.X_OK):
            raise SourceUnavailable(f"bundle {self._given} is unreachable: permission denied")


_Made = TypeVar("_Made")
_SLUG = attrgetter("slug")
_RESERVED_AT = PAGE_INFO_FIELDS.index("reserved")


def _unreserved(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A `PageInfo` row with `reserved` off (a vault's `index` / `log` are ordinary pages)."""
    if not row[_RESERVED_AT]:
        return row
    return (*row[:_RESERVED_AT], False, *row[_RESERVED_AT + 1 :])


def _usable_name(name: str) -> bool:
    """Names a slug can carry: not hidden, no backslash, valid UTF-8."""
    if name.startswith(".") or "\\" in name:
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def walk_bundle(root: str, *, stamp: bool = True) -> list[PageStub]:
    """Stubs of every page below the real folder `root` (unsorted); `stamp=False`
    leaves their fingerprints empty (no `stat` per page file).

    Real folders are walked first; symlinked folders are deferred and walked
    afterwards, in slug order, only if their real directory was not seen yet.
    """
    stubs: list[PageStub] = []
    root_stat = os.stat(root)
    seen = {(root_stat.st_dev, root_stat.st_ino)}
    pending: list[tuple[str, str]] = [(root, "")]
    deferred: list[tuple[str, str]] = []
    while pending or deferred:
        if not pending:
            deferred.sort(key=lambda item: item[1], reverse=True)
            path, prefix = deferred.pop()
            try:
                target = os.stat(path)
            except OSError:
                continue
            key = (target.st_dev, target.st_ino)
            if key in seen:
                continue
            seen.add(key)
            pending.append((path, prefix))
            continue
        path, prefix = pending.pop()
        _walk_one(root, path, prefix, stubs, pending, deferred, seen, stamp)
    return stubs


def _walk_one(
    root: str,
    path: str,
    prefix: str,
    stubs: list[PageStub],
    pending: list[tuple[str, str]],
    deferred: list[tuple[str, str]],
    seen: set[tuple[int, int]],
    stamp: bool = True,
) -> None:
    """List one folder: pages into `stubs`, sub-folders into `pending` / `deferred`
    (`stamp`: with the fingerprint of each page file).

    The warm-start hot loop (one pass per file of the bundle): `DirEntry`'s
    cached type bits and one `stat` per page, no `Path` objects; the name test
    is inlined for the common plain-ASCII name.
    """
    try:
        with os.scandir(path) as listing:
            entries = list(listing)
    except OSError:
        return
    add = stubs.append
    for entry in entries:
        name = entry.name
        if name[0] == "." or not ((name.isascii() and "\\" not in name) or _usable_name(name)):
            continue
        try:
            if (
                name.endswith(MARKDOWN_SUFFIX)
                and len(name) > 3
                and not entry.is_symlink()
                and entry.is_file(follow_symlinks=False)
            ):
                if stamp:
                    info = entry.stat(follow_symlinks=False)
                    # pagefile.file_fingerprint, inlined in this hot loop
                    fingerprint = f"{info.st_mtime_ns}:{info.st_size}:{info.st_ctime_ns}"
                else:
                    fingerprint = ""
                add(PageStub(prefix + name[:-3], fingerprint))
                continue
            linked = entry.is_symlink()
            if linked and not inside(os.path.realpath(entry.path), root):
                continue
            if entry.is_dir():
                if linked:
                    deferred.append((entry.path, prefix + name + "/"))
                    continue
                info = entry.stat()
                key = (info.st_dev, info.st_ino)
                if key not in seen:
                    seen.add(key)
                    pending.append((entry.path, prefix + name + "/"))
            elif name.endswith(MARKDOWN_SUFFIX) and len(name) > 3 and entry.is_file():
                fingerprint = file_fingerprint(entry.stat()) if stamp else ""
                stubs.append(PageStub(prefix + name[:-3], fingerprint))
        except OSError:
            continue


SAMPLE_FILES = 64
"""At most this many concept files are looked at."""
HEAD_BYTES = 8192
"""Only this much of each file is read (a frontmatter longer than that counts as no `type`)."""

_RESERVED_FILES = frozenset({"index.md", "log.md"})
_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*\r?$", re.S | re.M)
_TYPE = re.compile(r"^type[ \t]*:[ \t]*(?P<value>[^#\r\n]*)", re.M)
_VERSION = re.compile(r"^okf_version[ \t]*:", re.M)
_EMPTY_VALUES = frozenset({"", "''", '""', "~", "null", "Null", "NULL", "[]", "{}"})


OBSIDIAN_SETTINGS = os.path.join(".obsidian", "app.json")
"""A vault's Obsidian settings, relative to its root."""
TASKS_SETTINGS = os.path.join(".obsidian", "plugins", "obsidian-tasks-plugin", "data.json")
"""A vault's Tasks plugin settings, relative to its root."""
SETTINGS_BYTES = 1 << 20
"""A settings file larger than this is not read (Obsidian's is a few hundred bytes)."""


def obsidian_settings(root: str, name: str = OBSIDIAN_SETTINGS) -> dict[str, Any]:
    """A vault's `.obsidian/app.json` (or the settings file `name`, a plugin's); {} when
    it cannot be read or parsed (Obsidian then keeps its defaults)."""
    import json

    path = os.path.join(root, name)
    try:
        settings = json.loads(read_head(path, SETTINGS_BYTES + 1)[:SETTINGS_BYTES])
    except (OSError, ValueError):
        return {}
    return settings if isinstance(settings, dict) else {}


def vault_excluded(root: str, hidden: Sequence[str] = ()) -> Excluded:
    """The files a vault's Obsidian settings exclude ("Excluded files",
    `userIgnoreFilters`: `core.excluded`), and the paths `hidden` (a Logseq graph's)."""
    filters = obsidian_settings(root).get("userIgnoreFilters")
    if hidden:
        filters = [*(filters if isinstance(filters, list) else ()), *hidden]
    return excluded_files(filters)


def vault_line_breaks(root: str) -> LineBreaks:
    """A vault's line-break rule: Obsidian's default (a single newline breaks the line)
    unless `.obsidian/app.json` sets `"strictLineBreaks": true`. Settings that cannot be
    read or parsed leave the default, as Obsidian does."""
    if obsidian_settings(root).get("strictLineBreaks") is True:
        return LineBreaks(False, "CommonMark: .obsidian/app.json sets strictLineBreaks")
    return LineBreaks(True, "as Obsidian shows a vault: a single newline breaks the line")


def is_okf_bundle(root: str) -> bool:
    """True when the real folder `root` reads as an OKF bundle (see the module doc)."""
    index = _frontmatter_of(os.path.join(root, "index.md"))
    if index is not None and _VERSION.search(index):
        return True
    typed = sampled = 0
    for path in _concept_files(root):
        sampled += 1
        block = _frontmatter_of(path)
        typed += block is not None and _states_type(block)
    return sampled > 0 and 2 * typed >= sampled


def _states_type(block: str) -> bool:
    match = _TYPE.search(block)
    return match is not None and match.group("value").strip() not in _EMPTY_VALUES


def _frontmatter_of(path: str) -> str | None:
    """The frontmatter block of a file's head, or None (no block, unreadable)."""
    try:
        head = read_head(path, HEAD_BYTES)
    except OSError:
        return None
    match = _FRONTMATTER.match(head.decode("utf-8", "replace"))
    return match.group(1) if match else None


def _concept_files(root: str) -> list[str]:
    """Up to `SAMPLE_FILES` concept files, breadth-first, each folder in name order."""
    found: list[str] = []
    folders = [root]
    while folders and len(found) < SAMPLE_FILES:
        deeper: list[str] = []
        for folder in folders:
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError:
                continue
            for entry in entries:
                name = entry.name
                if name.startswith("."):
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        deeper.append(entry.path)
                    elif (
                        name.endswith(MARKDOWN_SUFFIX)
                        and name not in _RESERVED_FILES
                        and entry.is_file()
                    ):
                        found.append(entry.path)
                except OSError:
                    continue
                if len(found) >= SAMPLE_FILES:
                    return found
        folders = deeper
    return found
