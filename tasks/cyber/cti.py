"""CTI-Bench: multiple choice (CTI-MCQ), CVE to CWE (CTI-RCM) and CVSS prediction (CTI-VSP).

The published protocol is the default (xashru/cti-bench ``evaluation/model-prediction.ipynb``):
each row's own ``Prompt`` column as the user message after the system prompt "You are a
cybersecurity expert specializing in cyberthreat intelligence.", temperature 0, top_p 1,
seed 42 and 2048 tokens for every task. Answers are extracted as the authors' cells do,
leniently where they are strict only by accident (see ``tasks.cyber.base``).

Metrics name the paper's number: ``accuracy`` is the published accuracy of each task
(CTI-MCQ: every row in the denominator, a refusal or unreadable answer counts wrong;
CTI-RCM: only answers that name a CWE in the denominator), with the other reading beside
it (``accuracy_scored`` for MCQ, ``accuracy_all`` for RCM). ``ceiling_accuracy`` and
``duplicate_conflict_rows`` say how far duplicated prompts with different ground truths
cap any deterministic model. See ``ctibench_data`` for where the TSVs come from.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar, TypeVar

from pydantic import Field

from harness.api import (
    Accumulator,
    CombinedAccumulator,
    ConfigError,
    GenerationSettings,
    Message,
    Metric,
    Sample,
    Task,
    TaskArgs,
    accuracy_over_answered,
    accuracy_over_scored,
)
from scorers.choice import normalise_letters
from scorers.cti_ids import normalise_cwe
from scorers.cvss_score import InvalidVector, parse_cvss3
from tasks.cyber.base import CvssVectorTask, CweTask, LetterChoiceTask
from tasks.cyber.ctibench_data import Row, load_subset
from tasks.cyber.metrics import ConflictAccumulator
from tasks.cyber.prompts import CTI_SYSTEM_PROMPT

DATA_HELP = (
    "a CTI-Bench checkout (data/cti-*.tsv, evaluation/...), a folder with the cti-*.tsv files, or one "
    ".tsv file; 'hub' or 'hub:<id>' for the hub dataset (online only); default $FRONTIER_CTIBENCH_DATA, "
    "else the hub dataset AI4Sec/cti-bench"
)
PROTOCOL_HELP = (
    "send the paper's system prompt (the published protocol); with false the prompt goes alone as "
    "one user message. Differences from the paper: Gemini and LLaMA were sent the system prompt "
    "and the question joined by a space as one prompt, not as a system message"
)
PUBLISHED_SETTINGS = GenerationSettings(max_tokens=2048, temperature=0.0, top_p=1.0, seed=42)


class CtiArgs(TaskArgs):
    """Arguments shared by the CTI-Bench tasks."""

    data: str | None = Field(None, description=DATA_HELP)
    system_prompt: bool = Field(True, description=PROTOCOL_HELP)


CtiArgsT = TypeVar("CtiArgsT", bound=CtiArgs, covariant=True)


def prompt_text(sample: Sample) -> str:
    """The user prompt of a CTI-Bench sample (its input without the system message)."""
    if isinstance(sample.input, str):
        return sample.input
    return "\n".join(m.content or "" for m in sample.input if m.role == "user")


class CtiRows(Task[CtiArgsT]):
    """Loads one CTI-Bench subset and turns its rows into samples."""

    subset: str = ""
    required: Sequence[str] = ("Prompt", "GT")
    settings: ClassVar[GenerationSettings] = PUBLISHED_SETTINGS

    def rows(self) -> list[Row]:
        """The subset's rows, checked for the required columns."""
        args = self.args
        return load_subset(args.data, self.subset, self.required)

    def target_of(self, row: Row, index: int) -> object:
        """The row's ground truth in the scorer's form; ConfigError naming the row if invalid."""
        raise NotImplementedError

    def model_input(self, prompt: str) -> str | tuple[Message, ...]:
        """The paper's system prompt then ``prompt`` (or ``prompt`` alone with ``-T system_prompt=false``)."""
        if not self.args.system_prompt:
            return prompt
        return (Message(role="system", content=CTI_SYSTEM_PROMPT), Message(role="user", content=prompt))

    def samples(self) -> Iterator[Sample]:
        """One sample per row, input the row's original prompt."""
        for index, row in enumerate(self.rows()):
            prompt = row["Prompt"].strip()
            if not prompt:
                raise ConfigError(f"CTI-Bench {self.subset} row {index}: empty Prompt")
            metadata = {"row": index, "url": row.get("URL", "")}
            yield Sample(
                id=f"{self.subset}-{index:04d}",
                input=self.model_input(prompt),
                target=self.target_of(row, index),
                metadata=metadata,
            )

    def bad_row(self, index: int, message: str) -> ConfigError:
        """The error for an invalid row."""
        return ConfigError(f"CTI-Bench {self.subset} row {index}: {message}")


