"""The page tree: every page by folder, a second way into a brain (key `f`).

Folders fill in when first expanded, so a 100k-page brain adds only what the user
opens. `enter` on a page posts `PageChosen`; on a folder it opens or closes it. A row too
long for the pane loses the page's title, then the end of its file name (`…`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from okf_explorer.core.pages import title_says_more
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.slice import MIN_TITLE, TITLE_GAP
from okf_explorer.tui.widgets.fitted_tree import FittedTree


@dataclass(slots=True)
class Folder:
    """One folder's sub-folders and pages ((slug, title), slug order)."""

    folders: dict[str, Folder] = field(default_factory=dict)
    pages: list[tuple[str, str]] = field(default_factory=list)

    def count(self) -> int:
        return len(self.pages) + sum(folder.count() for folder in self.folders.values())


def folder_tree(pages: Iterable[tuple[str, str]]) -> Folder:
    """The folders of `pages` ((slug, title)), nested, each listing its own pages."""
    root = Folder()
    for slug, title in sorted(pages):
        folder = root
        *parts, _ = slug.split("/")
        for part in parts:
            folder = folder.folders.setdefault(part, Folder())
        folder.pages.append((slug, title))
    return root


@dataclass(frozen=True, slots=True)
class TreeEntry:
    """A node: a page (`slug`, the `name` its row shows) or a folder (`folder`, its path,
    and its contents)."""

    slug: str | None = None
    name: str = ""
    folder: Folder | None = None
    path: str = ""


class PageTree(FittedTree[TreeEntry]):
    """Folders and pages of the brain; `show(pages, current)` fills it and finds `current`."""

    DEFAULT_CSS = """
    PageTree { padding: 0 1; }
    """

    class PageChosen(Message):
        """The user chose a page in the tree (`enter` or a click)."""

        def __init__(self, slug: str) -> None:
            super().__init__()
            self.slug = slug
            self.exists = True

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("pages", id=id)
        self.show_root = False
        self._pages: list[tuple[str, str]] | None = None

    def show(self, pages: list[tuple[str, str]], current: str | None) -> None:
        """List `pages` (rebuilt only when they changed) and put the cursor on `current`."""
        if pages is not self._pages:
            self._pages = pages
            self.clear()
            top = folder_tree(pages)
            self.border_title = f"pages · {len(pages)}"
            self._fill(self.root, top, "")
        if current is not None:
            self.reveal(current)

    def _fill(self, node: TreeNode[TreeEntry], folder: Folder, path: str) -> None:
        for name, sub in folder.folders.items():
            label = Text.assemble((f"{printable(name)}/", "bold"), (f" {sub.count()}", "dim"))
            child = node.add(label, TreeEntry(folder=sub, path=f"{path}{name}/"))
            child.allow_expand = True
        for slug, title in folder.pages:
            name = printable(slug.rsplit("/", 1)[-1])
            label = Text(name)
            if title_says_more(slug, title):
                label.append(f"  {printable(title)}", style="dim")
            node.add_leaf(label, TreeEntry(slug=slug, name=name))

    def fit(self, node: TreeNode[TreeEntry], label: Text, width: int) -> Text:
        """The row cut to `width` at its end (`…`): the title while a few of its letters
        still fit beside the whole name, else the name alone."""
        entry = node.data
        if label.cell_len > width and entry is not None and entry.name:
            name = label[: len(entry.name)]
            if name.cell_len + TITLE_GAP + MIN_TITLE > width:
                label = name
        label = label.copy()
        label.truncate(width, overflow="ellipsis")
        return label

    def reveal(self, slug: str) -> None:
        """Open the folders down to `slug` and move the cursor onto it."""
        node = self.root
        parts = slug.split("/")
        for depth in range(len(parts)):
            wanted = "/".join(parts[: depth + 1]) + ("/" if depth < len(parts) - 1 else "")
            found = next((child for child in node.children if _key(child) == wanted), None)
            if found is None:
                return
            node = found
            if depth < len(parts) - 1:
                self._open(node)
        self.call_after_refresh(self.move_cursor, node)  # its line is known once laid out

    def _open(self, node: TreeNode[TreeEntry]) -> None:
        self._fill_folder(node)
        if not node.is_expanded:
            node.expand()

    def _fill_folder(self, node: TreeNode[TreeEntry]) -> None:
        entry = node.data
        if entry is not None and entry.folder is not None and not node.children:
            self._fill(node, entry.folder, entry.path)

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[TreeEntry]) -> None:
        event.stop()
        self._fill_folder(event.node)

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[TreeEntry]) -> None:
        event.stop()
        entry = event.node.data
        if entry is not None and entry.slug is not None:
            self.post_message(self.PageChosen(entry.slug))

    @property
    def selected_slug(self) -> str | None:
        node = self.cursor_node
        return node.data.slug if node is not None and node.data is not None else None


def _key(node: TreeNode[TreeEntry]) -> str:
    entry = node.data
    if entry is None:
        return ""
    return entry.slug if entry.slug is not None else entry.path
