"""Verifiers of the chess templates with python-chess: FEN piece placement, integers, SAN moves
(compared as moves in the prompt's position when both sides are legal there, else as SAN text),
and legal replays of reconstructed games."""

from __future__ import annotations

import json
from typing import Any

from scorers import chess_notation as cn
from scorers.literal import LiteralError, parse_literal
from tasks.longcot.data import Question
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.extract import clean_scalar, first_line, parse_int, parse_structure

INT_TEMPLATES = frozenset({"piece_combinations", "knight_path", "knight_path_enemy", "knight_game", "max_rooks"})


def _dict_value(value: Any) -> Any:
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            return parse_literal(value)
        except LiteralError:
            return None
    return value


def numbered_moves(value: Any) -> list[tuple[int, str]] | None:
    """``{"1": "e4 e5", ...}`` as (move number, text) pairs in order; None unless the numbers are consecutive."""
    value = _dict_value(value)
    if not isinstance(value, dict) or not value or len(value) > cn.MAX_PLIES:
        return None
    try:
        numbered = sorted((int(str(k).strip()), str(v)) for k, v in value.items())
    except ValueError:
        return None
    if [n for n, _ in numbered] != list(range(numbered[0][0], numbered[0][0] + len(numbered))):
        return None
    return numbered


def _plies(numbered: list[tuple[int, str]]) -> list[str] | None:
    plies: list[str] = []
    for index, (_, text) in enumerate(numbered):
        parts = cn.move_tokens(text)
        if text.strip().startswith("..."):
            if index != 0 or len(parts) != 1:
                return None
        elif not 1 <= len(parts) <= 2 or (len(parts) == 1 and index != len(numbered) - 1):
            return None
        plies.extend(parts)
    return plies


def move_dict_plies(value: Any) -> list[str] | None:
    """``{"1": "e4 e5", "2": "... Nf6"}`` as a flat list of SAN plies in move order; None if malformed.

    A leading ``...`` (black to move first) becomes a placeholder that is dropped, and
    keys must be consecutive move numbers.
    """
    numbered = numbered_moves(value)
    return None if numbered is None else _plies(numbered)


def same_moves(fen: str | None, predicted: list[str], expected: list[str]) -> tuple[bool, str]:
    """Equal as moves played from ``fen`` when both replay legally, else equal as suffix-free SAN."""
    if fen:
        board = cn.board_from_fen(fen)
        if board is not None:
            gold = cn.replay(board, expected)
            if gold is not None:
                mine = cn.replay(board, predicted)
                return mine == gold, "compared as legal moves from the prompt's position"
    same = [cn.strip_suffix(t) for t in predicted] == [cn.strip_suffix(t) for t in expected]
    return same, "compared as SAN text"


def verify_reconstruct(question: Question, payload: str) -> Verdict:
    """A legal game from the initial position containing the forced moves and reaching ``final_fen``."""
    numbered = numbered_moves(parse_structure(payload, "{"))
    plies = None if numbered is None else _plies(numbered)
    if numbered is None or plies is None:
        return Verdict.unparsed('no move dict {"1": "e4 e5", ...} after \'solution =\'', payload[:200])
    if numbered[0][0] != 1 or numbered[0][1].strip().startswith("..."):
        return Verdict.check(False, plies[:10], "the game must start at move 1 with White")
    forced = _dict_value(question.problem.get("forced_moves")) or {}
    given = {n: cn.move_tokens(v) for n, v in numbered}
    for key, text in forced.items() if isinstance(forced, dict) else ():
        want = [cn.strip_suffix(t) for t in cn.move_tokens(str(text))]
        have = [cn.strip_suffix(t) for t in given.get(int(str(key)), [])]
        if have[: len(want)] != want:
            return Verdict.check(False, plies[:10], f"forced move {key}: {text!r} missing")
    import chess

    moves = cn.replay(chess.Board(), plies)
    if moves is None:
        return Verdict.check(False, plies[:10], "the move list contains an illegal move")
    board = chess.Board()
    for move in moves:
        board.push(move)
    target = cn.piece_placement(str(question.problem.get("final_fen", "")))
    ok = target is not None and board.board_fen() == target
    return Verdict.check(ok, f"{len(plies)} plies", "reached the final position" if ok else "final position differs")


def verify_chess(question: Question, payload: str) -> Verdict:
    """Dispatch on the chess template."""
    template, gold = question.template, question.answer
    if template == "uci_to_fen" or (
        template not in INT_TEMPLATES and isinstance(gold, str) and cn.FEN_PLACEMENT.search(gold)
    ):
        parsed = parse_structure(payload, "{") if payload.startswith("{") else None
        text = str(parsed.get("final_fen", "")) if isinstance(parsed, dict) else first_line(payload)
        fen = cn.find_fen(text)
        placement = cn.piece_placement(fen) if fen else None
        if placement is None:
            return Verdict.unparsed("no valid FEN after 'solution ='", payload[:200])
        return Verdict.check(placement == cn.piece_placement(str(gold)), fen, "piece placement compared")
    if template in INT_TEMPLATES or isinstance(gold, int):
        value = parse_int(payload)
        if value is None:
            return Verdict.unparsed("no integer after 'solution ='", payload[:200])
        return Verdict.check(value == parse_int(str(gold)), value, "integer")
    if template == "reconstruct_moves":
        return verify_reconstruct(question, payload)
    fen = cn.find_fen(question.prompt)
    if template == "forced_checkmate" or isinstance(gold, dict):
        predicted = move_dict_plies(parse_structure(payload, "{"))
        expected = move_dict_plies(gold)
        if predicted is None:
            return Verdict.unparsed("no move dict after 'solution ='", payload[:200])
        if expected is None:
            raise ValueError(f"{question.uid}: the stored {template} answer is not a move dict")
        ok, why = same_moves(fen, predicted, expected)
        return Verdict.check(ok, json.dumps(predicted), why)
    expected = [str(t) for t in gold] if isinstance(gold, list) else cn.move_tokens(str(gold))
    if template == "best_move" and len(expected) == 1:
        tokens = cn.move_tokens(clean_scalar(payload))[:1]
    else:
        parsed = parse_structure(payload, "[") if payload.startswith("[") else None
        tokens = [str(t) for t in parsed] if isinstance(parsed, list) else cn.move_tokens(first_line(payload))
    if not tokens:
        return Verdict.unparsed("no SAN move after 'solution ='", payload[:200])
    ok, why = same_moves(fen, tokens, expected)
    return Verdict.check(ok, tokens, why)
