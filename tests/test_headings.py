"""`core.pages.headings`: the one reading of a page's headings (the scan's title, validate's
log dates) skips fenced code and tells the levels apart."""

from __future__ import annotations

from okf_explorer.core.pages import headings
from okf_explorer.sources.frontmatter import first_heading

BODY = (
    "# Title  \n"
    "## 2026-01-02\n"
    "```\n## in code\n~~~\n## still code: a tilde fence does not close a backtick one\n```\n"
    "##\tafter the fence \n"
    "### deeper\n"
    " ## indented\n"
)


def test_each_level_is_read_on_its_own_outside_fences() -> None:
    assert list(headings(BODY, 1)) == ["Title"]
    assert list(headings(BODY, 2)) == ["2026-01-02", "after the fence"]
    assert list(headings(BODY, 3)) == ["deeper"]


def test_a_title_is_the_first_level_one_heading_with_text() -> None:
    assert first_heading("~~~\n# not this\n~~~\n#\n# ##\n#  The heading  #\n") == "The heading"
    assert first_heading("```\n# open fence to the end\n") is None
