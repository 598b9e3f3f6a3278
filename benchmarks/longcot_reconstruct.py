"""Solve every LongCoT chess ``reconstruct_moves`` question with the proof-game solver.

Data: the first argument, else ``$FRONTIER_LONGCOT_DATA``, else ``longcot`` in the reference data
(``$FRONTIER_REFERENCE_DATA``, else ``../shared/data``).
``--nodes N`` is the node budget of each attempt (default: the solver's ``DEFAULT_NODE_BUDGET``;
it decides the outcome), ``--time-limit S`` its wall-clock safety bound (default: the solver's
``DEFAULT_SAFETY_S``; an attempt it ends is marked ``time``, and its outcome depends on the
machine); ``--only 54,60`` keeps the questions whose uid ends in those numbers. Each game is
checked with the task's verifier and with the strict reading (49 plies, side to move, castling
rights, en passant); each line gives the node expansions spent. Ends with one JSON line:
{"questions", "solved", "solved_strict", "stopped_nodes", "stopped_time", "nodes_max_solved",
"nodes_median_solved", "seconds_total", "seconds_median"}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.testing.reference_data import reference_data_dir
from tasks.longcot.data import load_questions
from tasks.longcot.oracle.proof_game import forced_plies, reconstruct, replay_check, target_plies
from tasks.longcot.oracle.search import DEFAULT_NODE_BUDGET, DEFAULT_SAFETY_S, Stop
from tasks.longcot.verify.chess import verify_reconstruct


def default_data() -> str:
    """``$FRONTIER_LONGCOT_DATA`` if set, else ``longcot`` in the reference data folder."""
    env = os.environ.get("FRONTIER_LONGCOT_DATA")
    return env if env else str(reference_data_dir() / "longcot")


def strict_ok(final_fen: str, forced_moves: dict[str, str], game: dict[str, str]) -> bool:
    """The game has the FEN's ply count, side to move, castling rights and en-passant square."""
    import chess

    final = chess.Board(final_fen)
    plies = [t for n in sorted(game, key=int) for t in game[n].split()]
    forced = forced_plies(forced_moves, target_plies(final)) or {}
    return replay_check(plies, forced, final, strict=True)


def main() -> None:
    """Solve all reconstruct_moves questions and print per-question figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=default_data())
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_BUDGET)
    parser.add_argument("--time-limit", type=float, default=DEFAULT_SAFETY_S)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="comma-separated question numbers (uid suffixes)")
    args = parser.parse_args()
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    questions = [
        q
        for q in load_questions(args.data, ("chess",), ("easy", "medium", "hard"))
        if q.template == "reconstruct_moves" and (not only or q.uid.rsplit("/", 1)[-1] in only)
    ]
    solved = strict = 0
    times: list[float] = []
    nodes_solved: list[int] = []
    stops = {stop: 0 for stop in Stop}
    for question in questions:
        fen, forced = question.problem["final_fen"], question.problem["forced_moves"]
        started = time.perf_counter()
        result = reconstruct(fen, forced, time_limit_s=args.time_limit, seed=args.seed, node_budget=args.nodes)
        game = result.game
        seconds = time.perf_counter() - started
        times.append(seconds)
        ok = game is not None and verify_reconstruct(question, f"solution = {json.dumps(game)}").status == "correct"
        is_strict = ok and game is not None and strict_ok(fen, forced, game)
        solved += ok
        strict += is_strict
        if ok:
            nodes_solved.append(result.nodes)
        if result.stopped is not None:
            stops[result.stopped] += 1
        stop = f"({result.stopped.name.lower()})" if result.stopped else ""
        print(
            f"{question.uid:28s} {'solved' if ok else 'unsolved':9s} {'strict' if is_strict else '':6s} "
            f"{stop:7s} {result.nodes:8d} nodes {seconds:7.2f} s",
            flush=True,
        )
    total = sum(times)
    print(f"solved {solved}/{len(questions)} ({strict} strict) in {total:.1f} s")
    print(
        json.dumps(
            {
                "questions": len(questions),
                "solved": solved,
                "solved_strict": strict,
                "stopped_nodes": stops[Stop.NODES],
                "stopped_time": stops[Stop.TIME],
                "nodes_max_solved": max(nodes_solved, default=0),
                "nodes_median_solved": statistics.median(nodes_solved) if nodes_solved else 0,
                "seconds_total": round(total, 2),
                "seconds_median": round(statistics.median(times), 2) if times else 0.0,
            }
        )
    )


if __name__ == "__main__":
    main()
