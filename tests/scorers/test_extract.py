"""Answer extraction: the last Answer line, robust to markdown, prose and adversarial input."""

from __future__ import annotations

import pytest

from scorers.extract import last_answer_value, last_nonempty_line
from scorers.numeric import parse_decimal, parse_integer


@pytest.mark.parametrize(
    "text,expected",
    [
        ("work...\nANSWER: 42", "42"),
        ("**Final Answer:** 17\nHope this helps!", "17"),
        ("Answer: 1\nanswer = 2\n", "2"),
        ("Answer:\nAnswer: 5", "5"),
        ("no marker here", None),
        ("", None),
    ],
)
def test_last_answer_value(text: str, expected: str | None) -> None:
    assert last_answer_value(text) == expected


@pytest.mark.timeout(20)
def test_adversarial_whitespace_and_huge_outputs_stay_cheap() -> None:
    assert last_answer_value(" \n" * 500_000) is None
    assert last_answer_value("Answer:" + " " * 1_000_000) is None
    assert last_answer_value("x" * 5_000_000 + "\nAnswer: 3") == "3"
    assert last_nonempty_line("a\n\n  b  \n\n") == "b"


def test_numbers_parse_as_models_write_them() -> None:
    assert parse_integer("1,234") == 1234 and parse_integer("$-7$") == -7 and parse_integer("\u22125") == -5
    assert parse_integer("3.5") is None and parse_integer("12 apples") is None and parse_integer(None) is None
    assert parse_integer("9" * 5000) is None
    assert str(parse_decimal("1e-3")) == "0.001" and parse_decimal("nan") is None and parse_decimal("abc") is None
