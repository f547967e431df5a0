"""Metadata values through a JSON file and back (core/json_values.py): equal, and of the same
types, or refused."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest

from sitemap_plugins.core.json_values import CANNOT_KEEP, from_json, to_json


def through_a_file(value: Any) -> Any:
    """What a later build reads back of ``value``, kept as the caches keep it."""
    kept = to_json(value)
    assert kept is not CANNOT_KEEP
    return from_json(json.loads(json.dumps(kept)))


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types throughout (``True == 1`` and ``date == datetime`` do not
    count), offsets included."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[key], b[key]) for key in a)
    if isinstance(a, dt.datetime):
        return a == b and a.utcoffset() == b.utcoffset()
    return bool(a == b) or (a != a and b != b)  # NaN


OFFSETS = [None, dt.timezone.utc, dt.timezone(dt.timedelta(hours=-7, minutes=-30)),
           dt.timezone(dt.timedelta(seconds=5))]  # fmt: skip


@pytest.mark.parametrize(
    "value",
    [
        None, True, False, 0, 1, -(2**70), 0.8, -0.0, 1e300, float("inf"), float("nan"), "",
        "weekly", "2024-05-01", "ünïcode ☃", ["list"], ["date", "2024-05-01"], {},
        {"$date": "x"}, dt.date(2024, 5, 1),
        *(dt.datetime(2024, 5, 1, 9, 30, 15, micro, tzinfo=tz) for tz in OFFSETS
          for micro in (0, 123456)),
        {"priority": 0.8, "changefreq": "weekly", "lastmod": dt.date(2024, 5, 1),
         "exclude": False, "video": [{"title": "A & B", "duration": 300, "tag": ["x", "y"],
                                      "restriction": {"allow": ["IE", "GB"]},
                                      "publication_date": dt.datetime(2024, 5, 1, 9, 0)}]},
    ],
)  # fmt: skip
def test_a_value_comes_back_equal_and_of_the_same_types(value: Any) -> None:
    assert same(through_a_file(value), value)


def test_random_nested_values_come_back_as_they_were() -> None:
    rng = random.Random(20261126)

    def make(depth: int) -> Any:
        kind = rng.randrange(9 if depth < 4 else 6)
        if kind == 0:
            return rng.choice([None, True, False])
        if kind == 1:
            return rng.randrange(-(10**12), 10**12)
        if kind == 2:
            return rng.uniform(-1e6, 1e6)
        if kind == 3:
            return "".join(rng.choice("ab &<é☃\"'\\[]{}") for _ in range(rng.randrange(6)))
        if kind == 4:
            return dt.date(rng.randrange(1, 9999), rng.randrange(1, 13), rng.randrange(1, 29))
        if kind == 5:
            tz = rng.choice(OFFSETS)
            return dt.datetime(2000, 1, 1, tzinfo=tz) + dt.timedelta(
                microseconds=rng.randrange(10**15)
            )
        if kind in (6, 7):
            return [make(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(["a", "list", "date", "map", "é"]) + str(n): make(depth + 1)
                for n in range(rng.randrange(4))}  # fmt: skip

    for _ in range(2000):
        value = make(0)
        assert same(through_a_file(value), value), value


class Offset(dt.tzinfo):
    """A zone of a plugin's own: its name and rules would not come back, only an offset."""

    def utcoffset(self, moment: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(hours=1)


class Day(dt.date):
    pass


@pytest.mark.parametrize(
    "value",
    [
        {1: "a key that is no text"}, ("a", "tuple"), {"a", "set"}, b"bytes", Day(2024, 5, 1),
        dt.datetime(2024, 5, 1, tzinfo=Offset()), dt.time(9, 0), object(),
        [1, {"deep": [{"x": {2, 3}}]}], {"ok": 1, "not": ("x",)},
    ],
)  # fmt: skip
def test_a_value_that_would_not_come_back_as_it_is_is_not_kept(value: Any) -> None:
    assert to_json(value) is CANNOT_KEEP


def test_a_value_that_holds_itself_or_nests_too_deep_is_not_kept() -> None:
    """YAML anchors make values that hold themselves (``&a [*a]``); a shared value that does
    not is kept, once per place it is in. JSON's writer stops at Python's recursion limit, so
    nothing deeper than metadata ever nests is kept."""
    cycle: list[Any] = []
    cycle.append(cycle)
    mapping: dict[str, Any] = {"a": 1}
    mapping["self"] = {"again": mapping}
    assert to_json(cycle) is CANNOT_KEEP
    assert to_json({"video": [mapping]}) is CANNOT_KEEP
    shared = {"title": "A"}
    assert same(through_a_file([shared, shared, {"x": shared}]), [shared, shared, {"x": shared}])
    deep: list[Any] = []
    for _ in range(31):
        deep = [deep]
    assert same(through_a_file(deep), deep)  # 32 levels, the empty list included
    assert to_json([deep]) is CANNOT_KEEP
    assert to_json({"a": [deep]}) is CANNOT_KEEP


@pytest.mark.parametrize(
    "data",
    [
        ["no", "tag"], ["list"], ["date", 20240501], ["datetime", "not a date"],
        ["map", ["x"]], ["list", {"a": 1}], {"an": "untagged mapping"}, ["list", [["bad"]]],
        ["date", "2024-13-01"],
    ],
)  # fmt: skip
def test_data_no_build_wrote_is_refused(data: Any) -> None:
    with pytest.raises(ValueError, match=r"not a kept value|month|Invalid isoformat|isoformat"):
        from_json(data)
