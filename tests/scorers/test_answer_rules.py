"""The rule that read an extracted answer is reported with it (issue 44: cyber's score details say how)."""

from __future__ import annotations

import pytest

from scorers.choice import ANSWER_LINE, FIRST_LINE, LAST_LINE, read_choice
from scorers.cti_ids import read_cwe


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Reasoning.\n**Answer: B**", ("B", LAST_LINE)),
        ("Answer: C\nI hope this helps, it was fun.", ("C", ANSWER_LINE)),
        ("D) Fox Kitten\nBecause of the tooling overlap.", ("D", FIRST_LINE)),
        ("A or B, hard to say.\nIt could be either.", (None, None)),
        ("", (None, None)),
    ],
)
def test_read_choice_names_the_rule(text: str, expected: tuple[str | None, str | None]) -> None:
    assert read_choice(text) == expected


def test_read_cwe_names_the_rule() -> None:
    assert read_cwe("Out-of-bounds write.\nCWE-787") == ("CWE-787", "the last line")
    assert read_cwe("Answer: CWE-79\nThanks for asking.") == ("CWE-79", "the last 'Answer:' line")
    assert read_cwe("It is CWE-89 as the query is built from input.\nDone.") == ("CWE-89", "the last CWE id anywhere")
    assert read_cwe("no idea") == (None, None)
    assert read_cwe("CWE-79 or CWE-89") == (None, None)


def test_the_cyber_score_details_carry_the_rule() -> None:
    from harness.types import Output, Sample
    from tasks.cyber.base import LetterChoiceTask

    task = LetterChoiceTask.__new__(LetterChoiceTask)
    score = task.score(Sample(id="q", input="?", target="B"), Output(text="Thinking.\nAnswer: B\nThat is all."))
    assert score.value == 1.0 and score.details["read_from"] == ANSWER_LINE
