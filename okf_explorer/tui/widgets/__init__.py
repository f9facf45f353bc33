"""The panes of the main screen, one module each."""
