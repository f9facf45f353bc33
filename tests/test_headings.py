"""`core.pages.headings`: the one reading of a page's headings (the scan's title, validate's
log dates) skips fenced code and tells the levels apart."""

from __future__ import annotations

from okf_explorer.core.pages import heading_with_id, headings, split_attributes
from okf_explorer.core.search.plain_text import heading_text, plain_text
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
    assert first_heading("#\n# ##\n#  The heading  #\n~~~\n# not this\n~~~\n") == "The heading"
    assert first_heading("~~~\n# not this\n~~~\n") is None
    assert first_heading("```\n# open fence to the end\n") is None


# --- a title read as the heading shows (issue 24, item 4) ---------------------------

SHOWN_TITLES = {
    "# [[Obsidian Publish|Publish]] sites": "Publish sites",
    "# Intro to [[dataview]] and [[Dataview#Queries]]": "Intro to dataview and Dataview > Queries",
    "# **Bold**, *italic*, ==marked==, ~~struck~~": "Bold, italic, marked, struck",
    "# A [Markdown link](other.md) and ![an image](x.png)": "A Markdown link and an image",
    "# `hub.yaml` proposal": "hub.yaml proposal",
    "# `[[not a link]]` in code": "[[not a link]] in code",
    "# <b>HTML</b> <span class='x'>heading</span><br>": "HTML heading",
    "# Ivaylo D <ivaylo@example.com>": "Ivaylo D ivaylo@example.com",
    "# Docs at <https://example.com/docs>": "Docs at https://example.com/docs",
    "# quels <@k-quels> and <project-id>": "quels <@k-quels> and <project-id>",
    "# death_au and _ph and snake_case_name": "death_au and _ph and snake_case_name",
    "# Escaped \\*stars\\* and \\[\\[brackets\\]\\]": "Escaped *stars* and [[brackets]]",
    "# Tabs\tand   spaces": "Tabs and spaces",
    "# Limits: $\\lim_{x \\to \\infty} x^k = \\infty$": "Limits: lim_{x → ∞} xᵏ = ∞",
    "# Over $\\mathbb{R}$, $$x^2$$": "Over ℝ, x²",
    "# Costs $5 and $10": "Costs $5 and $10",
    "# `$x$` and $[[not a link]]$": "$x$ and [[not a link]]",
    # Microsoft's docs converted to Markdown (in a 35k-page wiki): as the page draws them
    "# What&#39;s new in version 1610": "What's new in version 1610",
    "# Tutorial&#58; Enable co-management": "Tutorial: Enable co-management",
    "# Domain Controller &amp; SBS 2011": "Domain Controller & SBS 2011",
    "# R&D, AT&T and `&amp;` in code": "R&D, AT&T and &amp; in code",
}


def test_a_title_from_a_heading_reads_as_the_heading_shows() -> None:
    shown = {line: first_heading(line + "\n") for line in SHOWN_TITLES}
    assert shown == SHOWN_TITLES


def test_a_template_placeholder_is_no_title() -> None:
    assert first_heading("# {{title}}\n") is None
    assert first_heading("# {{ date:YYYY-MM-DD }}\n# Second\n") is None
    assert first_heading("# <% tp.file.title %>\n") is None
    assert first_heading("# A {{title}} inside words\n") == "A {{title}} inside words"


def test_a_first_heading_below_another_heading_is_a_section_not_the_title() -> None:
    """A vault's `Kevin Kelly.md` opens with `## Books` and ends with `# Clippings`: the
    page is not called "Clippings" (nor three obsidian-hub guides "This note in GitHub")."""
    assert first_heading("## Books\n\nText.\n\n# Clippings\n") is None
    assert first_heading("# Title\n\n## Part\n\n# Later\n") == "Title"
    assert first_heading("# \n## Part\n# Later\n") is None  # an empty `#` names nothing


def test_a_first_heading_after_text_or_code_is_a_section_not_the_title() -> None:
    """A 13k-page Zettelkasten opens most notes with a sentence, then heads its parts
    `# List`, `# Definition`: its `Classical Cipher` is not the page called "List"."""
    assert first_heading("A cipher computed by hand.\n# List\n- Caesar\n") is None
    assert first_heading("```c\nsignal(SIGINT, f);\n```\n# Vulnerabilities\n") is None
    assert first_heading("> [!note] Moved\n\n# Old title\n") is None


