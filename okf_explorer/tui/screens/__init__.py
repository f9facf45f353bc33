"""The app's screens: `main` (`MainScreen`, the explorer: it wires keys and messages to
the panes and the state) and `source_error` (`SourceErrorScreen`: why nothing could be
shown, and `r` to try again)."""
