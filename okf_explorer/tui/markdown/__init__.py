"""The vault Markdown engine: parsing, inline rendering, the fast page bodies."""
