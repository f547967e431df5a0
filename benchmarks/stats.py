"""How far a median over paired rounds can be trusted: a confidence interval for it.

A ratio of two short builds moves by a tenth from one process to the next on a busy 2-core
machine, so the median of a dozen rounds moves by a few hundredths from run to run: as much as
an aim of 1.05x allows. The interval says which aims the rounds can decide at all.

The interval is the order-statistic one, which assumes nothing of the ratios' distribution (a
build's time is skewed: a stall makes it much longer, never much shorter): each round's ratio
falls below the true median with probability one half, so the number below it is binomial with
p = 1/2, and the k-th smallest and k-th largest ratios bracket the median unless k or more fall
on one side of it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Final, NamedTuple

CONFIDENCE: Final = 0.95


def below_at_most(n: int, k: int) -> float:
    """P(B ≤ k) for B binomial with n trials and p = 1/2, summed exactly in integers: the
    chance that at most ``k`` of ``n`` rounds fall below the median."""
    if k < 0:
        return 0.0
    return sum(math.comb(n, i) for i in range(min(k, n) + 1)) / (1 << n)


def median_ranks(n: int, confidence: float = CONFIDENCE) -> tuple[int, int] | None:
    """The ranks (1-based, in sorted order) of the interval's ends for ``n`` values: the
    narrowest pair (k, n + 1 - k) whose coverage, 1 - 2 P(B ≤ k - 1), is at least
    ``confidence``. None when even the smallest and largest value do not reach it (fewer than
    6 values at 95 %)."""
    tail = (1 - confidence) / 2
    k = 0
    while k + 1 <= n + 1 - (k + 1) and below_at_most(n, k) <= tail:
        k += 1
    return (k, n + 1 - k) if k else None


class Spread(NamedTuple):
    """A median and the interval that holds the true median at ``CONFIDENCE`` (None and None
    when there are too few values for one), over ``rounds`` values."""

    median: float
    low: float | None
    high: float | None
    rounds: int = 0

    @property
    def half_width(self) -> float:
        """Half the interval's width (infinite without an interval): the precision of the
        median, whether or not the interval is symmetric around it."""
        if self.low is None or self.high is None:
            return math.inf
        return (self.high - self.low) / 2


def median_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Spread:
    """The median of ``values`` and a distribution-free interval for it."""
    ordered = sorted(values)
    median = statistics.median(ordered)
    ranks = median_ranks(len(ordered), confidence)
    if ranks is None:
        return Spread(median, None, None, len(ordered))
    return Spread(median, ordered[ranks[0] - 1], ordered[ranks[1] - 1], len(ordered))
