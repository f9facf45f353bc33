"""The table of the slice, path and walk views (`RowTable`), on its own: its keys, a click,
rows made when drawn, and the cursor's look with and without the focus."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from okf_explorer.tui.widgets.row_table import Row, RowTable

ROWS = 50
SIZE = (40, 12)  # the table shows its header and 11 rows


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.made: list[int] = []
        self.chosen: list[tuple[int, str]] = []
        self.highlighted: list[int] = []

    def compose(self) -> ComposeResult:
        table = RowTable(id="table")
        table.add_column("n", width=4)
        table.add_column("name", width=10)
        table.add_rows(ROWS, self.row)
        yield table

    def row(self, number: int) -> Row:
        self.made.append(number)
        return Row(f"key{number}", (number, Text(f"page {number} with a long name")))

    def on_row_table_row_selected(self, event: RowTable.RowSelected) -> None:
        self.chosen.append((event.cursor_row, event.key))

    def on_row_table_row_highlighted(self, event: RowTable.RowHighlighted) -> None:
        self.highlighted.append(event.cursor_row)


def line(table: RowTable, y: int) -> str:
    return table.render_line(y).text


async def test_keys_move_the_cursor_and_enter_chooses_its_row() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        table.focus()
        await pilot.pause()
        await pilot.press("down", "down")
        assert table.cursor_row == 2 and app.highlighted[-2:] == [1, 2]
        await pilot.press("pagedown")
        assert table.cursor_row == 2 + 11
        await pilot.press("end")
        assert table.cursor_row == ROWS - 1
        await pilot.press("down")  # no row past the last
        assert table.cursor_row == ROWS - 1
        await pilot.press("pageup", "home", "up")
        assert table.cursor_row == 0
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.chosen == [(1, "key1")]


async def test_rows_are_made_when_drawn_and_scrolled_into_sight() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        assert sorted(set(app.made)) == list(range(11))  # the rows in sight, no more
        assert line(table, 0).startswith(" n     name ")
        assert line(table, 1).startswith(" 0     page 0 wi… ")  # cut to its column, marked
        table.focus()
        await pilot.press("end")
        await pilot.pause()
        assert table.scroll_y == ROWS - 11  # the last row at the bottom, under the header
        assert line(table, 11).startswith(f" {ROWS - 1}    page {ROWS - 1} w… ")
        assert line(table, 0).startswith(" n ")  # the header stays
        assert len(set(app.made)) == 22


async def test_a_click_chooses_its_row_and_the_header_chooses_nothing() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(RowTable, offset=(3, 0))
        assert app.chosen == []
        await pilot.click(RowTable, offset=(3, 4))
        await pilot.pause()
        assert app.chosen == [(3, "key3")]
        assert app.query_one(RowTable).cursor_row == 3


async def test_the_cursor_is_brighter_with_the_focus_and_a_clear_starts_again() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        app.set_focus(None)  # the app gives it the focus first
        await pilot.pause()
        blurred = table.render_line(1)
        table.focus()
        await pilot.pause()
        focused = table.render_line(1)
        assert blurred.text == focused.text
        assert [s.style for s in blurred] != [s.style for s in focused]
        other = table.render_line(2)
        assert [s.style for s in other] != [s.style for s in focused]  # the cursor shows
        await pilot.press("end")
        table.clear(columns=True)
        await pilot.pause()
        assert table.row_count == 0 and table.cursor_row == 0 and table.scroll_y == 0
        assert line(table, 1).strip() == ""


async def test_the_row_under_the_mouse_is_lit_until_a_key_moves_the_cursor() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()

        def styles(y: int) -> list[object]:
            return [segment.style for segment in table.render_line(y)]

        plain = styles(5)  # row 4: an even row, as row 2 is
        assert styles(3) == plain
        await pilot.hover(RowTable, offset=(3, 5))
        assert styles(5) != plain and table.render_line(5).text.startswith(" 4 ")
        assert styles(3) == plain  # no other row lit
        await pilot.press("down")
        assert styles(5) == plain and table.cursor_row == 1
