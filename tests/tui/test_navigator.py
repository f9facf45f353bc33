"""`Navigator`'s transitions: the view each key leads to, None where it does not apply."""

from __future__ import annotations

from okf_explorer.core.graph.traverse import DEPTH_CAP
from okf_explorer.tui.state.navigator import Navigator, View


def navigator(view: View | None = None) -> Navigator:
    """A navigator at `view` (plain state: no screen, no loader)."""
    nav = Navigator()
    nav.history.current = view
    return nav


def test_no_page_yet_no_transition_applies() -> None:
    nav = navigator()
    assert nav.open("a") == View("a")
    assert [nav.deeper(), nav.shallower(), nav.next_direction(), nav.backlinks()] == [None] * 4
    assert nav.next_relation(["x", "y"]) is None
    assert nav.back() is None and nav.forward() is None


def test_depth_stays_within_one_and_the_cap() -> None:
    assert navigator(View("a", 1)).shallower() is None
    assert navigator(View("a", 2)).shallower() == View("a", 1)
    assert navigator(View("a", DEPTH_CAP)).deeper() is None
    assert navigator(View("a", 1)).deeper() == View("a", 2)


def test_open_keeps_the_traversal_settings() -> None:
    nav = navigator(View("a", 3, "both", "works_at"))
    assert nav.open("b") == View("b", 3, "both", "works_at")


def test_direction_cycles_and_backlinks_point_in() -> None:
    nav = navigator(View("a"))
    assert nav.next_direction() == View("a", direction="in")
    both = View("a", direction="both")
    assert navigator(both).next_direction() == View("a", direction="neighbourhood")
    assert navigator(View("a", direction="neighbourhood")).next_direction() == View("a")
    assert navigator(both).backlinks() == View("a", direction="in", backlinks=True)


def test_b_again_restores_the_settings_it_left_on_the_page_shown_now() -> None:
    nav = navigator(View("a", 3, "both"))
    nav.history.current = nav.backlinks()
    assert nav.history.current == View("a", 1, "in", backlinks=True)
    nav.history.current = nav.open("b")  # backlinks follow the pages opened
    assert nav.history.current == View("b", 1, "in", backlinks=True)
    assert nav.backlinks() == View("b", 3, "both")
    assert nav.deeper() == View("b", 2, "in")  # a depth key leaves backlinks
    assert nav.shallower() is None


def test_relation_cycle_needs_two_relations_or_a_filter_to_clear() -> None:
    assert navigator(View("a")).next_relation(["x"]) is None
    assert navigator(View("a", rel="x")).next_relation(["x"]) == View("a")
    assert navigator(View("a")).next_relation(["x", "y"]) == View("a", rel="x")
    assert navigator(View("a", rel="y")).next_relation(["x", "y"]) == View("a")
    assert navigator(View("a", rel="gone")).next_relation(["x", "y"]) == View("a", rel="x")


def test_a_resolved_start_name_is_gone_to_unless_the_user_moved_on() -> None:
    assert navigator().start_resolved("b") == View("b")
    assert navigator(View("a", 2)).start_resolved("b") == View("b", 2)  # the stand-in page
    assert navigator(View("b")).start_resolved("b") is None  # there already
    nav = navigator()
    nav.opened(View("a"), "visit")
    nav.opened(View("c"), "visit")
    assert nav.start_resolved("b") is None  # the user has moved on


def test_the_trail_records_how_each_page_was_reached() -> None:
    nav = navigator()
    for slug, move, how in [("a", "visit", None), ("b", "visit", "finder"), ("c", "visit", None)]:
        nav.going(move, how)
        nav.opened(View(slug), move)
    back = nav.back()
    assert back == View("b")
    nav.going("moved")  # the back key's page loads: `going` keeps how it was asked
    nav.opened(back, "moved")
    nav.going("reload")
    nav.opened(back, "reload")  # a reload is no move
    moves = [(move.frm, move.to, move.how) for move in nav.trail.moves]
    assert moves == [
        (None, "a", "start"),
        ("a", "b", "finder"),
        ("b", "c", "visit"),
        ("c", "b", "back"),
    ]
    assert nav.history.behind == [View("a")] and nav.history.ahead == [View("c")]
