"""Turning what the user typed (or the environment) into a `PageSource`, and the
`PageWriter` that saves pages into one.

The CLI, the TUI launcher and the tests all open sources here, so the default
chain (SPEC §6: `SRC`, then `$OKF_SOURCE`, then `$GBRAIN_MCP_URL`, then the bundled
sample brain), the token lookup (`--token-file`, then `$GBRAIN_TOKEN`) and the
rule that credentials never reach the screen live in one place.

Choices where the SPEC is silent:
- an empty environment variable counts as unset;
- `~` in a folder spec is expanded;
- a spec that names an existing *file* is refused (a bundle is a folder);
- a URL is shown with its user-info replaced by `***` and the values of
  secret-looking query parameters (`token`, `key`, `secret`, ...) masked
  (`sources.gbrain.transport.redact_url`, the rule the MCP client follows too);
- an unreadable or empty token file is an `AuthError` naming the file, raised
  before any connection is tried, so a typo never silently falls back to
  `$GBRAIN_TOKEN`.

Saving (`writer_for`): a folder bundle gets a `FolderWriter`; a gbrain server over MCP
gets the `GbrainWriter` of `sources.gbrain.write` (its `put_page` tool), imported
lazily so reading a brain never loads the write side. Any other source cannot take
pages: `CannotSave`, one sentence. `check_target` says whether a name can be saved
as, by the rules of the source's writer, before anything is sent or written.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import okf_explorer
from okf_explorer.core.errors import AuthError, OkfError, SourceUnavailable
from okf_explorer.core.port import Folder, PageSource, PageWriter

SAMPLE_BRAIN = Path(okf_explorer.__file__).resolve().parent / "sample_brain"
"""The demo bundle shipped inside the package: the last default."""

SourceKind = Literal["folder", "url"]

_URL_SCHEMES = ("http", "https")


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """Where a source is and why we chose it.

    `origin` says which rule picked it (`--source`, `$OKF_SOURCE`,
    `$GBRAIN_MCP_URL` or `sample brain`) so an error can tell the user what to fix.
    """

    kind: SourceKind
    location: str
    origin: str

    @property
    def label(self) -> str:
        """What to show: the folder as typed, or the URL without credentials."""
        if self.kind != "url":
            return self.location
        from okf_explorer.sources.gbrain.transport import redact_url  # only a URL pays httpx

        return redact_url(self.location)


@dataclass(frozen=True, slots=True)
class Token:
    """A bearer token and a description of where it came from (never the value)."""

    value: str | None
    source: str

    def __repr__(self) -> str:
        """Never the value, even in a traceback or a debugger."""
        shown = "***" if self.value else "None"
        return f"Token(value={shown}, source={self.source!r})"


def is_url(spec: str) -> bool:
    """True when `spec` looks like a URL (any scheme), so it is never taken as a folder."""
    return re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", spec) is not None


def resolve_spec(spec: str | None) -> SourceSpec:
    """The source the user means: `spec`, else the environment, else the sample brain."""
    if spec is not None and spec.strip():
        return _classify(spec.strip(), "--source")
    for variable in ("OKF_SOURCE", "GBRAIN_MCP_URL"):
        value = os.environ.get(variable, "").strip()
        if value:
            return _classify(value, f"${variable}")
    return SourceSpec("folder", str(SAMPLE_BRAIN), "sample brain")


def read_token(token_file: Path | None) -> Token:
    """The MCP bearer token: `--token-file` (stripped), then `$GBRAIN_TOKEN`, else none."""
    if token_file is not None:
        path = Path(token_file).expanduser()
        try:
            value = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or type(error).__name__
            raise AuthError(f"cannot read token file {path}: {reason}") from None
        if not value:
            raise AuthError(f"token file {path} is empty")
        return Token(value, f"--token-file {path}")
    value = os.environ.get("GBRAIN_TOKEN", "").strip()
    if value:
        return Token(value, "$GBRAIN_TOKEN")
    return Token(None, "no token")


def open_source(
    spec: str | None,
    *,
    token_file: Path | None = None,
    timeout: float | None = None,
    concurrency: int | None = None,
) -> PageSource:
    """Open the source `spec` names (see `resolve_spec`).

    Raises `SourceUnavailable` (always with `unreachable`) for a missing folder or
    an unusable URL, and `AuthError` for an unreadable token file. `timeout` and
    `concurrency` apply to MCP sources only; None keeps the source's defaults.
    """
    resolved = resolve_spec(spec)
    if resolved.kind == "url":
        return _open_url(resolved, token_file, timeout, concurrency)
    return _open_folder(resolved)


def _classify(spec: str, origin: str) -> SourceSpec:
    if is_url(spec):
        return SourceSpec("url", spec, origin)
    return SourceSpec("folder", spec, origin)


def _from(resolved: SourceSpec) -> str:
    return "" if resolved.origin == "--source" else f" (from {resolved.origin})"


def _open_folder(resolved: SourceSpec) -> PageSource:
    from okf_explorer.sources.folder.bundle import BundleSource

    path = Path(resolved.location).expanduser()
    if not path.exists():
        raise SourceUnavailable(f"unreachable: no such folder {resolved.label}{_from(resolved)}")
    if not path.is_dir():
        raise SourceUnavailable(
            f"unreachable: {resolved.label} is not a folder{_from(resolved)}"
            " (give a bundle folder or an http(s):// URL)"
        )
    return BundleSource(path)


def _open_url(
    resolved: SourceSpec,
    token_file: Path | None,
    timeout: float | None,
    concurrency: int | None,
) -> PageSource:
    label = resolved.label
    try:
        parts = urlsplit(resolved.location)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise SourceUnavailable(f"unreachable: invalid URL {label}{_from(resolved)}") from None
    if parts.scheme.lower() not in _URL_SCHEMES:
        raise SourceUnavailable(
            f"unreachable: unsupported URL scheme {parts.scheme!r} in {label}{_from(resolved)}"
            " (give a bundle folder or an http(s):// URL)"
        )
    if not parts.hostname:
        raise SourceUnavailable(f"unreachable: no host in URL {label}{_from(resolved)}")
    token = read_token(token_file)
    from okf_explorer.sources.gbrain.source import McpSource

    options: dict[str, float | int] = {}
    if timeout is not None:
        options["timeout"] = timeout
    if concurrency is not None:
        options["concurrency"] = concurrency
    return McpSource(resolved.location, token=token.value, token_source=token.source, **options)


class CannotSave(OkfError):
    """This source cannot take pages."""


def writer_for(source: PageSource) -> PageWriter:
    """The writer for `source`; constructing it makes no request to any server."""
    if isinstance(source, Folder):
        from okf_explorer.sources.folder.write import FolderWriter

        return FolderWriter(source.local_root)
    from okf_explorer.sources.gbrain.source import McpSource

    if isinstance(source, McpSource):
        try:
            module = importlib.import_module("okf_explorer.sources.gbrain.write")
            writer_class = module.GbrainWriter
        except (ImportError, AttributeError):
            raise CannotSave(
                f"this source cannot take pages: {source.label} (no put_page writer here)"
            ) from None
        writer: PageWriter = writer_class(source)
        return writer
    raise CannotSave(f"this source cannot take pages: {source.label}")


def check_target(source: PageSource, slug: str) -> str:
    """The page name `slug` is saved as in `source`, or `ValueError` (one sentence)
    for a name its writer would refuse or store renamed: a relative path of plain
    segments for any source (`check_new_slug`), and for gbrain also its own slug
    rules (lowercase, no encoded separators; `sources.gbrain.contract.check_slug`).
    Sends nothing."""
    from okf_explorer.core.save import check_new_slug

    name = check_new_slug(slug)
    if isinstance(source, Folder):
        return name
    from okf_explorer.sources.gbrain.source import McpSource

    if isinstance(source, McpSource):
        from okf_explorer.sources.gbrain.contract import check_slug

        check_slug(name)
    return name
