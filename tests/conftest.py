"""Shared test set-up: every test runs with its own index cache and no source or token
taken from the developer's environment; the tiers (pyproject's markers) are kept here.

Tiers: a plain `pytest` runs the default tier (addopts leave out `slow`, `gbrain` and
`browser`); `-m slow`, `-m gbrain`, `-m browser` run the others, and `.ci/run` runs them
all, then the plain pass (tests/plain_pass.py). A test that uses the real gbrain or
Chromium is in that tier whether or not it says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.counting_proxy import counting_proxy  # noqa: F401 - a fixture, for every test
from tests.gbrain_peer import gbrain_peer, peer_group  # noqa: F401 - gbrain_peer: for every test

pytest_plugins = ["tests.plain_pass"]

TIER_OF_FIXTURE = {"gbrain_peer": "gbrain", "browser": "browser"}
"""A test using one of these fixtures needs what is outside the repository: its tier."""

SAMPLE_BRAIN = Path(__file__).resolve().parent.parent / "okf_explorer" / "sample_brain"


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, tier in TIER_OF_FIXTURE.items():
            if fixture in item.fixturenames and item.get_closest_marker(tier) is None:
                item.add_marker(tier)
        if item.get_closest_marker("gbrain") is not None:  # one gbrain per group and worker
            item.add_marker(pytest.mark.xdist_group(peer_group(item)))


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """A private cache directory per test, and no OKF_SOURCE / GBRAIN_* leaking in."""
    cache = tmp_path_factory.mktemp("okf-cache")
    monkeypatch.setenv("OKF_EXPLORER_CACHE", str(cache))
    for name in ("OKF_SOURCE", "GBRAIN_MCP_URL", "GBRAIN_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    yield


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]):
    """`run(*argv)` → (exit status, stdout, stderr): the CLI in-process."""
    from okf_explorer.cli import main

    def runner(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return runner


@pytest.fixture
def sample_brain() -> Path:
    """The bundled sample brain (read-only: never write into it)."""
    return SAMPLE_BRAIN
