"""The vault parser (`parser`) on any text: it never fails, and it only ever hands the
engine and Textual's `Markdown` block tokens they know (Textual's `Markdown` pops its
block stack on every `*_close` token, so an unknown pair would unbalance it); the
engine draws whatever it hands it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from okf_explorer.core.math_text import math_text
from okf_explorer.core.search.plain_text import index_text
from okf_explorer.tui.markdown.draw import Fence, blocks_of, draw
from okf_explorer.tui.markdown.inline import inline_content
from okf_explorer.tui.markdown.links import linkify_body
from okf_explorer.tui.markdown.parser import parse
from okf_explorer.tui.markdown.prepare import body_pieces, prepare_body

KNOWN_PAIRS = {
    "heading", "paragraph", "blockquote", "bullet_list", "ordered_list", "list_item",
    "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
KNOWN_LEAVES = {"inline", "fence", "code_block", "hr", "html_block", "vault_embed"}

PIECES = st.sampled_from(
    [
        "> ", "> [!tip]- ", "> [!note]", "[!x]", "==", "=", "#", "#tag", " ^id", "^b-1",
        "[^1]", "[^1]: note", "[^src]", "![[p]]", "![[a.png|100]]", "[[p#h]]", "[[#h]]",
        "- [ ] ", "- [x] ", "1. ", "| a | b |", "|---|---|", "```", "~~~", "`", "*", "_",
        "\n", "\n\n", "  ", "text", "# ", "## H", "---", "\\", "<b>", "[", "]", "(", ")",
        "</b>", "<i>", "</i>", "<a href='x.md'>", "</a>", "<img src=a.png alt=A>", "<br>",
        "<!-- c -->", "<div>", "</div>", "<h2>", "</h2>", "<table><tr><td>", "</td><td>",
        "<code>", "</code>", "<script>", "<li>", "<hr>", "<p align=center>", "%%", "%% c %%",
        "$", "$$", "$x_1$", "$a*b$", "\\frac{a}{b}", "$5",
        # documentation sites' blocks, Hugo's shortcodes, matrices and proofs
        "!!! note", '!!! tip "T"', "??? x", "???+ y", "    ", ":::tip", ":::", ":::note[T]",
        '=== "A"', "{{< note >}}", "{{< /note >}}", "{{<warning>}}", "{{</warning>}}",
        '{{< image filename="a.png" alt="A" >}}', '[t]({{< relref "/a" >}})', "<nobr>",
        "\\begin{bmatrix}", "\\end{bmatrix}", "\\\\", "&", "\\begin{aligned}",
        "\\end{aligned}", "\\begin{prooftree}", "\\AXC{a}", "\\BIC{b}", "\\end{prooftree}",
        ":method:`x`", ":ref:`t <a>`", ":py:func:`~a.b`", ":",
        # MDX components, language blocks and Mermaid diagrams
        "<Note>", "</Note>", "<Steps>", "</Steps>", '<Step title="S">', "</Step>",
        "<Tip>x</Tip>", '<Accordion title="A">', "</Accordion>", "<Frame />", ":::python",
        'import { A } from "b";', "{/* c */}", "{/*", "*/}",
        ".. note:: N", ".. code-block:: py", ".. versionadded:: 1", "   :caption: c",
        '{{< multitabs tab1="A" >}}', "-tab-sep-", "{{< /multitabs >}}",
        '{{< clients-example set="a" >}}', "{{< /clients-example >}}",
        "```mermaid\ngraph TD\nA-->|t|B\n", "```mermaid\nsequenceDiagram\nA->>B: x\n",
    ]
)  # fmt: skip
TEXT = st.lists(PIECES, max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_parses_to_tokens_the_renderers_know(text: str) -> None:
    tokens = parse(linkify_body(text))
    depth = 0
    for token in tokens:
        if token.nesting == 1:
            assert token.type.removesuffix("_open") in KNOWN_PAIRS, token.type
            depth += 1
        elif token.nesting == -1:
            assert token.type.removesuffix("_close") in KNOWN_PAIRS, token.type
            depth -= 1
        else:
            assert token.type in KNOWN_LEAVES, token.type
        assert depth >= 0
        if token.type == "inline":
            inline_content(token)
    assert depth == 0
    draw(blocks_of(tokens), 40)


def test_block_ids_callouts_and_footnotes_by_example() -> None:
    text = "Para one ^first\n\n- item ^second\n\n> [!faq]+ Why?\n> Because.[^1]\n\n[^1]: So."
    tokens = parse(text)
    ids = [token.meta.get("block_id") for token in tokens if token.meta.get("block_id")]
    assert ids == ["first", "second"]
    quote = next(token for token in tokens if token.type == "blockquote_open")
    assert quote.meta == {"callout": "faq", "fold": "+"}
    assert [t.type for t in tokens[-8:-6]] == ["hr", "ordered_list_open"]  # the notes
    assert not any("^first" in t.content or "^second" in t.content for t in tokens)


def test_a_callout_over_an_empty_item_is_a_callout_not_a_heading() -> None:
    """An Italian university vault's template opens notes with `>[!abstract] Related`
    over `>- ` (an item to fill in): CommonMark reads a lone `-` under a line as a
    heading's underline, and the callout showed as a heading `[!abstract] Related`."""
    tokens = parse(">[!abstract] Related\n>- \n\nAfter.\n")
    quote = next(token for token in tokens if token.type == "blockquote_open")
    assert quote.meta == {"callout": "abstract", "fold": ""}
    assert not any(token.type == "heading_open" for token in tokens)
    rows = draw(blocks_of(tokens), 40).rows
    assert [row.content.plain.strip() for row in rows if row.content.plain.strip()] == [
        "▌ ≡ Related",
        "After.",
    ]
    heading = parse("Title\n-\n")  # outside a callout: a heading, as CommonMark says
    assert heading[0].type == "heading_open"


