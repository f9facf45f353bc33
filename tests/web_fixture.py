"""`okf-explorer web` as a subprocess on a loopback port, and the headless Chromium
that drives it (tests, the web benchmark and screenshots/web.py share them).

Reading the screen: textual-serve's page draws with xterm.js on a canvas and keeps
its terminal object in a closure. `TERMINAL_HOOK`, run before the page's own
scripts, catches that object as its constructor stores `websocket_url`, so
`screen_text` can read the terminal buffer row by row.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
START_TIMEOUT = 60.0
EXPLORER_TIMEOUT_MS = 30_000

TERMINAL_HOOK = """
Object.defineProperty(Object.prototype, "websocket_url", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "websocket_url",
      {value, writable: true, configurable: true, enumerable: true});
    window.__okfTerminal = this;
  },
});
"""

SCREEN_TEXT = """() => {
  const holder = window.__okfTerminal;
  const terminal = holder && holder.terminal;
  if (!terminal) return "";
  const buffer = terminal.buffer.active;
  const rows = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
}"""

EXPLORER_SHOWN = f"({SCREEN_TEXT})().includes(' · depth ')"
"""The explorer has painted: the traversal panel's title is on screen."""


@dataclass
class WebServer:
    """A running `okf-explorer web`: its process, URL and what it printed on stderr."""

    process: subprocess.Popen[bytes]
    url: str
    stderr_lines: list[str] = field(default_factory=list)

    def stop(self, timeout: float = 20.0) -> int:
        """SIGINT, as Ctrl-C sends; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=timeout)

    def sessions(self) -> list[int]:
        """The explorer processes this server runs now (its child processes)."""
        return child_pids(self.process.pid)


def web_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "okf_explorer", "web", "--port", "0", *args]


@contextlib.contextmanager
def serve_web(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Iterator[WebServer]:
    """Start `okf-explorer web ARGS` on a free loopback port; stop it on exit (SIGINT)."""
    process = subprocess.Popen(
        web_command(*args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
    )
    lines: list[str] = []
    first = threading.Event()

    def read_stderr() -> None:
        assert process.stderr is not None
        for raw in process.stderr:
            lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
            first.set()
        first.set()

    threading.Thread(target=read_stderr, daemon=True).start()
    try:
        if not first.wait(START_TIMEOUT) or not lines:
            raise RuntimeError(f"okf-explorer web did not start: {lines}")
        found = re.search(r"http://\S+/", lines[0])
        if found is None:
            raise RuntimeError(f"okf-explorer web printed no URL: {lines}")
        server = WebServer(process, found.group(0), lines)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def child_pids(pid: int) -> list[int]:
    """The live child processes of `pid` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def gone(pids: Sequence[int], timeout: float = 15.0) -> bool:
    """Whether every process in `pids` has ended (waits up to `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() and not _zombie(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _zombie(pid: int) -> bool:
    with contextlib.suppress(OSError, IndexError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat[stat.rindex(")") + 2 :].split()[0] == "Z"
    return False


def wait_for(predicate: Any, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


# --- the browser ---------------------------------------------------------------


def launch_chromium(playwright: Any) -> Any:
    """Headless Debian Chromium (Playwright's own browser download is never used)."""
    if not CHROMIUM.exists():
        raise RuntimeError(
            f"Chromium is missing ({CHROMIUM}): install the Debian package `chromium` "
            "(.ci/run does: apt-get install -y chromium)"
        )
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
    )


def new_page(browser: Any, *, width: int = 1280, height: int = 800) -> Any:
    """A page in a fresh context (no cookies), hooked to read the terminal; requests
    that leave the machine (the page's web font) are cut off at once."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
    context.add_init_script(TERMINAL_HOOK)
    return context.new_page()


def open_explorer(page: Any, url: str) -> None:
    """Load `url` and wait until the explorer has painted; give it the keyboard."""
    page.goto(url)
    page.wait_for_function(EXPLORER_SHOWN, timeout=EXPLORER_TIMEOUT_MS, polling=50)
    page.locator(".xterm-helper-textarea").focus()


def screen_text(page: Any) -> str:
    return str(page.evaluate(SCREEN_TEXT))


def wait_for_screen(page: Any, text: str, timeout_ms: int = EXPLORER_TIMEOUT_MS) -> str:
    """Wait until the terminal shows `text`; returns the screen."""
    script = f"(wanted) => ({SCREEN_TEXT})().includes(wanted)"
    page.wait_for_function(script, arg=text, timeout=timeout_ms, polling=50)
    return screen_text(page)


def web_env(cache: Path, **extra: str) -> dict[str, str]:
    """The environment for a server started outside a test's own fixtures."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("OKF_SOURCE", "GBRAIN_MCP_URL", "GBRAIN_TOKEN", "OKF_EXPORT_DIR")
    }
    env["OKF_EXPLORER_CACHE"] = str(cache)
    env.update(extra)
    return env
