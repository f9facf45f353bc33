"""The real gbrain as a test peer: `start.sh` from the shared peer folder, on a free
loopback port, loaded with a corpus folder of our own.

    def test_x(gbrain_peer):                       # session-scoped factory
        url, token_file, pid = gbrain_peer(CORPUS)  # started once per (corpus, options)
        gbrain_peer(CORPUS, extract_flags="--include-frontmatter")  # a second brain
        gbrain_peer(CORPUS, config=(("link_resolution.global_basename", "true"),))

Such tests are the `gbrain` tier (tests/conftest.py marks every test that uses this
fixture), left out of the default run. gbrain is found only through `$OKF_GBRAIN_PEER`:
either a peer folder (`start.sh` + gbrain's source snapshot `gbrain-src.tar.gz`, what
`.ci/run` names: `../shared/peers/gbrain` beside the repository), or a gbrain checkout
(`src/cli.ts`, its dependencies installed or installable with Bun), which
`start_checkout` runs the way `start.sh` does. When it is unset or neither, or gbrain
cannot start, the test **fails** with a message that says so and the tail of gbrain's
stderr: a missing peer must not pass as a skip.

Every start imports afresh (`FRESH=1`, a new port each session) into a brain under
the peer's cache folder; Bun and gbrain's `node_modules` stay cached there between
runs (`$PEER_WORK`, default `~/.cache/okf-explorer-peers/gbrain`). The brain's folder
is removed when the session ends. `$EXTRACT_FLAGS` and `$TOKEN_SCOPES` from the
environment are passed through unless a test gives its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.mcp_server_fixture import free_port

PEER_ENV = "OKF_GBRAIN_PEER"
START_TIMEOUT = 180.0  # the budget for the whole start, first run included
STOP_TIMEOUT = 10.0
STDERR_TAIL_LINES = 25
WRITE_TOKEN_NAME = "write-token"
SERVED_AGAIN: list[GbrainPeer] = []
"""Peers `gbrain_commands` served again: the session fixture stops them too."""


class GbrainPeer(NamedTuple):
    """A running gbrain: its `/mcp` URL, the file holding its bearer token, its pid."""

    url: str
    token_file: Path
    pid: int


class GbrainStartFailed(RuntimeError):
    """The peer folder is missing, or `start.sh` did not bring gbrain up."""


def find_peer_dir() -> Path | None:
    """The folder `$OKF_GBRAIN_PEER` names, if it holds gbrain's `start.sh` or is a
    gbrain checkout."""
    named = os.environ.get(PEER_ENV, "").strip()
    if not named:
        return None
    path = Path(named).expanduser()
    return path if (path / "start.sh").is_file() or is_checkout(path) else None


def is_checkout(path: Path) -> bool:
    """Whether `path` is gbrain's source tree (a clone of github.com/garrytan/gbrain)."""
    return (path / "src" / "cli.ts").is_file() and (path / "package.json").is_file()


