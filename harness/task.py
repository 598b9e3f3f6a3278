"""The task interface: load samples, solve them with a model, score the outputs.

A task is a class with a nested ``Args`` model (its ``-T key=value`` arguments),
``samples()``, an optional ``solve()`` (default: one generation from the sample's
messages) and ``score()``. Families group tasks under a name prefix and are
registered through the ``frontier.tasks`` entry-point group.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, Unpack, cast, final, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness.adapters.base import ModelAdapter
from harness.errors import ConfigError
from harness.metrics import Accumulator, Metric, MetricsAccumulator, fold
from harness.types import (
    GenerateRequest,
    Generation,
    GenerationOverrides,
    Message,
    MetricValue,
    Output,
    Sample,
    SampleResult,
    Score,
)


class TaskArgs(BaseModel):
    """Base of a task's arguments; values from ``-T key=value`` are coerced by type."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class GenerationSettings(BaseModel):
    """Generation parameters a task uses unless a suite or the command line overrides them.

    The one source of their constraints: a suite's ``settings`` are checked against the JSON
    Schema generated from this model (``harness.suites.settings_schema``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_tokens: int | None = Field(
        default=1024, ge=1, description="most tokens to generate (null: the provider's limit)"
    )
    temperature: float | None = Field(default=0.0, ge=0, description="sampling temperature (0: greedy)")
    top_p: float | None = Field(default=None, gt=0, le=1, description="nucleus sampling: the probability mass kept")
    seed: int | None = Field(default=None, description="sampling seed, for providers that take one")
    stop: tuple[str, ...] = Field(default=(), description="sequences that end the generation")
    reasoning_budget: int | None = Field(default=None, ge=0, description="thinking tokens, for models with a budget")


def accuracy_over_answered(result: SampleResult) -> float | None:
    """Score value, with unscored answers counted as 0 and errors left out."""
    if result.score.outcome == "error":
        return None
    return result.score.value if result.score.outcome == "scored" else 0.0


def accuracy_over_scored(result: SampleResult) -> float | None:
    """Score value over scored answers only."""
    return result.score.value if result.score.outcome == "scored" else None


DEFAULT_METRICS: tuple[Metric, ...] = (
    Metric("accuracy", accuracy_over_answered, "mean score; unscored answers count as 0, errors excluded"),
    Metric("accuracy_scored", accuracy_over_scored, "mean score over answers that could be parsed"),
)


def _argument_problem(error: Any, fields: list[str]) -> str:
    """One ``-T`` validation error as text; an unknown key names the closest valid one."""
    import difflib

    key = ".".join(str(part) for part in error["loc"]) or "?"
    if error["type"] == "extra_forbidden":
        close = difflib.get_close_matches(key, fields, n=1, cutoff=0.6)
        return f"-T {key}: no such argument" + (f"; did you mean {close[0]}?" if close else "")
    return f"-T {key}: {error['msg']}"


class SolveContext:
    """What a solver gets besides the sample: the model, the settings and a seed."""

    def __init__(self, model: ModelAdapter, settings: GenerationSettings, seed: int) -> None:
        self.model = model
        self.settings = settings
        self.seed = seed

    def request(self, messages: Iterable[Message], **overrides: Unpack[GenerationOverrides]) -> GenerateRequest:
        """A request for ``messages`` with the run's settings, overridden by ``overrides``."""
        params: dict[str, Any] = self.settings.model_dump()
        params.update(overrides)
        return GenerateRequest(messages=tuple(messages), **params)

    async def generate(self, messages: Iterable[Message], **overrides: Unpack[GenerationOverrides]) -> Generation:
        """Generate once from ``messages`` with the run's settings."""
        return await self.model.generate(self.request(messages, **overrides))


ArgsT = TypeVar("ArgsT", bound=TaskArgs, covariant=True)
"""The argument model of a task: ``class ArithTask(Task[ArithArgs])`` makes ``self.args`` an ``ArithArgs``."""


