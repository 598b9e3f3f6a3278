"""Schema and semantic validation of submissions: good ones pass, each broken one names its path."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import binary

from leaderboard.cli import leaderboard_group
from leaderboard.submission import build_submission, write_submission
from leaderboard.validate import json_path, parse_submission, validate_files, validate_submission

TASK = "demo/arith"


@pytest.fixture
def good(make_run: Callable[..., Path]) -> dict[str, Any]:
    """A valid submission with per-sample scores over two tasks."""
    run = make_run(
        "good", tasks={TASK: [*binary(7, 10), (None, "unscored"), (None, "error")], "cyber/mcq": binary(4, 8)}
    )
    return build_submission([run])


def paths(issues: list[Any]) -> list[str]:
    return [issue.path for issue in issues]


def test_good_submission_has_no_issue(good: dict[str, Any]) -> None:
    assert validate_submission(good) == []
    assert good["tasks"][TASK]["counts"] == {"scored": 10, "unscored": 1, "error": 1}
    assert len(good["tasks"][TASK]["samples"]) == 12


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        node = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return mutate


def _delete(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        node = data
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return mutate


M = ["tasks", TASK, "metrics", "accuracy"]
BROKEN = {
    "missing model": (_delete(["model"]), "$"),
    "wrong schema version": (_set(["schema_version"], "frontier-submission/0"), "$.schema_version"),
    "n negative": (_set([*M, "n"], -1), f"$.tasks['{TASK}'].metrics.accuracy.n"),
    "value a string": (_set([*M, "value"], "0.7"), f"$.tasks['{TASK}'].metrics.accuracy.value"),
    "unknown field": (_set(["tasks", TASK, "bogus"], 1), f"$.tasks['{TASK}']"),
    "accuracy above 1": (_set([*M, "value"], 1.5), f"$.tasks['{TASK}'].metrics.accuracy.value"),
    "ci_high above 1": (_set([*M, "ci_high"], 1.2), f"$.tasks['{TASK}'].metrics.accuracy.ci_high"),
    "value outside CI": (_set([*M, "ci_high"], 0.6), f"$.tasks['{TASK}'].metrics.accuracy.value"),
    "half a CI": (_set([*M, "ci_low"], None), f"$.tasks['{TASK}'].metrics.accuracy.ci_low"),
    "n above counts": (_set([*M, "n"], 13), f"$.tasks['{TASK}'].metrics.accuracy.n"),
    "counts disagree with samples": (_set(["tasks", TASK, "counts", "scored"], 9), f"$.tasks['{TASK}'].counts.scored"),
    "scored sample without value": (
        _set(["tasks", TASK, "samples", 0, "value"], None),
        f"$.tasks['{TASK}'].samples[0].value",
    ),
    "duplicate sample id": (_set(["tasks", TASK, "samples", 1, "id"], f"{TASK}-0"), f"$.tasks['{TASK}'].samples[1].id"),
    "wrong family": (_set(["tasks", TASK, "family"], "other"), f"$.tasks['{TASK}'].family"),
    "wrong primary metric": (_set(["tasks", TASK, "primary_metric"], "f1"), f"$.tasks['{TASK}'].primary_metric"),
    "wrong direction": (_set(["tasks", TASK, "higher_is_better"], False), f"$.tasks['{TASK}'].higher_is_better"),
    "reasoning above output": (
        _set(["tasks", TASK, "usage", "reasoning_tokens"], 10**9),
        f"$.tasks['{TASK}'].usage.reasoning_tokens",
    ),
    "negative cost": (_set(["tasks", TASK, "cost_usd"], -1.0), f"$.tasks['{TASK}'].cost_usd"),
    "known cost missing": (_set(["tasks", TASK, "cost_usd"], None), f"$.tasks['{TASK}'].cost_usd"),
    "bad data hash": (_set(["tasks", TASK, "data_hash"], "md5:abc"), f"$.tasks['{TASK}'].data_hash"),
    "bad date": (_set(["date"], "yesterday at noon"), "$.date"),
    "null value with n": (_set([*M, "value"], None), f"$.tasks['{TASK}'].metrics.accuracy.value"),
    "no tasks": (_set(["tasks"], {}), "$.tasks"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_submission_names_its_path(good: dict[str, Any], case: str) -> None:
    mutate, expected = BROKEN[case]
    data = copy.deepcopy(good)
    mutate(data)
    issues = validate_submission(data, "sub.json")
    assert expected in paths(issues), [str(i) for i in issues]
    assert all(issue.file == "sub.json" for issue in issues)


def test_lower_is_better_metric_range_and_direction(make_run: Callable[..., Path]) -> None:
    from harness.types import MetricValue

    mad = {"cyber/vsp": {"cvss_mad": MetricValue(value=1.4, n=10, ci_low=0.9, ci_high=2.0, method="bootstrap")}}
    run = make_run("vsp", tasks={"cyber/vsp": [(0.5, "scored")] * 10}, extra_metrics=mad)
    data = build_submission([run])
    entry = data["tasks"]["cyber/vsp"]
    del entry["metrics"]["accuracy"]
    entry["primary_metric"], entry["higher_is_better"] = "cvss_mad", False
    assert validate_submission(data) == []
    entry["metrics"]["cvss_mad"]["ci_high"] = 11.0
    assert paths(validate_submission(data)) == ["$.tasks['cyber/vsp'].metrics.cvss_mad.ci_high"]


def test_nan_infinity_and_duplicate_keys_are_reported(good: dict[str, Any]) -> None:
    text = json.dumps(good, allow_nan=True)
    text = text.replace('"value": 0.7', '"value": NaN', 1).replace('"cost_usd": ', '"cost_usd": Infinity, "x": ', 1)
    data, issues = parse_submission(text, "f.json")
    assert data is not None
    found = {i.path: i.message for i in issues}
    assert f"$.tasks['{TASK}'].metrics.accuracy.value" in found
    assert f"$.tasks['{TASK}'].cost_usd" in found
    _, issues = parse_submission('{"model": "a", "model": "b"}')
    assert [(i.path, "duplicate key" in i.message) for i in issues] == [("$", True)]
    _, issues = parse_submission('{"model": ')
    assert paths(issues) == ["$"] and "not valid JSON" in issues[0].message


def test_json_path_quotes_odd_keys() -> None:
    assert json_path(["tasks", "a/b", "metrics", 0, "it's"]) == "$.tasks['a/b'].metrics[0]['it\\'s']"


def _write(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    path = tmp_path / name
    write_submission(data, path)
    return path


def test_cross_file_checks(tmp_path: Path, good: dict[str, Any]) -> None:
    first = _write(tmp_path, "a.json", good)
    duplicate = _write(tmp_path, "b.json", good)
    other_version = copy.deepcopy(good)
    other_version["method"]["label"] = "best_of_n:n=4"
    other_version["suite"]["version"] = "2"
    versioned = _write(tmp_path, "c.json", other_version)
    other_data = copy.deepcopy(good)
    other_data["model"] = "openai/other"
    other_data["tasks"][TASK]["data_hash"] = "sha256:" + "0" * 64
    rehashed = _write(tmp_path, "d.json", other_data)
    valid, issues = validate_files([first, duplicate, versioned, rehashed])
    found = {(Path(i.file).name, i.path) for i in issues}
    assert found == {("b.json", "$"), ("c.json", "$.suite.version"), ("d.json", f"$.tasks['{TASK}'].data_hash")}
    assert [Path(f).name for f, _ in valid] == ["a.json"]


def test_cli_validate_exit_codes(tmp_path: Path, good: dict[str, Any]) -> None:
    ok = _write(tmp_path, "ok.json", good)
    bad = copy.deepcopy(good)
    bad["tasks"][TASK]["metrics"]["accuracy"]["value"] = 2.0
    bad["model"] = "other"
    broken = _write(tmp_path, "bad.json", bad)
    runner = CliRunner()
    result = runner.invoke(leaderboard_group, ["validate", str(ok)])
    assert result.exit_code == 0, result.output
    assert "1 of 1 submission(s) valid" in result.output
    result = runner.invoke(leaderboard_group, ["validate", str(ok), str(broken)])
    assert result.exit_code == 1
    assert f"bad.json: $.tasks['{TASK}'].metrics.accuracy.value:" in result.output


def test_plain_jsonschema_path_gives_the_same_issues(good: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    import leaderboard.validate as validate

    data = copy.deepcopy(good)
    data["tasks"][TASK]["metrics"]["accuracy"]["n"] = -1
    data["tasks"][TASK]["samples"][2]["outcome"] = "lost"
    fast = paths(validate_submission(data))
    monkeypatch.setattr(validate, "_confirmer", lambda: None)
    assert (
        paths(validate_submission(data))
        == fast
        == [f"$.tasks['{TASK}'].metrics.accuracy.n", f"$.tasks['{TASK}'].samples[2].outcome"]
    )
    assert validate_submission(good) == []


def test_leaderboard_imports_only_record_types_from_harness() -> None:
    import ast
    import subprocess
    import sys

    package = Path(__file__).resolve().parents[2] / "leaderboard"
    for module in package.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness"):
                # the record types, the one reader of run logs (issue 18) and of run directories (issue 20 item 10)
                # that the harness uses too
                # the method-spec grammar (issue 20 item 8: one name:k=v parser) and the declaration type of the
                # subcommands it registers under frontier.commands (issue 20 item 4)
                allowed = (
                    "harness.types",
                    "harness.runlog",
                    "harness.runformat",
                    "harness.json_input",  # the one reader of untrusted JSON (issue 37 item 3)
                    "harness.method_spec",
                    "harness.cli.commands",
                    "harness.paired",  # the paired statistics of frontier compare, for rank bands (issue 39)
                    "harness.transcript",  # a logged sample's transcript and calls, for its page (issue 44)
                    "harness.score_view",  # a score's details one criterion a row, as frontier show lays them
                    "harness.stats",  # the one interval method per metric kind (the transfer page's Wilson intervals)
                )
                assert node.module in allowed, f"{module.name} imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(alias.name.startswith("harness") for alias in node.names), module.name
    code = "import sys, leaderboard.cli; print(sorted({'pandas', 'matplotlib', 'jinja2'} & set(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=package.parent
    ).stdout
    assert out.strip() == "[]"


def test_an_undefined_metric_without_interval_is_valid(good: dict[str, Any]) -> None:
    """A ratio whose denominator is 0 (ConFiQA's MR when nothing matched) is null with its n, and no CI."""
    data = copy.deepcopy(good)
    data["tasks"][TASK]["metrics"]["mr"] = {"value": None, "n": 5, "ci_low": None, "ci_high": None, "method": "empty"}
    assert validate_submission(data, "sub.json") == []
