"""The specs shipped with the project, and synthesis from a spec name or path, computed once per process."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from harness.api import ConfigError

if TYPE_CHECKING:
    from tasks.tau2.synth.generate import Synthesis

SPEC_DIR = Path(__file__).resolve().parent / "specs"
SPEC_SUFFIXES = (".yaml", ".yml")


def shipped_specs() -> list[str]:
    """Names of the example specs shipped with the project."""
    return sorted(p.stem for p in SPEC_DIR.glob("*.yaml"))


def spec_path(name: str) -> Path:
    """A shipped spec's path, or ``name`` itself when it is a path to a YAML file."""
    if name in shipped_specs():
        return SPEC_DIR / f"{name}.yaml"
    path = Path(name).expanduser()
    if path.suffix in SPEC_SUFFIXES and path.is_file():
        return path.resolve()
    raise ConfigError(
        f"unknown synthesis spec {name!r}: use one of {', '.join(shipped_specs())} or a path to a .yaml spec"
    )


@cache
def synthesized(path: Path, seed: int, n_tasks: int) -> Synthesis:
    """The synthesis for a spec file, seed and size (computed once per process)."""
    from tasks.tau2.synth.generate import synthesize
    from tasks.tau2.synth.spec import SpecError, load_spec

    try:
        return synthesize(load_spec(path), seed=seed, n_tasks=n_tasks)
    except SpecError as exc:
        raise ConfigError(str(exc)) from None
