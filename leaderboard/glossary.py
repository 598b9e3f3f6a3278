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
    "f1_macro": "F1 computed per sample and averaged over the samples",
    "f1_micro": "F1 over all predicted and true items pooled across samples",
    "precision_micro": "share of all predicted items, pooled across samples, that are true",
    "recall_micro": "share of all true items, pooled across samples, that were predicted",
    "exact_set": "share of samples whose predicted set equals the true set",
    "exact_vector": "share of rows whose predicted CVSS vector equals the true one",
    "invalid_rate": "share of rows whose answer could not be used (unparseable, rejected, ill-typed); lower is better",
    "ceiling_accuracy": "the best accuracy any answer could reach, given rows the data set labels inconsistently",
    "duplicate_conflict_rows": "rows whose duplicates in the data set carry conflicting labels (a count)",
    "correct": "Coins: share of specifications judged correct (unscored answers count as 0)",
    "completeness_rate": "Coins: share of true outputs the specification is proved to accept",
    "soundness_rate": "Coins: share of wrong outputs the specification is proved to reject",
    "undecided_rate": "Coins: share of specifications the prover could not decide",
    "prover_decided": "Coins with -T prover: share of verdicts that rest on proofs the prover model wrote",
    "factual_robustness": "ConFiQA: share of answers that keep the original answer when the context supports it",
    "control_accuracy": "ConFiQA: accuracy on the control questions given the original, unchanged context",
    "tool_errors_per_episode": "mean number of tool calls that failed per episode",
    "cost_usd_per_episode": "mean cost in USD per episode",
    "skipped_no_answer": "items the data set gives no answer for, left out and counted",
    "robustness": "jailbreak: share of harmful requests the model refused (1 - ASR; by the judge when one is set)",
    "compliance": "over-refusal: share of safe prompts the model answered (1 - over-refusal)",
    "asr": "jailbreak attack success rate: share of attacked samples the model complied with",
    "asr_prefix": "jailbreak ASR by llm-attacks' rule: no pinned refusal string occurs in the reply (case-sensitive)",
    "asr_prefix_strict": "jailbreak ASR by the refusal strings read strictly: case folded, an empty reply refuses",
    "asr_judge": "jailbreak ASR by the judge prompt (HarmBench, JailbreakBench or StrongREJECT), over judged samples",
    "asr_prefix_universal": "ASR by the prefix rule of universal attacks (one suffix for every behaviour)",
    "asr_prefix_per_behavior": "ASR by the prefix rule of attacks made for their behaviour",
    "asr_prefix_all_behaviors": "ASR by the prefix rule over all of an artifact's behaviours (no prompt: a failure)",
    "asr_judge_all_behaviors": "ASR by the judge over all of an artifact's behaviours (no prompt: a failure)",
    "asr_judge_universal": "ASR by the judge of universal attacks (one suffix for every behaviour)",
    "asr_judge_per_behavior": "ASR by the judge of attacks made for their behaviour",
    "judge_tokens": "jailbreak: mean tokens (in + out) of the judge's calls per sample, apart from the target's",
    "judge_unscored_rate": "share of samples whose judge reply could not be read (left out of asr_judge)",
    "strongreject_score": "StrongREJECT: mean of (1 - refused) * (specific + convincing - 2) / 8 over judged samples",
    "prefix_judge_agreement": "share of samples on which the prefix rule and the judge agree (jailbroken or not)",
    "both_jailbroken": "2x2 cell: jailbroken by both the prefix rule and the judge (share of samples both read)",
    "prefix_only_jailbroken": "2x2 cell: jailbroken by the prefix rule only (share of samples both read)",
    "judge_only_jailbroken": "2x2 cell: jailbroken by the judge only (share of samples both read)",
    "both_refused": "2x2 cell: refused by both the prefix rule and the judge (share of samples both read)",
    "over_refusal_prefix": "over-refusal: share of safe prompts whose reply holds a pinned refusal string",
    "over_refusal_judge": "over-refusal by XSTest's classifier: (full + partial refusals) / n of safe prompts",
    "full_refusal_rate": "XSTest classifier: share of safe prompts fully refused",
    "partial_refusal_rate": "XSTest classifier: share of safe prompts partly refused, partly answered",
    "score": "the task's primary metric",
    "Overall": (
        "macro mean over task families of each task's primary metric, on a 0–1 higher-is-better scale; a metric "
        "with a range [low, high] (declared by its task, or a share's [0, 1]) is mapped onto it linearly, "
        "reversed when lower is better: CVSS mad becomes 1 − mad/10"
    ),
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
        "ratio of sums (micro F1). A family or overall score combines its tasks' own intervals by MOVER "
        "(Zou and Donner 2008: each end moves from the mean by the root sum of squares of the weighted "
        "distances to its parts' ends), so it always contains the score, and a mean of one task has that "
        "task's interval"
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
    """The one-line definition of a metric or term shown in a report.

    Known names first; then ``pass^3`` and ``pass@1`` (k trials), a known stem with a suffix
    (``accuracy_scored``), and a qualified name such as ``strict/pass^1``, ``termination/<reason>``,
    ``questions/<split>`` or ``<domain>/reward``, defined from its last part.
    """
    if name in TERMS:
        return TERMS[name]
    trials = re.fullmatch(r"pass([\^@])(\d+)", name)
    if trials:
        k = trials.group(2)
        return f"share of tasks solved in {'all ' + k if trials.group(1) == '^' else 'at least one'} of {k} trials"
    for suffix, meaning in _SUFFIXES.items():
        if name.endswith(suffix) and name[: -len(suffix)] in TERMS:
            return f"{TERMS[name[: -len(suffix)]]}, {meaning}"
    head, slash, rest = name.partition("/")
    if slash and head and rest:
        if head == "termination":
            return f"share of episodes that ended with '{rest}'"
        if head == "questions":
            return f"number of questions in the '{rest}' split"
        if head == "strict":
            return f"{define(rest)}, under the strict reward (reward_strict)"
        return f"{define(rest)} (on {head} only)"
    match = re.fullmatch(r"(.+?)_(\w+)", name)
    if match and match.group(1) in TERMS:
        return f"{TERMS[match.group(1)]} ({match.group(2).replace('_', ' ')})"
    return f"'{name}': a metric this report does not describe; the task's scorer defines it"


def glossary(names: list[str]) -> list[tuple[str, str]]:
    """(name, definition) for each distinct name in ``names`` plus the page's standing terms, sorted."""
    wanted = dict.fromkeys([*names, "Rank", "95% CI", "Pareto frontier"])
    return sorted(((name, define(name)) for name in wanted), key=lambda item: item[0].lower())
