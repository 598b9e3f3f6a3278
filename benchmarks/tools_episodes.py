"""Tool-use episode throughput with an instant scripted agent (gold replay) and the scripted user.

Everything timed is harness work. The overhead per step is the episode's time (environment
setup, argument validation, tool execution, the orchestrator loop) divided by its steps;
scoring (the evaluator's replays) is reported per episode, and episodes per second include
it. Ends with one line of JSON: {"episodes_per_s", "overhead_ms_per_step", "scoring_ms_per_episode"}.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasks.tools.domains.registry import DOMAIN_NAMES, get_domain
from tasks.tools.solvability import judge_episode, run_scripted, run_sync

ROUNDS = 4


def main() -> None:
    """Run every built-in task ROUNDS times and report throughput."""
    total_episodes = total_steps = 0
    total_s = episode_s = 0.0
    for name in DOMAIN_NAMES:
        domain = get_domain(name)
        tasks = domain.tasks()
        run_sync(run_scripted(domain, tasks[0]))  # warm caches
        steps, started, in_episode = 0, time.perf_counter(), 0.0
        for _ in range(ROUNDS):
            for task in tasks:
                t0 = time.perf_counter()
                episode = run_sync(run_scripted(domain, task))
                in_episode += time.perf_counter() - t0
                verdict = judge_episode(domain, task, episode)
                assert verdict.reward == 1.0, (name, task.id, verdict.explanation)
                steps += episode.steps
        elapsed = time.perf_counter() - started
        count = ROUNDS * len(tasks)
        print(
            f"{name:8s} {count:4d} episodes  {count / elapsed:8.1f} episodes/s (with scoring)  "
            f"{1000 * in_episode / steps:6.3f} ms/step in the loop  {1000 * elapsed / steps:6.3f} ms/step with scoring"
        )
        total_episodes += count
        total_steps += steps
        total_s += elapsed
        episode_s += in_episode
    per_step = 1000 * episode_s / total_steps
    scoring = 1000 * (total_s - episode_s) / total_episodes
    print(
        f"all      {total_episodes:4d} episodes  {total_episodes / total_s:8.1f} episodes/s with scoring; "
        f"harness overhead {per_step:.3f} ms/step (environment setup, validation, tools, loop; target < 2 ms); "
        f"scoring {scoring:.2f} ms/episode (two replays)"
    )
    print(
        json.dumps(
            {
                "episodes_per_s": round(total_episodes / total_s, 1),
                "overhead_ms_per_step": round(per_step, 3),
                "scoring_ms_per_episode": round(scoring, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
