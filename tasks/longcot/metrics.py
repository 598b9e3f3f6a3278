"""LongCoT summary metrics: accuracy overall, per domain and per template (each with n and a
95% CI), the official and strict verifiers' accuracies side by side, accuracy over scored
answers, unscored and unresolved rates, judge-assisted accuracy (reported separately), and
output/reasoning tokens per sample, and how many questions each split had (``questions/<split>``)."""

from __future__ import annotations

from collections import Counter, defaultdict

from harness.api import MetricValue, SampleResult, mean_metric

VERIFIERS = ("official", "strict")


def _group_keys(result: SampleResult) -> tuple[str, str]:
    details = result.score.details or {}
    meta = result.metadata or {}
    domain = str(details.get("domain") or meta.get("domain") or result.sample_id.split("/", 1)[0])
    template = str(details.get("template") or meta.get("template") or "unknown")
    return domain, template


def _split_of(result: SampleResult) -> str:
    details = result.score.details or {}
    meta = result.metadata or {}
    return str(details.get("split") or meta.get("split") or "unknown")


PROPORTIONS = (
    "accuracy",
    "accuracy_official",
    "accuracy_strict",
    "accuracy_scored",
    "unscored_rate",
    "unresolved_rate",
    "accuracy_with_judge",
)
"""The metrics reported even when no result fed them (n = 0)."""


class LongCotAccumulator:
    """All LongCoT metrics, one result at a time; errors are left out of every accuracy.

    ``accuracy`` follows the verifier the run scored with (``-T verifier=``, official by
    default); ``accuracy_official`` and ``accuracy_strict`` are both reported from each
    sample's recorded decisions (absent in logs scored before both were recorded).
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.values: dict[str, list[float]] = defaultdict(list)
        self.questions: Counter[str] = Counter()

    def add(self, result: SampleResult) -> None:
        """Count the result's question and tokens and, unless it is an error, its verdicts."""
        score, values = result.score, self.values
        self.questions[_split_of(result)] += 1
        values["output_tokens"].append(float(result.usage.output_tokens))
        values["reasoning_tokens"].append(float(result.usage.reasoning_tokens))
        if score.outcome == "error":
            return
        correct = 1.0 if score.outcome == "scored" and score.correct else 0.0
        domain, template = _group_keys(result)
        for name in ("accuracy", f"accuracy/{domain}", f"accuracy/{domain}/{template}"):
            values[name].append(correct)
        for verifier in VERIFIERS:
            status = (score.details or {}).get(verifier)
            if status is not None:
                values[f"accuracy_{verifier}"].append(1.0 if status == "correct" else 0.0)
        values["unscored_rate"].append(1.0 if score.outcome == "unscored" else 0.0)
        values["unresolved_rate"].append(1.0 if (score.details or {}).get("unresolved") else 0.0)
        if score.outcome == "scored":
            values["accuracy_scored"].append(correct)
        judged = (score.details or {}).get("judge_equivalent")
        values["accuracy_with_judge"].append(1.0 if correct or judged is True else 0.0)

    def finish(self) -> dict[str, MetricValue]:
        """Every metric with its n and 95% CI, by name, then ``questions/<split>``."""
        values = {name: list(vals) for name, vals in self.values.items()}
        for name in PROPORTIONS:
            values.setdefault(name, [])
        metrics = {
            name: mean_metric(vals, seed=self.seed, kind="mean" if name.endswith("_tokens") else "proportion")
            for name, vals in sorted(values.items())
        }
        for split, count in sorted(self.questions.items()):
            metrics[f"questions/{split}"] = MetricValue(value=float(count), n=count, method="count")
        return metrics
