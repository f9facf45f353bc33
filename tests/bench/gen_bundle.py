"""A deterministic synthetic OKF bundle for benchmarks.

`generate(root, n, seed)` writes `n` pages (plus `hub.md`, `index.md` and five
folder `index.md` pages) in nested folders: power-law out-degree (Pareto, mean
≈ 4), every link form of SPEC §3 (wiki with alias / heading / block / escaped
pipe, embeds, Markdown links absolute, `./` and `../` relative, in angle
brackets and percent-encoded, reference-style, folder links, by title, by
different case, by slugified name), ~3% dangling targets, non-links (code
blocks, inline code, images, attachments, URLs), frontmatter on about half the
pages, and a `hub` page that every page links to. Same `n` and `seed` →
byte-identical bundle.

    python tests/bench/gen_bundle.py /tmp/bundle 10000 --seed 1
"""

from __future__ import annotations

import argparse
import posixpath
import random
from pathlib import Path

GENERATOR_VERSION = 2
"""Bumped whenever the output changes, so cached benchmark bundles are regenerated."""

FOLDERS = [
    "",
    "notes",
    "notes/daily",
    "projects",
    "projects/alpha",
    "projects/alpha/specs",
    "people",
    "reference",
    "reference/tables",
    "archive/2023",
    "archive/2024",
]
WORDS = [
    "graph",
    "index",
    "page",
    "link",
    "note",
    "brain",
    "table",
    "order",
    "query",
    "cache",
    "scan",
    "folder",
    "token",
    "server",
    "edge",
    "hop",
    "depth",
    "vault",
    "title",
    "alias",
    "heading",
    "block",
    "embed",
]


def page_names(n: int, rng: random.Random) -> list[str]:
    """Slugs of the `n` generated pages (some with spaces and capitals)."""
    slugs: list[str] = []
    used: set[str] = set()
    for i in range(n):
        folder = FOLDERS[min(int(rng.expovariate(0.35)), len(FOLDERS) - 1)]
        name = f"Topic {i:06d}" if i % 7 == 0 else f"page-{i:06d}"
        if i % 97 == 0:  # a few basenames shared across folders: ambiguous links
            candidate = f"{FOLDERS[1 + (i // 97) % (len(FOLDERS) - 1)]}/common-{i % 3}"
            if candidate not in used:
                slugs.append(candidate)
                used.add(candidate)
                continue
        slugs.append(f"{folder}/{name}" if folder else name)
    return slugs


def link_text(frm: str, to: str, title: str, rng: random.Random) -> str:
    """One link from page `frm` to page `to`, in a randomly chosen SPEC §3 form."""
    base = to.rsplit("/", 1)[-1]
    form = rng.randrange(14)
    if form == 0:
        return f"[[{base}|{rng.choice(WORDS)}]]"
    if form == 1:
        return f"[[{to}#{rng.choice(WORDS)}]]"
    if form == 2:
        return f"![[{base}]]"
    if form == 3:
        return f"[{rng.choice(WORDS)}](/{to.replace(' ', '%20')}.md)"
    if form == 4:
        rel = posixpath.relpath(to, posixpath.dirname(frm) or ".")
        rel = rel if rel.startswith("..") else f"./{rel}"
        return f"[{rng.choice(WORDS)}](<{rel}.md>)"
    if form == 5:
        return f"[[{title}]]"
    if form == 6:
        return f"[[{base.upper()}]]"
    if form == 7:
        return f"[[{base.lower().replace(' ', '-')}]]"
    if form == 8:
        return f"| cell | [[{base}\\|alias]] |"
    if form == 9:
        return f"[[{base}#^block{rng.randrange(9)}]]"
    if form == 12:
        folder = posixpath.dirname(to)
        return f"[{rng.choice(WORDS)}](/{folder}/)" if folder else f"[[{base}]]"
    if form == 10:
        ref = f"r{rng.randrange(10**6)}"
        return f"[{rng.choice(WORDS)}][{ref}]\n\n[{ref}]: /{to.replace(' ', '%20')}.md\n"
    return f"[[{base}]]"


def page_text(i: int, slug: str, slugs: list[str], titles: list[str], rng: random.Random) -> str:
    """The Markdown of page `i`."""
    parts: list[str] = []
    if i % 2 == 0:
        tags = ", ".join(rng.sample(WORDS, 2))
        parts.append(
            f"---\ntitle: {titles[i]}\ntype: {rng.choice(['note', 'table', 'person'])}\n"
            f"tags: [{tags}]\nupdated: 2024-0{1 + i % 9}-1{i % 10}\n---\n"
        )
    parts.append(f"# {titles[i]}\n\nLinks to [[hub]].\n")
    degree = min(int(rng.paretovariate(1.6)), 300) + rng.randrange(3)
    for _ in range(degree):
        words = " ".join(rng.choices(WORDS, k=rng.randrange(8, 30)))
        if rng.random() < 0.03:
            target = f"[[missing {rng.randrange(n_missing(len(slugs)))}]]"
        else:
            j = rng.randrange(len(slugs))
            target = link_text(slug, slugs[j], titles[j], rng)
        parts.append(f"{words} {target}.\n")
    if i % 5 == 0:
        parts.append("\n```\n[[not-a-link]] [x](nope.md)\n```\nAnd `[[inline-code]]` too.\n")
    if i % 3 == 0:
        parts.append("![chart](img/chart.png) [[photo.jpg]] [site](https://example.com/a.md)\n")
    return "\n".join(parts)


def n_missing(n: int) -> int:
    return max(5, n // 50)


def generate(root: Path, n: int, seed: int = 0) -> list[str]:
    """Write the bundle under `root` (created); returns the slugs, hub and index included."""
    rng = random.Random(seed)
    slugs = page_names(n, rng)
    titles = [
        f"{s.rsplit('/', 1)[-1].replace('-', ' ').title()} {WORDS[k % len(WORDS)]}"
        for k, s in enumerate(slugs)
    ]
    for folder in FOLDERS:
        (root / folder).mkdir(parents=True, exist_ok=True)
    for i, slug in enumerate(slugs):
        (root / f"{slug}.md").write_text(page_text(i, slug, slugs, titles, rng), encoding="utf-8")
    for folder in FOLDERS[1:6]:  # folder links resolve to these (others dangle)
        (root / folder / "index.md").write_text(f"# {folder}\n\nSee [[hub]].\n", "utf-8")
    (root / "hub.md").write_text("# Hub\n\nEvery page links here. See [[index]].\n", "utf-8")
    (root / "index.md").write_text(
        "# Index\n\n" + "".join(f"- [[{s}]]\n" for s in slugs[: min(n, 200)]), "utf-8"
    )
    return sorted([*slugs, "hub", "index", *(f"{f}/index" for f in FOLDERS[1:6])])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    generate(args.root, args.n, args.seed)


if __name__ == "__main__":
    main()