class Task(Generic[ArgsT]):
    """Base class of every task. Subclasses set ``description``, the argument model, ``samples`` and ``score``.

    The type parameter names the argument model (``class ArithTask(Task[ArithArgs])``): ``Args``,
    which validates ``-T`` arguments at run time, follows from it unless the class sets one, and a
    class that sets an ``Args`` other than (a subclass of) its parameter is refused when defined.
    """

    description: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    Args: ClassVar[type[TaskArgs]] = TaskArgs
    settings: ClassVar[GenerationSettings] = GenerationSettings()
    cpu_heavy: ClassVar[bool] = False
    multi_turn: ClassVar[bool] = False
    """True for tasks whose samples are episodes of turns (tool use, a simulated user): never batched."""
    scoring_time_limit_s: ClassVar[float] = 120.0
    """CPU seconds one sample's scoring may use; past it the sample is ``unscored`` with the reason."""

    args: ArgsT

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "aggregate" in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} overrides aggregate: return an accumulator from accumulator() instead")
        parameter = _args_parameter(cls)
        if parameter is None or issubclass(cls.Args, parameter):
            return
        if "Args" in cls.__dict__:
            raise TypeError(f"{cls.__qualname__}.Args is {cls.Args.__name__}, not its parameter {parameter.__name__}")
        cls.Args = parameter

    def __init__(self, name: str, **args: object) -> None:
        self.name = name
        try:
            self.args = cast(ArgsT, self.Args.model_validate(args))
        except ValidationError as exc:
            problems = "; ".join(_argument_problem(err, list(self.Args.model_fields)) for err in exc.errors())
            if any(err["type"] == "extra_forbidden" for err in exc.errors()):
                valid = ", ".join(sorted(self.Args.model_fields)) or "none"
                problems += f" (valid arguments: {valid}; see 'frontier list tasks {name}')"
            raise ConfigError(f"task {name}: bad arguments: {problems}") from None

    def samples(self) -> Iterable[Sample]:
        """The task's samples, in a deterministic order."""
        raise NotImplementedError

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """Default solver: one generation from the sample's messages."""
        generation = await ctx.generate(sample.messages())
        return Output(text=generation.text)

    def score(self, sample: Sample, output: Output) -> Score:
        """Judge ``output``; must not raise on any model output."""
        raise NotImplementedError

    async def imported_output(self, sample: Sample, text: str) -> Output:
        """The output ``frontier import`` scores for an imported ``text``; by default the text alone.

        A task whose scoring reads what its solver adds after the model's reply (a judge's
        verdict, say) makes those calls here; they are logged in the sample as the solver's are.
        """
        return Output(text=text)

    def reference_output(self, sample: Sample, request: GenerateRequest) -> Generation | str:
        """What a perfect model would answer to ``request`` (used by ``builtin/oracle``)."""
        return str(sample.target)

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> Generation | str:
        """A seeded guess (used by ``builtin/random``); tasks override with their answer space."""
        return str(rng.randint(0, 100))

    def metrics(self) -> tuple[Metric, ...]:
        """Per-sample metrics averaged in the summary."""
        return DEFAULT_METRICS

    def item_of(self, result: SampleResult) -> str:
        """The item ``result`` answers, on which ``frontier compare`` pairs runs.

        The sample id, less the ``#<trial>`` suffix of a task run with trials (the sample's
        ``metadata["trial"]``), so that an item's trials share it and are averaged.
        """
        trial = result.metadata.get("trial")
        suffix = f"#{trial}"
        if isinstance(trial, int) and result.sample_id.endswith(suffix):
            return result.sample_id[: -len(suffix)]
        return result.sample_id

    def cluster_of(self, result: SampleResult) -> str | None:
        """The cluster of correlated items (one template, one source fact) ``result``'s item is in.

        None (the default): items are independent. ``frontier compare`` resamples and sign-flips
        whole clusters, since items of one cluster tend to be right or wrong together.
        """
        return None

    def accumulator(self, seed: int = 0) -> Accumulator:
        """What builds the task's metrics in the summary, fed one result at a time (:mod:`harness.metrics`).

        By default the mean of each of ``metrics()``; a task whose metrics are not such means (a ratio
        of sums, a breakdown by group, a count) returns its own accumulator.
        """
        return MetricsAccumulator(self.metrics(), seed=seed)

    @final
    def aggregate(self, results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
        """The task's metrics over ``results``: its accumulator fed every one (not overridable)."""
        return fold(self.accumulator(seed), results)

    @classmethod
    def missing_library(cls) -> str | None:
        """Why this task cannot run here (a library it needs is not installed), or None when it can.

        A suite run leaves such a task out with this reason; asking for it by name still fails, with it.
        """
        return None

    def fingerprint(self) -> dict[str, Any]:
        """What identifies this task's configuration in a run's config."""
        return {"name": self.name, "version": self.version, "args": self.args.model_dump(mode="json")}


def _args_parameter(cls: type[Task[TaskArgs]]) -> type[TaskArgs] | None:
    """The concrete argument model ``cls`` binds in its bases (``Task[X]``, ``LetterChoiceTask[X]``), if any."""
    for base in cls.__dict__.get("__orig_bases__", ()):
        origin = get_origin(base)
        if isinstance(origin, type) and issubclass(origin, Task):
            for parameter in get_args(base):
                if isinstance(parameter, type) and issubclass(parameter, TaskArgs):
                    return parameter
    return None


AnyTask = Task[TaskArgs]
"""A task whatever its arguments (``ArgsT`` is covariant, so every ``Task[X]`` is one)."""


@dataclass(frozen=True)
class TaskEntry:
    """A registered task name, its one-line description and how to build it.

    ``args_model`` (optional, called lazily) names the task's argument model when ``factory``
    is a function rather than a Task class, so that the arguments are known without building
    the task (which may load data).
    """

    name: str
    description: str
    factory: Callable[..., AnyTask]
    args_model: Callable[[], type[TaskArgs]] | None = None

    def create(self, **args: object) -> AnyTask:
        """Build the task with ``args``."""
        return self.factory(self.name, **args)

    def arguments(self) -> type[TaskArgs]:
        """The task's argument model: declared, the factory's ``Args``, or else read off a built task."""
        if self.args_model is not None:
            return self.args_model()
        declared = getattr(self.factory, "Args", None)
        if isinstance(declared, type) and issubclass(declared, TaskArgs):
            return declared
        return type(self.create()).Args


TaskResolver = Callable[[str], "TaskEntry | None"]
"""Builds the entry of a parametric name (``tau2-synth/<folder>``), or None when the name is not its kind."""


@dataclass(frozen=True)
class TaskFamily:
    """A group of tasks exposed through one ``frontier.tasks`` entry point: the one way to declare tasks.

    ``entries`` are the listed names; ``resolvers`` build entries for names that cannot be listed
    (paths, former names), tried in order after ``entries``. ``TaskFamily.of`` builds the common
    case from ``(name, TaskClass)`` pairs.
    """

    entries: Mapping[str, TaskEntry] = field(default_factory=dict)
    resolvers: tuple[TaskResolver, ...] = ()

    @classmethod
    def of(cls, *classes: tuple[str, type[AnyTask]], resolvers: tuple[TaskResolver, ...] = ()) -> TaskFamily:
        """A family from ``(name, TaskClass)`` pairs; descriptions come from the classes."""
        return cls({name: TaskEntry(name, klass.description, klass) for name, klass in classes}, resolvers)

    def __iter__(self) -> Iterator[TaskEntry]:
        return iter(self.entries.values())

    def resolve(self, name: str) -> TaskEntry | None:
        """The entry called ``name``: listed, else the first resolver's; None when neither knows it."""
        entry = self.entries.get(name)
        for resolver in self.resolvers:
            if entry is not None:
                break
            entry = resolver(name)
        return entry
