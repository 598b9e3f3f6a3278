"""CTI-Bench tasks on the shared real rows: ground truth scores 1, wrong and malformed answers do not."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.types import GenerateRequest, Output, Sample
from tasks.cyber import FAMILY
from tasks.cyber.cti import prompt_text
from tasks.cyber.prompts import CTI_SYSTEM_PROMPT

CTI_TASKS = ("cyber/cti-mcq", "cyber/cti-rcm", "cyber/cti-vsp", "cyber/cti-ate", "cyber/cti-taa")
ROWS = {"cyber/cti-mcq": 40, "cyber/cti-rcm": 40, "cyber/cti-vsp": 40, "cyber/cti-ate": 10, "cyber/cti-taa": 5}


def make(name: str, **args: object):
    """Build a task of the family (TAA without the authors' tables, which the development sample lacks)."""
    entry = FAMILY.resolve(name)
    assert entry is not None, name
    if name == "cyber/cti-taa":
        args.setdefault("tables", "none")
    return entry.create(**args)


def raw_gt(folder: Path, name: str) -> list[str]:
    """The GT column exactly as the TSV holds it."""
    file = "cti-taa-responses.tsv" if name == "cyber/cti-taa" else name.split("/")[1] + ".tsv"
    with open(folder / file, newline="", encoding="utf-8") as handle:
        return [row["GT"] for row in csv.DictReader(handle, delimiter="\t")]


def score(task, sample: Sample, text: str):
    """Score ``text`` as the model's output."""
    return task.score(sample, Output(text=text))


@pytest.fixture(scope="module")
def cti(shared_data: Path) -> Path:
    return shared_data / "cti-bench"


@pytest.mark.parametrize("name", CTI_TASKS)
def test_ground_truth_as_last_line_scores_one_on_every_row(cti: Path, name: str) -> None:
    task = make(name, data=str(cti))
    samples = list(task.samples())
    gts = raw_gt(cti, name)
    assert len(samples) == len(gts) == ROWS[name]
    assert len({s.id for s in samples}) == len(samples)
    for sample, gt in zip(samples, gts, strict=False):
        assert sample.input[0].role == "system" and sample.input[0].content == CTI_SYSTEM_PROMPT
        assert len(prompt_text(sample)) > 50
        result = score(task, sample, f"Let me analyse the text step by step.\nSome reasoning here.\n{gt}")
        assert result.outcome == "scored" and result.value == 1.0, (sample.id, gt, result)
        oracle = task.reference_output(sample, GenerateRequest(messages=sample.messages()))
        assert score(task, sample, str(oracle)).value == 1.0


def test_mcq_prompt_is_the_original_and_lowercase_gt_is_handled(cti: Path, tmp_path: Path) -> None:
    task = make("cyber/cti-mcq", data=str(cti))
    samples = list(task.samples())
    assert prompt_text(samples[0]).startswith("You are given a multiple-choice question (MCQ)")
    assert (
        make("cyber/cti-mcq", data=str(cti), system_prompt=False).rows()[0]["Prompt"].strip()
        == next(iter(make("cyber/cti-mcq", data=str(cti), system_prompt=False).samples())).input
    )
    lines = (cti / "cti-mcq.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[1].endswith("\tB")
    (tmp_path / "cti-mcq.tsv").write_text("\n".join([lines[0], lines[1][:-1] + "b"]) + "\n", encoding="utf-8")
    lower = next(iter(make("cyber/cti-mcq", data=str(tmp_path)).samples()))
    assert lower.target == "B"
    assert score(task, lower, "Reasoning.\nb").value == 1.0
    for sample in samples:
        wrong = next(letter for letter in "ABCD" if letter != sample.target)
        assert score(task, sample, f"Thinking...\n{wrong}").value == 0.0


@pytest.mark.parametrize("name", CTI_TASKS)
@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "I am not sure.",
        "x" * 300_000,
        "\n".join(["?"] * 50_000),
        " \n" * 100_000,
        "Answer: " + "(" * 10_000,
        "Answer:" + " " * 100_000 + "x",
        "CWE" + " " * 100_000 + "-1",
    ],
    ids=["empty", "blank", "prose", "huge", "questions", "blank-lines", "parens", "spaces", "cwe-spaces"],
)
def test_empty_malformed_and_huge_answers_are_unscored(cti: Path, name: str, text: str) -> None:
    task = make(name, data=str(cti))
    sample = next(iter(task.samples()))
    result = score(task, sample, text)
    assert result.outcome == "unscored" or result.value == 0.0


def test_rcm_wrong_and_ambiguous_cwes(cti: Path) -> None:
    task = make("cyber/cti-rcm", data=str(cti))
    sample = next(iter(task.samples()))
    assert sample.target == "CWE-416"
    assert score(task, sample, "Memory is used after it is freed.\ncwe-416").value == 1.0
    assert score(task, sample, "It is a buffer overflow.\nCWE-787").value == 0.0
    assert score(task, sample, "CWE-416 or CWE-787").outcome == "unscored"


