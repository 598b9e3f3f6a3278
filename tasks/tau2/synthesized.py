"""Synthesized environments in τ²'s domain format, run by the same episode loop and evaluator as τ²'s domains.

``write_tau2_domain`` writes a synthesis (``frontier tools synthesize --format tau2``) as a τ²
data root: ``domains/<name>/`` with ``db.json``, ``tasks.json`` (τ²'s Task schema, with
``evaluation_criteria``), ``split_tasks.json``, ``policy.md`` and ``spec.json`` (the
declarative spec the tools are built from: tools are code in τ², and here they are
rebuilt from the spec rather than executed from the data folder). ``SynthesizedDomain``
reads such a folder back as a ``DomainData`` whose environments are τ² ``Environment``s
over a ``ToolKitBase`` that runs the spec's tools, so episodes, ``reward`` (τ²'s
``evaluate_simulation`` semantics) and ``reward_strict`` are computed exactly as for
airline, retail and telecom.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import ConfigError
from tasks.tau2.domains import DomainData
from tasks.tau2.library import import_tau2, package_data_root
from tasks.tools.jsonfile import read_json_file

if TYPE_CHECKING:
    from tau2.environment.environment import Environment

    from tasks.tools.framework.toolkit import Toolkit
    from tasks.tools.synth.generate import Synthesis


def write_tau2_domain(result: Synthesis, out_dir: str | Path) -> Path:
    """Write ``result`` as a τ² data root under ``out_dir``; returns the domain folder."""
    from tau2.data_model.tasks import Task as Tau2Task

    import_tau2()
    folder = Path(out_dir) / "domains" / result.domain.name
    folder.mkdir(parents=True, exist_ok=True)
    tasks = [Tau2Task.model_validate(raw).model_dump(mode="json", exclude_none=True) for raw in result.raw_tasks]
    (folder / "tasks.json").write_text(json.dumps(tasks, indent=1) + "\n", encoding="utf-8")
    (folder / "split_tasks.json").write_text(json.dumps({"base": [t["id"] for t in tasks]}) + "\n", encoding="utf-8")
    (folder / "db.json").write_text(
        json.dumps(result.domain.db_data(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    (folder / "policy.md").write_text(result.domain.policy, encoding="utf-8")
    (folder / "spec.json").write_text(result.spec.model_dump_json(indent=1) + "\n", encoding="utf-8")
    (folder / "tools.json").write_text(json.dumps(result.report["tools_kept"]) + "\n", encoding="utf-8")
    return folder


def spec_toolkit(kit_class: type[Toolkit]) -> type:
    """A τ² ``ToolKitBase`` class running the tools of a look-alike toolkit class (built from a spec)."""
    from tau2.environment.toolkit import ToolKitBase, ToolType

    from tasks.tools.framework.toolkit import HIDDEN_KINDS, ToolKind

    visible = [spec for spec in kit_class.specs() if spec.kind not in HIDDEN_KINDS]

    class SpecToolKit(ToolKitBase):
        """τ²'s toolkit interface over the spec's tools; a refused call raises, so τ² marks it an error."""

        @property
        def tools(self) -> dict[str, Callable[..., str]]:
            return {spec.name: self._caller(spec.name) for spec in visible}

        def _caller(self, tool_name: str) -> Callable[..., str]:
            def call(**arguments: object) -> str:  # a tool may take an argument called 'name'
                result = kit_class(self.db).call(tool_name, arguments)
                if result.error:
                    raise ValueError(result.content.removeprefix("Error: "))
                return result.content

            return call

        def get_tools(self) -> dict[str, object]:
            return {spec.name: _Schema(spec.name, spec.openai_schema()) for spec in visible}

        def tool_type(self, tool_name: str) -> ToolType:
            kind = next(spec.kind for spec in visible if spec.name == tool_name)
            return ToolType.WRITE if kind is ToolKind.WRITE else ToolType.READ

    return SpecToolKit


class _Schema:
    """What the episode reads of a τ² ``Tool``: its name and OpenAI schema."""

    def __init__(self, name: str, schema: dict) -> None:
        self.name, self.openai_schema = name, schema


class SynthesizedDomain(DomainData):
    """A synthesized domain folder (``write_tau2_domain``) as τ² domain data."""

    def __init__(self, folder: Path) -> None:
        from tasks.tools.synth.engine import SynthDB, build_toolkit
        from tasks.tools.synth.spec import DomainSpec

        import_tau2()
        if not (folder / "spec.json").is_file():
            raise ConfigError(
                f"{folder}: not a synthesized τ² domain (no spec.json; write one with "
                "'frontier tools synthesize SPEC --format tau2 -o OUT')"
            )
        from pydantic import ValidationError

        try:
            spec = DomainSpec.model_validate(read_json_file(folder / "spec.json", ConfigError))
        except ValidationError as exc:
            raise ConfigError(f"{folder / 'spec.json'}: not a valid spec: {str(exc)[:300]}") from None
        kept = read_json_file(folder / "tools.json", ConfigError)
        if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
            raise ConfigError(f"{folder / 'tools.json'}: expected a list of tool names")
        self.name, self.folder, self.root = folder.name, folder, package_data_root()
        self.db_class, self.user_db_class, self.user_tools_class, self.user_db = SynthDB, None, None, None
        self.tools_class = spec_toolkit(build_toolkit(spec, [t for t in spec.tools if t.name in kept]))
        try:
            self.db = SynthDB.model_validate(read_json_file(folder / "db.json", ConfigError))
        except ValidationError as exc:
            raise ConfigError(f"{folder / 'db.json'}: not a valid database: {str(exc)[:300]}") from None
        self.policy = (folder / "policy.md").read_text(encoding="utf-8")
        self._db_dump, self._user_db_dump = self.db.model_dump(), None

    def environment(self) -> Environment:
        """A τ² environment over a fresh copy of the database."""
        from tau2.environment.environment import Environment

        return Environment(domain_name=self.name, policy=self.policy, tools=self.tools_class(self.fresh_db()))


@lru_cache(maxsize=8)
def load_synthesized(folder: Path) -> SynthesizedDomain:
    """A synthesized domain folder, loaded once per process."""
    return SynthesizedDomain(folder)
