"""OKF v0.2 read from pages: `meta` (status, trust, staleness, sources, attested
computations), `filter` (`--status` / `--min-trust` over listings and walks) and
`validate` (`okf-explorer validate`: a bundle checked against the OKF rules).
"""
