"""The work counter the growth tests rely on tells linear work from quadratic, the same on every
run, and leaves the thread's profile hook as it found it."""

from __future__ import annotations

import sys

from rag_assets_tests.work_count import calls_made, growth


def every_pair(words: list[str]) -> int:
    return sum(1 for a in words for b in words if len(a) < len(b))


def each_once(words: list[str]) -> int:
    return sum(len(word) for word in words)


def test_quadratic_work_counts_sixteen_times_at_four_times_the_input() -> None:
    small, large = ["a", "bb"] * 50, ["a", "bb"] * 200
    assert 15.5 < growth(every_pair, small, large) < 16.5
    assert 3.5 < growth(each_once, small, large) < 4.5


def test_a_count_is_the_same_on_every_run_and_the_hook_is_put_back() -> None:
    def hook(frame, event, arg):  # a debugger's or coverage's hook stands in
        return None

    words = ["a", "bb"] * 100
    sys.setprofile(hook)
    try:
        first, result = calls_made(lambda: every_pair(words))
        second, _ = calls_made(lambda: every_pair(words))
        assert sys.getprofile() is hook
    finally:
        sys.setprofile(None)
    assert first == second > 100 * 100 and result == 100 * 100
