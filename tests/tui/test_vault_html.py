"""Raw HTML in a body reads as what it shows (the vault parser's raw-HTML rule), drawn
as any text is: an `<img>` is an image placeholder named by its alt (else its file),
`<a href>` a live link, other tags are dropped for their text, comments hidden. The
page is our own, shaped like a project README (a centred logo, badges, a contributors
table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.content import Content

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import FILE_SCHEME, VaultBody, linkify_body
from okf_explorer.tui.markdown.draw import blocks_of, draw
from okf_explorer.tui.markdown.inline import inline_content
from okf_explorer.tui.markdown.links import REWRITTEN_LINK, label_text
from okf_explorer.tui.markdown.parser import parse
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, settle
from .test_line_breaks import body_text

README = """<p align="center">
  <img src="assets/logo.png" width="100"/>
  <img src="https://example.org/badge.svg" alt="Build passing">
</p>

<!-- generated: do not edit -->

# Widget

<h2 align="center">A <b>tiny</b> tool &amp; more</h2>

Made by <a href="people/ada.md">Ada</a>, see <a href="https://example.org">the site</a>.<br>
Press <kbd>Ctrl</kbd>+<kbd>K</kbd>. <span style="color:red">Careful</span> <!-- hidden -->

<table>
  <tr>
    <td><a href="https://example.org/ann"><img src="ann.png" alt="Ann"/><br/><sub>Ann</sub></a></td>
    <td><img src="bob.png" alt="Bob"/><br /><sub>Bob</sub></td>
  </tr>
