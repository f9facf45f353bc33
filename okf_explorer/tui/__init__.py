"""The Textual app (SPEC §8). Build it with `okf_explorer.tui.app.make_app`."""
