"""The proof-game solver of ``reconstruct_moves``: real questions, seeded random games,
impossible targets and malformed input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tasks.longcot.data import Question, load_questions
from tasks.longcot.proof_game import forced_plies, reconstruct_game, replay_check, target_plies
from tasks.longcot.verify_chess import verify_reconstruct

REAL_IDS = ("82", "89", "83")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def _question(fen: str, forced: dict[str, str]) -> Question:
    problem = {"template": "reconstruct_moves", "final_fen": fen, "forced_moves": forced}
    return Question("t", "chess", "medium", "reconstruct_moves", f"FEN: {fen}", problem, "")


def _strict(fen: str, forced: dict[str, str], game: dict[str, str]) -> bool:
    import chess

    final = chess.Board(fen)
    plies = [t for n in sorted(game, key=int) for t in game[n].split()]
    return replay_check(plies, forced_plies(forced, target_plies(final)) or {}, final, strict=True)


def _random_game(seed: int, plies: int) -> tuple[str, dict[str, str]]:
    import chess

    rng = random.Random(seed)
    board = chess.Board()
    sans: list[str] = []
    while len(sans) < plies:
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            return _random_game(seed + 1000, plies)
        move = rng.choice(legal)
        sans.append(board.san(move))
        board.push(move)
    moves = {str(i // 2 + 1): " ".join(sans[i:i + 2]) for i in range(0, len(sans) - 1, 2)}
    numbers = rng.sample(sorted(moves, key=int)[2:], 2)
    return board.fen(), {n: moves[n] for n in numbers}


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_real_questions_solved_and_verified(shared_data: Path) -> None:
    questions = {q.question_id: q for q in load_questions(str(shared_data / "longcot"), ("chess",), ("medium",))
                 if q.template == "reconstruct_moves"}
    for qid in REAL_IDS:
        question = questions[qid]
        fen, forced = question.problem["final_fen"], question.problem["forced_moves"]
        game = reconstruct_game(fen, forced, time_limit_s=60.0)
        assert game is not None, qid
        assert verify_reconstruct(question, f"solution = {json.dumps(game)}").status == "correct", qid
        assert _strict(fen, forced, game), qid
        assert len(game) == 25 and len(game["25"].split()) == 1


@pytest.mark.timeout(240)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_random_games_solved(seed: int) -> None:
    fen, forced = _random_game(seed, 21)
    game = reconstruct_game(fen, forced, time_limit_s=60.0, seed=seed)
    assert game is not None, (fen, forced)
    assert verify_reconstruct(_question(fen, forced), f"solution = {json.dumps(game)}").status == "correct"
    assert _strict(fen, forced, game)
    for number, text in forced.items():
        assert game[number] == text


def test_same_seed_same_game() -> None:
    fen, forced = _random_game(5, 13)
    first = reconstruct_game(fen, forced, time_limit_s=60.0, seed=4)
    assert first is not None
    assert reconstruct_game(fen, forced, time_limit_s=60.0, seed=4) == first


def test_solver_game_fails_when_target_changes() -> None:
    fen, forced = _random_game(2, 21)
    game = reconstruct_game(fen, forced, time_limit_s=60.0, seed=2)
    assert game is not None
    placement, rest = fen.split(" ", 1)
    ranks = placement.split("/")
    other = "/".join(ranks[::-1]) + " " + rest
    assert verify_reconstruct(_question(other, forced), f"solution = {json.dumps(game)}").status == "wrong"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fen, forced", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP b - - 0 25", {}),           # pawn on its own first rank
    ("QQQQkQQQ/QQQQQQQQ/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 25", {}),          # more pieces than a side has
    (f"{START} b KQkq - 0 1", {}),                                           # one ply that must change nothing
    (f"{START} b - - 0 3", {"1": "Ke2 e5"}),                                 # forced move illegal at once
    (f"{START} b - - 0 25", {"30": "e4 e5"}),                                # forced move after the game ends
    ("not a fen", {}),
    (f"{START} b - - 0 25", "e4 e5"),                                        # forced moves not a dict
    (f"{START} b - - 0 25", {"one": "e4 e5"}),
    (f"{START} b - - 0 25", {"12": "Zz9 e5"}),
    (f"{START} b - - 0 25", {"12": "e4 e5 Nf3"}),
    (f"{START} b - - 0 25", {str(i): "a3 a6" for i in range(1, 200)}),
    (f"{START} w - - 0 1", {}),                                              # zero plies: nothing to play
])
def test_impossible_or_malformed_input_gives_none(fen: str, forced: object) -> None:
    assert reconstruct_game(fen, forced, time_limit_s=30.0) is None  # type: ignore[arg-type]