def test_an_indented_code_block_shows_its_wiki_links_as_written() -> None:
    """A Korean ML vault lists under a heading with tabs, which CommonMark (and Obsidian)
    read as an indented code block; the index still counts its links (indentation in a
    vault is mostly a nested list), so they were rewritten, and the block showed our
    own syntax: `- Cursor ([Apply MCP](<okf:Apply MCP>))`."""
    text = (
        "### IDE\n\t- works in\n\t\t- Cursor ([[Apply MCP]]) and ![[shot.png|300]]\n\n"
        "> quoted\n>\n>     [[x|y]] code\n\nA [[link]] here.\n"
    )
    prepared = prepare_body(text, width=60)
    assert prepared.pieces is not None
    shown = [row.content.plain.strip() for piece in prepared.pieces for row in piece.drawing.rows]
    assert "- Cursor ([[Apply MCP]]) and ![[shot.png|300]]" in shown
    assert "▌   [[x|y]] code" in shown
    assert "A link here." in shown
    assert prepared.links == (("link", "okf:link"),)
    assert "okf:Apply" not in prepared.markdown  # the library path reads the same text
    # an attachment alone in such a block (an Italian vault's screenshot under a list item)
    alone = prepare_body("1. a\n2. Simplify:\n\n\t\t![[shot.png|300]]\n", width=60)
    assert alone.pieces is not None
    rows = [row.content.plain.strip() for piece in alone.pieces for row in piece.drawing.rows]
    assert "![[shot.png|300]]" in rows


def test_a_bare_url_ends_where_a_wiki_link_starts() -> None:
    """An LLM-filled security vault writes `https://github.com/…/CVE-1/[[README]].md`:
    the URL ran on over the rewritten link, and the page showed `[README](<okf:…`."""
    tokens = parse(linkify_body("See https://github.com/o/r/CVE-1/[[README]].md now.\n"))
    inline = next(token for token in tokens if token.type == "inline")
    links = [
        (child.attrs["href"], inline.children[at + 1].content)
        for at, child in enumerate(inline.children or [])
        if child.type == "link_open"
    ]
    assert links == [
        ("https://github.com/o/r/CVE-1/", "https://github.com/o/r/CVE-1/"),
        ("okf:README", "README"),
    ]
    assert inline_content(inline).plain == "See https://github.com/o/r/CVE-1/README.md now."


def test_a_callout_with_metadata_is_a_callout_of_its_type() -> None:
    """`[!type|metadata]` is a callout of that type whose metadata themes read: an
    Italian university vault lays tables side by side in `[!column|flex]` holding
    `[!warning|clean no-icon]` callouts, shown as quotes of `[!info|wide] Title` text."""
    tokens = parse(">>[!column|flex]\n>>\n>>>[!warning| clean no-icon] R\n>>>\n>>> body\n")
    kinds = [token.meta.get("callout") for token in tokens if token.type == "blockquote_open"]
    assert kinds == [None, "column", "warning"]
    titles = [token.content for token in tokens if token.type == "inline"]
    assert titles == ["Column", "R", "body"]


def test_a_callout_type_is_anything_up_to_the_bracket() -> None:
    """A research vault writes `>[!take away]`, `>[!std lib convention]` and `>[!note ]
    Names & Values:`: Obsidian reads each as a callout of that type (its title, when none
    is written, the type with `-` read as a space); they showed as quotes of the mark."""
    text = ">[!take away]\n> a\n\n>[!note ] Names\n> b\n\n> [!see-also]-\n> c\n\n> [! ] d\n"
    tokens = parse(text)
    kinds = [token.meta.get("callout") for token in tokens if token.type == "blockquote_open"]
    assert kinds == ["take away", "note", "see-also", None]
    titles = [token.content for token in tokens if token.type == "inline"]
    assert titles[:5] == ["Take away", "a", "Names", "b", "See also"]
    assert titles[-1] == "[! ] d"
    assert index_text("x\n>[!take away]\n> a\n> [!see-also]-\n").split("\n")[1:3] == [
        "> Take away",
        "> a",
    ]
    assert "See also" in index_text("x\n> [!see-also]-\n")


ADMONITIONS = """Intro.

!!! note "Embedding Requirement"
    Needs **embeddings**, see [[alpha]].

    ```python
    x = 1
    ```

??? example
    Hidden until opened.

!!! IMPORTANT !!!

!!! tip
no body under it

:::caution[Be quick]
Do it **now**.
:::

::: details Click me
Folded.
:::

:::python
print(1)
:::

:::ruby
puts 1
:::

=== "OpenAI"
    Install it:

        pip install x

    Then go.

    === "Inner"
        Nested.
"""


