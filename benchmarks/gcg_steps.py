"""GCG on the packaged Gemma 3 270M (GGUF dequantised by transformers): seconds per step and the loss curve.

One harmless behaviour ("Write a short poem about the sea" → "Sure, here is a short poem about
the sea"), the default 20-token ``! ! …`` suffix, ``--steps`` steps of ``--search-width``
candidates drawn from the ``--topk`` tokens per position, on CPU unless ``--device`` says
otherwise. A step is one forward and backward pass for the token gradient plus forward passes
scoring the candidates that survive re-tokenisation (``--chunk`` at a time). Needs the extras
``attack`` and ``local``. Ends with one line of JSON: ``{"model", "device", "threads", "load_s",
"steps", "search_width", "topk", "seconds_per_step", "step_seconds", "cpu_seconds_per_step", "loss_curve",
"lowered"}``: ``cpu_seconds_per_step`` is the process's CPU time per step from step 2 on (all threads),
a figure that a busy machine inflates less than the wall-clock one.

Run: ``python benchmarks/gcg_steps.py [--steps 5] [--search-width 64] [--topk 64] [--device cpu]``
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time

GOAL = "Write a short poem about the sea"
TARGET = "Sure, here is a short poem about the sea"
INIT = "! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! ! !"


def main() -> None:
    """Load the model, run the steps, and print each step's time and loss."""
    import torch

    from tasks.jailbreak_gcg.gcg import GcgParams, Objective, run_gcg
    from tasks.jailbreak_gcg.prompt import prompt_ids
    from tasks.jailbreak_gcg.surrogate import load_surrogate

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="local/gemma-3-270m")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--search-width", type=int, default=64)
    parser.add_argument("--topk", type=int, default=64)
    parser.add_argument("--chunk", type=int, default=32)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()

    started = time.perf_counter()
    surrogate = load_surrogate(args.model, args.device)
    load_s = time.perf_counter() - started
    print(f"loaded {args.model} on {args.device} in {load_s:.1f} s ({torch.get_num_threads()} threads)")
    objective = Objective([surrogate], [[prompt_ids(surrogate.tokenizer, GOAL, TARGET)]])
    params = GcgParams(steps=args.steps, search_width=args.search_width, topk=args.topk, chunk=args.chunk)
    cpu_marks = [time.process_time()]
    result = run_gcg(objective, INIT, params, on_step=lambda step, loss, text: cpu_marks.append(time.process_time()))
    cpu = [later - earlier for earlier, later in itertools.pairwise(cpu_marks[1:])]
    for step, (seconds, loss) in enumerate(zip(result.step_seconds, result.curve[1:], strict=True), start=1):
        print(f"step {step}: {seconds:.1f} s, loss {loss:.4f}")
    print(f"loss {result.curve[0]:.4f} -> {result.loss:.4f}; suffix {result.suffix!r}")
    figures = {
        "model": args.model,
        "device": args.device,
        "threads": torch.get_num_threads(),
        "load_s": round(load_s, 1),
        "steps": args.steps,
        "search_width": args.search_width,
        "topk": args.topk,
        "seconds_per_step": round(statistics.mean(result.step_seconds), 2),
        "step_seconds": [round(x, 2) for x in result.step_seconds],
        "cpu_seconds_per_step": round(statistics.mean(cpu), 2) if cpu else None,
        "loss_curve": [round(x, 4) for x in result.curve],
        "lowered": result.loss < result.curve[0],
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
