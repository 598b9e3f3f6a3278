"""CTI-Bench raw logs as the cyber family's import format: recognised without --format; bad logs refused by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.errors import ConfigError
from harness.registry import resolve_task
from tasks.cyber.cti_log import read_cti_log


def test_frontier_import_recognises_a_cti_log_and_scores_it(tmp_path: Path) -> None:
    samples = list(resolve_task("demo/arith").create(n=3, steps=2).samples())
    answers = [f"ANSWER: {s.target + (1 if i == 0 else 0)}" for i, s in enumerate(samples)]
    log = tmp_path / "gpt.txt"
    log.write_text("".join(f"#####{i + 1}#####\n{a}\n\n" for i, a in enumerate(answers)), encoding="utf-8")
    run = tmp_path / "run"
    main(["import", "--task", "demo/arith", "-T", "n=3", "-T", "steps=2", "--from", str(log), "--out", str(run)])
    assert json.loads((run / "config.json").read_text())["import"]["format"] == "cti-log"
    accuracy = json.loads((run / "summary.json").read_text())["tasks"]["demo/arith"]["metrics"]["accuracy"]
    assert accuracy["value"] == pytest.approx(2 / 3) and accuracy["n"] == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"#####0#####\nA\n", r":1: rows are counted from 1, got #####0#####"),
        (b"no markers at all\n", r":1: text before the first #####1##### marker"),
        (b"\n\n", r"has no #####<row>##### markers"),
        (b"#####1#####\n\xff\xfe\n", r"is not UTF-8 text"),
        (b"#####2#####\nA\n#####2#####\nB\n", r"row:1 \(lines 1 and 3\)"),
    ],
)
def test_a_malformed_log_is_refused_naming_what_is_wrong(tmp_path: Path, content: bytes, message: str) -> None:
    log = tmp_path / "bad.txt"
    log.write_bytes(content)
    with pytest.raises(ConfigError, match=message):
        read_cti_log(log)


def test_carriage_returns_and_a_huge_row_number_are_read(tmp_path: Path) -> None:
    log = tmp_path / "crlf.txt"
    log.write_bytes(b"#####1#####\r\nA\r\n\r\n#####999999999#####\r\nB\r\n")
    assert [(e.row, e.line) for e in read_cti_log(log)] == [(0, 1), (999999998, 4)]
