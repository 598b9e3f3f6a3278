"""The dispatcher: dynamic shards, a lost worker's samples retried elsewhere, nothing lost or logged twice."""

from __future__ import annotations

import asyncio
import logging

import pytest

from harness.errors import ConfigError
from harness.executors.dispatch import Dispatcher, Unit, WorkerLost
from harness.executors.ray_executor import worker_split
from harness.types import Output, Sample, SampleResult, Score


def _units(n: int, task: str = "demo/arith") -> list[Unit]:
    return [Unit(0, task, Sample(id=f"s{i}", input=f"question {i}", target=i)) for i in range(n)]


def _result(unit: Unit, worker: str) -> SampleResult:
    return SampleResult(
        sample_id=unit.sample.id,
        task=unit.task_name,
        input=unit.sample.input,
        target=unit.sample.target,
        output=Output(text=worker),
        score=Score.of(True),
    )


class FakeWorker:
    """Answers shards after a short sleep; dies (WorkerLost) on the shard numbers in ``die_on``."""

    def __init__(
        self, name: str, log: list[tuple[str, list[str]]], die_on: set[int] | None = None, poison: str | None = None
    ) -> None:
        self.name = name
        self.log = log
        self.die_on = die_on or set()
        self.poison = poison
        self.calls = 0
        self.closed = False

    async def run(self, shard: list[Unit]) -> list[SampleResult]:
        self.calls += 1
        self.log.append((self.name, [u.sample.id for u in shard]))
        await asyncio.sleep(0.001)
        if self.calls in self.die_on or any(u.sample.id == self.poison for u in shard):
            raise WorkerLost(f"{self.name} killed")
        return [_result(u, self.name) for u in shard]

    async def close(self) -> None:
        self.closed = True


def _run(dispatcher: Dispatcher, units: list[Unit]) -> None:
    asyncio.run(dispatcher.run(units))


def test_every_sample_logged_once_across_workers_in_shards() -> None:
    shards: list[tuple[str, list[str]]] = []
    workers: list[FakeWorker] = []
    logged: list[SampleResult] = []

    def spawn(slot: int) -> FakeWorker:
        workers.append(FakeWorker(f"w{slot}", shards))
        return workers[-1]

    dispatcher = Dispatcher(spawn, workers=3, shard_size=4, on_result=logged.append)
    _run(dispatcher, _units(50))
    assert sorted(r.sample_id for r in logged) == sorted(f"s{i}" for i in range(50))
    assert {len(ids) for _, ids in shards} <= {4, 2} and sum(len(ids) for _, ids in shards) == 50
    assert {name for name, _ in shards} == {"w0", "w1", "w2"}
    assert all(w.closed for w in workers)
    assert dispatcher.stats.workers_lost == 0


def test_a_lost_worker_is_replaced_and_its_shard_retried_elsewhere(caplog: pytest.LogCaptureFixture) -> None:
    shards: list[tuple[str, list[str]]] = []
    spawned: list[FakeWorker] = []
    logged: list[SampleResult] = []

    def spawn(slot: int) -> FakeWorker:
        worker = FakeWorker(f"w{slot}-{len(spawned)}", shards, die_on={2} if len(spawned) == 0 else set())
        spawned.append(worker)
        return worker

    with caplog.at_level(logging.WARNING, logger="harness.executors.dispatch"):
        dispatcher = Dispatcher(spawn, workers=2, shard_size=3, on_result=logged.append, depth=1)
        _run(dispatcher, _units(30))
    ids = [r.sample_id for r in logged]
    assert len(ids) == 30 and len(set(ids)) == 30
    first_shard, dead_shard = [ids for name, ids in shards if name == "w0-0"]
    assert first_shard != dead_shard
    producers = {r.sample_id: r.output.text for r in logged}
    assert all(producers[sample_id] != "w0-0" for sample_id in dead_shard)
    assert dispatcher.stats.workers_lost == 1 and dispatcher.stats.requeued == 3
    assert len(spawned) == 3 and all(w.closed for w in spawned)
    assert "lost" in caplog.text


