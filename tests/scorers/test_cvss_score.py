"""CVSS v3 base scores from the ``cvss`` package, checked against the specification's formula."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from scorers.cvss_score import (
    InvalidVector,
    base_score_deviation,
    find_cvss_vector,
    parse_cvss3,
    same_base_metrics,
)

WEIGHTS = {
    "AV": {"N": 0.85, "A": 0.62, "L": 0.55, "P": 0.2},
    "AC": {"L": 0.77, "H": 0.44},
    "UI": {"N": 0.85, "R": 0.62},
    "CIA": {"H": 0.56, "L": 0.22, "N": 0.0},
}


def roundup(value: float) -> float:
    """CVSS v3.1 Roundup (Appendix A of the specification)."""
    integer = round(value * 100000)
    if integer % 10000 == 0:
        return integer / 100000.0
    return (math.floor(integer / 10000) + 1) / 10.0


def spec_base_score(vector: str) -> float:
    """The CVSS v3.1 base score written out from the specification, independent of the package."""
    m = dict(part.split(":") for part in vector.split("/")[1:])
    changed = m["S"] == "C"
    pr = {"N": 0.85, "L": 0.68 if changed else 0.62, "H": 0.5 if changed else 0.27}[m["PR"]]
    iss = 1 - (1 - WEIGHTS["CIA"][m["C"]]) * (1 - WEIGHTS["CIA"][m["I"]]) * (1 - WEIGHTS["CIA"][m["A"]])
    impact = 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 if changed else 6.42 * iss
    exploitability = 8.22 * WEIGHTS["AV"][m["AV"]] * WEIGHTS["AC"][m["AC"]] * pr * WEIGHTS["UI"][m["UI"]]
    if impact <= 0:
        return 0.0
    if changed:
        return roundup(min(1.08 * (impact + exploitability), 10))
    return roundup(min(impact + exploitability, 10))


@pytest.mark.parametrize(
    "vector, score",
    [
        ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8),
        ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10.0),
        ("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1),
        ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", 7.5),
        ("CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 7.8),
        ("CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H", 5.5),
        ("CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N", 5.4),
        ("CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", 4.6),
        ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", 0.0),
        ("CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8),
    ],
)
def test_known_base_scores(vector: str, score: float) -> None:
    assert parse_cvss3(vector).base_score == score


def test_package_agrees_with_the_specification_formula_on_every_vector() -> None:
    values = ["NALP", "LH", "NLH", "NR", "UC", "NLH", "NLH", "NLH"]
    names = ["AV", "AC", "PR", "UI", "S", "C", "I", "A"]
    checked = 0
    for combo in itertools.product(*values):
        vector = "CVSS:3.1/" + "/".join(f"{n}:{v}" for n, v in zip(names, combo, strict=False))
        assert parse_cvss3(vector).base_score == spec_base_score(vector), vector
        checked += 1
    assert checked == 2592


def test_deviation_of_a_vector_against_itself_is_zero_and_pairs_match_hand_values() -> None:
    a = parse_cvss3("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H")
    b = parse_cvss3("CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H")
    c = parse_cvss3("CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H")
    assert base_score_deviation(a, a) == 0.0
    assert base_score_deviation(a, b) == 4.3
    assert base_score_deviation(b, a) == 4.3
    assert same_base_metrics(a, c) and not same_base_metrics(a, b)


@pytest.mark.parametrize(
    "vector",
    [
        "",
        "CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
        "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H",
        "CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
        "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H",
        "CVSS:3.1/" + "AV:N/" * 200,
        "not a vector",
    ],
)
def test_invalid_vectors_raise_invalid_vector(vector: str) -> None:
    with pytest.raises(InvalidVector):
        parse_cvss3(vector)


def test_prefixless_and_lowercase_vectors_are_accepted() -> None:
    assert parse_cvss3("AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H").base_score == 9.8
    assert parse_cvss3("cvss:3.1/av:n/ac:l/pr:n/ui:n/s:u/c:h/i:h/a:h").base_score == 9.8


def test_find_vector_prefers_last_line_then_last_anywhere() -> None:
    text = (
        "Maybe CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H at first.\n"
        "Final:\n**CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H**"
    )
    assert find_cvss_vector(text) == "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"
    text = "The vector is CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N.\nThis gives a score of 5.9."
    assert find_cvss_vector(text) == "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N"
    assert find_cvss_vector("no vector here") is None
    assert find_cvss_vector("") is None


def test_random_garbage_never_crashes() -> None:
    """Random mixes of whole vectors, fragments, wrong values and lone surrogates: a candidate is always
    text of the answer, and it either parses to a score in [0, 10] or is refused with a message."""
    rng = random.Random(0)
    pieces = [
        *("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "AV:L/AC:H/PR:H/UI:R/S:C/C:L/I:N/A:L", "CVSS:3.0/"),
        *("AV:N", "AC:L", "PR:Q", "S:U", "C:H", "/", "/", " ", "\n", "**", ":", "3", "é", "\ud800"),
    ]
    outcomes = {"valid": 0, "refused": 0}
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        raw = find_cvss_vector(text)
        if raw is None:
            continue
        assert raw in text
        try:
            vector = parse_cvss3(raw)
        except InvalidVector as refused:
            assert str(refused)
            outcomes["refused"] += 1
            continue
        assert 0.0 <= vector.base_score <= 10.0
        outcomes["valid"] += 1
    assert min(outcomes.values()) > 50, outcomes  # both paths were exercised


def test_the_full_vector_one_line_earlier_beats_a_fragment_in_the_last_line() -> None:
    text = (
        "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H\n"
        "The attack vector is network (AV:N) because the service listens remotely."
    )
    assert find_cvss_vector(text) == "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"
    two = "First guess AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H, revised:\nAV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"
    assert find_cvss_vector(two) == "AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"
    assert find_cvss_vector("Only a fragment: AV:N") == "AV:N"  # kept so that it is reported invalid
    with pytest.raises(InvalidVector):
        parse_cvss3("AV:N")
