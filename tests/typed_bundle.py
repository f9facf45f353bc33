"""A small real bundle stating a relation of every kind (SPEC §5 `rel`), shared by the
typed-edge tests: OKF v0.2 path-valued fields, gbrain's frontmatter link fields
(outgoing and incoming), and plain body links."""

from __future__ import annotations

from pathlib import Path

from tests.bundles import write_bundle

PAGES: dict[str, str] = {
    # OKF: sources[].resource → derived_from; resource / computation /
    # executor.resource / attester.resource → the field name. URLs, scope
    # descriptors and non-Markdown files are no concepts.
    "metrics/revenue.md": """---
type: metric
resource: /tables/orders.md
computation: ../computations/revenue.md
executor:
  resource: references/run-on-bq.md
attester:
  resource: references/attesters/revenue.py
sources:
  - id: orders
    resource: /tables/orders.md
  - id: raw
    resource: ../tables/raw_orders
  - id: schema
    resource: https://example.com/schema
  - id: scope
    resource: all queries in project X
  - id: gone
    resource: /tables/missing.md
---
# Revenue
Sum of [[tables/orders]] net of refunds.
""",
    "tables/orders.md": "---\ntype: table\n---\n# Orders\nBuilt from [[tables/raw_orders]].\n",
    "tables/raw_orders.md": "---\ntype: table\n---\n# Raw orders\n",
    "computations/revenue.md": "# Revenue computation\n",
    "metrics/references/run-on-bq.md": "# Run on BigQuery\n",
    # gbrain: related / see_also → related_to (wiki-link strings, lists, mappings);
    # company → works_at (person pages only); key_people → works_at, incoming
    # (company pages); sources → discussed_in, incoming, looked for in source/ or media/.
    "people/bob.md": """---
type: person
company: Acme
related: "[[people/carol|Carol]]"
see_also:
  - "[[metrics/revenue]]"
  - name: nobody-at-all
  - 42
---
# Bob
Works with [[people/carol]].
""",
    "people/carol.md": """---
type: person
company: Acme
---
# Carol
""",
    "companies/acme.md": """---
type: company
key_people: [Bob, Dana]
company: Not a person page
sources:
  - Podcast 12
  - Some free text that names no page
---
# Acme
""",
    "source/podcast-12.md": "# Podcast 12\n",
}


def make_typed_bundle(root: Path) -> Path:
    """Write the bundle under `root` and return it."""
    return write_bundle(root, PAGES)
