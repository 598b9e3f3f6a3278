"""Runner overhead: 2,000 ``demo/arith`` samples with an instant model.

Frontier's runner against inspect-ai's ``eval()``.

Both sides answer with the reference answer instantly and score with an exact
match on the ``ANSWER:`` line, in this one process. Prints samples per second for
both and the ratio, then one line of JSON:
``{"samples_per_s", "inspect_samples_per_s", "ratio_vs_inspect"}``.

Run: ``python benchmarks/runner_overhead.py [--samples 2000]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("INSPECT_LOG_LEVEL", "error")


def frontier_rate(samples: int, workdir: Path) -> float:
    """Samples per second through ``execute`` into a run directory, with builtin/oracle."""
    from harness.plan import RunPlan, TaskPlan
    from harness.runner import RunOptions, execute

    plan = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": samples}),))
    started = time.perf_counter()
    summary = asyncio.run(execute(plan, workdir / "frontier-run", RunOptions(concurrency=64, progress=False)))
    elapsed = time.perf_counter() - started
    assert summary.tasks["demo/arith"].metrics["accuracy"].value == 1.0
    return samples / elapsed


def inspect_rate(samples: int, workdir: Path) -> float:
    """Samples per second through inspect-ai's ``eval()`` with an instant registered model."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelAPI, ModelOutput, modelapi
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer
    from inspect_ai.solver import TaskState, generate

    from harness.registry import resolve_task

    task = resolve_task("demo/arith").create(n=samples)
    answers = {str(s.input): f"ANSWER: {s.target}" for s in task.samples()}

    @modelapi(name="instant")
    class InstantAPI(ModelAPI):
        async def generate(self, input, tools, tool_choice, config):
            return ModelOutput.from_content(model="instant", content=answers[str(input[-1].content)])

    @scorer(metrics=[accuracy()])
    def exact_answer():  # type: ignore[no-untyped-def]
        async def score(state: TaskState, target: Target) -> Score:
            from scorers.extract import last_answer_value

            answer = last_answer_value(state.output.completion)
            return Score(value=CORRECT if answer == target.text else INCORRECT, answer=answer)

        return score

    dataset = [Sample(id=s.id, input=str(s.input), target=str(s.target)) for s in task.samples()]
    inspect_task = Task(dataset=dataset, solver=generate(), scorer=exact_answer())
    started = time.perf_counter()
    logs = eval(
        inspect_task,
        model="instant/model",
        log_dir=str(workdir / "inspect-logs"),
        display="none",
        max_connections=64,
        max_samples=64,
    )
    elapsed = time.perf_counter() - started
    assert logs[0].status == "success", logs[0].error
    return samples / elapsed


def main() -> None:
    """Measure both sides and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ours = frontier_rate(args.samples, Path(tmp))
        theirs = inspect_rate(args.samples, Path(tmp))
    print(f"frontier runner: {ours:,.0f} samples/s")
    print(f"inspect-ai eval: {theirs:,.0f} samples/s")
    print(f"ratio: {ours / theirs:.1f}x (target: at least 5x)")
    print(
        json.dumps(
            {
                "samples_per_s": round(ours, 1),
                "inspect_samples_per_s": round(theirs, 1),
                "ratio_vs_inspect": round(ours / theirs, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
