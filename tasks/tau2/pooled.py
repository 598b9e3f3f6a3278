"""``tau2/all``: airline, retail and telecom in one task, for overall τ² figures with each domain's beside them.

Each sample is run and scored by its own domain's task (same episode loop, same rewards), so a
``tau2/all`` sample's record is exactly what ``tau2/<domain>`` logs for it. Samples are interleaved
task by task across the domains (a task's trials stay together), so ``--limit`` takes from every
domain. The summary pools every task with equal weight (as τ² averages over a domain's tasks)
and adds each domain's ``<domain>/reward``, ``<domain>/pass^k`` and so on (a name such as
``reward[airline]`` would be read as markup by the terminal's summary table and shown as ``reward``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import chain, zip_longest
from typing import TYPE_CHECKING

from harness.api import GenerateRequest, Generation, MetricValue, Output, Sample, SampleResult, Score, SolveContext
from tasks.tau2.task import Tau2DomainTask

if TYPE_CHECKING:
    from tau2.data_model.tasks import Task as Tau2Task

    from harness.api import Accumulator

POOLED_DOMAINS = ("airline", "retail", "telecom")
BREAKDOWN_METRICS = ("reward", "reward_strict")
BREAKDOWN_PREFIXES = ("pass^", "pass@", "strict/pass^", "strict/pass@")


def domain_of_id(sample_id: str) -> str:
    """The domain a ``tau2/all`` sample id names (``retail-12#0`` -> ``retail``)."""
    return sample_id.split("-", 1)[0]


def _in_breakdown(name: str) -> bool:
    return name in BREAKDOWN_METRICS or name.startswith(BREAKDOWN_PREFIXES)


class Tau2PooledTask(Tau2DomainTask):
    """τ²-bench's three published domains together: overall reward, reward_strict and pass^k, and per domain."""

    description = "τ²-bench airline + retail + telecom: overall reward, reward_strict, pass^k/pass@k, and per domain"

    def __init__(self, name: str, **args: object) -> None:
        super().__init__(name, **args)
        values = self.args.model_dump()
        self.trials: int = values["trials"]
        self.members = {domain: Tau2DomainTask(f"tau2/{domain}", **values) for domain in POOLED_DOMAINS}

    @property
    def domain_name(self) -> str:
        """``all``: the samples come from several domains."""
        return "all"

    def tau2_tasks(self) -> list[Tau2Task]:
        """Every domain's tasks of the split, domain by domain."""
        return [task for member in self.members.values() for task in member.tau2_tasks()]

    def member(self, sample_id: str) -> Tau2DomainTask:
        """The domain task that runs and scores ``sample_id``; ValueError for an id of no pooled domain."""
        domain = domain_of_id(sample_id)
        if domain not in self.members:
            raise ValueError(f"sample {sample_id!r} names no domain of tau2/all ({', '.join(POOLED_DOMAINS)})")
        return self.members[domain]

    def samples(self) -> Iterator[Sample]:
        """Every domain's samples, one task (with its trials) from each domain in turn."""
        per_domain = [self._task_groups(member, self.trials) for member in self.members.values()]
        for groups in zip_longest(*per_domain):
            yield from chain.from_iterable(group for group in groups if group is not None)

    @staticmethod
    def _task_groups(member: Tau2DomainTask, trials: int) -> Iterator[list[Sample]]:
        """``member``'s samples, grouped by task."""
        samples = iter(member.samples())
        while group := [sample for _, sample in zip(range(trials), samples, strict=False)]:
            yield group

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """The episode as the sample's domain task runs it."""
        return await self.member(sample.id).solve(sample, ctx)

    def score(self, sample: Sample, output: Output) -> Score:
        """Both rewards as the sample's domain task scores them; an id of no pooled domain is unscored."""
        try:
            member = self.member(sample.id)
        except ValueError as exc:
            return Score.unscored(str(exc))
        return member.score(sample, output)

    def reference_output(self, sample: Sample, request: GenerateRequest) -> Generation:
        """The oracle agent or the scripted user, as in the sample's domain."""
        return self.member(sample.id).reference_output(sample, request)

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> Generation | str:
        """The idle agent or the scripted user, as in the sample's domain."""
        return self.member(sample.id).random_output(sample, request, rng)

    def accumulator(self, seed: int = 0) -> Accumulator:
        """The pooled metrics over every task, then ``<domain>/<metric>`` for reward, reward_strict and pass^k/@k."""
        return PooledAccumulator(lambda: super(Tau2PooledTask, self).accumulator(seed))


class PooledAccumulator:
    """A domain task's metrics over every result, and each domain's over its own results (the breakdown ones)."""

    def __init__(self, make: Callable[[], Accumulator]) -> None:
        self.make = make
        self.pooled = make()
        self.domains: dict[str, Accumulator] = {}

    def add(self, result: SampleResult) -> None:
        """Feed ``result`` to the pooled metrics and to its domain's."""
        self.pooled.add(result)
        domain = domain_of_id(result.sample_id)
        if domain not in self.domains:
            self.domains[domain] = self.make()
        self.domains[domain].add(result)

    def finish(self) -> dict[str, MetricValue]:
        """The pooled metrics, then each domain's breakdown metrics (the published domains first, then any other)."""
        metrics = self.pooled.finish()
        order = [*POOLED_DOMAINS, *(domain for domain in self.domains if domain not in POOLED_DOMAINS)]
        for domain in order:
            if domain in self.domains:
                for name, value in self.domains[domain].finish().items():
                    if _in_breakdown(name):
                        metrics[f"{domain}/{name}"] = value
        return metrics
