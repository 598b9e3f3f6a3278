"""The one definition of throughput (``frontier-throughput/1``), computed from a task's logged calls.

Counted: the model's own calls (role ``model``) that reached the model (not cached) and carry
``timing.started_at``. Warm-up: the calls sent before the first counted call's answer came back
(the first wave), excluded and counted; when every call is in that wave none is excluded.
Per request: ``output_tokens / latency_s`` (median and p90). Aggregate: the calls' output tokens
over the wall time of the generation phase, the length of the union of their in-flight intervals
(``[started_at, started_at + latency_s]``). Prompt tokens per second are that of input tokens.
``concurrency`` is the most counted calls in flight at once. Latency: the counted calls' wall
latency (median and p90).

95% intervals, one method: a seeded percentile bootstrap over the counted requests. For the
aggregate rate each resample's ``output tokens / summed latency`` is scaled by the measured overlap
(summed latency / wall time), which is held fixed: the interval is the uncertainty from how fast
requests were, not from how they overlapped. For latency, the resampled median. Both are
deterministic whatever the order of the calls.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from harness.stats import BOOTSTRAP_RESAMPLES
from harness.types import SampleResult, Usage

DEFINITION = "frontier-throughput/1"
SEED = 0


def _percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) with linear interpolation; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


TimedCall = tuple[float, float, Usage]


def timed_calls(result: SampleResult) -> list[TimedCall]:
    """The calls of ``result`` that throughput counts (see the module docstring): start, latency, usage."""
    return [
        (call.generation.timing.started_at, call.generation.latency_s, call.generation.usage)
        for call in result.calls
        if call.role == "model"
        and not call.cached
        and call.generation.timing is not None
        and call.generation.timing.started_at is not None
        and call.generation.latency_s > 0
    ]


def throughput(results: Iterable[SampleResult]) -> dict[str, Any] | None:
    """The throughput block of ``results`` (see the module docstring), or None when no call was timed."""
    return throughput_of([call for result in results for call in timed_calls(result)])


def throughput_of(calls: list[TimedCall]) -> dict[str, Any] | None:
    """The throughput block of the counted ``calls``, or None when there are none."""
    if not calls:
        return None
    calls.sort(key=lambda call: call[0])
    first_end = min(start + latency for start, latency, _ in calls)
    kept = [call for call in calls if call[0] >= first_end] or calls
    intervals = [(start, start + latency) for start, latency, _ in kept]
    wall, end, peak = 0.0, float("-inf"), 0
    for start, stop in intervals:
        wall += max(0.0, stop - max(start, end))
        end = max(end, stop)
        peak = max(peak, sum(1 for s, e in intervals if s <= start < e))
    output = sum(usage.output_tokens for _, _, usage in kept)
    prompt = sum(usage.input_tokens for _, _, usage in kept)
    rates = [usage.output_tokens / latency for _, latency, usage in kept]
    return {
        "definition": DEFINITION,
        "requests": len(kept),
        "warmup_requests": len(calls) - len(kept),
        "concurrency": peak,
        "output_tokens": output,
        "wall_s": wall,
        "output_tok_s": output / wall if wall > 0 else None,
        "prompt_tok_s": prompt / wall if wall > 0 else None,
        "per_request_tok_s_median": statistics.median(rates),
        "per_request_tok_s_p90": _percentile(rates, 0.9),
        "latency_s_median": statistics.median(latency for _, latency, _ in kept),
        "latency_s_p90": _percentile([latency for _, latency, _ in kept], 0.9),
        **_intervals([(latency, usage.output_tokens) for _, latency, usage in kept], wall),
    }


def _intervals(calls: list[tuple[float, int]], wall: float) -> dict[str, list[float] | None]:
    """The bootstrap 95% intervals of the aggregate rate and the median latency (see the module docstring)."""
    import numpy as np

    data = np.asarray(sorted(calls), dtype=float)
    draws = np.random.default_rng(SEED).integers(0, len(data), size=(BOOTSTRAP_RESAMPLES, len(data)))
    latency, tokens = data[:, 0][draws], data[:, 1][draws]
    median = [float(x) for x in np.percentile(np.median(latency, axis=1), [2.5, 97.5])]
    if wall <= 0:
        return {"output_tok_s_ci": None, "latency_s_median_ci": median}
    overlap = data[:, 0].sum() / wall
    rate = [float(x) for x in np.percentile(tokens.sum(axis=1) / latency.sum(axis=1) * overlap, [2.5, 97.5])]
    return {"output_tok_s_ci": rate, "latency_s_median_ci": median}
