"""Failures of the command line: one line on stderr, the right exit status, no traceback,
no token; plus real runs of `python -m okf_explorer` to prove the entry point."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_bundle import LATIN1, make_bundle

from okf_explorer.cli import main
from okf_explorer.cli.commands import pages
from okf_explorer.tui import app as tui_app

SECRET = "gbrain_TOPSECRET_0123456789abcdef"
CLOSED_PORT_URL = "http://127.0.0.1:9/mcp"


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return make_bundle(tmp_path / "brain")


def one_error_line(err: str) -> str:
    """The single `okf-explorer: ...` line of `err` (and assert there is only one)."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("okf-explorer: ")
    assert "Traceback" not in err
    return lines[0]


# --- exit 1 -----------------------------------------------------------------


def test_unknown_page_is_no_page(run, bundle: Path) -> None:
    for argv in (["get", "zzz"], ["links", "zzz"], ["export", "zzz"], ["get", "zzz", "--json"]):
        status, out, err = run(*argv, "--source", str(bundle))
        assert (status, out) == (1, "")
        assert "no page" in one_error_line(err) and "zzz" in err


def test_no_page_suggests_close_slugs(run, bundle: Path) -> None:
    status, _, err = run("links", "note/e", "--source", str(bundle))
    assert status == 1
    assert one_error_line(err) == "okf-explorer: no page 'note/e' (did you mean notes/e?)"


