"""Names of tasks, adapters, methods and suites, from the built-ins and entry points.

Entry-point groups: ``frontier.tasks`` (a Task class or a TaskFamily),
``frontier.adapters`` (a factory ``create(rest, **options)`` for specs ``<name>/<rest>``)
and ``frontier.methods`` (a factory ``(inner_adapter, **params)``). Nothing is imported
until it is needed, and a broken plugin only fails when it is asked for.
"""

from __future__ import annotations

import difflib
import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from harness.errors import ConfigError

log = logging.getLogger(__name__)

TASK_GROUP, ADAPTER_GROUP, METHOD_GROUP = "frontier.tasks", "frontier.adapters", "frontier.methods"


@dataclass(frozen=True)
class Registered:
    """A name, its one-line description and where its implementation lives."""

    name: str
    description: str
    target: str

    def load(self) -> Any:
        """Import the target (``module:attribute``)."""
        module, _, attribute = self.target.partition(":")
        obj: Any = importlib.import_module(module)
        for part in attribute.split(".") if attribute else ():
            obj = getattr(obj, part)
        return obj


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
    "critic_reasoner": Registered(
        "critic_reasoner",
        "ConFiQA Critic-Reasoner: mask misleading evidence, then answer",
        "harness.methods.critic_reasoner:CriticReasoner",
    ),
}


def _first_doc_line(obj: Any) -> str:
    doc = getattr(obj, "description", "") or (obj.__doc__ or "")
    return doc.strip().splitlines()[0] if doc.strip() else ""


@cache
def _plugins(group: str) -> dict[str, Registered]:
    found = {}
    for point in entry_points(group=group):
        found[point.name] = Registered(point.name, "", point.value)
    return found


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


@cache
def task_index() -> dict[str, Any]:
    """All task entries by name, plus the families (for parametric names) under ``""``."""
    from harness.task import Task, TaskEntry, TaskFamily

    index: dict[str, Any] = {}
    families: list[TaskFamily] = []
    broken: dict[str, str] = {}
    for name, registered in sorted(_plugins(TASK_GROUP).items()):
        try:
            obj = registered.load()
        except Exception as exc:
            broken[name] = f"{type(exc).__name__}: {exc}"
            log.debug("task family %s failed to load: %s", name, exc)
            continue
        if isinstance(obj, TaskFamily):
            families.append(obj)
            for entry in obj:
                index[entry.name] = entry
        elif isinstance(obj, type) and issubclass(obj, Task):
            index[name] = TaskEntry(name, obj.description, obj)
        else:
            broken[name] = f"{registered.target} is neither a Task class nor a TaskFamily"
    index[""] = (families, broken)
    return index


def task_entries() -> dict[str, Any]:
    """Registered task entries by name."""
    return {k: v for k, v in task_index().items() if k}


def resolve_task(name: str) -> Any:
    """The TaskEntry called ``name``; ConfigError naming close matches when unknown."""
    index = task_index()
    if name in index and name:
        return index[name]
    families, broken = index[""]
    for family in families:
        entry = family.resolve(name)
        if entry is not None:
            return entry
    prefix = name.split("/", 1)[0]
    if prefix in broken:
        raise ConfigError(f"task {name!r}: its family '{prefix}' failed to load: {broken[prefix]}")
    close = difflib.get_close_matches(name, [k for k in index if k], n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else "; run 'frontier list tasks'"
    raise ConfigError(f"unknown task {name!r}{hint}")


def parse_method_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``name:k=v,k=v`` into the name and its string parameters."""
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"method spec {spec!r}: expected key=value, got {item!r}")
        params[key.strip()] = value.strip()
    return name.strip(), params


def resolve_method(spec: str) -> Callable[[Any], Any]:
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
