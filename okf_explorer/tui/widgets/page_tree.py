"""The page tree: every page by folder, a second way into a brain (key `f`).

Folders fill in when first expanded, so a 100k-page brain adds only what the user
opens. `enter` on a page posts `PageChosen`; on a folder it opens or closes it. A row too
long for the pane loses the page's title, then the end of its file name (`…`).

In a Dendron workspace a note's name is its place in a hierarchy (`dendron.tutorial.vaults`
is under `dendron.tutorial`, under `dendron`), as Dendron's tree view shows it: inside its
folder, each note sits under the note its name continues, and a note with notes under it
opens like a folder (`space`) and opens as a page (`enter`). A name whose parent note is
missing (a stub, in Dendron's words) still nests, under a row of the missing part.

Folders, notes and pages are each listed as a file explorer lists them (Obsidian's, VS
Code's), not in slug order: `apple` beside `Apple` and before `Zebra`, `Chapter 2` before
`Chapter 10` (`explorer_order`). Every other listing keeps the slug order SPEC §2 asks for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from okf_explorer.core.pages import title_says_more
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.slice import ELLIPSIS, MIN_TITLE, TITLE_GAP, leaves_start_out
from okf_explorer.tui.widgets.fitted_tree import FittedTree


@dataclass(slots=True)
class Folder:
    """One folder's sub-folders and pages ((slug, title)), each in a file explorer's
    order (`explorer_order`); in a Dendron
    workspace also its notes with notes under them (`notes`, by the last part of their
    name), and, for such a note, the note itself (`page`; None: a stub)."""

    folders: dict[str, Folder] = field(default_factory=dict)
    pages: list[tuple[str, str]] = field(default_factory=list)
    notes: dict[str, Folder] = field(default_factory=dict)
    page: tuple[str, str] | None = None

    def count(self) -> int:
        """The pages under it (itself not counted)."""
        inside = self.folders.values(), self.notes.values()
        return len(self.pages) + sum(
            sub.count() + (sub.page is not None) for subs in inside for sub in subs
        )


def folder_tree(pages: Iterable[tuple[str, str]], dotted: bool = False) -> Folder:
    """The folders of `pages` ((slug, title)), nested, each listing its own pages;
    `dotted`: a file name's dots nest it too (a Dendron workspace's hierarchy)."""
    root = Folder()
    for slug, title in pages:  # in no order: `_in_explorer_order` orders every folder
        folder = root
        *parts, name = slug.split("/")
        for part in parts:
            folder = folder.folders.setdefault(part, Folder())
        if dotted:
            *above, name = name.split(".")
            for part in filter(None, above):  # `a..b` is under `a`
                folder = folder.notes.setdefault(part, Folder())
            folder.notes.setdefault(name, Folder()).page = (slug, title)
        else:
            folder.pages.append((slug, title))
    if dotted:
        _leaves_as_pages(root)
    _in_explorer_order(root, dotted)
    return root


_NUMBER = re.compile(r"\d+")
NUMBER_DIGITS = 24
"""Digits a number of a name is padded to, so numbers compare by value."""


def explorer_order(name: str) -> tuple[str, str]:
    """The sort key of a file or folder name as a file explorer orders them (Obsidian's,
    VS Code's): letters in any case together, accents aside (`apple`, `Éclair`, `Zebra`), and
    numbers by value (`Chapter 2` before `Chapter 10`); then the name itself, so that
    names equal so read keep one order."""
    folded = name.casefold()
    if not folded.isascii():
        decomposed = unicodedata.normalize("NFD", folded)
        folded = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _NUMBER.sub(lambda digits: digits[0].zfill(NUMBER_DIGITS), folded), name


def _in_explorer_order(folder: Folder, dotted: bool) -> None:
    """Order `folder`'s folders, notes and pages by name as a file explorer does
    (`explorer_order`), all the way down; a page by its name as its row shows it."""
    folder.folders = dict(sorted(folder.folders.items(), key=lambda item: explorer_order(item[0])))
    folder.notes = dict(sorted(folder.notes.items(), key=lambda item: explorer_order(item[0])))
    folder.pages.sort(key=lambda page: explorer_order(_shown_name(page[0], dotted)))
    for sub in (*folder.folders.values(), *folder.notes.values()):
        _in_explorer_order(sub, dotted)


def _shown_name(slug: str, dotted: bool) -> str:
    """The name a page's row shows: its file name (in a Dendron workspace its last part)."""
    name = slug.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1] if dotted else name