def test_browse_with_unknown_start_opens_the_tui_which_reports_it(
    run, bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolving a name may need the whole index, so the explorer does it after its
    first paint and reports a name that matches nothing (tests/tui/test_faults.py)."""
    started: list[object] = []

    class FakeApp:
        return_code = 0

        def run(self) -> None:
            started.append("run")

    monkeypatch.setattr(tui_app, "make_app", lambda brain, **options: FakeApp())
    assert run("browse", str(bundle), "--start", "zzz") == (0, "", "")
    assert started == ["run"]


def test_dangling_target_is_not_a_page(run, bundle: Path) -> None:
    status, _, err = run("links", "missing", "--source", str(bundle))
    assert status == 1 and "no page" in one_error_line(err)


def test_missing_folder_is_unreachable(run, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    for argv in (["list"], ["get", "a"], ["links", "a"], ["export", "a"]):
        status, out, err = run(*argv, "--source", str(missing))
        assert (status, out) == (1, "")
        assert one_error_line(err) == f"okf-explorer: unreachable: no such folder {missing}"


def test_unreachable_mcp_server(run) -> None:
    status, out, err = run("list", "--source", CLOSED_PORT_URL, "--timeout", "2")
    assert (status, out) == (1, "")
    assert "unreachable" in one_error_line(err)


def test_unreadable_token_file_names_the_file(run, tmp_path: Path) -> None:
    token_file = tmp_path / "no-such-token"
    status, _, err = run("list", "--source", CLOSED_PORT_URL, "--token-file", str(token_file))
    assert status == 1
    assert "cannot read token file" in one_error_line(err) and str(token_file) in err


def test_unexpected_exception_is_one_line(
    run, bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(brain, args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(pages, "run_list", broken)
    status, _, err = run("list", "--source", str(bundle))
    assert status == 1
    assert one_error_line(err) == (
        "okf-explorer: internal error: RuntimeError: boom second line "
        "(run with --debug for details)"
    )
    status, _, err = run("list", "--debug", "--source", str(bundle))
    assert status == 1 and "Traceback" in err and "RuntimeError: boom" in err


def test_ctrl_c_exits_130_quietly(run, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(brain, args):
        raise KeyboardInterrupt

    monkeypatch.setattr(pages, "run_get", interrupted)
    assert run("get", "a", "--source", str(bundle)) == (130, "", "")


# --- exit 2 -----------------------------------------------------------------


def usage_error(err: str) -> str:
    """An argument error is exactly one line on stderr (SPEC §6) that points at --help."""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("okf-explorer") and "--help" in err
    return err.strip()


def test_backlinks_and_direction_are_mutually_exclusive(run, bundle: Path) -> None:
    for argv in (["--backlinks", "--direction", "out"], ["--direction", "in", "--backlinks"]):
        status, out, err = run("links", "a", *argv, "--source", str(bundle))
        assert (status, out) == (2, "")
        assert "mutually exclusive" in usage_error(err)


@pytest.mark.parametrize("value", ["abc", "1.5", ""])
def test_depth_that_is_not_a_whole_number(run, bundle: Path, value: str) -> None:
    status, out, err = run("links", "a", "--depth", value, "--source", str(bundle))
    assert (status, out) == (2, "")
    line = usage_error(err)
    assert "--depth" in line and f"not {value!r}" in line


@pytest.mark.parametrize(
    "argv",
    [
        ["list", "-n", "-1"],
        ["list", "-n", "x"],
        ["list", "--timeout", "0"],
        ["list", "--timeout", "soon"],
        ["export", "a", "--format", "pdf"],
        ["links", "a", "--direction", "up"],
        ["serve", "--port", "70000"],
        ["frobnicate"],
        ["get"],
    ],
)
def test_bad_arguments_exit_2(run, bundle: Path, argv: list[str]) -> None:
    status, out, err = run(*argv, "--source", str(bundle))
    assert (status, out) == (2, "")
    assert "error:" in usage_error(err)


# --- tokens never shown ----------------------------------------------------------


def test_token_never_appears_in_any_output(
    run, bundle: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GBRAIN_TOKEN", SECRET)
    token_file = tmp_path / "token"
    token_file.write_text(SECRET + "\n", encoding="utf-8")
    credentialed = f"http://user:{SECRET}@127.0.0.1:9/mcp?token={SECRET}"
    runs = [
        ("list", "--source", str(bundle)),
        ("get", "nope", "--source", str(bundle), "--token-file", str(token_file)),
        ("list", "--source", credentialed, "--timeout", "2"),
        ("list", "--source", credentialed, "--timeout", "2", "--debug"),
        ("links", "a", "--source", "ftp://x:" + SECRET + "@host/mcp"),
        ("list", "--source", CLOSED_PORT_URL, "--token-file", str(token_file)),
        ("list", "--source", CLOSED_PORT_URL, "--debug", "--timeout", "2"),
    ]
    for argv in runs:
        status, out, err = run(*argv)
        assert SECRET not in out and SECRET not in err, argv
    assert status == 1


# --- real processes ------------------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OKF_SOURCE", "GBRAIN_MCP_URL")}
    env.pop("GBRAIN_TOKEN", None)
    env.update(extra)
    return env


def cli_process(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "okf_explorer", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(**env),
        check=False,
    )


def test_entry_point_runs_and_fails_cleanly(bundle: Path) -> None:
    done = cli_process("links", "a", "--source", str(bundle), GBRAIN_TOKEN=SECRET)
    assert (done.returncode, done.stdout, done.stderr) == (0, "b\nc\nmissing\nd\n", "")
    failed = cli_process("get", "zzz", "--source", str(bundle), GBRAIN_TOKEN=SECRET)
    assert failed.returncode == 1 and failed.stdout == ""
    assert "no page" in one_error_line(failed.stderr)
    gone = cli_process("list", "--source", str(bundle / "gone"))
    assert gone.returncode == 1 and "unreachable" in one_error_line(gone.stderr)
    for done in (failed, gone):
        assert SECRET not in done.stdout + done.stderr


def test_environment_source_in_a_real_process(bundle: Path) -> None:
    done = cli_process("list", "-n", "2", OKF_SOURCE=str(bundle))
    assert (done.returncode, done.stdout, done.stderr) == (0, "a\ttable\nb\tmetric\n", "")


def test_broken_pipe_into_head_is_quiet(bundle: Path) -> None:
    """`get big | head -1`: whether the kernel reports the closed pipe as a short
    write (exit 0) or as EPIPE (exit 141), nothing may appear on stderr."""
    big = "".join(f"line {i} of a long page\n" for i in range(100_000))  # ~2.5 MB > pipe
    (bundle / "big.md").write_text(big, encoding="utf-8")
    producer = subprocess.Popen(
        [sys.executable, "-m", "okf_explorer", "get", "big", "--source", str(bundle)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    assert producer.stdout is not None and producer.stderr is not None
    head = subprocess.run(
        ["head", "-1"], stdin=producer.stdout, capture_output=True, text=True, timeout=60
    )
    producer.stdout.close()
    err = producer.stderr.read().decode()
    producer.stderr.close()
    status = producer.wait(timeout=60)
    assert head.stdout == "line 0 of a long page\n"
    assert (err, status in (0, 141)) == ("", True)


def test_reader_gone_before_output_exits_141_quietly(bundle: Path) -> None:
    """A pipe with no reader at all: the write fails with EPIPE for certain."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "okf_explorer", "list", "--source", str(bundle)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_broken_pipe_in_process(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    captured, sys.stdout = sys.stdout, ClosedPipe()
    try:
        status = main(["list", "--source", str(bundle)])
    finally:
        sys.stdout = captured
    assert (status, capsys.readouterr().err) == (141, "")


# --- over MCP, against our own server -------------------------------------------------


def test_cli_over_mcp_matches_the_folder_and_hides_the_token(
    run, bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`serve` a bundle, then read it back over MCP: the same answers, the token never shown.

    The server's stored graph drops dangling targets (SPEC §4), so `links` is
    compared with `--scan`, and the plain answer is the forward links that exist.
    """
    from tests.mcp_server_fixture import serve_bundle

    (bundle / LATIN1).unlink()  # see test_scan_over_mcp_survives_an_unreadable_page
    folder = {
        argv: run(*argv, "--source", str(bundle))
        for argv in [("list",), ("links", "a", "--scan"), ("get", "a"), ("get", "Alpha")]
    }
    with serve_bundle(bundle, token=SECRET) as server:
        monkeypatch.setenv("GBRAIN_TOKEN", SECRET)
        for argv, expected in folder.items():
            assert run(*argv, "--source", server.url) == expected, argv
        assert run("links", "a", "--source", server.url) == (0, "b\nc\nd\n", "")
        listed = json.loads(run("list", "--json", "--source", server.url)[1])
        assert {row["tags"] is None for row in listed} == {True}  # unknown, not "no tags"
        scanned = json.loads(run("list", "--json", "--scan", "--source", server.url)[1])
        folder_rows = json.loads(run("list", "--json", "--source", str(bundle))[1])
        assert [row["tags"] for row in scanned] == [row["tags"] for row in folder_rows]
        token_file = tmp_path / "token"
        token_file.write_text(SECRET, encoding="utf-8")
        monkeypatch.delenv("GBRAIN_TOKEN")
        listed = run("list", "--source", server.url, "--token-file", str(token_file))
        assert listed == folder[("list",)]
        monkeypatch.setenv("GBRAIN_TOKEN", "wrong-" + SECRET)
        status, out, err = run("list", "--source", server.url)
    assert (status, out) == (1, "")
    assert "$GBRAIN_TOKEN" in one_error_line(err)
    assert SECRET not in err


def test_scan_over_mcp_survives_an_unreadable_page(run, bundle: Path) -> None:
    from tests.mcp_server_fixture import serve_bundle

    expected = run("links", "a", "--scan", "--source", str(bundle))
    with serve_bundle(bundle) as server:
        assert run("links", "a", "--scan", "--source", server.url) == expected


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_one_clear_line(bundle: Path) -> None:
    command = [sys.executable, "-m", "okf_explorer", "list", "--source", str(bundle)]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, env=_env()
        )
    assert done.returncode == 1
    assert done.stderr == "okf-explorer: cannot write output: no space left on device\n"
    closed = subprocess.run(
        command,
        stdout=None,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        env=_env(),
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert closed.returncode == 1
    assert closed.stderr == "okf-explorer: cannot write output: standard output is closed\n"
