"""A folder on disk as a page source: listing, reading, scanning, writing."""
