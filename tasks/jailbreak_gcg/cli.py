"""``frontier attack gcg``: optimise adversarial suffixes on white-box surrogates into an attacks JSONL file."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click


@click.group("attack")
def attack_group() -> None:
    """Generate jailbreak attacks on white-box models (extra `attack`: torch, transformers, gguf)."""


@attack_group.command("gcg")
@click.argument("behaviors", type=click.Path(path_type=Path))
@click.option(
    "-m", "--model", "models", multiple=True, required=True,
    help="surrogate: local/<name>, a .gguf file or a Hugging Face folder; repeat for gcg-multi (one tokenizer)",
)  # fmt: skip
@click.option("-o", "--out", required=True, type=click.Path(path_type=Path), help="attacks JSONL file to write")
@click.option("--steps", default=250, show_default=True, help="GCG steps per suffix")
@click.option("--search-width", default=512, show_default=True, help="candidates scored per step")
@click.option("--topk", default=256, show_default=True, help="tokens proposed per suffix position")
@click.option("--n-replace", default=1, show_default=True, help="positions changed per candidate")
@click.option("--init", default="! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! !", show_default=True, help="initial suffix")
@click.option("--universal", is_flag=True, help="one suffix for all behaviours (mean loss) instead of one each")
@click.option("--holdout", "holdout", multiple=True, help="held-out surrogate that picks among the best candidates")
@click.option("--lookahead", default=0, show_default=True, help="best candidates re-scored on --holdout (0: off)")
@click.option("--template", type=click.Choice(["auto", "chat", "plain"]), default="auto", show_default=True)
@click.option("--allow-non-ascii", is_flag=True, help="let non-ASCII tokens into the suffix")
@click.option("--limit", type=click.IntRange(min=1), help="attack only the first N behaviours")
@click.option("--seed", default=0, show_default=True)
@click.option("--device", default="cpu", show_default=True, help="torch device, e.g. cuda")
@click.option("--chunk", default=32, show_default=True, help="candidates per forward pass")
def gcg_command(
    behaviors: Path,
    models: tuple[str, ...],
    out: Path,
    holdout: tuple[str, ...],
    limit: int | None,
    device: str,
    **settings: Any,
) -> None:
    """Optimise GCG suffixes for the behaviours of BEHAVIORS (an AdvBench goal,target or JBB CSV)."""
    from harness.api import ConfigError
    from tasks.jailbreak_gcg.attack import AttackPlan, read_targets, run_attack
    from tasks.jailbreak_gcg.gcg import GcgParams
    from tasks.jailbreak_gcg.surrogate import load_surrogate, require_torch

    targets = read_targets(behaviors, limit)
    if settings["lookahead"] and not holdout:
        raise ConfigError("--lookahead needs at least one --holdout model")
    params = GcgParams(
        steps=settings["steps"],
        search_width=settings["search_width"],
        topk=settings["topk"],
        n_replace=settings["n_replace"],
        allow_non_ascii=settings["allow_non_ascii"],
        lookahead=settings["lookahead"],
        seed=settings["seed"],
        chunk=settings["chunk"],
    )
    if out.exists():
        raise ConfigError(f"{out} exists; choose another output path or remove it")
    require_torch()
    started = time.monotonic()
    plan = AttackPlan(
        behaviors=targets,
        surrogates=[load_surrogate(spec, device) for spec in models],
        holdout=[load_surrogate(spec, device) for spec in holdout],
        params=params,
        init=settings["init"],
        template=settings["template"],
        universal=settings["universal"],
    )

    def report(line: dict[str, Any]) -> None:
        click.echo(f"{line['behavior_id']}: loss {line['loss']:.4f} suffix {json.dumps(line['suffix'])}")

    written = run_attack(plan, out, report)
    click.echo(f"wrote {written} attack(s) to {out} in {time.monotonic() - started:.0f} s")
