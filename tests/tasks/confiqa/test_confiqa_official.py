"""The ConFiQA authors' metrics (Context-DPO ``evaluation.py``), rule by rule, on items written here
(issue 37 item 9; the real files are too large for the reference mirror). Each case states what their
rules give: SQuAD normalisation; negation words no, not, never, none, cannot, nobody, nothing,
nowhere, neither, nor, without, hardly as whole tokens (of the normalised output for Pc/Po, of the
raw output for EM); Pc = a counterfactual answer/alias is a substring, no negation, no original
answer/alias; Po = an original answer/alias is a substring; EM = the normalised output equals a
counterfactual answer/alias and the raw output has no negation word; MR = Po/(Po+Pc) over all items."""

from __future__ import annotations

import pytest

from harness.types import Output, Sample, SampleResult
from tasks.confiqa.metrics import judge
from tasks.confiqa.task import ConFiQAGenTask

ORIG, CF = ["Lorne Balfe", "Lorne David Roderick Balfe"], ["Petri Alanko", "Petri Rainer Mikael Alanko"]
BAND_ORIG, BAND_CF = ["The Police"], ["No Doubt"]  # an answer that itself holds a negation word

CASES = [  # (output, orig, cf, pc, po, em)
    ("Petri Alanko", ORIG, CF, True, False, True),
    ("The answer is Petri Alanko.", ORIG, CF, True, False, False),
    ("petri rainer mikael alanko!", ORIG, CF, True, False, True),
    ("Petri Alanko, not Lorne Balfe", ORIG, CF, False, True, False),
    ("Lorne Balfe", ORIG, CF, False, True, False),
    ("Nobody but Petri Alanko", ORIG, CF, False, False, False),
    ("Nothing suggests Petri Alanko", ORIG, CF, False, False, False),
    ("nowhere is Petri Alanko named", ORIG, CF, False, False, False),
    ("Petri Alanko, without doubt", ORIG, CF, False, False, False),
    ("Hardly Petri Alanko", ORIG, CF, False, False, False),
    ("It isn't Petri Alanko", ORIG, CF, True, False, False),  # contractions are not in their list
    ("Not Lorne Balfe", ORIG, CF, False, True, False),  # Po does not check negation
    ("Petri Alankoski", ORIG, CF, True, False, False),  # substring, not whole words
    ("", ORIG, CF, False, False, False),
    ("No Doubt", BAND_ORIG, BAND_CF, False, False, True),  # raw token 'No' is not 'no': EM holds
    ("no doubt", BAND_ORIG, BAND_CF, False, False, False),  # raw token 'no': EM fails
    ("No Doubt.", BAND_ORIG, BAND_CF, False, False, True),
]


@pytest.mark.parametrize(("text", "orig", "cf", "pc", "po", "em"), CASES)
def test_each_rule_of_the_authors_evaluation(text: str, orig: list, cf: list, pc: bool, po: bool, em: bool) -> None:
    verdict = judge(text, orig, cf)
    assert (verdict.pc, verdict.po, verdict.em) == (pc, po, em)


def test_strict_reading_differs_only_where_its_rules_say() -> None:
    assert judge("It isn't Petri Alanko", ORIG, CF).pc_strict is False
    assert judge("Petri Alankoski", ORIG, CF).pc_strict is False
    assert judge("No, Petri Alanko", ORIG, CF).em_strict is False
    assert judge("NOT Petri Alanko", ORIG, CF).em_strict is False
    assert judge("The answer is Petri Alanko.", ORIG, CF).pc_strict is True


def test_mr_and_every_item_in_the_denominators() -> None:
    """Task metrics over the cases as one run: an empty answer (unscored) still counts in Pc, Po and EM."""
    task = ConFiQAGenTask("confiqa-gen/qa", control=False)
    results = []
    for index, (text, orig, cf, *_) in enumerate(CASES):
        meta = {"orig_answer": orig[0], "orig_alias": orig[1:], "cf_answer": cf[0], "cf_alias": cf[1:]}
        sample = Sample(id=str(index), input="x", target=cf[0], metadata=meta)
        score = task.score(sample, Output(text=text))
        results.append(SampleResult(task="confiqa-gen/qa", sample_id=sample.id, input="x", score=score))
    summary = task.aggregate(results)
    pc, po, em = (sum(case[i] for case in CASES) for i in (3, 4, 5))
    assert (summary["pc"].n, summary["po"].n, summary["em"].n) == (len(CASES),) * 3
    assert summary["pc"].value == pytest.approx(pc / len(CASES)) and summary["em"].value == pytest.approx(em / 17)
    assert summary["mr"].value == pytest.approx(po / (po + pc))
    assert summary["accuracy"].value == pytest.approx(pc / len(CASES))
