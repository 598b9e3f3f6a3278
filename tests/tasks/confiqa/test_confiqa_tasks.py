"""ConFiQA tasks end to end through the runner: oracle targets, metrics, prompts, config."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.errors import ConfigError
from harness.runner import evaluate
from tasks.confiqa import FAMILY
from tasks.confiqa.prompts import PROMPT_VARIANTS, build_prompt

NAMES = ["confiqa/qa", "confiqa/mr", "confiqa/mc", "confiqa-gen/qa", "confiqa-gen/mr", "confiqa-gen/mc"]


def test_family_exports_all_names() -> None:
    assert sorted(entry.name for entry in FAMILY) == sorted(NAMES)


def _metrics(name: str, **args: object) -> dict:
    task = FAMILY.resolve(name).create(**args)
    results = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle")))
    assert all(r.score.outcome == "scored" for r in results)
    return task.aggregate(results)


@pytest.mark.parametrize("name", ["confiqa-gen/qa", "confiqa-gen/mr", "confiqa-gen/mc"])
def test_oracle_counterfactual_gives_pc_100_and_original_gives_po_100(name: str) -> None:
    faithful = _metrics(name, n=25)
    assert faithful["pc"].value == 1.0 and faithful["po"].value == 0.0 and faithful["mr"].value == 0.0
    assert faithful["em"].value == 1.0 and faithful["accuracy"].value == 1.0
    assert faithful["control_accuracy"].value == 1.0 and faithful["pc"].n == 25
    assert faithful["pc"].ci_low is not None and faithful["pc"].ci_low < 1.0
    original = _metrics(name, n=25, oracle_target="original", target="robustness")
    assert original["po"].value == 1.0 and original["pc"].value == 0.0 and original["mr"].value == 1.0
    assert original["factual_robustness"].value == 1.0 and original["accuracy"].value == 1.0


def test_oracle_on_the_real_sample_file(shared_data: Path) -> None:
    data = str(shared_data / "confiqa" / "ConFiQA-QA.sample.json")
    assert _metrics("confiqa/qa", data=data)["pc"].value == 1.0
    assert _metrics("confiqa/qa", data=data, oracle_target="original")["po"].value == 1.0


def test_random_baseline_and_no_control() -> None:
    task = FAMILY.resolve("confiqa-gen/mr").create(n=60, control=False)
    results = asyncio.run(evaluate(task, resolve_adapter("builtin/random", seed=1)))
    metrics = task.aggregate(results)
    assert 0.1 < metrics["pc"].value < 0.6 and 0.1 < metrics["po"].value < 0.6
    assert metrics["control_accuracy"].n == 0
    # mr is a share of the samples that name either side (issue 38 item 5: Wilson, like pc and po)
    assert metrics["mr"].method == "wilson"
    assert metrics["mr"].n == round((metrics["pc"].value + metrics["po"].value) * 60)
    assert all(len(r.calls) == 1 for r in results)


def test_target_is_recorded_in_the_config_and_bad_args_are_refused() -> None:
    task = FAMILY.resolve("confiqa-gen/qa").create(target="robustness", prompt="opin")
    assert task.fingerprint()["args"]["target"] == "robustness"
    assert task.fingerprint()["args"]["prompt"] == "opin"
    with pytest.raises(ConfigError, match="target"):
        FAMILY.resolve("confiqa-gen/qa").create(target="both")
    with pytest.raises(ConfigError, match="min_hops"):
        list(FAMILY.resolve("confiqa-gen/mr").create(min_hops=4, max_hops=3).samples())


def test_prompt_variants_match_the_study() -> None:
    ctx, q = 'He said "hi". X is in Y.', "Where is X?"
    prompts = {v: build_prompt(v, ctx, q) for v in PROMPT_VARIANTS}
    assert prompts["base"] == 'He said "hi". X is in Y.\nQ:Where is X?\nA:'
    assert prompts["attr"] == 'He said "hi". X is in Y.\nQ:Where is X based on the given text?\nA:'
    assert prompts["instr"].startswith(
        "Instruction: read the given information and answer the corresponding question.\n\n"
    ) and prompts["instr"].endswith(prompts["base"])
    assert prompts["opin"] == 'Bob said "He said hi. X is in Y."\nQ: Where is X in Bob\'s opinion?\nA:'
    assert prompts["instr+opin"].endswith(prompts["opin"]) and prompts["instr+opin"].startswith("Instruction:")
    with pytest.raises(ValueError):
        build_prompt("chain", ctx, q)  # type: ignore[arg-type]
