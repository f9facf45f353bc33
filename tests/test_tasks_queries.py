"""The Tasks plugin's query blocks (```` ```tasks ````), run as the Dataview `TASK` query
they mean (`core.bases.tasks_query`). Found on the Tasks plugin's own docs and demo vault
(obsidian-tasks-group/obsidian-tasks `cc0fce3`): every block showed as a screen of
instructions (`not done`, `due before 2021-12-06`, `path includes {{query.file.path}}`).
A block read only in part stays code. The pages here are our own."""

from __future__ import annotations

import contextlib
import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.bases.dataview_query import QueryRefused, read_query
from okf_explorer.core.bases.dataview_tasks import page_tasks, tasks_fields
from okf_explorer.core.bases.tasks_query import read_tasks_query
from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown.links import TASKS_TARGET, WRITTEN_TASKS, embedded_text
from tests.bundles import indexed_brain, write_pages

TODAY = date.today()
PAGES = {
    "home": (
        "# Home\n"
        "- [ ] Call Ada #phone 🔁 every week 📅 2024-05-01\n"
        "- [x] Mow the lawn #garden ⏳ 2024-04-02 ✅ 2024-04-03\n"
        f"- [ ] Water the beds #garden ⏫ 📅 {TODAY.isoformat()}\n"
        "- [-] Paint the shed ❌ 2024-04-09\n"
        "## In the evening\n"
        "- [ ] Read 📅 2024-05-02 in the evening\n"  # a date mid-sentence: text to Tasks
        "- [ ] Plan the trip [due:: 2024-05-03]\n"  # Dataview's field: not Tasks' date
    ),
    "work/plans": "# Plans\n- [ ] Send the report 🔼 📅 2024-06-01 ^r1\n- [/] Draft the talk\n",
    "work/notes": "# Notes\nNo tasks here.\n",
}


@pytest.fixture
def brain(tmp_path: Path) -> Brain:
    return indexed_brain(tmp_path, PAGES)


def kept(brain: Brain, query: str, on: str = "work/notes") -> list[str]:
    """The text of each task `query` keeps, in the order shown."""
    table = brain.dataview_table(on, read_tasks_query(query))
    return [cells[1] for _, cells in table.rows]


@pytest.mark.parametrize(
    ("query", "texts"),
    [
        ("not done", ["Call", "Water", "Read", "Plan", "Send", "Draft"]),
        ("done", ["Mow", "Paint"]),
        ("due before 2024-05-02", ["Call"]),
        ("due on or before 2024-05-02\nnot done", ["Call"]),  # Read's date is mid-sentence
        ("due after 2024-05-01", ["Water", "Send"]),
        ("due 2024-05-01", ["Call"]),
        ("due today", ["Water"]),
        ("has scheduled date", ["Mow"]),
        ("no due date\nnot done", ["Read", "Plan", "Draft"]),
        ("done on 2024-04-03", ["Mow"]),
        ("cancelled before 2024-05-01", ["Paint"]),
        ("path includes work/", ["Send", "Draft"]),
        ("FOLDER INCLUDES WORK", ["Send", "Draft"]),
        ("filename includes plans", ["Send", "Draft"]),
        ("description does not include a\nnot done", ["Send"]),
        ("tags include #garden", ["Mow", "Water"]),
        ("tag does not include garden\ndone", ["Paint"]),
        ("(tags include #phone) OR (description includes report)", ["Call", "Send"]),
        ("(not done) AND NOT (path includes work)", ["Call", "Water", "Read", "Plan"]),
        ("has due date\nnot done\nsort by due reverse\nlimit 2", ["Water", "Send"]),
        ("not done\nsort by due", ["Call", "Send", "Water", "Read", "Plan", "Draft"]),
        ("priority is high", ["Water"]),
        ("priority is above none", ["Water", "Send"]),
        ("priority is below medium\nnot done", ["Call", "Read", "Plan", "Draft"]),
        ("not done\nsort by priority\nlimit 2", ["Water", "Send"]),
        ("is recurring", ["Call"]),
        ("happens before 2024-05-01", ["Mow"]),
        ("has happens date\ndone", ["Mow"]),
        ("heading includes evening", ["Read", "Plan"]),
        ("heading does not include e\nnot done", ["Send", "Draft"]),
        (
            "# a comment\nhide backlinks\nshort mode\nexplain\ngroup by filename\ndone",
            ["Mow", "Paint"],
        ),
    ],
)
def test_a_tasks_block_keeps_the_tasks_tasks_keeps(
    brain: Brain, query: str, texts: list[str]
) -> None:
    assert [text.split()[0] for text in kept(brain, query)] == texts