class CtiMcqTask(CtiRows[CtiArgs], LetterChoiceTask[CtiArgs]):
    """CTI-MCQ: ATT&CK, CAPEC and CWE knowledge; one letter A-D on the last line (else the first line).

    Published protocol: the row's Prompt after the paper's system prompt, temperature 0,
    top_p 1, seed 42, 2048 tokens. ``accuracy`` is the paper's (all 2,500 rows; a refusal,
    'X' in the authors' sheet, counts wrong); ``accuracy_scored`` is over answers with a letter.
    Differences from the paper: the authors finished extraction by hand; here a letter on the
    last line, the last 'Answer:' line or alone on the first line is read, anything else is
    unscored (and wrong in ``accuracy``).
    """

    description = (
        "CTI-Bench CTI-MCQ: cyber threat intelligence multiple choice (accuracy: the paper's, every row; "
        "accuracy_scored: answers with a letter)"
    )
    version = "2"
    subset = "cti-mcq"

    def accumulator(self, seed: int = 0) -> Accumulator:
        """The paper's accuracy (every row), accuracy over parsed letters, and the duplicate-prompt ceiling."""
        return CombinedAccumulator(super().accumulator(seed), ConflictAccumulator())

    def target_of(self, row: Row, index: int) -> str:
        """The GT letter in uppercase (upstream has a lowercase ``b``)."""
        letter = normalise_letters(row["GT"])
        if letter is None or len(letter) != 1:
            raise self.bad_row(index, f"GT {row['GT']!r} is not one of A, B, C, D")
        return letter


RCM_METRICS: tuple[Metric, ...] = (
    Metric("accuracy", accuracy_over_scored, "the paper's accuracy: over answers that name a CWE"),
    Metric("accuracy_all", accuracy_over_answered, "over every row; an answer naming no CWE counts wrong"),
)


class CtiRcmTask(CtiRows[CtiArgs], CweTask[CtiArgs]):
    """CTI-RCM: map a CVE description to its CWE; the CWE id on the last line, else the last one anywhere.

    Published protocol: the row's Prompt after the paper's system prompt, temperature 0,
    top_p 1, seed 42, 2048 tokens; the last ``CWE-<n>`` of the answer, as the authors' cell
    reads it. ``accuracy`` is the paper's (over answers naming a CWE); ``accuracy_all`` counts
    every row. Differences from the paper: a last line naming several different CWEs is
    unscored rather than read as its last one; ``CWE-079`` equals ``CWE-79``.
    """

    description = (
        "CTI-Bench CTI-RCM: CVE description to CWE (accuracy: the paper's, over answers naming a CWE; "
        "accuracy_all: every row)"
    )
    version = "2"
    subset = "cti-rcm"

    def metrics(self) -> tuple[Metric, ...]:
        """The paper's accuracy (over CWE answers) first, the all-rows reading beside it."""
        return RCM_METRICS

    def accumulator(self, seed: int = 0) -> Accumulator:
        """Both accuracies and the duplicate-prompt ceiling."""
        return CombinedAccumulator(super().accumulator(seed), ConflictAccumulator())

    def target_of(self, row: Row, index: int) -> str:
        """The GT as ``CWE-<n>``."""
        cwe = normalise_cwe(row["GT"])
        if cwe is None:
            raise self.bad_row(index, f"GT {row['GT']!r} is not a CWE id")
        return cwe


class CtiRcm2021Task(CtiRcmTask):
    """CTI-RCM on the 2021 CVEs (upstream's ``cti-rcm-2021.tsv``)."""

    description = (
        "CTI-Bench CTI-RCM-2021: 2021 CVE descriptions to CWE (accuracy: the paper's, over answers "
        "naming a CWE; accuracy_all: every row)"
    )
    subset = "cti-rcm-2021"


class CtiVspTask(CtiRows[CtiArgs], CvssVectorTask[CtiArgs]):
    """CTI-VSP: predict the CVSS v3.1 vector; mean absolute deviation of base scores.

    Published protocol: the row's Prompt after the paper's system prompt, temperature 0,
    top_p 1, seed 42, 2048 tokens; the last full 8-metric vector of the answer. ``mad`` is
    the paper's (over valid vectors). Differences from the paper: an unprefixed vector is
    read as CVSS 3.1 (the notebook prefixes 3.0; base scores agree on every published
    answer), and invalid vectors (``AV:U``) stay invalid where the authors corrected them
    by hand; ``invalid_rate`` counts them.
    """

    description = "CTI-Bench CTI-VSP: CVSS v3 vector prediction (mad: the paper's MAD of base scores, valid vectors)"
    version = "2"
    subset = "cti-vsp"

    def target_of(self, row: Row, index: int) -> str:
        """The GT vector, validated (``CVSS:3.0/`` and ``CVSS:3.1/`` both accepted)."""
        try:
            parse_cvss3(row["GT"])
        except InvalidVector as exc:
            raise self.bad_row(index, f"GT {row['GT'][:120]!r} is not a valid CVSS v3 vector: {exc}") from None
        return row["GT"].strip()
