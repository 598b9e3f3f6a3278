"""``coins/spec-gen``: oracle scores 1, trivial and malformed specs do not."""

from __future__ import annotations

import asyncio

from harness.types import Output
from tasks.coins import FAMILY
from tasks.coins.task import extract_spec

ARGS = {"problems": "HumanEval/53,HumanEval/23", "max_cases": 2, "mutants": 3}


def _task():
    return FAMILY.resolve("coins/spec-gen").create(**ARGS)


def test_oracle_scores_one_and_random_scores_zero() -> None:
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate

    task = _task()
    oracle = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle"), concurrency=2))
    assert [r.score.value for r in oracle] == [1.0, 1.0]
    metrics = task.aggregate(oracle)
    assert metrics["correct"].value == 1.0 and metrics["correct"].n == 2 and metrics["correct"].ci_low is not None
    assert metrics["soundness_rate"].value == 1.0 and metrics["invalid_rate"].value == 0.0
    rand = asyncio.run(evaluate(task, resolve_adapter("builtin/random", seed=0), concurrency=2))
    assert [r.score.value for r in rand] == [0.0, 0.0]
    assert {r.score.details["verdict"] for r in rand} <= {"too_weak", "too_strong"}


def test_malformed_adversarial_and_huge_answers_never_score() -> None:
    task = _task()
    sample = next(iter(task.samples()))
    assert "add_spec" in sample.input and "(x : Z)" in sample.input
    assert task.score(sample, Output(text="I cannot do this.")).outcome == "unscored"
    assert task.score(sample, Output(text="x" * 60_000)).outcome == "unscored"
    axiom = task.score(sample, Output(text="```coq\nAxiom add_spec : Z -> Z -> Z -> Prop.\n```"))
    assert axiom.value == 0.0 and axiom.details["verdict"] == "invalid"
    wrong_type = task.score(
        sample, Output(text="```coq\nDefinition add_spec (x y : nat) (r : nat) : Prop := True.\n```")
    )
    assert wrong_type.value == 0.0 and wrong_type.details["verdict"] == "invalid"


def test_extract_spec_takes_the_last_fenced_block() -> None:
    assert extract_spec("```coq\nA.\n```\nthen\n```rocq\nB.\n```") == "B."
    assert extract_spec("Definition f_spec := True.") == "Definition f_spec := True."
    assert extract_spec("no code") is None


def test_a_problem_on_python_values_shows_the_pyvalue_type_and_its_oracle_scores_one() -> None:
    """HumanEval/137 takes ints, floats or strings: the prompt gives the ``pyvalue`` type the spec is over."""
    from coins_rocq.rtypes import PYVALUE_DEFINITION
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate

    task = FAMILY.resolve("coins/spec-gen").create(problems="HumanEval/137", max_cases=3, mutants=2)
    sample = next(iter(task.samples()))
    assert PYVALUE_DEFINITION in sample.input and "(a : pyvalue)" in sample.input
    assert "a: object -> pyvalue" in sample.input
    oracle = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle"), concurrency=1))
    assert [r.score.value for r in oracle] == [1.0]


def test_a_prover_model_decides_the_obligations_the_ladder_leaves_and_its_calls_are_logged() -> None:
    """One loopback server answers as the spec writer and as the prover (role ``prover`` in the call log)."""
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate
    from harness.testing.openai_server import OpenAIServer, Reply

    needs_lemma = "Definition add_spec (x y r : Z) : Prop := r = (x + y)%Z /\\ forall l : list nat, rev (rev l) = l."
    proof = "Proves: goal\n```coq\nsplit.\n- reflexivity.\n- intros l. apply rev_involutive.\n```"

    def answer(body: dict) -> Reply:
        prompt = body["messages"][-1]["content"]
        return Reply(text=proof if "You write Rocq" in prompt else f"```coq\n{needs_lemma}\n```")

    with OpenAIServer(answer) as server:
        url = server.base_url
        task = FAMILY.resolve("coins/spec-gen").create(
            problems="HumanEval/53", max_cases=2, mutants=2, goal_timeout_s=1, prover=f"openai-compatible/p@{url}"
        )
        [result] = asyncio.run(evaluate(task, resolve_adapter(f"openai-compatible/m@{url}"), concurrency=1))
        without = FAMILY.resolve("coins/spec-gen").create(problems="HumanEval/53", max_cases=2, mutants=2)
        [alone] = asyncio.run(evaluate(without, resolve_adapter(f"openai-compatible/m@{url}"), concurrency=1))
    assert result.score.value == 1.0 and result.score.details["prover"]["decides_verdict"] is True
    assert result.score.details["prover"]["counts"]["proved"] == 2
    assert [call.role for call in result.calls] == ["model", "prover", "prover"]
    assert task.aggregate([result])["prover_decided"].value == 1.0
    assert alone.score.value == 0.0 and alone.score.details["verdict"] == "undecided"
    assert "prover" not in alone.score.details and [call.role for call in alone.calls] == ["model"]


def test_a_stored_report_that_is_malformed_is_an_error_not_a_crash() -> None:
    task = _task()
    sample = next(iter(task.samples()))
    assert task.score(sample, Output(text="x", data={"coins": {"verdict": "correct"}})).outcome == "error"
