"""Dataview's `LIST` and `TABLE` query blocks, run as the bases they mean
(`core.bases.dataview_query`). Found on the Dataview example vault (236 query blocks) and
obsidian-hub: every ```` ```dataview ```` block showed as code, so a hub page that lists
its books by a query listed nothing. A query read only in part is refused by name, and
its block stays code."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.bases.dataview_query import MAX_QUERY_CHARS, QueryRefused, read_query
from okf_explorer.core.bases.dataview_tasks import MAX_TASKS, page_tasks
from okf_explorer.core.bases.expression import MAX_DEPTH
from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown.links import QUERY_TARGET, embedded_text
from tests.bundles import indexed_brain, write_pages

PAGES = {
    "books/dune": "---\nauthor: Frank Herbert\nrating: 5\ntags: [type/book]\n---\n# Dune\n",
    "books/emma": "---\nauthor: Jane Austen\nrating: 3\ntags: [type/book]\n---\n# Emma\n",
    # inline fields, typed as Dataview types them: rating 4 is a number
    "books/hobbit": "# The Hobbit\nauthor:: J. R. R. Tolkien\nrating:: 4\n\n#type/book/old\n",
    "books/drafts/notes": "# Notes\nNothing here but [[reading]].\n",
    "films/alien": "---\nauthor: Ridley Scott\nrating: 5\n---\n# Alien\n",
    "reading": "# Reading\n\nI read [[dune]] and [[emma]].\n",
}


@pytest.fixture
def brain(tmp_path: Path) -> Brain:
    return indexed_brain(tmp_path, PAGES)


def shown(brain: Brain, query: str, on: str = "reading") -> str:
    text, note = embedded_text(brain, on, QUERY_TARGET, None, query)
    assert text is not None, note
    return text


def slugs(brain: Brain, query: str, on: str = "reading") -> list[str]:
    table = brain.dataview_table(on, read_query(query))
    return [slug for slug, _ in table.rows]


def test_a_table_from_a_tag_where_a_field_holds_sorted_by_it(brain: Brain) -> None:
    query = 'TABLE author, rating AS "Stars"\nFROM #type/book\nWHERE rating >= 4\nSORT rating DESC'
    assert slugs(brain, query) == ["books/dune", "books/hobbit"]  # a nested tag counts
    lines = shown(brain, query).splitlines()
    assert lines[0] == "| File | author | Stars |"
    assert lines[2] == "| [[books/dune\\|Dune]] | Frank Herbert | 5 |"
    assert lines[3] == "| [[books/hobbit\\|The Hobbit]] | J. R. R. Tolkien | 4 |"


def test_a_list_from_a_folder_shows_each_page_and_its_value(brain: Brain) -> None:
    query = 'LIST author\nFROM "books"\nSORT file.name'
    assert shown(brain, query).splitlines() == [
        "- [[books/dune\\|Dune]]: Frank Herbert",
        "- [[books/emma\\|Emma]]: Jane Austen",
        "- [[books/hobbit\\|The Hobbit]]: J. R. R. Tolkien",
        "- [[books/drafts/notes\\|Notes]]: -",  # no author
    ]
    assert slugs(brain, 'list from "books/dune"') == ["books/dune"]  # a page, by its path


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("LIST FROM [[]]", ["books/drafts/notes"]),  # the pages linking to this one
        ("LIST FROM [[dune]]", ["reading"]),
        ("LIST FROM outgoing([[reading]])", ["books/dune", "books/emma"]),
        ('LIST FROM "books" AND -"books/drafts"', ["books/dune", "books/emma", "books/hobbit"]),
        # no SORT: by file name, as a base
        (
            'LIST FROM #type/book OR "films"',
            ["films/alien", "books/dune", "books/emma", "books/hobbit"],
        ),
        ('LIST FROM "books" WHERE contains(author, "Austen")', ["books/emma"]),
        ('LIST WHERE rating = 5 and file.folder != "films"', ["books/dune"]),
        ('LIST WHERE contains(file.tags, "#type/book") SORT rating DESC LIMIT 1', ["books/dune"]),
        ("LIST WHERE length(author) > 12 SORT BY author DESC", ["books/hobbit", "books/dune"]),
        ('LIST WHERE (rating = 5 OR(rating = 3)) AND string(rating) = "3"', ["books/emma"]),
        (
            'LIST WHERE choice(rating > 4, true, false) & !contains(file.path, "films")',
            ["books/dune"],
        ),
    ],
)
def test_sources_and_expressions(brain: Brain, query: str, kept: list[str]) -> None:
    assert slugs(brain, query) == kept


def test_dates_and_spans(tmp_path: Path) -> None:
    """`WHERE file.mtime >= date(today) - dur(90 days)`: a dashboard's recent pages."""
    write_pages(tmp_path, PAGES)
    old = time.time() - 200 * 86400
    os.utime(tmp_path / "books/emma.md", (old, old))
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    brain.ensure_index()
    recent = "LIST FROM #type/book WHERE file.mtime >= date(today) - dur(90 days)"
    assert slugs(brain, recent) == ["books/dune", "books/hobbit"]
    assert slugs(brain, recent.replace("dur(90 days)", 'dur("10 wk")')) == slugs(brain, recent)
    assert slugs(brain, recent.replace(">=", "<")) == ["books/emma"]
    # created: its change time, or its modified time when that is earlier
    assert slugs(brain, "LIST FROM #type/book WHERE file.ctime < date(yesterday)") == ["books/emma"]
    with pytest.raises(QueryRefused, match="one amount of one unit"):
        read_query("LIST WHERE file.mtime > date(today) - dur(1 day 2 hours)")


