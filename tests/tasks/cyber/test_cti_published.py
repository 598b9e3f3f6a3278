"""CTI-Bench reproduced from the authors' published outputs, through ``frontier import``.

The authors' extracted answers of five models (``evaluation/responses/*.tsv``, one column per
model) give exactly the numbers of their evaluation notebook; the raw ChatGPT-3.5 logs give them
within the issue's tolerances. TAA's plausible tier is the notebook's once the tables' literal
``'nan'`` entries are dropped (with them: 62/86/74/80/36).
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.importing import import_outputs
from harness.plan import TaskPlan
from harness.registry import resolve_task
from harness.types import TaskSummary
from tasks.cyber.cti_taa import CtiTaaTask
from tasks.cyber.taa_tables import read_table

MODELS = ("ChatGPT-3.5", "ChatGPT-4", "Gemini-1.5", "LLAMA3-70B", "LLAMA3-8B")
PUBLISHED = {  # task: (metric, the authors' number per model, scale)
    "cti-mcq": ("accuracy", (54.12, 71.00, 65.44, 65.76, 61.32), 100),
    "cti-rcm": ("accuracy", (67.20, 72.00, 66.63, 65.90, 44.70), 100),
    "cti-rcm-2021": ("accuracy", (62.70, 68.00, 65.03, 60.76, 48.30), 100),
    "cti-vsp": ("mad", (1.5743, 1.3100, 1.0911, 1.8292, 1.9076), 1),
    "cti-taa": ("accuracy", (44, 52, 38, 52, 28), 100),
}
TAA_PLAUSIBLE = (62, 84, 72, 78, 36)
RAW_GPT3 = {
    "cti-mcq": ("accuracy", 54.12, 0.2, 100),
    "cti-rcm": ("accuracy", 67.20, 0.2, 100),
    "cti-rcm-2021": ("accuracy", 62.70, 0.2, 100),
    "cti-vsp": ("mad", 1.5743, 0.005, 1),
    "cti-taa": ("accuracy", 44, 6, 100),
}


@pytest.fixture(scope="module")
def published(shared_data: Path) -> Path:
    folder = shared_data / "cti-bench-published"
    if not folder.is_dir():
        pytest.skip(f"{folder} not found")
    return folder


_IMPORTED: dict[tuple[str, str, str | None], TaskSummary] = {}


def _taa(**args: str) -> CtiTaaTask:
    task = resolve_task("cyber/cti-taa").create(**args)
    assert isinstance(task, CtiTaaTask)
    return task


def _value(summary: TaskSummary, metric: str) -> float:
    value = summary.metrics[metric].value
    assert value is not None, metric
    return value


def imported(published: Path, out: Path, subset: str, source: Path, column: str | None = None) -> TaskSummary:
    """Import ``source`` as a run of ``cyber/<subset>`` on the full upstream data and return its summary.

    Each (subset, source, column) is imported once per test session; later tests reuse its summary.
    """
    key = (subset, str(source), column)
    if key not in _IMPORTED:
        report = import_outputs(TaskPlan(f"cyber/{subset}", {"data": str(published)}), source, out, column=column)
        _IMPORTED[key] = report.summary.tasks[f"cyber/{subset}"]
    return _IMPORTED[key]


@pytest.mark.slow
@pytest.mark.parametrize("subset", list(PUBLISHED))
def test_extracted_answers_of_five_models_give_the_authors_numbers(
    published: Path, tmp_path: Path, subset: str
) -> None:
    metric, numbers, scale = PUBLISHED[subset]
    source = published / "responses" / f"{subset}-responses.tsv"
    for model, number in zip(MODELS, numbers, strict=False):
        summary = imported(published, tmp_path / model, subset, source, column=model)
        assert _value(summary, metric) * scale == pytest.approx(number, abs=0.005 if scale == 100 else 5e-5), (
            subset,
            model,
        )
        if subset == "cti-taa":
            plausible = TAA_PLAUSIBLE[MODELS.index(model)]
            assert _value(summary, "plausible_accuracy") * 100 == pytest.approx(plausible), model


@pytest.mark.slow
def test_the_paper_denominators_refusals_kept_for_mcq_non_cwe_answers_dropped_for_rcm(
    published: Path, tmp_path: Path
) -> None:
    mcq = imported(
        published, tmp_path / "mcq", "cti-mcq", published / "responses" / "cti-mcq-responses.tsv", "Gemini-1.5"
    )
    assert mcq.counts["unscored"] == 4 and mcq.metrics["accuracy"].n == 2500  # four 'X' refusals count wrong
    assert mcq.metrics["accuracy_scored"].n == 2496
    rcm = imported(
        published, tmp_path / "rcm", "cti-rcm", published / "responses" / "cti-rcm-responses.tsv", "Gemini-1.5"
    )
    assert rcm.metrics["accuracy"].n == 923 and rcm.metrics["accuracy_all"].n == 1000  # 77 'Error' answers
    assert rcm.metrics["accuracy_all"].value == pytest.approx(615 / 1000)


@pytest.mark.parametrize("subset", list(RAW_GPT3))
def test_raw_chatgpt35_logs_reproduce_within_tolerance(published: Path, tmp_path: Path, subset: str) -> None:
    metric, number, tolerance, scale = RAW_GPT3[subset]
    summary = imported(published, tmp_path / "raw", subset, published / "logs" / "gpt3" / f"{subset}.txt")
    assert sum(summary.counts.values()) == {"cti-mcq": 2500, "cti-taa": 50}.get(subset, 1000)
    assert _value(summary, metric) * scale == pytest.approx(number, abs=tolerance), subset


def test_duplicate_prompts_with_conflicting_truth_cap_the_score(published: Path, tmp_path: Path) -> None:
    rcm = imported(
        published, tmp_path / "rcm", "cti-rcm", published / "responses" / "cti-rcm-responses.tsv", "ChatGPT-4"
    )
    assert rcm.metrics["duplicate_conflict_rows"].value == 4 and rcm.metrics[
        "duplicate_conflict_rows"
    ].method.startswith("count (1 groups)")
    assert rcm.metrics["ceiling_accuracy"].value == pytest.approx(998 / 1000)  # CWE-120, -121 x2, -122
    rcm21 = imported(
        published,
        tmp_path / "rcm21",
        "cti-rcm-2021",
        published / "responses" / "cti-rcm-2021-responses.tsv",
        "ChatGPT-4",
    )
    assert rcm21.metrics["duplicate_conflict_rows"].value == 9
    assert rcm21.metrics["duplicate_conflict_rows"].method == "count (4 groups)"
    assert rcm21.metrics["ceiling_accuracy"].value == pytest.approx(996 / 1000)


def test_taa_tables_from_the_pickles_through_the_data_only_unpickler(published: Path, tmp_path: Path) -> None:
    aliases = read_table(published / "tables" / "alias_dict.json")
    related = read_table(published / "tables" / "related_dict.json")
    evaluation = tmp_path / "evaluation"
    evaluation.mkdir()
    for name, table in (("alias_dict", aliases), ("related_dict", related)):
        (evaluation / f"{name}.pickle").write_bytes(pickle.dumps(table, protocol=4))
    assert read_table(evaluation / "alias_dict.pickle") == aliases
    task = _taa(data=str(published), tables=str(tmp_path))
    sample = next(iter(task.samples()))
    assert task.relations.tier("APT36", sample.target) in ("correct", "plausible", "incorrect")
    assert task.relations.tier("Rattlesnake", "SideCopy") == _taa(data=str(published)).relations.tier(
        "Rattlesnake", "SideCopy"
    )


class _Boom:
    def __reduce__(self) -> tuple:
        return (exec, ("raise SystemExit('pickle code ran')",))


@pytest.mark.parametrize(
    "payload, message",
    [
        (pickle.dumps({"apt28": _Boom()}), r"refused to load builtins\.exec"),
        (pickle.dumps({"apt28": ["fancy bear", 3]}), "is not a list of strings"),
        (pickle.dumps(["apt28"]), "expected a mapping"),
        (b"\x80\x04not a pickle", "not a pickle of plain data"),
    ],
)
def test_hostile_or_malformed_pickles_are_refused_without_running_code(
    tmp_path: Path, payload: bytes, message: str
) -> None:
    path = tmp_path / "alias_dict.pickle"
    path.write_bytes(payload)
    with pytest.raises(ConfigError, match=message):
        read_table(path)


def test_nan_entries_no_longer_chain_unrelated_actors(published: Path) -> None:
    task = _taa(data=str(published))
    related = read_table(published / "tables" / "related_dict.json")
    via_nan = sorted(actor for actor, names in related.items() if "nan" in names)
    assert len(via_nan) >= 2
    assert task.relations.tier(via_nan[0], via_nan[1]) == "incorrect"
    assert task.relations.tier("Fancy Bear", "APT28") == "correct"


def test_taa_without_tables_is_a_clear_error_unless_declined(published: Path, tmp_path: Path) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    for name in ("cti-taa.tsv", "cti-taa-responses.tsv"):
        (flat / name).write_bytes((published / "data" / name).read_bytes())
    with pytest.raises(ConfigError, match=r"alias and related tables .* -T tables=FOLDER"):
        list(_taa(data=str(flat)).samples())
    assert len(list(_taa(data=str(flat), tables="none").samples())) == 50


def test_a_cti_tsv_with_an_unbalanced_quote_fails_with_the_line_number(published: Path, tmp_path: Path) -> None:
    lines = (published / "data" / "cti-rcm.tsv").read_text(encoding="utf-8").splitlines()[:11]
    url, description, *rest = lines[4].split("\t")
    lines[4] = "\t".join([url, '"' + description, *rest])
    (tmp_path / "cti-rcm.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cti-rcm\.tsv: line 5: a quoted field is not closed on its line"):
        list(resolve_task("cyber/cti-rcm").create(data=str(tmp_path)).samples())
    lines[4] = "\t".join([url, '"Quoted title" ' + description, *rest])  # closed on its line: read as pandas does
    (tmp_path / "cti-rcm.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    samples = list(resolve_task("cyber/cti-rcm").create(data=str(tmp_path)).samples())
    assert len(samples) == 10 and samples[9].metadata["url"] == lines[10].split("\t")[0]


def test_llm_extractor_is_logged_as_its_own_call_and_reported_apart(published: Path) -> None:
    import asyncio

    from harness.adapters import resolve_adapter
    from harness.runner import evaluate
    from harness.testing.openai_server import OpenAIServer
    from tasks.cyber.taa_extractor import EXTRACTOR_PROMPT

    task = _taa(data=str(published))
    samples = list(task.samples())[:4]
    texts = {
        0: "Hard to say, but the attribution is to [PLACEHOLDER].",
        1: "It was Mustang Panda.",
        2: "Most likely the Mustang Panda crew.",
        3: "This one is the work of someone unknown.",
    }
    replies = {0: "NONE", 1: "Mustang Panda", 2: "Mustang Panda", 3: "APT41"}
    index_of = {s.messages()[-1].content: i for i, s in enumerate(samples)}

    def responder(body: dict) -> str:
        content = body["messages"][-1]["content"]
        if content.startswith(EXTRACTOR_PROMPT):
            answer = content[len(EXTRACTOR_PROMPT) :]
            return replies[next(i for i, t in texts.items() if t == answer)]
        return texts[index_of[content]]

    with OpenAIServer(responder) as server:
        extracting = _taa(data=str(published), extractor="openai-compatible/x@" + server.base_url)
        results = asyncio.run(evaluate(extracting, resolve_adapter("openai-compatible/m@" + server.base_url), limit=4))
    assert [sorted(c.role for c in r.calls) for r in results] == [["extractor", "model"]] * 4
    assert [r.score.details["llm_actor"] for r in results] == [None, "Mustang Panda", "Mustang Panda", "APT41"]
    metrics = extracting.aggregate(results)
    assert metrics["llm_accuracy"].value == pytest.approx(2 / 4) and metrics["llm_accuracy"].n == 4
    # the deterministic score is untouched: these phrasings state no attribution it reads
    assert [r.score.answer for r in results] == [None] * 4 and metrics["accuracy"].value == 0.0


def test_extractor_replies_and_failures_never_count_as_answers() -> None:
    import asyncio

    from tasks.cyber.taa_extractor import ask_extractor, parse_extraction

    assert parse_extraction("**APT28**\nbecause...") == "APT28"
    assert [parse_extraction(t) for t in ("NONE", "", "  \n ", "x" * 500, "'none'.")] == [None] * 5
    from harness.calls import RetryPolicy

    failed = asyncio.run(
        ask_extractor("openai-compatible/x@http://127.0.0.1:9/v1", "It was APT28.", retry=RetryPolicy(max_retries=0))
    )
    assert failed["actor"] is None and "extractor call failed" in str(failed["error"])


def test_an_upstream_checkout_layout_is_found_without_further_arguments(published: Path, tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "evaluation" / "responses").mkdir(parents=True)
    (tmp_path / "data" / "cti-taa.tsv").write_bytes((published / "data" / "cti-taa.tsv").read_bytes())
    (tmp_path / "evaluation" / "responses" / "cti-taa-responses.tsv").write_bytes(
        (published / "responses" / "cti-taa-responses.tsv").read_bytes()
    )
    for name in ("alias_dict", "related_dict"):
        table = read_table(published / "tables" / f"{name}.json")
        (tmp_path / "evaluation" / f"{name}.pickle").write_bytes(pickle.dumps(table))
    summary = imported(
        published, tmp_path / "run", "cti-taa", published / "responses" / "cti-taa-responses.tsv", "ChatGPT-4"
    )
    task = _taa(data=str(tmp_path))
    assert len(list(task.samples())) == 50
    assert task.relations.tier("Fancy Bear", "APT28") == "correct"
    report = import_outputs(
        TaskPlan("cyber/cti-taa", {"data": str(tmp_path)}),
        published / "responses" / "cti-taa-responses.tsv",
        tmp_path / "run2",
        column="ChatGPT-4",
    )
    assert (
        report.summary.tasks["cyber/cti-taa"].metrics["plausible_accuracy"].value
        == summary.metrics["plausible_accuracy"].value
        == pytest.approx(0.84)
    )


def test_taa_help_states_the_nan_deviation_for_every_model_it_moves() -> None:
    """Issue 37 item 11: each model whose plausible tier the dropped 'nan' entries move is named in the help."""
    from harness.cli.listing import describe_task

    with_nan = (62, 86, 74, 80, 36)  # the notebook's plausible tier, 'nan' entries kept
    help_text = " ".join(describe_task("cyber/cti-taa").split())
    moved = [(m, p, h) for m, p, h in zip(MODELS, with_nan, TAA_PLAUSIBLE, strict=True) if p != h]
    assert [m for m, _, _ in moved] == ["ChatGPT-4", "Gemini-1.5", "LLAMA3-70B"]
    for model, paper, here in moved:
        assert f"{model.replace('ChatGPT-4', 'GPT-4')} {paper} -> {here} %" in help_text
