"""The tools' shared statistics and tables."""

from __future__ import annotations

import random
import statistics

import pytest

from app.tools.stats import latency_summary, markdown_table, mean, percentile, text_table


def test_percentile_interpolates_like_numpy() -> None:
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([3, 1, 2], 0) == 1 and percentile([3, 1, 2], 100) == 3
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)
    assert percentile([7.0], 95) == 7.0
    rng = random.Random(1)
    data = [rng.expovariate(0.1) for _ in range(57)]
    cuts = statistics.quantiles(data, n=20, method="inclusive")
    assert percentile(data, 50) == pytest.approx(statistics.median(data))
    assert percentile(data, 95) == pytest.approx(cuts[18])
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_no_values_have_no_percentile_or_mean() -> None:
    assert percentile([], 50) is None and mean([]) is None
    assert mean([1.0, 2.0]) == 1.5


def test_latency_summary() -> None:
    assert latency_summary([]) == {"n": 0, "mean": None, "p50": None, "p95": None, "max": None}
    assert latency_summary([10, 20, 30, 40]) == {"n": 4, "mean": 25.0, "p50": 25.0, "p95": 38.5, "max": 40}
    assert latency_summary([1.0, 2.0], (50, 99), digits=1) == {"n": 2, "mean": 1.5, "p50": 1.5, "p99": 2.0,
                                                               "max": 2.0}


def test_tables() -> None:
    lines = text_table(["route", "n", "p50"], [["hybrid", 3, 12.345], ["semantic", 10, None]])
    assert lines[0].split() == ["route", "n", "p50"]
    assert lines[-2].split() == ["hybrid", "3", "12.3"] and lines[-1].split() == ["semantic", "10", "-"]
    assert lines[-1].startswith("semantic") and lines[-2].endswith("12.3") and lines[-1].endswith("-")
    assert markdown_table(["a", "b"], [["1", "2"]]) == ["| a | b |", "|---|---|", "| 1 | 2 |"]
