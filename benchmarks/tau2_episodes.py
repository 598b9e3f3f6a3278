"""τ² episodes and evaluations: this project against τ²'s own ``evaluate_simulation``.

Runs the same scripted episodes (oracle agent: the gold actions in order; scripted user) on
the real airline and retail environments, then evaluates every trajectory twice: with τ²'s
``evaluate_simulation`` as τ² runs it (its registry's constructor, which re-reads and
re-validates the database for each of the two environments it builds) and with this
project's evaluator (databases loaded once per process, gold end states hashed once per
task). The rewards must be identical.

Usage: python benchmarks/tau2_episodes.py [--tasks 8]
Ends with one line of JSON: {"episodes_per_s", "eval_per_s", "tau2_eval_per_s", "eval_ratio", ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from tasks.tau2.domains import load_domain
from tasks.tau2.library import import_tau2, resolve_data_root
from tasks.tau2.parity import scripted_episode, tau2_reward
from tasks.tau2.scripted import gold_actions
from tasks.tau2.task import evaluator_for

DOMAINS = ("airline", "retail")


def main() -> None:
    """Run the episodes, time both evaluators on the same trajectories, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=int, default=8, help="tasks per domain (the first of the base split)")
    args = parser.parse_args()
    import_tau2()
    root = resolve_data_root(None)
    episodes = []
    started = time.perf_counter()
    for name in DOMAINS:
        domain = load_domain(name, root)
        for task in domain.tasks("base")[: args.tasks]:
            episode = asyncio.run(scripted_episode(domain, task, gold_actions(task)))
            episodes.append((name, domain, task, episode))
    episode_s = time.perf_counter() - started

    started = time.perf_counter()
    ours = []
    for _, domain, task, episode in episodes:
        ours.append(evaluator_for(domain).evaluate(task, episode.trajectory, episode.termination).reward)
    ours_s = time.perf_counter() - started

    started = time.perf_counter()
    theirs = [tau2_reward(name, task, episode.trajectory, episode.termination) for name, _, task, episode in episodes]
    theirs_s = time.perf_counter() - started

    if ours != theirs:
        raise SystemExit(f"rewards differ: ours {ours} vs tau2 {theirs}")
    n = len(episodes)
    print(
        f"{n} episodes ({', '.join(DOMAINS)}), mean reward {sum(ours) / n:.3f}; "
        f"ours {ours_s:.2f} s, tau2 {theirs_s:.2f} s for the same evaluations"
    )
    print(
        json.dumps(
            {
                "episodes_per_s": round(n / episode_s, 3),
                "eval_per_s": round(n / ours_s, 3),
                "tau2_eval_per_s": round(n / theirs_s, 3),
                "eval_ratio": round(theirs_s / ours_s, 2),
                "trajectories": n,
                "identical_rewards": True,
            }
        )
    )


if __name__ == "__main__":
    main()
