"""`okf-explorer web` in a real browser: headless Debian Chromium driven by Playwright.

One browser for the module; each test gets a fresh context (no cookies). The screen
is read from the page's xterm.js buffer (tests/web_fixture.py says how).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.web_fixture import (
    WebServer,
    launch_chromium,
    new_page,
    open_explorer,
    screen_text,
    serve_web,
    wait_for_screen,
    web_env,
)

TOKEN = "browser-token-77"
EXTERNAL = "https://example.invalid/okf-docs"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)  # fails, not skips, without Chromium
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def sample_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    cache = tmp_path_factory.mktemp("web-cache")
    with serve_web(env=web_env(cache)) as server:
        yield server


@pytest.fixture(scope="module")
def server_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The gated server's working folder: an export must not land here."""
    return tmp_path_factory.mktemp("web-cwd")


@pytest.fixture(scope="module")
def gated_server(
    tmp_path_factory: pytest.TempPathFactory, server_folder: Path
) -> Iterator[WebServer]:
    bundle = tmp_path_factory.mktemp("web-bundle")
    (bundle / "index.md").write_text(
        f"# Home\n\nSee [[notes]] and [the docs]({EXTERNAL}).\n", encoding="utf-8"
    )
    (bundle / "notes.md").write_text("# Notes\n\nBack to [[index]].\n", encoding="utf-8")
    token_file = tmp_path_factory.mktemp("web-token") / "token"
    token_file.write_text(TOKEN, encoding="utf-8")
    cache = tmp_path_factory.mktemp("web-cache")
    args = (str(bundle), "--token-file", str(token_file), "--start", "index")
    with serve_web(*args, env=web_env(cache), cwd=server_folder) as server:
        yield server


def test_explorer_in_the_browser_answers_its_keys(
    browser: Any, sample_server: WebServer, tmp_path: Path
) -> None:
    page = new_page(browser)
    open_explorer(page, sample_server.url)
    assert "index · depth 1 · out" in screen_text(page)
    page.keyboard.press("+")
    wait_for_screen(page, "index · depth 2 · out")
    page.keyboard.press("d")
    wait_for_screen(page, "index · depth 2 · in")
    page.keyboard.press("d")
    wait_for_screen(page, "index · depth 2 · both")
    page.keyboard.press("b")
    screen = wait_for_screen(page, "index · depth 2 · in")
    assert "Harbor & Bean Data Brain" in screen
    shot = tmp_path / "web.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    page.context.close()


def test_token_from_the_url_fragment_once_or_from_the_form(
    browser: Any, gated_server: WebServer
) -> None:
    page = new_page(browser)
    open_explorer(page, gated_server.url + f"#token={TOKEN}")
    assert "#" not in page.url and TOKEN not in page.url  # taken once, then dropped
    page.context.close()

    page = new_page(browser)  # a browser without the cookie: the sign-in page
    page.goto(gated_server.url)
    assert "needs the server's token" in page.content()
    page.fill("#token", "not-it")
    page.click("button")
    assert "not right" in page.content()
    page.fill("#token", TOKEN)
    page.click("button")
    page.wait_for_function("() => window.__okfTerminal !== undefined")
    wait_for_screen(page, "index · depth 1 · out")
    page.context.close()
    assert TOKEN not in "\n".join(gated_server.stderr_lines)


def test_export_is_a_download_not_a_file_on_the_server(
    browser: Any, gated_server: WebServer, server_folder: Path
) -> None:
    page = new_page(browser)
    open_explorer(page, gated_server.url + f"#token={TOKEN}")
    offered: list[Any] = []  # the page opens a tab on /download/KEY, which downloads
    page.context.on("response", lambda reply: "/download/" in reply.url and offered.append(reply))
    page.keyboard.press("e")
    for _ in range(200):
        if offered:
            break
        page.wait_for_timeout(50)
    assert offered, "no download was offered"
    reply = offered[0]
    assert reply.status == 200
    disposition = reply.headers["content-disposition"]
    assert disposition == "attachment; filename=okf-index-d1-out.json"
    wait_for_screen(page, "download okf-index-d1-out.json")
    assert list(server_folder.iterdir()) == []
    page.context.close()


def test_external_link_opens_in_a_new_tab(browser: Any, gated_server: WebServer) -> None:
    page = new_page(browser)
    open_explorer(page, gated_server.url + f"#token={TOKEN}")
    page.keyboard.press("l")  # the page's links, in order: the external one is second
    wait_for_screen(page, "example.invalid")
    asked: list[str] = []  # the new tab asks for the URL (cut off: no network here)
    page.context.on("request", lambda request: asked.append(request.url))
    with page.context.expect_event("page") as opened:
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
    assert opened.value != page
    opened.value.wait_for_load_state()
    assert EXTERNAL in asked
    assert "Home" in screen_text(page)  # the explorer stays where it was
    page.context.close()