def test_grouped_pages_are_a_row_a_group_by_their_key(brain: Brain) -> None:
    """`GROUP BY`: a row a key, its pages (`rows`) as lists; the groups by key, unless
    sorted after the grouping; `key`, `row.key` and the grouped field name the key."""
    query = 'TABLE rows.file.link AS "Books", length(rows) AS "n" FROM "books" GROUP BY rating'
    assert shown(brain, query).splitlines() == [
        "| rating | Books | n |",
        "| --- | --- | --- |",
        "| 3 | [[books/emma\\|Emma]] | 1 |",
        "| 4 | [[books/hobbit\\|The Hobbit]] | 1 |",
        "| 5 | [[books/dune\\|Dune]] | 1 |",
        "|   | [[books/drafts/notes\\|Notes]] | 1 |",  # no rating: last, as a base sorts
    ]
    by_count = (
        'TABLE WITHOUT ID row.key AS "Stars", rows.author AS "Who" '
        "WHERE rating GROUP BY rating SORT length(rows) DESC, key DESC"
    )
    assert shown(brain, by_count).splitlines()[2:4] == [
        "| 5 | Ridley Scott, Frank Herbert |",  # its pages by file name: alien, dune
        "| 4 | J. R. R. Tolkien |",
    ]
    by_rating = shown(brain, 'LIST FROM "books" GROUP BY rating').splitlines()
    assert by_rating[-1] == "- -: [[books/drafts/notes\\|Notes]]"  # `-`: no key, as Dataview
    high = 'LIST FROM #type/book OR "films" GROUP BY rating >= 4 AS good WHERE good'
    assert shown(brain, high).splitlines() == [
        "- true: [[films/alien\\|Alien]], [[books/dune\\|Dune]], [[books/hobbit\\|The Hobbit]]"
    ]


def test_a_daily_note_s_day_is_its_date_field_or_the_date_its_name_starts_with(
    tmp_path: Path,
) -> None:
    pages = {
        "daily/2024-05-01 Standup": "# Standup\n",
        "daily/notes": "---\ndate: 2024-05-03\n---\n# Notes\n",
        "daily/someday": "# Someday\n",
    }
    write_pages(tmp_path, pages)
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    brain.ensure_index()
    query = 'LIST file.day FROM "daily" WHERE file.day SORT file.day DESC'
    assert slugs(brain, query, on="daily/someday") == ["daily/notes", "daily/2024-05-01 Standup"]
    query = 'LIST FROM "daily" WHERE date(file.day).day = 1 AND file.cday >= date(today)'
    assert slugs(brain, query, on="daily/someday") == ["daily/2024-05-01 Standup"]
    query = 'LIST dateformat(file.day, "yyyy/MM dd") FROM "daily" WHERE file.day SORT file.day'
    assert shown(brain, query, on="daily/someday").splitlines() == [
        "- [[daily/2024-05-01 Standup\\|Standup]]: 2024/05 01",
        "- [[daily/notes\\|Notes]]: 2024/05 03",
    ]
    query = (
        'LIST FROM "daily" WHERE dateformat(file.day, "yyyy-MM") = "2024-05" AND file.day.day = 3'
    )
    assert slugs(brain, query, on="daily/someday") == ["daily/notes"]


