"""Names of tasks, adapters, methods and suites, from the built-ins and entry points.

Entry-point groups: ``frontier.tasks`` (a :class:`~harness.task.TaskFamily`; a Task class
stands for a family of one task named like the entry point), ``frontier.catalogues`` (a family's
listed task names and descriptions as a plain ``dict``, named like its ``frontier.tasks`` entry,
so that 'frontier list tasks' reads them without importing the family), ``frontier.adapters`` (a factory
``create(rest, **options)`` for specs ``<name>/<rest>``), ``frontier.methods`` (a factory
``(inner_adapter, **params)``) and ``frontier.commands`` (subcommands, see
:mod:`harness.cli.commands`). Nothing is imported until it is needed, and a broken plugin
only fails when it is asked for (its error is logged at INFO: ``frontier -v``).
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from harness.entry_point_files import group_entries, load_target
from harness.errors import ConfigError
from harness.method_spec import parse_method_spec

if TYPE_CHECKING:
    from harness.adapters.base import ModelAdapter
    from harness.task import TaskEntry, TaskFamily

log = logging.getLogger(__name__)

TASK_GROUP, ADAPTER_GROUP, METHOD_GROUP = "frontier.tasks", "frontier.adapters", "frontier.methods"
CATALOGUE_GROUP = "frontier.catalogues"


@dataclass(frozen=True)
class Registered:
    """A name, its one-line description and where its implementation lives."""

    name: str
    description: str
    target: str
    output_cap: int | None = None  # an adapter's: the max_tokens a run uses unless a suite or --max-tokens sets it

    def load(self) -> Any:
        """Import the target (``module:attribute``)."""
        return load_target(self.target)


LOCAL_OUTPUT_CAP = 256
"""Output tokens a local model generates unless told otherwise: a small CPU model that does not stop
would otherwise run every sample to the task's 1,024 (minutes each)."""

BUILTIN_ADAPTERS = {
    "builtin": Registered(
        "builtin",
        "reference baselines: builtin/oracle (the task's reference answer), builtin/random (seeded guesses)",
        "harness.adapters.builtin:create",
    ),
    "replay": Registered("replay", "answers from a logged run: replay/<run dir>", "harness.adapters.replay:create"),
    "openai-compatible": Registered(
        "openai-compatible",
        "any OpenAI-compatible server (vLLM, llama.cpp, Ollama): openai-compatible/<model>@<base_url>",
        "harness.adapters.openai_compatible:create",
    ),
    "local": Registered(
        "local",
        "a GGUF model run in process by llama.cpp (extra 'local'): local/gemma-3-270m, local/<path.gguf>",
        "harness.adapters.local:create",
        output_cap=LOCAL_OUTPUT_CAP,
    ),
    "inspect": Registered(
        "inspect",
        "any inspect-ai model provider: inspect/<provider>/<model>[?base_url=...&key=value]",
        "harness.interop.inspect_adapter:create",
    ),
    "lm-eval": Registered(
        "lm-eval",
        "any lm-eval LM via generate_until: lm-eval/<model type>?<model args k=v,k=v>",
        "harness.interop.lm_eval_adapter:create",
    ),
}
LITELLM_ENTRY = Registered(
    "<provider>",
    "any litellm provider: openai/gpt-4o-mini, anthropic/claude-..., append @<api_base> to point it at another server",
    "harness.adapters.litellm_adapter:create",
)

