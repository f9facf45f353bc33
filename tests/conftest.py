"""Shared test set-up: every test runs with its own index cache and no
source or token taken from the developer's environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.counting_proxy import counting_proxy  # noqa: F401 - a fixture, for every test
from tests.gbrain_peer import gbrain_peer  # noqa: F401 - the session fixture, for every test

SAMPLE_BRAIN = Path(__file__).resolve().parent.parent / "okf_explorer" / "sample_brain"


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
