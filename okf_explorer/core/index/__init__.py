"""The link index: built from a source, its model, reused from the disk cache."""
