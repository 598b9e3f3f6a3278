"""CWE ids and ATT&CK technique ids read from the last line of an answer."""

from __future__ import annotations

from scorers.cti_ids import extract_cwe, extract_techniques, normalise_cwe, technique_ids


def test_cwe_on_last_line_in_many_spellings() -> None:
    assert extract_cwe("Justification...\nCWE-79") == "CWE-79"
    assert extract_cwe("reasoning\n**CWE-416: Use After Free**") == "CWE-416"
    assert extract_cwe("cwe 022") == "CWE-22"
    assert extract_cwe("Answer: CWE-89\nThanks") == "CWE-89"


def test_missing_or_ambiguous_cwe_is_none() -> None:
    assert extract_cwe("") is None
    assert extract_cwe("It is either CWE-79 or CWE-80") is None
    assert extract_cwe("CWE-79 is close, but\nthe answer is unclear") is None
    assert extract_cwe("CWE-" + "9" * 50) is None
    assert normalise_cwe("CWE-79 / CWE-079") == "CWE-79"


def test_techniques_with_subtechniques_mapped_to_parents() -> None:
    assert extract_techniques("Reasoning\nT1071, T1573.001, T1083, T1071.004") == ["T1071", "T1573", "T1083"]
    assert technique_ids("T1059,T1105;t1027 T10599 XT1000") == ["T1059", "T1105", "T1027"]


def test_no_techniques_is_none() -> None:
    assert extract_techniques("") is None
    assert extract_techniques("I could not find any technique.") is None
    assert extract_techniques("T1071 in the middle\nbut nothing at the end") is None
