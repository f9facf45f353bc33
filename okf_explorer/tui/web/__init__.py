"""`okf-explorer web`: the explorer in a browser, behind its gate."""