def peer_work() -> Path:
    """Where Bun, gbrain's dependencies (for a snapshot) and the brains are kept between
    runs: `$PEER_WORK`, as `start.sh` reads it."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(os.environ.get("PEER_WORK") or Path(cache) / "okf-explorer-peers" / "gbrain")


def start_gbrain(
    corpus: Path,
    *,
    extract_flags: str | None = None,
    token_scopes: str | None = None,
    timeout: float = START_TIMEOUT,
    port: int | None = None,
    fresh: bool = True,
) -> GbrainPeer:
    """Start gbrain on `corpus`: `start.sh CORPUS PORT` from a peer folder, `start_checkout`
    from a checkout (on a free port unless `port` is given; a fresh import unless `fresh`
    is False, which reuses the brain of that corpus and port); raise `GbrainStartFailed`
    with gbrain's stderr tail when it cannot."""
    peer_dir = find_peer_dir()
    if peer_dir is None:
        named = os.environ.get(PEER_ENV, "").strip()
        where = f"no start.sh or gbrain checkout in {named}" if named else f"${PEER_ENV} is not set"
        raise GbrainStartFailed(
            f"gbrain peer snapshot missing: {where} (set ${PEER_ENV} to the folder holding "
            "start.sh and gbrain-src.tar.gz, or to a gbrain checkout; see docs/development.md)"
        )
    port = port or free_port()
    if is_checkout(peer_dir):
        options = {"extract_flags": extract_flags, "token_scopes": token_scopes}
        return start_checkout(peer_dir, corpus, port, fresh=fresh, timeout=timeout, **options)
    if not (peer_dir / "gbrain-src.tar.gz").is_file():
        raise GbrainStartFailed(f"gbrain peer snapshot missing: no gbrain-src.tar.gz in {peer_dir}")
    env = dict(os.environ, FRESH="1" if fresh else "0")
    for name in ("GBRAIN_MCP_URL", "GBRAIN_TOKEN", "OKF_SOURCE"):
        env.pop(name, None)
    if extract_flags is not None:
        env["EXTRACT_FLAGS"] = extract_flags
    if token_scopes is not None:
        env["TOKEN_SCOPES"] = token_scopes
    argv = ["bash", str(peer_dir / "start.sh"), str(Path(corpus).resolve()), str(port)]
    try:
        done = subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as error:
        tail = _tail(error.stderr)
        raise GbrainStartFailed(
            f"gbrain did not start within {timeout:.0f} s (start.sh {corpus}); stderr:\n{tail}"
        ) from None
    except OSError as error:
        raise GbrainStartFailed(f"cannot run start.sh: {error}") from None
    values = dict(
        line.split("=", 1) for line in done.stdout.splitlines() if line.startswith("GBRAIN_")
    )
    if done.returncode != 0 or not {"GBRAIN_MCP_URL", "GBRAIN_TOKEN_FILE", "GBRAIN_PID"} <= set(
        values
    ):
        raise GbrainStartFailed(
            f"gbrain could not start (start.sh exit {done.returncode}, corpus {corpus}); "
            f"stderr:\n{_tail(done.stderr)}"
        )
    return GbrainPeer(
        values["GBRAIN_MCP_URL"], Path(values["GBRAIN_TOKEN_FILE"]), int(values["GBRAIN_PID"])
    )


def start_checkout(
    source: Path,
    corpus: Path,
    port: int,
    *,
    fresh: bool = True,
    timeout: float = START_TIMEOUT,
    extract_flags: str | None = None,
    token_scopes: str | None = None,
) -> GbrainPeer:
    """What `start.sh` does, from a gbrain checkout instead of the snapshot: one embedded
    (PGLite) brain per corpus and port under `peer_work()`, the corpus imported and its
    links extracted, a token minted, and `gbrain serve --http` detached on loopback."""
    corpus = Path(corpus).resolve()
    work = peer_work()
    run = work / "brains" / hashlib.sha256(f"{corpus}:{port}".encode()).hexdigest()[:12]
    if fresh:
        shutil.rmtree(run, ignore_errors=True)
    home = run / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = gbrain_env(work, home)
    deadline = time.monotonic() + timeout
    if shutil.which("bun", path=env["PATH"]) is None:  # as start.sh: Bun from npm
        npm = ["npm", "install", "--prefix", str(work / "tools"), "--no-audit", "--no-fund"]
        run_step(source, env, deadline, [*npm, "--silent", "bun"])
    if not (source / "node_modules").is_dir():
        run_step(source, env, deadline, ["bun", "install"])
    if not (home / ".gbrain" / "config.json").is_file():
        flags = env.get("EXTRACT_FLAGS", "") if extract_flags is None else extract_flags
        init = ["init", "--pglite", "--non-interactive", "--no-embedding", "--skip-embed-check"]
        run_gbrain(source, env, deadline, *init)
        run_gbrain(source, env, deadline, "import", str(corpus), "--no-embed")
        run_gbrain(source, env, deadline, "extract", "links", "--source", "db", *flags.split())
    scopes = token_scopes or env.get("TOKEN_SCOPES") or "read"
    minted = run_gbrain(
        source, env, deadline, "auth", "create", f"okf-explorer-tests-{time.time_ns()}",
        "--scopes", scopes,
    )  # fmt: skip
    token = re.search(r"gbrain_[0-9a-f]{64}", minted)
    if token is None:
        raise GbrainStartFailed("gbrain auth create printed no token")
    token_file = run / "token"
    token_file.touch(mode=0o600)
    token_file.write_text(token.group(0) + "\n")
    log = run / "server.log"
    serve = ["bun", "src/cli.ts", "serve", "--http", "--port", str(port), "--bind", "127.0.0.1"]
    detached = run_step(  # as start.sh: no process of ours stays gbrain's parent
        source, env, deadline,
        ["bash", "-c", 'setsid nohup "$@" > "$0" 2>&1 < /dev/null & echo $!', str(log), *serve],
    )  # fmt: skip
    peer = GbrainPeer(f"http://127.0.0.1:{port}/mcp", token_file, int(detached.strip()))
    (run / "server.pid").write_text(f"{peer.pid}\n")
    while not healthy(port):
        if time.monotonic() > deadline or not alive(peer.pid):
            stop_gbrain(peer, remove_brain=False)
            tail = _tail(log.read_text(errors="replace")) if log.is_file() else ""
            raise GbrainStartFailed(f"gbrain serve did not come up on port {port}:\n{tail}")
        time.sleep(0.2)
    return peer


