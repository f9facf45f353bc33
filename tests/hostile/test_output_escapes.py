"""Issue 7, item 6: page names holding ESC, newlines, tabs, C1 or bidi controls are
printed as visible escapes by every human-readable CLI line and error, while
`--json` keeps them exact. Local bundles and a real loopback server (our `serve`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from okf_explorer.cli import main
from okf_explorer.core.text_safety import json_text, printable, reversible
from tests.mcp_server_fixture import serve_bundle, subprocess_env

ESC_TITLE = "esc\x1b]0;pwned\x07"  # would retitle the terminal
NEWLINE = "two\nlines"  # would split a listing row
TAB = "tab\there"  # would shift the type column
C1 = "csi\x9b2J"  # an 8-bit CSI
BIDI = "bidi\u202egnp.exe"  # shows as "bidiexe.png"
DEL = "del\x7f"
HOSTILE = [ESC_TITLE, NEWLINE, TAB, C1, BIDI, DEL]
# Raw characters no human-readable line may hold (tab and newline are checked by shape).
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _percent(name: str) -> str:
    return "".join(c if c.isalnum() else "".join(f"%{b:02X}" for b in c.encode()) for c in name)


@pytest.fixture
def hostile_bundle(tmp_path: Path) -> Path:
    """An index linking to one page per hostile name; each links back."""
    root = tmp_path / "brain"
    root.mkdir()
    links = " ".join(f"[p]({_percent(name)}.md)" for name in HOSTILE)
    (root / "index.md").write_text(f"# Home\n\n{links}\n", encoding="utf-8")
    for name in HOSTILE:
        front = '---\ntype: "ty\\e[31mpe"\n---\n' if name == ESC_TITLE else ""
        (root / f"{name}.md").write_text(f"{front}back to [[index]]\n", encoding="utf-8")
    return root


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_escaping_convention() -> None:
    assert printable("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert printable("a\nb\tc\rd") == "a\\nb\\tc\\rd"
    assert printable("\x00\x7f\x85\x9b") == "\\x00\\x7f\\x85\\x9b"
    shown = printable("x\u202ey\u2066z\u2028\ud800\ufffe")
    assert shown == "x\\u202ey\\u2066z\\u2028\\ud800\\ufffe"
    assert printable("plain/ünïcode 名前 \\ ok") == "plain/ünïcode 名前 \\ ok"  # untouched
    assert printable("a\nb\x1b", multiline=True) == "a\nb\\x1b"
    assert reversible("a\\x1b") != reversible("a\x1b")
    text = json_text(["\x1b\x85\u202e\u2028\ud800"])
    assert text == '["\\u001b\\u0085\\u202e\\u2028\\ud800"]' and json.loads(text)[0][0] == "\x1b"


def test_every_escaped_character_is_one_python_finds_unprintable() -> None:
    """`printable` skips its regex when `str.isprintable` holds: that must stay sound."""
    ranges = [(0, 0x1F), (0x7F, 0x9F), (0x202A, 0x202E), (0x2066, 0x2069), (0xD800, 0xDFFF)]
    singles = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0xFFFE, 0xFFFF]
    codes = [c for low, high in ranges for c in range(low, high + 1)] + singles
    for code in codes:
        assert not chr(code).isprintable()
        assert printable(f"a{chr(code)}b") != f"a{chr(code)}b"


def test_list_prints_one_escaped_line_a_page(
    hostile_bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["list", "--source", str(hostile_bundle)], capsys)
    assert status == 0
    lines = out.split("\n")[:-1]
    assert len(lines) == len(HOSTILE) + 1  # the index too: no page split over two lines
    assert all(line.count("\t") == 1 for line in lines)  # slug<TAB>type, nothing more
    assert not RAW.search(out)
    assert f"{printable(ESC_TITLE)}\tty\\x1b[31mpe" in lines
    assert {line.split("\t")[0] for line in lines} == {"index", *map(printable, HOSTILE)}


def test_list_json_keeps_names_exact(
    hostile_bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["list", "--json", "--source", str(hostile_bundle)], capsys)
    assert status == 0 and not RAW.search(out)  # C1 and bidi as \u escapes too
    assert {page["slug"] for page in json.loads(out)} == {"index", *HOSTILE}


def test_links_prints_escaped_names_and_get_json_is_exact(
    hostile_bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["links", "index", "--source", str(hostile_bundle)], capsys)
    assert status == 0 and not RAW.search(out)
    assert out.split("\n")[:-1] == [printable(name) for name in HOSTILE]
    status, out, _ = _run(["get", ESC_TITLE, "--json", "--source", str(hostile_bundle)], capsys)
    assert status == 0 and json.loads(out)["slug"] == ESC_TITLE


def test_errors_and_notes_escape_names(
    hostile_bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ["--source", str(hostile_bundle)]
    status, _, err = _run(["get", ESC_TITLE + "x", *source], capsys)  # suggests the page
    assert status == 1 and err.count("\n") == 1 and not RAW.search(err)
    assert "no page" in err and printable(ESC_TITLE) in err
    status, _, err = _run(["list", "\x1b[2J", *source], capsys)  # unrecognized arguments
    assert status == 2 and err.count("\n") == 1 and "\\x1b[2J" in err
    status, _, err = _run(["list", "--source", str(tmp_path / "no\x1b[2J\nhere")], capsys)
    assert status == 1 and err.count("\n") == 1 and "no\\x1b[2J" in err and not RAW.search(err)
    out_file = tmp_path / "out\x1b]0;x\x07.json"
    status, _, err = _run(["export", "index", "-o", str(out_file), *source], capsys)
    assert status == 0 and err.count("\n") == 1 and not RAW.search(err)
    assert "exported 6 edges to" in err and "out\\x1b]0;x\\x07.json" in err


@pytest.mark.slow
def test_remote_slugs_from_a_real_server_are_escaped_too(
    hostile_bundle: Path, tmp_path: Path
) -> None:
    """Over MCP from our own `serve` on loopback: the same names, the same escapes."""
    with serve_bundle(hostile_bundle) as server:
        env = subprocess_env(tmp_path)

        def cli(*argv: str) -> subprocess.CompletedProcess[str]:
            command = [sys.executable, "-m", "okf_explorer", *argv, "--source", server.url]
            return subprocess.run(
                command, env=env, capture_output=True, text=True, encoding="utf-8", timeout=60
            )

        listing = cli("list")
        assert listing.returncode == 0, listing.stderr
        lines = listing.stdout.split("\n")[:-1]
        assert len(lines) == len(HOSTILE) + 1 and not RAW.search(listing.stdout)
        assert {line.split("\t")[0] for line in lines} == {"index", *map(printable, HOSTILE)}
        links = cli("links", "index")
        assert links.returncode == 0, links.stderr
        assert links.stdout.split("\n")[:-1] == [printable(name) for name in HOSTILE]
        as_json = cli("list", "--json")
        assert {page["slug"] for page in json.loads(as_json.stdout)} == {"index", *HOSTILE}
        missing = cli("get", "zz\x1b[2J\u202e")
        assert missing.returncode == 1 and missing.stderr.count("\n") == 1
        assert not RAW.search(missing.stderr)


def test_stats_prints_escaped_names_and_exact_json(
    hostile_bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (hostile_bundle / "index.md").write_text("[[gone\x1bc]]\n", encoding="utf-8")
    status, out, _ = _run(["stats", "--source", str(hostile_bundle)], capsys)
    assert status == 0 and RAW.search(out) is None
    assert "  gone\\x1bc" in out.splitlines()
    assert "\t" not in out
    status, out, _ = _run(["stats", "--json", "--source", str(hostile_bundle)], capsys)
    found = json.loads(out)
    assert status == 0 and RAW.search(out) is None
    assert "gone\x1bc" in found["dangling"] and ESC_TITLE in found["orphans"]