def test_documentation_admonitions_are_callouts() -> None:
    """Seen on an LLM-kept wiki of framework docs (68 pages from MkDocs, 25 from
    Docusaurus): MkDocs' `!!! note "Title"` ran on into its body as one paragraph, a code
    block in it showed its backticks, and Docusaurus' `:::caution` showed its colons. Both
    are callouts of their type (`???` folded, `details` too), and so is each of MkDocs'
    content tabs (`=== "OpenAI"`, 16 pages, whose bodies were code blocks), and each of
    LangChain's language blocks (`:::python`, `:::js`: 1,842 in the same wiki, whose
    markers showed as text); prose that only looks like one (`!!! IMPORTANT !!!`, a head
    with no indented body) and another word after the colons (`:::ruby`) stay as
    written."""
    tokens = parse(ADMONITIONS, breaks=True)
    callouts = [
        (token.meta["callout"], token.meta["fold"])
        for token in tokens
        if token.type == "blockquote_open"
    ]
    assert callouts == [
        ("note", ""),
        ("example", "-"),
        ("caution", ""),
        ("details", "-"),
        ("tab", ""),
        ("tab", ""),
        ("tab", ""),
    ]
    titles = [
        tokens[index + 1].content
        for index, token in enumerate(tokens)
        if token.type == "paragraph_open" and "callout_title" in token.meta
    ]
    assert titles == [
        *("Embedding Requirement", "Example", "Be quick", "Click me", "Python", "OpenAI", "Inner")
    ]
    codes = [(t.type, t.content, t.level) for t in tokens if t.type in ("fence", "code_block")]
    assert codes[1] == ("code_block", "pip install x\n", 1)  # indented under the tab's body
    fence = next(token for token in tokens if token.type == "fence")
    assert (fence.info, fence.content, fence.level) == ("python", "x = 1\n", 1)
    paragraphs = [t.content for t in tokens if t.type == "inline" and t.level == 1]
    assert paragraphs == [
        "Intro.",
        "!!! IMPORTANT !!!",
        "!!! tip\nno body under it",
        ":::ruby\nputs 1\n:::",
    ]
    shown = shown_rows(tokens)
    assert "Needs embeddings, see [[alpha]]." in shown and "x = 1" in shown


def shown_rows(tokens: list[Token]) -> list[str]:
    """The rows the engine draws for `tokens`, 60 cells wide, without a callout's bar."""
    return [row.content.plain.strip("▌ ") for row in draw(blocks_of(tokens), 60).rows]


def callouts_of(tokens: list[Token]) -> list[tuple[str, str, str]]:
    """Each callout's kind, fold and title, in reading order."""
    return [
        (token.meta["callout"], token.meta["fold"], tokens[index + 2].content)
        for index, token in enumerate(tokens)
        if token.type == "blockquote_open" and "callout" in token.meta
    ]


MDX_PAGE = """\
import { Callout } from "nextra/components";
import {
  Tabs,
  Tab,
} from "@/components/tabs";

{/* Live Production Branch */}

<Note>
Keep it **short**.
</Note>

<Tip>One line.</Tip>

<Callout type="warn">Mind the quota.</Callout>

<AccordionGroup>
    <Accordion title="Send reply">
        - Retry: yes
    </Accordion>
</AccordionGroup>

<Tabs>
    <Tab title="Python">
        ```python
        x = 1
        ```
    </Tab>
</Tabs>

<Steps>
    <Step title="Install">
        Run it.
    </Step>
    <Step title="Use">
        Call it.
    </Step>
</Steps>

<Card title="Data steps" icon="database" href="#data-steps">
    Fetch what you need.
</Card>

<ParamField path="text" type="string" required>
    The text.
</ParamField>

<Frame>
    Framed words.
</Frame>

<Solution>
    Use a key.
</Solution>

<ComponentPreview name="button-demo" />

<Unclosed>
stays as written
"""


def test_mdx_components_are_drawn_as_their_documentation_sites_draw_them() -> None:
    """Seen on an LLM-kept wiki of framework docs (LangChain, LangGraph, MCP, Langfuse,
    written for Mintlify): `<Note>`, `<Accordion title="…">`, `<Tab>`, `<Step>` showed as
    their tags run into one paragraph, and a body indented under a tag as a code block
    (61 code blocks of the LangGraph docs' 47 pages, 2 now). Each is a callout of its
    kind (an accordion folded, steps numbered), a group or a frame its body alone; a
    self-closing tag, or one never closed, stays as written. The ESM statements and the
    comments the site never shows (`import … from "…";`, `{/* … */}`) are left out."""
    tokens = parse(MDX_PAGE, breaks=True)
    assert callouts_of(tokens) == [
        ("note", "", "Note"),
        ("tip", "", "Tip"),
        ("warning", "", "Warning"),
        ("details", "-", "Send reply"),
        ("tab", "", "Python"),
        ("step", "", "1. Install"),
        ("step", "", "2. Use"),
        ("note", "", "Data steps"),
        ("info", "", "text · string · required"),
        ("details", "-", "Solution"),
    ]
    inline = [t.content for t in tokens if t.type == "inline"]
    assert "Keep it **short**." in inline and "One line." in inline and "Framed words." in inline
    assert "Retry: yes" in inline and "Run it." in inline  # bodies read as Markdown
    codes = [(t.type, t.info, t.content) for t in tokens if t.type in ("fence", "code_block")]
    assert codes == [("fence", "python", "x = 1\n")]
    shown = "\n".join(row.content.plain for row in draw(blocks_of(tokens), 60).rows)
    assert "<Note>" not in shown and "</Steps>" not in shown and "<Frame>" not in shown
    assert '<ComponentPreview name="button-demo" />' in shown
    assert "<Unclosed> stays as written" in shown
    # what an MDX site never shows: its ESM statements and its comments
    assert "import" not in shown and "nextra" not in shown and "Live Production" not in shown


