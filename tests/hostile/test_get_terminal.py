"""Issue 22 item 5: `get SLUG` on a terminal shows a body's controls as escapes.

Every other output was escaped, but `get` wrote the body raw: an OSC 0 retitled the
window, `CSI 2J` cleared it, the 8-bit CSI U+009B and the bidi override U+202E went
through, also for bodies served by a hostile MCP server. On a terminal the body is
now shown as `printable` shows names (the layout kept: newlines, tabs, CRLF line
ends); piped or redirected, `get` stays byte-exact.

The terminal is a real pseudo-terminal (`pty.openpty`, in raw mode so the kernel
does not turn `\\n` into `\\r\\n`); the CLI runs in a subprocess, on a bundle and
through our own `serve` on loopback.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_server_fixture import ServerHandle, serve_bundle, subprocess_env

BODY = (
    "# Hostile\n\n"
    "retitle \x1b]0;pwned\x07 clear \x1b[2J csi \x9b2J bidi \u202egnp.exe del \x7f\n"
    "\tindented with a tab\r\n"
    "a windows line end, and a lone \r carriage return\n"
)
SHOWN = (
    "# Hostile\n\n"
    "retitle \\x1b]0;pwned\\x07 clear \\x1b[2J csi \\x9b2J bidi \\u202egnp.exe del \\x7f\n"
    "\tindented with a tab\r\n"
    "a windows line end, and a lone \\r carriage return\n"
)
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("terminal") / "brain"
    root.mkdir()
    (root / "hostile.md").write_bytes(BODY.encode("utf-8"))
    (root / "index.md").write_text("# Home\n\n[[hostile]]\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def server(bundle: Path) -> Iterator[ServerHandle]:
    with serve_bundle(bundle) as handle:
        yield handle


def cli_argv(source: str) -> list[str]:
    return [sys.executable, "-m", "okf_explorer", "get", "hostile", "--source", source]


def on_a_terminal(argv: list[str], env: dict[str, str]) -> bytes:
    """What `argv` writes to stdout when stdout is a terminal (stderr is piped)."""
    leader, follower = pty.openpty()
    tty.setraw(follower)  # bytes as written: no `\n` → `\r\n`
    try:
        process = subprocess.Popen(argv, stdout=follower, stderr=subprocess.PIPE, env=env)
        os.close(follower)
        follower = -1
        received = bytearray()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            received += chunk
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()
        return bytes(received)
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)


def piped(argv: list[str], env: dict[str, str]) -> bytes:
    done = subprocess.run(argv, capture_output=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.mark.parametrize("where", ["bundle", "serve"])
def test_get_on_a_terminal_shows_controls_and_piped_stays_exact(
    bundle: Path, server: ServerHandle, tmp_path: Path, where: str
) -> None:
    source = str(bundle) if where == "bundle" else server.url
    env = subprocess_env(tmp_path)
    shown = on_a_terminal(cli_argv(source), env).decode("utf-8")
    assert shown == SHOWN
    assert RAW_CONTROL.search(shown) is None
    assert piped(cli_argv(source), env) == BODY.encode("utf-8")


def test_printable_body_keeps_the_layout_and_escapes_the_rest() -> None:
    from okf_explorer.core.text_safety import printable_body

    assert printable_body(BODY) == SHOWN
    assert printable_body("plain\n\ttext\r\n") == "plain\n\ttext\r\n"
    assert printable_body("a\r\rb\x1b\n") == "a\\r\\rb\\x1b\n"
