"""The explorer's modal dialogs, one `…Dialog` per module: `help` (`?`), `links` (`l`),
`outline` (`o`), `filter` (`F`), `export` (`e` into the brain: where else), `save` (`S`),
`stats` (`s`), `trail` (`T`) and `walk_roots` (`a` in a walk).

The large ones (help, links, stats), and the finders (`screens/main.tcss`), draw on a
plain background: under a see-through one Textual draws the whole main screen again as
the dialog opens (`?` 181 -> 62 ms, `/` 99 -> 65 ms median on the sample brain,
`python tests/bench/bench_keys.py`). The side panels (outline, trail) stay see-through,
beside the page they are about; the small ones (export, save, walk roots) open rarely
and stay see-through."""