</table>
<script>alert("no")</script>
"""


def lines_of(markdown: str) -> list[str]:
    """The rows the engine draws for `markdown`, 100 cells wide, without their edges."""
    return [row.content.plain.strip() for row in draw(blocks_of(parse(markdown)), 100).rows]


def links_of(content: Content) -> list[str]:
    return [
        str(span.style.meta["@click"])
        for span in content.spans
        if not isinstance(span.style, str) and "@click" in span.style.meta
    ]


def test_html_reads_as_what_it_shows() -> None:
    lines = [line for line in lines_of(README) if line.strip()]
    assert lines[:3] == ["▭ logo.png ▭ Build passing", "Widget", "A tiny tool & more"]
    assert lines[3:5] == ["Made by Ada, see the site.", "Press Ctrl+K. Careful"]
    table = [" ".join(line.split()) for line in lines[5:]]
    assert table[1:3] == ["│ ▭ Ann │ ▭ Bob │", "│ Ann │ Bob │"]  # a table, `<br>` a new line
    assert table[0].startswith("┌") and table[-1].startswith("└") and len(table) == 4
    text = "\n".join(lines)
    assert "<" not in text and "generated" not in text and "hidden" not in text
    assert "alert" not in text


def test_html_images_links_and_emphasis_are_tokens_the_renderers_know() -> None:
    tokens = parse(README)
    inlines = [token for token in tokens if token.type == "inline"]
    images = [c for t in inlines for c in t.children or () if c.type == "image"]
    assert [(i.content, i.attrs["src"]) for i in images] == [
        ("logo.png", f"{FILE_SCHEME}assets/logo.png"),
        ("Build passing", "https://example.org/badge.svg"),
        ("Ann", f"{FILE_SCHEME}ann.png"),
        ("Bob", f"{FILE_SCHEME}bob.png"),
    ]
    headings = [t for t in tokens if t.type == "heading_open"]
    assert [t.tag for t in headings] == ["h1"]  # `# Widget`; `<h2>` is bold text, not outline
    made_by = inline_content(next(t for t in inlines if "Ada" in inline_content(t).plain))
    assert links_of(made_by) == ["link('people/ada.md')", "link('https://example.org')"]
    code = [made_by.plain[s.start : s.end] for s in made_by.spans if s.style == ".code_inline"]
    assert code == ["Ctrl", "K"]  # `<kbd>` reads as code
    (title,) = [t for t in inlines if "tiny" in inline_content(t).plain]
    bold = inline_content(title)
    assert [bold.plain[s.start : s.end] for s in bold.spans] == ["tiny", "A tiny tool & more"]
    assert not any(t.type in ("html_block", "html_inline") for t in tokens)
    assert not any(c.type == "html_inline" for t in inlines for c in t.children or ())


def test_unbalanced_inline_tags_stay_balanced() -> None:
    (inline,) = [t for t in parse("a <b>bold <i>both</b> tail</i> </a> end") if t.type == "inline"]
    kinds = [c.type for c in inline.children or ()]
    assert kinds.count("strong_open") == kinds.count("strong_close") == 1
    assert kinds.count("em_open") == kinds.count("em_close") == 1
    assert inline_content(inline).plain == "a bold both tail  end"


async def test_the_page_pane_shows_html_as_text_with_live_links(tmp_path: Path) -> None:
    root = write_pages(tmp_path / "b", {"readme": README, "people/ada": "# Ada\n"})
    app = make_app(brain_for(BundleSource(root)), start="readme")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        rows = [row for _, drawing in pane.query_one(VaultBody).drawings() for row in drawing.rows]
        text = "\n".join(row.content.plain for row in rows)
        assert "▭ logo.png ▭ Build passing" in text and "Made by Ada, see the site." in text
        assert "<" not in text and "generated" not in text
        links = [link for row in rows for link in links_of(row.content)]
        assert "link('people/ada.md')" in links
        assert "link('https://example.org/ann')" in links  # in a cell of the table


def test_a_block_tag_inside_a_line_breaks_it_as_a_browser_does() -> None:
    """A generated API reference (Obsidian's developer docs) writes a table cell as
    `<p>What it does.</p><p>0.9.7</p>`: it read ` What it does.  0.9.7`, a space
    first and the version run on; a browser shows each paragraph on its own line."""
    text = "| a | b |\n|---|---|\n| `file:` | Find it.<p/>Example: `x`. |\n"
    rows = lines_of(text)
    at = next(n for n, line in enumerate(rows) if "Find" in line)
    assert "│ Find it. " in rows[at] and "│ Example: x. " in rows[at + 1]
    cell = "| a | b |\n|---|---|\n| x | <p>What it does.</p> <p> 0.9.7</p> |\n"
    rows = lines_of(cell)
    at = next(n for n, line in enumerate(rows) if "What" in line)
    assert "│ What it does. " in rows[at] and "│ 0.9.7 " in rows[at + 1]
    assert [line for line in lines_of("Text <div>in a div</div> after.\n") if line] == [
        "Text",
        "in a div",
        "after.",
    ]


def test_a_placeholder_that_is_no_html_element_stays_as_written() -> None:
    text = "Set <project-id> and <name/> here, not <span>this</span> tag.\n\n<dataset>\n"
    assert [line for line in lines_of(text) if line] == [
        "Set <project-id> and <name/> here, not this tag.",
        "<dataset>",
    ]


def test_an_mdx_component_inside_a_line_shows_its_text_alone() -> None:
    """React's docs, in an LLM wiki that took them in: `When <CodeStep step={2}>initialValue
    </CodeStep> is provided` drew both tags, the closing one as `</codestep>` (189 such
    steps). A tag closing itself, one never closed and a placeholder stay as written, the
    placeholder's closing tag in its own case."""
    text = (
        "When <CodeStep step={2}>initialValue</CodeStep> is <b>given</b>, "
        "<Badge>New</Badge> <Pill /> <Open> and <ID> or </Foo>.\n"
    )
    assert [line for line in lines_of(text) if line] == [
        "When initialValue is given, New <Pill /> <Open> and <ID> or </Foo>."
    ]


def test_an_obsolete_element_browsers_still_draw_reads_as_its_text() -> None:
    """Seen on the framework-docs wiki: Redis's docs hold 5,718 `<nobr>`, whose closing
    `</nobr>` was shown as written after the icons it keeps on one line."""
    assert lines_of("Status <nobr>pending <b>now</b></nobr> done.\n")[0] == (
        "Status pending now done."
    )


def test_a_script_link_is_no_link() -> None:
    (inline,) = [
        t
        for t in parse('<a href="javascript:alert(1)">x</a> <a href="a b.md">y</a>')
        if t.type == "inline"
    ]
    assert links_of(inline_content(inline)) == ["link('a%20b.md')"]  # as `[y](<a b.md>)` is


def test_a_comment_holding_tags_is_hidden_and_a_tag_never_ended_reads_as_text() -> None:
    """What the parser reads an HTML block with (the stdlib `html.parser`) looks for the
    end of every opening to the end of the block: a block of thousands of `<!--` or of
    `<a href='` took seconds to draw (`tests/hostile/test_link_scans_linear.py`), so
    comments go and an opening no `>` ends is text, first."""
    text = "<div>\n<!-- <img src='x.png'> -->Kept <b>bold</b>\n<a href='x' left open\n"
    assert [line for line in lines_of(text) if line] == ["Kept bold <a href='x' left open"]
    assert [line for line in lines_of("<div>\nA <!-- never ended\nB\n</div>\n") if line] == ["A"]


def test_a_tag_missing_its_closing_bracket_ends_at_the_next_as_in_a_browser() -> None:
    """An exam page of a study vault opened on `<div class="exam-nav" data-current="5|…"`:
    its `>` left out, the tag ran into `</div>`'s. A browser (and Obsidian) reads it all as
    one tag, showing nothing; so does the page now. A `<` before a word that names no HTML
    element still needs its `>` before the next `<`, else it is text."""
    nav = '<div class="exam-nav"\n     data-current="5|Basic Techniques"\n</div>\n\nText\n'
    assert [line for line in lines_of(nav) if line] == ["Text"]
    prose = "<div>\nIf x<y then <b>print</b> it, or <a href='x' left open\n</div>\n"
    assert [line for line in lines_of(prose) if line] == ["If x<y then print it, or"]


URGENCY = """The scores:

<table>
<thead>
  <tr><th colspan="2">Property</th><th>Score</th></tr>
</thead>
<tbody>
  <tr><td rowspan="3">Due</td><td>overdue</td><td><code>12.0</code></td></tr>
  <tr><td>today</td><td><code>8.8</code></td></tr>
  <tr><td>later</td><td><code>2.4</code></td></tr>
  <tr><th>Priority</th><td>high<br>or highest</td>
    <td><table><tr><td>6</td><td>9</td></tr></table></td></tr>
</tbody>
</table>
"""


def test_an_html_table_is_drawn_as_a_table() -> None:
    """A plugin's documentation (obsidian-tasks' urgency scores) writes its reference
    table in HTML, with a header over two columns and a property over many rows: each row
    read `Due · overdue · 12.0`, then `today · 8.8`, a blank line between, 45 lines of
    them. A table is drawn as one now: its first row the header, a cell a `colspan` or
    `rowspan` covers empty, a `<br>` a line of its cell, a `<th>` further down bold, a
    table in a cell read as its cells `a · b`."""
    rows = [" ".join(line.split()) for line in lines_of(URGENCY) if line.strip()]
    assert rows[0] == "The scores:"
    assert rows[2:9:2] == [
        "│ Property │ │ Score │",
        "│ Due │ overdue │ 12.0 │",
        "│ │ today │ 8.8 │",
        "│ │ later │ 2.4 │",
    ]
    assert rows[10:12] == ["│ Priority │ high │ 6 · 9 │", "│ │ or highest │ │"]
    tokens = parse(URGENCY)
    kinds = [token.type for token in tokens]
    assert kinds.count("th_open") == 3 and kinds.count("tr_open") == 5
    priority = next(t for t in tokens if t.type == "inline" and "Priority" in t.content)
    assert [c.type for c in priority.children or ()] == ["strong_open", "text", "strong_close"]
    cells = [[(c.type, c.content) for c in t.children or ()] for t in tokens if t.type == "inline"]
    assert [("code_inline", "12.0")] in cells  # `<code>` in a cell is code


def test_a_table_too_big_or_too_wide_reads_as_rows_of_cells() -> None:
    """Bounded: past `MAX_TABLE_CELLS` a table reads as its rows, `a · b` (no text lost);
    a `colspan` covers at most 64 columns, whatever it says."""
    rows = "".join(f"<tr><td>r{n}</td><td>x</td><td>y</td></tr>" for n in range(2000))
    lines = [line for line in lines_of(f"<table>{rows}</table>\n") if line.strip()]
    assert len(lines) == 2000 and lines[0] == "r0 · x · y" and lines[-1] == "r1999 · x · y"
    wide = '<table><tr><td colspan="100000">a</td><td>b</td></tr><tr><td>c</td></tr></table>\n'
    tokens = parse(wide)
    assert [t.type for t in tokens].count("th_open") == 64  # `a` and 63 it covers; `b` cut
    assert "b" not in [t.content for t in tokens if t.type == "inline"]


ISSUE = """Thanks, assigning.

