"""`core.fast_paths.FAST_PATHS` is the whole list: every module that reads the switch is
on it, nothing else is, and ARCHITECTURE.md's table is the list, row for row."""

from __future__ import annotations

import ast
from pathlib import Path

from okf_explorer.core.fast_paths import FAST_PATHS, FastPath

PACKAGE = Path(__file__).resolve().parent.parent / "okf_explorer"
ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"
TABLE_HEAD = "| fast path | replaces | measured (fast vs library, same run) |\n|---|---|---|\n"


def reads_the_switch(path: Path) -> bool:
    """Whether the module calls `fast_paths.enabled()` (the one way to read the switch;
    `core/fast_paths.py`, whose collector pause reads it too, calls its own `enabled()`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = path == PACKAGE / "core" / "fast_paths.py"
    for node in ast.walk(tree):
        if own and isinstance(node, ast.Call) and getattr(node.func, "id", None) == "enabled":
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("fast_paths"):
            assert all(alias.name != "enabled" for alias in node.names), (
                f"{path}: call `fast_paths.enabled()`, so the switch is found by this test"
            )
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "enabled"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "fast_paths"
        ):
            return True
    return False


def test_every_module_that_reads_the_switch_is_listed_and_nothing_else() -> None:
    readers = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if reads_the_switch(path)
    }
    listed = [entry.module for entry in FAST_PATHS]
    assert len(listed) == len(set(listed)), "one entry a module"
    assert readers == set(listed)


def table_row(entry: FastPath) -> str:
    return f"| `{entry.module}` | {entry.replaces} | {entry.measured} |\n"


def test_architecture_shows_the_list_row_for_row() -> None:
    table = TABLE_HEAD + "".join(table_row(entry) for entry in FAST_PATHS)
    assert table in ARCHITECTURE.read_text(encoding="utf-8"), (
        f"ARCHITECTURE.md's fast-path table must read:\n{table}"
    )
