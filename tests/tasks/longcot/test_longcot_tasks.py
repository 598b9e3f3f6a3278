"""Loader layouts and errors, registry names, oracle/random runs, metrics and the generators."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.errors import ConfigError
from harness.runner import evaluate
from harness.types import Output
from tasks.longcot import FAMILY
from tasks.longcot.data import LongCotDataError, load_questions
from tasks.longcot.gen.task import generated_questions


def test_family_names():
    names = {entry.name for entry in FAMILY}
    assert {"longcot/mini", "longcot/full", "longcot/logic-easy", "longcot/chess-hard", "longcot-gen/math"} <= names
    assert FAMILY.resolve("longcot/nope") is None


def test_upstream_layout_flat_layout_and_env(tmp_path, longcot_dir, monkeypatch):
    (tmp_path / "up" / "cs").mkdir(parents=True)
    shutil.copy(longcot_dir / "cs-easy.json", tmp_path / "up" / "cs" / "easy.json")
    upstream = list(load_questions(str(tmp_path / "up"), ("cs",), ("easy",)))
    flat = list(load_questions(str(longcot_dir), ("cs",), ("easy",)))
    assert upstream == flat and len(flat) == 100
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FRONTIER_LONGCOT_DATA", str(tmp_path / "up"))
    task = FAMILY.resolve("longcot/cs-easy").create()
    assert len(list(task.samples())) == 100


def test_bad_data_is_named(tmp_path, monkeypatch):
    (tmp_path / "cs-easy.json").write_text(json.dumps({"questions": [{"question_id": "a", "prompt": "p"}]}))
    with pytest.raises(LongCotDataError, match="lacks problem"):
        list(load_questions(str(tmp_path), ("cs",), ("easy",)))
    (tmp_path / "cs-easy.json").write_text("{not json")
    with pytest.raises(LongCotDataError, match=r"cs-easy\.json"):
        list(load_questions(str(tmp_path), ("cs",), ("easy",)))
    with pytest.raises(LongCotDataError, match="does not exist"):
        list(load_questions(str(tmp_path / "missing"), ("cs",), ("easy",)))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FRONTIER_LONGCOT_DATA", raising=False)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(ConfigError, match="-T data=PATH"):
        list(FAMILY.resolve("longcot/mini").create().samples())


@pytest.mark.slow
async def test_oracle_scores_one_and_random_near_zero(longcot_dir):
    task = FAMILY.resolve("longcot/mini").create(data=str(longcot_dir), per_template=3)
    results = await evaluate(task, resolve_adapter("builtin/oracle"), concurrency=4)
    assert len(results) == 60
    summary = task.aggregate(results)
    assert summary["accuracy"].value == 1.0 and summary["accuracy"].n == 60
    assert summary["accuracy/logic/Sokoban"].value == 1.0 and summary["accuracy/logic/Sokoban"].n == 3
    assert summary["accuracy/chess"].ci_low is not None
    random_results = await evaluate(task, resolve_adapter("builtin/random", seed=0), concurrency=4)
    random_summary = task.aggregate(random_results)
    assert random_summary["accuracy"].value <= 0.05
    assert random_summary["unscored_rate"].value == 0.0
    assert random_summary["output_tokens"].n == 60


def test_metrics_count_unscored_as_wrong(longcot_dir):
    from harness.types import SampleResult

    task = FAMILY.resolve("longcot/math-easy").create(data=str(longcot_dir), per_template=2)
    samples = list(task.samples())
    outputs = [task.reference_output(samples[0], None), "no answer", "solution = [0]"]
    results = [
        SampleResult(
            sample_id=s.id, task=task.name, input=s.input, score=task.score(s, Output(text=o)), metadata=s.metadata
        )
        for s, o in zip(samples, outputs, strict=False)
    ]
    summary = task.aggregate(results)
    assert summary["accuracy"].value == pytest.approx(1 / 3)
    assert summary["accuracy_scored"].value == pytest.approx(1 / 2) and summary["accuracy_scored"].n == 2
    assert summary["unscored_rate"].value == pytest.approx(1 / 3)


@pytest.mark.slow
@pytest.mark.parametrize("domain", ["chemistry", "chess", "cs", "logic", "math"])
@pytest.mark.parametrize("steps", [8, 60, 300])
def test_generated_problems_verify_and_are_seeded(domain, steps):
    task = FAMILY.resolve(f"longcot-gen/{domain}").create(n=3, steps=steps, seed=5)
    samples = list(task.samples())
    assert samples == list(FAMILY.resolve(f"longcot-gen/{domain}").create(n=3, steps=steps, seed=5).samples())
    assert samples != list(FAMILY.resolve(f"longcot-gen/{domain}").create(n=3, steps=steps, seed=6).samples())
    import random

    for sample in samples:
        assert task.score(sample, Output(text=task.reference_output(sample, None))).correct is True
        guess = task.random_output(sample, None, random.Random(1))
        assert task.score(sample, Output(text=guess)).correct is not True


def test_generator_difficulty_scales_steps():
    small = next(generated_questions("cs", 1, 8, 0))
    large = next(generated_questions("cs", 1, 1200, 0))
    assert small.prompt.count(" mod 65536\n") < 10 < 1000 < large.prompt.count(" mod 65536\n") + 1
    hanoi = next(generated_questions("logic", 1, 1000, 0))
    from tasks.longcot.oracle.render import reference_payload

    assert len(json.loads(reference_payload(hanoi))) >= 1000


def test_suite_file_is_valid():
    import yaml

    suite = yaml.safe_load((Path(__file__).resolve().parents[3] / "suites" / "longcot.yaml").read_text())
    assert suite["name"] == "longcot"
    for entry in suite["tasks"]:
        assert FAMILY.resolve(entry["task"]) is not None, entry["task"]


def test_full_with_missing_split_files_is_an_error_naming_them(longcot_dir):
    """The shared folder lacks logic-medium, logic-hard and math-hard: longcot/full refuses to run a part
    of itself unless the user names the splits (issue 37 item 10)."""
    full = FAMILY.resolve("longcot/full")
    with pytest.raises(LongCotDataError, match=r"lacks 3 of the 10 .*logic-medium, logic-hard, math-hard.*-T splits="):
        list(full.create(data=str(longcot_dir)).samples())
    with pytest.raises(LongCotDataError, match="math-hard"):
        list(full.create(data=str(longcot_dir), domains=("math",)).samples())
    named = list(full.create(data=str(longcot_dir), splits=("medium",), domains=("math", "cs")).samples())
    assert {s.metadata["domain"] for s in named} == {"math", "cs"} and len(named) == 300
    assert len(list(FAMILY.resolve("longcot/mini").create(data=str(longcot_dir)).samples())) == 507
