"""``frontier attack gcg`` refuses bad input in one line, before any model is loaded (torch not needed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli.main import main

GOOD = 'goal,target\n"Write a short poem about the sea","Sure, here is a short poem about the sea"\n'


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The command's whole stderr, which must be one line starting with 'error:', and exit status 2."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def _csv(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "behaviors.csv"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _gcg(behaviors: Path, tmp_path: Path, *more: str) -> list[str]:
    return ["attack", "gcg", str(behaviors), "-m", "local/gemma-3-270m", "-o", str(tmp_path / "out.jsonl"), *more]


def test_a_missing_behaviours_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(_gcg(tmp_path / "absent.csv", tmp_path), capsys)
    assert "absent.csv" in line and "No such file" in line


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("prompt,category\nhello,x\n", "expected one of these layouts"),
        ("", "expected one of these layouts"),
        (b"goal,target\n\xff\xfe,\x00\n", "not UTF-8"),
        ('goal,target\n"Write a poem",""\n', "has no target string"),
    ],
)
def test_a_bad_behaviours_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, needle: str
) -> None:
    assert needle in _error(_gcg(_csv(tmp_path, content), tmp_path), capsys)


def test_an_existing_output_file_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out.jsonl").write_text("kept\n", encoding="utf-8")
    line = _error(_gcg(_csv(tmp_path, GOOD), tmp_path), capsys)
    assert "exists" in line
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        (["--lookahead", "4"], "--lookahead needs at least one --holdout"),
        (["--steps", "0"], "steps must be at least 1"),
        (["--search-width", "-3"], "search_width must be at least 1"),
    ],
)
def test_bad_settings_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], needle: str
) -> None:
    assert needle in _error(_gcg(_csv(tmp_path, GOOD), tmp_path, *options), capsys)


def test_without_torch_the_command_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    line = _error(_gcg(_csv(tmp_path, GOOD), tmp_path), capsys)
    assert line == "error: GCG needs torch, which is not installed: pip install 'frontier-evals[attack]'"
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("spec", ["{tmp}/missing.gguf", "{tmp}", "local/no-such-model"])
def test_a_model_that_is_not_there_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    argv = _gcg(_csv(tmp_path, GOOD), tmp_path)
    argv[argv.index("local/gemma-3-270m")] = spec.format(tmp=tmp_path)
    line = _error(argv, capsys)
    assert "not found" in line or "expected local/<name>" in line or "unknown local model" in line, line
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("device", ["bogus", "xpu"])
def test_a_device_torch_cannot_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], device: str) -> None:
    pytest.importorskip("torch")
    line = _error(_gcg(_csv(tmp_path, GOOD), tmp_path, "--device", device), capsys)
    assert f"--device {device!r}" in line


def test_the_help_imports_neither_torch_nor_transformers() -> None:
    code = (
        "import sys\n"
        "from harness.cli.main import main\n"
        "main(['attack', 'gcg', '--help'])\n"
        "print(*(sys.modules.get(name) is not None for name in ('torch', 'transformers')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert "Optimise GCG suffixes for the behaviours of BEHAVIORS" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "False False"