TODO = """---
owner: Ada
---
# Todo

- [ ] Read [[dune]] again [due:: 2024-05-01] #later
- [x] Return [[emma]]
  - [>] Lend the hobbit to Ada

```
- [ ] not a task: code
```
"""


def test_a_task_query_shows_the_tasks_it_keeps_under_their_page(tmp_path: Path) -> None:
    """`TASK`: each task a row with its own fields (`text`, `status`, `completed`, its
    inline `due`, its `#tags`) and its page's frontmatter (not another task's fields)."""
    write_pages(tmp_path, {**PAGES, "notes/todo": TODO, "notes/done": "# Done\n- [x] All\n"})
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    brain.ensure_index()
    assert shown(brain, 'TASK FROM "notes" WHERE !completed', on="reading").splitlines() == [
        "**[[notes/todo|Todo]]**",
        "",
        "- [ ] Read [[dune]] again [due:: 2024-05-01] #later",
        "- [>] Lend the hobbit to Ada",
    ]
    assert shown(brain, 'TASK FROM "notes"').splitlines()[:3] == [
        "**[[notes/done|Done]]**",  # by page, then line
        "",
        "- [x] All",
    ]
    for where, kept in [
        ("due < date(today)", ["Read [[dune]] again [due:: 2024-05-01] #later"]),
        (
            'contains(tags, "#later") AND owner = "Ada"',
            ["Read [[dune]] again [due:: 2024-05-01] #later"],
        ),
        ('status = ">" AND file.name = "todo"', ["Lend the hobbit to Ada"]),
        ("checked AND line > 2", ["Return [[emma]]", "Lend the hobbit to Ada"]),
    ]:
        table = brain.dataview_table("reading", read_query(f"TASK WHERE {where}"))
        assert [cells[1] for _, cells in table.rows] == kept, where
    assert shown(brain, 'TASK WHERE text = "none"') == "*TASK: no task matches.*"


def test_without_id_shows_the_values_alone(brain: Brain) -> None:
    query = 'TABLE WITHOUT ID author AS "Who" FROM #type/book SORT author'
    lines = shown(brain, query).splitlines()
    assert lines[0] == "| Who |"
    assert lines[2] == "| [[books/dune\\|Frank Herbert]] |"  # still opens its page
    assert shown(brain, "LIST WITHOUT ID author FROM #type/book SORT author").splitlines() == [
        "- Frank Herbert",
        "- J. R. R. Tolkien",
        "- Jane Austen",
    ]


def test_a_query_keeping_no_page_says_so(brain: Brain) -> None:
    assert shown(brain, "LIST FROM #nothing") == "*LIST: no page matches.*"


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ('TASK author FROM "books"', "a TASK query shows no expression"),
        ('TASK FROM "books" GROUP BY status', "a TASK query is grouped by file.link alone"),
        ('CALENDAR file.ctime FROM "books"', "CALENDAR queries are not read"),
        ('TABLE rows.file.link FROM "books" GROUP author', "GROUP is followed by BY"),
        ('TABLE file.name FROM "books" GROUP BY author', "after GROUP BY a query reads key"),
        ('LIST FROM "books" LIMIT 2 GROUP BY author', "GROUP BY comes once, before any LIMIT"),
        ('LIST FROM "books" FLATTEN author', "FLATTEN is not read"),
        ('LIST WHERE regexmatch("a.*", author)', "Dataview's regexmatch() is not read"),
        ("LIST file.lists", "file.lists is not read"),
        ("LIST WHERE file.day.weekyear = 3", "a date's .weekyear is not read"),
        ('LIST dateformat(file.day, "MMMM")', "dateformat()'s MMMM is not read"),
        ('LIST dateformat(file.day, "yyyy %d")', "dateformat()'s % is not read"),
        ("LIST WHERE date(file.day).weekNumber = 3", "a date's .weekNumber is not read"),
        ('LIST WHERE date(x).format("y")', "a method .format() is not read"),
        ("LIST rows.file.day GROUP BY x", "file.day is not read"),
        ('LIST FROM "books" LIMIT 2 SORT author', "a SORT after LIMIT is not read"),
        ("LIST author, rating", "a LIST shows one expression"),
        ('LIST WHERE contains(author "x")', "contains() takes 2 arguments here"),
        ("LIST WHERE contains(author, 'x')", "cannot read"),
        ("dv.pages()", "a query starts with LIST, TABLE or TASK"),
        ("LIST " + "x " * MAX_QUERY_CHARS, f"a query over {MAX_QUERY_CHARS:,} characters"),
        ("LIST " + "lower(" * 550 + "x" + ")" * 550, f"nested more than {MAX_DEPTH} deep"),
        ('LIST FROM "a\\qb"', "cannot read the string"),
    ],
)
def test_a_query_read_only_in_part_is_refused_by_name(query: str, why: str) -> None:
    with pytest.raises(QueryRefused, match=why.replace("(", r"\(").replace(")", r"\)")):
        read_query(query)


