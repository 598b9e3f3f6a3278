"""One-line definitions of the metric names and terms the report pages show (glossary and tooltips)."""

from __future__ import annotations

import re

TERMS: dict[str, str] = {
    "accuracy": (
        "mean score over the samples answered: an unscored answer counts as wrong, a sample that ended "
        "in an error is left out (the error count says how many)"
    ),
    "accuracy_scored": "share correct among the samples that produced a scorable answer only",
    "accuracy_all": "share correct over every row, unscored answers counted as wrong",
    "accuracy_official": "accuracy decided by the benchmark's own published verifier",
    "accuracy_strict": "accuracy under the stricter reading of the answers, reported beside the official one",
    "accuracy_with_judge": "accuracy where a model judge decides the answers the exact rules cannot",
    "llm_accuracy": "accuracy when a model extractor reads the answer out of the reply",
    "llm_plausible_accuracy": "plausible-tier accuracy when a model extractor reads the answer",
    "plausible_accuracy": "share of answers in the benchmark's 'plausible' tier (a related, not exact, answer)",
    "pc": "ConFiQA: share of answers that give the counterfactual (context) answer",
    "po": "ConFiQA: share of answers that give the original (memorised) answer",
    "mr": "ConFiQA memorisation ratio: po / (pc + po), lower means the model follows the context",
    "em": "exact match: the normalised answer equals the target",
    "mad": "mean absolute deviation of the predicted CVSS base scores from the true ones (lower is better)",
    "f1": "harmonic mean of precision and recall",
    "macro_f1": "F1 computed per sample and averaged",
    "micro_f1": "F1 over all predicted and true items pooled",
    "reward": "τ²-bench: mean task reward as the benchmark's evaluator computes it",
    "reward_strict": "τ²-bench reward under the stricter checks, reported beside the official one",
    "pass^k": "share of tasks solved in all k of k trials",
    "pass@k": "share of tasks solved in at least one of k trials",
    "score": "the task's primary metric",
    "Overall": "macro mean over task families of each task's primary metric, on a 0–1 higher-is-better scale",
    "Pareto frontier": (
        "the runs no other run beats on both axes at once: a run is dominated when another scores at least "
        "as high for no more tokens and is strictly better on one of the two; the table lists runs by score "
        "and names, for each dominated run, the runs that dominate it"
    ),
    "Rank": (
        "a band, not a place: 1–3 means the 95% interval overlaps those of the entries ranked 1 to 3, "
        "so they cannot be told apart at this sample size (a lone 1.0 can share a band with 0.0s when "
        "every interval is wide)"
    ),
    "95% CI": (
        "95% confidence interval of the metric (n: the samples behind it), made one way per kind of metric on "
        "every page and in 'frontier show': the Wilson score interval for a share (accuracy, pass@k, mr); a "
        "seeded percentile bootstrap (2,000 resamples) for a mean of other values; a paired bootstrap for a "
        "ratio of sums (micro F1). A family or overall score of one task has that task's interval; of several, "
        "the percentiles of seeded draws that each follow their task's own interval"
    ),
    "Tasks": "tasks with a score out of the suite's tasks; the missing ones are named, with the reason",
}

_SUFFIXES = {
    "_scored": "among scorable answers only",
    "_strict": "under the strict reading",
    "_official": "by the benchmark's official rules",
    "_all": "over every row",
}


def define(name: str) -> str:
    """The one-line definition of a metric or term; a metric with a known suffix is defined from its stem."""
    if name in TERMS:
        return TERMS[name]
    for suffix, meaning in _SUFFIXES.items():
        if name.endswith(suffix) and name[: -len(suffix)] in TERMS:
            return f"{TERMS[name[: -len(suffix)]]}, {meaning}"
    match = re.fullmatch(r"(.+?)_(\w+)", name)
    if match and match.group(1) in TERMS:
        return f"{TERMS[match.group(1)]} ({match.group(2).replace('_', ' ')})"
    return f"'{name}' as the task's scorer reports it (see 'frontier list tasks' for the task's metrics)"


def glossary(names: list[str]) -> list[tuple[str, str]]:
    """(name, definition) for each distinct name in ``names`` plus the page's standing terms, sorted."""
    wanted = dict.fromkeys([*names, "Rank", "95% CI", "Pareto frontier"])
    return sorted(((name, define(name)) for name in wanted), key=lambda item: item[0].lower())
