"""CTI-ATE: extract the MITRE ATT&CK techniques a report describes.

The last line of the answer lists technique ids separated by commas (else the last list of
ids: one per line, in a code block, or before a closing sentence); sub-techniques are
mapped to their parent (the protocol asks for main techniques only). Each sample scores
its set F1; the task reports F1 averaged over samples and micro F1 over pooled counts.
"""

from __future__ import annotations

import random

from harness.api import GenerateRequest, Metric, Output, Sample, Score, accuracy_over_answered, accuracy_over_scored
from scorers.cti_ids import extract_techniques, technique_ids
from scorers.set_f1 import match_sets
from tasks.cyber.cti import CtiArgs, CtiRows, prompt_text
from tasks.cyber.ctibench_data import Row
from tasks.cyber.metrics import SetAccumulator


class CtiAteTask(CtiRows[CtiArgs]):
    """CTI-ATE: ATT&CK technique extraction, scored by set F1 (macro and micro)."""

    description = "CTI-Bench CTI-ATE: ATT&CK technique extraction (set F1, macro and micro)"
    version = "2"
    subset = "cti-ate"

    def target_of(self, row: Row, index: int) -> list[str]:
        """The GT technique ids as a list, sub-techniques mapped to their parent."""
        ids = technique_ids(row["GT"])
        if not ids:
            raise self.bad_row(index, f"GT {row['GT'][:120]!r} lists no technique id")
        return ids

    def score(self, sample: Sample, output: Output) -> Score:
        """Set F1 of the ids on the last line against the GT; unscored when the line has none."""
        predicted = extract_techniques(output.text)
        if predicted is None:
            return Score.unscored("no ATT&CK technique id (Tnnnn) on the last line or in a list of ids")
        truth = [str(t) for t in (sample.target or [])]
        match = match_sets(predicted, truth)
        return Score(
            value=match.f1,
            correct=match.exact,
            answer=", ".join(predicted),
            explanation=f"precision {match.precision:.3f}, recall {match.recall:.3f}",
            details={
                "tp": match.tp,
                "fp": match.fp,
                "fn": match.fn,
                "precision": match.precision,
                "recall": match.recall,
                "f1": match.f1,
            },
        )

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The GT ids on the last line."""
        return "Techniques identified from the behaviours described.\n" + ", ".join(sample.target or [])

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A random handful of the technique ids the prompt lists."""
        listed = technique_ids(prompt_text(sample)) or ["T1059"]
        return ", ".join(rng.sample(listed, k=min(len(listed), rng.randint(1, 6))))

    def metrics(self) -> tuple[Metric, ...]:
        """Each sample's set F1, as ``f1_macro`` averages it (what ``frontier compare`` pairs)."""
        return (
            Metric("f1_macro", accuracy_over_answered, "set F1; an answer naming no technique counts 0", kind="mean"),
            Metric("f1_macro_scored", accuracy_over_scored, "set F1 over answers naming a technique", kind="mean"),
        )

    def accumulator(self, seed: int = 0) -> SetAccumulator:
        """F1 averaged over samples (all rows; parsed rows), micro precision/recall/F1, exact sets."""
        return SetAccumulator(seed)
