"""The proof-game solver of ``reconstruct_moves``: real questions, seeded random games,
impossible targets and malformed input, and its outcome as a function of the node budget."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tasks.longcot.data import Question, load_questions
from tasks.longcot.oracle.bound import Pinned
from tasks.longcot.oracle.paths import PinReadiness, board_distance
from tasks.longcot.oracle.proof_game import (
    forced_plies,
    pinned_info,
    reconstruct,
    reconstruct_game,
    replay_check,
    target_plies,
)
from tasks.longcot.oracle.search import DEFAULT_NODE_BUDGET, Budget, Stop, piece_codes
from tasks.longcot.verify.chess import verify_reconstruct

REAL_IDS = ("53", "79", "83")
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
    moves = {str(i // 2 + 1): " ".join(sans[i : i + 2]) for i in range(0, len(sans) - 1, 2)}
    numbers = rng.sample(sorted(moves, key=int)[2:], 2)
    return board.fen(), {n: moves[n] for n in numbers}


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_real_questions_solved_and_verified(shared_data: Path) -> None:
    questions = {
        q.question_id: q
        for q in load_questions(str(shared_data / "longcot"), ("chess",), ("medium",))
        if q.template == "reconstruct_moves"
    }
    for qid in REAL_IDS:
        question = questions[qid]
        fen, forced = question.problem["final_fen"], question.problem["forced_moves"]
        game = reconstruct_game(fen, forced)
        assert game is not None, qid
        assert verify_reconstruct(question, f"solution = {json.dumps(game)}").status == "correct", qid
        assert _strict(fen, forced, game), qid
        assert len(game) == 25 and len(game["25"].split()) == 1


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_random_games_solved(seed: int) -> None:
    fen, forced = _random_game(seed, 21)
    game = reconstruct_game(fen, forced, seed=seed)
    assert game is not None, (fen, forced)
    assert verify_reconstruct(_question(fen, forced), f"solution = {json.dumps(game)}").status == "correct"
    assert _strict(fen, forced, game)
    for number, text in forced.items():
        assert game[number] == text


def test_same_seed_and_budget_give_the_same_game_and_node_count_whatever_the_time_limit() -> None:
    fen, forced = _random_game(5, 13)
    first = reconstruct(fen, forced, seed=4, node_budget=5_000)
    assert first.game is not None and first.stopped is None and 0 < first.nodes < 5_000
    assert reconstruct(fen, forced, seed=4, node_budget=5_000, time_limit_s=1e6) == first
    # a larger budget only adds work after the same expansions: the same game at the same count
    assert reconstruct(fen, forced, seed=4, node_budget=50 * 5_000, time_limit_s=1e6) == first
    assert reconstruct_game(fen, forced, seed=4, node_budget=5_000) == first.game


def test_budget_spent_one_node_short_of_the_game_stops_on_nodes() -> None:
    fen, forced = _random_game(5, 13)
    found = reconstruct(fen, forced, seed=4, node_budget=5_000)
    assert found.game is not None
    assert reconstruct(fen, forced, seed=4, node_budget=found.nodes) == found
    short = reconstruct(fen, forced, seed=4, node_budget=found.nodes - 1, time_limit_s=1e6)
    assert (short.game, short.stopped, short.nodes) == (None, Stop.NODES, found.nodes - 1)


def test_tiny_node_budget_stops_on_nodes_at_exactly_the_budget() -> None:
    fen, forced = _random_game(5, 13)
    result = reconstruct(fen, forced, seed=4, node_budget=10, time_limit_s=1e6)
    assert result.game is None
    assert result.stopped is Stop.NODES
    assert result.nodes == 10
    assert reconstruct(fen, forced, seed=4, node_budget=0).stopped is Stop.NODES


def test_time_limit_zero_stops_on_time_not_nodes() -> None:
    fen, forced = _random_game(5, 13)
    result = reconstruct(fen, forced, seed=4, node_budget=10**9, time_limit_s=0.0)
    assert result.game is None
    assert result.stopped is Stop.TIME


def test_budget_counts_expansions_and_names_the_limit_that_ended_it() -> None:
    budget = Budget(3, float("inf"))
    assert [budget.expand() for _ in range(5)] == [True, True, True, False, False]
    assert (budget.spent, budget.stopped) == (3, Stop.NODES)
    late = Budget(3, float("-inf"))
    assert not late.expand() and (late.spent, late.stopped) == (0, Stop.TIME)
    both = Budget(0, float("-inf"))  # both spent: the deterministic one is named
    assert not both.expand() and both.stopped is Stop.NODES


def test_solver_game_fails_when_target_changes() -> None:
    fen, forced = _random_game(2, 21)
    game = reconstruct_game(fen, forced, seed=2)
    assert game is not None
    placement, rest = fen.split(" ", 1)
    ranks = placement.split("/")
    other = "/".join(ranks[::-1]) + " " + rest
    assert verify_reconstruct(_question(other, forced), f"solution = {json.dumps(game)}").status == "wrong"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "fen, forced",
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP b - - 0 25", {}),  # pawn on its own first rank
        ("QQQQkQQQ/QQQQQQQQ/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 25", {}),  # more pieces than a side has
        (f"{START} b KQkq - 0 1", {}),  # one ply that must change nothing
        (f"{START} b - - 0 3", {"1": "Ke2 e5"}),  # forced move illegal at once
        (f"{START} b - - 0 25", {"30": "e4 e5"}),  # forced move after the game ends
        ("not a fen", {}),
        (f"{START} b - - 0 25", "e4 e5"),  # forced moves not a dict
        (f"{START} b - - 0 25", {"one": "e4 e5"}),
        (f"{START} b - - 0 25", {"12": "Zz9 e5"}),
        (f"{START} b - - 0 25", {"12": "e4 e5 Nf3"}),
        (f"{START} b - - 0 25", {str(i): "a3 a6" for i in range(1, 200)}),
        (f"{START} w - - 0 1", {}),  # zero plies: nothing to play
    ],
)
def test_impossible_or_malformed_input_gives_none(fen: str, forced: object) -> None:
    result = reconstruct(fen, forced, node_budget=DEFAULT_NODE_BUDGET)  # type: ignore[arg-type]
    assert result.game is None
    assert result.stopped is None  # no limit ended it: there is nothing to find
    assert reconstruct_game(fen, forced) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fen, forced",
    [
        ("not a fen", {"12": "Nf3 e5"}),
        (f"{START} b - - 0 25", {"12": "Zz9 e5"}),
        (f"{START} b - - 0 25", {"3": "e4 e9"}),
    ],
)
def test_malformed_input_spends_no_nodes(fen: str, forced: dict[str, str]) -> None:
    result = reconstruct(fen, forced)
    assert (result.game, result.stopped, result.nodes) == (None, None, 0)


def test_render_reads_the_node_budget_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.longcot.oracle import render

    monkeypatch.delenv(render.RECONSTRUCT_NODES_VAR, raising=False)
    assert render.reconstruct_nodes() == DEFAULT_NODE_BUDGET
    for bad in ("many", "1.5", "-3", ""):
        monkeypatch.setenv(render.RECONSTRUCT_NODES_VAR, bad)
        assert render.reconstruct_nodes() == DEFAULT_NODE_BUDGET, bad
    monkeypatch.setenv(render.RECONSTRUCT_NODES_VAR, "1234")
    assert render.reconstruct_nodes() == 1234
    monkeypatch.setenv(render.RECONSTRUCT_BUDGET_VAR, "soon")
    assert render.reconstruct_budget_s() == render.RECONSTRUCT_BUDGET_S
    monkeypatch.setenv(render.RECONSTRUCT_BUDGET_VAR, "7.5")
    assert render.reconstruct_budget_s() == 7.5

    # the budget reaches the solver and is part of the cache key: 10 nodes find nothing, the
    # default finds the game, and a huge time limit changes neither
    fen, forced = _random_game(5, 13)
    question = _question(fen, forced)
    monkeypatch.setenv(render.RECONSTRUCT_BUDGET_VAR, "1e6")
    monkeypatch.setenv(render.RECONSTRUCT_NODES_VAR, "10")
    assert render.reconstruct_payload(question) is None
    monkeypatch.setenv(render.RECONSTRUCT_NODES_VAR, "bad")
    payload = render.reconstruct_payload(question)
    assert payload is not None
    assert json.loads(payload) == reconstruct_game(fen, forced)
    assert verify_reconstruct(question, f"solution = {payload}").status == "correct"


def _bits(*names: str) -> int:
    import chess

    return sum(1 << chess.parse_square(name) for name in names)


def _pin(ply: int, san: str) -> Pinned:
    pin = pinned_info(ply, san)
    assert pin is not None
    return pin


def test_board_distance_goes_around_own_pieces() -> None:
    from tasks.longcot.oracle.bound import ROOK

    assert board_distance(ROOK, _bits("a1"), _bits("a8"), 0, _bits("a1"), 5) == 1
    assert board_distance(ROOK, _bits("a1"), _bits("a8"), _bits("a1", "a2"), _bits("a1", "a2"), 5) == 3
    assert board_distance(ROOK, _bits("a1"), _bits("a8"), _bits("a1", "a2"), _bits("a1", "a2"), 2) == 3


def test_pin_readiness_sees_a_king_walled_in_by_its_own_pawns() -> None:
    import chess

    readiness = PinReadiness((_pin(33, "Kc6"),), {33})
    walled = chess.Board("rnbqkbnr/pp1ppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    opened = chess.Board("rnbqkbnr/pp2pppp/3p4/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert readiness.shortfall(piece_codes(walled, True), piece_codes(walled, False), 30) == 2
    assert readiness.shortfall(piece_codes(opened, True), piece_codes(opened, False), 30) == 0


def test_bound_lets_a_pinned_piece_be_captured_where_its_pinned_ply_left_it() -> None:
    import chess

    from tasks.longcot.oracle.bound import KING, QUEEN, SideBound

    pins = [_pin(0, "Qxf7"), _pin(1, "Kxf7")]
    bound = SideBound(True, [KING * 64 + chess.E1], 1, 4, pins, [])
    assert bound.bound((KING * 64 + chess.E1, QUEEN * 64 + chess.F5), 2, 0, 0) == 1


def test_bound_needs_a_capture_for_a_pawn_to_change_file_and_a_move_to_have_somewhere_to_go() -> None:
    import chess

    from tasks.longcot.oracle.bound import INF, KING, SideBound

    target = [chess.D3, KING * 64 + chess.E1]
    bound = SideBound(True, target, 1, 10, [], [])
    pieces = (chess.C2, KING * 64 + chess.E1)
    assert bound.bound(pieces, 1, 0, 0) >= INF
    assert bound.bound(pieces, 2, 0, 0) == 1
    assert bound.bound(tuple(target), 1, 8, 0) >= INF
    assert bound.bound(tuple(target), 1, 6, 0) == 0


@pytest.mark.parametrize("seed", [3, 8])
def test_finish_completes_a_game_from_its_last_plies(seed: int) -> None:
    import time

    import chess

    from tasks.longcot.oracle.proof_game import _goal
    from tasks.longcot.oracle.search import BeamSearch, State

    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(17):
        board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))
    goal = _goal(board, {}, 17)
    assert goal is not None
    start = chess.Board()
    for move in board.move_stack[:12]:
        start.push(move)
    search = BeamSearch(goal, 8, seed, 0.0, Budget(10**6, time.monotonic() + 600))
    state = State(start.copy(stack=False), tuple(start.move_stack), piece_codes(start, True), piece_codes(start, False))
    games = search.finish(12, [state])
    assert len(games) == 1 and len(games[0]) == 17
    replay = chess.Board()
    for move in games[0]:
        replay.push(move)
    assert replay.board_fen() == board.board_fen()
    assert (
        search.finish(
            12, [State(chess.Board(), (), piece_codes(chess.Board(), True), piece_codes(chess.Board(), False))]
        )
        == []
    )
