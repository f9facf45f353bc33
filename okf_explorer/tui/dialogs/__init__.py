"""The explorer's modal dialogs, one `…Dialog` per module: `help` (`?`), `links` (`l`),
`outline` (`o`), `filter` (`F`), `export` (`e` into the brain: where else), `save` (`S`),
`stats` (`s`), `trail` (`T`) and `walk_roots` (`a` in a walk)."""
