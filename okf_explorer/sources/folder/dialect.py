"""Which notes app a folder is written for, and what reading it as that app changes.

- A **Logseq graph** (`logseq/config.edn`): its pages are named as Logseq names them,
  its tags are links, its pages are drawn as Logseq draws them (`logseq.LogseqGraph`).
- A **Dendron workspace** (`dendron.yml` in the folder, or in the folder above it when
  the folder given is one of the workspace's vaults): its links name the note last,
  `[[label|note]]` (`core.links.dendron`); its notes are named as any vault's (the file
  name, `dendron.topic.lookup`, and the frontmatter `title` Dendron writes); the
  explorer opens at the note its published site opens at (`siteIndex`), else at its
  `root` note; a single newline is a space, as Dendron's preview
  shows it (`DENDRON_BREAKS`).
- A **SilverBullet space** (v2: its `CONFIG.md` holds a `space-lua` block, or a Lua
  expression outside code where Obsidian keeps no settings, or the folder keeps plugs in
  `_plug/`): its links are read as SilverBullet
  reads them (`core.links.silverbullet`: no link inside a Lua expression `${…}`, a
  caret or a position left out), its tags as a vault's, its pages drawn with their
  expressions as code and their TeX as math (`tui.markdown.silverbullet`); it opens at
  its `index` page, as SilverBullet does, and a single newline breaks the line, as its
  editor shows a page (`SILVERBULLET_BREAKS`).
- A **vault** (any other folder but an OKF bundle that Obsidian does not keep:
  `BundleSource`): Markdown with Obsidian's links, and a note's tags are its
  property's and the `#tags` in its body, as Obsidian reads them (`ObsidianVault`,
  `core.links.tags.inline_tags`).
- A **Foam workspace** (a vault with no `.obsidian/` whose folder, or the one above it,
  is set up for Foam in VS Code: a `.foam/` folder, `.vscode/extensions.json`
  recommending Foam, or `.vscode/settings.json` setting `foam.` keys): its tags are read
  as a vault's (Foam's Tag Explorer counts `#tags` in the body too), and its pages are
  shown as VS Code's Markdown preview shows them, a single newline a space unless its
  settings turn `markdown.preview.breaks` on (`foam_line_breaks`), not as Obsidian does.
- An OKF bundle: None, Markdown with Obsidian's links; a concept's tags are its
  frontmatter's (OKF §4).

A `Dialect` travels with the scan's work to its worker processes (a frozen dataclass,
picklable), and is read again at every listing (`BundleSource`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from okf_explorer.core.links.grammar import mask_code_spans, strip_fences
from okf_explorer.core.links.silverbullet import lua_expressions
from okf_explorer.core.links.tags import inline_tags
from okf_explorer.core.pages import PAGE_INFO_FIELDS, LineBreaks, Markup, Page
from okf_explorer.sources.folder.logseq import logseq_graph
from okf_explorer.sources.folder.regular_files import read_head

__all__ = [
    "DENDRON_BREAKS",
    "DENDRON_SETTINGS",
    "OBSIDIAN_VAULT",
    "SILVERBULLET_BREAKS",
    "DendronWorkspace",
    "Dialect",
    "FoamWorkspace",
    "ObsidianVault",
    "SilverBulletSpace",
    "foam_line_breaks",
    "foam_workspace",
    "folder_dialect",
    "silverbullet_space",
]

DENDRON_SETTINGS = "dendron.yml"
"""Every Dendron workspace's settings file, at the workspace's root."""
DENDRON_ROOT = "root"
"""The note at the top of every Dendron vault's hierarchy (`root.md`)."""


class Dialect(Protocol):
    """What a folder written for a notes app changes in reading it."""

    @property
    def markup(self) -> Markup:
        """How its pages are written (`core.links.dialects` reads their links)."""
        ...

    @property
    def cache_tag(self) -> str:
        """Its part of the folder's cache key: a folder read another way is cached apart."""
        ...

    def named_row(self, row: Sequence[Any], body: str) -> tuple[Any, ...]:
        """A page's `PageInfo` row with the names the app gives it."""
        ...

    def named_page(self, page: Page) -> Page:
        """A page with the names the app gives it."""
        ...

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        """`(slug, why)` of the page the app opens first, among `slugs`, or None."""
        ...


DENDRON_BREAKS = LineBreaks(
    False, "CommonMark, as Dendron's preview shows a note: a newline is a space"
)
"""A single newline in a Dendron note: Dendron's preview and published site join it, as
CommonMark does (a line break takes `<br>` or two trailing spaces; dendronhq/dendron#1604
asks for Obsidian's rule as an option, and is open)."""