def test_vsp_scores_deviation_and_counts_invalid_vectors(cti: Path) -> None:
    task = make("cyber/cti-vsp", data=str(cti))
    sample = next(iter(task.samples()))
    assert sample.target == "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H"
    same = score(task, sample, "AV:L ...\nCVSS:3.0/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H")
    assert same.value == 1.0 and same.details["abs_deviation"] == 0.0
    wrong = score(task, sample, "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H")
    assert wrong.value == 0.0 and wrong.details["abs_deviation"] == pytest.approx(4.3)
    invalid = score(task, sample, "CVSS:3.1/AV:Q/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H")
    assert invalid.outcome == "unscored" and invalid.details["invalid_vector"] is True


def test_ate_partial_sets_score_their_f1(cti: Path) -> None:
    task = make("cyber/cti-ate", data=str(cti))
    sample = next(iter(task.samples()))
    assert sample.target == ["T1071", "T1573", "T1083", "T1070"]
    partial = score(task, sample, "Reasoning\nT1071, T1573.001, T1105")
    assert partial.details["tp"] == 2 and partial.details["fp"] == 1 and partial.details["fn"] == 2
    assert partial.value == pytest.approx(4 / 7) and partial.correct is False
    assert score(task, sample, "T1070, T1083, T1573, T1071").correct is True


def test_taa_uses_the_responses_file_and_other_models_answers(cti: Path) -> None:
    task = make("cyber/cti-taa", data=str(cti))
    samples = list(task.samples())
    assert [s.target for s in samples] == ["SideCopy", "MUSTANG PANDA", "MUSTANG PANDA", "MUMMY SPIDER", "Dark Caracal"]
    with open(cti / "cti-taa-responses.tsv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    gpt4 = [score(task, s, row["ChatGPT-4"]).value for s, row in zip(samples, rows, strict=False)]
    assert gpt4 == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert score(task, samples[0], "The threat actor is likely SideCopy, a sub-group of APT36.").value == 1.0


def test_taa_alias_table_and_final_line_instruction(cti: Path, tmp_path: Path) -> None:
    aliases = tmp_path / "aliases.json"
    aliases.write_text('{"MUSTANG PANDA": ["TA416", "RedDelta"]}')
    task = make("cyber/cti-taa", data=str(cti), aliases=str(aliases), final_line=True)
    sample = list(task.samples())[1]
    assert prompt_text(sample).endswith(
        "'Threat actor: <name>' naming the single threat actor you attribute the incident to."
    )
    assert score(task, sample, "Analysis...\nThreat actor: RedDelta").value == 1.0
    assert score(task, sample, "Analysis...\nThreat actor: APT41").value == 0.0
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ConfigError, match="aliases"):
        list(make("cyber/cti-taa", data=str(cti), aliases=str(bad)).samples())


def test_data_may_be_one_file_and_no_default_depends_on_the_working_directory(
    cti: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(list(make("cyber/cti-rcm", data=str(cti / "cti-rcm.tsv")).samples())) == 40
    checkout = tmp_path / "main"
    checkout.mkdir()
    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "cti-bench").symlink_to(cti)
    monkeypatch.chdir(checkout)
    monkeypatch.delenv("FRONTIER_CTIBENCH_DATA", raising=False)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(ConfigError, match=r"AI4Sec/cti-bench cannot be fetched: the hub is offline"):
        list(make("cyber/cti-mcq").samples())
    with pytest.raises(ConfigError, match=r"someone/mirror cannot be fetched: the hub is offline"):
        list(make("cyber/cti-mcq", data="hub:someone/mirror").samples())


def test_env_var_then_offline_hub_error(cti: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FRONTIER_CTIBENCH_DATA", str(cti))
    assert len(list(make("cyber/cti-ate").samples())) == 10
    monkeypatch.delenv("FRONTIER_CTIBENCH_DATA")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(ConfigError, match=r"-T data=PATH"):
        list(make("cyber/cti-ate").samples())


def test_bad_files_give_errors_naming_the_problem(cti: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        list(make("cyber/cti-mcq", data=str(tmp_path / "nowhere")).samples())
    with pytest.raises(ConfigError, match=r"cti-mcq\.tsv not found"):
        list(make("cyber/cti-mcq", data=str(tmp_path)).samples())
    (tmp_path / "cti-mcq.tsv").write_text("URL\tQuestion\nx\ty\n")
    with pytest.raises(ConfigError, match=r"lacks column\(s\) \['Prompt', 'GT'\]"):
        list(make("cyber/cti-mcq", data=str(tmp_path)).samples())
    (tmp_path / "cti-mcq.tsv").write_text("Prompt\tGT\nQuestion?\tE\n")
    with pytest.raises(ConfigError, match="row 0: GT 'E'"):
        list(make("cyber/cti-mcq", data=str(tmp_path)).samples())
    (tmp_path / "cti-vsp.tsv").write_text("Prompt\tGT\nDescribe\tCVSS:3.1/AV:N\n")
    with pytest.raises(ConfigError, match="not a valid CVSS v3 vector"):
        list(make("cyber/cti-vsp", data=str(tmp_path)).samples())
    (tmp_path / "cti-taa.tsv").write_text((cti / "cti-taa.tsv").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ConfigError, match="responses"):
        list(make("cyber/cti-taa", data=str(tmp_path)).samples())
    (tmp_path / "cti-taa-responses.tsv").write_text("GT\nAPT28\n")
    with pytest.raises(ConfigError, match="has 1 rows but cti-taa has 5"):
        list(make("cyber/cti-taa", data=str(tmp_path)).samples())