def _leaves_as_pages(folder: Folder) -> None:
    """A note with no note under it is a page of its folder, as in any tree."""
    for sub in folder.folders.values():
        _leaves_as_pages(sub)
    for name, note in list(folder.notes.items()):
        if note.page is not None and not note.notes:
            folder.pages.append(note.page)
            del folder.notes[name]
        else:
            _leaves_as_pages(note)


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
        self._dotted = False

    def show(self, pages: list[tuple[str, str]], current: str | None, dotted: bool = False) -> None:
        """List `pages` (rebuilt only when they or `dotted` changed: `folder_tree`) and put
        the cursor on `current`."""
        if pages is not self._pages or dotted != self._dotted:
            self._pages, self._dotted = pages, dotted
            self.clear()
            top = folder_tree(pages, dotted)
            self.border_title = f"pages · {len(pages)}"
            self._fill(self.root, top, "")
        if current is not None:
            self.reveal(current)

    def _fill(self, node: TreeNode[TreeEntry], folder: Folder, path: str) -> None:
        for name, sub in folder.folders.items():
            label = Text.assemble((f"{printable(name)}/", "bold"), (f" {sub.count()}", "dim"))
            child = node.add(label, TreeEntry(folder=sub, path=f"{path}{name}/"))
            child.allow_expand = True
        for name, note in folder.notes.items():
            shown = printable(name)
            label = Text(shown) if note.page is not None else Text(shown, style="dim")
            if note.page is not None and title_says_more(name, note.page[1]):
                label.append(f"  {printable(note.page[1])}", style="dim")
            label.append(f" {note.count()}", style="dim")
            slug = note.page[0] if note.page is not None else None
            entry = TreeEntry(slug=slug, name=shown, folder=note, path=f"{path}{name}.")
            node.add(label, entry).allow_expand = True
        for slug, title in folder.pages:
            name = _shown_name(slug, self._dotted)
            shown = printable(name)
            label = Text(shown)
            if title_says_more(name, title):
                label.append(f"  {printable(title)}", style="dim")
            node.add_leaf(label, TreeEntry(slug=slug, name=shown))

    def fit(self, node: TreeNode[TreeEntry], label: Text, width: int) -> Text:
        """The row cut to `width` at its end (`…`): the title while a few of its letters
        still fit beside the whole name, else the name alone, less the start it shares
        with its siblings' where the cut would show nothing more (`sibling_starts`)."""
        entry = node.data
        if label.cell_len > width and entry is not None and entry.name:
            name = label[: len(entry.name)]
            if name.cell_len + TITLE_GAP + MIN_TITLE > width:
                label = name
                shared = self.sibling_starts(node).get(entry.name)
                if shared is not None and leaves_start_out(entry.name, width, shared):
                    label = Text(ELLIPSIS) + name[shared.word :]
        label = label.copy()
        label.truncate(width, overflow="ellipsis")
        return label

    def name_cut_at_end(self, node: TreeNode[TreeEntry]) -> str | None:
        """A page's or note's name (`fit`); a folder's row is never read so."""
        return node.data.name if node.data is not None and node.data.name else None

    def reveal(self, slug: str) -> None:
        """Open the folders (and notes) down to `slug` and move the cursor onto it: in
        the middle of the pane when it was out of view (`_cursor_to`)."""
        node = self.root
        for key in _keys_to(slug, self._dotted):
            found = next((child for child in node.children if key in _keys(child)), None)
            if found is None:
                return
            node = found
            if found.data is None or found.data.slug != slug:
                self._open(node)
        self.call_after_refresh(self._cursor_to, node)  # its line is known once laid out

    def _cursor_to(self, node: TreeNode[TreeEntry]) -> None:
        """The cursor on `node`; a row out of view comes to the middle of the pane, with
        the pages around it on both sides (as a file explorer reveals a file), not to
        its last row with none after it."""
        height = self.scrollable_content_region.height
        in_view = self.scroll_y <= node.line < self.scroll_y + height
        self.move_cursor(node)
        if not in_view:
            self.scroll_to(y=max(0, node.line - height // 2), animate=False)

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


def _keys(node: TreeNode[TreeEntry]) -> tuple[str, ...]:
    """What names the node on the way down (`_keys_to`): its path, its page's slug."""
    entry = node.data
    if entry is None:
        return ()
    return tuple(key for key in (entry.path, entry.slug) if key)


def _keys_to(slug: str, dotted: bool) -> list[str]:
    """The keys of the nodes from the top down to `slug`'s (`_keys`): each folder's
    path (`a/`, `a/b/`), then, `dotted`, each note above it (`a/b/dendron.`), then the
    slug."""
    *folders, name = slug.split("/")
    keys = ["/".join(folders[: depth + 1]) + "/" for depth in range(len(folders))]
    if dotted:
        prefix = "".join(f"{part}/" for part in folders)
        parts = [part for part in name.split(".")[:-1] if part]  # as `folder_tree` nests
        keys += [prefix + ".".join(parts[: depth + 1]) + "." for depth in range(len(parts))]
    return [*keys, slug]
