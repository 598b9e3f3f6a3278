"""Chess templates decided as LongCoT's verifier decides them (``src/_verify/_chess.py``):
FEN piece placement, integers, SAN token lists (suffixes dropped for best_move and
best_3_moves), exact move dicts for forced_checkmate and legal replays for reconstruct_moves.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from scorers.literal import LiteralError, parse_literal
from tasks.longcot.data import Question
from tasks.longcot.official.parsing import (
    INT,
    dict_payload,
    extract_solution,
    first_int,
    int_solution,
    last_match,
    load_literal,
)
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.extract import final_match

MAX_PLIES = 2000
MOVE_NUMBER = re.compile(r"^\d+\.+$")
SAN_SUFFIX = re.compile(r"[+#!?]+$")
SAN = re.compile(
    r"(?:O-O-O|O-O|(?:[KQRBN](?:[a-h]|[1-8]|[a-h][1-8])?)?x?[a-h][1-8](?:=[QRBN])?|"
    r"[a-h]x[a-h][1-8](?:=[QRBN])?)(?:[+#])?(?:[!?]{1,2})?"
)
SAN_TRIPLET = re.compile(
    r"\[\s*(" + SAN.pattern + r")\s*(?:,\s*|\s+)(" + SAN.pattern + r")\s*(?:,\s*|\s+)(" + SAN.pattern + r")\s*\]"
)
FEN = re.compile(
    r"(?:[pnbrqkPNBRQK1-8]{1,8}/){7}[pnbrqkPNBRQK1-8]{1,8}"
    r"(?:\s+[wb]\s+(?:-|K?Q?k?q?)\s+(?:-|[a-h][36])\s+\d+\s+\d+)?(?=$|[\s,;:.!?\"'`])"
)
FORCED_MOVE = re.compile(r"(\d+)\.\s+(\S+)(?:\s+(\S+))?")
INTEGER_TEMPLATES = frozenset({"piece_combinations", "knight_path", "knight_path_enemy", "knight_game", "max_rooks"})
Ply = tuple[int, str | None, str | None]


def first_line(text: str) -> str:
    """The text up to the first newline, stripped (``_parsing.first_line``)."""
    return text.split("\n", 1)[0].strip()


@lru_cache(maxsize=4096)
def placement(fen: str) -> str | None:
    """The piece placement of a FEN python-chess accepts, else of its first field (``_chess._fen_piece_placement``)."""
    import chess

    fen = fen.strip()[:200]
    try:
        return chess.Board(fen).board_fen()
    except ValueError:
        pass
    try:
        board = chess.Board()
        board.set_board_fen(fen.split()[0] if fen.split() else "")
        return board.board_fen()
    except ValueError:
        return None


def _single_value(line: str) -> str:
    if line.startswith("{"):
        parsed = load_literal(line)
        if isinstance(parsed, dict) and len(parsed) == 1:
            return str(next(iter(parsed.values())))
    return line


def fen_candidate(text: str) -> str | None:
    """A FEN from a dict's ``final_fen`` (or single value), the first line, else the last FEN match
    (``_chess._extract_fen_candidate``)."""
    parsed = dict_payload(text)
    if isinstance(parsed, dict):
        values = [parsed["final_fen"]] if "final_fen" in parsed else []
        values += [next(iter(parsed.values()))] if len(parsed) == 1 else []
        for value in values:
            candidate = str(value).strip()
            if candidate and placement(candidate) is not None:
                return candidate
    direct = _single_value(first_line(text)).strip()
    if direct and placement(direct) is not None:
        return direct
    found = last_match(text, FEN)
    return found.strip() if found is not None and placement(found) is not None else None


def _payload_then_response(response: str) -> list[str]:
    payload = extract_solution(response)
    return ([payload] if payload is not None else []) + [response]


def move_dict(value: Any) -> dict[str, str] | None:
    """``{digits: "SAN [SAN]"}`` with whitespace collapsed; None otherwise (``_chess._coerce_move_dict``)."""
    if not isinstance(value, dict) or not value:
        return None
    out = {}
    for key, text in value.items():
        key_text = str(key).strip()
        moves = " ".join(str(text).split())
        if not key_text.isdigit() or not moves:
            return None
        out[key_text] = moves
    return out


def response_move_dict(response: str) -> dict[str, str] | None:
    """The move dict of the payload, else of the whole response (``_chess._extract_move_dict_from_response``)."""
    for text in _payload_then_response(response):
        found = move_dict(dict_payload(text))
        if found is not None:
            return found
    return None


def plies_of(moves: dict[str, str]) -> list[Ply] | None:
    """``(number, white, black)`` in move-number order (``_chess._move_dict_to_sequence``)."""
    if len(moves) > MAX_PLIES:
        return None
    by_number: dict[int, str] = {}
    for key, text in moves.items():
        if len(key) > 6:
            return None
        by_number.setdefault(int(key), text)
    sequence: list[Ply] = []
    for number in sorted(by_number):
        parts = by_number[number].split()
        if parts[0] == "...":
            if len(parts) != 2:
                return None
            sequence.append((number, None, parts[1]))
        elif len(parts) in (1, 2):
            sequence.append((number, parts[0], parts[1] if len(parts) == 2 else None))
        else:
            return None
    return sequence


def forced_map(forced: Any) -> dict[int, tuple[str | None, str | None]] | None:
    """Forced moves from a dict or a legacy ``["5. e4 e5", ...]`` list (``_chess._parse_forced_moves_map``)."""
    if isinstance(forced, str) and forced.strip()[:1] in ("{", "["):
        try:
            forced = parse_literal(forced)
        except LiteralError:
            return None
    if isinstance(forced, dict):
        moves = move_dict(forced)
        sequence = plies_of(moves) if moves is not None else None
        return None if sequence is None else {n: (w, b) for n, w, b in sequence}
    if isinstance(forced, list):
        out: dict[int, tuple[str | None, str | None]] = {}
        for item in forced:
            match = FORCED_MOVE.match(item) if isinstance(item, str) else None
            if match is None:
                return None
            out[int(match.group(1))] = (match.group(2), match.group(3) or None)
        return out
    return None


def replay_final(sequence: list[Ply]) -> str | None:
    """The piece placement after playing the SAN moves from the start; None if one is illegal."""
    import chess

    board = chess.Board()
    try:
        for _, white, black in sequence:
            for san in (white, black):
                if san is not None:
                    board.push_san(san)
    except ValueError:
        return None
    return board.board_fen()


def verify_reconstruct_official(question: Question, response: str) -> Verdict:
    """Forced moves present verbatim at their numbers, every move legal, final placement reached
    (``_chess.verify_reconstruct_moves``)."""
    moves = response_move_dict(response)
    sequence = plies_of(moves) if moves is not None else None
    if not sequence:
        return Verdict.unparsed("no move dict in the answer")
    required = forced_map(question.problem.get("forced_moves", {}))
    have = {n: (w, b) for n, w, b in sequence}
    for number, (white, black) in (required or {}).items():
        actual = have.get(number)
        if actual is None or (white is not None and actual[0] != white) or (black is not None and actual[1] != black):
            return Verdict.check(False, f"{len(sequence)} moves", f"forced move {number} missing")
    if required is None:
        return Verdict.check(False, f"{len(sequence)} moves", "the question's forced moves are unreadable")
    target = question.problem.get("final_fen")
    final = replay_final(sequence)
    if final is None:
        return Verdict.check(False, f"{len(sequence)} moves", "an illegal move")
    ok = isinstance(target, str) and final == placement(target)
    return Verdict.check(ok, f"{len(sequence)} moves", "final placement compared")


def move_tokens(text: str) -> list[str]:
    """Tokens of a move list, brackets, commas and move numbers dropped (``_chess._normalize_move_tokens``)."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
    return [t for t in re.split(r"[,\s]+", text) if t and not MOVE_NUMBER.match(t)]


