"""The pure parts of the TUI: body links, history, slice facts, help rows."""

from __future__ import annotations

from textual.binding import Binding

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.links import parse_links
from okf_explorer.tui.dialogs.help import key_rows
from okf_explorer.tui.markdown.links import (
    heading_in_path,
    linkify_body,
    section_of,
    target_of_href,
)
from okf_explorer.tui.state.navigator import History, View
from okf_explorer.tui.state.slice import format_path, path_to, summarise


def test_wiki_links_become_okf_links_outside_code() -> None:
    body = (
        "see [[project_x|the X project]] and [[ref_y#section]] and ![[embed_z]]\n"
        "`[[in_span]]` and \\[[escaped]] and [[pic.png]] and [[#local]]\n"
        "```\n[[in_fence]]\n```\n"
        "| a | [[tables/customers\\|customers]] |\n"
    )
    out = linkify_body(body)
    assert "[the X project](<okf:project_x>)" in out
    assert "[ref\\_y \\> section](<okf:ref_y#section>)" in out  # the heading rides along
    assert "![embed\\_z](<okf:embed_z>)" in out  # an embed: an image of the page
    assert "`[[in_span]]`" in out and "\n[[in_fence]]\n" in out
    assert "okf:escaped" not in out and "okf:pic.png" not in out
    assert "[local](<okf:#local>)" in out  # a heading of this page
    # a sub-heading of this page reads as one of another page does (the Tasks plugin's
    # sample vault: `[[#heading#sub-heading]]` read `heading#sub-heading`)
    nested = linkify_body("[[#heading#sub-heading]] and [[page#heading#sub-heading]]")
    assert nested.startswith("[heading \\> sub-heading](<okf:#")
    assert "[page \\> heading \\> sub-heading](<okf:page#" in nested
    assert "[customers](<okf:tables/customers>)" in out


def test_every_rewritten_target_is_one_the_core_parser_reports() -> None:
    body = "a [[Tomas Okafor]] b [[x/y#h|alias]] c ![[e]] d [m](m.md) `[[no]]`"
    targets = [href for href in _hrefs(linkify_body(body))]
    assert [target_of_href(href) for href in targets] == ["Tomas Okafor", "x/y", "e"]
    assert set(parse_links(body)) == {"Tomas Okafor", "x/y", "e", "m.md"}
    assert target_of_href("m.md#anchor") == "m.md"
    assert target_of_href("https://example.com") is None


def test_a_target_holding_angle_brackets_stays_a_link() -> None:
    """An Italian calculus vault names a note `Limiti notevoli di Successioni-->0`; its
    wiki-link drew as raw `[…](<okf:…-->0>)`, since `>` ends an address in `<…>`."""
    from markdown_it import MarkdownIt

    body = "- [[Limiti notevoli di Successioni-->0]] and [[a <b> c#x > y|alias]]\n"
    tokens = MarkdownIt("commonmark").parseInline(linkify_body(body))[0].children or []
    hrefs = [str(token.attrs["href"]) for token in tokens if token.type == "link_open"]
    assert [target_of_href(href) for href in hrefs] == [
        "Limiti notevoli di Successioni-->0",
        "a <b> c",
    ]
    assert "".join(token.content for token in tokens if token.type == "text").startswith(
        "- Limiti notevoli di Successioni-->0 and alias"
    )


def test_a_target_holding_a_dollar_or_our_marks_stays_a_link() -> None:
    """A security vault's tables link `[[LAPSUS$]]`: the `$` in the label and the one in
    the address opened and closed inline math, and the cell showed `[LAPSUS](<okf:…`."""
    from okf_explorer.tui.markdown.parser import parse

    body = "[[LAPSUS$]] and [[a==b]] and [[x~~y~~]] cost $5 and $6\n"
    tokens = next(token for token in parse(linkify_body(body)) if token.type == "inline")
    tokens = tokens.children or []
    hrefs = [str(token.attrs["href"]) for token in tokens if token.type == "link_open"]
    assert [target_of_href(href) for href in hrefs] == ["LAPSUS$", "a==b", "x~~y~~"]
    assert not any(token.type == "math_inline" for token in tokens)


