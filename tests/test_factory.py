"""The source factory: which source a spec names, tokens, and credentials kept out of sight."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.errors import AuthError, SourceUnavailable
from okf_explorer.sources.factory import (
    SAMPLE_BRAIN,
    Token,
    open_source,
    read_token,
    resolve_spec,
)
from okf_explorer.sources.gbrain import source as mcp_module
from okf_explorer.sources.gbrain.transport import redact_url, url_secrets
from tests.bundles import write_bundle

SECRET = "gbrain_s3cr3t-t0ken-XYZ"


TWO_PAGES = {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"}


def test_default_is_the_bundled_sample_brain() -> None:
    spec = resolve_spec(None)
    assert (spec.kind, spec.origin) == ("folder", "sample brain")
    assert Path(spec.location) == SAMPLE_BRAIN
    assert (SAMPLE_BRAIN / "index.md").is_file()


def test_environment_chain_okf_source_before_gbrain_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GBRAIN_MCP_URL", "http://127.0.0.1:9/mcp")
    assert resolve_spec(None) == resolve_spec(None)
    assert (resolve_spec(None).kind, resolve_spec(None).origin) == ("url", "$GBRAIN_MCP_URL")
    monkeypatch.setenv("OKF_SOURCE", str(tmp_path))
    spec = resolve_spec(None)
    assert (spec.kind, spec.location, spec.origin) == ("folder", str(tmp_path), "$OKF_SOURCE")
    # An explicit spec beats both; an empty variable counts as unset.
    assert resolve_spec("./x").origin == "--source"
    monkeypatch.setenv("OKF_SOURCE", "  ")
    assert resolve_spec(None).origin == "$GBRAIN_MCP_URL"


def test_open_folder_gives_a_bundle(tmp_path: Path) -> None:
    root = write_bundle(tmp_path / "brain", TWO_PAGES)
    source = open_source(str(root))
    try:
        assert [stub.slug for stub in source.enumerate()] == ["a", "b"]
        assert source.local_root == root.resolve()
    finally:
        source.close()


def test_open_folder_from_okf_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    root = write_bundle(tmp_path / "env-brain", TWO_PAGES)
    monkeypatch.setenv("OKF_SOURCE", str(root))
    source = open_source(None)
    try:
        assert [stub.slug for stub in source.enumerate()] == ["a", "b"]
    finally:
        source.close()


def test_missing_folder_is_unreachable_with_its_name(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(SourceUnavailable) as caught:
        open_source(str(missing))
    assert str(caught.value) == f"unreachable: no such folder {missing}"


def test_missing_folder_from_environment_says_where_it_came_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OKF_SOURCE", "./definitely-not-here")
    with pytest.raises(SourceUnavailable, match=r"unreachable: .*\(from \$OKF_SOURCE\)"):
        open_source(None)


def test_a_file_is_not_a_bundle(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("x", encoding="utf-8")
    with pytest.raises(SourceUnavailable, match=r"^unreachable: .*page\.md is not a folder"):
        open_source(str(page))


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ftp://example.org/mcp", "unsupported URL scheme 'ftp'"),
        ("http:///mcp", "no host"),
        ("http://127.0.0.1:99999/mcp", "invalid URL"),
    ],
)
def test_unusable_urls_are_unreachable(spec: str, words: str) -> None:
    with pytest.raises(SourceUnavailable) as caught:
        open_source(spec)
    assert str(caught.value).startswith("unreachable: ")
    assert words in str(caught.value)


def test_redact_url_hides_credentials_and_secret_parameters() -> None:
    url = f"https://alice:{SECRET}@brain.example.org:8443/mcp?token={SECRET}&page=2"
    shown = redact_url(url)
    assert shown == "https://***@brain.example.org:8443/mcp?token=***&page=2"
    assert SECRET not in shown and "alice" not in shown
    assert redact_url("http://127.0.0.1:8792/mcp") == "http://127.0.0.1:8792/mcp"
    assert set(url_secrets(url)) == {SECRET, "alice"}


def test_credentials_never_in_errors_or_labels(tmp_path: Path) -> None:
    url = f"gopher://bob:{SECRET}@host/mcp"
    with pytest.raises(SourceUnavailable) as caught:
        open_source(url)
    assert SECRET not in str(caught.value)
    assert SECRET not in resolve_spec(url).label
    assert "***@host" in resolve_spec(url).label


def test_token_from_file_is_stripped_and_named(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(f"  {SECRET}\n\n", encoding="utf-8")
    token = read_token(token_file)
    assert token == Token(SECRET, f"--token-file {token_file}")
    assert SECRET not in repr(token)


def test_token_file_beats_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GBRAIN_TOKEN", "from-env")
    token_file = tmp_path / "token"
    token_file.write_text("from-file", encoding="utf-8")
    assert read_token(token_file).value == "from-file"
    assert read_token(None) == Token("from-env", "$GBRAIN_TOKEN")


def test_no_token_anywhere() -> None:
    assert read_token(None) == Token(None, "no token")


def test_unreadable_or_empty_token_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing-token"
    with pytest.raises(AuthError, match=r"cannot read token file .*missing-token"):
        read_token(missing)
    empty = tmp_path / "empty-token"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(AuthError, match=r"token file .*empty-token is empty"):
        read_token(empty)


def test_bad_token_file_fails_before_connecting(tmp_path: Path) -> None:
    with pytest.raises(AuthError, match="cannot read token file"):
        open_source("http://127.0.0.1:9/mcp", token_file=tmp_path / "none")


def test_url_opens_an_mcp_source_with_token_source(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, object] = {}

    class Recorder:
        def __init__(self, url: str, **options: object) -> None:
            seen.update(options, url=url)

    monkeypatch.setattr(mcp_module, "McpSource", Recorder)
    token_file = tmp_path / "token"
    token_file.write_text(SECRET, encoding="utf-8")
    open_source("http://127.0.0.1:9/mcp", token_file=token_file, timeout=2.5, concurrency=3)
    assert seen == {
        "url": "http://127.0.0.1:9/mcp",
        "token": SECRET,
        "token_source": f"--token-file {token_file}",
        "timeout": 2.5,
        "concurrency": 3,
    }
    seen.clear()
    open_source("http://127.0.0.1:9/mcp")
    assert seen == {"url": "http://127.0.0.1:9/mcp", "token": None, "token_source": "no token"}
