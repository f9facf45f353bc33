"""The explorer's modal dialogs, one `…Dialog` per module: `help` (`?`), `links` (`l`),
`outline` (`o`), `filter` (`F`), `export` (`e` into the brain: where else), `save` (`S`),
`stats` (`s`), `trail` (`T`) and `walk_roots` (`a` in a walk).

Every dialog but the filter draws on a plain background, as the finders do
(`screens/main.tcss`): under a see-through one Textual draws the whole main screen again,
tinted, as the dialog opens (`?` 181 -> 62 ms, `/` 99 -> 65 ms, `o` 56 -> 31 ms, `T`
61 -> 30 ms median on the sample brain, `python tests/bench/bench_keys.py`). The filter
stays see-through: the panes behind it change as its fields are typed."""