def test_a_placeholder_is_the_page_holding_the_query(brain: Brain) -> None:
    assert [t.split()[0] for t in kept(brain, "path includes {{query.file.path}}", "home")] == [
        "Call",
        "Mow",
        "Water",
        "Paint",
        "Read",
        "Plan",
    ]
    assert kept(brain, "folder includes {{query.file.folder}}\nnot done", "work/notes") == [
        "Send the report 🔼 📅 2024-06-01 ^r1",
        "Draft the talk",
    ]


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("filter by function task.due.moment", "filter by function"),
        ("group by tags", "group by tags"),
        ("group by due\ngroup by heading", "group by heading"),
        ("sort by urgency", "sort by urgency"),
        ("preset today_tasks", "preset"),
        ("due before next monday", "next monday is not a date"),
        ("due in 99999 years", "past the dates"),
        ("description regex matches /a/", "regex"),
        ("(done) XOR (not done)", "XOR"),
        ("due before 2024-13-40", "2024-13-40 is not a date"),
        ("(done) OR [not done]", "OR"),
        ("(done) AND", "(done) AND"),
        ("(done) (not done)", "(done) (not done)"),
        ("path includes {{query.file.property('x')}}", "placeholder"),
        ("x" * 5000, "over 4,000 characters"),
    ],
)
def test_a_block_read_only_in_part_is_refused_by_name(query: str, why: str) -> None:
    with pytest.raises(QueryRefused, match=why.replace("(", r"\(").replace(")", r"\)")):
        read_tasks_query(query)


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("Call 📅 2024-05-01", {"due": "2024-05-01"}),
        ("Call 📅2024-05-01 #a ^b1", {"due": "2024-05-01"}),
        ("Read 📅 2024-05-02 in the evening ⏫ later", {}),
        (
            "Go 🔁 every week on Monday ➕ 2024-02-19 📅 2024-03-04",
            {"created": "2024-02-19", "due": "2024-03-04", "recurring": True},
        ),
        (
            "Fix 🆔 abc ⛔ x1,y2 🔼 🛫 2024-01-02 ⏳ 2024-01-03 ✅ 2024-01-04",
            {"start": "2024-01-02", "scheduled": "2024-01-03", "completion": "2024-01-04"}
            | {"priority": 2},
        ),
        ("Now 🔺", {"priority": 0}),
        ("Bad 📅 2024-13-40", {}),
        ("Plan [due:: 2024-05-03]", {}),
    ],
)
def test_a_task_s_fields_are_read_where_tasks_reads_them(
    text: str, fields: dict[str, object]
) -> None:
    read = {"priority": 3, "recurring": False} | fields
    found = tasks_fields(text)
    assert {k: v.isoformat() if isinstance(v, date) else v for k, v in found.items()} == read


def test_a_task_is_under_the_heading_above_it_not_one_in_code() -> None:
    text = "- [ ] a\n# One\n- [ ] b\n```\n# not a heading\n```\n## Two ##\n- [ ] c\n- [ ] d\n"
    assert [(task.text, task.heading) for task in page_tasks(text)] == [
        ("a", ""),
        ("b", "One"),
        ("c", "Two"),
        ("d", "Two"),
    ]


def test_a_vault_s_global_filter_keeps_the_items_holding_it(tmp_path: Path) -> None:
    write_pages(
        tmp_path, {"list": "- [ ] #task Buy milk\n- [ ] A plain checklist item\n- [x] #task Done\n"}
    )
    settings = tmp_path / ".obsidian" / "plugins" / "obsidian-tasks-plugin"
    settings.mkdir(parents=True)
    (settings / "data.json").write_text(json.dumps({"globalFilter": "#task"}), encoding="utf-8")
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    brain.ensure_index()
    assert brain.tasks_global_filter() == "#task"
    text, note = embedded_text(brain, "list", TASKS_TARGET, None, "not done")
    assert text is not None, note
    assert text.splitlines() == ["**[[list|list]]**", "", "- [ ] #task Buy milk"]


def test_the_page_shows_a_block_it_reads_and_leaves_others_as_code() -> None:
    from okf_explorer.tui.markdown.draw import Embed, Fence, blocks_of
    from okf_explorer.tui.markdown.parser import parse

    text = "```tasks\nnot done\n```\n\n```tasks\ngroup by tags\n```\n"
    blocks = blocks_of(parse(text, False))
    assert isinstance(blocks[0], Embed)
    assert (blocks[0].href, blocks[0].written) == (WRITTEN_TASKS, "not done\n")
    assert isinstance(blocks[1], Fence)


