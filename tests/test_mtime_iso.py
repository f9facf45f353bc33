"""`mtime_iso` reuses the text of the last second it formatted; every stamp still equals
the straightforward formatting, in any order of seconds."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.sources.frontmatter import mtime_iso


def plain_stamp(mtime_ns: int) -> str:
    seconds, nanos = divmod(mtime_ns, 1_000_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{nanos // 1000:06d}Z"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.integers(min_value=0, max_value=4_000_000_000).flatmap(
            lambda second: st.integers(min_value=second * 10**9, max_value=second * 10**9 + 10**9)
        ),
        max_size=20,
    )
)
def test_every_stamp_is_the_plain_formatting(stamps: list[int]) -> None:
    for mtime_ns in [*stamps, *reversed(stamps), *stamps]:
        assert mtime_iso(mtime_ns) == plain_stamp(mtime_ns)


def test_the_same_second_twice_then_another() -> None:
    base = 1_700_000_000 * 10**9
    for mtime_ns in [base + 5, base + 999_999_999, base + 10**9, base + 1]:
        assert mtime_iso(mtime_ns) == plain_stamp(mtime_ns)