BUILTIN_METHODS = {
    "budget": Registered(
        "budget",
        "per-sample token budget: budget:tokens=N (native reasoning controls, else budget forcing)",
        "harness.methods.budget:TokenBudget",
    ),
    "best_of_n": Registered(
        "best_of_n",
        "N samples, one selected: best_of_n:n=8,selector=majority|verifier|rear|prm (verifier = labelled upper bound)",
        "harness.methods.best_of_n:BestOfN",
    ),
    "self_consistency": Registered(
        "self_consistency",
        "majority vote over normalised answers: self_consistency:n=8",
        "harness.methods.best_of_n:SelfConsistency",
    ),
    "rear": Registered(
        "rear",
        "REAR realignment-reward best-of-N: rear:n=8,lam=20 (needs prompt_logprobs)",
        "harness.methods.best_of_n:Rear",
    ),
    "prm": Registered(
        "prm",
        "PRM reranking: prm:n=8,aggregate=min|mean|last|product,weighted=true[,judge=SPEC]",
        "harness.methods.best_of_n:PrmRerank",
    ),
    "clear": Registered(
        "clear",
        "CLEAR global token allocation: clear:budget=B[,allocator=clear|uniform|proportional,tau=...]",
        "harness.methods.clear.method:Clear",
    ),
}


def _first_doc_line(obj: object) -> str:
    doc = getattr(obj, "description", "") or (obj.__doc__ or "")
    return doc.strip().splitlines()[0] if doc.strip() else ""


@cache
def _plugins(group: str) -> dict[str, Registered]:
    return {point.name: Registered(point.name, "", point.value) for point in group_entries(group)}


def output_cap(model: str) -> int | None:
    """The output cap the adapter of model spec ``model`` declares (None: the task's max_tokens stands)."""
    entry = BUILTIN_ADAPTERS.get(model.split("/", 1)[0])
    return entry.output_cap if entry is not None else None


def adapter_entries() -> dict[str, Registered]:
    """Adapter prefixes: built-ins, then plugins (a plugin may not shadow a built-in)."""
    entries = dict(BUILTIN_ADAPTERS)
    for name, plugin in _plugins(ADAPTER_GROUP).items():
        if name in entries:
            log.warning("adapter plugin %r ignored: the name is built in", name)
            continue
        entries[name] = plugin
    return entries


def method_entries() -> dict[str, Registered]:
    """Method names: built-ins, then plugins."""
    entries = dict(BUILTIN_METHODS)
    entries.update({k: v for k, v in _plugins(METHOD_GROUP).items() if k not in entries})
    return entries


def describe(entry: Registered) -> str:
    """An entry's one-line description, importing it if the registry has none."""
    if entry.description:
        return entry.description
    try:
        return _first_doc_line(entry.load())
    except Exception as exc:
        return f"(cannot load {entry.target}: {type(exc).__name__}: {exc})"