def test_the_first_of_many_level_one_headings_is_a_section_not_the_title() -> None:
    """The 13k Zettelkasten heads its parts at the first level from the first line:
    `Re-entrancy Attack.md` opens `# Attack`, then `# Prevention`, `# Example`, and 343 of
    its notes were called "Info", "Attack", "Setup Passwords" so; a TTRPG vault's rules
    reference was "Turns" (the first of 26). Two `# ` headings leave the first the title
    (obsidian-hub's `# Alex Davies` … `# This note in GitHub`); three make them sections."""
    assert first_heading("# Attack\nText.\n# Prevention\nMore.\n# Example\n") is None
    assert first_heading("# Alex Davies\nBio.\n# This note in GitHub\n") == "Alex Davies"
    assert first_heading("# Title\n## A\n## B\n## C\n") == "Title"  # deeper parts
    shell = "```sh\n# update\n# install\n```\n"  # comments in code are no headings
    assert first_heading("# Title\n" + shell + "# Usage\n") == "Title"


def test_what_shows_no_text_above_a_title_leaves_it_the_title() -> None:
    """A README's badges, a banner, comments, HTML and rules above `# Title`."""
    quiet = (
        "[![build](https://x/b.svg)](https://x) [![pypi](p.svg)](https://p)\n",
        "![[banner.webp]]\n![cover](cover.png)\n",
        "<!-- a comment\nover lines -->\n%% an Obsidian comment %%\n",
        '<div align="center">\n<img src="logo.png">\n</div>\n',
        "***\n\n#\n[ref]: https://example.com\n",
    )
    for above in quiet:
        assert first_heading(above + "\n# Title\n\nText.\n") == "Title", above
    assert first_heading("<!-- unclosed\n# Title\n") is None  # the rest is the comment


def test_a_heading_s_attribute_block_is_no_part_of_its_text() -> None:
    """Docs written for MkDocs, Pandoc, kramdown or Hugo give a heading its id after it
    (`# Dependencies { #dependencies }`, `### Open it {#open-it .tab}`): 737 pages of an
    LLM wiki copied from such sites were called `Dependencies { #dependencies }`. Text in
    braces that is no attribute list stays (`Sets {a, b}`, `{{title}}`)."""
    assert first_heading("# Dependencies { #dependencies }\n\nText.\n") == "Dependencies"
    assert first_heading('# Open it {#open-it .tab data-x="1 2"}\n') == "Open it"
    assert first_heading("# Sets {a, b}\n") == "Sets {a, b}"
    assert first_heading("# Kept {#}\n") == "Kept {#}"


def test_a_heading_s_mdx_id_comment_is_no_part_of_its_text() -> None:
    """React's docs give a heading its id in an MDX comment (`## Usage {/*usage*/}`): an
    LLM wiki that took them in (EladAriel/fullstack-llm-wiki 9000a11) drew 2,663 headings
    as `Usage {/usage/}` (the stars read as emphasis), and titled a page with its comment.
    A comment that names no id stays."""
    assert first_heading("# useState {/*usestate*/}\n\nText.\n") == "useState"
    assert split_attributes("Usage {/* usage */}") == ("Usage", "usage")
    assert split_attributes("Note {/* not an id */}") == ("Note {/* not an id */}", None)
    assert heading_with_id("# A\n\n## Usage {/*usage*/}\n", "usage") == "Usage"


def test_the_text_index_reads_headings_without_their_attribute_block() -> None:
    assert heading_text("# Guide {#guide}\n\n## First steps { #first-steps .tab }\n") == (
        "Guide\nFirst steps"
    )


def test_a_page_s_text_reads_its_headings_without_their_attribute_block() -> None:
    """What a search's snippet shows: `Dependencies { dependencies } FastAPI has…`."""
    page = "## First steps { #first-steps }\n\nRun it.\n\n```\n# kept {#as-written}\n```\n"
    words = ["First", "steps", "Run", "it.", "#", "kept", "{#as-written}"]  # code as written
    assert plain_text(page).split() == words
