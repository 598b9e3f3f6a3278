"""The official verifier (``-T verifier=official``) beside the strict one: both decisions recorded
and reported, upstream's label-less fallbacks, the upstream bugs decided as a careful reader,
the defects fixed in both modes, and data errors reported as errors."""

from __future__ import annotations

import json
import time

import pytest

from harness.types import Output, Sample, SampleResult
from scorers.literal import LiteralError, first_bracketed, parse_literal
from tasks.longcot import FAMILY
from tasks.longcot.data import LongCotDataError, Question, load_questions
from tasks.longcot.official import verify_official
from tasks.longcot.task import MiniTask, score_of
from tasks.longcot.verify import verify

MATH = Question("m1", "math", "easy", "linear", "p", {"template": "linear"}, ["16", "3^{n+1} - 1", "2013^{4025}"])
TEXT_MATH = Question("m2", "math", "easy", "dag", "p", {"template": "dag"}, ["60", "3 and 4"])
CHEM = Question("h1", "chemistry", "easy", "easy1", "p", {"template": "easy1"}, "CC(=O)Oc1ccccc1C(=O)O")
RING = Question("h2", "chemistry", "easy", "easy1", "p", {"template": "easy1"}, "c1ccc(-c2ccccc2)cc1")
HARD3 = Question("h3", "chemistry", "hard", "hard3", "p", {"template": "hard3"}, "O=N(O)C1:C:C:C(C:C:CO):C:C:1")
MIXED = Question("h4", "chemistry", "hard", "hard2", "p", {"template": "hard2"}, ["CCO", 1.005, 2.0])
CS_INT = Question("c1", "cs", "easy", "VLIW", "p", {"template": "VLIW"}, 42)
CS_LIST = Question("c2", "cs", "easy", "Backprop", "p", {"template": "Backprop"}, [3, 1, 2])
MCM = Question("c3", "cs", "hard", "MCM", "p", {"template": "MCM"}, {"Q1": "(" * 70 + "M_1*M_2" + ")" * 70, "Q2": 31})
CHESS_INT = Question("k1", "chess", "easy", "knight_path", "p", {"template": "knight_path"}, "7")
BEST3 = Question("k2", "chess", "easy", "best_3_moves", "p", {"template": "best_3_moves"}, ["e4", "Nf3", "Bb5+"])
SOKOBAN = Question(
    "s1",
    "logic",
    "easy",
    "Sokoban",
    "p",
    {
        "template": "Sokoban",
        "instance": {"width": 5, "height": 3, "walls": [], "goals": [[1, 3]], "boxes": [[1, 2]], "player": [1, 1]},
    },
    None,
)
DUNGEON = Question("d1", "logic", "easy", "Dungeon", "p", {"template": "Dungeon", "solution": 12, "instance": {}}, None)


@pytest.mark.parametrize(
    "question, response",
    [
        (CS_INT, "After all steps the register holds 42."),
        (CS_INT, "\\boxed{42}"),
        (CS_LIST, "The order is [3, 1, 2]."),
        (CS_LIST, "solution: 3, 1, 2"),
        (CHESS_INT, "So the knight needs 7 moves."),
        (BEST3, "The line is [e4, Nf3, Bb5+]."),
        (DUNGEON, "solution: 12"),
        (SOKOBAN, "The moves are R."),
        (MATH, "Final: [16, 3*3^n - 1, 2013^4025]"),
        (CHEM, "The product is CC(=O)Oc1ccccc1C(=O)O"),
        (MIXED, "Final: [CCO, 1.0049, 2]"),
    ],
)
def test_label_less_answers_are_read_as_upstream_reads_them(question, response):
    assert verify_official(question, response).status == "correct"
    assert verify(question, response).status == "unparsed"


@pytest.mark.parametrize(
    "question, response",
    [
        (CHEM, "**solution = CC(=O)Oc1ccccc1C(=O)O**"),
        (RING, "solution = c1ccc(-c2ccccc2)cc1"),
        (RING, "solution = c1ccc(cc1)-c1ccccc1"),
        (SOKOBAN, 'solution = "R"'),
        (SOKOBAN, "solution = `R`"),
        (TEXT_MATH, "solution = [60, 3 and 4]"),
        (MATH, "solution = [16, 3 \\cdot 3^n - 1, 2013^{4025}]"),
    ],
)
def test_upstream_bugs_are_decided_as_a_careful_reader(question, response):
    assert verify_official(question, response).status == "correct"


