"""`httpx` without its command-line client: `from okf_explorer.sources.lean_httpx import httpx`.

`import httpx` also imports `httpx._main` (its CLI) whenever click, pygments and rich
are installed, and rich is (the TUI needs it). That would drag rich into the sources
(the import-hygiene test forbids it) and cost a tenth of a second on every CLI run.
Marking `httpx._main` absent before the first import makes httpx fall back to its
stub `main` (httpx catches that ImportError itself); nothing here uses the httpx CLI.
If httpx was already imported, this changes nothing.
"""

from __future__ import annotations

import sys

if "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)

import httpx

__all__ = ["httpx"]
