"""The explorer (SPEC §8), a Textual app. Build it with `okf_explorer.tui.app.make_app`.

- `app`: `ExplorerApp` and `make_app`, the one factory the CLI, the tests and the
  screenshot script use;
- `screens/` (the main screen, which wires keys and messages; the source-error screen),
  `state/` (what the screen shows, without DOM), `widgets/` (the panes, each owning
  its keys and workers), `dialogs/` (every modal), `markdown/` (the vault Markdown
  engine), `web/` (`okf-explorer web`);
- `finder` (the palette's providers, over page names and page text), `marks` (the
  marks on screen and what they mean), `failures` (how a failure reaches the reader),
  `settings` (what the explorer reads from its environment).
"""

from okf_explorer.tui.settings import prefer_display_settings

prefer_display_settings()  # before any module of the explorer imports Textual
