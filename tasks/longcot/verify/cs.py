"""Verifiers of the computer-science templates: exact JSON objects, integer lists, integers."""

from __future__ import annotations

import json
import re
from typing import Any

from scorers.literal import LiteralError, parse_literal, strict_equal
from tasks.longcot.data import Question
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.extract import coerce_ints, first_line, parse_int, parse_structure

JSON_TEMPLATES = frozenset({"HM", "MFMC", "Scheduling", "TM", "MCM", "LLVM"})
INT_LIST_TEMPLATES = frozenset({"Backprop", "DistMem"})
INT_TEMPLATES = frozenset({"VLIW", "CodeTrace"})
INT_TOKEN = re.compile(r"^[+-]?\d{1,4000}$")


def gold_value(answer: Any) -> Any:
    """The stored answer, decoded when it is a JSON or literal string of a list/dict."""
    if isinstance(answer, str) and answer.strip()[:1] in ("[", "{"):
        try:
            return parse_literal(answer)
        except LiteralError:
            return answer
    return answer


def int_list(value: Any) -> list[int] | None:
    """``value`` as a list of ints (digit strings accepted, booleans rejected)."""
    if not isinstance(value, (list, tuple)):
        return None
    return coerce_ints(value, INT_TOKEN, floats=True)


def read_int_list(payload: str) -> list[int] | None:
    """An integer list written as ``[1, 2]`` or as ``1, 2`` on the first line."""
    parsed = int_list(parse_structure(payload, "["))
    if parsed is not None:
        return parsed
    parts = [p.strip() for p in first_line(payload).rstrip(".").split(",")]
    if len(parts) >= 2 and all(INT_TOKEN.match(p) for p in parts):
        return [int(p) for p in parts]
    return None


def verify_cs(question: Question, payload: str) -> Verdict:
    """Dispatch on the answer's shape: dict -> exact JSON, list -> integers, else integer."""
    gold = gold_value(question.answer)
    if question.template in JSON_TEMPLATES and not isinstance(gold, dict):
        raise ValueError(f"{question.uid}: a {question.template} answer must be a JSON object")
    if question.template in JSON_TEMPLATES or isinstance(gold, dict):
        predicted = parse_structure(payload, "{")
        if not isinstance(predicted, dict):
            return Verdict.unparsed("no JSON object after 'solution ='", payload[:200])
        return Verdict.check(
            strict_equal(predicted, gold), json.dumps(predicted, default=str)[:300], "JSON object compared exactly"
        )
    if question.template in INT_LIST_TEMPLATES or isinstance(gold, list):
        expected = int_list(gold)
        if expected is None:
            raise ValueError(f"{question.uid}: a {question.template} answer must be a list of integers")
        predicted = read_int_list(payload)
        if predicted is None:
            return Verdict.unparsed("no integer list after 'solution ='", payload[:200])
        return Verdict.check(predicted == expected, predicted, "integer list")
    expected_int = parse_int(str(gold))
    if expected_int is None:
        raise ValueError(f"{question.uid}: a {question.template} answer must be an integer")
    value = parse_int(payload)
    if value is None:
        return Verdict.unparsed("no integer after 'solution ='", payload[:200])
    return Verdict.check(value == expected_int, value, "integer")
