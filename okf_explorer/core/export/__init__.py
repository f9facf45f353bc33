"""Exporting slices and pages: the formats, the checker that reads them back."""
