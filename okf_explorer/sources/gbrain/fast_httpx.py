"""`httpx` without its command-line client:
`from okf_explorer.sources.gbrain.fast_httpx import httpx`.

`import httpx` also imports `httpx._main` (its CLI) whenever click, pygments and rich
are installed, and rich is (the TUI needs it). Marking `httpx._main` absent before the
first import makes httpx fall back to its stub `main` (httpx catches that ImportError
itself); nothing here uses the httpx CLI. If httpx was already imported, this changes
nothing; under `OKF_EXPLORER_PLAIN=1` it is a plain `import httpx`.

It also keeps rich (and click, pygments) out of the UI-free layers' imports. Measured
by `tests/bench/bench_fast_paths.py` against a plain `import httpx` in fresh processes:
importing the MCP source, what every command against an MCP brain pays, about 27 ms
sooner (figure in `core.fast_paths.FAST_PATHS`).
"""

from __future__ import annotations

import sys

from okf_explorer.core import fast_paths

if fast_paths.enabled() and "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)

import httpx

__all__ = ["httpx"]
