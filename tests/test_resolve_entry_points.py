"""One resolver (SPEC §3): every path that turns a name into a page answers the same.

For random small corpora (slugs in folders, stated titles, aliases, first
headings) and random names, these must agree:

- a name typed by a person (`Brain.resolve_name`, what `get`/`links`/`export`
  and `--start` use);
- the edge the index records for `[[name]]` written on the root page `index`;
- the server's fuzzy `get_page` (`resolved_slug`, or the first candidate of an
  ambiguous name);
- the TUI's body link: the target the TUI makes clickable for `[[name]]`
  (`linkify_body` → `target_of_href`) resolved from `index` (`Brain.resolve_link`).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from okf_explorer.core.brain import Brain
from okf_explorer.server.tools import call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown.links import kind_of_href, linkify_body, target_of_href
from tests.bundles import write_bundle

WORDS = ["x", "X", "a b", "lint", "Lint", "notes", "my note", "my-note", "café"]
FOLDERS = ["", "a", "b", "a/deep", "B", "docs/adr"]

page_strategy = st.tuples(
    st.sampled_from(FOLDERS),
    st.sampled_from(WORDS),
    st.one_of(st.none(), st.sampled_from(WORDS)),  # frontmatter title
    st.lists(st.sampled_from(WORDS), max_size=2),  # aliases
    st.one_of(st.none(), st.sampled_from(WORDS)),  # first heading
)
name_strategy = st.one_of(
    st.sampled_from(WORDS),
    st.builds(
        lambda f, w: f"{f}/{w}" if f else w, st.sampled_from(FOLDERS), st.sampled_from(WORDS)
    ),
    st.builds(lambda w: f"{w}.md", st.sampled_from(WORDS)),
    st.sampled_from(["a/", "/a/deep/x", "docs/", "deep/x", "ADR/lint", "My Note", "index"]),
)


def page_text(title: str | None, aliases: list[str], heading: str | None) -> str:
    front = []
    if title is not None:
        front.append(f"title: '{title}'")
    if aliases:
        front.append("aliases: [" + ", ".join(f"'{a}'" for a in aliases) + "]")
    head = "---\n" + "\n".join(front) + "\n---\n" if front else ""
    return head + (f"# {heading}\n" if heading else "") + "text\n"


def write_corpus(root: Path, pages: list[tuple], name: str) -> None:
    files = {
        (Path(folder) / f"{stem}.md").as_posix(): page_text(title, aliases, heading)
        for folder, stem, title, aliases, heading in pages
    }
    write_bundle(root, files | {"index.md": f"Root page: [[{name}]]\n"})


def tui_target(name: str) -> tuple[str, str]:
    hrefs = re.findall(r"\]\(<([^>]*)>\)", linkify_body(f"Root page: [[{name}]]\n"))
    assert len(hrefs) == 1
    target = target_of_href(hrefs[0])
    assert target is not None
    return target, kind_of_href(hrefs[0])


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(page_strategy, min_size=1, max_size=8), name_strategy)
def test_every_entry_point_resolves_a_name_the_same(pages: list[tuple], name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write_corpus(root, pages, name)
        brain = Brain(BundleSource(root), cache_dir=False)
        try:
            typed = brain.resolve_name(name)
            expected = typed.slug if typed is not None else None

            (edge,) = brain.forward_links("index")
            assert (edge.to if edge.exists else None) == expected
            if typed is not None:
                assert (edge.rule, edge.candidates) == (typed.rule, typed.candidates)

            target, kind = tui_target(name)
            clicked = brain.resolve_link("index", target, kind)  # type: ignore[arg-type]
            assert clicked.slug == expected

            reply = call_tool(brain, "get_page", {"slug": name, "fuzzy": True}).value
            if expected is not None and not name.startswith("/"):
                served = reply.get("resolved_slug") or reply.get("candidates", [None])[0]
                assert served == expected
        finally:
            brain.close()
