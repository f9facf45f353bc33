"""`httpx` without its command-line client:
`from okf_explorer.sources.gbrain.fast_httpx import httpx`.

`import httpx` also imports `httpx._main` (its CLI) whenever click, pygments and rich
are installed, and rich is (the TUI needs it). Marking `httpx._main` absent before the
first import makes httpx fall back to its stub `main` (httpx catches that ImportError
itself); nothing here uses the httpx CLI. If httpx was already imported, this changes
nothing; under `OKF_EXPLORER_PLAIN=1` it is a plain `import httpx`.

It also keeps rich (and click, pygments) out of the UI-free layers' imports. Measured
by `tests/bench/bench_httpx_import.py` against a plain `import httpx`, fresh processes,
two runs on a shared machine: importing the MCP source takes 133-147 ms instead of
179-190 ms (best; saves 23-26 %, 26-33 % by median), and a whole CLI command against
an MCP brain that fails at once saves 9-16 % (~45 ms).
"""

from __future__ import annotations

import sys

from okf_explorer.core import fast_paths

if fast_paths.enabled() and "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)

import httpx

__all__ = ["httpx"]
