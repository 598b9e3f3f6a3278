"""The official ConFiQA judgements of one output, and their task-level aggregates.

Per output (after SQuAD normalisation; containment is a character substring as in the
official script, or whole words when asked):
- ``pc``: a counterfactual answer or alias is contained, no negation word, no original answer;
- ``po``: an original answer or alias is contained;
- ``em``: the output equals a counterfactual answer or alias;
- ``robust`` (factual robustness): an original answer is contained under the counterfactual
  context, with no counterfactual answer and no negation word;
- ``control``: the same test as ``robust`` on the answer given the original context.
``MR = sum(po) / (sum(po) + sum(pc))`` over the task.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from harness.stats import mean_metric, ratio_metric
from harness.types import MetricValue, SampleResult
from scorers.alias_match import MatchMode, answer_forms, contains_any, exact_match_any, negation_words

FLAGS = ("pc", "po", "em", "robust")


@dataclass(frozen=True)
class Judgement:
    """The flags of one output against one item's answers."""

    pc: bool
    po: bool
    em: bool
    robust: bool
    cf_hit: str | None
    orig_hit: str | None
    negations: tuple[str, ...]

    def as_details(self) -> dict[str, object]:
        """The flags as a JSON-ready dict for ``Score.details``."""
        data = asdict(self)
        data["negations"] = list(self.negations)
        return data


def judge(text: str, orig: Sequence[str], cf: Sequence[str], mode: MatchMode = "substring") -> Judgement:
    """Judge ``text`` against original answers ``orig`` and counterfactual answers ``cf`` (raw, unnormalised)."""
    orig_forms, cf_forms = answer_forms(orig[0], orig[1:]), answer_forms(cf[0], cf[1:])
    cf_hit = contains_any(text, cf_forms, mode)
    orig_hit = contains_any(text, orig_forms, mode)
    negations = negation_words(text)
    return Judgement(
        pc=cf_hit is not None and orig_hit is None and not negations,
        po=orig_hit is not None,
        em=exact_match_any(text, cf_forms),
        robust=orig_hit is not None and cf_hit is None and not negations,
        cf_hit=cf_hit,
        orig_hit=orig_hit,
        negations=negations,
    )


def control_correct(text: str, orig: Sequence[str], cf: Sequence[str], mode: MatchMode = "substring") -> bool:
    """Whether an answer given the original context names the original answer (and no other)."""
    return judge(text, orig, cf, mode).robust


def _flag(result: SampleResult, name: str) -> float | None:
    """A per-sample flag; errors are left out and unscored outputs count as 0."""
    if result.score.outcome == "error":
        return None
    value = result.score.details.get(name)
    if value is None:
        return None if name == "control" else 0.0
    return 1.0 if value else 0.0


def aggregate_results(results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
    """accuracy (the run's target), pc, po, mr, em, factual_robustness and control_accuracy."""
    columns: dict[str, list[float]] = {"accuracy": [], "pc": [], "po": [], "em": [], "robust": [], "control": []}
    for result in results:
        if result.score.outcome == "error":
            continue
        value = result.score.value if result.score.outcome == "scored" else None
        columns["accuracy"].append(float(value) if value is not None else 0.0)
        for name in (*FLAGS, "control"):
            value = _flag(result, name)
            if value is not None:
                columns[name].append(value)
    denominators = [p + c for p, c in zip(columns["po"], columns["pc"], strict=True)]
    return {
        "accuracy": mean_metric(columns["accuracy"], seed=seed),
        "pc": mean_metric(columns["pc"], seed=seed),
        "po": mean_metric(columns["po"], seed=seed),
        "mr": ratio_metric(columns["po"], denominators, seed=seed),
        "em": mean_metric(columns["em"], seed=seed),
        "factual_robustness": mean_metric(columns["robust"], seed=seed),
        "control_accuracy": mean_metric(columns["control"], seed=seed),
    }