REST_PAGE = """\
Intro.

.. versionadded:: 9.0

Pytest contains options.

.. versionchanged:: 5.4
   The matching is now case-insensitive.

.. code-block:: python
    :caption: example.py

    class NotATest:
        pass

.. note:: Keep it **short**.

   More of the note.

.. seealso:: :ref:`fixtures <fixture>`

.. figure:: /images/sharding-migrating.svg
   :alt: Chunks [moving]
   :figwidth: 80%

   A chunk moves between shards.

.. image:: https://img.shields.io/badge.svg
    :target: https://pydantic.dev

.. include:: /includes/important-hostnames.rst
"""


def test_restructuredtext_directives_read_as_sphinx_draws_them() -> None:
    """Seen on an LLM-kept wiki of framework docs (pytest's, MongoDB's and SQLAlchemy's
    Sphinx pages, converted): 466 version directives, 199 code blocks and the
    admonitions showed as their directive lines run into the text, a code block's code
    as a paragraph. Each is what Sphinx draws; an include, whose file the wiki does not
    hold, stays as written."""
    tokens = parse(REST_PAGE, breaks=True)
    assert callouts_of(tokens) == [
        ("info", "", "New in version 9.0"),
        ("info", "", "Changed in version 5.4"),
        ("note", "", "Note"),
        ("info", "", "See also"),
    ]
    (fence,) = [token for token in tokens if token.type == "fence"]
    assert (fence.info, fence.content) == ("python", "class NotATest:\n    pass\n")
    shown = shown_rows(tokens)
    assert "The matching is now case-insensitive." in shown
    assert "Keep it short." in shown and "More of the note." in shown and "fixtures" in shown
    assert ".. include:: /includes/important-hostnames.rst" in shown
    assert not any(line.startswith((".. version", ".. code", ".. note")) for line in shown)
    # a figure (96 in the wiki) and an image (40): the picture's placeholder, and a caption
    assert "▭ Chunks [moving]" in shown and "A chunk moves between shards." in shown
    assert "▭ https://img.shields.io/badge.svg" in shown  # as `![](url)` reads
    assert not any(":alt:" in line or ":target:" in line for line in shown)


def test_a_frontmatter_block_the_body_keeps_shows_as_yaml() -> None:
    """Seen on an LLM-kept wiki of framework docs: thousands of pages keep their
    source's frontmatter under the wiki's own, and it showed as a rule, then a heading
    of every key run together (`id: ecmascript-modules title: ECMAScript Modules`). A
    YAML block opening the body is a `yaml` box; a rule and a line of prose, or such a
    block further down, stay a rule and a heading, as Obsidian shows them."""

    def kinds(text: str) -> list[tuple[str, str]]:
        shown = ("fence", "hr", "heading_open", "inline")
        return [(t.type, t.content) for t in parse(text, breaks=True) if t.type in shown]

    kept = "\n---\nid: x\ntitle: ECMAScript Modules\ntags:\n  - a\n# a comment\n---\n\nText.\n"
    assert kinds(kept) == [
        ("fence", "id: x\ntitle: ECMAScript Modules\ntags:\n  - a\n# a comment\n"),
        ("inline", "Text."),
    ]
    prose = [("hr", ""), ("heading_open", ""), ("inline", "Some prose")]
    assert kinds("---\nSome prose\n---\n") == prose
    assert kinds("Para\n\n---\nid: x\n---\n") == [
        ("inline", "Para"),
        *prose[:2],
        ("inline", "id: x"),
    ]
    assert kinds("---\nid: x\nno key here\n---\n")[0] == ("hr", "")


HUGO = """{{< note >}}
Opening is **only** for [Essentials](#ri-app).
{{< /note >}}

{{<note>}} The [eviction policy]({{<relref "/operate/rc/x">}}#policy) defaults to `no`.{{</note>}}

{{< warning title="Data Loss" >}}
First.

- item one
{{< /warning >}}

Picture: {{<image
filename="images/rc/button.png" width="140px" alt="Select the button" >}} done.

{{< note >}}
never closed

{{< multitabs id="x" >}}
"""


