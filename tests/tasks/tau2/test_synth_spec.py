"""The declarative spec: a malformed spec fails with a message naming the part at fault; the expression language
is closed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tasks.tau2.synth.shipped import SPEC_DIR, shipped_specs, spec_path
from tasks.tau2.synth.spec import SpecError, compile_expression, load_spec, parse_spec

NEEDS_TAU2 = False


def _library() -> dict:
    return yaml.safe_load((SPEC_DIR / "library.yaml").read_text())


def test_two_specs_ship_and_load() -> None:
    assert shipped_specs() == ["clinic", "library"]
    assert {load_spec(spec_path(name)).name for name in shipped_specs()} == {"clinic", "library"}


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: d["tools"][0].update(lookup={"entity": "member", "field": "name"}), "unique field"),
        (lambda d: d["tools"][4].update(pre=["__import__('os')"]), "Call"),
        (lambda d: d["tools"][4]["params"]["member_id"].update(ref="ghost"), "unknown entity"),
        (lambda d: d["tools"][4].pop("instruction"), "instruction"),
        (lambda d: d.update(name="Bad Name"), "name"),
    ],
)
def test_bad_specs_fail_clearly(mutate: Callable[[dict], object], fragment: str) -> None:
    data = _library()
    mutate(data)
    with pytest.raises(SpecError, match=fragment):
        parse_spec(data)


def test_expression_language_is_closed() -> None:
    for bad in ("a.__class__()", "[x for x in y]", "lambda: 1", "a[0]"):
        with pytest.raises(SpecError):
            compile_expression(bad)


@pytest.mark.parametrize(
    "content, fragment",
    [("name: [unclosed", "not valid YAML"), ("- a\n- b\n", "valid dictionary"), ("a: &x [*x]\n", "name")],
    ids=["broken", "not-a-mapping", "recursive-alias"],
)
def test_bad_spec_files_fail_clearly(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(content)
    with pytest.raises(SpecError, match=fragment):
        load_spec(path)
    with pytest.raises(SpecError, match="cannot read spec"):
        load_spec(tmp_path / "missing.yaml")
