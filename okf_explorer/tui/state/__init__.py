"""The explorer's state, without DOM: what the main screen shows, and the non-visual
owners of what it waits for. Nothing here imports a widget, screen or dialog.

- `navigator`: `View`, the history of views, the trail, and where each key leads;
- `index_loader`: `IndexLoader`, start-up and every index build, said in messages;
- `live_reload`: `FolderWatcher` (pages changed on disk) and `E` (edit a page);
- `slice`: a traversal slice's facts and its table rows; `page_links`: the link tree's
  edges and `b`'s backlinks with their sentences;
- `saving`: what `e`, `T` and `S` write;
- `server_view`: where a page's text and the server disagree (`ServerComparison`).
"""
