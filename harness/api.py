"""The public API for people who write task families and model adapters: import from here only.

Everything a family in ``tasks/`` or an adapter plugin needs from the harness is re-exported under one
name (``from harness.api import Task, TaskArgs, Sample, Score``); the modules it comes from are private
and may move. See ``docs/write-a-task-family.md`` for a family written against it from an empty folder.

Importing this module imports none of them: each name loads its module the first time it is asked for
(PEP 562), so a module that only declares something cheap (``LazyCommand`` for ``frontier --help``)
costs no more than before, and a family pays only for what it uses. Type checkers read the imports
below ``TYPE_CHECKING``, which list the same names as ``_SOURCES`` (a test keeps them equal).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.adapters import resolve_adapter
    from harness.adapters.base import ClosableAdapter, MethodAdapter, ModelAdapter, checked_options, close_adapter
    from harness.adapters.local_model_files import resolve_model_path
    from harness.calls import LabelledAdapter, auxiliary_model
    from harness.cli.commands import LazyCommand
    from harness.context import labelled_calls
    from harness.datasets_get import DataSource
    from harness.errors import AdapterError, ConfigError, FrontierError, MissingCapability, TransientError
    from harness.hub import hub_unavailable
    from harness.import_formats import (
        MAX_IMPORT_BYTES,
        ImportedText,
        ImportFormatSpec,
        read_import_text,
        read_tsv_table,
        refuse_duplicates,
    )
    from harness.json_input import JsonInputError, parse_json, read_json
    from harness.metrics import Accumulator, CombinedAccumulator, Metric, MetricsAccumulator, fold, scaled
    from harness.run_options import RetryPolicy
    from harness.runner import evaluate
    from harness.stats import MetricKind, mean_metric, proportion_metric, ratio_metric
    from harness.task import (
        AnyTask,
        ArgsT,
        GenerationSettings,
        SolveContext,
        Task,
        TaskArgs,
        TaskEntry,
        TaskFamily,
        TaskResolver,
        accuracy_over_answered,
        accuracy_over_scored,
    )
    from harness.transcript import ENDED_BY
    from harness.types import (
        GenerateRequest,
        Generation,
        GenerationOverrides,
        JsonDict,
        Message,
        MetricScale,
        MetricValue,
        Output,
        Sample,
        SampleResult,
        Score,
        TokenLogprob,
        ToolCall,
        Usage,
        swap_roles,
    )

_SOURCES: dict[str, tuple[str, ...]] = {
    # Tasks and their registration.
    "harness.task": (
        "AnyTask",
        "ArgsT",
        "GenerationSettings",
        "SolveContext",
        "Task",
        "TaskArgs",
        "TaskEntry",
        "TaskFamily",
        "TaskResolver",
        "accuracy_over_answered",
        "accuracy_over_scored",
    ),
    # The records that flow from a sample to a score, and the calls in between.
    "harness.types": (
        "GenerateRequest",
        "Generation",
        "GenerationOverrides",
        "JsonDict",
        "Message",
        "MetricScale",
        "MetricValue",
        "Output",
        "Sample",
        "SampleResult",
        "Score",
        "TokenLogprob",
        "ToolCall",
        "Usage",
        "swap_roles",
    ),
    # What an agent task says of its conversation to the transcript's views.
    "harness.transcript": ("ENDED_BY",),
    # Metrics: one interval method per kind (Wilson for proportions, a seeded bootstrap otherwise).
    "harness.stats": ("MetricKind", "mean_metric", "proportion_metric", "ratio_metric"),
    "harness.metrics": ("Accumulator", "CombinedAccumulator", "Metric", "MetricsAccumulator", "fold", "scaled"),
    # Errors a user sees as one line.
    "harness.errors": ("AdapterError", "ConfigError", "FrontierError", "MissingCapability", "TransientError"),
    # Untrusted input.
    "harness.json_input": ("JsonInputError", "parse_json", "read_json"),
    "harness.import_formats": (
        "MAX_IMPORT_BYTES",
        "ImportFormatSpec",
        "ImportedText",
        "read_import_text",
        "read_tsv_table",
        "refuse_duplicates",
    ),
    # Models: the adapter protocol, method wrappers, and the second models a task calls (judges, users).
    "harness.adapters": ("resolve_adapter",),
    "harness.adapters.base": ("ClosableAdapter", "MethodAdapter", "ModelAdapter", "checked_options", "close_adapter"),
    "harness.adapters.local_model_files": ("resolve_model_path",),
    "harness.calls": ("LabelledAdapter", "auxiliary_model"),
    "harness.run_options": ("RetryPolicy",),
    "harness.context": ("labelled_calls",),
    # Running a task in memory (a family's own tests: the scorer against builtin/oracle and builtin/random).
    "harness.runner": ("evaluate",),
    # Data, the hub, and subcommands.
    "harness.datasets_get": ("DataSource",),
    "harness.hub": ("hub_unavailable",),
    "harness.cli.commands": ("LazyCommand",),
}

_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = [
    "ENDED_BY",
    "MAX_IMPORT_BYTES",
    "Accumulator",
    "AdapterError",
    "AnyTask",
    "ArgsT",
    "ClosableAdapter",
    "CombinedAccumulator",
    "ConfigError",
    "DataSource",
    "FrontierError",
    "GenerateRequest",
    "Generation",
    "GenerationOverrides",
    "GenerationSettings",
    "ImportFormatSpec",
    "ImportedText",
    "JsonDict",
    "JsonInputError",
    "LabelledAdapter",
    "LazyCommand",
    "Message",
    "MethodAdapter",
    "Metric",
    "MetricKind",
    "MetricScale",
    "MetricValue",
    "MetricsAccumulator",
    "MissingCapability",
    "ModelAdapter",
    "Output",
    "RetryPolicy",
    "Sample",
    "SampleResult",
    "Score",
    "SolveContext",
    "Task",
    "TaskArgs",
    "TaskEntry",
    "TaskFamily",
    "TaskResolver",
    "TokenLogprob",
    "ToolCall",
    "TransientError",
    "Usage",
    "accuracy_over_answered",
    "accuracy_over_scored",
    "auxiliary_model",
    "checked_options",
    "close_adapter",
    "evaluate",
    "fold",
    "hub_unavailable",
    "labelled_calls",
    "mean_metric",
    "parse_json",
    "proportion_metric",
    "ratio_metric",
    "read_import_text",
    "read_json",
    "read_tsv_table",
    "refuse_duplicates",
    "resolve_adapter",
    "resolve_model_path",
    "scaled",
    "swap_roles",
]

if not TYPE_CHECKING:  # hidden from type checkers, so that a misspelt name is an error there

    def __getattr__(name: str) -> object:
        """The public ``name``, imported from its module on first use and kept here."""
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"module 'harness.api' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    """The public names (``dir(harness.api)``), loaded or not."""
    return sorted(__all__)
