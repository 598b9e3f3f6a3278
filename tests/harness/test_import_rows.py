"""Imported rows never shift (issue 37.4: an empty output line in a one-column TSV) and a malformed
CTI-Bench marker is an error naming its line (issue 37.5), through ``frontier import`` itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli.main import main
from harness.errors import ConfigError
from harness.import_formats import read_tsv_column
from harness.importing import import_outputs
from harness.plan import TaskPlan
from harness.registry import resolve_task
from harness.store import RunStore
from tasks.cyber.cti_log import read_cti_log

ARITH = TaskPlan("demo/arith", {"n": "5"})


def _targets() -> list[int]:
    return [sample.target for sample in resolve_task("demo/arith").create(n=5).samples()]


def test_an_empty_line_in_a_one_column_tsv_is_an_empty_output(tmp_path: Path) -> None:
    targets = _targets()
    lines = [f"ANSWER: {t}" for t in targets]
    lines[1] = ""
    tsv = tmp_path / "one.tsv"
    tsv.write_text("text\n" + "\n".join(lines) + "\n", encoding="utf-8")
    assert [(e.row, e.line, e.text) for e in read_tsv_column(tsv, None)][:3] == [
        (0, 2, lines[0]),
        (1, 3, ""),
        (2, 4, lines[2]),
    ]
    report = import_outputs(ARITH, tsv, tmp_path / "run")
    results = {r.sample_id: r for r in RunStore(tmp_path / "run").results()}
    ordered = [results[s.id] for s in resolve_task("demo/arith").create(n=5).samples()]
    assert [r.output.text for r in ordered] == lines
    assert [r.score.outcome for r in ordered] == ["scored", "unscored", "scored", "scored", "scored"]
    assert [r.score.correct for r in ordered] == [True, None, True, True, True]
    assert report.summary.tasks["demo/arith"].metrics["accuracy"].value == pytest.approx(4 / 5)


def test_a_missing_last_line_is_named_as_the_last_sample(tmp_path: Path) -> None:
    tsv = tmp_path / "short.tsv"
    tsv.write_text("text\nANSWER: 1\n\nANSWER: 3\nANSWER: 4\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"no output for 1 of 5 sample\(s\) \(first: arith-0-4-4\)"):
        import_outputs(ARITH, tsv, tmp_path / "run")


@pytest.mark.parametrize(
    "marker",
    ["#####-1#####", "#####" + "7" * 5000 + "#####", "##### 2 #####", "#####2a#####"],
    ids=["negative", "5000-digit", "spaced", "letters"],
)
def test_a_malformed_cti_marker_is_an_error_naming_its_line(tmp_path: Path, marker: str) -> None:
    log = tmp_path / "cti-x.txt"
    log.write_text(f"#####1#####\nCWE-79\n\n{marker}\nCWE-1\n\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"{log.name}:4: malformed marker") as caught:
        read_cti_log(log)
    assert len(str(caught.value)) < 400


def test_cli_import_of_a_bad_cti_marker_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "cti-x.txt"
    log.write_text("#####1#####\nCWE-79\n\n#####-1#####\nCWE-1\n\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(
            ["import", "--task", "demo/arith", "--format", "cti-log", "--from", str(log), "--out", str(tmp_path / "r")]
        )
    err = capsys.readouterr().err
    assert exited.value.code == 2 and f"{log}:4: malformed marker '#####-1#####'" in err and "Traceback" not in err


def test_cli_import_of_a_one_column_tsv_with_an_empty_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [f"ANSWER: {t}" for t in _targets()]
    lines[2] = ""
    tsv = tmp_path / "one.tsv"
    tsv.write_text("text\n" + "\n".join(lines) + "\n", encoding="utf-8")
    main(["import", "--task", "demo/arith", "-T", "n=5", "--from", str(tsv), "--out", str(tmp_path / "run")])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err and "imported 5 sample(s)" in captured.out
    counts = RunStore(tmp_path / "run").read_summary().tasks["demo/arith"].counts
    assert counts == {"scored": 4, "unscored": 1, "error": 0}