def test_the_shown_tasks_are_under_their_page_and_a_query_keeping_none_says_so(
    brain: Brain,
) -> None:
    text, _ = embedded_text(brain, "home", TASKS_TARGET, None, "path includes work\nnot done")
    assert text is not None
    assert text.splitlines() == [
        "**[[work/plans|Plans]]**",
        "",
        "- [ ] Send the report 🔼 📅 2024-06-01 ^r1",
        "- [/] Draft the talk",
    ]
    yesterday = (TODAY - timedelta(days=1)).isoformat()
    text, _ = embedded_text(brain, "home", TASKS_TARGET, None, f"due on {yesterday}\ndone")
    assert text == "*TASK: no task matches.*"


WORDS = ["not", "done", "due", "before", "after", "on", "or", "today", "2024-05-01", "2024-13-01"]
WORDS += ["has", "no", "date", "path", "includes", "does", "include", "tags", "#x", "\\", '"a"']
WORDS += ["(", ")", "AND", "OR", "NOT", "XOR", "sort", "by", "reverse", "limit", "5", "group"]
WORDS += ["filename", "hide", "{{query.file.path}}", "{{", "}}", "\n", "#", "€", "'", "\t"]
WORDS += ["in", "ago", "week", "months", "year", "this", "next", "99999999999999", "9999", "two"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=30))
def test_any_text_is_read_or_refused_by_name_never_an_error(words: list[str]) -> None:
    """Whatever a block holds, it is a query or a `QueryRefused` (its block stays code)."""
    with contextlib.suppress(QueryRefused):
        read_tasks_query(" ".join(words))


def test_a_dataview_task_query_reads_the_emoji_dates_anywhere(brain: Brain) -> None:
    """Dataview reads Tasks' emoji as fields too, wherever they stand (the demo vault's
    "dataview finds the date, Tasks does not")."""
    query = read_query('TASK WHERE due <= date("2024-05-02") OR completion')
    table = brain.dataview_table("home", query)
    assert [cells[1].split()[0] for _, cells in table.rows] == ["Call", "Mow", "Read"]


def test_grouped_tasks_are_under_their_group_then_their_page_in_tasks_order(
    brain: Brain,
) -> None:
    def shown(query: str) -> list[str]:
        text, note = embedded_text(brain, "home", TASKS_TARGET, None, query)
        assert text is not None, note
        return [line for line in text.splitlines() if line]

    assert shown("group by status.type\npath includes work") == [
        "#### IN_PROGRESS",
        "**[[work/plans|Plans]]**",
        "- [/] Draft the talk",
        "#### TODO",
        "**[[work/plans|Plans]]**",
        "- [ ] Send the report 🔼 📅 2024-06-01 ^r1",
    ]
    assert shown("group by due\npath includes work") == [
        "#### 2024-06-01 Saturday",
        "**[[work/plans|Plans]]**",
        "- [ ] Send the report 🔼 📅 2024-06-01 ^r1",
        "#### No due date",  # last, as Tasks puts it
        "**[[work/plans|Plans]]**",
        "- [/] Draft the talk",
    ]
    headings = [line for line in shown("not done\ngroup by heading") if line[0] == "#"]
    assert headings == [
        "#### Home",
        "#### In the evening",
        "#### Plans",
    ]
    assert shown("group by priority\nhas due date\nnot done")[0] == "#### High priority"


@pytest.mark.parametrize(
    ("query", "texts"),
    [
        ("due this week", ["Call"]),  # Monday 29 April to Sunday 5 May 2024
        ("due in this week", ["Call"]),
        ("due in 1 month", ["Send"]),
        ("due in a month", ["Send"]),
        ("due before next month", ["Call"]),
        ("due after this month", ["Water", "Send"]),
        ("done in last month", ["Mow"]),
        ("due 2024-05-01 2024-06-01", ["Call", "Send"]),
        ("scheduled after 30 days ago", ["Mow"]),
        ("due on or before tomorrow", ["Call"]),
        ("cancelled in last quarter", []),
        ("cancelled in this quarter", ["Paint"]),
    ],
)
def test_relative_dates_count_from_today(brain: Brain, query: str, texts: list[str]) -> None:
    """Wednesday 1 May 2024 is the day the dates count from; a week is Monday to Sunday."""
    table = brain.dataview_table("home", read_tasks_query(query, today=date(2024, 5, 1)))
    assert [cells[1].split()[0] for _, cells in table.rows] == texts