@pytest.mark.parametrize(
    "question, response",
    [
        (CS_INT, "solution = 41"),
        (CS_INT, "The register holds 41."),
        (CS_LIST, "The order is [3, 2, 1]."),
        (CHESS_INT, "solution = 8"),
        (BEST3, "solution = e4, Nf3, Bc4"),
        (SOKOBAN, "solution = L"),
        (MATH, "solution = [16, 3^n - 1, 2013^4025]"),
        (TEXT_MATH, "solution = [60, 3 or 4]"),
        (MIXED, "solution = [CCO, 1.02, 2]"),
        (CHEM, "solution = CCO"),
        (HARD3, "solution = O=N(O)C1:C:C:C(C:C:CC):C:C:1"),
    ],
)
def test_wrong_answers_are_not_accepted(question, response):
    assert verify_official(question, response).status != "correct"
    assert verify(question, response).status != "correct"


def test_float_rounding_is_pythons_round():
    assert verify_official(MIXED, "solution = [CCO, 1.0, 2.0]").status == "correct"
    assert verify(MIXED, "solution = [CCO, 1.0, 2.0]").status == "wrong"


@pytest.mark.parametrize(
    "question, response",
    [
        (HARD3, "solution = O=N(O)C1:C:C:C(C:C:CO):C:C:1"),
        (MCM, "solution = " + json.dumps(MCM.answer)),
        (CHEM, "solution = The major product is OC(=O)c1ccccc1OC(C)=O."),
        (MATH, "solution = [16, 3*3^n - 1, 2013^{4025}]"),
    ],
)
def test_defects_fixed_in_both_modes(question, response):
    assert verify(question, response).status == "correct"
    assert verify_official(question, response).status == "correct"


def test_brackets_in_strings_do_not_count_towards_depth_and_deep_nesting_is_linear():
    assert parse_literal(json.dumps({"Q1": "(" * 500 + ")" * 500})) == {"Q1": "(" * 500 + ")" * 500}
    with pytest.raises(LiteralError, match="deeper"):
        parse_literal("[" * 100 + "]" * 100)
    assert first_bracketed("x [" + "[" * 100_000 + "]" * 100_000 + " [1, 2]") is not None
    assert first_bracketed("see [it's open, then [1, 2]") == "[1, 2]"
    started = time.process_time()
    for text in ("solution = " + "[" * 100_000 + "]" * 100_000, "{" * 100_000 + "}" * 100_000):
        assert verify(CS_LIST, text).status != "correct"
        assert verify_official(CS_LIST, text).status != "correct"
        assert verify_official(MCM, text).status != "correct"
    assert time.process_time() - started < 30, "bracket scans are no longer linear"


def test_both_decisions_are_recorded_and_reported(longcot_dir):
    official = FAMILY.resolve("longcot/math-easy").create(data=str(longcot_dir), per_template=1)
    strict = FAMILY.resolve("longcot/math-easy").create(data=str(longcot_dir), per_template=1, verifier="strict")
    sample = next(iter(official.samples()))
    gold = official.reference_output(sample, None)
    outputs = [gold, gold.replace("solution = ", "The answer is "), "solution = [0]"]
    for task, accuracy in ((official, 2 / 3), (strict, 1 / 3)):
        scores = [task.score(sample, Output(text=text)) for text in outputs]
        assert [s.details["official"] for s in scores] == ["correct", "correct", "wrong"]
        assert [s.details["strict"] for s in scores] == ["correct", "unparsed", "wrong"]
        results = [
            SampleResult(sample_id=sample.id, task=task.name, input=sample.input, score=score, metadata=sample.metadata)
            for score in scores
        ]
        summary = task.aggregate(results)
        assert summary["accuracy"].value == pytest.approx(accuracy)
        assert summary["accuracy_official"].value == pytest.approx(2 / 3)
        assert summary["accuracy_strict"].value == pytest.approx(1 / 3) and summary["accuracy_strict"].n == 3


@pytest.mark.parametrize(
    "template, answer",
    [
        ("forced_checkmate", "Qh5"),
        ("knight_path", ""),
        ("MCM", [1, 2]),
        ("Backprop", "abc"),
        ("VLIW", "x"),
        ("med1", "CCO"),
        ("hard2", "CCO"),
        ("easy1", ["CCO"]),
    ],
)
def test_a_stored_answer_of_the_wrong_shape_is_a_data_error(template, answer):
    domain = next(
        d
        for d, ts in {
            "chess": ("forced_checkmate", "knight_path"),
            "cs": ("MCM", "Backprop", "VLIW"),
            "chemistry": ("med1", "hard2", "easy1"),
        }.items()
        if template in ts
    )
    question = Question("q", domain, "easy", template, "p", {"template": template}, answer)
    with pytest.raises(ValueError):
        verify_official(question, "solution = 1")
    task = MiniTask("longcot/mini", data="unused")
    sample = Sample(
        id=question.uid,
        input="p",
        target=answer,
        metadata={
            "question_id": "q",
            "domain": domain,
            "split": "easy",
            "template": template,
            "problem": question.problem,
        },
    )
    score = task.score(sample, Output(text="solution = 1"))
    assert score.outcome == "error" and "malformed question" in score.explanation


