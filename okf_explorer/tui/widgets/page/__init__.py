"""The page pane: `pane` (`PagePane`: loading a page, its body, the next parts of a long
one, anchors and embeds) and `header` (`PageHeader`: title, badges and frontmatter)."""
