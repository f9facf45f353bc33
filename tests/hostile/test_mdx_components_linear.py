"""A page of MDX components costs its length, not its square (found by a review of the
first cut of `tui/markdown/components.py`): each opening tag looked down the page for its
closing one, so a page of thousands of tags never closed (or closed once, at the end)
made every tag read every line after it. The tags are matched once a page now.

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
    ],
    ids=["never-closed", "closed-once", "many-steps"],
)
def test_a_page_of_components_is_read_in_its_length(page) -> None:  # type: ignore[no-untyped-def]
    assert growth(lambda n: parse(page(n), breaks=True), 300) < BOUND
