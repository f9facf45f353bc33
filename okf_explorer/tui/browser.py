"""A web address a reader follows, handed to a browser that does not take the terminal.

Textual's `App.open_url` calls Python's `webbrowser.open` on the event loop. With no
display (a server over ssh), `webbrowser` falls back to the terminal browsers it finds
(`www-browser`, `links`, `elinks`, `lynx`, `w3m`) and runs one in the foreground: in the
explorer's own terminal, drawing over its screen, the explorer frozen until it quits.

So, in a terminal, the browser is looked up and started in a thread (the first lookup
searches the `PATH` for a dozen browsers), never on the loop; a terminal browser is not
started: the address is copied to the clipboard instead (`App.copy_to_clipboard`, the
terminal's OSC 52, which ssh carries to the reader's machine), and the reader is told. In
a browser tab (`okf-explorer web`) the tab opens it, as Textual does.
"""

from __future__ import annotations

import os
import webbrowser

from textual.app import App

from okf_explorer.core.text_safety import printable

TERMINAL_BROWSERS = frozenset({"www-browser", "links", "links2", "elinks", "lynx", "w3m"})
"""Browsers that draw in the terminal they are started from (`webbrowser`'s own list,
and `links2`)."""


def window_browser() -> webbrowser.BaseBrowser | None:
    """The browser `webbrowser.open` would use, unless it is a terminal browser run in
    the foreground (`webbrowser.GenericBrowser` waits for it), or there is none."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return None
    foreground = isinstance(browser, webbrowser.GenericBrowser) and not isinstance(
        browser, webbrowser.BackgroundBrowser
    )
    if foreground and os.path.basename(browser.name) in TERMINAL_BROWSERS:
        return None
    return browser


def open_outside(app: App[object], url: str) -> str:
    """Open `url` outside the explorer (call it in a thread, not on the loop); what was
    done, as a notice for the reader."""
    shown = printable(url)
    if app.is_web:
        app.call_from_thread(app.open_url, url)
        return f"{shown} is not a page here: opened in a new tab"
    browser = window_browser()
    if browser is not None and browser.open(url):
        return f"{shown} is not a page here: asked your browser to open it"
    app.call_from_thread(app.copy_to_clipboard, url)
    return f"{shown} is not a page here, and no browser opens it outside this terminal: copied"
