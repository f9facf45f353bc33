"""Issue 22 §5 (small ones): every invalid `save --as` is a usage error, exit 2 and
one line on stderr, decided before anything is sent or written, for both writers.

gbrain: through a counting proxy in front of a real loopback server (our `serve`),
which must see no request at all. Folders: the bundle must be byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bundles import write_bundle
from tests.mcp_server_fixture import ServerHandle, serve_bundle

FILES = {
    "index.md": "# Home\n\n[Orders](tables/orders.md)\n",
    "tables/orders.md": "---\ntitle: Orders\n---\nSee [[customers]].\n",
    "tables/customers.md": "---\ntitle: Customers\n---\nBack to [[orders]].\n",
}
LONG = "a" * 300

GBRAIN_NAMES = {
    "upper case": ("Slices/Upper", "gbrain lowercases page names: save as 'slices/upper'"),
    "encoded dots": ("slices/a%2e%2e", "no backslash or encoded '.', '/' or '\\'"),
    "encoded slash": ("slices/a%2Fb", "no backslash or encoded '.', '/' or '\\'"),
    "encoded backslash": ("slices/a%5cb", "no backslash or encoded '.', '/' or '\\'"),
    "bidi override": ("slices/a\u202egnp", "no backslash or control character"),
    "too long": (f"slices/{LONG}", "longer than"),
    "dot segments": ("slices/../x", "no hidden or ./.. segments"),
    "reserved": ("slices/index", "index and log are reserved"),
}
FOLDER_NAMES = {
    "dot segments": ("../x", "no hidden or ./.. segments"),
    "backslash": ("a\\b", "no backslash or control character"),
    "escape": ("a\x1b[2Jb", "no backslash or control character"),
    "reserved": ("t/log", "index and log are reserved"),
    "hidden": (".obsidian/x", "no hidden or ./.. segments"),
    "absolute": ("/etc/x", "use a relative path"),
    "too long": (f"s/{LONG}", "longer than"),
}


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    root = write_bundle(tmp_path_factory.mktemp("served") / "brain", FILES)
    with serve_bundle(root) as handle:
        yield handle


def usage_error(status: int, out: str, err: str, reason: str) -> None:
    assert (status, out) == (2, ""), err
    assert err.startswith("okf-explorer save: error: --as: ") and err.count("\n") == 1, err
    assert reason in err, err
    assert "internal error" not in err


@pytest.mark.parametrize(("name", "reason"), GBRAIN_NAMES.values(), ids=GBRAIN_NAMES)
def test_a_name_gbrain_would_refuse_or_rename_sends_nothing(
    server, counting_proxy, run, name, reason
):
    proxy = counting_proxy(server.url)
    for extra in ((), ("--dry-run",)):
        usage_error(*run("save", "--source", proxy.url, "tables/orders", "--as", name, *extra),
                    reason)  # fmt: skip
    assert proxy.requests == []


@pytest.mark.parametrize(("name", "reason"), FOLDER_NAMES.values(), ids=FOLDER_NAMES)
def test_a_name_a_folder_cannot_take_writes_nothing(tmp_path, run, name, reason):
    root = write_bundle(tmp_path / "brain", FILES)
    before = tree(root)
    usage_error(*run("save", "--source", str(root), "tables/orders", "--as", name), reason)
    assert tree(root) == before
    assert sorted(p.name for p in root.iterdir()) == ["index.md", "tables"]


def test_names_a_folder_keeps_but_gbrain_would_rename_are_fine_in_a_folder(tmp_path, run):
    root = write_bundle(tmp_path / "brain", FILES)
    status, out, err = run("save", "--source", str(root), "tables/orders", "--as", "Slices/Upper")
    assert (status, err) == (0, "") and out.startswith("written\tSlices/Upper\t")
    assert (root / "Slices" / "Upper.md").is_file()
