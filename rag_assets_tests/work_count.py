"""Work counted, never timed: how a stage's work grows with its input, as the tests hold it.

A test that compares two timings fails when the machine is busy (a CPU-time ratio of 8.07
against a bound of 8 failed CI once, the suite's other worker and its servers on the same two
cores). What is counted here is the calls a function makes, through ``sys.setprofile``: each
Python function entered (a generator resumed counts again) and each call into C (a builtin, a
``str`` or regex method). Run twice on the same input in one process the count is the same
whatever else the machine does, so a ratio of two counts is asserted exactly.

What it does not see is the work inside one C call: a regex that scans a line from its start
at every citation, or a copy of a line's tail, is one call each time, linear in the count,
quadratic in time. The stitcher before the bounded-work change (``9ce5656d^``) made 3.99x the
calls at 4x the citations and took 12.9x the time: a count passes it. That cost is
``bench/scaling_bench.py``'s, which times every stage at two sizes in one process; the tests
hold what calls can show (a loop over every line per citation, a diff of every pair: the index
stage before that change made 15x the calls).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

COUNTED_EVENTS = frozenset({"call", "c_call"})


def calls_made(fn: Callable[[], Any]) -> tuple[int, Any]:
    """The calls ``fn()`` makes and its result. The profile hook is the thread's own and is put
    back as it was (a debugger's or coverage's hook is not lost)."""
    made = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal made
        if event in COUNTED_EVENTS:
            made += 1

    before = sys.getprofile()
    sys.setprofile(count)
    try:
        result = fn()
    finally:
        sys.setprofile(before)
    return made, result


def growth(fn: Callable[[Any], Any], small: Any, large: Any) -> float:
    """calls(fn(large)) / calls(fn(small)), each counted after one uncounted run of ``small``:
    the first run fills the caches (a regex compiled, a lookup built once) that no later run
    repeats, and is no part of how the work grows."""
    fn(small)
    small_calls, _ = calls_made(lambda: fn(small))
    large_calls, _ = calls_made(lambda: fn(large))
    return large_calls / small_calls
