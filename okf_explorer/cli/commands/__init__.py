"""The command line's commands, one module per command family."""
