"""Links inside comments (issue 24, item 5), as Obsidian's link index reads them.

Obsidian's metadata cache (what its graph, backlinks and outgoing links show) keeps the
links inside `%% … %%` comments and drops those inside HTML comments `<!-- … -->`:
obsidian-tasks records the cache Obsidian itself computed for two pages that differ only
in the comment syntax (`tests/Obsidian/__test_data__/comments_markdown_style.json` and
`comments_html_style.json`: the link in `%% [[x]] %%` is in `links`, the one in
`<!-- [[x]] -->` is not). We do the same, with one grammar (`core.links`); a link
counted inside a `%%` comment is marked as such (`WikiSpan.comment`), and its sentence
reads as text, without the comment's marks.
"""

from __future__ import annotations

from pathlib import Path

from okf_explorer.core.links import parse_links
from okf_explorer.core.links.spans import link_contexts, link_spans, wiki_link_spans

PERSON = (
    "# Amy\n\n- GitHub: [amy](https://github.com/amy) ^github\n"
    "<!-- - [[PayPal]]: <https://> ^paypal-->\n"
    "<!-- - [[Patreon]]: <https://> ^patreon-->\n\n"
    "%% Mention [[Plugins]] and any other note here. %%\n\n"
    "<!--\n## Sponsor\n\n- [[Buy me a coffee]]\n-->\n\n"
    "Written with [[Obsidian]].\n"
)


def test_links_inside_html_comments_are_not_links() -> None:
    assert parse_links(PERSON) == ["Plugins", "Obsidian"]
    assert parse_links("a <!-- [[x]] --> b <!--[[y]]--> [[z]]") == ["z"]


def test_an_html_comment_is_what_commonmark_reads_as_one() -> None:
    # a comment opening a line runs to its `-->`, blank lines and all (an HTML block)
    assert parse_links("<!--\n\n[[x]]\n\n-->\n[[y]]\n") == ["y"]
    # unclosed at a line's start: to the end of the page
    assert parse_links("[[a]]\n<!-- [[x]]\n\n[[y]]\n") == ["a"]
    # inside a paragraph it cannot cross a blank line, and unclosed it is text
    assert parse_links("text <!-- [[x]]\n\n[[y]] -->\n") == ["x", "y"]
    assert parse_links("text <!-- [[x]]\n") == ["x"]
    # in code, `<!--` opens nothing
    assert parse_links("`<!--` [[x]] `-->`\n```\n<!--\n```\n[[y]]\n-->\n") == ["x", "y"]


def test_links_inside_obsidian_comments_count_and_are_marked() -> None:
    text = "See [[a]] %% and [[b]] %% then\n%%\nblock [[c]]\n\nstill [[d]]\n%%\n[[e]]\n"
    assert parse_links(text) == ["a", "b", "c", "d", "e"]
    marked = {span.target: span.comment for span in link_spans(text)}
    assert marked == {"a": False, "b": True, "c": True, "d": True, "e": False}
    assert [span.comment for span in wiki_link_spans("%%[[x]]%% [[y]] %% [[z]]")] == [
        True,
        False,
        False,  # an unclosed `%%` is text, as the page shows it
    ]


def test_a_sentence_in_a_comment_reads_as_text() -> None:
    text = (
        "%% Uncomment this and remove what does not apply: [[Windows Tools|Windows]], "
        "[[Linux Tools|Linux]] %%\n"
        "Made for [[Linux Tools|Linux]] <!-- and [[Windows Tools]] --> %% later %% only.\n"
    )
    found = link_contexts(text, lambda target, kind: target == "Linux Tools")
    assert [(c.text, c.link, c.comment) for c in found] == [
        ("Uncomment this and remove what does not apply: Windows, Linux", "Linux", True),
        ("Made for Linux only.", "Linux", False),
    ]


def test_hubs_made_of_commented_out_placeholders_are_no_hubs(run, tmp_path: Path) -> None:
    """The community vault's biggest hubs were placeholders commented out in a template
    copied onto every person page; counted as Obsidian counts them they link nothing."""
    vault = tmp_path / "vault"
    (vault / "People").mkdir(parents=True)
    for name in ("amy", "bob", "cy"):
        (vault / "People" / f"{name}.md").write_text(PERSON)
    for name in ("PayPal", "Patreon", "Plugins", "Obsidian", "Buy me a coffee"):
        (vault / f"{name}.md").write_text(f"# {name}\n")
    status, out, _ = run("links", "PayPal", "--backlinks", "--source", str(vault))
    assert (status, out) == (0, "")
    status, out, _ = run("links", "Plugins", "--backlinks", "--source", str(vault))
    assert (status, out.split()) == (0, ["People/amy", "People/bob", "People/cy"])
