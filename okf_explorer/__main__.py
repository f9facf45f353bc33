"""`python -m okf_explorer` runs the command line."""

from okf_explorer.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
