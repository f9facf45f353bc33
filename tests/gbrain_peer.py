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

Every start imports afresh, on a new port, into a brain under the peer's cache folder
(`$PEER_WORK`, default `~/.cache/okf-explorer-peers/gbrain`), where Bun, gbrain's
`node_modules` and one blank brain (`gbrain init`, about a third of a start) stay cached
between runs; the fixture's brains are copies of the blank one, loaded with the same
gbrain commands start.sh runs, then served by start.sh itself (`start_peer`). The brain's
folder is removed when the session ends. `$EXTRACT_FLAGS` and `$TOKEN_SCOPES` from the
environment are passed through unless a test gives its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import inspect
import json
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
PEER_SHARED_BY = {
    "test_gbrain_client.py": "client-corpus",
    "test_server_view.py": "client-corpus",
    "test_gbrain_write.py": "client-corpus-writer",
    "test_save_gbrain.py": "client-corpus-writer",
    "test_save_gbrain_refusals.py": "client-corpus-writer",
}
"""Test files whose tests ask for the same gbrain (corpus and options). `.ci/run` runs the
tier on two xdist workers grouped by `peer_group`, and each worker starts its own gbrains,
so tests sharing one are kept on one worker. A file missing here only costs starts."""
PORT_TAKEN = "already in use"
"""What `start.sh` says when the free port it was given was taken before gbrain bound it."""
PORT_ATTEMPTS = 3


class GbrainPeer(NamedTuple):
    """A running gbrain: its `/mcp` URL, the file holding its bearer token, its pid."""

    url: str
    token_file: Path
    pid: int


class GbrainStartFailed(RuntimeError):
    """The peer folder is missing, or `start.sh` did not bring gbrain up."""


def peer_group(test: pytest.Function) -> str:
    """The xdist group of a `gbrain` test: the gbrain its file shares (`PEER_SHARED_BY`);
    else the test alone when it asks for `gbrain_peer` itself (its own gbrain), or its file
    when it reaches gbrain through a fixture (which may serve the whole module)."""
    shared = PEER_SHARED_BY.get(test.path.name)
    if shared is not None:
        return shared
    if "gbrain_peer" in inspect.signature(test.function).parameters:
        return test.nodeid
    return test.path.name


def find_peer_dir() -> Path | None:
    """The folder `$OKF_GBRAIN_PEER` names, if it holds gbrain's `start.sh` or is a
    gbrain checkout."""
    named = os.environ.get(PEER_ENV, "").strip()
    if not named:
        return None
    path = Path(named).expanduser()
    return path if (path / "start.sh").is_file() or is_checkout(path) else None


def find_peer_dir_or_fail() -> Path:
    """`find_peer_dir`, or `GbrainStartFailed` saying what to set."""
    peer_dir = find_peer_dir()
    if peer_dir is None:
        named = os.environ.get(PEER_ENV, "").strip()
        where = f"no start.sh or gbrain checkout in {named}" if named else f"${PEER_ENV} is not set"
        raise GbrainStartFailed(
            f"gbrain peer snapshot missing: {where} (set ${PEER_ENV} to the folder holding "
            "start.sh and gbrain-src.tar.gz, or to a gbrain checkout; see docs/development.md)"
        )
    return peer_dir


def is_checkout(path: Path) -> bool:
    """Whether `path` is gbrain's source tree (a clone of github.com/garrytan/gbrain)."""
    return (path / "src" / "cli.ts").is_file() and (path / "package.json").is_file()