@dataclass(frozen=True, slots=True)
class DendronWorkspace:
    """A Dendron workspace: its links name the note last; names as any vault's.
    `site_index`: the note its published site opens at (`dendron_site_index`), or ""."""

    site_index: str = ""

    @property
    def markup(self) -> Markup:
        return "dendron"

    @property
    def cache_tag(self) -> str:
        return "dendron"

    def named_row(self, row: Sequence[Any], body: str) -> tuple[Any, ...]:
        return tuple(row)

    def named_page(self, page: Page) -> Page:
        return page

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        """The note the workspace's published site opens at, when its settings name one
        (`site_index`: Dendron's own docs open at `dendron`, their `root` note holding a
        link to `dendron.yml` alone), else a vault's `root` note, which Dendron opens a
        vault at (the shallowest of either, when the folder holds the workspace's vaults)."""
        for name, why in ((self.site_index, "Dendron site index"), (DENDRON_ROOT, "Dendron root")):
            found = [slug for slug in slugs if name and slug.rpartition("/")[2] == name]
            if found:
                return min(found, key=lambda slug: (slug.count("/"), slug)), why
        return None


@dataclass(frozen=True, slots=True)
class ObsidianVault:
    """A vault as Obsidian reads it: a note's `#tags` are among its tags (after its
    `tags` property's, each once, case-insensitively), as Obsidian's search, Tags view
    and bases count them."""

    @property
    def markup(self) -> Markup:
        return "markdown"

    @property
    def cache_tag(self) -> str:
        return "obsidian"

    def named_row(self, row: Sequence[Any], body: str) -> tuple[Any, ...]:
        found = inline_tags(body)
        if not found:
            return tuple(row)
        fields = list(row)
        fields[_TAGS] = with_tags(row[_TAGS], found)
        return tuple(fields)

    def named_page(self, page: Page) -> Page:
        found = inline_tags(page.content) if page.readable else ()
        return replace(page, tags=with_tags(page.tags, found)) if found else page

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        return None


@dataclass(frozen=True, slots=True)
class FoamWorkspace(ObsidianVault):
    """A Foam workspace (see the module doc): a vault whose notes' tags are read as
    Obsidian reads them (Foam's Tag Explorer counts the body's `#tags` too), shown as VS
    Code shows it (`foam_line_breaks`). `root` is its folder (the folder given, or the
    one above it), whose `.vscode/settings.json` holds its settings."""

    root: str

    @property
    def cache_tag(self) -> str:
        return "foam"


@dataclass(frozen=True, slots=True)
class SilverBulletSpace(ObsidianVault):
    """A SilverBullet space (see the module doc): a vault whose links and Lua
    expressions read as SilverBullet reads them, opened at its index page."""

    @property
    def markup(self) -> Markup:
        return "silverbullet"

    @property
    def cache_tag(self) -> str:
        return "silverbullet"

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        """The page SilverBullet opens a space at: `index` (a server may name another
        with `SB_INDEX_PAGE`, which the space does not hold)."""
        if SILVERBULLET_INDEX not in slugs:
            return None
        return SILVERBULLET_INDEX, "SilverBullet index page"


SILVERBULLET_INDEX = "index"
SILVERBULLET_CONFIG = "CONFIG.md"
"""A SilverBullet v2 space's settings page, at its root: Lua in `space-lua` blocks."""
SILVERBULLET_PLUGS = "_plug"
"""The folder a SilverBullet space keeps its plugs in."""
OBSIDIAN_FOLDER = ".obsidian"
"""The folder Obsidian keeps a vault's settings in."""
SILVERBULLET_BREAKS = LineBreaks(
    True, "as SilverBullet shows a page: its editor keeps each line a line"
)
_SPACE_BLOCK = re.compile(r"^```space-(?:lua|config)\b", re.MULTILINE)

OBSIDIAN_VAULT = ObsidianVault()
_TAGS = PAGE_INFO_FIELDS.index("tags")


def with_tags(tags: Sequence[str], more: Sequence[str]) -> tuple[str, ...]:
    """`tags`, then those of `more` not among them (case-insensitively)."""
    known = {tag.lower() for tag in tags}
    return (*tags, *(tag for tag in more if tag.lower() not in known))


def folder_dialect(root: str) -> Dialect | None:
    """The dialect of folder `root` when it is written for Logseq, Dendron or
    SilverBullet (see the module doc), or None: a vault or an OKF bundle, which
    `BundleSource` tells apart."""
    graph = logseq_graph(root)
    if graph is not None:
        return graph
    parent = os.path.dirname(root.rstrip(os.sep)) or root
    for folder in (root, parent):
        settings = os.path.join(folder, DENDRON_SETTINGS)
        if os.path.isfile(settings):
            return DendronWorkspace(dendron_site_index(settings))
    return silverbullet_space(root)


