"""The page pane and its parts: header, anchors, embeds."""