<details>

In response to [this](https://example.org/issues/1#comment):

>/assign @ada

Instructions for interacting with me are [here](https://example.org/guide).
</details>

<details open>
<summary>Logs <i>(kept open)</i></summary>

```
step 1 ok
```

</details>

<details><summary>One block</summary>text in it
and more</details>

<details>

Never closed.
"""


def test_html_disclosures_fold_as_a_browser_draws_them() -> None:
    """A GitHub issue copied into an LLM wiki (10,000 of them in one) ends each bot
    comment in `<details>`: GitHub and Obsidian's reading view show a folded `▸ Details`,
    the engine showed its text. A disclosure is a foldable callout titled by its
    summary (else `Details`), open only with `open`; a tag without its pair stays as it
    was."""
    assert lines_of(ISSUE) == [
        "Thanks, assigning.",
        "",
        "▌ ▸ Details",
        "",
        "▌ ▾ Logs (kept open)",
        "▌",
        "▌",
        "▌   step 1 ok",
        "▌",
        "",
        "▌ ▸ One block",
        "",
        "Never closed.",
        "",
    ]


async def test_enter_unfolds_a_disclosure(tmp_path: Path) -> None:
    root = write_pages(tmp_path / "v", {"issue": ISSUE})
    (root / ".obsidian").mkdir()
    app = make_app(brain_for(BundleSource(root)), start="issue")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        first, _, _ = pane.query_one(VaultBody).callouts()
        assert first.folded and "Instructions" not in body_text(pane)
        await pilot.press("n", "enter")
        assert not first.folded and "Instructions for interacting" in body_text(pane)


def test_html_beside_a_disclosure_s_tags_stays_inside_it() -> None:
    """HTML written in the block of `<details>` (after its summary) or of `</details>`
    (before it) is inside the disclosure: hidden while it is folded, shown in it open."""
    folded = (
        "<details>\n<summary>S</summary>\nRight after.\n\nA *para*.\n\n<p>Last</p>\n</details>\n"
    )
    assert lines_of(folded) == ["", "▌ ▸ S", ""]
    opened = folded.replace("<details>", "<details open>")
    assert [line for line in lines_of(opened) if line.strip("▌ ")] == [
        "▌ ▾ S",
        "▌ Right after.",
        "▌ A para.",
        "▌ Last",
    ]


def test_a_wiki_link_in_a_block_of_html_is_a_live_link() -> None:
    """`<div>see [[alpha]]</div>`: the link the index counts was drawn as what the body
    is rewritten to before it is parsed, `see [alpha](<okf:alpha>)` (Markdown inside a
    block of HTML is not read, so the rewritten link stayed text). It is a live link now,
    and an attachment embedded there its placeholder, as in a paragraph."""
    html = "<div>\nsee [[alpha|the *Alpha*]] and ![[shot.png]] of [[beta gamma]] here\n</div>\n"
    tokens = parse(linkify_body(html))
    assert [row.content.plain.strip() for row in draw(blocks_of(tokens), 100).rows] == [
        "see the *Alpha* and ▭ shot.png of beta gamma here",
        "",
    ]
    [inline] = [token for token in tokens if token.type == "inline"]
    links = [child.attrs["href"] for child in inline.children or () if child.type == "link_open"]
    assert links == ["okf:alpha", "okf:beta%20gamma"]


@pytest.mark.parametrize("label", ["plain", "a *b* `d` _e_ $f$ ==g== ~~h~~ %%i%% \\j <k>"])
def test_a_rewritten_link_s_label_reads_back_as_written(label: str) -> None:
    """`label_text` reads the escapes `linkify_body` wrote into a link's label, whatever
    Markdown or our marks it holds."""
    [link] = REWRITTEN_LINK.findall(linkify_body(f"[[target|{label}]]"))
    assert label_text(link[1]) == label
