"""Which metric ranks a task, which way it points, and the range its values must lie in.

The rules (applied when a submission is built and when it is validated):

* **Primary metric**: ``accuracy`` when the task reports it, else the first metric listed.
* **Declared scale**: a metric that carries a ``scale`` (``{low, high, higher_is_better}``, declared
  by its task: CVSS ``mad`` is ``[0, 10]``, lower is better) lies in [low, high] and points the way
  it says; the name rules below apply only to metrics without one.
* **Direction**: a metric is *lower is better* when its name, lower-cased, ends in one of
  ``mad``, ``mae``, ``mse``, ``rmse``, ``error``, ``error_rate``, ``loss``, ``latency``,
  ``latency_s``, ``cost``, ``brier`` or ``ece`` (so ``mad``, ``cvss_mad`` and ``abs_error``
  are all lower-is-better); every other metric is higher-is-better.
* **Range**: a metric whose name mentions ``cvss`` lies in [0, 10] (CVSS base scores);
  a Wilson-interval metric, or one named like a proportion (``accuracy``, ``f1``, ``em``,
  ``pass@k``, ``precision``, ``recall``, ``rate``, ``mr``, ``po``, ``pc``, ...) lies in [0, 1];
  any other lower-is-better metric is at least 0; anything else is only required to be finite.
* **Normalised score** (what family and overall means average): a metric with a finite range
  [lo, hi] becomes ``(value - lo) / (hi - lo)`` when higher is better (a share in [0, 1] is its
  value) and ``(hi - value) / (hi - lo)`` when lower is better (``mad``: ``1 - mad / 10``); a
  metric with no finite range has no normalised score and is shown only on its task's page,
  never averaged into a family or the overall score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

LOWER_IS_BETTER_SUFFIXES = (
    "mad",
    "mae",
    "mse",
    "rmse",
    "error",
    "error_rate",
    "loss",
    "latency",
    "latency_s",
    "cost",
    "brier",
    "ece",
)
PROPORTION_NAME = re.compile(
    r"^(accuracy|acc|exact_match|em|f1|micro_f1|macro_f1|precision|recall|pass@\d+|pass_at_\d+|"
    r"mr|po|pc|pass|success|success_rate|reward|.*_rate|.*_accuracy|.*_acc|.*_f1)$"
)
Range = tuple[float | None, float | None]
Scale = Mapping[str, Any]
"""A metric's declared ``scale`` as a submission holds it: ``{"low", "high", "higher_is_better"}``."""


def primary_metric(metric_names: list[str]) -> str:
    """The metric a task is ranked by: ``accuracy`` when present, else the first name."""
    if not metric_names:
        raise ValueError("a task with no metrics has no primary metric")
    return "accuracy" if "accuracy" in metric_names else metric_names[0]


@lru_cache(maxsize=1024)
def higher_is_better(name: str) -> bool:
    """False for error-like metrics (names ending in ``mad``, ``mae``, ``error``, ...)."""
    lowered = name.lower()
    return not any(lowered.endswith(suffix) for suffix in LOWER_IS_BETTER_SUFFIXES)


def points_up(name: str, scale: Scale | None = None) -> bool:
    """Whether higher values of the metric are better: as its declared scale says, else by its name."""
    return bool(scale["higher_is_better"]) if scale is not None else higher_is_better(name)


def metric_range(name: str, ci_method: str = "", scale: Scale | None = None) -> Range:
    """The closed interval a metric's value must lie in (None for an open end): its declared scale's, else
    the one its name and interval method imply."""
    if scale is not None:
        return (float(scale["low"]), float(scale["high"]))
    return _named_range(name, ci_method)


@lru_cache(maxsize=1024)
def _named_range(name: str, ci_method: str) -> Range:
    lowered = name.lower()
    if "cvss" in lowered:
        return (0.0, 10.0)
    if ci_method == "wilson" or PROPORTION_NAME.match(lowered):
        return (0.0, 1.0)
    if not higher_is_better(lowered):
        return (0.0, None)
    return (None, None)


def normalised(value: float | None, name: str, ci_method: str = "", scale: Scale | None = None) -> float | None:
    """The value on a 0..1 higher-is-better scale, or None when the metric has no finite range."""
    if value is None or not math.isfinite(value):
        return None
    low, high = metric_range(name, ci_method, scale)
    if low is None or high is None or high <= low:
        return None
    if points_up(name, scale):
        return (value - low) / (high - low)
    return (high - value) / (high - low)


GENERATED_SUFFIXES = ("-gen", "-synth")


def family_of(task: str) -> str:
    """A task's family: the name before '/', with a generator suffix dropped (``confiqa-gen/qa`` is ConFiQA)."""
    prefix = task.split("/", 1)[0]
    for suffix in GENERATED_SUFFIXES:
        if prefix.endswith(suffix) and len(prefix) > len(suffix):
            return prefix[: -len(suffix)]
    return prefix
