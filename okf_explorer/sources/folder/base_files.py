"""A vault's Obsidian bases (`.base` files) found by the name an embed gives and read
as YAML within the frontmatter's bounds (`sources.frontmatter.load_bounded`).

`![[Books.base]]` names a file as Obsidian links attachments: a path from the vault's
folder (`Templates/Bases/Books.base`), else a file name anywhere in the vault (the one
with the shortest path when several share it, hidden folders skipped). A file over
`MAX_BASE_BYTES` or not UTF-8 is refused with the reason, never read whole.
"""

from __future__ import annotations

import os

import yaml

from okf_explorer.core.bases import BASE_SUFFIX, BaseError, is_base_name
from okf_explorer.sources.folder.regular_files import read_head
from okf_explorer.sources.frontmatter import FrontmatterRefused, load_bounded

__all__ = ["MAX_BASE_BYTES", "find_base", "parse_base_text", "read_base_file"]

MAX_BASE_BYTES = 256 * 1024
"""Largest `.base` file read (a real one is a few KB)."""


def find_base(root: str, name: str) -> str:
    """The real path of base `name` in the vault at `root`; `BaseError` when none is."""
    wanted = name.strip().replace("\\", "/").lstrip("/")
    if not is_base_name(wanted):
        wanted += BASE_SUFFIX
    if ".." not in wanted.split("/"):
        direct = os.path.realpath(os.path.join(root, wanted))
        if direct.startswith(root + os.sep) and os.path.isfile(direct):
            return direct
    file_name = wanted.rpartition("/")[2].casefold()
    found: list[str] = []
    for folder, folders, files in os.walk(root):
        folders[:] = [f for f in folders if not f.startswith(".")]
        found += [os.path.join(folder, f) for f in files if f.casefold() == file_name]
    if not found:
        raise BaseError(f"no base {name} in the vault")
    return min(found, key=lambda path: (path.count(os.sep), path))


def read_base_file(path: str) -> object:
    """The YAML of the base at `path`; `BaseError` saying why it cannot be read."""
    try:
        data = read_head(path, MAX_BASE_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise BaseError(f"cannot read {os.path.basename(path)}: {reason}") from None
    name = os.path.basename(path)
    if len(data) > MAX_BASE_BYTES:
        raise BaseError(f"{name} is larger than {MAX_BASE_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BaseError(f"{name} is not valid UTF-8") from None
    return parse_base_text(text, name)


def parse_base_text(text: str, name: str) -> object:
    """A base's YAML (`name` says where it was written, for the error); `BaseError` says
    why it cannot be read."""
    try:
        return load_bounded(text)
    except FrontmatterRefused as error:
        raise BaseError(f"{name}: {error}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise BaseError(f"{name} is not valid YAML{where}") from None
