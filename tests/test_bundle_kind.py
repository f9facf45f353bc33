"""`index.md` / `log.md` are OKF reserved files in an OKF bundle, ordinary pages in a
vault (`sources.folder.bundle.is_okf_bundle`): seen on the Foam docs, whose `index.md`
"What is Foam?" read as "(reserved)"."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.okf.validate import validate_brain
from okf_explorer.sources.folder.bundle import SAMPLE_FILES, BundleSource, is_okf_bundle
from tests.bundles import WrappedSource
from tests.bundles import write_file as write


def foam_workspace(root: Path) -> None:
    """A Foam-like workspace: prose `index.md` pages, notes without `type`."""
    write(root, "index.md", "# What is a garden?\n\nStart at [[principles]].\n")
    write(root, "principles.md", "# Principles\n\nBack to [[index]].\n")
    write(root, "user/index.md", "# Using the garden\n\nSee [[daily-notes]].\n")
    write(root, "user/daily-notes.md", "---\ntags: [journal]\n---\n# Daily notes\n")
    write(root, "user/log.md", "# What I did\n\nWatered the [[principles]].\n")


def okf_bundle(root: Path) -> None:
    """An OKF bundle without `okf_version`: typed concepts, listing `index.md` files."""
    write(root, "index.md", "# Subdirectories\n\n* [tables](tables/index.md) - tables\n")
    write(root, "log.md", "# Log\n\n## 2026-05-01\n* **Creation**: tables\n")
    write(root, "tables/index.md", "# Tables\n\n* [Orders](orders.md) - orders\n")
    write(root, "tables/orders.md", "---\ntype: Table\n---\n# Orders\n")
    write(root, "tables/refunds.md", "---\ntype: Table\ntitle: Refunds\n---\n# Refunds\n")


def reserved(root: Path) -> list[str]:
    brain = Brain(BundleSource(root), cache_dir=False)
    return [slug for slug, info in brain.ensure_index().pages.items() if info.reserved]


def test_a_vaults_index_and_log_are_ordinary_pages(tmp_path: Path) -> None:
    foam_workspace(tmp_path)
    source = BundleSource(tmp_path)
    assert not is_okf_bundle(str(tmp_path))
    assert reserved(tmp_path) == []
    assert not source.get_page("index").reserved
    assert not any(page.info.reserved for page in source.scan(source.enumerate()))
    brain = Brain(source, cache_dir=False)
    assert brain.orphans() == ["user/index", "user/log"]  # no page links to them


def test_an_okf_bundles_index_and_log_are_reserved(tmp_path: Path) -> None:
    okf_bundle(tmp_path)
    assert is_okf_bundle(str(tmp_path))
    assert reserved(tmp_path) == ["index", "log", "tables/index"]
    assert BundleSource(tmp_path).get_page("tables/index").reserved


def test_okf_version_in_the_root_index_makes_a_bundle(tmp_path: Path) -> None:
    write(tmp_path, "index.md", '---\nokf_version: "0.2"\n---\n# Home\n')
    write(tmp_path, "notes/a.md", "# A\n")
    write(tmp_path, "notes/b.md", "# B\n")
    assert is_okf_bundle(str(tmp_path))
    assert reserved(tmp_path) == ["index"]


def test_half_the_sampled_concepts_typed_is_enough(tmp_path: Path) -> None:
    write(tmp_path, "index.md", "# Home\n")
    write(tmp_path, "a.md", "---\ntype: Metric\n---\n")
    write(tmp_path, "b.md", "# B\n")
    assert is_okf_bundle(str(tmp_path))
    write(tmp_path, "c.md", "---\ntype: ''\n---\n# C, an empty type states none\n")
    assert not is_okf_bundle(str(tmp_path))


def test_the_sample_is_bounded_and_breadth_first(tmp_path: Path) -> None:
    for number in range(SAMPLE_FILES):  # the root's files fill the sample
        write(tmp_path, f"n{number:03}.md", "---\ntype: Note\n---\n")
    for number in range(3 * SAMPLE_FILES):  # deeper untyped files are never read
        write(tmp_path, f"deep/m{number:03}.md", "# untyped\n")
    write(tmp_path, "index.md", "# Home\n")
    assert is_okf_bundle(str(tmp_path))


def test_a_folder_with_no_concepts_is_a_vault(tmp_path: Path) -> None:
    write(tmp_path, "index.md", "# Only an index\n")
    assert not is_okf_bundle(str(tmp_path))
    assert reserved(tmp_path) == []


def test_a_cached_index_follows_the_folder_changing_kind(tmp_path: Path) -> None:
    foam_workspace(tmp_path)
    cache = tmp_path.parent / f"{tmp_path.name}-cache"
    source = BundleSource(tmp_path)
    assert not Brain(source, cache_dir=cache).ensure_index().pages["index"].reserved
    # the notes gain OKF types; index.md itself is unchanged, so it comes from the cache
    write(tmp_path, "principles.md", "---\ntype: Principle\n---\n# Principles\n")
    write(tmp_path, "user/daily-notes.md", "---\ntype: Feature\n---\n# Daily notes\n")
    again = Brain(BundleSource(tmp_path), cache_dir=cache).ensure_index()
    assert [slug for slug, info in again.pages.items() if info.reserved] == [
        "index",
        "user/index",
        "user/log",
    ]


@pytest.mark.parametrize("listing", ["enumerate", "enumerate_unstamped"])
def test_every_listing_asks_the_folder_its_kind_again(tmp_path: Path, listing: str) -> None:
    foam_workspace(tmp_path)
    source = BundleSource(tmp_path)
    getattr(source, listing)()
    assert not source.okf_reserved()
    write(tmp_path, "index.md", '---\nokf_version: "0.2"\n---\n# Home\n')
    assert not source.okf_reserved()  # remembered until the folder is listed again
    getattr(source, listing)()
    assert source.okf_reserved()


def test_validate_checks_reserved_files_as_okf_does_even_in_a_vault(tmp_path: Path) -> None:
    foam_workspace(tmp_path)
    write(tmp_path, "user/index.md", "---\ntitle: Using\n---\n# Using the garden\n")
    report = validate_brain(Brain(BundleSource(tmp_path), cache_dir=False))
    codes = {(finding.slug, finding.code) for finding in report.errors}
    assert ("user/index", "index-frontmatter") in codes
    assert ("user/log", "missing-type") not in codes and ("index", "missing-type") not in codes


def test_a_source_that_cannot_say_decides_from_its_whole_listing(tmp_path: Path) -> None:
    """A server (here: the plain protocol) says nothing of the kind: the index applies
    the same rule to every page's `type`, so it answers as the folder does."""
    foam_workspace(tmp_path / "vault")
    okf_bundle(tmp_path / "okf")
    for name, expected in (("vault", []), ("okf", ["index", "log", "tables/index"])):
        plain = Brain(WrappedSource(tmp_path / name), cache_dir=False).ensure_index()
        assert [slug for slug, info in plain.pages.items() if info.reserved] == expected
