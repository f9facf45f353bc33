"""How a failure reads in the TUI: a source error as it says, anything else as a bug."""

from __future__ import annotations

from okf_explorer.core.errors import OkfError
from okf_explorer.tui.settings import EXPORT_DIR_ENV


def reason(error: BaseException | None) -> str:
    """One line: a source error's own words, else `unexpected error: …`."""
    return str(error) if isinstance(error, OkfError) else f"unexpected error: {error!r}"


def notice(error: BaseException | None, group: str = "") -> tuple[str, str]:
    """(title, text) of the notification for a failed worker of `group` (or the loader)."""
    if group == "export":
        return "export", f"{reason(error)} (set {EXPORT_DIR_ENV} to export elsewhere)"
    return ("source" if isinstance(error, OkfError) else "bug"), reason(error)
