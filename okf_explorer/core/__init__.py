"""The UI-free core: everything the three faces share, none of it knowing a face.

- `brain`: `Brain`, the one facade the CLI, the TUI and the server talk to (the top
  of the core: nothing else in it imports the brain but `okf.validate`);
- `port`: the `PageSource` protocol, its optional capabilities (`Folder`, `TagListing`,
  `BodyReader`, `ServerSearch`) and the write port (`PageWriter`), which the
  adapters in `sources/` implement;
- `pages` (the page model and its headings), `errors` (typed one-sentence errors),
  `text_safety` (names shown safely), `atomic` (atomic file writes);
- `save`: a slice or a trail saved as a page of the brain, composed and written (the
  one entry the CLI's `save` and the explorer's `S` call);
- `links/` (grammar, spans, resolution, typed relations), `index/` (build, model,
  store), `graph/` (the `Graph` protocol and its backends, traverse,
  analysis, paths, best paths, trails), `search/`, `okf/`, `export/`, `audit/`;
- `fast_paths`: the switch for every speed-up (`OKF_EXPLORER_PLAIN=1`), their list, and the
  collector paused during builds and walks.

Nothing under `core/` may import the sources, the server, the UI, Textual, Rich,
PyYAML or httpx: the port lives here and the adapters implement it (see
tests/test_import_hygiene.py and the import-linter contracts in pyproject.toml), and
no two of its packages import each other (the `acyclic_siblings` contract).
"""
