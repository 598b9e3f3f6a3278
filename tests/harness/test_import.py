"""``frontier import``: outputs produced elsewhere become a normal run, scored by the task's own scorers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cache import request_key
from harness.cli.main import main
from harness.errors import ConfigError
from harness.import_formats import read_tsv_column
from harness.importing import import_outputs
from harness.plan import TaskPlan
from harness.registry import resolve_task
from harness.store import RunStore
from harness.types import GenerateRequest
from tasks.cyber.cti_log import read_cti_log

ARITH = TaskPlan("demo/arith", {"n": "6", "steps": "2"})


def arith_samples() -> list:
    return list(resolve_task("demo/arith").create(n=6, steps=2).samples())


def answers(right: set[int]) -> list[str]:
    """One answer per arith sample: right at the given positions, wrong elsewhere."""
    return [f"ANSWER: {s.target if i in right else s.target + 1}" for i, s in enumerate(arith_samples())]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_jsonl_by_id_and_by_row_gives_a_normal_scored_run(tmp_path: Path) -> None:
    samples, texts = arith_samples(), answers({0, 2, 3})
    records = [{"sample_id": s.id, "text": t} for s, t in zip(samples[:3], texts[:3], strict=True)]
    records += [{"row": i, "text": texts[i]} for i in range(3, 6)]
    source = write_jsonl(tmp_path / "out.jsonl", records)
    report = import_outputs(ARITH, source, tmp_path / "run", label="elsewhere-model")
    summary = report.summary.tasks["demo/arith"]
    assert summary.metrics["accuracy"].value == pytest.approx(3 / 6) and summary.metrics["accuracy"].n == 6
    assert summary.counts == {"scored": 6, "unscored": 0, "error": 0}
    store = RunStore(tmp_path / "run")
    config = store.read_config()
    assert config["model"] == "import/elsewhere-model"
    assert config["import"]["format"] == "jsonl" and config["import"]["source"] == str(source.resolve())
    results = list(store.results())
    assert [r.output.text for r in results] == texts
    assert all(len(r.calls) == 1 and r.calls[0].role == "import" for r in results)
    request = GenerateRequest(
        messages=samples[0].messages(), **resolve_task("demo/arith").create().settings.model_dump()
    )
    assert results[0].calls[0].request_key == request_key(request)
    assert results[0].calls[0].generation.text == texts[0]


def test_import_is_idempotent_and_a_different_source_is_refused(tmp_path: Path) -> None:
    first = write_jsonl(tmp_path / "a.jsonl", [{"row": i, "text": t} for i, t in enumerate(answers({1}))])
    import_outputs(ARITH, first, tmp_path / "run")
    again = import_outputs(ARITH, first, tmp_path / "run")
    assert again.written == 0 and again.already_logged == 6
    assert len((tmp_path / "run" / "samples.jsonl").read_text().splitlines()) == 6
    other = write_jsonl(tmp_path / "b.jsonl", [{"row": i, "text": t} for i, t in enumerate(answers({1, 2}))])
    with pytest.raises(ConfigError, match="different configuration"):
        import_outputs(ARITH, other, tmp_path / "run")


def test_rescore_and_show_work_on_an_imported_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_jsonl(tmp_path / "a.jsonl", [{"row": i, "text": t} for i, t in enumerate(answers({0, 5}))])
    import_outputs(ARITH, source, tmp_path / "run")
    from harness.rescore import rescore_run

    rescored, changed = rescore_run(tmp_path / "run")
    assert (rescored, changed) == (6, 0)
    assert RunStore(tmp_path / "run").read_summary().tasks["demo/arith"].metrics["accuracy"].value == pytest.approx(
        2 / 6
    )
    main(["show", str(tmp_path / "run")])
    assert "import/a" in capsys.readouterr().out
    main(["submit", str(tmp_path / "run"), "-o", str(tmp_path / "submission.json")])
    submission = json.loads((tmp_path / "submission.json").read_text())
    assert submission["model"] == "import/a" and "demo/arith" in submission["tasks"]


@pytest.mark.parametrize(
    "records, message",
    [
        ([{"row": 0, "text": "ANSWER: 1"}, {"row": 0, "text": "ANSWER: 2"}], r"row:0 \(lines 1 and 2\)"),
        ([{"row": 6, "text": "ANSWER: 1"}], r"1 output\(s\) for no sample of the task .*row:6 \(line 1\)"),
        ([{"sample_id": "nope", "text": "ANSWER: 1"}], r"for no sample.*id:nope"),
        ([{"text": "ANSWER: 1"}], r":1: give exactly one of 'sample_id' and 'row'"),
        ([{"row": -1, "text": "x"}], r"'row' must be an integer >= 0"),
        ([{"row": 0, "text": 5}], r"'text' must be a string"),
    ],
)
def test_duplicate_extra_and_malformed_entries_are_errors(tmp_path: Path, records: list[dict], message: str) -> None:
    source = write_jsonl(tmp_path / "bad.jsonl", records)
    with pytest.raises(ConfigError, match=message):
        import_outputs(ARITH, source, tmp_path / "run", allow_missing=True)
    assert not (tmp_path / "run").exists()


def test_same_sample_by_id_and_by_row_is_an_error(tmp_path: Path) -> None:
    first = arith_samples()[0]
    source = write_jsonl(tmp_path / "bad.jsonl", [{"sample_id": first.id, "text": "a"}, {"row": 0, "text": "b"}])
    with pytest.raises(ConfigError, match=f"answers sample {first.id} twice"):
        import_outputs(ARITH, source, tmp_path / "run")


def test_missing_samples_are_refused_or_logged_as_errors(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "part.jsonl", [{"row": i, "text": t} for i, t in enumerate(answers({0})[:4])])
    with pytest.raises(ConfigError, match=r"no output for 2 of 6 sample\(s\).*--allow-missing"):
        import_outputs(ARITH, source, tmp_path / "run")
    report = import_outputs(ARITH, source, tmp_path / "run", allow_missing=True)
    summary = report.summary.tasks["demo/arith"]
    assert report.missing == 2 and summary.counts == {"scored": 4, "unscored": 0, "error": 2}
    assert summary.metrics["accuracy"].n == 4
    errors = [r for r in RunStore(tmp_path / "run").results() if r.score.outcome == "error"]
    assert [r.calls for r in errors] == [(), ()] and "no output imported" in errors[0].score.explanation
    from harness.rescore import rescore_run

    rescore_run(tmp_path / "run")
    assert RunStore(tmp_path / "run").read_summary().tasks["demo/arith"].counts["error"] == 2


def test_tsv_column_and_cti_log_readers(tmp_path: Path) -> None:
    tsv = tmp_path / "responses.tsv"
    tsv.write_text('GT\tmodel-a\tmodel-b\n1\tA\t"quoted\tcell"\n2\t\tB\n', encoding="utf-8")
    assert [e.text for e in read_tsv_column(tsv, "model-b")] == ["quoted\tcell", "B"]
    assert [(e.row, e.line, e.text) for e in read_tsv_column(tsv, "model-a")] == [(0, 2, "A"), (1, 3, "")]
    with pytest.raises(ConfigError, match="pass --column"):
        read_tsv_column(tsv, None)
    with pytest.raises(ConfigError, match="no column 'model-c'"):
        read_tsv_column(tsv, "model-c")
    log = tmp_path / "cti-x.txt"
    log.write_text("#####1#####\nB\n\n#####2#####\nLine one\n\nLine three\n\n#####3#####\n\n\n", encoding="utf-8")
    assert [(e.row, e.line, e.text) for e in read_cti_log(log)] == [
        (0, 1, "B"),
        (1, 4, "Line one\n\nLine three"),
        (2, 9, ""),
    ]
    log.write_text("#####1#####\nA\n\n#####1#####\nB\n\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"row:0 \(lines 1 and 4\)"):
        read_cti_log(log)
    log.write_text("preamble\n#####1#####\nA\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=":1: text before the first"):
        read_cti_log(log)


def test_an_unbalanced_quote_fails_with_its_line_instead_of_shifting_rows(tmp_path: Path) -> None:
    rows = [f"q{i}\tANSWER: {i}" for i in range(10)]
    rows[3] = 'q3\t"ANSWER: 3'
    tsv = tmp_path / "answers.tsv"
    tsv.write_text("Prompt\ttext\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(
        ConfigError,
        match=r"line 5: a quoted field is not closed on its line \(the record runs over "
        r"7 line\(s\)",
    ):
        read_tsv_column(tsv, "text")
    (tmp_path / "last.tsv").write_text('Prompt\ttext\nq0\t"ANSWER: 0\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="line 2: a quoted field is not closed on its line"):
        read_tsv_column(tmp_path / "last.tsv", "text")
    rows[3] = 'q3\t"ANSWER: 3" and more'
    tsv.write_text("Prompt\ttext\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert len(read_tsv_column(tsv, "text")) == 10


def test_cli_import_of_a_tsv_with_a_sample_id_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    samples, texts = arith_samples(), answers({0, 1, 2})
    tsv = tmp_path / "by-id.tsv"
    tsv.write_text(
        "sample_id\toutput\n" + "".join(f"{s.id}\t{t}\n" for s, t in reversed(list(zip(samples, texts, strict=True)))),
        encoding="utf-8",
    )
    main(
        [
            "import",
            "--task",
            "demo/arith",
            "-T",
            "n=6",
            "-T",
            "steps=2",
            "--from",
            str(tsv),
            "--out",
            str(tmp_path / "run"),
            "--model",
            "vendor-x",
        ]
    )
    printed = capsys.readouterr().out
    assert "imported 6 sample(s)" in printed and "import/vendor-x" in printed
    assert RunStore(tmp_path / "run").read_summary().tasks["demo/arith"].metrics["accuracy"].value == pytest.approx(0.5)
    with pytest.raises(SystemExit):
        main(
            ["import", "--task", "demo/arith", "--from", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "x")]
        )
    assert "does not exist" in capsys.readouterr().err


def test_limit_leaves_out_outputs_beyond_it_and_counts_them(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "all.jsonl", [{"row": i, "text": t} for i, t in enumerate(answers({0, 1}))])
    report = import_outputs(TaskPlan("demo/arith", {"n": "6", "steps": "2"}, limit=2), source, tmp_path / "run")
    assert (report.written, report.outside_limit, report.missing) == (2, 4, 0)
    assert report.summary.tasks["demo/arith"].metrics["accuracy"].value == 1.0


def test_changed_task_data_under_the_same_source_is_refused(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "a.jsonl", [{"row": i, "text": "ANSWER: 1"} for i in range(6)])
    import_outputs(ARITH, source, tmp_path / "run")
    with pytest.raises(ConfigError):
        import_outputs(TaskPlan("demo/arith", {"n": "6", "steps": "3"}), source, tmp_path / "run")


def test_only_line_feeds_end_lines_not_other_unicode_separators(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "sep.jsonl", [{"row": i, "text": f"x\u2028y\x0c\nANSWER: {i}"} for i in range(2)])
    source.write_text(source.read_text(encoding="utf-8").replace("\\u2028", "\u2028"), encoding="utf-8")
    from harness.import_formats import read_jsonl

    assert [e.text for e in read_jsonl(source)] == ["x\u2028y\x0c\nANSWER: 0", "x\u2028y\x0c\nANSWER: 1"]
    tsv = tmp_path / "sep.tsv"
    tsv.write_text("text\nx\u2028y\x0cz\nnext\r\n", encoding="utf-8")
    assert [e.text for e in read_tsv_column(tsv, "text")] == ["x\u2028y\x0cz", "next"]
