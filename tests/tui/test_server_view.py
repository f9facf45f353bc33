"""The audit's per-page view in the explorer (issue 12 points 3 and 5), Pilot tests on
the real gbrain (tests/gbrain_peer.py) and on our own `serve`:

- `browse FOLDER --against URL`: each page's header says `server −N/+M`; the link
  tree marks the links the server lacks, with the cause and fix on the highlighted
  one; a `visibility: private` page the server hid is said to be hidden, never missing;
- a brain over gbrain: every pane answers from the server's graph (Outgoing, Incoming
  and the traversal agree), and the links the text states but the server lacks are
  listed apart, marked (`text only`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from okf_explorer.core.brain import Brain
from okf_explorer.sources.factory import open_source
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.links import LinksDialog
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.status_bar import StatusBar
from tests.mcp_server_fixture import serve_bundle

from .conftest import SIZE, settle

CORPUS = Path(__file__).resolve().parent.parent / "gbrain_client_corpus"


def header(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#page-header", Static).content)


def outgoing(app) -> list[str]:  # type: ignore[no-untyped-def]
    tree = app.screen.query_one(LinkTree)
    return [str(node.label) for node in tree.root.children[0].children]


async def open_view(pilot, app) -> LinkTree:  # type: ignore[no-untyped-def]
    tree = app.screen.query_one(LinkTree)
    await settle(pilot, until=lambda: tree.view is not None)
    await settle(pilot)
    return tree


async def highlight(pilot, tree: LinkTree, text: str) -> str:  # type: ignore[no-untyped-def]
    """Move the cursor to the outgoing node whose label holds `text`; its subtitle."""
    tree.focus()
    for _ in range(20):
        node = tree.cursor_node
        if node is not None and text in str(node.label):
            return tree.link_info
        await pilot.press("down")
    raise AssertionError(f"no node {text!r}")


@pytest.mark.gbrain
async def test_browse_folder_against_gbrain(gbrain_peer) -> None:
    peer = gbrain_peer(CORPUS)
    server = open_source(peer.url, token_file=peer.token_file)
    assert isinstance(server, McpSource)
    brain = Brain(BundleSource(CORPUS), cache_dir=False)
    app = make_app(brain, start="Zettelkasten", against=server)
    try:
        async with app.run_test(size=SIZE) as pilot:
            tree = await open_view(pilot, app)
            assert "server −2/+0" in header(app)
            state = app.screen.query_one(StatusBar).index_state
            assert state == f"indexed · answered by index · compared with {peer.url}"
            assert outgoing(app) == [
                "− devbox/introduction/The reason for being →1",  # the title says no more
                "devbox/devbox.json →1",
                "− devbox/Release Notes v1.2 →1",
                "notes/Daily Note →2",
                "people/alice →2  Alice Example",
            ]
            said = await highlight(pilot, tree, "Release Notes")
            assert said.startswith("Zettelkasten → (devbox/Release Notes v1.2.md) · rule path")
            assert "the server lacks this link: unread_form · write the link as" in said
            app.screen.open_page("devbox/introduction/The reason for being")
            await settle(pilot, until=lambda: tree.slug.startswith("devbox/introduction"))
            await open_view(pilot, app)
            assert "server −0/+0" in header(app)  # its own link is stored
            assert [str(node.label) for node in tree.root.children[1].children] == [
                "− Zettelkasten ←5",  # links into it the server lacks
                "− devbox/devbox.json ←2",
            ]
            app.screen.open_page("notes/Daily Note")  # links to the private page
            await settle(pilot, until=lambda: tree.slug == "notes/Daily Note")
            tree = await open_view(pilot, app)
            assert "server −0/+0" in header(app)
            assert not any(label.startswith("−") for label in outgoing(app))
            app.screen.open_page("notes/Secret Plan")
            await settle(pilot, until=lambda: tree.slug == "notes/Secret Plan")
            await open_view(pilot, app)
            assert "server: private_page" in header(app)
    finally:
        server.close()


@pytest.mark.gbrain
async def test_a_gbrain_brain_answers_every_pane_from_one_graph(gbrain_peer) -> None:
    peer = gbrain_peer(CORPUS)
    brain = Brain(open_source(peer.url, token_file=peer.token_file), cache_dir=False)
    app = make_app(brain, start="zettelkasten")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, until=lambda: app.screen.loader.ready)
        await open_view(pilot, app)
        screen = app.screen
        state = screen.query_one(StatusBar).index_state
        assert state == "indexed · answered by server · text compared"
        tree = screen.query_one(LinkTree)
        out_root, in_root = tree.root.children
        assert str(out_root.label) == "Outgoing (3)"
        assert outgoing(app) == [
            "devbox/devbox.json",
            "people/alice  Alice Example",
            "notes/daily-note",
            "− devbox/introduction/the-reason-for-being  text only",
            "− devbox/release-notes-v1.2  text only",
        ]
        assert "server −2/+0" in header(app)
        panel = screen.query_one(TraversalPanel)
        await settle(pilot, until=lambda: panel.loaded)
        stored = {label.split()[0] for label in outgoing(app) if not label.startswith("−")}
        assert {edge.to for edge in panel.edges} == stored  # the same graph
        await pilot.press("d")  # direction in: the traversal and Incoming agree
        await settle(pilot, until=lambda: panel.loaded and panel.view.direction == "in")
        incoming = {str(node.label).split()[0] for node in in_root.children}
        assert {edge.to for edge in panel.edges} == incoming
        assert str(in_root.label) == f"Incoming ({len(incoming)})" and len(incoming) == 4
        said = await highlight(pilot, tree, "devbox/devbox.json")
        assert "server: markdown" in said and "“# Zettelkasten" in said
        await pilot.press("l")  # the links dialog says what the server says of each link
        await settle(pilot, until=lambda: isinstance(app.screen, LinksDialog))
        rows = {link.slug: str(link.row()) for link in app.screen.links}
        assert rows["devbox/devbox.json"] == (
            "config  devbox/devbox.json.md → devbox/devbox.json  server: markdown · "
            "“# Zettelkasten A method for notes. Read [the reason](./devbox/introduction/The%…”"
        )
        assert rows["devbox/release-notes-v1.2"].endswith(
            "→ devbox/release-notes-v1.2  − unread_form"
        )


@pytest.mark.slow
async def test_browse_folder_against_our_own_serve(tmp_path: Path) -> None:
    """Our `serve` names pages as the files do: the same folder agrees; a copy whose
    page lost a link is found to lack it."""
    served = shutil.copytree(CORPUS, tmp_path / "served")
    (served / "people" / "bob.md").write_text("# Bob\n\nBob reads [[zettelkasten]].\n")
    with serve_bundle(served) as handle:
        server = open_source(handle.url, token_file=None)
        assert isinstance(server, McpSource)
        brain = Brain(BundleSource(CORPUS), cache_dir=False)
        app = make_app(brain, start="people/bob", against=server)
        try:
            async with app.run_test(size=SIZE) as pilot:
                tree = await open_view(pilot, app)
                assert "server −1/+0" in header(app)
                said = await highlight(pilot, tree, "people/alice")
                assert "the server lacks this link: content_differs" in said
                app.screen.open_page("people/alice")
                await settle(pilot, until=lambda: tree.slug == "people/alice")
                await open_view(pilot, app)
                assert "server −0/+0" in header(app)
        finally:
            server.close()


def test_against_needs_a_folder_and_a_server_url(run, tmp_path: Path) -> None:
    status, _, err = run("browse", str(CORPUS), "--against", "not a url")
    assert status == 2 and "is not an http(s)://.../mcp URL" in err
    status, _, err = run("browse", "http://127.0.0.1:9/mcp", "--against", "http://127.0.0.1:9/mcp")
    assert status == 2 and "--against needs a folder" in err


@pytest.mark.gbrain
async def test_scan_over_gbrain_shows_no_existing_page_as_missing(gbrain_peer) -> None:
    """`--scan`: the link tree answers from the page text, path links resolved the way
    gbrain names pages, so no existing page is shown as missing."""
    peer = gbrain_peer(CORPUS)
    brain = Brain(open_source(peer.url, token_file=peer.token_file), scan=True, cache_dir=False)
    app = make_app(brain, start="zettelkasten")
    async with app.run_test(size=SIZE) as pilot:
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: app.screen.loader.ready and tree.slug == "zettelkasten")
        await settle(
            pilot,
            until=lambda: (
                bool(tree.root.children) and str(tree.root.children[0].label).startswith("Out")
            ),
        )
        status = app.screen.query_one(StatusBar).index_state
        assert status == "indexed · answered by index"
        labels = outgoing(app)
        assert [label.split()[0] for label in labels] == [
            "devbox/introduction/the-reason-for-being",
            "devbox/devbox.json",
            "devbox/release-notes-v1.2",
            "notes/daily-note",
            "people/alice",
        ]
        assert not any("missing" in label for label in labels)
