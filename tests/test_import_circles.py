"""No import circles inside `okf_explorer`, lazy and `TYPE_CHECKING` imports included.

A circle hides behind a function-level import until the day someone moves it. The
`acyclic_siblings` contract in pyproject.toml (`lint-imports`, .ci/run) says the same
of sibling packages; this test names the modules of each circle from inside the suite.
"""

from __future__ import annotations

import grimp

PACKAGE = "okf_explorer"


def import_circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or not (Tarjan's
    strongly connected components of more than one module), sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in imports.get(module, ()):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while (member := stack.pop()) != module:
                group.append(member)
            if group:
                circles.append(sorted([module, *group]))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return sorted(circles)


def test_the_circle_finder_finds_a_circle() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_circles(imports) == [["a", "b", "c"]]


def test_no_module_of_the_package_is_part_of_an_import_circle() -> None:
    graph = grimp.build_graph(PACKAGE, include_external_packages=False, cache_dir=None)
    imports = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    circles = import_circles(imports)
    assert not circles, (
        "import circles (move what both sides need into a module of its own): "
        + "; ".join(" <-> ".join(circle) for circle in circles)
    )
