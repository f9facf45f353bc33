"""A labelled bundle for unlinked mentions: target pages, and candidate pages that
each either truly mention one target (unlinked, in prose) or only look as if they
do (a longer word, code, an existing link, a path, a common-word title).

`write_mention_bundle(root)` writes it and returns the labels: `(candidate slug,
target slug) → True` for a real unlinked mention, `False` for a false candidate.
"""

from __future__ import annotations

from pathlib import Path

from tests.bundles import write_bundle

TARGETS = {
    "people/alice-martin": ("Alice Martin", ["Ali Martin"]),
    "tools/kafka": ("Kafka", []),
    "metrics/churn-rate": ("Churn Rate", []),
    "projects/borealis": ("Project Borealis", ["Borealis"]),
    "tables/invoice-lines": ("Invoice Lines", []),
    "teams/platform-guild": ("Platform Guild", []),
    "glossary/cohort": ("Cohort", []),
    "systems/snowflake": ("Snowflake", []),
    "vendors/acme-corp": ("Acme Corp", ["Acme"]),
}
COMMON_TITLED = {"home": "Home", "notes": "Notes"}

TRUE_TEMPLATES = [
    "Yesterday we talked with {name} about the plan.",
    "{name} came up twice in the review.",
    "- Open question: does {lower} still apply after the move?",
    "The numbers ({name}) looked fine. The chart did not.",
    "Is {upper} ready for the launch?",
]
FALSE_TEMPLATES = [
    "The {name}ish mood of the meeting was strange.",
    "Nobody writes in the un{lower} style any more.",
    "Run `{name}` in the shell and wait.",
    "Example:\n\n```\n{name} --start\n```\n\nThat is all.",
    "See [[{slug}]] first. Later {name} again.",
    "Read [all about {name}](elsewhere.md) before lunch.",
    "The file sits at `x` and also at {slug}.md in the folder {slug}/old.",
]
COMMON_FALSE = [
    "I went {lower} early because of the rain.",
    "{name} is where the heart is, they say.",
    "Write it in your {lower} before you forget.",
]


def write_mention_bundle(root: Path) -> dict[tuple[str, str], bool]:
    files: dict[str, str] = {}
    labels: dict[tuple[str, str], bool] = {}
    for slug, (title, aliases) in TARGETS.items():
        alias_line = f"aliases: [{', '.join(aliases)}]\n" if aliases else ""
        files[f"{slug}.md"] = f"---\ntitle: {title}\n{alias_line}---\nAbout this one.\n"
    for slug, title in COMMON_TITLED.items():
        files[f"{slug}.md"] = f"---\ntitle: {title}\n---\nStart here.\n"
    files["elsewhere.md"] = "Nothing to see.\n"
    n = 0

    def candidate(target: str, text: str, truth: bool) -> None:
        nonlocal n
        n += 1
        slug = f"cands/c{n:03d}"
        files[f"{slug}.md"] = f"---\ntitle: Candidate {n}\n---\nFiller line one.\n\n{text}\n"
        labels[slug, target] = truth

    for slug, (title, aliases) in TARGETS.items():
        names = [title, *aliases]
        for i, template in enumerate(TRUE_TEMPLATES):
            name = names[i % len(names)]
            text = template.format(name=name, lower=name.lower(), upper=name.upper(), slug=slug)
            candidate(slug, text, True)
        for template in FALSE_TEMPLATES:
            text = template.format(name=title, lower=title.lower(), slug=slug)
            candidate(slug, text, False)
    for slug, title in COMMON_TITLED.items():
        for template in COMMON_FALSE:
            candidate(slug, template.format(name=title, lower=title.lower()), False)
    write_bundle(root, files)
    return labels