def gbrain_env(work: Path, home: Path) -> dict[str, str]:
    """The environment gbrain runs in: its home, the Bun `start.sh` installs first on the
    PATH, no source or token of the caller's."""
    env = dict(os.environ, GBRAIN_HOME=str(home))
    for name in ("GBRAIN_MCP_URL", "GBRAIN_TOKEN", "OKF_SOURCE"):
        env.pop(name, None)
    env["PATH"] = f"{work / 'tools' / 'node_modules' / '.bin'}{os.pathsep}{env['PATH']}"
    return env


def run_gbrain(source: Path, env: dict[str, str], deadline: float, *args: str) -> str:
    """`bun src/cli.ts ARGS` in the checkout; its stdout."""
    return run_step(source, env, deadline, ["bun", "src/cli.ts", *args])


def run_step(source: Path, env: dict[str, str], deadline: float, argv: list[str]) -> str:
    """One start-up step in the checkout, within the start's deadline; its stdout."""
    what = " ".join(argv[:4])
    try:
        done = subprocess.run(
            argv, cwd=source, env=env, capture_output=True, text=True, check=False,
            timeout=max(1.0, deadline - time.monotonic()),
        )  # fmt: skip
    except subprocess.TimeoutExpired as error:
        raise GbrainStartFailed(f"{what} timed out:\n{_tail(error.stderr)}") from None
    except OSError as error:
        raise GbrainStartFailed(f"cannot run {what}: {error}") from None
    if done.returncode != 0:
        raise GbrainStartFailed(f"{what} failed:\n{_tail(done.stderr)}")
    return done.stdout