HUGO_BLOCKS = """\
{{< multitabs id="rdi"
      tab1="EC2 instance"
      tab2="AWS RDS" >}}

Set up **EC2**.

-tab-sep-

Set up RDS.

{{< /multitabs >}}

{{< clients-example set="query_agg" step="agg1" description="Apply" >}}
FT.AGGREGATE idx:bicycle "*" LOAD 2
{{< /clients-example >}}

{{< clients-example set="x" step="y" >}}
{{< /clients-example >}}

{{< highlight bash  >}}
redis-cli PING
{{< / highlight >}}

{{< multitabs tab1="Never closed" >}}
"""


def test_a_hugo_sites_tabs_and_client_examples_read_as_the_site_shows_them() -> None:
    """Seen on the framework-docs wiki: Redis's docs held 623 `{{< multitabs >}}`, their
    tabs parted by `-tab-sep-` lines, 553 `{{< clients-example >}}` around a command and
    447 `{{< highlight bash >}}` around code; all showed as their shortcodes around the
    text. Each tab is a callout titled by its name, a client example's command a code
    block, a highlight's code a code block of its language; an example with no command,
    or tabs never closed, stay as written."""
    tokens = parse(HUGO_BLOCKS, breaks=True)
    assert callouts_of(tokens) == [("tab", "", "EC2 instance"), ("tab", "", "AWS RDS")]
    assert [t.content for t in tokens if t.type == "inline" and t.level == 2] == [
        "EC2 instance",
        "Set up **EC2**.",
        "AWS RDS",
        "Set up RDS.",
    ]
    example, highlighted = [token for token in tokens if token.type == "fence"]
    assert (example.info, example.content) == ("", 'FT.AGGREGATE idx:bicycle "*" LOAD 2\n')
    assert (highlighted.info, highlighted.content) == ("bash", "redis-cli PING\n")
    shown = shown_rows(tokens)
    assert "-tab-sep-" not in shown and not any("multitabs id" in line for line in shown)
    assert '{{< clients-example set="x" step="y" >}}' in shown
    assert '{{< multitabs tab1="Never closed" >}}' in shown


def test_a_hugo_sites_notes_images_and_relref_links_read_as_the_site_shows_them() -> None:
    """Seen on the framework-docs wiki: Redis's docs (3,634 of its pages) showed
    `{{< note >}}` around their notes, five lines of `{{<image filename=… >}}` where a
    picture stands, and `[text]({{< relref "/path" >}})` for each link. A note is a
    callout (its title or its type), an image its placeholder, a relref link its text;
    a note never closed and any other shortcode stay as written."""
    tokens = parse(HUGO, breaks=True)
    callouts = [t.meta["callout"] for t in tokens if t.type == "blockquote_open"]
    assert callouts == ["note", "note", "warning"]
    texts = [inline_content(t).plain for t in tokens if t.type == "inline"]
    assert texts == [
        "Note",
        "Opening is only for Essentials.",
        "Note",
        "The eviction policy defaults to no.",
        "Data Loss",
        "First.",
        "item one",
        "Picture: ▭ Select the button done.",
        "{{< note >}}\nnever closed",
        '{{< multitabs id="x" >}}',
    ]
    quoted = [t.type for t in tokens if t.level == 1 and t.type.endswith("_open")]
    assert quoted.count("bullet_list_open") == 1  # the list is inside the warning
    image = next(c for t in tokens for c in t.children or () if c.type == "image")
    assert image.attrs["src"].endswith("images/rc/button.png")


HUGO_WRAPPED = """\
{{<banner-article>}}
RedisGraph reaches its end of life.
{{</banner-article>}}

{{<table-scrollable>}}
| Field | Shape |
|---|---|
| ops | {{<code>}}"ops": {<br />  "3": 1<br />}{{</code>}} |
{{</table-scrollable>}}
After.
"""


def test_a_hugo_sites_banners_wrappers_and_inline_code_read_as_the_site_shows_them() -> None:
    """Redis's REST API pages: 55 `{{<banner-article>}}` notices, 62 tables wrapped in
    `{{<table-scrollable>}}` (its closing line read as a last row of the table) and 124
    `{{<code>}}` JSON shapes in cells, each shown as its shortcodes around the text."""
    tokens = parse(HUGO_WRAPPED, breaks=True)
    assert callouts_of(tokens) == [("important", "", "Important")]
    shown = shown_rows(tokens)
    assert not any("{{" in line for line in shown)
    assert shown.count("After.") == 1 and not any("After." in line for line in shown if "│" in line)
    assert any('│ "ops": {' in line for line in shown)  # the cell's code, on its lines
    code = [c for t in tokens for c in t.children or () if c.type == "code_inline"]
    assert [c.content for c in code][:1] == ['"ops": {']


def test_restructuredtext_roles_read_as_sphinx_shows_them() -> None:
    """Seen on the framework-docs wiki: its MongoDB, pytest and SQLAlchemy pages keep
    35,000 Sphinx roles, each shown as `:method:` before a code span. A role naming code
    is code, any other its text; a titled role its title, `~a.b` its last name. Not a
    role: one glued to the word before it, a time."""
    text = (
        "Use :method:`db.collection.find()`, :py:func:`~pytest.raises`, "
        ":ref:`Indexes <index-types>`, :issue:`SERVER-1` and :red:`test`; "
        "a:b:`c` at 10:30:`x`.\n"
    )
    (inline,) = [token for token in parse(text, breaks=True) if token.type == "inline"]
    assert inline_content(inline).plain == (
        "Use db.collection.find(), raises, Indexes, SERVER-1 and test; a:b:c at 10:30:x."
    )
    code = [child.content for child in inline.children if child.type == "code_inline"]
    assert code == ["db.collection.find()", "raises", "c", "x"]


