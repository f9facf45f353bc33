"""A page of documentation sites' blocks costs its length, not its square. MDX components
(found by a review of the first cut of `tui/markdown/components.py`): each opening tag
looked down the page for its closing one, so a page of thousands of tags never closed (or
closed once, at the end) made every tag read every line after it; the tags are matched
once a page now. Sphinx directives (`tui/markdown/rest_directives.py`): a directive reads
its body once, and one nested in another's body is read within it. Hugo's block shortcodes
(`tui/markdown/hugo.py`): their closings are found once a page.

Growth is timed as in `test_link_scans_linear`: the same work at two sizes in one run."""

from __future__ import annotations

import pytest

from okf_explorer.tui.markdown.parser import parse
from tests.hostile.test_link_scans_linear import BOUND, growth


@pytest.mark.parametrize(
    "page",
    [
        lambda n: "<Note>\n" * n,  # never closed
        lambda n: "<Note>\n" * n + "</Note>\n",  # closed once, at the end
        lambda n: "<Steps>\n" + "  <Step title='a'>\n  x\n  </Step>\n" * n + "</Steps>\n",
        lambda n: ".. note::\n   x\n" * n,
        lambda n: "".join(" " * (i % 200) + ".. note::\n" for i in range(n)),  # each inside
        lambda n: '{{< multitabs tab1="a" >}}\n' * n + "{{< /multitabs >}}\n",
    ],
    ids=[
        *("never-closed", "closed-once", "many-steps", "directives", "nested-directives"),
        "hugo-tabs",
    ],
)
def test_a_page_of_docs_blocks_is_read_in_its_length(page) -> None:  # type: ignore[no-untyped-def]
    assert growth(lambda n: parse(page(n), breaks=True), 300) < BOUND
