"""Task boxes (`- [ ] todo`, `- [x] done`): the vault parser's own rule reads them as
mdit-py-plugins' task-list plugin does, token for token, in one pass. The plugin looks
back from every task for its list, so a page of thousands of tasks cost their square
(12,800 tasks: 16.7 s to parse; `tests/hostile/test_link_scans_linear.py`)."""

from __future__ import annotations

import pytest
from markdown_it.token import Token

from okf_explorer.tui.markdown.parser import vault_parser

pytestmark = pytest.mark.plain

PAGES = [
    "- [ ] open\n- [x] done\n- [X] done too\n- not a task\n",
    "1. [ ] first\n2. [x] second\n",
    "- [ ] outer\n  - [x] inner\n    - [ ] deeper\n  - plain\n- [ ] back out\n",
    "> - [ ] quoted\n> - [x] quoted done\n",
    "- [ ]no space\n- [y] other mark\n- [ ] \n- [x]\n",
    "- [-] dropped\n- [?] maybe\n- [>] later\n- [[a link]] first\n- [a](b) link first\n",
    "- [-]\ttab\n- [] empty\n- []] bracket\n",
    "[ ] not in a list\n\n- text first [ ] then\n",
    "- [ ] loose\n\n- [x] items\n\n  with a second paragraph [ ] here\n",
    "- a\n  - [ ] nested under a plain item\n\n1. [ ] then an ordered list\n",
    "* [ ] star\n+ [x] plus\n",
    "- [ ] **bold** and [[link]] and `code`\n",
]


def shape(tokens: list[Token]) -> list[object]:
    """Every token and child as the renderers read them (`Token` compares by identity)."""
    return [
        (t.type, t.tag, t.level, t.content, t.attrs, t.meta, shape(t.children or []))
        for t in tokens
    ]


@pytest.mark.parametrize("page", PAGES)
def test_our_task_boxes_read_as_the_plugins(page: str) -> None:
    for breaks in (False, True):
        ours = vault_parser(breaks, own_task_boxes=True).parse(page)
        plugin = vault_parser(breaks, own_task_boxes=False).parse(page)
        assert shape(ours) == shape(plugin)


def test_a_box_then_a_tab_is_a_task_as_gfm_says() -> None:
    """The one place we differ: GFM takes any whitespace after the box; the plugin's
    rule does too, but writes a checkbox only for a space, so a tab lost its box."""
    page = "- [ ]\tafter a tab\n- [x]\tdone\n"
    for own, boxes in ((True, ["☐", "☒"]), (False, [])):
        tokens = vault_parser(own_task_boxes=own).parse(page)
        children = [c for t in tokens if t.type == "inline" for c in t.children or []]
        shown = [c.content for c in children if "task-list-item-checkbox" in c.content]
        assert ["☒" if "checked" in html else "☐" for html in shown] == boxes


def test_any_other_character_in_the_box_ticks_it_as_obsidian_does() -> None:
    """Obsidian's help: "You can use any character inside the brackets to mark it as
    complete" (`- [?] Eggs`, `- [-] Eggs`); the task-list plugin reads `[x]` only."""
    page = "- [-] dropped\n- [?] maybe\n- [ ] open\n- [[Eggs]] a link\n"
    for own in (True, False):
        tokens = vault_parser(own_task_boxes=own).parse(page)
        firsts = [t.children[0].content for t in tokens if t.type == "inline"]
        boxes = [("☒" if "checked" in c else "☐") if "checkbox" in c else c for c in firsts]
        assert boxes == ["☒", "☒", "☐", "[[Eggs]] a link"]


def test_the_parser_reads_the_switch() -> None:
    """`parse` takes our rule with fast paths on, the plugin's with them off."""
    from okf_explorer.core import fast_paths
    from okf_explorer.tui.markdown.parser import parse

    page = "- [ ]\ttab\n"
    assert shape(parse(page)) == shape(
        vault_parser(own_task_boxes=fast_paths.enabled()).parse(page)
    )
