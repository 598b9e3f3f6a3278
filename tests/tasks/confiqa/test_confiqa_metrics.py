"""The official ConFiQA judgements on hand-made cases, and the scorer on hostile outputs."""

from __future__ import annotations

import pytest

from harness.types import Output, Sample
from scorers.alias_match import answer_forms, contains_any, negation_words
from scorers.squad_normalize import exact_match, normalize_answer, recall_match
from tasks.confiqa.metrics import judge
from tasks.confiqa.task import ConFiQAGenTask

ORIG = ["Lorne Balfe", "Lorne David Roderick Balfe"]
CF = ["Petri Alanko", "Petri Rainer Mikael Alanko"]


def test_squad_normalisation_matches_the_official_script() -> None:
    assert normalize_answer("The  Eiffel-Tower, in PARIS!") == "eiffeltower in paris"
    assert normalize_answer("An apple a day") == "apple day"
    assert exact_match("the Louvre.", "Louvre")
    assert not exact_match("the Louvre museum", "Louvre")
    assert recall_match("It is the Louvre museum", "Louvre")
    assert not recall_match("anything", "...")


def test_counterfactual_answer_is_pc_and_em() -> None:
    verdict = judge("Petri Alanko.", ORIG, CF)
    assert (verdict.pc, verdict.po, verdict.em, verdict.robust) == (True, False, True, False)


def test_alias_hit_counts_for_pc_but_not_em_inside_a_sentence() -> None:
    verdict = judge("The score was written by Petri Rainer Mikael Alanko", ORIG, CF)
    assert verdict.pc and not verdict.em and verdict.cf_hit == "petri rainer mikael alanko"
    assert judge("petri rainer mikael alanko", ORIG, CF).em


def test_negated_counterfactual_answer_is_not_pc() -> None:
    for text in ("It is not Petri Alanko.", "No, Petri Alanko didn't compose it", "Nobody but Petri Alanko"):
        verdict = judge(text, ORIG, CF)
        assert not verdict.pc and not verdict.pc_strict and verdict.negations, text
    contracted = judge("It isn\u2019t Petri Alanko", ORIG, CF)
    assert contracted.pc and not contracted.pc_strict  # the authors' list has no contractions


def test_both_answers_present_is_po_not_pc() -> None:
    verdict = judge("Petri Alanko, although Lorne Balfe is usually credited", ORIG, CF)
    assert verdict.po and not verdict.pc and not verdict.robust


def test_original_answer_is_po_and_factual_robustness() -> None:
    verdict = judge("Lorne Balfe", ORIG, CF)
    assert (verdict.pc, verdict.po, verdict.robust) == (False, True, True)
    assert judge("Lorne David Roderick Balfe composed it", ORIG, CF).po


def test_partial_word_mention_counts_in_the_official_reading_only() -> None:
    orig, cf = ["Athens"], ["Lima"]
    assert judge("Limassol", orig, cf).pc
    assert not judge("Limassol", orig, cf).pc_strict
    assert judge("It is Lima.", orig, cf).pc_strict
    assert not judge("Balfe", ORIG, CF).po


def test_negation_words_are_whole_tokens() -> None:
    assert negation_words("Nobody knows; the note is nothing") == ("nobody", "nothing")
    assert negation_words("I cannot say, it's not, noted") == ("cannot", "not")


def test_answer_forms_drop_empty_and_duplicates() -> None:
    assert answer_forms("The Louvre", ["Louvre", "...", ""]) == ("louvre",)
    assert contains_any("", ("louvre",)) is None


def _sample() -> Sample:
    return Sample(
        id="s",
        input="x",
        target="Petri Alanko",
        metadata={"orig_answer": ORIG[0], "orig_alias": ORIG[1:], "cf_answer": CF[0], "cf_alias": CF[1:]},
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\x00\x01",
        "A" * 5_000_000,
        "Petri " * 200_000,
        "🙂" * 10_000,
        "{'a': [1, 2]}" * 1000,
        "not " * 100_000 + "Petri Alanko",
    ],
)
def test_scorer_never_raises_and_never_credits_junk(text: str) -> None:
    task = ConFiQAGenTask("confiqa-gen/qa")
    score = task.score(_sample(), Output(text=text))
    assert score.outcome in ("scored", "unscored")
    assert not score.correct


def test_scorer_value_follows_target_and_empty_is_unscored() -> None:
    faithful = ConFiQAGenTask("confiqa-gen/qa")
    robust = ConFiQAGenTask("confiqa-gen/qa", target="robustness")
    assert faithful.score(_sample(), Output(text="Petri Alanko")).value == 1.0
    assert robust.score(_sample(), Output(text="Petri Alanko")).value == 0.0
    assert robust.score(_sample(), Output(text="Lorne Balfe")).value == 1.0
    empty = faithful.score(_sample(), Output(text=" "))
    assert empty.outcome == "unscored" and empty.details["pc"] is False
    control = faithful.score(_sample(), Output(text="Petri Alanko", data={"control": "Lorne Balfe"}))
    assert control.details["control"] is True
    assert faithful.score(_sample(), Output(text="x", data={"control": "Petri Alanko"})).details["control"] is False
