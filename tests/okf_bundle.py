"""A small OKF v0.2 bundle of our own that uses every field the explorer reads (§5, §10):
statuses, human and machine `verified`, `generated`, `stale_after` (past and
future), `sources` with a concept, a URL and a scope, `usage_window`, a `[^id]`
footnote, and an attested computation whose recorded verdict fails.

Trust and status per page (what filters and glyphs are tested against):

| page | status | trust | stale |
|---|---|---|---|
| `metrics/churn` | draft | human-reviewed | yes |
| `computations/churn-rate` | stable | machine-confirmed | no |
| `tables/billing` | stable (absent) | human-reviewed | no |
| `tables/billing_old` | deprecated | unverified | no |
| `notes/plain` | (not OKF) | (none) | no |
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from okf_explorer.core.okf.meta import summary
from okf_explorer.core.pages import Page, PageInfo
from tests.bundles import write_bundle


def frontmatter_info(frontmatter: dict[str, Any]) -> PageInfo:
    """The info of a page stating `frontmatter`, its OKF trust read as a source reads it."""
    status, trust, stale_after = summary(frontmatter)
    page = Page(
        "p",
        "P",
        "",
        frontmatter=frontmatter,
        okf_status=status,
        okf_trust=trust,
        okf_stale_after=stale_after,
    )
    return page.info()


CHURN = """---
type: Metric
title: Net churn
description: Customers lost minus customers won back, per fiscal month.
tags: [finance, churn]
resource: https://bi.example.org/d/churn
status: draft
generated: { by: writer-agent/1.0, at: 2026-02-20T22:53:05Z }
verified:
  - { by: human:rosa@example, at: 2026-03-01T10:00:00Z }
  - { by: process:nightly-check, at: 2026-03-02T02:00:00Z }
stale_after: 2020-06-01T00:00:00Z
sources:
  - id: billing
    resource: tables/billing.md
    title: Billing table
    author: team:data-platform
    usage_count: 1200
    last_modified: 2026-02-01T00:00:00Z
  - id: policy
    resource: https://wiki.example.org/finance/churn-policy
    title: Churn policy
  - id: queries
    resource: all queries in project finance-prod
usage_window: { from: 2026-01-01T00:00:00Z, to: 2026-01-31T00:00:00Z }
---
# Net churn

Churn is computed from [[tables/billing]] by [the churn computation](../computations/churn-rate.md).
Cancellations count at period end.[^billing] The policy decides edge cases.[^policy]

Old numbers came from [[tables/billing_old]].

[^billing]: Billing table
[^policy]: Churn policy
"""

CHURN_RATE = """---
type: Attested Computation
title: Churn rate for a month
description: Sanctioned SQL for the monthly churn rate.
status: stable
runtime: bigquery
parameters:
  - { name: month, type: date, required: true }
  - { name: region, type: string }
computation: references/churn_rate.sql
executor:
  resource: tables/billing.md
  receipt: [job_id, executed_sql, result]
attester:
  resource: references/attesters/sql_equality.py
  verdict: fail
  at: 2026-03-03T08:00:00Z
  reason: executed SQL differs from the sanctioned computation
verified: { by: process:attest-nightly, at: 2026-03-03T08:00:00Z }
stale_after: 2099-01-01T00:00:00Z
sources:
  - id: billing
    resource: tables/billing.md
    title: Billing table
---
# Computation

Binds only `month` and `region`.[^billing]

[^billing]: Billing table
"""

BILLING = """---
type: BigQuery Table
title: Billing
description: One row per invoice.
verified: { by: human:ana@example, at: 2026-01-10T09:00:00Z }
---
# Billing

Replaces [[tables/billing_old]].
"""

BILLING_OLD = """---
type: BigQuery Table
title: Billing (old)
description: The invoice table before 2025.
status: deprecated
---
# Billing (old)

Kept for history. See [[tables/billing]].
"""

PLAIN = """---
type: note
title: A plain note
---
A note without OKF trust fields, linking [[metrics/churn]].
"""

INDEX = """---
okf_version: "0.2"
---
# Finance brain

- [[metrics/churn]]
- [[computations/churn-rate]]
- [[notes/plain]]
"""

OKF_FILES = {
    "index.md": INDEX,
    "metrics/churn.md": CHURN,
    "computations/churn-rate.md": CHURN_RATE,
    "tables/billing.md": BILLING,
    "tables/billing_old.md": BILLING_OLD,
    "notes/plain.md": PLAIN,
}


def write_okf_bundle(root: Path) -> Path:
    """The bundle above under `root`."""
    return write_bundle(root, OKF_FILES)