def test_a_sample_that_kills_every_worker_is_logged_as_an_error_after_max_attempts() -> None:
    logged: list[SampleResult] = []
    spawned: list[FakeWorker] = []

    def spawn(slot: int) -> FakeWorker:
        spawned.append(FakeWorker(f"w{len(spawned)}", [], poison="s7"))
        return spawned[-1]

    dispatcher = Dispatcher(spawn, workers=2, shard_size=5, on_result=logged.append, max_attempts=3)
    _run(dispatcher, _units(20))
    by_id = {r.sample_id: r for r in logged}
    assert len(logged) == 20 and len(by_id) == 20
    assert by_id["s7"].score.outcome == "error" and "worker died 3 times" in by_id["s7"].score.explanation
    assert all(r.score.outcome == "scored" for k, r in by_id.items() if k != "s7")
    assert dispatcher.stats.gave_up == 1


def test_duplicate_results_are_dropped_before_logging() -> None:
    logged: list[SampleResult] = []

    class Echoing(FakeWorker):
        async def run(self, shard: list[Unit]) -> list[SampleResult]:
            results = await super().run(shard)
            return results + results[:1]

    dispatcher = Dispatcher(lambda slot: Echoing("w", []), workers=2, shard_size=3, on_result=logged.append)
    _run(dispatcher, _units(9))
    assert len(logged) == 9 and dispatcher.stats.duplicates_dropped == 3


def test_results_missing_from_a_shard_are_retried() -> None:
    logged: list[SampleResult] = []
    dropped: set[str] = set()

    class Forgetful(FakeWorker):
        async def run(self, shard: list[Unit]) -> list[SampleResult]:
            results = await super().run(shard)
            keep = [r for r in results if r.sample_id != "s4" or "s4" in dropped]
            dropped.add("s4")
            return keep

    _run(Dispatcher(lambda slot: Forgetful("w", []), workers=1, shard_size=5, on_result=logged.append), _units(10))
    assert sorted(r.sample_id for r in logged) == sorted(f"s{i}" for i in range(10))


def test_an_error_other_than_a_lost_worker_stops_the_run() -> None:
    logged: list[SampleResult] = []
    workers: list[FakeWorker] = []

    class Misconfigured(FakeWorker):
        async def run(self, shard: list[Unit]) -> list[SampleResult]:
            if any(u.sample.id == "s5" for u in shard):
                raise ConfigError("task demo/arith: bad arguments")
            return await super().run(shard)

    def spawn(slot: int) -> FakeWorker:
        workers.append(Misconfigured(f"w{slot}", []))
        return workers[-1]

    with pytest.raises(ConfigError, match="bad arguments"):
        _run(Dispatcher(spawn, workers=2, shard_size=2, on_result=logged.append), _units(40))
    assert len(logged) < 40 and all(w.closed for w in workers)


def test_workers_that_always_die_give_up_the_run_with_the_reason() -> None:
    def spawn(slot: int) -> FakeWorker:
        return FakeWorker("w", [], die_on=set(range(1, 100)))

    with pytest.raises(RuntimeError, match=r"workers lost; giving up the run .*killed"):
        _run(Dispatcher(spawn, workers=2, shard_size=2, on_result=lambda r: None, max_attempts=100), _units(10))


def test_bad_parameters_and_empty_runs() -> None:
    with pytest.raises(ValueError):
        Dispatcher(lambda slot: FakeWorker("w", []), workers=0, shard_size=1, on_result=lambda r: None)
    spawned: list[int] = []
    dispatcher = Dispatcher(
        lambda slot: spawned.append(slot) or FakeWorker("w", []), workers=2, shard_size=1, on_result=lambda r: None
    )
    _run(dispatcher, [])
    assert spawned == []


def test_concurrency_is_split_over_workers_exactly() -> None:
    assert worker_split(8, 3) == [3, 3, 2]
    assert worker_split(2, 2) == [1, 1]
    assert sum(worker_split(17, 4)) == 17
    assert worker_split(1, 3) == [1, 1, 1]
