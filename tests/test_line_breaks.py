"""How a single newline inside a paragraph reads (issue 24, item 1), as the brain says it.

Obsidian shows a single newline as a line break unless the vault turns "Strict line
breaks" on (`.obsidian/app.json`: `"strictLineBreaks": true`, then CommonMark joins the
lines); an OKF bundle is CommonMark. The folder knows its kind and its settings, so the
rule comes from the source through the brain (`Brain.line_breaks`), never from a widget
reading files; the vault parser draws by it (`parse(..., breaks=True)`).
"""

from __future__ import annotations

import json
from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown.parser import parse

PLUGIN = "# Plugin\n\nPlugin ID: x\nLinks: y\nDeveloped by: [[amy]]\n"


def rule(root: Path) -> tuple[bool, str]:
    brains = Brain(BundleSource(root), cache_dir=False)
    breaks = brains.line_breaks()
    return breaks.hard, breaks.why


def test_a_vault_breaks_lines_as_obsidian_does(tmp_path: Path) -> None:
    (tmp_path / "plugin.md").write_text(PLUGIN)
    hard, why = rule(tmp_path)
    assert hard and "Obsidian" in why


def test_strict_line_breaks_in_the_vault_settings_join_them(tmp_path: Path) -> None:
    (tmp_path / "plugin.md").write_text(PLUGIN)
    (tmp_path / ".obsidian").mkdir()
    settings = tmp_path / ".obsidian" / "app.json"
    settings.write_text(json.dumps({"strictLineBreaks": True, "vimMode": False}))
    hard, why = rule(tmp_path)
    assert not hard and "strictLineBreaks" in why
    settings.write_text(json.dumps({"strictLineBreaks": False}))
    assert rule(tmp_path)[0]
    settings.write_text("{ not json")  # unreadable settings: Obsidian's default
    assert rule(tmp_path)[0]


def test_an_okf_bundle_is_commonmark(tmp_path: Path) -> None:
    (tmp_path / "index.md").write_text('---\nokf_version: "0.2"\n---\n# Index\n')
    (tmp_path / "plugin.md").write_text(PLUGIN)
    hard, why = rule(tmp_path)
    assert not hard and "OKF" in why


def test_a_bundle_kept_in_obsidian_reads_as_obsidian_shows_it(tmp_path: Path) -> None:
    """Two LLM-kept wikis of OKF pages are Obsidian vaults too (`.obsidian/`): their index
    tables of one-line entries (`| [[x]] — … |`, no header row) ran together as one
    paragraph; their owners read them in Obsidian, line by line."""
    (tmp_path / "index.md").write_text('---\nokf_version: "0.2"\n---\n# Index\n')
    (tmp_path / "plugin.md").write_text(PLUGIN)
    (tmp_path / ".obsidian").mkdir()
    (tmp_path / ".obsidian" / "app.json").write_text("{}")
    hard, why = rule(tmp_path)
    assert hard and "Obsidian" in why
    (tmp_path / ".obsidian" / "app.json").write_text('{"strictLineBreaks": true}')
    assert not rule(tmp_path)[0]


def test_the_parser_draws_by_the_rule() -> None:
    def breaks(tokens: list) -> list[str]:
        return [c.type for t in tokens for c in t.children or () if c.type.endswith("break")]

    assert breaks(parse("a\nb\n")) == ["softbreak"]
    assert breaks(parse("a\nb\n", breaks=True)) == ["hardbreak"]
    assert breaks(parse("a<br>\nb\n", breaks=True)) == ["hardbreak"]  # one break, not two


def test_a_foam_workspace_reads_as_vs_code_shows_it(tmp_path: Path) -> None:
    """Foam's notes are read in VS Code, whose Markdown preview joins a single newline
    (CommonMark) unless the workspace's settings turn `markdown.preview.breaks` on; a
    VS Code user's paragraphs are often wrapped at 80 columns, which Obsidian's rule
    broke into ragged lines. A workspace is known by `.vscode/settings.json` setting
    Foam's keys, `.vscode/extensions.json` recommending Foam, or a `.foam/` folder, in
    the folder or the one above it (a repository's `docs/`)."""
    notes = tmp_path / "docs"
    notes.mkdir()
    (notes / "plugin.md").write_text(PLUGIN)
    assert rule(notes)[0]  # no sign of Foam: a vault, Obsidian's rule
    vscode = tmp_path / ".vscode"
    vscode.mkdir()
    settings = vscode / "settings.json"
    settings.write_text('{\n  "editor.wordWrap": "on"\n}\n')
    assert rule(notes)[0]  # VS Code without Foam: still a vault
    settings.write_text(
        '{\n  // Foam\n  "foam.files.include": ["docs/**/*"],\n'
        '  // "markdown.preview.breaks": true,\n}\n'
    )
    hard, why = rule(notes)
    assert not hard and "VS Code" in why
    settings.write_text(
        '{\n  "foam.edit.linkReferenceDefinitions": "off",\n  "markdown.preview.breaks": true\n}\n'
    )
    hard, why = rule(notes)
    assert hard and "markdown.preview.breaks" in why
    settings.unlink()
    (vscode / "extensions.json").write_text('{"recommendations": ["foam.foam-vscode"]}')
    assert not rule(notes)[0]
    (vscode / "extensions.json").unlink()
    (notes / ".foam").mkdir()
    assert not rule(notes)[0]
    (notes / ".obsidian").mkdir()  # kept in Obsidian as well: read as Obsidian shows it
    assert rule(notes)[0]


def test_a_foam_workspaces_inline_tags_are_its_tags(tmp_path: Path) -> None:
    (tmp_path / ".foam").mkdir()
    (tmp_path / "note.md").write_text("---\ntags: [alpha]\n---\n# Note\n\nAbout #beta things.\n")
    page = BundleSource(tmp_path).get_page("note")
    assert list(page.tags) == ["alpha", "beta"]


def test_a_dendron_workspace_reads_as_dendrons_preview_shows_it(tmp_path: Path) -> None:
    """Dendron's preview and published site join a single newline (CommonMark): a line
    break takes two newlines, `<br>` or two trailing spaces (dendronhq/dendron#1604, an
    open request for Obsidian's rule). Its docs' paragraphs, wrapped at 80 columns in VS
    Code, broke into ragged lines under Obsidian's rule. The folder given may be the
    workspace or one of its vaults; one kept in Obsidian as well reads as Obsidian shows it."""
    (tmp_path / "dendron.yml").write_text("version: 5\n")
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "plugin.md").write_text(PLUGIN)
    for folder in (tmp_path, vault):
        hard, why = rule(folder)
        assert not hard and "Dendron" in why
    (vault / ".obsidian").mkdir()
    assert rule(vault)[0]
