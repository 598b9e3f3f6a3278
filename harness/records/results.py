"""How a sample went: the score of its output, the output itself, and the ``samples.jsonl`` line holding both."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer, model_validator

from harness.records.base import JsonDict, ModelText, Record
from harness.records.chat import Message
from harness.records.generation import CallRecord
from harness.records.usage import Usage
from harness.stored_once import compact, restore

Outcome = Literal["scored", "unscored", "error"]
OUTCOMES: tuple[Outcome, ...] = ("scored", "unscored", "error")


class Score(Record):
    """The judgement of one output.

    ``unscored`` means the answer could not be parsed; it is never silently wrong.
    ``error`` means the evaluation itself failed (model call or scorer).
    """

    value: float | None = None
    correct: bool | None = None
    outcome: Outcome = "scored"
    answer: str | None = None
    explanation: str = ""
    details: JsonDict = Field(default_factory=dict)

    @classmethod
    def of(cls, correct: bool, answer: str | None = None, explanation: str = "", **details: Any) -> Score:
        """A scored binary judgement."""
        return cls(
            value=1.0 if correct else 0.0, correct=correct, answer=answer, explanation=explanation, details=details
        )

    @classmethod
    def unscored(cls, explanation: str, **details: Any) -> Score:
        """An answer that could not be parsed."""
        return cls(outcome="unscored", explanation=explanation, details=details)

    @classmethod
    def error(cls, explanation: str, **details: Any) -> Score:
        """An evaluation that failed."""
        return cls(outcome="error", explanation=explanation, details=details)


class Output(Record):
    """What a task's solver produced for a sample: the final text and any trajectory."""

    text: ModelText = ""
    trajectory: tuple[Message, ...] = ()
    data: JsonDict = Field(default_factory=dict)


class SampleResult(Record):
    """One line of ``samples.jsonl``: a sample, what the model did and how it scored.

    Each text is stored once: serialised, what is already in the ``transcript`` (a call's reply,
    ``output.text``, ``output.trajectory``) is a reference to it, and reading the record back
    puts it back (:mod:`harness.stored_once`), so ``model_validate_json(r.model_dump_json()) == r``.
    """

    sample_id: str
    task: str
    input: str | tuple[Message, ...]
    target: Any = None
    output: Output = Output()
    score: Score
    calls: tuple[CallRecord, ...] = ()
    usage: Usage = Usage()
    cost_usd: float | None = None
    cost_known: bool = True
    retries: int = 0
    latency_s: float = 0.0
    metadata: JsonDict = Field(default_factory=dict)
    method_data: JsonDict = Field(default_factory=dict)
    transcript: tuple[Message, ...] | None = Field(default=None, exclude_if=lambda messages: messages is None)
    """Every distinct message the sample's calls were made on, once, in the order first sent; None in a
    log written before transcripts were kept."""

    @model_validator(mode="after")
    def _spans_within_transcript(self) -> SampleResult:
        """Every call's message spans lie within the transcript (a log line is untrusted)."""
        size = len(self.transcript or ())
        for number, call in enumerate(self.calls):
            for start, stop in call.messages or ():
                if not start < stop <= size:
                    raise ValueError(f"call {number} names messages {start}..{stop - 1} of a {size}-message transcript")
        return self

    @model_validator(mode="before")
    @classmethod
    def _restore_stored_once(cls, data: Any) -> Any:
        """Put back every text stored as a reference to the transcript (see :mod:`harness.stored_once`)."""
        return restore(data)

    @model_serializer(mode="wrap")
    def _store_once(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Store each text already in the transcript as a reference to it (see :mod:`harness.stored_once`)."""
        data = handler(self)
        return compact(self, data) if isinstance(data, dict) else data