def peer_work() -> Path:
    """Where Bun, gbrain's dependencies (for a snapshot) and the brains are kept between
    runs: `$PEER_WORK`, as `start.sh` reads it."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(os.environ.get("PEER_WORK") or Path(cache) / "okf-explorer-peers" / "gbrain")


def start_peer(
    corpus: Path,
    *,
    extract_flags: str | None = None,
    token_scopes: str | None = None,
    config: tuple[tuple[str, str], ...] = (),
    write_token: bool = False,
    timeout: float = START_TIMEOUT,
) -> GbrainPeer:
    """Start gbrain on `corpus` as the fixture does, on a free port: a copy of a blank brain
    (`blank_brain`: `gbrain init` once, not per start) gets the `config` keys set, the
    corpus imported and its links extracted, and a read+write token when `write_token`
    (kept in `write_token_file(peer)`); then `start_gbrain` mints the read token and serves
    it (start.sh finds the brain made and skips its own init, import and extract)."""
    blank = blank_brain()
    work = peer_work()
    source = gbrain_source(work)
    corpus = Path(corpus).resolve()
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port = free_port()
        run = brain_folder(corpus, port)
        shutil.rmtree(run, ignore_errors=True)
        copy_brain(blank, run / "home")
        env = gbrain_env(work, run / "home")
        deadline = time.monotonic() + timeout
        for key, value in config:
            run_gbrain(source, env, deadline, "config", "set", key, value)
        flags = env.get("EXTRACT_FLAGS", "") if extract_flags is None else extract_flags
        run_gbrain(source, env, deadline, "import", str(corpus), "--no-embed")
        run_gbrain(source, env, deadline, "extract", "links", "--source", "db", *flags.split())
        if write_token:
            writer = ["auth", "create", f"okf-explorer-writer-{time.time_ns()}"]
            minted = run_gbrain(source, env, deadline, *writer, "--scopes", "read,write")
            keep_token(minted, run / WRITE_TOKEN_NAME)
        left = max(1.0, deadline - time.monotonic())
        options = {"extract_flags": extract_flags, "token_scopes": token_scopes}
        try:
            return start_gbrain(corpus, port=port, fresh=False, timeout=left, **options)
        except GbrainStartFailed as error:  # the free port was taken before gbrain bound it
            shutil.rmtree(run, ignore_errors=True)
            if PORT_TAKEN not in str(error) or attempt == PORT_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def blank_brain() -> Path:
    """The home of a brain `gbrain init` made and nothing else, kept under `peer_work()` per
    gbrain source (a new snapshot, or a checkout at another version, makes its own). The
    first call on a machine runs start.sh once on an empty corpus, which installs Bun and
    gbrain's dependencies. One process at a time: xdist workers share `peer_work()`."""
    work = peer_work()
    work.mkdir(parents=True, exist_ok=True)
    with open(work / ".okf-tests.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed(work):  # a first start installs them
            empty = work / "empty-corpus"
            empty.mkdir(exist_ok=True)
            stop_gbrain(start_gbrain(empty))
        source = gbrain_source(work)
        package = (source / "package.json").read_bytes()
        key = hashlib.sha256(str(source).encode() + b"\0" + package).hexdigest()[:16]
        blank = work / "blank-brains" / key
        if not (blank / ".gbrain" / "config.json").is_file():
            making = blank.with_name(f"{key}.making")
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir(parents=True)
            init = ["init", "--pglite", "--non-interactive", "--no-embedding", "--skip-embed-check"]
            run_gbrain(source, gbrain_env(work, making), time.monotonic() + START_TIMEOUT, *init)
            shutil.rmtree(blank, ignore_errors=True)
            # its config still names the database under `making`: no brain runs from the
            # blank one itself, and `copy_brain` points each copy at its own database
            making.rename(blank)
        return blank


def copy_brain(home: Path, to: Path) -> None:
    """Copy a brain's home to `to`, its config pointing at the database in the copy."""
    shutil.copytree(home, to, symlinks=True)
    config_file = to / ".gbrain" / "config.json"
    config = json.loads(config_file.read_text())
    config["database_path"] = str(to / ".gbrain" / Path(config["database_path"]).name)
    config_file.write_text(json.dumps(config, indent=2) + "\n")


def brain_folder(corpus: Path, port: int) -> Path:
    """Where start.sh keeps the brain of `corpus` served on `port`."""
    key = hashlib.sha256(f"{corpus}:{port}".encode()).hexdigest()[:12]
    return peer_work() / "brains" / key


def keep_token(minted: str, path: Path) -> None:
    """Keep the token `gbrain auth create` printed in `path`, readable by its owner only."""
    token = re.search(r"gbrain_[0-9a-f]{64}", minted)
    if token is None:
        raise GbrainStartFailed("gbrain auth create printed no token")
    path.touch(mode=0o600)
    path.write_text(token.group(0) + "\n")


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
    peer_dir = find_peer_dir_or_fail()
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
    run = brain_folder(corpus, port)
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
    token_file = run / "token"
    keep_token(minted, token_file)
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
    the snapshot `start.sh` unpacks under `work` (one folder per tarball)."""
    peer_dir = find_peer_dir_or_fail()
    if is_checkout(peer_dir):
        return peer_dir
    return work / f"src-{snapshot_stamp(peer_dir / 'gbrain-src.tar.gz')}" / "gbrain"


@functools.lru_cache(maxsize=4)
def snapshot_stamp(tarball: Path) -> str:
    """start.sh's name for a snapshot's unpacked folder (the head of the tarball's sha256);
    read once a session: every start asks, and the tarball is 7 MB."""
    return hashlib.sha256(tarball.read_bytes()).hexdigest()[:16]


def installed(work: Path) -> bool:
    """Whether Bun and gbrain's dependencies are in place (start.sh's first run, or
    `start_checkout`'s, installs them)."""
    source = gbrain_source(work)
    if is_checkout(source):
        bun = shutil.which("bun", path=gbrain_env(work, work)["PATH"])
        return bun is not None and (source / "node_modules").is_dir()
    bun = work / "tools" / "node_modules" / ".bin" / "bun"
    return bun.exists() and (source / ".ready").is_file()


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
    stop_gbrains([peer], remove_brains=remove_brain)


def stop_gbrains(peers: list[GbrainPeer], *, remove_brains: bool = True) -> None:
    """`stop_gbrain` for many at once: all are sent SIGTERM first (each takes a second or
    so to close its database), then waited for together."""
    for peer in peers:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(peer.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    for peer in peers:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            while time.monotonic() < deadline:
                os.kill(peer.pid, 0)
                time.sleep(0.1)
            os.kill(peer.pid, signal.SIGKILL)
    for peer in peers if remove_brains else []:
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
            try:
                running[key] = start_peer(
                    corpus, extract_flags=extract_flags, token_scopes=token_scopes,
                    config=config, write_token=write_token,
                )  # fmt: skip
            except GbrainStartFailed as error:
                pytest.fail(str(error), pytrace=False)
        return running[key]

    yield start
    stop_gbrains([*SERVED_AGAIN, *running.values()])
