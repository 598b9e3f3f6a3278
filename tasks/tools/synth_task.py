"""``tools-synth/<spec>``: tasks synthesized from a shipped spec name or a path to a spec YAML."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from harness.errors import ConfigError
from tasks.tools.framework.environment import Domain
from tasks.tools.task import ToolsArgs, ToolsTaskBase

if TYPE_CHECKING:
    from tasks.tools.synth.generate import Synthesis

SPEC_DIR = Path(__file__).resolve().parent / "synth" / "specs"


def shipped_specs() -> list[str]:
    """Names of the example specs shipped with the project."""
    return sorted(p.stem for p in SPEC_DIR.glob("*.yaml"))


def spec_path(name: str) -> Path:
    """A shipped spec's path, or ``name`` itself when it is a path to a YAML file."""
    if name in shipped_specs():
        return SPEC_DIR / f"{name}.yaml"
    path = Path(name)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return path
    raise ConfigError(
        f"unknown synthesis spec {name!r}: use one of {', '.join(shipped_specs())} or a path to a .yaml spec"
    )


@cache
def synthesized(path: str, seed: int, n_tasks: int) -> Synthesis:
    """The synthesis for a spec file, seed and size (computed once per process)."""
    from tasks.tools.synth.generate import synthesize
    from tasks.tools.synth.spec import SpecError, load_spec

    try:
        return synthesize(load_spec(path), seed=seed, n_tasks=n_tasks)
    except SpecError as exc:
        raise ConfigError(str(exc)) from None


class SynthArgs(ToolsArgs):
    """Arguments of ``tools-synth/<spec>``."""

    seed: int = Field(0, description="synthesis seed: same seed, same database and tasks")
    n_tasks: int = Field(25, ge=1, le=500, description="tasks to synthesize")


class SynthTask(ToolsTaskBase[SynthArgs]):
    """Tool use in an environment synthesized from a declarative spec."""

    description = "tool use in an environment synthesized from a declarative spec (look-alike format, NOT τ²-bench)"

    def domain(self) -> Domain:
        """The synthesized domain."""
        args = self.args
        path = spec_path(self.name.split("/", 1)[1])
        return synthesized(str(path.resolve()), args.seed, args.n_tasks).domain