def test_deeply_nested_data_file_is_a_clear_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "cs-easy.json").write_text(
        '{"questions": [{"question_id": "a", "prompt": "p", "problem": {"template": "HM"}, "answer": ' + deep + "}]}"
    )
    with pytest.raises(LongCotDataError, match="nested too deeply"):
        list(load_questions(str(tmp_path), ("cs",), ("easy",)))


def test_score_of_keeps_unresolved_scored_wrong():
    from tasks.longcot.verdict import Verdict

    score = score_of(Verdict("unresolved", "x", "undecided"), {"official": "unresolved"})
    assert score.outcome == "scored" and score.correct is False and score.details["unresolved"] is True


def test_no_data_given_is_an_error_naming_the_options_even_beside_a_shared_folder(monkeypatch, tmp_path, longcot_dir):
    import shutil

    (tmp_path / "shared" / "data" / "longcot").mkdir(parents=True)
    shutil.copy(longcot_dir / "cs-medium.json", tmp_path / "shared" / "data" / "longcot" / "cs-medium.json")
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    monkeypatch.delenv("FRONTIER_LONGCOT_DATA", raising=False)
    with pytest.raises(LongCotDataError) as caught:
        list(FAMILY.resolve("longcot/full").create().samples())
    for option in (
        "-T data=PATH",
        "-T data=hub:LongHorizonReasoning/longcot",
        "-T data=hub:PATH",
        "$FRONTIER_LONGCOT_DATA",
    ):
        assert option in str(caught.value)


async def test_oracle_scores_one_on_every_split_and_the_summary_counts_questions_per_split(longcot_dir, monkeypatch):
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate
    from tasks.longcot.oracle.render import RECONSTRUCT_NODES_VAR

    monkeypatch.setenv(RECONSTRUCT_NODES_VAR, "0")
    for split in ("easy", "medium", "hard"):
        task = FAMILY.resolve(f"longcot/chemistry-{split}").create(data=str(longcot_dir), per_template=3)
        results = await evaluate(task, resolve_adapter("builtin/oracle"), concurrency=2)
        summary = task.aggregate(results)
        assert summary["accuracy"].value == 1.0, split
        assert summary["accuracy_strict"].value == 1.0, split
        assert summary[f"questions/{split}"].value == len(results) == summary["accuracy"].n


def test_official_math_compares_decimals_exactly_strict_rounds_to_the_reference():
    question = Question("m3", "math", "easy", "linear", "p", {"template": "linear"}, ["4.309", "2"])
    assert verify(question, "solution = [4.3090001, 2]").status == "correct"
    assert verify_official(question, "solution = [4.3090001, 2]").status == "wrong"
    assert verify_official(question, "solution = [4.3090, 2]").status == "correct"


def test_last_json_object_is_found_behind_many_latex_braces():
    hm = Question("c4", "cs", "easy", "HM", "p", {"template": "HM"}, {"a": 1})
    response = 'The table is {"a": 1}, since ' + "\\frac{1}{2} + " * 2000 + "= 1000."
    assert verify_official(hm, response).status == "correct"


@pytest.mark.parametrize(
    "response",
    [
        "9" * 1_000_000,
        "solution = " + "9" * 1_000_000,
        "1," * 100_000 + "1",
        "solution = [" + "1," * 100_000 + "]",
        "-1" * 100_000,
    ],
    ids=["digits", "labelled_digits", "csv", "labelled_list", "minus_run"],
)
def test_integers_of_a_million_digits_are_rejected_cleanly(response):
    for question in (CS_INT, CS_LIST, CHESS_INT, DUNGEON, MATH):
        assert verify_official(question, response).status != "correct"


def test_an_unknown_template_is_an_error_officially_and_scored_by_shape_strictly():
    problem = {"template": "NewTemplate"}
    sample = Sample(
        id="cs/easy/n",
        input="p",
        target=7,
        metadata={"question_id": "n", "domain": "cs", "split": "easy", "template": "NewTemplate", "problem": problem},
    )
    official = MiniTask("longcot/mini", data="unused").score(sample, Output(text="solution = 7"))
    strict = MiniTask("longcot/mini", data="unused", verifier="strict").score(sample, Output(text="solution = 7"))
    assert official.outcome == "error" and "unknown cs template" in official.explanation
    assert strict.correct is True and "official" not in strict.details and strict.details["strict"] == "correct"
