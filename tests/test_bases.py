"""Obsidian bases (`core.bases`): a vault whose category notes are each one embed of a
`.base` file (`![[Books.base]]`, the shape of a widely copied public vault) showed a
placeholder and nothing else. A base's filters and table views are now run over the
pages, and expressions okf-explorer cannot read are refused by name."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from okf_explorer.core.bases import (
    BaseError,
    ExpressionError,
    FileFacts,
    parse_expression,
    read_base,
    run_view,
    table_markdown,
)
from okf_explorer.core.bases.expression import MAX_CHARS, MAX_DEPTH, FileRef, Scope
from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.base_files import MAX_BASE_BYTES
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_pages

BOOKS_BASE = """filters:
  and:
    - categories.contains(link("Books"))
    - '!file.name.contains("Template")'
properties:
  note.author:
    displayName: Author
  file.name:
    displayName: Title
views:
  - type: table
    name: Books
    order:
      - file.name
      - author
      - year
    sort:
      - property: year
        direction: DESC
  - type: table
    name: Author
    filters:
      and:
        - list(author).contains(this)
    order:
      - file.name
      - year
  - type: cards
    name: Recent
    limit: 1
    filters: 'year >= 1990'
    order:
      - file.name
"""

PAGES = {
    "Categories/Books": "---\ntags: [categories]\n---\n![[Books.base]]\n",
    "Books/Out of Reach": (
        '---\ncategories:\n  - "[[Books]]"\nauthor:\n  - "[[Ada Lin]]"\nyear: 1994\n---\nA book.\n'
    ),
    "Books/Tide Tables": (
        '---\ncategories: ["[[Books]]"]\nauthor: "[[Bo Park]]"\nyear: 1971\n---\nAnother.\n'
    ),
    "Books/Slow Light": (
        '---\ncategories: ["[[Books]]"]\nauthor: ["[[Ada Lin]]"]\nyear: 2008\n---\nA third.\n'
    ),
    "Templates/Book Template": (
        '---\ncategories: ["[[Books]]"]\nauthor: []\nyear:\n---\nA template.\n'
    ),
    "Films/Harbour": '---\ncategories: ["[[Films]]"]\nyear: 2001\n---\nA film.\n',
    "People/Ada Lin": "---\ncategories: ['[[People]]']\n---\n## Books\n\n![[Books.base#Author]]\n",
    "People/Bo Park": "# Bo Park\n\nWrote [[Tide Tables]].\n",
    "Books": "# Books\n",
}


def vault(tmp_path: Path, pages: dict[str, str] = PAGES, base: str = BOOKS_BASE) -> Brain:
    root = write_pages(tmp_path / "v", pages)
    (root / ".obsidian").mkdir()
    (root / "Templates" / "Bases").mkdir(parents=True, exist_ok=True)
    (root / "Templates" / "Bases" / "Books.base").write_text(base, encoding="utf-8")
    return Brain(BundleSource(root), cache_dir=False)


def rows(brain: Brain, page: str, name: str = "Books.base", view: str | None = None) -> list:
    table = brain.base_table(page, name, view)
    return [
        (slug, [str(cell) if not isinstance(cell, FileRef) else cell.slug for cell in cells])
        for slug, cells in table.rows
    ]


def test_a_base_keeps_the_pages_its_filters_keep_sorted_as_its_view_says(tmp_path: Path) -> None:
    brain = vault(tmp_path)
    table = brain.base_table("Categories/Books", "Books.base")
    assert table.view == "Books"
    assert table.columns == ["Title", "Author", "year"]
    # the template is left out by the base's own filter, the film by its category link
    assert [slug for slug, _ in table.rows] == [
        "Books/Slow Light",
        "Books/Out of Reach",
        "Books/Tide Tables",
    ]
    first = table.rows[0][1]
    assert first[0] == FileRef("Books/Slow Light")  # the file name is the row's page
    assert first[1] == [FileRef("People/Ada Lin")]  # a link in a property leads to its page
    assert first[2] == 2008


def test_a_view_named_in_the_embed_runs_for_the_page_it_is_shown_on(tmp_path: Path) -> None:
    brain = vault(tmp_path)
    # `this` is the embedding page: Ada Lin's books only
    table = brain.base_table("People/Ada Lin", "Books.base", "author")
    assert [slug for slug, _ in table.rows] == ["Books/Out of Reach", "Books/Slow Light"]
    with pytest.raises(BaseError, match="no view 'Nobody'"):
        brain.base_table("People/Ada Lin", "Books.base", "Nobody")


def test_properties_and_formulas_named_with_spaces_are_columns(tmp_path: Path) -> None:
    base = (
        "formulas:\n  Cost per use: 'year / 2'\nviews:\n  - order: [file.name, note.Due date,"
        " formula.Cost per use]\n    sort: [{property: formula.Cost per use}]\n"
    )
    pages = {
        **PAGES,
        "Books/Tide Tables": PAGES["Books/Tide Tables"].replace("---\nA", "Due date: soon\n---\nA"),
    }
    table = vault(tmp_path, pages, base).base_table("Categories/Books", "Books.base")
    assert table.columns == ["file name", "Due date", "Cost per use"]
    tide = dict(table.rows)["Books/Tide Tables"]
    assert tide[1:] == ["soon", 985.5]


def test_a_grouped_view_is_a_table_a_group_under_its_value(tmp_path: Path) -> None:
    base = (
        "filters: 'file.inFolder(\"Books\")'\nviews:\n  - name: By author\n"
        "    groupBy: {property: author, direction: DESC}\n    order: [file.name, year]\n"
    )
    brain = vault(tmp_path, base=base)
    table = brain.base_table("Categories/Books", "Books.base")
    names = {slug: info.title for slug, info in brain.ensure_index().pages.items()}
    text = table_markdown(table, names)
    assert text.split("\n\n") == [
        "**[[People/Bo Park\\|Bo Park]]** · 1",
        "| file name | year |\n| --- | --- |\n| [[Books/Tide Tables\\|Tide Tables]] | 1971 |",
        "**[[People/Ada Lin\\|Ada Lin]]** · 2",
        "| file name | year |\n| --- | --- |\n| [[Books/Out of Reach\\|Out of Reach]] | 1994 |"
        "\n| [[Books/Slow Light\\|Slow Light]] | 2008 |",
    ]


def test_a_view_s_limit_and_statement_filter(tmp_path: Path) -> None:
    table = vault(tmp_path).base_table("Categories/Books", "Books.base", "Recent")
    assert len(table.rows) == 1 and table.total == 2  # two books from 1990 on, one shown


def test_the_table_as_markdown_links_each_page_by_its_name(tmp_path: Path) -> None:
    brain = vault(tmp_path)
    table = brain.base_table("Categories/Books", "Books.base")
    names = {slug: info.title for slug, info in brain.ensure_index().pages.items()}
    text = table_markdown(table, names).splitlines()
    assert text[0] == "| Title | Author | year |"
    assert text[2] == "| [[Books/Slow Light\\|Slow Light]] | [[People/Ada Lin\\|Ada Lin]] | 2008 |"
    empty = brain.base_table("Categories/Books", "Books.base", "Author")  # no author is this
    assert table_markdown(empty, names) == "*Author: no page matches.*"


def test_a_base_is_found_by_its_file_name_anywhere_or_by_its_path(tmp_path: Path) -> None:
    brain = vault(tmp_path)
    assert brain.base_table("Categories/Books", "Templates/Bases/Books.base").rows
    assert brain.base_table("Categories/Books", "books.BASE").rows  # any case, as Obsidian
    with pytest.raises(BaseError, match=r"no base Missing\.base in the vault"):
        brain.base_table("Categories/Books", "Missing.base")
    with pytest.raises(BaseError, match="no base"):  # never outside the vault
        brain.base_table("Categories/Books", "../outside.base")


@pytest.mark.parametrize(
    ("base", "reason"),
    [
        ("filters: [a\n", "not valid YAML at line"),
        ("- just\n- a list\n", "a base is a mapping"),
        ("filters:\n  and:\n    - 'file.name.matches(\"x\")'\n", r"does not read \.matches\(\)"),
        ("filters: 'secret(1)'\n", r"does not read secret\(\)"),
        ("filters:\n  xor: [a]\n", "and / or / not"),
        ("filters: 'a &&'\n", "ends too soon"),
        ("views: {a: 1}\n", "views is not a list"),
    ],
)
def test_a_base_it_cannot_read_says_why(tmp_path: Path, base: str, reason: str) -> None:
    brain = vault(tmp_path, base=base)
    with pytest.raises(BaseError, match=reason):
        brain.base_table("Categories/Books", "Books.base")


def test_a_view_it_cannot_read_fails_alone_and_says_how_to_mend_it(tmp_path: Path) -> None:
    """An LLM-kept wiki's `wiki.base` (16k pages) wrote each domain's view `filters:` as a
    bare list: the index page's embed of its first, sound view showed only
    `views[1].filters: an expression is text`. The other views now show; the bad one says
    what a list of filters needs."""
    domains = BOOKS_BASE.replace(
        "    filters: 'year >= 1990'\n", "    filters:\n      - 'year >= 1990'\n"
    )
    brain = vault(tmp_path, base=domains)
    assert rows(brain, "Categories/Books")[0][0] == "Books/Slow Light"  # the first view shows
    with pytest.raises(
        BaseError, match=r"views\[2\]\.filters: a list of filters goes under `and:`"
    ):
        brain.base_table("Categories/Books", "Books.base", "Recent")


def test_hostile_bases_are_bounded(tmp_path: Path) -> None:
    big = "filters: '" + "a" * (MAX_BASE_BYTES + 10) + "'\n"
    with pytest.raises(BaseError, match="larger than"):
        vault(tmp_path / "big", base=big).base_table("Categories/Books", "Books.base")
    with pytest.raises(ExpressionError, match="longer than"):
        parse_expression("a" * (MAX_CHARS + 1))
    with pytest.raises(ExpressionError, match="nested more than"):
        parse_expression("(" * (MAX_DEPTH + 5) + "1" + ")" * (MAX_DEPTH + 5))
    with pytest.raises(ExpressionError, match="nested more than"):
        parse_expression("!" * (MAX_DEPTH * 3) + "a")
    pages = {**PAGES, "Lists": "---\nitems: [" + ", ".join(["1"] * 200) + "]\n---\n"}
    work = vault(tmp_path / "work", pages, "filters: 'items.map(items.map(items.map(value)))'\n")
    with pytest.raises(BaseError, match="more than 2,000,000 steps"):  # 200³ steps
        work.base_table("Categories/Books", "Books.base")
    chain = "".join(f"  f{n}: formula.f{n + 1} + 1\n" for n in range(3000))
    deep = vault(tmp_path / "deep", base=f"formulas:\n{chain}views:\n  - order: [formula.f0]\n")
    with pytest.raises(BaseError, match="formulas call each other more than 64 deep"):
        deep.base_table("Categories/Books", "Books.base")
    brain = vault(tmp_path / "bytes")
    (tmp_path / "bytes" / "v" / "Templates" / "Bases" / "Books.base").write_bytes(b"a: '\xff'")
    with pytest.raises(BaseError, match="not valid UTF-8"):
        brain.base_table("Categories/Books", "Books.base")


def evaluate(text: str, row: FileFacts, this: FileFacts | None = None) -> object:
    pages = {row.slug: row, **({this.slug: this} if this else {})}
    resolve = {"b": "b", "B": "b", "this page": "this"}.get
    scope = Scope(
        row, this, pages, lambda target, origin: resolve(target), now=datetime(2026, 12, 4)
    )
    return parse_expression(text).evaluate(scope)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("price / 4", 2.5),
        ("price % 3", 1.0),
        ("-price + 1", -9),
        ("'a' + 1", "a1"),
        ("price > 5 && name != 'x'", True),
        ("!price || false", False),
        ("name.lower().startsWith('note')", True),
        ("name.length", 9),
        ("tags[1]", "y"),
        ("tags.join('+')", "x+y"),
        ("tags.contains('y') && !tags.contains('z')", True),
        ("tags.containsAny('z', 'x')", True),
        ("tags.containsAll('x', 'z')", False),
        ("tags.map(value + '!')", ["x!", "y!"]),
        ("tags.filter(value != 'x')", ["y"]),
        ("list(name)", ["Note name"]),
        ("if(price > 20, 'dear', 'cheap')", "cheap"),
        ("(price / 3).toFixed(2)", "3.33"),
        ("(price / 3).round(1)", 3.3),
        ("missing.contains('a')", None),
        ("missing.isEmpty()", True),
        ("file.name", "n.md"),
        ("file.path", "a/n.md"),
        ("file.basename", "n"),
        ("file.folder", "a"),
        ("file.ext", "md"),
        ("file.hasTag('project')", True),
        ("file.hasTag('proj')", False),
        ("file.inFolder('a')", True),
        ("file.hasLink(link('B'))", True),
        ("file.hasLink(link('nowhere'))", False),
        ("file.hasProperty('price')", True),
        ("date('2026-01-31') + '1d' == date('2026-02-01')", True),
        ("due < today()", True),
        ("due.year", 2026),
        ("now() - '1 week' > date('2026-11-26')", True),
        ("note['odd key']", 3),
        ("max(1, price, 4)", 10),
        ("file.size", 0),  # no file
        ("(date('2026-03-01') - date('2026-01-30')).days", 30),
        ("((date('2026-03-01') - date('2026-01-30')) / 86400000).round()", 30),
        ("(today() - date('2016-12-04')).years.floor()", 10),
        ("(date('2026-01-02') - date('2026-01-01')).toString()", "1 day"),
        ("date('9999-12-31') + '1d'", None),  # past what a date holds
        ("date('2026-01-01') + '999999999999y' == null", True),
        ("date('0001-01-01') < date('2026-01-01')", True),
    ],
)
def test_expressions(text: str, value: object) -> None:
    row = FileFacts(
        "a/n",
        "a/n.md",
        {"price": 10, "name": "Note name", "tags": ["x", "y"], "due": "2026-06-01", "odd key": 3},
        tags=("project/active",),
        links=("b",),
    )
    result = evaluate(text, row)
    if text == "due < today()" or text == "due.year":  # a date written as text is text
        row.properties = {**row.properties, "due": datetime(2026, 6, 1)}
        result = evaluate(text, row)
    assert result == value


def test_links_equal_the_page_they_lead_to() -> None:
    this = FileFacts("this", "this.md", {})
    row = FileFacts("r", "r.md", {"author": ["[[this page]]", "[[Other]]"], "up": "[[B|Bee]]"})
    assert evaluate("author.contains(this)", row, this) is True
    assert evaluate("list(up).contains(link('b'))", row, this) is True
    assert evaluate("up == link('B')", row, this) is True
    assert evaluate("author[1] == link('Other')", row, this) is True  # no page: by its text
    assert evaluate("author[1] == link('other')", row, this) is False


def test_a_circular_formula_is_null() -> None:
    base = read_base({"formulas": {"a": "formula.b + 1", "b": "formula.a + 1", "c": "2 * 3"}})
    row = FileFacts("r", "r.md", {})
    view = base.view(None)
    table = run_view(
        base, view, {"r": row}, None, lambda target, origin: None, now=datetime(2026, 1, 1)
    )
    assert table.rows == [("r", [FileRef("r")])]
    scope = Scope(row, None, {"r": row}, lambda t, o: None, base.formulas)
    assert scope.formula("a") is None and scope.formula("c") == 6


def test_a_base_written_in_a_page_is_read_as_a_file_is(tmp_path: Path) -> None:
    brain = vault(tmp_path)
    written = "filters: 'file.inFolder(\"Books\")'\nviews:\n  - {type: table, name: All}\n"
    table = brain.base_table("Categories/Books", ".base", written=written)
    assert table.view == "All" and table.total == 3
    with pytest.raises(BaseError, match="the base written here is not valid YAML at line"):
        brain.base_table("Categories/Books", ".base", written="filters: [")


def test_a_page_s_file_size_and_times(tmp_path: Path) -> None:
    brain = vault(tmp_path)
    written = "filters: 'file.size > 20 && file.mtime > date(\"2000-01-01\") && file.ctime'\n"
    table = brain.base_table("Categories/Books", ".base", written=written)
    sizes = {slug: len(text.encode()) for slug, text in PAGES.items()}
    assert {slug for slug, _ in table.rows} == {slug for slug, size in sizes.items() if size > 20}


def test_a_page_s_backlinks_are_the_pages_linking_to_it(tmp_path: Path) -> None:
    written = "filters: 'file.backlinks.contains(link(\"Bo Park\"))'\n"
    table = vault(tmp_path).base_table("Categories/Books", ".base", written=written)
    assert [slug for slug, _ in table.rows] == ["Books/Tide Tables"]


SUMMED = {
    "Reads/A": "---\npages: 100\ndone: true\nread: 2024-01-05\nshelf: x\n---\nA.\n",
    "Reads/B": "---\npages: 250\ndone: false\nread: 2024-03-01\nshelf: y\n---\nB.\n",
    "Reads/C": "---\npages: 40\ndone: true\nshelf: x\n---\nC.\n",
    "Reads/D": "---\ndone: true\nread: 2023-12-25\n---\nD.\n",
    "List": "![[Books.base]]\n",
}


def summaries_of(tmp_path: Path, summaries: str, extra: str = "") -> dict[str, str]:
    """The summary row under a view of the `Reads` pages: its cells by column."""
    base = (
        f"filters: 'file.inFolder(\"Reads\")'\n{extra}views:\n  - order: [file.name, pages,"
        f" done, read, shelf]\n    summaries:\n{summaries}"
    )
    table = vault(tmp_path, SUMMED, base).base_table("List", "Books.base")
    assert table.footers is not None and len(table.footers) == 1
    text = table_markdown(table, {})
    last = text.splitlines()[-1]
    cells = [cell.strip() for cell in last.strip("|").split(" | ")]
    return dict(zip(["file name", "pages", "done", "read", "shelf"], cells, strict=True))


def test_a_view_sums_its_columns_under_its_table(tmp_path: Path) -> None:
    """Obsidian's default summaries ("Bases syntax"), each over the rows shown, values of
    another kind left out (a page without `pages` is no number)."""
    cells = summaries_of(
        tmp_path,
        "      pages: Average\n      done: Checked\n      read: Earliest\n      shelf: Unique\n",
    )
    assert cells == {
        "file name": "",
        "pages": "*Average* 130",
        "done": "*Checked* 3",
        "read": "*Earliest* 2023-12-25",
        "shelf": "*Unique* 2",
    }
    expected = {
        "Sum": "390", "Min": "40", "Max": "250", "Range": "210", "Median": "100",
        "Stddev": "88.32", "Empty": "1", "Filled": "3",
    }  # fmt: skip
    for name, value in expected.items():
        assert (
            summaries_of(tmp_path / name, f"      pages: {name}\n")["pages"] == f"*{name}* {value}"
        )
    dates = summaries_of(tmp_path / "dates", "      read: Range\n      done: Unchecked\n")
    assert dates["read"] == "*Range* 2 months"  # 2023-12-25 to 2024-03-01: 67 days
    assert dates["done"] == "*Unchecked* 1"
    assert (
        summaries_of(tmp_path / "latest", "      read: latest\n")["read"] == "*latest* 2024-03-01"
    )


def test_a_summary_of_the_base_reads_its_values(tmp_path: Path) -> None:
    cells = summaries_of(
        tmp_path,
        "      shelf: Shelves\n",
        extra="summaries:\n  Shelves: 'values.filter(value).unique().join(\"+\")'\n",
    )
    assert cells["shelf"] == "*Shelves* x+y"


def test_an_unknown_summary_is_said_by_name(tmp_path: Path) -> None:
    with pytest.raises(BaseError, match="no summary 'Mode'"):
        summaries_of(tmp_path, "      pages: Mode\n")


def test_a_grouped_view_sums_each_group(tmp_path: Path) -> None:
    base = (
        "filters: 'file.inFolder(\"Reads\")'\nviews:\n  - groupBy: {property: shelf}\n"
        "    order: [file.name, pages]\n    summaries: {pages: Sum}\n"
    )
    text = table_markdown(vault(tmp_path, SUMMED, base).base_table("List", "Books.base"), {})
    groups = text.split("\n\n")
    assert groups[0] == "**x** · 2"
    assert groups[1].splitlines()[-1] == "|   | *Sum* 140 |"
    assert groups[2] == "**y** · 1"
    assert groups[3].splitlines()[-1] == "|   | *Sum* 250 |"
    assert groups[4] == "**(none)** · 1"
    assert groups[5].splitlines()[-1] == "|   | *Sum* |"  # no number to sum
