"""Set matching: precision, recall and F1 of a predicted set against a reference set.

Per-sample F1 averaged over samples (macro) and micro F1 from summed counts are both
built from ``SetMatch``; micro F1 is ``2·TP / (2·TP + FP + FN)`` over the pooled counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SetMatch:
    """Counts of one comparison: true positives, false positives and false negatives."""

    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was predicted and nothing was expected."""
        denom = self.tp + self.fp
        if denom == 0:
            return 1.0 if self.fn == 0 else 0.0
        return self.tp / denom

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when nothing was expected and nothing was predicted."""
        denom = self.tp + self.fn
        if denom == 0:
            return 1.0 if self.fp == 0 else 0.0
        return self.tp / denom

    @property
    def f1(self) -> float:
        """2·TP / (2·TP + FP + FN); 1.0 when both sets are empty."""
        denom = 2 * self.tp + self.fp + self.fn
        return 1.0 if denom == 0 else 2 * self.tp / denom

    @property
    def exact(self) -> bool:
        """True when the sets are equal."""
        return self.fp == 0 and self.fn == 0


def match_sets(predicted: Iterable[str], reference: Iterable[str]) -> SetMatch:
    """Compare two collections as sets (duplicates count once)."""
    pred, ref = set(predicted), set(reference)
    both = len(pred & ref)
    return SetMatch(tp=both, fp=len(pred) - both, fn=len(ref) - both)


def micro_counts(matches: Iterable[SetMatch]) -> SetMatch:
    """The pooled counts of several comparisons (their micro precision, recall and F1)."""
    tp = fp = fn = 0
    for m in matches:
        tp, fp, fn = tp + m.tp, fp + m.fp, fn + m.fn
    return SetMatch(tp=tp, fp=fp, fn=fn)
