"""CWE ids and ATT&CK technique ids read from the last line of an answer."""

from __future__ import annotations

import pytest

from scorers.cti_ids import extract_cwe, extract_techniques, normalise_cwe, technique_ids


def test_cwe_on_last_line_in_many_spellings() -> None:
    assert extract_cwe("Justification...\nCWE-79") == "CWE-79"
    assert extract_cwe("reasoning\n**CWE-416: Use After Free**") == "CWE-416"
    assert extract_cwe("cwe 022") == "CWE-22"
    assert extract_cwe("Answer: CWE-89\nThanks") == "CWE-89"


def test_missing_or_ambiguous_cwe_is_none() -> None:
    assert extract_cwe("") is None
    assert extract_cwe("It is either CWE-79 or CWE-80") is None
    assert extract_cwe("CWE 79 is close, but\nthe answer is unclear") is None
    assert extract_cwe("the last line names two: CWE-79, CWE-80") is None
    assert extract_cwe("CWE-" + "9" * 50) is None
    assert normalise_cwe("CWE-79 / CWE-079") == "CWE-79"


def test_techniques_with_subtechniques_mapped_to_parents() -> None:
    assert extract_techniques("Reasoning\nT1071, T1573.001, T1083, T1071.004") == ["T1071", "T1573", "T1083"]
    assert technique_ids("T1059,T1105;t1027 T10599 XT1000") == ["T1059", "T1105", "T1027"]


def test_no_techniques_is_none() -> None:
    assert extract_techniques("") is None
    assert extract_techniques("I could not find any technique.") is None
    assert extract_techniques("T1071 in the middle\nbut nothing at the end") is None


def test_the_last_full_cwe_anywhere_when_the_last_line_has_none() -> None:
    # the published extraction: re.findall(r"CWE-\d+")[-1]; an explanation after the id no longer hides it
    answer = (
        "CWE-79: Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')\n\n"
        "The description says user input is reflected into the page without encoding."
    )
    assert extract_cwe(answer) == "CWE-79"
    assert extract_cwe("CWE-79 is close, but CWE-80 fits better.\nThat is my answer.") == "CWE-80"
    assert extract_cwe("No weakness class applies here.\nSorry.") is None


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            (
                "Techniques:\n- T1071: Application Layer Protocol\n- T1573.001 (Encrypted Channel)\n\n"
                "These are the main ones."
            ),
            ["T1071", "T1573"],
        ),
        ("```\nT1071, T1105\n```", ["T1071", "T1105"]),
        (
            "Found:\nT1071\nT1083\n1. T1059 - Command and Scripting Interpreter\nHope this helps.",
            ["T1071", "T1083", "T1059"],
        ),
        ("Early list:\nT1001\nProse in between.\n* `T1071`\n* `T1105`\nDone.", ["T1071", "T1105"]),
    ],
)
def test_technique_lists_one_per_line_in_code_blocks_or_before_a_closing_line(text: str, expected: list[str]) -> None:
    assert extract_techniques(text) == expected


def test_technique_lists_stay_cheap_on_hostile_input() -> None:
    assert extract_techniques("- T1071\n" * 200_000 + "end") == ["T1071"]
    assert extract_techniques("T1071 " * 300_000 + "\nnothing") is None
