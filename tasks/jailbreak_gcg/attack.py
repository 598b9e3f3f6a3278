"""Running GCG over a behaviours file and writing the attacks JSONL file the ``jailbreak`` family reads.

Per-behaviour mode writes one line per behaviour as soon as its suffix is found (a stopped run
keeps the lines it wrote); universal mode optimises one suffix on the mean loss over all
behaviours and writes one line with ``"behavior_id": "*"``. Each line is
``{"behavior_id", "suffix", "source_model", "attack", "params", "loss"}``; ``attack`` is ``gcg``
for one surrogate and ``gcg-multi`` for several.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from harness.api import ConfigError
from tasks.jailbreak.attacks import UNIVERSAL
from tasks.jailbreak.behaviors import Behavior, load_behaviors
from tasks.jailbreak_gcg.gcg import GcgParams, GcgResult, Objective, disallowed_tokens, run_gcg, vocabulary_size
from tasks.jailbreak_gcg.prompt import Template, prompt_ids, resolve_template
from tasks.jailbreak_gcg.surrogate import Surrogate

BEHAVIOR_FORMATS = ("advbench", "jbb")
"""Layouts that carry a target string: AdvBench ``goal,target`` and JBB-Behaviors ``Goal,Target``."""


@dataclass(frozen=True)
class AttackPlan:
    """What to attack and how: behaviours, surrogates (and held-out ones), the prompt template, the search."""

    behaviors: Sequence[Behavior]
    surrogates: Sequence[Surrogate]
    holdout: Sequence[Surrogate]
    params: GcgParams
    init: str
    template: Template = "auto"
    universal: bool = False


def read_targets(path: Path, limit: int | None = None) -> list[Behavior]:
    """Behaviours with a non-empty target from an AdvBench or JBB-Behaviors CSV (the first ``limit``)."""
    behaviors = load_behaviors(path, BEHAVIOR_FORMATS, "attack gcg")
    missing = [b.id for b in behaviors if not b.extra.get("target", "").strip()]
    if missing:
        raise ConfigError(f"behaviours file {path}: behaviour {missing[0]!r} has no target string")
    return behaviors[:limit] if limit is not None else behaviors


def check_shared_tokenizer(surrogates: Sequence[Surrogate]) -> None:
    """ConfigError unless every surrogate's tokenizer has the first one's vocabulary (GCG swaps token ids)."""
    first = surrogates[0].tokenizer.get_vocab()
    for other in surrogates[1:]:
        if other.tokenizer.get_vocab() != first:
            raise ConfigError(f"{other.name} does not share {surrogates[0].name}'s tokenizer; GCG-multi needs one")


def _objective(surrogates: Sequence[Surrogate], behaviors: Sequence[Behavior], template: Template) -> Objective:
    prompts = [[prompt_ids(s.tokenizer, b.text, b.extra["target"], template) for b in behaviors] for s in surrogates]
    return Objective(surrogates, prompts)


def record(plan: AttackPlan, behavior_id: str, result: GcgResult) -> dict[str, Any]:
    """The attacks-file line for one result."""
    params: dict[str, Any] = {
        **asdict(plan.params),
        "init": plan.init,
        "template": resolve_template(plan.surrogates[0].tokenizer, plan.template),
        "models": [s.name for s in plan.surrogates],
        "holdout": [s.name for s in plan.holdout],
        "universal": plan.universal,
        "behaviors": len(plan.behaviors) if plan.universal else 1,
        "loss_curve": [round(x, 6) for x in result.curve],
    }
    params.pop("chunk")
    if result.holdout_loss is not None:
        params["holdout_loss"] = round(result.holdout_loss, 6)
    return {
        "behavior_id": behavior_id,
        "suffix": result.suffix,
        "source_model": "+".join(s.name for s in plan.surrogates),
        "attack": "gcg-multi" if len(plan.surrogates) > 1 else "gcg",
        "params": params,
        "loss": round(result.loss, 6),
    }


def run_attack(plan: AttackPlan, out: Path, on_line: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Optimise the plan's suffixes and write them to ``out`` (which must not exist); the number of lines."""
    check_shared_tokenizer([*plan.surrogates, *plan.holdout])
    groups = [list(plan.behaviors)] if plan.universal else [[b] for b in plan.behaviors]
    vocab = vocabulary_size([*plan.surrogates, *plan.holdout])
    disallowed = disallowed_tokens(plan.surrogates[0], vocab, plan.params.allow_non_ascii)
    jobs = [
        (
            group,
            _objective(plan.surrogates, group, plan.template),
            _objective(plan.holdout, group, plan.template) if plan.holdout else None,
        )
        for group in groups
    ]
    try:
        handle = out.open("x", encoding="utf-8")
    except FileExistsError:
        raise ConfigError(f"{out} exists; choose another output path or remove it") from None
    except OSError as exc:
        raise ConfigError(f"cannot write {out}: {exc.strerror or exc}") from None
    with handle:
        for group, objective, holdout in jobs:
            result = run_gcg(objective, plan.init, plan.params, holdout, disallowed=disallowed)
            line = record(plan, UNIVERSAL if plan.universal else group[0].id, result)
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            handle.flush()
            if on_line is not None:
                on_line(line)
    return len(groups)
