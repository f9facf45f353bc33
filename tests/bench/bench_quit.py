"""Benchmark: from `q` to the shell prompt, in a real terminal (a pty).

Run: `.venv/bin/python tests/bench/bench_quit.py [FOLDER] [runs]` (default the sample
brain, 5 runs). Not collected by pytest. Each run starts `okf-explorer browse FOLDER`
in a 150x45 pseudo-terminal, waits until the status line says the index is built and
one more second, sends `q` and times until the process has ended (its exit status
collected), with fast paths on and with `OKF_EXPLORER_PLAIN=1` (Textual's own quit:
it waits for its input thread, then the interpreter tears the index down).

Target: quit <= 0.2 s on a 6.5k-page vault.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SAMPLE = REPO / "okf_explorer" / "sample_brain"
EXPLORER = REPO / ".venv" / "bin" / "okf-explorer"
READY = b"indexed"
"""What the status line says once the index is built (the quit then drops a whole index)."""


def drain(fd: int, until: float, wanted: bytes | None = None) -> bytes:
    """Read the terminal until `wanted` appears or `until` (monotonic) passes."""
    seen = b""
    while time.monotonic() < until:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen = (seen + chunk)[-65536:]
            if wanted is not None and wanted in seen:
                break
    return seen


def one_quit(folder: Path, plain: bool) -> float:
    """Seconds from writing `q` to the child's exit, one run."""
    env = dict(os.environ, TERM="xterm-256color")
    env["OKF_EXPLORER_PLAIN"] = "1" if plain else ""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(str(EXPLORER), [str(EXPLORER), "browse", str(folder)], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 150, 0, 0))
    seen = drain(fd, time.monotonic() + 60, READY)
    if READY not in seen:
        raise SystemExit(f"the index was not built within 60 s: {seen[-400:]!r}")
    drain(fd, time.monotonic() + 1.0)
    start = time.monotonic()
    os.write(fd, b"q")
    while True:
        drain(fd, time.monotonic() + 0.005)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    took = time.monotonic() - start
    os.close(fd)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"browse exited with {os.waitstatus_to_exitcode(status)}")
    return took


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"q to the prompt, {folder} ({runs} runs each)")
    for plain in (False, True):
        times = [one_quit(folder, plain) for _ in range(runs)]
        label = "plain (Textual's quit)" if plain else "fast quit"
        print(
            f"  {label:24} best {min(times) * 1000:6.0f} ms"
            f"  median {statistics.median(times) * 1000:6.0f} ms"
        )


if __name__ == "__main__":
    main()
