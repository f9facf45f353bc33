"""The UI-free core: link grammar, page model, graph engine, exports.

Nothing under `core/` may import the sources, the server, the UI, Textual, Rich,
PyYAML or httpx: the `PageSource` port and its capabilities live in `core/port.py`
and the adapters implement them (see tests/test_import_hygiene.py and the
import-linter contracts in pyproject.toml).
"""
