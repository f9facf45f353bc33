"""`serve`'s last line when it stops: said once, and never cut off by the watchdog.

Over stdio the main thread can return (the client closed stdin right after the signal)
while the watchdog is about to end the process: both ask to say the line, and the one
that comes second must wait until it is out (CI once saw the line missing)."""

from __future__ import annotations

import threading
import time

from okf_explorer.server.mcp_app import Shutdown


def test_the_second_caller_waits_until_the_line_is_said() -> None:
    shutdown = Shutdown()
    shutdown.request("SIGTERM")
    said: list[str] = []
    started = threading.Event()

    def slow_say(line: str) -> None:
        started.set()
        time.sleep(0.2)  # a terminal slow to take the line
        said.append(line)

    first = threading.Thread(target=shutdown.say_last_word, args=(slow_say,))
    first.start()
    started.wait(5)
    shutdown.say_last_word(said.append)  # the watchdog, about to end the process
    assert said == ["stopped (SIGTERM)"]  # out before the second caller went on
    first.join(5)
    assert said == ["stopped (SIGTERM)"]


def test_the_line_counts_the_calls_the_stop_cancelled() -> None:
    shutdown = Shutdown()
    said: list[str] = []
    shutdown.running(lambda: shutdown.request("SIGINT"))
    shutdown.say_last_word(said.append)
    assert said == ["stopped (SIGINT); 1 call in flight cancelled"]
