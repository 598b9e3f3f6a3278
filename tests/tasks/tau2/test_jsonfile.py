"""The one JSON-file reader of the τ² tasks: size, encoding and nesting refused with the caller's error."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.json_input import MAX_JSON_DEPTH
from tasks.tau2.jsonfile import read_json_file

NEEDS_TAU2 = False


def test_reads_json_and_refuses_what_is_wrong_with_the_callers_error(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"a": [1, "[[[[", {"b": null}]}')
    assert read_json_file(good, ConfigError) == {"a": [1, "[[[[", {"b": None}]}
    deepest = tmp_path / "deepest.json"
    deepest.write_text("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert read_json_file(deepest, ConfigError) is not None
    cases = {
        "deep.json": ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)).encode(),
        "very_deep.json": b"[" * 200_000,
        "latin1.json": '["caf\xe9"]'.encode("latin-1"),
        "broken.json": b'{"a": ',
        "big.json": b"[" + b"1," * 600 + b"1]",
    }
    messages = {
        "deep.json": f"nested {MAX_JSON_DEPTH + 1} deep",
        "very_deep.json": "nested 200000 deep",
        "latin1.json": "not UTF-8",
        "broken.json": "not valid JSON",
        "big.json": "over the 1000-byte limit",
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        limit = 1000 if name == "big.json" else 1_000_000
        with pytest.raises(ConfigError, match=messages[name]):
            read_json_file(tmp_path / name, ConfigError, max_bytes=limit)
    with pytest.raises(ConfigError, match="cannot read"):
        read_json_file(tmp_path / "missing.json", ConfigError)
