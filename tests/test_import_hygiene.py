"""The layers stay apart: the core imports no adapter, the UI-free parts no UI.

- Nothing in `core/`, `sources/` or `server/` imports Textual or Rich.
- Nothing in `core/` imports `okf_explorer.sources` (nor the server, the TUI or
  the CLI), PyYAML or httpx, not even lazily inside a function or under
  `TYPE_CHECKING` (the port lives in the core; adapters implement it).
- No `getattr(source, "…")` / `hasattr(source, "…")` side doors: a source's
  optional capability is a protocol declared in `core/port.py`.
- The explorer (`tui/`, `web` included) never imports the server: what `serve` and
  `web` share (the binding rule, the listener) is `okf_explorer/net.py`.

Every module of the three packages is found on disk (a new module is checked
without editing this file) and imported in a fresh interpreter, so imports made
by other tests cannot hide one; a static pass over each file's syntax tree
catches the imports a plain import would not run. `lint-imports` (.ci/run)
checks the same layers from the contracts in pyproject.toml.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from okf_explorer.core import fast_paths

pytestmark = pytest.mark.plain

PACKAGE = Path(__file__).resolve().parent.parent / "okf_explorer"
UI_FREE_PACKAGES = ("core", "sources", "server")
UI_FREE_MODULES = ("okf_explorer.net",)
UI_PACKAGES = ("textual", "rich")
UPPER_LAYERS = ("okf_explorer.sources", "okf_explorer.server", "okf_explorer.tui")
ENTRY_POINTS = ("okf_explorer.cli",)
CORE_FORBIDDEN = (*UPPER_LAYERS, *ENTRY_POINTS, "yaml", "httpx", *UI_PACKAGES)


def module_names(package: str) -> list[str]:
    """Every module of `okf_explorer.<package>` (its `__init__` included), from the files."""
    folder = PACKAGE / package
    names = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def forbidden(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def loaded_by_importing(modules: list[str], prefixes: tuple[str, ...]) -> dict[str, list[str]]:
    """In a fresh interpreter, import `modules` one by one: module → forbidden modules its
    import loaded first (the first importer of a forbidden module is the one named)."""
    code = (
        "import importlib, json, sys\n"
        f"modules, prefixes = {modules!r}, {prefixes!r}\n"
        "bad = lambda n: any(n == p or n.startswith(p + '.') for p in prefixes)\n"
        "found = {}\n"
        "for module in modules:\n"
        "    before = set(sys.modules)\n"
        "    importlib.import_module(module)\n"
        "    new = sorted(n for n in set(sys.modules) - before if bad(n))\n"
        "    if new:\n"
        "        found[module] = new\n"
        "print(json.dumps(found))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_package_module_is_found() -> None:
    core = module_names("core")
    assert {"okf_explorer.core", "okf_explorer.core.port", "okf_explorer.core.brain"} <= set(core)
    assert "okf_explorer.sources.folder.bundle" in module_names("sources")
    assert "okf_explorer.server.tools" in module_names("server")


def test_core_sources_and_server_do_not_import_textual_or_rich() -> None:
    """Under `OKF_EXPLORER_PLAIN=1` plain `import httpx` loads httpx's own command line,
    which imports rich when it is installed (what `sources/gbrain/fast_httpx.py` avoids): httpx
    is then imported first, and nothing of ours may add to what it loaded."""
    modules = [name for package in UI_FREE_PACKAGES for name in module_names(package)]
    modules += UI_FREE_MODULES
    if fast_paths.enabled():
        assert loaded_by_importing(modules, UI_PACKAGES) == {}
        return
    assert set(loaded_by_importing(["httpx", *modules], UI_PACKAGES)) <= {"httpx"}


def test_core_imports_no_adapter_yaml_or_httpx() -> None:
    assert loaded_by_importing(module_names("core"), CORE_FORBIDDEN) == {}


def imported_names(path: Path) -> list[tuple[int, str]]:
    """`(line, module)` of every import statement anywhere in a file (function bodies,
    `TYPE_CHECKING` blocks), relative imports made absolute; `from a import b` gives
    both `a` and `a.b`."""
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def test_core_files_name_no_forbidden_import_even_lazily() -> None:
    bad = [
        f"{path.relative_to(PACKAGE)}:{line}: {name}"
        for path in sorted((PACKAGE / "core").rglob("*.py"))
        for line, name in imported_names(path)
        if forbidden(name, CORE_FORBIDDEN)
    ]
    assert bad == []


def test_the_explorer_names_no_server_import_even_lazily() -> None:
    bad = [
        f"{path.relative_to(PACKAGE)}:{line}: {name}"
        for path in sorted((PACKAGE / "tui").rglob("*.py"))
        for line, name in imported_names(path)
        if forbidden(name, ("okf_explorer.server",))
    ]
    assert bad == []


def side_doors(path: Path) -> list[str]:
    """`getattr`/`hasattr` calls on a page source (the object's text names `source`)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(text, str(path))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and node.args
            and "source" in (ast.get_source_segment(text, node.args[0]) or "").lower()
        ):
            call = ast.get_source_segment(text, node)
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {call}")
    return found


def test_no_getattr_side_door_on_a_source() -> None:
    assert [door for path in sorted(PACKAGE.rglob("*.py")) for door in side_doors(path)] == []


def test_the_command_line_starts_without_exporters_graph_libraries_or_the_ui() -> None:
    """`okf-explorer links …` must start fast (issue 8: warm `links hub --backlinks` ≤ 0.25 s):
    the export checker (~80 ms), networkx and Textual load only for the commands that use them."""
    heavy = (
        "okf_explorer.core.export.formats",
        "okf_explorer.core.export.check",
        "networkx",
        "textual",
    )
    assert loaded_by_importing(["okf_explorer.cli"], heavy) == {}


def test_a_warm_links_run_loads_neither_yaml_nor_the_scan_workers(tmp_path: Path) -> None:
    """Answering from a warm index cache only lists the folder: PyYAML (the page parser)
    and multiprocessing (the scan workers) load on the first page actually read, full-text
    search and the page audit when first asked (issue 8: warm `links` ≤ 0.25 s)."""
    bundle = tmp_path / "brain"
    bundle.mkdir()
    (bundle / "a.md").write_text("---\ntype: note\ntags: [x]\n---\n# A\n\nSee [[b]].\n")
    (bundle / "b.md").write_text("# B\n\nBack to [[a]].\n")
    code = (
        "import json, sys\n"
        "from okf_explorer.cli import main\n"
        f"status = main(['--source', {str(bundle)!r}, 'links', 'a', '--backlinks'])\n"
        "heavy = ('yaml', 'multiprocessing', 'concurrent.futures.process',\n"
        "         'okf_explorer.sources.folder.pagefile', 'okf_explorer.sources.folder.scan',\n"
        "         'okf_explorer.core.search.text_search', 'okf_explorer.core.audit.page')\n"
        "print(json.dumps([status, sorted(n for n in heavy if n in sys.modules)]))\n"
    )
    env = {**os.environ, "OKF_EXPLORER_CACHE": str(tmp_path / "cache")}

    def run() -> list:
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout.splitlines()[-1])

    cold = run()  # reads both pages and writes the cache
    assert cold[0] == 0 and "yaml" in cold[1]
    assert run() == [0, []]