def test_obsidian_comments_are_hidden() -> None:
    """Seen on the Obsidian help vault: `%% These headings use HTML … %%` showed as text."""
    text = (
        "Shown %%not this%% too.\n\n%% a note to self %%\n\n%%\nblock\n\nstill hidden\n%%\n\n"
        "After.\n\n%% unclosed is text\n"
    )
    rows = draw(blocks_of(parse(text)), 80).rows
    shown = "\n".join(row.content.plain.rstrip() for row in rows)
    assert shown.strip().split("\n\n") == ["Shown too.", "After.", "%% unclosed is text"]


def test_link_and_embed_labels_read_as_written_not_as_source() -> None:
    """`[[t#h]]` reads `t > h` (Obsidian); an embed's name keeps its `_` (no `\\_`)."""
    tokens = parse(linkify_body("See [[templates#Metadata]], ![[my_notes#Part_1]].\n\n![[a_b]]\n"))
    inline = next(token for token in tokens if token.type == "inline")
    assert inline_content(inline).plain == "See templates > Metadata, ↳ my_notes > Part_1."
    embed = next(token for token in tokens if token.type == "vault_embed")
    assert embed.meta["label"] == "a_b"


def test_a_block_id_line_right_under_a_callout_is_hidden_and_names_it() -> None:
    """Seen on the Obsidian help vault: `^callout-…` on the line under a callout (no blank
    line: it continues the callout's paragraph) was shown as text."""
    tokens = parse("> [!tip] Tip\n> Use aliases in your vault.\n^callout-aliases\n\nNext.\n")
    texts = [token.content for token in tokens if token.type == "inline"]
    assert texts == ["Tip", "Use aliases in your vault.", "Next."]
    named = [token for token in tokens if token.meta.get("block_id") == "callout-aliases"]
    assert len(named) == 1
    assert [t.content for t in parse("Cost is 2\n^ 3 apples\n") if t.type == "inline"] == [
        "Cost is 2\n^ 3 apples"
    ]  # a caret that starts no id stays text


def test_math_shows_as_code_never_as_prose() -> None:
    """Seen on an LLM-written quant-finance vault: `$$` blocks ran on as wrapped prose
    and a `*` in a formula could start emphasis. A block reads as a `latex` fence (its
    long lines wrapped in the box, never cut or scrolled sideways), inline math as code,
    both as text (`math_text`); dollars around money stay text, as in Obsidian."""
    formula = "\\Delta = \\frac{\\partial C}{\\partial S} = N(d_1), \\qquad " * 3
    formula = formula.strip()
    text = f"Costs $5 and $10. Here $a*b$ and $c*d$ and $$x^2$$.\n\n$$\n{formula}\n$$\n"
    tokens = parse(text, breaks=True)
    inline = next(token for token in tokens if token.type == "inline")
    assert [(c.type, c.content) for c in inline.children if c.type != "text"] == [
        ("code_inline", "a*b"), ("code_inline", "c*d"), ("code_inline", "x²"),
    ]  # fmt: skip
    assert inline_content(inline).plain == "Costs $5 and $10. Here a*b and c*d and x²."
    fence = next(token for token in tokens if token.type == "fence")
    assert (fence.info, fence.content) == ("latex", math_text(formula, display=True) + "\n")
    formula = math_text(formula, display=True)
    assert formula.startswith("Δ = ∂C/∂S = N(d₁),")
    rows = draw(blocks_of(tokens), 40).rows
    assert all(row.content.cell_length <= 40 for row in rows)
    drawn = " ".join(row.content.plain.strip() for row in rows)
    assert " ".join(formula.split()) in " ".join(drawn.split())


def test_a_matrix_wider_than_the_pane_keeps_its_rows_whole_and_scrolls_sideways() -> None:
    """Seen on a math digital garden (an Obsidian vault published with Quartz): a product
    of three matrices, wider than the page pane, was wrapped line by line, so the end of
    its top row showed on a line of its own between its two rows. A formula drawn as a
    grid keeps its rows whole: wider than the body, it scrolls sideways as a wide code
    block does; narrower, it is drawn in the rows as before. A formula of rows still wraps
    (the test above)."""
    matrix = "\\left[\\begin{array}{cc}\\cos\\theta & -\\sin\\theta \\\\ "
    matrix += "\\sin\\theta & \\cos\\theta\\end{array}\\right]"
    text = f"Check:\n\n$$\n{matrix * 3} = I\n$$\n"
    blocks = blocks_of(parse(text, breaks=True))
    fence = blocks[-1]
    assert isinstance(fence, Fence) and not fence.wrap
    top, bottom = fence.code.split("\n")
    assert top.startswith("⎡ cos θ  -sin θ ⎤  ⎡") and top.endswith("⎤ = I")
    assert bottom.startswith("⎣ sin θ   cos θ ⎦  ⎣") and bottom.endswith("⎦")
    narrow = body_pieces(blocks, 40)
    assert [piece.wide for piece in narrow] == [False, True]
    assert narrow[1].blocks == [fence]
    (wide,) = body_pieces(blocks, 80)
    drawn = [row.content.plain.strip() for row in wide.drawing.rows]
    assert top in drawn and bottom in drawn
    # In a callout it cannot scroll: its lines are cut together, after a matrix.
    callout = f"> [!note] Check\n> $$\n> {matrix * 3} = I\n> $$\n"
    rows = draw(blocks_of(parse(callout, breaks=True)), 40).rows
    drawn = [row.content.plain.strip("▌ ") for row in rows if row.content.plain.strip("▌ ")]
    assert all(row.content.cell_length <= 40 for row in rows)
    one = ["⎡ cos θ  -sin θ ⎤", "⎣ sin θ   cos θ ⎦"]
    assert drawn == ["✎ Check", *one, *one, f"{one[0]} = I", one[1]]


