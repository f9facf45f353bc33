"""A small vault of our own using every vault Markdown construct the page pane reads
(callouts, footnotes, embeds, block ids, tags, highlights, tasks, headings) and an
OKF page whose footnotes cite its `sources`."""

from __future__ import annotations

from pathlib import Path

from tests.bundles import write_bundle

DEMO_FILLER = "".join(
    f"Paragraph {n} about the rehearsal: cameras, cables and a borrowed projector.\n\n"
    for n in range(1, 25)
)

VAULT = {
    "Reading Notes.md": """---
title: Reading Notes
tags: [notes]
---
# Reading Notes

Notes on ==the 1968 demo== for #history and #computing/hci (not #1968).

> [!note] Why this matters
> The demo showed [[Mother of All Demos|the whole system]] at once.

> [!tip]- A folded tip
> Hidden until opened: watch the **chord keyset**.

> [!warning]+ Open by default
> Projector bulbs were scarce.

> A plain quote stays a quote.

![[Engelbart.jpg|100]]

![[Mother of All Demos#The demo]]

The mouse was new then.[^mouse] Each line of this paragraph is a block. ^claim

- [x] watch the recording
- [ ] read the paper ^todo

## Links

See [[Mother of All Demos#Legacy]], the [[Mother of All Demos#^mouse|mouse line]]
and the [[#Sources|sources below]].

| year | event | place |
|---:|:---|:---:|
| 1968 | the demo | San Francisco |
| 1973 | Alto | Palo Alto |

```python
def demo(year: int) -> str:
    return f"shown in {year}"
```

## Sources

Collected from talks.

[^mouse]: The team called it a *bug* at first.
""",
    "Mother of All Demos.md": f"""---
title: Mother of All Demos
---
# Mother of All Demos

## The demo

Ninety minutes of live editing, video and links.
A wooden box with one button moved the cursor. ^mouse

{DEMO_FILLER}
## Legacy

Hypertext, windows and shared screens all trace back here.
""",
    "metrics/churn.md": """---
title: Monthly churn
type: metric
sources:
  - id: billing-export
    title: Billing export, monthly
    resource: /tables/billing
  - id: survey
    title: Exit survey 2026
    resource: https://example.com/survey
---
# Monthly churn

Churn fell in spring[^billing-export], and leavers named price first[^survey].
An unknown citation[^nowhere] stays as written.
""",
    "tables/billing.md": "---\ntitle: Billing\n---\n# Billing\n\nOne row an invoice.\n",
}


def write_vault(root: Path) -> Path:
    return write_bundle(root, VAULT)


def handbook() -> str:
    """A long page (over 50 KB drawn a part at a time): many items, a table and a code line
    far wider than the pane, headings, a callout, a footnote and a block id."""
    items = "".join(f"- step {n} of the checklist [[Reading Notes]]\n" for n in range(140))
    wide_row = " | ".join(f"column {n} holds a long description" for n in range(6))
    return (
        "# Handbook\n\n> [!tip] Start here\n> Read the checklist first.[^why]\n\n"
        f"## Checklist\n\n{items}\n"
        "## Wide things\n\n"
        f"| {wide_row} |\n|{'---|' * 6}\n| {' | '.join(str(n) for n in range(6))} |\n\n"
        "```python\nvalue = compute('" + "x" * 150 + "')  # end\nprint(value)\n```\n\n"
        "A line to find. ^anchor-line\n\n"
        "## Last\n\n"
        + "".join(f"Closing note {n}.\n\n" for n in range(40))
        + "[^why]: Because order matters.\n"
    )


VAULT["Handbook.md"] = handbook()
