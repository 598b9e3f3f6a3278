"""``harness.api``, the one module family and adapter authors import from: complete, lazy and typed."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import harness.api as api
from harness.types import GenerateRequest, Generation, Message

ROOT = Path(__file__).resolve().parents[2]
API_FILE = ROOT / "harness" / "api.py"


def _type_checking_imports() -> dict[str, str]:
    """``name -> module`` of the imports under ``if TYPE_CHECKING:`` in harness/api.py."""
    tree = ast.parse(API_FILE.read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return {
        alias.name: node.module or "" for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }


def test_every_public_name_is_the_object_of_its_module() -> None:
    assert sorted(api.__all__) == sorted(api._MODULE_OF)
    assert len(api.__all__) == len(set(api.__all__))
    for name in api.__all__:
        source = importlib.import_module(api._MODULE_OF[name])
        assert getattr(api, name) is getattr(source, name), name


def test_the_names_type_checkers_read_are_the_names_loaded_at_run_time() -> None:
    assert _type_checking_imports() == api._MODULE_OF


def test_nothing_private_is_exported() -> None:
    assert [name for name in api.__all__ if name.startswith("_")] == []


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="'no_such_name'"):
        _ = api.no_such_name
    with pytest.raises(ImportError):
        exec("from harness.api import Tsk", {})


def test_dir_lists_the_public_names() -> None:
    assert set(api.__all__) <= set(dir(api))


def test_importing_the_api_imports_no_harness_module_until_a_name_is_used() -> None:
    code = (
        "import sys, harness.api\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('harness.') and m != 'harness.api')\n"
        "print(loaded, 'pydantic' in sys.modules)\n"
        "from harness.api import LazyCommand\n"
        "print('pydantic' in sys.modules, 'harness.task' in sys.modules)\n"
        "from harness.api import Task\n"
        "print('harness.task' in sys.modules, 'harness.calls' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[] False", "False False", "True False"]


def test_generation_overrides_name_every_field_of_a_request_but_its_messages() -> None:
    assert set(api.GenerationOverrides.__annotations__) == set(GenerateRequest.model_fields) - {"messages"}
    assert api.GenerationOverrides.__total__ is False


class _Recorder:
    """A model that answers every request with its temperature and keeps the request."""

    name = "recorder"
    capabilities = frozenset({"chat"})

    def __init__(self) -> None:
        self.requests: list[GenerateRequest] = []

    async def generate(self, request: GenerateRequest) -> Generation:
        self.requests.append(request)
        return Generation(text=str(request.temperature))


async def test_a_solver_overrides_the_run_settings_for_one_call() -> None:
    model = _Recorder()
    ctx = api.SolveContext(model, api.GenerationSettings(max_tokens=64, temperature=0.0), seed=3)
    hello = [Message(role="user", content="hi")]
    generation = await ctx.generate(hello, temperature=0.7, extra={"response_format": {"type": "json_object"}})
    assert generation.text == "0.7"
    await ctx.generate(hello)
    first, second = model.requests
    assert (first.max_tokens, first.temperature, first.extra) == (64, 0.7, {"response_format": {"type": "json_object"}})
    assert (second.max_tokens, second.temperature, second.extra) == (64, 0.0, {})
    assert isinstance(model, api.ModelAdapter)