def healthy(port: int) -> bool:
    """Whether gbrain answers `/health` on `port`."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
            return True
    except OSError:
        return False


def alive(pid: int) -> bool:
    with contextlib.suppress(PermissionError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
    return True


def reconfigure_gbrain(
    peer: GbrainPeer,
    corpus: Path,
    settings: tuple[tuple[str, str], ...],
    *,
    write_token: bool = False,
    **options: Any,
) -> GbrainPeer:
    """Set gbrain config keys on a peer's brain (`gbrain config set KEY VALUE`) and extract
    links again, and/or mint a second token with read and write scope (`write_token`,
    kept in `write_token_file(peer)`); then serve it again on the same port (`options`
    as for `start_gbrain`). The server is stopped meanwhile: PGLite has one writer."""
    flags = options.get("extract_flags") or ""
    steps = [["config", "set", key, value] for key, value in settings]
    if settings:
        steps.append(["extract", "links", "--source", "db", *flags.split()])
    if write_token:
        steps.append(
            ["auth", "create", f"okf-explorer-writer-{time.time_ns()}", "--scopes", "read,write"]
        )
    peer, outputs = gbrain_commands(peer, corpus, steps, **options)
    for step, out in zip(steps, outputs, strict=True):
        if step[0] == "auth":
            token = re.search(r"gbrain_[0-9a-f]{64}", out)
            if token is None:
                raise GbrainStartFailed("gbrain auth create printed no token")
            path = peer.token_file.with_name(WRITE_TOKEN_NAME)
            path.touch(mode=0o600)
            path.write_text(token.group(0) + "\n")
    return peer


def gbrain_commands(
    peer: GbrainPeer,
    corpus: Path,
    steps: list[list[str]],
    *,
    env: dict[str, str] | None = None,
    **options: Any,
) -> tuple[GbrainPeer, list[str]]:
    """Run gbrain CLI commands (`bun src/cli.ts STEP…`) on a peer's brain, with the server
    stopped meanwhile (PGLite has one writer) and served again on the same port after;
    `env` adds environment variables (e.g. `GBRAIN_LINK_RESOLUTION_GLOBAL_BASENAME=1`).
    Returns the peer as served again and each step's stdout."""
    brain = peer.token_file.parent
    work = brain.parent.parent
    source = gbrain_source(work)
    stop_gbrain(peer, remove_brain=False)
    environment = gbrain_env(work, brain / "home") | (env or {})
    outputs = []
    for step in steps:
        done = subprocess.run(
            ["bun", "src/cli.ts", *step],
            cwd=source,
            env=environment,
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            raise GbrainStartFailed(f"gbrain {' '.join(step)} failed:\n{_tail(done.stderr)}")
        outputs.append(done.stdout)
    port = int(peer.url.rsplit(":", 1)[1].split("/", 1)[0])
    again = start_gbrain(corpus, port=port, fresh=False, **options)
    SERVED_AGAIN.append(again)
    return again, outputs


def gbrain_source(work: Path) -> Path:
    """The gbrain source tree peers run from: the checkout `$OKF_GBRAIN_PEER` names, else
    the snapshot `start.sh` unpacked under `work`."""
    named = find_peer_dir()
    if named is not None and is_checkout(named):
        return named
    ready = sorted(work.glob("src-*/gbrain/.ready"), key=lambda path: path.stat().st_mtime)
    if not ready:
        raise GbrainStartFailed(f"no unpacked gbrain under {work}")
    return ready[-1].parent


def write_token_file(peer: GbrainPeer) -> Path:
    """The file holding the peer's read+write token (`gbrain_peer(..., write_token=True)`)."""
    return peer.token_file.with_name(WRITE_TOKEN_NAME)


def raw_tool_text(peer: GbrainPeer, token_file: Path, name: str, arguments: dict[str, Any]) -> str:
    """The exact `content[0].text` a tool answers, straight from the server (no decoding:
    byte-for-byte compares; a `put_page` of a person's own, bypassing our writer)."""
    from okf_explorer.sources.gbrain.transport import JsonRpcTransport

    transport = JsonRpcTransport(
        peer.url,
        token=token_file.read_text().strip(),
        token_source="test",
        timeout=30.0,
        pool_size=1,
    )
    try:
        result = transport.request("tools/call", {"name": name, "arguments": arguments})
    finally:
        transport.close()
    return str(result["content"][0]["text"])


def page_state(peer: GbrainPeer, token_file: Path, slug: str) -> tuple[str, str]:
    """The page as the server holds it: its full `get_page` reply (content, `content_hash`,
    `updated_at`, tags) and its versions (`get_versions`: an upsert snapshots the old row)."""
    page = raw_tool_text(peer, token_file, "get_page", {"slug": slug, "include_content": True})
    versions = raw_tool_text(peer, token_file, "get_versions", {"slug": slug})
    return page, versions


def stop_gbrain(peer: GbrainPeer, *, remove_brain: bool = True) -> None:
    """SIGTERM the server (SIGKILL after a grace period); drop its brain folder."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(peer.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        while time.monotonic() < deadline:
            os.kill(peer.pid, 0)
            time.sleep(0.1)
        os.kill(peer.pid, signal.SIGKILL)
    if remove_brain:
        brain = peer.token_file.parent  # start.sh keeps one folder per (corpus, port)
        if brain.parent.name == "brains":
            shutil.rmtree(brain, ignore_errors=True)


def _tail(stderr: str | bytes | None) -> str:
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", "replace")
    lines = (stderr or "").strip().splitlines()
    return "\n".join(lines[-STDERR_TAIL_LINES:]) or "(nothing on stderr)"


@pytest.fixture(scope="session")
def gbrain_peer() -> Iterator:
    """`gbrain_peer(corpus, extract_flags=None, token_scopes=None, config=(),
    write_token=False) -> GbrainPeer`: one real gbrain per distinct argument set, all
    stopped when the session ends. `write_token=True` also mints a read+write token
    (`write_token_file(peer)`) beside the read one, in the same brain: a write test
    can try a read token and a write token against one server."""
    running: dict[tuple[Any, ...], GbrainPeer] = {}

    def start(
        corpus: Path,
        *,
        extract_flags: str | None = None,
        token_scopes: str | None = None,
        config: tuple[tuple[str, str], ...] = (),
        write_token: bool = False,
    ) -> GbrainPeer:
        key = (str(Path(corpus).resolve()), extract_flags, token_scopes, config, write_token)
        if key not in running:
            options = {"extract_flags": extract_flags, "token_scopes": token_scopes}
            try:
                peer = start_gbrain(corpus, **options)
                if config or write_token:
                    peer = reconfigure_gbrain(
                        peer, corpus, config, write_token=write_token, **options
                    )
                running[key] = peer
            except GbrainStartFailed as error:
                pytest.fail(str(error), pytrace=False)
        return running[key]

    yield start
    for peer in [*SERVED_AGAIN, *running.values()]:
        stop_gbrain(peer)
