"""okf-explorer: a keyboard-driven explorer for knowledge brains."""

__version__ = "0.1.0"
