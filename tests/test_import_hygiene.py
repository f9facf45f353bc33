"""The core, the sources and the server never import Textual or Rich.

Checked in a fresh interpreter, so imports made by other tests cannot hide one.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

UI_FREE_MODULES = [
    "okf_explorer.core.links",
    "okf_explorer.core.pages",
    "okf_explorer.core.graph",
    "okf_explorer.core.index",
    "okf_explorer.core.brain",
    "okf_explorer.core.export",
    "okf_explorer.core.port",
    "okf_explorer.sources.bundle",
    "okf_explorer.sources.mcp",
    "okf_explorer.server",
]


@pytest.mark.parametrize("module", UI_FREE_MODULES)
def test_module_does_not_import_textual_or_rich(module: str) -> None:
    code = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
