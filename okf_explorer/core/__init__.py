"""The UI-free core: link grammar, page model, graph engine, exports.

Nothing under `core/` may import Textual or Rich (see tests/test_import_hygiene.py).
"""