@dataclass(frozen=True)
class TaskIndex:
    """The registered tasks: listed entries by name, the families (for parametric names), and the
    families that failed to load (entry-point name -> the error)."""

    entries: Mapping[str, TaskEntry]
    families: tuple[TaskFamily, ...]
    broken: Mapping[str, str]

    def resolve(self, name: str) -> TaskEntry:
        """The TaskEntry called ``name``; ConfigError naming close matches (or the broken family) when unknown."""
        if name in self.entries:
            return self.entries[name]
        for family in self.families:
            entry = family.resolve(name)
            if entry is not None:
                return entry
        prefix = name.split("/", 1)[0]
        if prefix in self.broken:
            raise ConfigError(f"task {name!r}: its family '{prefix}' failed to load: {self.broken[prefix]}")
        close = difflib.get_close_matches(name, list(self.entries), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; run 'frontier list tasks'"
        raise ConfigError(f"unknown task {name!r}{hint}")


def _family_of(name: str, obj: object) -> TaskFamily | None:
    """What an entry point names, as a family: a TaskFamily, or a Task class as a family of one task."""
    from harness.task import Task, TaskFamily

    if isinstance(obj, TaskFamily):
        return obj
    if isinstance(obj, type) and issubclass(obj, Task):
        return TaskFamily.of((name, obj))
    return None


def _load_family(name: str, registered: Registered) -> TaskFamily | str:
    """The family a ``frontier.tasks`` entry point names, or why it could not be loaded (logged at INFO)."""
    try:
        family = _family_of(name, registered.load())
    except Exception as exc:
        log.info("task family %s (%s) failed to load: %s: %s", name, registered.target, type(exc).__name__, exc)
        return f"{type(exc).__name__}: {exc}"
    if family is None:
        log.info("task family %s: %s is neither a TaskFamily nor a Task class", name, registered.target)
        return f"{registered.target} is neither a TaskFamily nor a Task class"
    return family


@cache
def task_index() -> TaskIndex:
    """Every ``frontier.tasks`` entry point loaded once; a family that fails to load is kept in ``broken``."""
    entries: dict[str, TaskEntry] = {}
    families: list[TaskFamily] = []
    broken: dict[str, str] = {}
    for name, registered in sorted(_plugins(TASK_GROUP).items()):
        family = _load_family(name, registered)
        if isinstance(family, str):
            broken[name] = family
            continue
        families.append(family)
        entries.update((entry.name, entry) for entry in family)
    return TaskIndex(entries, tuple(families), broken)


def _catalogue(name: str) -> dict[str, str] | None:
    """Family ``name``'s catalogue (listed task name -> description), or None when it has none or it is unusable."""
    registered = _plugins(CATALOGUE_GROUP).get(name)
    if registered is None:
        return None
    try:
        catalogue = registered.load()
    except Exception as exc:
        log.info("task catalogue %s (%s) failed to load: %s: %s", name, registered.target, type(exc).__name__, exc)
        return None
    if not isinstance(catalogue, dict) or not all(isinstance(x, str) for item in catalogue.items() for x in item):
        log.info("task catalogue %s: %s is not a dict of task names to descriptions", name, registered.target)
        return None
    return catalogue


def task_listing() -> tuple[dict[str, str], dict[str, str]]:
    """What 'frontier list tasks' shows: (listed task name -> description, broken family -> why).

    A family with a catalogue is read from it without being imported; the others are loaded (a
    family that fails to load is reported as broken).
    """
    listed: dict[str, str] = {}
    broken: dict[str, str] = {}
    for name, registered in sorted(_plugins(TASK_GROUP).items()):
        catalogue = _catalogue(name)
        family = catalogue if catalogue is not None else _load_family(name, registered)
        if isinstance(family, str):
            broken[name] = family
        elif isinstance(family, dict):
            listed.update(family)
        else:
            listed.update((entry.name, entry.description) for entry in family)
    return listed, broken


def task_entries() -> Mapping[str, TaskEntry]:
    """Registered task entries by name."""
    return task_index().entries


def resolve_task(name: str) -> TaskEntry:
    """The TaskEntry called ``name``; ConfigError naming close matches when unknown.

    Until the full index is built, the family whose entry point the name's prefix names
    (``demo`` for ``demo/arith``, ``longcot`` for ``longcot-gen/cs``) is tried alone first, so that
    one task does not import every family.
    """
    if task_index.cache_info().currsize == 0:
        entry = _resolve_in_named_family(name)
        if entry is not None:
            return entry
    return task_index().resolve(name)


def _resolve_in_named_family(name: str) -> TaskEntry | None:
    """``name`` resolved by the family its prefix names, or None (unknown there, or it failed to load)."""
    plugins = _plugins(TASK_GROUP)
    prefix = name.split("/", 1)[0]
    point = next((p for p in (prefix, prefix.split("-", 1)[0]) if p in plugins), None)
    if point is None:
        return None
    try:
        family = _family_of(point, plugins[point].load())
    except Exception:
        return None
    return family.resolve(name) if family is not None else None


def resolve_method(spec: str) -> Callable[[ModelAdapter], ModelAdapter]:
    """A function wrapping an adapter in the method named by ``spec``."""
    name, params = parse_method_spec(spec)
    entries = method_entries()
    if name not in entries:
        close = difflib.get_close_matches(name, list(entries), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; run 'frontier list methods'"
        raise ConfigError(f"unknown method {name!r}{hint}")
    try:
        factory = entries[name].load()
    except Exception as exc:
        raise ConfigError(f"method {name!r} failed to load: {type(exc).__name__}: {exc}") from None
    return lambda inner: factory(inner, **params)
