"""A folder on disk as a page source (a `Folder`): `bundle` (`BundleSource`: listing,
and whether it reads as an OKF bundle), `page_paths` (a slug's file, kept apart so a
warm start loads no parser), `pagefile` (reading one page), `scan` (reading many, in
worker processes) and `write` (`FolderWriter`).
"""
