"""Python's full collections run while the person reads, between keys
(`tui/collector_at_rest.py`); with fast paths off the collector is Python's alone."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from textual import work
from textual.app import App
from textual.binding import BindingType

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui import collector_at_rest
from okf_explorer.tui.app import make_app
from okf_explorer.tui.collector_at_rest import EARLY, REST, CollectorAtRest
from okf_explorer.tui.state.live_reload import WATCH_GROUP

from .conftest import SIZE, brain_for, settle


@pytest.fixture
def at_rest() -> Iterator[list[float]]:
    """When each full collection made at rest started (`time.monotonic()`); Python's own
    full collections are not counted."""
    started: list[float] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase != "start" or info["generation"] != 2:
            return
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_name != "collect_if_due":
            frame = frame.f_back
        if frame is not None:
            started.append(time.monotonic())

    gc.callbacks.append(note)
    try:
        yield started
    finally:
        gc.callbacks.remove(note)


def make_a_full_collection_worth_it() -> None:
    """`EARLY` partial collections of the middle generation since the last full one (and
    far from Python's own full collection, at 10: done before each key, no key's
    allocations bring that one on and reset the count)."""
    gc.collect()
    for _ in range(EARLY):
        gc.collect(1)


def test_a_full_collection_runs_only_when_worth_it(at_rest: list[float]) -> None:
    collector = CollectorAtRest()
    gc.collect()
    collector.collect_if_due()
    assert not at_rest
    make_a_full_collection_worth_it()
    collector.collect_if_due()
    assert len(at_rest) == 1
    assert gc.get_count()[2] == 0


def test_nothing_is_collected_while_an_index_build_pauses_the_collector(
    at_rest: list[float],
) -> None:
    make_a_full_collection_worth_it()
    gc.disable()
    try:
        CollectorAtRest().collect_if_due()
    finally:
        gc.enable()
    assert not at_rest


async def test_the_collection_runs_once_the_keys_rest(
    small_bundle: Path, at_rest: list[float]
) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        at_rest.clear()
        for key in ("down", "down", "up"):
            make_a_full_collection_worth_it()
            last_key = time.monotonic()  # the key is seen after this
            await pilot.press(key)
        await pilot.pause()
        await asyncio.sleep(REST + 0.3)
    assert at_rest, "the collection ran at rest"
    assert all(started >= last_key + REST for started in at_rest)


async def test_each_key_puts_the_collection_off(small_bundle: Path, at_rest: list[float]) -> None:
    """Keys a tenth of a second apart: nothing collected between them, once after."""
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        at_rest.clear()
        pressed: list[float] = []
        for key in ("down", "up") * 2:
            make_a_full_collection_worth_it()
            pressed.append(time.monotonic())  # the key is seen after this
            await pilot.press(key)
            await asyncio.sleep(0.1)
        await asyncio.sleep(REST + 0.3)
    assert at_rest
    for started in at_rest:
        keys_before = [moment for moment in pressed if moment <= started]
        assert started >= keys_before[-1] + REST, "never sooner than REST after a key"


@pytest.mark.plain  # the plain pass: the collector is Python's alone
async def test_with_fast_paths_off_nothing_is_collected_at_rest(
    small_bundle: Path, at_rest: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OKF_EXPLORER_PLAIN", "1")
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        make_a_full_collection_worth_it()
        await pilot.press("down")
        await pilot.pause()
        await asyncio.sleep(REST + 0.3)
    assert not at_rest


class SlowKeyApp(CollectorAtRest, App[None]):
    """`w` starts work in a thread that outlasts `REST` (as the first `/` on a big wiki
    reads its names); the file watcher's worker runs all along."""

    BINDINGS: ClassVar[list[BindingType]] = [("w", "slow_work")]

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.done_at = 0.0
        self.work_seconds = REST + 0.3

    def on_mount(self) -> None:
        self.watch_for_good()

    @work(thread=True, group=WATCH_GROUP)
    def watch_for_good(self) -> None:
        self.release.wait(10)

    @work(thread=True)
    def action_slow_work(self) -> None:
        time.sleep(self.work_seconds)
        self.done_at = time.monotonic()


async def test_the_collection_waits_for_the_work_a_key_started(at_rest: list[float]) -> None:
    """A key whose work runs past `REST`: nothing collected meanwhile (it fell between a
    big wiki's names read and their list shown); collected once the work has ended and
    the keys rest, the watcher running all the while."""
    app = SlowKeyApp()
    async with app.run_test() as pilot:
        make_a_full_collection_worth_it()
        await pilot.press("w")
        while not app.done_at:
            await asyncio.sleep(0.02)
        await asyncio.sleep(2 * REST + 0.2)
        app.release.set()
    assert at_rest, "collected once the work had ended"
    assert all(started >= app.done_at for started in at_rest), "nothing while it ran"


async def test_work_running_for_seconds_no_longer_puts_the_collection_off(
    at_rest: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(collector_at_rest, "REST_MOST", REST + 0.1)
    app = SlowKeyApp()
    app.work_seconds = 3 * REST
    async with app.run_test() as pilot:
        make_a_full_collection_worth_it()
        pressed = time.monotonic()
        await pilot.press("w")
        while not app.done_at:
            await asyncio.sleep(0.02)
        app.release.set()
    assert at_rest and at_rest[0] < app.done_at  # collected while the work still ran
    assert at_rest[0] >= pressed + 2 * REST
