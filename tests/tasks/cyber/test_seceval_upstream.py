"""SecEval on its real file (issue 37 item 8): the 2,189 published questions load, the 7 without an
answer are skipped and counted, the prompt is upstream eval.py's, and scoring is upstream's rule with
the strict reading beside it."""

from __future__ import annotations

import ast
import json
import logging
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.registry import resolve_task
from harness.runner import evaluate
from harness.types import Output, Sample
from tasks.cyber.prompts import SECEVAL_COMMIT
from tasks.cyber.seceval import upstream_answer

EMPTY_ANSWERS = [22, 129, 700, 710, 1173, 1551, 2149]


@pytest.fixture(scope="module")
def seceval(shared_data: Path) -> Path:
    folder = shared_data / "seceval"
    if not (folder / "questions.json").is_file():
        pytest.skip(f"{folder}/questions.json not found")
    return folder


def _upstream_chat_prompt(eval_py: Path) -> tuple[str, list[str]]:
    """``instruction`` and the contents of ``chat_few_shot`` in upstream's eval.py, read without running it."""
    values: dict[str, ast.expr] = {}
    for node in ast.parse(eval_py.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
    instruction = ast.literal_eval(values["instruction"])
    shots = values["chat_few_shot"]
    assert isinstance(shots, ast.List)
    contents = [ast.literal_eval(k.value) for call in shots.elts if isinstance(call, ast.Call) for k in call.keywords]
    return instruction, contents


async def test_the_real_file_loads_skipping_and_counting_empty_answers(seceval: Path, caplog) -> None:
    task = resolve_task("cyber/seceval").create(data=str(seceval / "questions.json"))
    with caplog.at_level(logging.WARNING):
        samples = list(task.samples())
    raw = json.loads((seceval / "questions.json").read_text(encoding="utf-8"))
    assert len(raw) == 2189 and len(samples) == 2189 - 7
    assert task.skipped == EMPTY_ANSWERS and "skipped 7 questions with an empty answer (indexes 22, 129" in caplog.text
    assert {s.id for s in samples}.isdisjoint(raw[i]["id"] for i in EMPTY_ANSWERS)
    instruction, shots = _upstream_chat_prompt(seceval / "eval.py")
    system, shot_q, shot_a, question = samples[0].messages()
    assert (system.content, shot_q.content, shot_a.content) == (instruction, *shots) and SECEVAL_COMMIT == "7aef317"
    assert question.content == ("Question: " + raw[0]["question"] + " ".join(raw[0]["choices"])).replace("\n", " ")
    doubled = [s for s in samples if s.metadata["published_answer"] == "AA"]
    assert [s.id for s in doubled] == [raw[1181]["id"], raw[1635]["id"]] and {s.target for s in doubled} == {"A"}
    results = await evaluate(task, resolve_adapter("builtin/oracle"), concurrency=16)
    summary = task.aggregate(results)
    assert summary["accuracy"].value == pytest.approx(2180 / 2182)  # upstream can never credit 'AA'
    assert summary["accuracy_strict"].value == 1.0 and summary["skipped_no_answer"].value == 7


@pytest.mark.parametrize(
    ("reply", "official", "strict"),
    [
        ("Answer: AC", True, True),
        ("AC", True, True),
        ("A, C", True, True),
        ("answer: ac", False, None),  # upstream reads capitals only
        ("The answer is A and C.", True, True),
        ("Based on the analysis, A and C.", False, None),  # the B of 'Based' counts upstream
        ("Answer: A\\nAnswer: C", True, False),  # strict reads the last line only
        ("Answer: C A C", True, True),
        ("", False, None),
    ],
)
def test_scoring_follows_upstream_with_the_strict_reading_beside_it(
    reply: str, official: bool, strict: bool | None
) -> None:
    task = resolve_task("cyber/seceval").create(data="unused.json")
    sample = Sample(id="q", input="q", target="AC", metadata={"published_answer": "AC"})
    score = task.score(sample, Output(text=reply.replace("\\n", "\n")))
    assert (score.value == 1.0, score.details["strict"]) == (official, strict)
    assert upstream_answer(reply) == score.answer
