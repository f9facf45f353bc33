"""Auditing a gbrain import against the files it came from, and one page's audit."""
