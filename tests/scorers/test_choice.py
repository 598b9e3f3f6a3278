"""Option-letter extraction: decorated answers parse, ambiguous or missing ones do not."""

from __future__ import annotations

import pytest

from scorers.choice import extract_choice, extract_choices, normalise_letters


@pytest.mark.parametrize(
    "text, expected",
    [
        ("B", "B"),
        ("Reasoning about the options.\n\n**Answer: B**", "B"),
        ("The correct answer is (C).", "C"),
        ("B) Execution Prevention", "B"),
        ("Final answer: D. User Account Control", "D"),
        ("\\boxed{A}", "A"),
        ("ANSWER: C", "C"),
        ("Answer: D\nI hope this helps!", "D"),
        ("b", "B"),
        ("Option A", "A"),
    ],
)
def test_single_letter_is_read_from_decorated_last_line(text: str, expected: str) -> None:
    assert extract_choice(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n  ",
        "A, B",
        "A or B",
        "A good choice would be B",
        "E",
        "The answer is not clear.",
        "Answering requires more context",
        "None of the above",
        "a, b",
    ],
)
def test_ambiguous_or_missing_letters_are_none(text: str) -> None:
    assert extract_choice(text) is None


def test_huge_and_adversarial_outputs_stay_cheap_and_unparsed() -> None:
    assert extract_choice("A " * 500_000) is None
    assert extract_choice("x" * 2_000_000 + "\nB") == "B"
    assert extract_choice("(" * 100_000 + "\n" + "Answer: " + "*" * 100_000) is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("ABC", "ABC"),
        ("Answer: A, C and D", "ACD"),
        ("CBA", "ABC"),
        ("A C", "AC"),
        ("**B**", "B"),
        ("Answer: D B", "BD"),
    ],
)
def test_letter_sets(text: str, expected: str) -> None:
    assert extract_choices(text) == expected


@pytest.mark.parametrize("text", ["", "A good", "ABE", "The answers are unclear", "1, 2"])
def test_bad_letter_sets_are_none(text: str) -> None:
    assert extract_choices(text) is None


def test_ground_truth_letters_are_normalised() -> None:
    assert normalise_letters("b") == "B"
    assert normalise_letters(" CA ") == "AC"
    assert normalise_letters("E") is None
    assert normalise_letters("") is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A\n\nExplanation: execution prevention blocks applications from unknown sources.", "A"),
        ("C) John the Ripper\nIt cracks password hashes offline.", "C"),
        ("**B**\n\nThe other options do not apply here.", "B"),
        ("The correct answer is:\n\nB) T1059", "B"),
    ],
)
def test_a_lone_letter_on_the_first_line_followed_by_an_explanation(text: str, expected: str) -> None:
    assert extract_choice(text) == expected


@pytest.mark.parametrize(
    "text", ["A good option is missing.\nI cannot say.", "A, B\nBoth apply.", "I would pick\nan answer later"]
)
def test_a_first_line_that_is_no_lone_letter_stays_unscored(text: str) -> None:
    assert extract_choice(text) is None
