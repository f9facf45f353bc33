"""OKF metadata: a page's meta and attestations, the filters, bundle validation."""