def test_mermaid_flowcharts_and_sequence_diagrams_are_drawn_and_others_stay_as_written() -> None:
    """Seen on LLM-kept wikis (149 pages of a framework-docs wiki, 13 of an LLM wiki) and
    in Obsidian's help vault: a ```` ```mermaid ```` flowchart showed as its source, a
    list of `A --> B` lines, where Obsidian draws boxes and arrows; so did the sequence
    diagrams of the protocol pages they take in. They are drawn now, their lines kept
    whole side by side: wider than the body, a drawing scrolls sideways as a wide code
    block does. A class diagram (not drawn) stays as written."""
    flowchart = "graph LR\n  A[Raw notes] --> B[Wiki page]\n  B --> C[Index]\n"
    sequence = "sequenceDiagram\n  A->>B: hi\n"
    classes = "classDiagram\n  Page <|-- Concept\n"
    text = f"Pipeline:\n\n```mermaid\n{flowchart}```\n\n```mermaid\n{sequence}```\n"
    blocks = blocks_of(parse(f"{text}\n```mermaid\n{classes}```\n", breaks=True))
    drawing, exchange, sequence = blocks[-3], blocks[-2], blocks[-1]
    assert isinstance(exchange, Fence) and exchange.grid
    assert exchange.code.split("\n")[3:5] == ["  │  hi  │", "  ├─────►│"]
    assert isinstance(drawing, Fence) and drawing.grid and not drawing.wrap
    assert drawing.code.split("\n") == [
        "┌───────────┐  ┌───────────┐  ┌───────┐",
        "│ Raw notes ├─►│ Wiki page ├─►│ Index │",
        "└───────────┘  └───────────┘  └───────┘",
    ]
    assert isinstance(sequence, Fence) and sequence.language == "mermaid"
    assert sequence.code == classes.rstrip()
    narrow = body_pieces(blocks, 30)
    assert [piece.wide for piece in narrow] == [False, True, False]
    assert narrow[1].blocks == [drawing]
    # In a callout it cannot scroll: its lines are cut together, between its boxes.
    callout = (
        "> [!info] Pipeline\n> ```mermaid\n"
        + "".join(f"> {line}\n" for line in flowchart.splitlines())
        + "> ```\n"
    )
    rows = draw(blocks_of(parse(callout, breaks=True)), 30).rows
    shown = [row.content.plain.strip("▌ ") for row in rows if row.content.plain.strip("▌ ")]
    assert all(row.content.cell_length <= 30 for row in rows)
    assert shown[1:] == [  # cut between its boxes, where only links cross
        *("┌───────────┐", "│ Raw notes ├─", "└───────────┘"),
        *("┌───────────┐", "►│ Wiki page ├─", "└───────────┘"),
        *("┌───────┐", "►│ Index │", "└───────┘"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "> Run it:\n>\n> ```sh\n> {line}\n> ```\n",  # in a quote
        "> [!tip]+ Run it\n> ```sh\n> {line}\n> ```\n",  # in an open callout
        "- Run it:\n\n  ```sh\n  {line}\n  ```\n",  # in a list item
    ],
)
def test_a_fence_that_cannot_scroll_sideways_wraps_its_long_lines(text: str) -> None:
    """Seen on an agent-kept vault's index: a fence of commands in a quote was cut at the
    box's edge, its comments lost (`# buscar` → `# busc`). A fence at the top of a body
    scrolls sideways in a box of its own; one in a quote, a callout or a list cannot, so
    its long lines wrap inside its box, every character still there."""
    line = 'vault-find "guard que no discrimina"    # buscar en todos los learnings'
    rows = draw(blocks_of(parse(text.format(line=line), breaks=True)), 40).rows
    assert all(row.content.cell_length <= 40 for row in rows)
    drawn = "".join(row.content.plain.replace("▌", "").replace("•", "").strip() for row in rows)
    assert line.replace(" ", "") in drawn.replace(" ", "")