def best_move_tokens(response: str) -> list[str] | None:
    """The first SAN after ``solution =``, else the last SAN anywhere (``_chess._extract_best_move_tokens``)."""
    payload = extract_solution(response)
    if payload is not None:
        first = SAN.search(payload)
        if first is not None:
            return [first.group(0)]
    last = last_match(response, SAN)
    return [last] if last is not None else None


def best_three_tokens(response: str) -> list[str] | None:
    """Three SAN tokens on the payload's first line, else the last ``[a, b, c]`` SAN triplet, else
    the last three SAN tokens (``_chess._extract_best_3_solution_tokens`` and its fallback)."""
    payload = extract_solution(response)
    if payload is not None:
        tokens = move_tokens(first_line(payload))
        if len(tokens) == 3 and all(SAN.fullmatch(t) for t in tokens):
            return tokens
    triplet = final_match(SAN_TRIPLET, response)
    if triplet is not None:
        return [triplet.group(1), triplet.group(2), triplet.group(3)]
    every = [m.group(0) for m in SAN.finditer(response)]
    return every[-3:] if len(every) >= 3 else None


def _verify_moves(question: Question, response: str) -> Verdict:
    gold = question.answer
    tokens = best_move_tokens(response) if question.template == "best_move" else best_three_tokens(response)
    if tokens is None:
        return Verdict.unparsed("no SAN move in the answer")
    expected = [str(t).strip() for t in gold] if isinstance(gold, list) else move_tokens(str(gold))
    mine = [SAN_SUFFIX.sub("", t) for t in tokens]
    return Verdict.check(mine == [SAN_SUFFIX.sub("", t) for t in expected], tokens, "SAN tokens, suffixes dropped")


def _verify_checkmate(question: Question, response: str) -> Verdict:
    gold = question.answer
    if isinstance(gold, str) and gold.strip().startswith("{"):
        gold = load_literal(gold.strip())
    expected = move_dict(gold)
    if expected is None:
        raise ValueError(f"{question.uid}: a forced_checkmate answer must be a move dict")
    predicted = response_move_dict(response)
    if predicted is None:
        return Verdict.unparsed("no move dict in the answer")
    return Verdict.check(predicted == expected, predicted, "move dict compared exactly")


def verify_chess_official(question: Question, response: str) -> Verdict:
    """Dispatch on the template as ``_verifier.verify`` does."""
    template, gold = question.template, question.answer
    if template == "reconstruct_moves":
        return verify_reconstruct_official(question, response)
    if template == "forced_checkmate":
        return _verify_checkmate(question, response)
    if not gold and gold != 0:
        raise ValueError(f"{question.uid}: the stored {template} answer is empty")
    if template == "uci_to_fen":
        fen = next((f for f in map(fen_candidate, _payload_then_response(response)) if f is not None), None)
        if fen is None:
            return Verdict.unparsed("no FEN in the answer")
        return Verdict.check(placement(fen) == placement(str(gold)), fen, "piece placement compared")
    if template in INTEGER_TEMPLATES:
        value = int_solution(response)
        if value is None:
            found = last_match(response, INT)
            value = first_int(found) if found is not None else None
        if value is None:
            return Verdict.unparsed("no integer in the answer")
        return Verdict.check(value == first_int(str(gold).strip()), value, "integer")
    return _verify_moves(question, response)
