"""Throughput of the ``local/`` adapter on the packaged Gemma 3 270M (needs the extra ``local``).

Measures the model's load time, generation speed (greedy, 128 new tokens), prompt
processing speed, and continuation scoring speed (``prompt_logprobs``), each the best of
three runs. Run: ``python benchmarks/local_model.py [--threads N]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from harness.adapters.local import create
from harness.types import GenerateRequest, Message

NEW_TOKENS = 128
REPEATS = 3
PROMPT = (
    "Explain, step by step, how to compute 17 times 23 without a calculator, then check the result by another method. "
) * 8


async def measure(threads: int | None) -> dict[str, float]:
    """Run the measurements and return the figures."""
    adapter = create("gemma-3-270m", n_threads=threads)
    started = time.perf_counter()
    loaded = adapter.load()
    load_s = time.perf_counter() - started
    engine = loaded.engine

    generate_rates = []
    for repeat in range(REPEATS):
        request = GenerateRequest(
            messages=(Message(role="user", content=f"Tell a long story about robot {repeat}."),),
            max_tokens=NEW_TOKENS,
            temperature=0,
        )
        started = time.perf_counter()
        generation = await adapter.generate(request)
        generate_rates.append(generation.usage.output_tokens / (time.perf_counter() - started))

    prompt_rates = []
    for repeat in range(REPEATS):
        tokens = engine.prompt_tokens(f"{repeat} {PROMPT}", special=True)
        engine.llm.reset()
        started = time.perf_counter()
        engine.llm.eval(tokens)
        prompt_rates.append(len(tokens) / (time.perf_counter() - started))

    scoring_rates = []
    continuation = "First, 17 times 20 is 340, and 17 times 3 is 51, so the answer is 391. " * 2
    for repeat in range(REPEATS):
        request = GenerateRequest(messages=(Message(role="user", content=f"{repeat}: what is 17 times 23?"),))
        started = time.perf_counter()
        scored = await adapter.prompt_logprobs(request, continuation)
        scoring_rates.append(len(scored) / (time.perf_counter() - started))

    return {
        "load_s": round(load_s, 2),
        "generate_tokens_per_s": round(max(generate_rates), 1),
        "prompt_tokens_per_s": round(max(prompt_rates), 1),
        "prompt_logprobs_tokens_per_s": round(max(scoring_rates), 1),
        "threads": engine.llm.n_threads,
    }


def main() -> None:
    """Print the figures, then one line of JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: half the cores)")
    figures = asyncio.run(measure(parser.parse_args().threads))
    print(f"model load:            {figures['load_s']:.2f} s")
    print(f"generation:            {figures['generate_tokens_per_s']:.1f} tokens/s (greedy, {NEW_TOKENS} new tokens)")
    print(f"prompt processing:     {figures['prompt_tokens_per_s']:.1f} tokens/s")
    print(f"continuation scoring:  {figures['prompt_logprobs_tokens_per_s']:.1f} tokens/s (prompt_logprobs)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
