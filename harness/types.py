"""Core records of the harness: what flows from a suite to a run log.

Every record is an immutable pydantic model that serialises to JSON and back
without loss (``Record.model_validate_json(r.model_dump_json()) == r``).
Containers are tuples so that records compare and hash by value.

This module is the public name of the records, which the harness, task families and plugins import;
they are defined in :mod:`harness.records`, one module per kind, and re-exported here.
"""

from harness.records.base import JsonDict, ModelText, Record, escape_lone_surrogates, record_json
from harness.records.chat import (
    SWAPPED_ROLES,
    GenerateRequest,
    GenerationOverrides,
    Message,
    Sample,
    ToolCall,
    swap_roles,
)
from harness.records.generation import CallRecord, Generation, Span, Timing, TokenLogprob
from harness.records.results import OUTCOMES, Outcome, Output, SampleResult, Score
from harness.records.summaries import MetricScale, MetricValue, RunSummary, TaskSummary
from harness.records.usage import MAX_TOKENS, TOKEN_FIELDS, Usage, summed_cost

__all__ = [
    "MAX_TOKENS",
    "OUTCOMES",
    "SWAPPED_ROLES",
    "TOKEN_FIELDS",
    "CallRecord",
    "GenerateRequest",
    "Generation",
    "GenerationOverrides",
    "JsonDict",
    "Message",
    "MetricScale",
    "MetricValue",
    "ModelText",
    "Outcome",
    "Output",
    "Record",
    "RunSummary",
    "Sample",
    "SampleResult",
    "Score",
    "Span",
    "TaskSummary",
    "Timing",
    "TokenLogprob",
    "ToolCall",
    "Usage",
    "escape_lone_surrogates",
    "record_json",
    "summed_cost",
    "swap_roles",
]
