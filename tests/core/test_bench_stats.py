"""The benchmarks' interval for a median: the ranks the binomial distribution gives, and the
verdicts judged on it.

The interval decides whether the benchmark calls an aim met, so its ranks are checked against
the exact binomial sum (with fractions, independently of the code under test) and against
values worked out by hand.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist, median
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def stats() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import stats

        yield stats
    finally:
        sys.path.remove(str(BENCHMARKS))


def coverage(n: int, k: int) -> Fraction:
    """The chance that the k-th smallest and k-th largest of n values hold the median."""
    below = sum(math.comb(n, i) for i in range(k))
    return 1 - 2 * Fraction(below, 2**n)


def spread_of(n: int) -> list[float]:
    """n ratios around 1.10, evenly spread over the quantiles of a normal distribution: the same
    scatter whatever n, as more rounds of the same builds would give."""
    return [1.10 + 0.1 * NormalDist().inv_cdf((i + 0.5) / n) for i in range(n)]


@pytest.mark.parametrize(
    ("n", "ranks"),
    [
        # n = 6: the ends alone hold the median unless all six fall on one side, 2/64 = 3.1 %.
        (6, (1, 6)),
        # n = 10: 1 + 10 = 11 of 1,024 arrangements put at most one below, 2.1 % a side;
        # at most two, 1 + 10 + 45 = 56 of them, 5.5 %.
        (10, (2, 9)),
        # n = 20: 1 + 20 + 190 + 1,140 + 4,845 + 15,504 = 21,700 of 1,048,576 (2.07 %) for at
        # most five below; with 38,760 more, at most six, 5.8 %.
        (20, (6, 15)),
    ],
)
def test_the_ranks_worked_out_by_hand(stats: ModuleType, n: int, ranks: tuple[int, int]) -> None:
    assert stats.median_ranks(n) == ranks


@pytest.mark.parametrize("n", range(6, 121))
def test_the_ranks_are_the_narrowest_that_reach_95_percent(stats: ModuleType, n: int) -> None:
    low, high = stats.median_ranks(n)
    assert high == n + 1 - low
    assert coverage(n, low) >= Fraction(95, 100)
    assert coverage(n, low + 1) < Fraction(95, 100)


@pytest.mark.parametrize("n", range(6))
def test_too_few_values_give_no_interval(stats: ModuleType, n: int) -> None:
    # Five values: even the smallest and largest miss the median 2/32 = 6.25 % of the time.
    assert stats.median_ranks(n) is None
    if n:
        found = stats.median_interval(spread_of(n))
        assert (found.low, found.high) == (None, None)
        assert found.half_width == math.inf


def test_the_binomial_tail_is_the_exact_sum(stats: ModuleType) -> None:
    assert stats.below_at_most(4, 1) == 5 / 16
    assert stats.below_at_most(10, 2) == 56 / 1024
    assert stats.below_at_most(7, -1) == 0
    assert stats.below_at_most(7, 7) == 1


def test_the_interval_holds_the_median_and_narrows_with_more_rounds(stats: ModuleType) -> None:
    widths = []
    for n in (6, 10, 20, 40, 80, 160):
        values = spread_of(n)
        found = stats.median_interval(values[::2] + values[1::2])  # not in order
        assert found.median == pytest.approx(median(values))
        assert found.low <= found.median <= found.high
        low, high = stats.median_ranks(n)
        assert (found.low, found.high) == (values[low - 1], values[high - 1])
        widths.append(found.high - found.low)
    assert all(wider > narrower for wider, narrower in itertools.pairwise(widths))


@pytest.fixture
def run_module(stats: ModuleType) -> ModuleType:
    import run

    return run


@pytest.mark.parametrize(
    ("low", "high", "said"),
    [
        (1.01, 1.05, "met"),
        (1.051, 1.09, "MISSED"),
        (1.03, 1.07, "not decided (interval 1.030\N{EN DASH}1.070 holds 1.05)"),
    ],
)
def test_an_aim_is_judged_on_the_interval(
    stats: ModuleType, run_module: ModuleType, low: float | None, high: float | None, said: str
) -> None:
    assert run_module.verdict(stats.Spread(1.04, low, high), 1.05) == said


@pytest.mark.parametrize(
    ("median", "said"),
    [
        (1.04, "met by the median alone (2 rounds, too few for an interval)"),
        (1.06, "MISSED by the median alone (2 rounds, too few for an interval)"),
    ],
)
def test_too_few_rounds_for_an_interval_are_judged_on_the_median_and_say_so(
    stats: ModuleType, run_module: ModuleType, median: float, said: str
) -> None:
    spread = stats.median_interval([median - 0.01, median + 0.01])
    assert (spread.low, spread.high, spread.rounds) == (None, None, 2)
    assert run_module.verdict(spread, 1.05) == said


def test_faster_than_the_incumbent_needs_the_whole_interval_below_one(
    stats: ModuleType, run_module: ModuleType
) -> None:
    assert run_module.verdict(stats.Spread(0.9, 0.8, 0.99), 1.0, strict=True) == "met"
    assert run_module.verdict(stats.Spread(0.9, 0.8, 1.0), 1.0, strict=True).startswith(
        "not decided"
    )
    assert run_module.verdict(stats.Spread(1.1, 1.01, 1.2), 1.0, strict=True) == "MISSED"
