"""A SilverBullet space reads as SilverBullet reads it (`core.links.silverbullet`,
`tui.markdown.silverbullet`): seen on SilverBullet's own docs (silverbulletmd/silverbullet
`754e852`), where 41 of 71 dangling targets were Lua (`query[[from index.pages("adr")]]`,
`"[[" .. p.name .. "]]"`) or positions (`[[CHANGELOG@123]]`) and its queries drew as text,
and on two users' spaces, one writing its math as `${latex.inline[[…]]}`. The pages here
are our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from okf_explorer.core.brain import Brain
from okf_explorer.core.links.grammar import extract_link_tuples
from okf_explorer.core.links.silverbullet import (
    MAX_NESTING,
    lua_expressions,
    silverbullet_as_written,
    silverbullet_links,
)
from okf_explorer.server.tools import call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.folder.dialect import SilverBulletSpace, folder_dialect
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown.silverbullet import silverbullet_markdown
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_file as write
from tests.tui.conftest import settle
from tests.tui.test_line_breaks import body_text

CONFIG = 'Settings.\n\n```space-lua\nconfig.set("theme", "dark") -- [[not a link]]\n```\n'
DECISIONS = """\
# Decisions
Every decision record, newest first:
${query[[
  from p = index.pages("adr")
  order by p.date desc
  select {ADR = "[[" .. p.name .. "]]"}
]]}
The list's template is in [[^Library/Templates]]; the release is [[Changes@L3C2|line 3]],
the first change [[Changes@42]]. Pages tagged [[tag:math]] keep ${latex.inline[[x^2]]}.
Counted ${#query[[from index.tag "page"]]} pages, written `${query[[in code]]}`, and [[Plain]].
"""
PAGES = {
    "CONFIG.md": CONFIG,
    "index.md": "# Welcome\nStart at [[Decisions]].\nA second line.\n",
    "Decisions.md": DECISIONS,
    "Changes.md": "# Changes\n\n- one\n- two\n",
    "Library/Templates.md": "Templates.\n",
    "Plain.md": "Plain.\n",
}


def space(root: Path, pages: dict[str, str] = PAGES) -> Path:
    for name, text in pages.items():
        write(root, name, text)
    return root


def links(brain: Brain, slug: str) -> list[tuple[str, str]]:
    return [(link.target, link.to) for link in brain.forward_links(slug)]


def test_a_space_s_links_are_read_as_silverbullet_reads_them(tmp_path: Path) -> None:
    brain = Brain(BundleSource(space(tmp_path / "sb")), cache_dir=False)
    assert brain.markup() == "silverbullet"
    assert links(brain, "Decisions") == [
        ("Library/Templates", "Library/Templates"),
        ("Changes", "Changes"),
        ("Plain", "Plain"),
    ]
    assert brain.dangling() == {}


def test_read_as_a_vault_the_lua_dangles(tmp_path: Path) -> None:
    """The same pages without a SilverBullet `CONFIG.md`: what the space reading fixes."""
    pages = {**PAGES, "CONFIG.md": "Settings.\n"}
    brain = Brain(BundleSource(space(tmp_path / "vault", pages)), cache_dir=False)
    assert brain.markup() == "markdown"
    assert set(brain.dangling()) == {
        '" .. p.name .. "',
        "Changes@L3C2",
        "Changes@42",
        "tag:math",
        "x^2",
        'from index.tag "page"',
    }


@pytest.mark.parametrize(
    ("files", "found"),
    [
        ({"CONFIG.md": CONFIG}, True),
        ({"CONFIG.md": 'Widgets: ${widgets.commandButton("Reload")}\n'}, True),
        ({"CONFIG.md": "```space-config\ntheme: dark\n```\n"}, True),
        ({"_plug/x.plug.js": "//\n", "a.md": "A\n"}, True),
        ({"CONFIG.md": "Our settings, in prose.\n"}, False),
        ({"CONFIG.md": "Set it:\n```sh\nexport PATH=${HOME}/bin\n```\nor `${HOME}`.\n"}, False),
        ({"CONFIG.md": "Our ${x}.\n", ".obsidian/app.json": "{}"}, False),
        ({"notes/CONFIG.md": CONFIG}, False),
    ],
    ids=[
        "space-lua",
        "expression",
        "space-config",
        "plugs",
        "prose config",
        "shell in code",
        "obsidian vault",
        "config deeper",
    ],
)
def test_a_folder_is_a_space_by_its_config_or_its_plugs(
    tmp_path: Path, files: dict[str, str], found: bool
) -> None:
    root = space(tmp_path / "sb", files)
    assert isinstance(folder_dialect(str(root)), SilverBulletSpace) is found


async def test_the_explorer_opens_the_index_and_draws_lua_as_code_and_math(
    tmp_path: Path,
) -> None:
    app = make_app(Brain(BundleSource(space(tmp_path / "sb")), cache_dir=False))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        assert pane.page is not None and pane.page.slug == "index"
        status = str(app.screen.query_one("#status-start").content)
        assert status == "start: SilverBullet index page ·"
        assert "Start at Decisions.\nA second line." in body_text(pane)  # a line is a line
        app.screen.open_page("Decisions")
        await settle(pilot, lambda: pane.page is not None and pane.page.slug == "Decisions")
        await settle(pilot)
        rows = [row.strip() for row in body_text(pane).splitlines()]
        query = rows.index("${query[[")
        assert rows[query : query + 5] == [
            "${query[[",
            'from p = index.pages("adr")',
            "order by p.date desc",
            'select {ADR = "[[" .. p.name .. "]]"}',
            "]]}",
        ]
        text = " ".join(rows)
        assert "template is in Library/Templates; the release is line 3" in text
        assert "the first change Changes." in text
        assert "Pages tagged #math keep x²." in text
        assert 'Counted ${#query[[from index.tag "page"]]} pages, written ${query[[in' in text
        assert "code]]}, and Plain." in text


@pytest.mark.parametrize(
    ("written", "drawn"),
    [
        ("a ${latex.inline[[x^2]]} b", "a $x^2$ b"),
        ("${latex.block[[\\int f]]}\nnext", "$$\n\\int f\n$$\nnext"),
        ("a ${latex.block[[y]]} b", "a $$y$$ b"),
        ('${embed.youtube "https://youtu.be/x"}', "<https://youtu.be/x>"),
        ('${widgets.commandButton("Go")} now', '`${widgets.commandButton("Go")}` now'),
        ("${q[[\n  a\n]]}\nafter", "```lua\n${q[[\n  a\n]]}\n```\nafter"),
        ("- ${q[[\n  a\n]]}", "- ```lua\n  ${q[[\n    a\n  ]]}\n  ```"),
        ("x\n  ${q[[\n  a\n]]}\n", "x\n  ```lua\n  ${q[[\n    a\n  ]]}\n  ```\n"),
        ('${f("`")}', '`` ${f("`")} ``'),
        ("see [[tag:math]] and [[uri:https://x.org/a|A]]", "see #math and [A](<https://x.org/a>)"),
        ("`${x}` and ${ unclosed", None),
        ("> **note** Note\n> Text", "> [!note] Note\n> Text"),
        ("> **Warning**\n> Text\n> **tip** a line", "> [!warning]\n> Text\n> **tip** a line"),
        ("> **two words** x\n\n**note** x\n\n> **note**: x", None),
    ],
)
def test_a_page_is_drawn_as_silverbullet_shows_it(written: str, drawn: str | None) -> None:
    assert silverbullet_markdown(written) == (drawn or written)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('${f("}")} x', ['${f("}")}']),
        ("${f('{')}", ["${f('{')}"]),
        ("${q[==[ ]] } ]==]}", ["${q[==[ ]] } ]==]}"]),
        ('${q[[ "[[" .. n .. "]]" ]]}', ['${q[[ "[[" .. n .. "]]" ]]}']),
        ("${a {b} c}${d}", ["${a {b} c}", "${d}"]),
        ("${a\nb}", ["${a\nb}"]),
        ("${a\n\nb}", []),
        ('${f("a)}', []),
        ("${q[[ open }", []),
        ("${" + "{" * MAX_NESTING + "}" * (MAX_NESTING + 1), []),
        ("$ {a} and ${}", ["${}"]),
    ],
)
def test_an_expression_ends_where_lua_closes_it(text: str, found: list[str]) -> None:
    assert [text[start:end] for start, end in lua_expressions(text)] == found


@given(st.text(alphabet="${}[]\"'=abc |#:\n`", max_size=60))
def test_the_escapes_come_back_out(text: str) -> None:
    """What `silverbullet_links` escapes, `silverbullet_as_written` takes back out (a
    caret or a position it left out aside: none here)."""
    assert silverbullet_as_written(silverbullet_links(text)) == text


def test_code_keeps_its_links_as_written() -> None:
    text = "```space-lua\n-- [[^a@1]]\n```\n`[[tag:x]]` [[tag:y]]\n"
    read = "```space-lua\n-- [[^a@1]]\n```\n`[[tag:x]]` \\[\\[tag:y\\]\\]\n"
    assert silverbullet_links(text) == read
    assert [row[0] for row in extract_link_tuples(silverbullet_links(text))] == []


def test_serve_quotes_a_link_as_the_page_writes_it(tmp_path: Path) -> None:
    brain = Brain(BundleSource(space(tmp_path / "sb")), cache_dir=False)
    rows = call_tool(brain, "get_backlinks", {"slug": "Plain"}).value
    assert [row["context"] for row in rows] == [
        'Counted ${#query[[from index.tag "page"]]} pages, written `${query[[in code]]}`, and '
        "[[Plain]]."
    ]