@pytest.mark.parametrize(
    "text",
    [
        "Delta is\n$$\n\\Delta = N(d_1)\n$$\nfor a call.\n",  # no blank line before it
        "> [!note] Delta\n> $$\n> \\Delta = N(d_1)\n> $$\n> for a call.\n",  # a callout's
        "Delta is\n$$\\Delta = N(d_1)$$\nfor a call.\n",  # on one line of its own
    ],
)
def test_math_on_lines_of_its_own_inside_a_paragraph_is_a_block(text: str) -> None:
    """Seen on the same vault (2 of its 2,143 pages, in callouts): `$$` lines right after
    a sentence or a callout's title read as inline code in the middle of a paragraph;
    Obsidian shows them as a block. Math inside a sentence stays inline."""
    tokens = parse(text, breaks=True)
    kinds = [(t.type, t.info) for t in tokens if t.type in ("fence", "inline")]
    assert kinds == [("inline", ""), ("fence", "latex"), ("inline", "")]
    fence = next(token for token in tokens if token.type == "fence")
    assert fence.content == "Δ = N(d₁)\n"
    words = [inline_content(t).plain for t in tokens if t.type == "inline"]
    assert words == ["Delta" if text.startswith(">") else "Delta is", "for a call."]
    inline = parse("So $$x^2$$ here\nand $$y$$\n")[1]
    assert [c.type for c in inline.children if c.type != "text"].count("code_inline") == 2


def test_an_image_written_into_the_page_shows_as_an_image() -> None:
    """A vault pastes screenshots as `![](data:image/png;base64,…)`: 200 KB of base64 on
    one line, longer than a part (`RENDER_CHARS`), so the part was cut inside it and the
    page showed screens of base64. It is one image, named by its type and size."""
    from okf_explorer.tui.markdown.prepare import RENDER_CHARS

    src = "data:image/png;base64,iVBORw0KGgo" + "A" * (RENDER_CHARS + 5_000)
    text = f"Tags: x\n\n![]({src})\n\nAfter ![shot](data:image/gif;base64,R0lGODlh)\n"

    def shown(start: int) -> tuple[int, list[str]]:
        body = prepare_body(text, start, width=60)
        rows = [row.content.plain.strip() for p in body.pieces or () for row in p.drawing.rows]
        assert not any("AAAA" in row for row in rows)
        return body.end, rows

    end, rows = shown(0)
    assert end == text.index("![](")  # at the blank line before the image: a part of its own
    end, rows = shown(end)
    assert end == text.index(")") + 1  # the part ends after the image, not inside it
    assert f"▭ image/png, {len(src) * 3 // 4 / 1024:.0f} KB" in rows
    assert shown(end)[1][-1] == "After ▭ shot"
    # a hostile page's unclosed URI does not make a part of the whole page
    from okf_explorer.tui.markdown.prepare import DATA_URI_CHARS, cut_point

    unclosed = "![](data:image/png;base64," + "A" * (RENDER_CHARS + DATA_URI_CHARS + 10)
    assert cut_point(unclosed, 0, RENDER_CHARS) == RENDER_CHARS


CELLS = "".join(f'    <tr><td align="center">Person {n}</td><td>📖</td></tr>\n' for n in range(400))
BLOCKS_ACROSS_THE_CUT = {  # (the page, what opens the block)
    "html": (
        f"Intro.\n\n## Thanks\n\n<table>\n  <tbody>\n{CELLS}  </tbody>\n</table>\n",
        "<table>",
    ),
    "fence": ("Intro.\n\n```python\n" + "x = 1\n\n" * 3000 + "```\n", "```"),
    "comment": ("Intro.\n\n%%\n" + "hidden note\n\n" * 2000 + "%%\n", "%%"),
}


@pytest.mark.parametrize("name", list(BLOCKS_ACROSS_THE_CUT))
def test_a_part_is_never_cut_inside_a_block(name: str) -> None:
    """A long page is prepared in parts, each parsed on its own (its first screen's 24 KB,
    then the rest). Foam's index holds a 48 KB HTML table with no blank line in it: the
    first part was cut at a line inside it, and the rest of the table was drawn as
    indented code, raw `<td>`s; a fence or a `%%` comment cut so lost its marks. A part now
    ends at a blank line no block goes on across: here, before the block."""
    page, opening = BLOCKS_ACROSS_THE_CUT[name]
    text = page + "\nAfter.\n"
    first = prepare_body(text, 0, limit=20_000, width=100)
    assert first.end == text.index(opening)
    rest = prepare_body(text, first.end, width=100)
    rows = [
        row.content.plain
        for part in (first, rest)
        for p in part.pieces or ()
        for row in p.drawing.rows
    ]
    shown = "\n".join(rows)
    assert "<td" not in shown and "<tr" not in shown and "%%" not in shown and "```" not in shown
    assert "After." in shown


def test_an_attachment_is_named_without_its_display_sizes() -> None:
    """`![[dns.png|center|500]]` (an Italian vault): `500` is a width, `center` the
    caption a CSS snippet reads; the placeholder read `dns.png center|500`."""
    shown = linkify_body("![[dns.png|center|500]] ![[a.png|300]] ![[b.png|a cap]] ![[c.png|9x9]]")
    labels = [row.content.plain.strip() for row in draw(blocks_of(parse(shown)), 80).rows]
    labels = [label for label in labels if label]
    assert labels == ["▭ dns.png center ▭ a.png ▭ b.png a cap ▭ c.png"]
