"""Synthesized environments as τ² domains, run by the same episode loop and evaluator as τ²'s domains.

A synthesized domain folder (``frontier tools synthesize``, see ``tasks.tau2.synth.generate``) is a
τ² data root entry ``domains/<name>/`` with ``db.json``, ``tasks.json`` (τ²'s Task schema, with
``evaluation_criteria``), ``split_tasks.json``, ``policy.md``, ``spec.json`` (the declarative
spec the tools are built from: tools are code in τ², and here they are rebuilt from the spec
rather than executed from the data folder) and ``tools.json`` (the tools that passed their
tests). ``SynthesizedDomain`` is such a domain as a ``DomainData`` whose environments are τ²
``Environment``s over a ``ToolKitBase`` that runs the spec's tools, so episodes, ``reward``
(τ²'s ``evaluate_simulation`` semantics) and ``reward_strict`` are computed exactly as for
airline, retail and telecom.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from harness.api import ConfigError
from tasks.tau2.domains import DomainData, validate_tasks
from tasks.tau2.jsonfile import read_json_file
from tasks.tau2.library import import_tau2, package_data_root

if TYPE_CHECKING:
    from tau2.data_model.tasks import Task as Tau2Task
    from tau2.environment.environment import Environment

    from tasks.tau2.synth.engine import SynthDB
    from tasks.tau2.synth.spec import DomainSpec
    from tasks.tau2.synth.toolkit import Toolkit

SYNTHESIZED_SPLIT = "base"
INSTANCE_ATTRIBUTES = frozenset({"db"})
"""What τ²'s ``ToolKitBase.__init__`` sets on each toolkit: a tool of that name would be hidden by it."""


def spec_toolkit(kit_class: type[Toolkit]) -> type:
    """A τ² ``ToolKitBase`` class whose tools (τ²'s ``is_tool`` methods, with their read/write type) run the
    tools of a toolkit class built from a spec; a refused call raises, so τ² marks it an error."""
    from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool

    from tasks.tau2.synth.toolkit import ToolKind, ToolSpec

    specs = kit_class.specs()
    clashes = sorted(spec.name for spec in specs if hasattr(ToolKitBase, spec.name) or spec.name in INSTANCE_ATTRIBUTES)
    if clashes:
        raise ConfigError(f"synthesized tools {', '.join(clashes)}: names that τ²'s toolkit uses itself; rename them")

    def method(spec: ToolSpec) -> Callable[..., str]:
        def call(self: ToolKitBase, **arguments: object) -> str:  # a tool may take an argument called 'name'
            result = kit_class(self.db).call(spec.name, arguments)
            if result.error:
                raise ValueError(result.content.removeprefix("Error: "))
            return result.content

        return is_tool(ToolType.WRITE if spec.kind is ToolKind.WRITE else ToolType.READ)(call)

    def get_tools(self: ToolKitBase) -> dict[str, object]:
        """The tools' names and OpenAI schemas, from the spec."""
        return {spec.name: _Schema(spec.name, spec.openai_schema()) for spec in specs}

    return type("SpecToolKit", (ToolKitBase,), {**{spec.name: method(spec) for spec in specs}, "get_tools": get_tools})


class _Schema:
    """What the episode reads of a τ² ``Tool``: its name and OpenAI schema."""

    def __init__(self, name: str, schema: dict) -> None:
        self.name, self.openai_schema = name, schema


class SynthesizedDomain(DomainData):
    """A synthesized domain as τ² domain data: the spec's kept tools over its database, its policy and tasks."""

    def __init__(
        self, name: str, spec: DomainSpec, kept: Sequence[str], db: SynthDB, policy: str, tasks: Sequence[Tau2Task]
    ) -> None:
        from tasks.tau2.synth.engine import SynthDB, build_toolkit

        import_tau2()
        self.name, self.root, self.spec, self.kept = name, package_data_root(), spec, list(kept)
        self.db_class, self.user_db_class, self.user_tools_class, self.user_db = SynthDB, None, None, None
        self.tools_class = spec_toolkit(build_toolkit(spec, [t for t in spec.tools if t.name in kept]))
        self.db, self.policy, self._tasks = db, policy, list(tasks)
        self._db_dump, self._user_db_dump = db.model_dump(), None

    def environment(self) -> Environment:
        """A τ² environment over a fresh copy of the database."""
        from tau2.environment.environment import Environment

        return Environment(domain_name=self.name, policy=self.policy, tools=self.tools_class(self.fresh_db()))

    def splits(self) -> dict[str, list[str]]:
        """One split, ``base``, of every task."""
        return {SYNTHESIZED_SPLIT: [task.id for task in self._tasks]}

    def tasks(self, split: str | None) -> list[Tau2Task]:
        """Every task (the one split, ``base``, holds them all)."""
        if split not in (None, SYNTHESIZED_SPLIT):
            raise ConfigError(f"synthesized domain {self.name}: no split {split!r}; its one split is 'base'")
        return list(self._tasks)


def first_problem(exc: ValidationError) -> str:
    """A validation error's first problem on one line: where it is and what is wrong."""
    first = exc.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc']) or '(top level)'}: {first['msg']}"[:300]


def read_synthesized(folder: Path) -> SynthesizedDomain:
    """A synthesized domain folder read and validated; ConfigError naming the file at fault."""
    from tasks.tau2.synth.engine import SynthDB
    from tasks.tau2.synth.spec import DomainSpec

    import_tau2()
    if not (folder / "spec.json").is_file():
        raise ConfigError(
            f"{folder}: not a synthesized τ² domain "
            "(no spec.json; write one with 'frontier tools synthesize SPEC -o OUT')"
        )
    try:
        spec = DomainSpec.model_validate(read_json_file(folder / "spec.json", ConfigError))
    except ValidationError as exc:
        raise ConfigError(f"{folder / 'spec.json'}: not a valid spec: {first_problem(exc)}") from None
    kept = read_json_file(folder / "tools.json", ConfigError)
    if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
        raise ConfigError(f"{folder / 'tools.json'}: expected a list of tool names")
    unknown = sorted(set(kept) - {tool.name for tool in spec.tools})
    if unknown:
        raise ConfigError(f"{folder / 'tools.json'}: names tools the spec does not declare: {', '.join(unknown)[:300]}")
    try:
        db = SynthDB.model_validate(read_json_file(folder / "db.json", ConfigError))
    except ValidationError as exc:
        raise ConfigError(f"{folder / 'db.json'}: not a valid database: {first_problem(exc)}") from None
    raw = read_json_file(folder / "tasks.json", ConfigError)
    if not isinstance(raw, list):
        raise ConfigError(f"{folder / 'tasks.json'}: expected a JSON list of tasks")
    tasks = validate_tasks(list(enumerate(raw)), folder / "tasks.json")
    try:
        policy = (folder / "policy.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{folder / 'policy.md'}: cannot be read: {exc}") from None
    return SynthesizedDomain(folder.name, spec, kept, db, policy, tasks)


@lru_cache(maxsize=8)
def load_synthesized(folder: Path) -> SynthesizedDomain:
    """A synthesized domain folder, loaded once per process."""
    return read_synthesized(folder)
