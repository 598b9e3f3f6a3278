"""The ConFiQA judgements of one output, official and strict, and their task-level aggregates.

Official (the authors' ``evaluation.py``, byronBBL/Context-DPO), after SQuAD normalisation of
output and answers, with their negation words (``NEGATION_WORDS``):
- ``pc``: some counterfactual answer or alias is a substring of the output, no original one is,
  and the normalised output has no negation word;
- ``po``: some original answer or alias is a substring of the output (negation not checked);
- ``em``: the normalised output equals a counterfactual answer or alias and the raw output has
  no negation word among its whitespace-separated tokens;
``MR = sum(po) / (sum(po) + sum(pc))``; every item counts in every denominator.

Strict (this suite's reading, ``*_strict``), rule by rule: answers are found as whole words
("Ian" is not in "Brian"); negated contractions (``isn't``, ``don't``...) are negations too;
EM's negation check reads the normalised output (``No,`` and ``NOT`` count).
Suite metrics: ``robust`` (factual robustness: an original answer, no counterfactual one, no
negation, under the counterfactual context) and ``control`` (the same test on the answer given
the original context), both with the authors' matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from harness.api import MetricValue, SampleResult, mean_metric, ratio_metric
from scorers.alias_match import (
    CONTRACTED_NEGATIONS,
    NEGATION_WORDS,
    answer_forms,
    contains_any,
    exact_match_any,
    negation_words,
    raw_negation_words,
)

FLAGS = ("pc", "po", "em", "robust", "pc_strict", "po_strict", "em_strict")
STRICT_NEGATIONS = NEGATION_WORDS | CONTRACTED_NEGATIONS


@dataclass(frozen=True)
class Judgement:
    """The flags of one output against one item's answers."""

    pc: bool
    po: bool
    em: bool
    robust: bool
    pc_strict: bool
    po_strict: bool
    em_strict: bool
    cf_hit: str | None
    orig_hit: str | None
    negations: tuple[str, ...]

    def as_details(self) -> dict[str, object]:
        """The flags as a JSON-ready dict for ``Score.details``."""
        data = asdict(self)
        data["negations"] = list(self.negations)
        return data


def judge(text: str, orig: Sequence[str], cf: Sequence[str]) -> Judgement:
    """Judge ``text`` against original answers ``orig`` and counterfactual answers ``cf`` (raw, unnormalised)."""
    orig_forms, cf_forms = answer_forms(orig[0], orig[1:]), answer_forms(cf[0], cf[1:])
    cf_hit, orig_hit = contains_any(text, cf_forms), contains_any(text, orig_forms)
    negations = negation_words(text)
    cf_word, orig_word = contains_any(text, cf_forms, "word"), contains_any(text, orig_forms, "word")
    strict_negations = negation_words(text, STRICT_NEGATIONS)
    em = exact_match_any(text, cf_forms)
    return Judgement(
        pc=cf_hit is not None and orig_hit is None and not negations,
        po=orig_hit is not None,
        em=em and not raw_negation_words(text),
        robust=orig_hit is not None and cf_hit is None and not negations,
        pc_strict=cf_word is not None and orig_word is None and not strict_negations,
        po_strict=orig_word is not None,
        em_strict=em and not strict_negations,
        cf_hit=cf_hit,
        orig_hit=orig_hit,
        negations=tuple(sorted(set(negations) | set(strict_negations))),
    )


def control_correct(text: str, orig: Sequence[str], cf: Sequence[str]) -> bool:
    """Whether an answer given the original context names the original answer (and no other)."""
    return judge(text, orig, cf).robust


def _flag(result: SampleResult, name: str) -> float | None:
    """A per-sample flag; errors are left out and unscored outputs count as 0."""
    if result.score.outcome == "error":
        return None
    value = result.score.details.get(name)
    if value is None:
        return None if name == "control" else 0.0
    return 1.0 if value else 0.0


class ConFiQAAccumulator:
    """accuracy (the run's target), the official pc, po, mr, em, their strict readings, factual_robustness
    and control_accuracy; every item that is not an infrastructure error counts (an empty answer as 0)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.columns: dict[str, list[float]] = {name: [] for name in ("accuracy", *FLAGS, "control")}

    def add(self, result: SampleResult) -> None:
        """Record the result's score and flags; an infrastructure error is left out."""
        if result.score.outcome == "error":
            return
        value = result.score.value if result.score.outcome == "scored" else None
        self.columns["accuracy"].append(float(value) if value is not None else 0.0)
        for name in (*FLAGS, "control"):
            flag = _flag(result, name)
            if flag is not None:
                self.columns[name].append(flag)

    def finish(self) -> dict[str, MetricValue]:
        """Each metric with its n and 95% CI (MR a ratio of sums, by paired bootstrap)."""
        columns, seed = self.columns, self.seed
        metrics = {"accuracy": mean_metric(columns["accuracy"], seed=seed)}
        for suffix in ("", "_strict"):
            po, pc = columns["po" + suffix], columns["pc" + suffix]
            metrics["pc" + suffix] = mean_metric(pc, seed=seed)
            metrics["po" + suffix] = mean_metric(po, seed=seed)
            metrics["mr" + suffix] = ratio_metric(po, [p + c for p, c in zip(po, pc, strict=True)], seed=seed)
            metrics["em" + suffix] = mean_metric(columns["em" + suffix], seed=seed)
        metrics["factual_robustness"] = mean_metric(columns["robust"], seed=seed)
        metrics["control_accuracy"] = mean_metric(columns["control"], seed=seed)
        return metrics
