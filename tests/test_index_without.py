"""`LinkIndex.without`: the index as a reader who may not see some pages finds it (what
`serve` counts, walks and packs for a caller its private pages are kept from). It must be
the index of the same brain had those pages never been written, nor any link to them."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.core.graph.analysis import brain_stats
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle

WITH_HIDDEN = {
    "a.md": "# A\n\n[[b]], [[h]], [[h|again]], [[Missing One]] and [[Only Hidden Wants]].\n",
    "b.md": "---\nsources: ['[[h]]']\n---\n# B\n\nBack to [[a]].\n",
    "c.md": "---\nrelated: '[[h]]'\n---\n# C\n\nAlone with [[c]].\n",
    "h.md": "# H\n\n[[a]], [[d]], [[Only Hidden Wants]], [[twin]].\n",
    "d.md": "# D\n\nReached from h only.\n",
    "x/twin.md": "# Twin\n\n[[twin]]\n",
    "y/twin.md": "# Twin\n",
}
NEVER_WRITTEN = {
    "a.md": "# A\n\n[[b]], [[Missing One]] and [[Only Hidden Wants]].\n",
    "b.md": "# B\n\nBack to [[a]].\n",
    "c.md": "# C\n\nAlone with [[c]].\n",
    "d.md": "# D\n\nReached from h only.\n",
    "x/twin.md": "# Twin\n\n[[twin]]\n",
    "y/twin.md": "# Twin\n",
}


def index_of(folder: Path) -> LinkIndex:
    return build_index(BundleSource(folder))


def edges(index: LinkIndex) -> dict[str, object]:
    return {
        "pages": list(index.pages),
        "out": {slug: index.out_edges(slug) for slug in index.pages},
        "in": {node: index.in_edges(node) for node in sorted(index.reverse)},
        "forward": {
            slug: [(link.to, link.rel, link.incoming) for link in index.forward.get(slug, ())]
            for slug in index.pages
        },
        "raw": sorted(index.raw_links),
        "ambiguous": index.ambiguous,
    }


def test_an_index_without_a_page_is_the_index_of_the_brain_that_never_had_it(
    tmp_path: Path,
) -> None:
    seen = index_of(write_bundle(tmp_path / "with", WITH_HIDDEN))
    assert any(link.incoming for link in seen.forward["b"])  # `sources` states h → b
    assert seen.ambiguous == 2  # h's and x/twin's [[twin]]
    assert any(link.to == "h" and link.rel != "links" for link in seen.forward["c"])  # typed
    hidden = seen.without({"h"})
    never = index_of(write_bundle(tmp_path / "never", NEVER_WRITTEN))
    mine, theirs = edges(hidden), edges(never)
    # `a` links to h twice: its forward keeps b, Missing One and Only Hidden Wants;
    # x/twin's ambiguous link is still counted, h's is not
    assert mine == theirs
    assert brain_stats(hidden).to_json() == brain_stats(never).to_json()
    assert "h" in seen.pages and len(seen.forward) == 7  # the index itself is unchanged


def test_without_nothing_is_the_index_itself(tmp_path: Path) -> None:
    seen = index_of(write_bundle(tmp_path / "with", WITH_HIDDEN))
    assert seen.without(()) is seen
    assert seen.without({"no-such-page"}) is seen