def _hrefs(text: str) -> list[str]:
    import re

    return re.findall(r"\]\(<(okf:[^>]*)>\)", text)


def test_history_carries_settings_and_drops_forward_on_a_new_visit() -> None:
    history = History()
    history.visit(View("a", 2, "in"))
    history.visit(View("b"))
    history.update(View("b", 3, "both"))
    history.visit(View("c"))
    assert history.back() == View("b", 3, "both")
    assert history.back() == View("a", 2, "in")
    assert history.back() is None
    assert history.forward() == View("b", 3, "both")
    history.visit(View("d"))
    assert not history.can_go_forward
    assert View("a").with_depth(42).depth == 10 and View("a").with_depth(0).depth == 1


def test_slice_summary_and_paths_follow_the_walk() -> None:
    edges = [
        Edge("index", "tables", 1, "out"),
        Edge("index", "x", 1, "out"),
        Edge("tables", "tables/orders", 2, "out"),
        Edge("tables/orders", "index", 3, "out"),
        Edge("index", "y", 1, "in"),
    ]
    assert str(summarise("index", edges)) == "5 pages · 5 edges"
    assert str(summarise("solo", [])) == "1 page · 0 edges"
    assert path_to("index", edges, 2) == ["index", "tables", "tables/orders"]
    assert format_path(path_to("index", edges, 2), "out") == "index → tables → tables/orders"
    assert format_path(path_to("index", edges, 4), "in") == "index ← y"


def test_help_rows_join_keys_of_one_action() -> None:
    rows = key_rows(
        [
            Binding("backspace", "back", "Back"),
            Binding("alt+left", "back", "Back", show=False),
            Binding("plus", "deeper", "Depth+"),
        ]
    )
    assert rows == [("backspace, alt+←", "Back"), ("+", "Depth+")]


def test_traversal_columns_fit_the_table_and_keep_to_readable() -> None:
    from okf_explorer.tui.widgets.graph.traversal_panel import FIXED_COLUMNS, column_widths

    assert column_widths(10, 10, 70) == (10, 10)  # room for both: untouched
    assert column_widths(30, 30, 0) == (30, 30)  # not laid out yet: untouched
    for frm, to, width in [(40, 14, 70), (27, 27, 66), (40, 40, 40), (5, 60, 50), (60, 5, 50)]:
        from_width, to_width = column_widths(frm, to, width)
        assert from_width + to_width <= width - FIXED_COLUMNS
        assert to_width >= min(to, (width - FIXED_COLUMNS) // 2)  # `to` keeps half or more
    assert column_widths(41, 14, 68) == (40, 14)  # the whole `to` slug, `from` gives way


def test_a_heading_path_names_the_heading_under_a_heading() -> None:
    """`Mac#Setup` (`[[page#Mac#Setup]]`) is the `Setup` after `Mac`, as Obsidian reads a
    link to a heading under a heading; one heading's text still names the first."""
    headings = ["Linux", "Setup", "Mac", "Setup", "Usage & limits"]
    assert heading_in_path("Mac#Setup", headings) == 3
    assert heading_in_path("Setup", headings) == 1
    assert heading_in_path("usage-limits", headings) == 4
    assert heading_in_path("Windows#Setup", headings) is None
    assert heading_in_path("Mac#Linux", headings) is None  # not after it
    page = "# Linux\n## Setup\nApt.\n# Mac\n## Setup\nBrew.\n"
    assert section_of(page, "Mac#Setup") == "## Setup\nBrew."
    assert section_of(page, "Setup") == "## Setup\nApt."


def test_an_embedded_section_is_found_by_its_heading_s_text_without_attributes() -> None:
    """`![[Guide#First steps]]` of a page headed `## First steps { #first-steps }` (docs
    copied from an MkDocs site) found no section: the braces were read as the text."""
    page = "# Guide\n## First steps { #first-steps }\nRun it.\n## Next {#next}\nMore.\n"
    assert section_of(page, "First steps") == "## First steps { #first-steps }\nRun it."
