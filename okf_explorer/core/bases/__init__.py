"""Obsidian bases: a `.base` file's filters and views, run over the pages of a vault.

Obsidian's Bases (a core plugin) keeps a query in a `.base` file of YAML and shows it,
where a note embeds it (`![[Books.base]]`, `![[Books.base#Author]]` for one view), as
a table of the notes it keeps. A vault built on them (a category note is one embed)
shows nothing without them.

- `expression`: the expression language of its filters and formulas, parsed once
  (what is read, and what is refused);
- `view`: a base read from its YAML, its views run over the pages (`run_view`), a
  view's table as Markdown (`table_markdown`), so the page draws it with its links.
- `summaries`: a view's summaries, one value a column under its table;
- `dataview_query`: a Dataview query block (`LIST`, `TABLE`) read as the base it means.

The pages are read by `Brain.base_table`, which finds the file through the source
(`core.port.HoldsBases`: a folder).
"""

from okf_explorer.core.bases.expression import (
    ExpressionError,
    FileFacts,
    FileRef,
    Link,
    parse_expression,
)
from okf_explorer.core.bases.view import (
    BASE_SUFFIX,
    MAX_ROWS,
    Base,
    BaseError,
    BaseTable,
    View,
    is_base_name,
    list_markdown,
    read_base,
    run_view,
    table_markdown,
)

__all__ = [
    "BASE_SUFFIX",
    "MAX_ROWS",
    "Base",
    "BaseError",
    "BaseTable",
    "ExpressionError",
    "FileFacts",
    "FileRef",
    "Link",
    "View",
    "is_base_name",
    "list_markdown",
    "parse_expression",
    "read_base",
    "run_view",
    "table_markdown",
]