def silverbullet_space(root: str) -> SilverBulletSpace | None:
    """The SilverBullet space folder `root` is, else None: its `CONFIG.md` holds a
    `space-lua` (or `space-config`) block, or a Lua expression `${…}` outside code in a
    folder Obsidian does not keep (an Obsidian vault's `CONFIG.md` may well quote a
    shell's `${HOME}`), or it has a `_plug/` folder (the module doc)."""
    if os.path.isdir(os.path.join(root, SILVERBULLET_PLUGS)):
        return SilverBulletSpace()
    try:
        config = read_head(os.path.join(root, SILVERBULLET_CONFIG), SETTINGS_BYTES)
    except OSError:
        return None
    text = config.decode("utf-8", "replace")
    if _SPACE_BLOCK.search(text) or (
        not os.path.isdir(os.path.join(root, OBSIDIAN_FOLDER)) and _holds_expression(text)
    ):
        return SilverBulletSpace()
    return None


def _holds_expression(text: str) -> bool:
    """Whether `text` holds a Lua expression `${…}` outside fenced and inline code."""
    if "${" not in text:
        return False
    return any(lua_expressions(mask_code_spans(part)) for part in strip_fences(text))


def dendron_site_index(settings: str) -> str:
    """The note a Dendron workspace's published site opens at, from its settings file
    (`publishing.siteIndex`, or `site.siteIndex` as older workspaces write it; unset, the
    first of its `siteHierarchies`, as Dendron publishes it), or "" when none is named or
    the file cannot be read."""
    import yaml  # (here: a warm run of the command line loads no YAML library)

    from okf_explorer.sources.frontmatter import load_bounded

    try:
        text = read_head(settings, SETTINGS_BYTES).decode("utf-8", "replace")
        data = load_bounded(text)
    except (OSError, ValueError, yaml.YAMLError):
        return ""
    site = _mapping(data, "publishing") or _mapping(data, "site")
    index = site.get("siteIndex")
    hierarchies = site.get("siteHierarchies")
    if index is None and isinstance(hierarchies, list) and hierarchies:
        index = hierarchies[0]
    return index.strip() if isinstance(index, str) and index.strip() != DENDRON_ROOT else ""


def _mapping(data: object, key: str) -> dict[Any, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


FOAM_EXTENSION = "foam.foam-vscode"
"""Foam's VS Code extension, as a workspace's `.vscode/extensions.json` recommends it."""
FOAM_FOLDER = ".foam"
"""The folder Foam keeps its templates in, at a workspace's root."""
VSCODE_FOLDER = ".vscode"
SETTINGS_BYTES = 256 * 1024
"""How much of a settings file (VS Code's, Dendron's) is read."""
_FOAM_KEY = re.compile(r'^\s*"foam\.[\w.]+"\s*:', re.MULTILINE)
_PREVIEW_BREAKS = re.compile(r'^\s*"markdown\.preview\.breaks"\s*:\s*true\b', re.MULTILINE)
"""A setting on a line of its own: VS Code's settings are JSON with comments, and a line
commented out (`// "markdown.preview.breaks": true`) does not count."""


def foam_workspace(root: str) -> FoamWorkspace | None:
    """The Foam workspace folder `root` is (or is the folder of, one level down), else
    None: a `.foam/` folder, `.vscode/extensions.json` recommending Foam, or
    `.vscode/settings.json` setting one of Foam's `foam.` keys."""
    parent = os.path.dirname(root.rstrip(os.sep)) or root
    for folder in dict.fromkeys((root, parent)):
        if (
            os.path.isdir(os.path.join(folder, FOAM_FOLDER))
            or FOAM_EXTENSION in _vscode_file(folder, "extensions.json")
            or _FOAM_KEY.search(_vscode_file(folder, "settings.json"))
        ):
            return FoamWorkspace(folder)
    return None


def foam_line_breaks(workspace: FoamWorkspace) -> LineBreaks:
    """A single newline as VS Code's Markdown preview shows it: a space (CommonMark), a
    line break when the workspace's settings turn `markdown.preview.breaks` on."""
    if _PREVIEW_BREAKS.search(_vscode_file(workspace.root, "settings.json")):
        return LineBreaks(True, "as VS Code shows it: its settings set markdown.preview.breaks")
    return LineBreaks(False, "CommonMark, as VS Code shows a Foam workspace: a newline is a space")


def _vscode_file(folder: str, name: str) -> str:
    """The start of one of a folder's VS Code files, "" when it cannot be read."""
    try:
        return read_head(os.path.join(folder, VSCODE_FOLDER, name), SETTINGS_BYTES).decode(
            "utf-8", "replace"
        )
    except OSError:
        return ""
