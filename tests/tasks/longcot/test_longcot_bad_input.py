"""Extraction and hostile answers: never a crash, never a hang, never silently right."""

from __future__ import annotations

import json
import time

import pytest

from harness.types import Output
from scorers.sympy_equiv import compare
from tasks.longcot.data import Question
from tasks.longcot.task import MiniTask
from tasks.longcot.verify import verify
from tasks.longcot.verify.extract import solution_payload, split_top_level

MATH = Question("m1", "math", "easy", "linear", "p", {"template": "linear"}, ["16", "5√3/3", "2013^{4025}"])
CS = Question("c1", "cs", "easy", "MCM", "p", {"template": "MCM"}, {"Q1": "(M_1*M_2)", "Q2": 31, "Q3": 3})
CHEM = Question("h1", "chemistry", "easy", "easy1", "p", {"template": "easy1"}, "CC(=O)Oc1ccccc1C(=O)O")
FEN = Question(
    "f1",
    "chess",
    "easy",
    "uci_to_fen",
    "p",
    {"template": "uci_to_fen"},
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("blah\nsolution = 5", "5"),
        ("solution = 1\nwait, no.\nsolution = 2", "2"),
        ("```\nsolution = [1, 2]\n```", "[1, 2]\n```"),
        ("$\\text{solution} = \\frac{1}{2}$", "\\frac{1}{2}$"),
        ("**Solution** = 42", "42"),
        ("solution = `CCO`", "CCO`"),
        ("no answer here", None),
        ("solution =    ", None),
        ("if solution == 3 then", None),
    ],
)
def test_solution_payload(text, expected):
    assert solution_payload(text) == expected


def test_split_top_level_respects_nesting_and_quotes():
    assert split_top_level("[f(a, b), 'x, y', {1, 2}, 3]") == ["f(a, b)", "x, y", "{1, 2}", "3"]


@pytest.mark.parametrize(
    "answer",
    [
        "solution = [16, 5/sqrt(3), 2013**4025]",
        "solution = [16, \\frac{5\\sqrt{3}}{3}, 2013^{4025}]",
        "The answers are below.\n```\nsolution = [16, 5*sqrt(3)/3, 2013^4025]\n```\nDone.",
    ],
)
def test_math_equivalent_forms(answer):
    assert verify(MATH, answer).status == "correct"


@pytest.mark.parametrize(
    "answer",
    [
        "solution = [16, 5√3/3, 2013^{4025} + 1]",
        "solution = [16, 5√3/3]",
        "solution = [17, 5√3/3, 2013^{4025}]",
    ],
)
def test_math_wrong_forms(answer):
    assert verify(MATH, answer).status == "wrong"


def test_explosive_and_malicious_math_never_hangs_or_runs():
    for bad in (
        "[10**10**10, 1, 1]",
        "[9^9^9^9, 1, 1]",
        "[" + "(" * 500 + "1" + ")" * 500 + ", 1, 1]",
        "[__import__('os').system('echo hacked'), 1, 1]",
        "[factorial(10**9), 1, 1]",
        "[" + "9" * 5000 + ", 1, 1]",
    ):
        assert verify(MATH, f"solution = {bad}").status in ("wrong", "unresolved", "unparsed")
    assert compare("10", "9^9^9^9", timeout_s=1.0) == "unresolved"
    assert compare("1/(2014!^{2014})", "1/(2014!^{2013})") == "mismatch"


def test_cs_json_is_exact():
    assert verify(CS, 'solution = {"Q1": "(M_1*M_2)", "Q2": 31, "Q3": 3}').status == "correct"
    assert verify(CS, "solution = {'Q1': '(M_1*M_2)', 'Q2': 31, 'Q3': 3}").status == "correct"
    assert verify(CS, 'solution = {"Q1": "(M_1*M_2)", "Q2": 31, "Q3": true}').status == "wrong"
    assert verify(CS, 'solution = {"Q1": "(M_1*M_2)", "Q2": "31", "Q3": 3}').status == "wrong"
    assert verify(CS, 'solution = {"Q1": "(M_1*M_2)", "Q2": 31}').status == "wrong"
    assert verify(CS, "solution = " + "[" * 10000 + "]" * 10000).status == "unparsed"
    assert verify(CS, 'solution = {"Q1": ').status == "unparsed"


def test_smiles_and_fen():
    assert verify(CHEM, "solution = OC(=O)c1ccccc1OC(C)=O").status == "correct"
    assert verify(CHEM, "solution = OC(=O)c1ccccc1OC(C)=O.").status == "correct"
    assert verify(CHEM, "solution = OC(=O)c1ccccc1OC(C)=N").status == "wrong"
    assert verify(CHEM, "solution = C1CC(((((").status == "wrong"
    assert verify(CHEM, "solution = " + "C" * 100_000).status == "wrong"
    assert (
        verify(FEN, 'solution = {"final_fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"}').status
        == "correct"
    )
    assert verify(FEN, "solution = rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").status == "wrong"
    assert verify(FEN, "solution = rnbqkbnr/pppppppp/9/8/4P3/8/PPPP1PPP/RNBQKBNR").status == "unparsed"


def test_huge_outputs_and_unscored_counting():
    huge = "x" * 5_000_000 + "\nsolution = [16, 5√3/3, 2013^{4025}]"
    assert verify(MATH, huge).status == "correct"
    assert verify(MATH, "solution = " + "1," * 2_000_000).status == "wrong"
    assert verify(MATH, "I think it is 16.").status == "unparsed"
    moves = json.dumps([[0, 0, 1]] * 150_000)
    hanoi = Question(
        "h",
        "logic",
        "easy",
        "RandomHanoi",
        "p",
        {"template": "RandomHanoi", "instance": {"initial_state": [[1, 0], [], []], "goal_state": [[], [], [1, 0]]}},
        None,
    )
    assert verify(hanoi, f"solution = {moves}").status in ("wrong", "unparsed")
    assert verify(hanoi, "solution = [[0, 0, 1], [1, 0, 2], [0, 1, 2]]").status == "correct"
    assert verify(hanoi, "solution = [[0, 0, 1], [1, 0, 2], [0, 1, 9]]").status == "wrong"


def test_score_never_raises_and_maps_outcomes(longcot_dir):
    task = MiniTask("longcot/mini", data=str(longcot_dir), per_template=1)
    for sample in task.samples():
        for text in (
            "",
            "solution = ",
            "solution = \x00\x01",
            "solution = {" * 3000,
            "solution = [[[" + "]" * 9,
            "solution = " + "9" * 100_000,
        ):
            score = task.score(sample, Output(text=text))
            assert score.outcome in ("scored", "unscored")
            assert score.correct is not True
        assert task.score(sample, Output(text="")).outcome == "unscored"


def test_split_top_level_is_linear_on_nested_quotes():
    """Issue 37: every quote once re-joined the whole buffer (86 s at n=40,000); linear now."""
    n = 40_000
    text = "[" + '{"a":' * n + "1" + "}" * n + "]"
    started = time.perf_counter()
    assert split_top_level(text) == [text[1:-1]]
    assert time.perf_counter() - started < 5
    assert split_top_level("[ 'a, b' , x'y, z]") == ["a, b", "x'y", "z"]
