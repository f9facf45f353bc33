"""A small bundle for the `path` tests (issue 13 §1), its paths worked out by hand.

Body links: a → hub, b, c, x; b → m → d; c → e → d; x → y → z → d; hub → d;
f01…f12 → hub (so `hub` has 13 pages linking in: the one hub by degree);
w → index → a (an `index` page is a hub too); q → log → a (`log` is reserved: the
root index states `okf_version`, so this is an OKF bundle).
b states `sources: [/e.md]` in its frontmatter: an edge b → e of relation
`derived_from`; r1 links to r2, which is `derived_from` r1.
From a to d: a→hub→d (2 hops, via hub), a→b→m→d, a→b→e→d and
a→c→e→d (3), a→x→y→z→d (4).
"""

from __future__ import annotations

from pathlib import Path

from tests.bundles import write_pages

PAGES: dict[str, str] = {
    "a": "# A\n\nFirst see [[hub]]. Then [[b]] is next. Also [the c page](c.md) and [[x]].\n",
    "b": "---\nsources:\n  - id: e\n    resource: /e.md\n---\nB leads to [[m]].\n",
    "m": "M goes to [[d]].\n",
    "c": "C then [[e]].\n",
    "e": "E ends at [[d]].\n",
    "x": "[[y]]\n",
    "y": "[[z]]\n",
    "z": "[[d]]\n",
    "hub": "The hub reaches [[d]].\n",
    "d": "D links nowhere.\n",
    "w": "W opens [[index]].\n",
    "index": '---\nokf_version: "0.2"\n---\nHome: [[a]].\n',
    "q": "Q reads the [[log]].\n",
    "log": "Logged [[a]].\n",
    "r1": "R1 cites [[r2]].\n",
    "r2": "---\nsources:\n  - id: r1\n    resource: /r1.md\n---\nR2.\n",
    **{f"f{n:02}": f"F{n} uses [[hub]].\n" for n in range(1, 13)},
}


def make_path_bundle(root: Path) -> Path:
    return write_pages(root, PAGES)