def test_the_page_shows_a_query_it_reads_and_leaves_others_as_code(tmp_path: Path) -> None:
    from okf_explorer.tui.markdown.draw import Embed, Fence, blocks_of
    from okf_explorer.tui.markdown.links import WRITTEN_QUERY
    from okf_explorer.tui.markdown.parser import parse

    text = "```dataview\nLIST FROM #book\n```\n\n```dataview\nCALENDAR file.day\n```\n"
    blocks = blocks_of(parse(text, False))
    assert isinstance(blocks[0], Embed)
    assert (blocks[0].href, blocks[0].written) == (WRITTEN_QUERY, "LIST FROM #book\n")
    assert isinstance(blocks[1], Fence)


PIECES = [
    "LIST",
    "TABLE",
    "WITHOUT",
    "ID",
    "FROM",
    "WHERE",
    "SORT",
    "BY",
    "LIMIT",
    "AS",
    "GROUP",
    "and",
    "or",
    "#tag",
    '"folder"',
    "[[page]]",
    "[[]]",
    "outgoing",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    "=",
    "!=",
    "<",
    "+",
    "-",
    "!",
    "&",
    "|",
    "file",
    "name",
    "this",
    "rating",
    "3",
    "2.5",
    "contains",
    "date",
    "today",
    "lower",
    "round",
    "DESC",
    '"x\\"',
    "'y'",
    "\n",
    "€",
    "::",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_any_text_is_read_or_refused_by_name_never_an_error(pieces: list[str]) -> None:
    """Whatever a block holds, it is a query or a `QueryRefused` (its block stays code)."""
    with contextlib.suppress(QueryRefused):
        read_query(" ".join(pieces))


def test_a_page_of_many_tasks_is_read_within_bounds() -> None:
    text = "# Chores\n" + "- [ ] sweep\n" * (MAX_TASKS + 10)
    tasks = page_tasks(text)
    assert len(tasks) == MAX_TASKS
    assert (tasks[0].line, tasks[-1].line) == (1, MAX_TASKS)


def test_tasks_and_groups_are_made_of_every_page_not_the_500_a_table_shows(
    tmp_path: Path,
) -> None:
    """A vault's dashboard (`TASK WHERE !completed`, `GROUP BY`) over more pages than a
    table shows (`MAX_ROWS`) was refused: the groups and tasks are made of every page kept."""
    pages = {
        f"notes/n{n:03}": f"---\nkind: k{n % 3}\n---\n# N{n}\n- [ ] do {n}\n" for n in range(600)
    }
    write_pages(tmp_path, pages)
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    brain.ensure_index()
    tasks = brain.dataview_table("notes/n000", read_query("TASK WHERE !completed"))
    assert (len(tasks.rows), tasks.total) == (500, 600)  # 500 shown, as a table's rows
    assert shown(brain, "TASK WHERE !completed", on="notes/n000").endswith(
        "*100 more of 600 tasks.*"
    )
    groups = 'TABLE length(rows) AS "n" GROUP BY kind'
    assert shown(brain, groups, on="notes/n000").splitlines()[2:] == [
        "| k0 | 200 |",
        "| k1 | 200 |",
        "| k2 | 200 |",
    ]
    many = shown(brain, "LIST GROUP BY file.name", on="notes/n000")
    assert many.endswith("*100 more of 600 groups.*")


def test_a_query_is_read_once_for_the_parser_and_the_worker_that_runs_it() -> None:
    query = 'LIST author FROM "books" WHERE rating > 3'
    assert read_query(query) is read_query(query)
    for _ in range(2):  # a refusal kept says the same each time
        with pytest.raises(QueryRefused, match="FLATTEN is not read"):
            read_query('LIST FROM "books" FLATTEN author')
