"""Computer-science templates decided as LongCoT's verifier decides them (``src/_verify/_cs.py``):
the last JSON object compared with Python ``==``, integer lists (bracketed or comma-separated,
from the payload, else from the whole response) and integers."""

from __future__ import annotations

import re
from typing import Any

from tasks.longcot.data import Question
from tasks.longcot.official.parsing import (
    INT,
    INT_CSV,
    MAX_INT_DIGITS,
    extract_solution,
    first_int,
    int_solution,
    last_json_object,
    last_match,
    list_from_text,
)
from tasks.longcot.verdict import Verdict, short
from tasks.longcot.verify.extract import coerce_ints

JSON_TEMPLATES = frozenset({"HM", "MFMC", "Scheduling", "TM", "MCM", "LLVM"})
INT_LIST_TEMPLATES = frozenset({"Backprop", "DistMem"})
INT_TOKEN = re.compile(rf"-?\d{{1,{MAX_INT_DIGITS}}}")


def int_items(value: Any) -> list[int] | None:
    """A non-empty list of ints or integer strings as ints, booleans refused (``_cs._coerce_int_list``)."""
    if not isinstance(value, list) or not value:
        return None
    return coerce_ints(value, INT_TOKEN, floats=False)


def csv_ints(text: str) -> list[int] | None:
    """``1, 2, 3`` as ints: two or more integer parts (``_cs._parse_csv_ints``)."""
    parts = [p.strip() for p in text.strip().split(",")]
    if len(parts) < 2 or not all(INT_TOKEN.fullmatch(p) for p in parts):
        return None
    return [int(p) for p in parts]


def gold_int_list(answer: Any) -> list[int] | None:
    """The stored answer as ints, from a list or a list/CSV string (``_cs._parse_int_list_answer``)."""
    if isinstance(answer, list):
        return int_items(answer)
    if isinstance(answer, str):
        return int_items(list_from_text(answer)) or csv_ints(answer)
    return None


def response_int_list(response: str) -> list[int] | None:
    """A list (or CSV) in the payload, else the last list (or CSV) in the response (``_cs._extract_int_list``)."""
    payload = extract_solution(response)
    if payload is not None:
        found = int_items(list_from_text(payload))
        if found is not None:
            return found
        csv = last_match(payload, INT_CSV)
        found = csv_ints(csv) if csv is not None else None
        if found is not None:
            return found
    found = int_items(list_from_text(response, use_last=True))
    if found is not None:
        return found
    csv = last_match(response, INT_CSV)
    return csv_ints(csv) if csv is not None else None


def verify_cs_official(question: Question, response: str) -> Verdict:
    """Dispatch on the template as ``_verifier.verify`` does."""
    template, gold = question.template, question.answer
    if template in JSON_TEMPLATES:
        if not isinstance(gold, dict):
            raise ValueError(f"{question.uid}: a {template} answer must be a JSON object")
        payload = extract_solution(response)
        parsed = last_json_object(payload if payload is not None else response)
        if parsed is None:
            return Verdict.unparsed("no JSON object in the answer")
        return Verdict.check(parsed == gold, short(parsed), "JSON object compared with ==")
    if template in INT_LIST_TEMPLATES:
        expected = gold_int_list(gold)
        if expected is None:
            raise ValueError(f"{question.uid}: a {template} answer must be a list of integers")
        predicted = response_int_list(response)
        if predicted is None:
            return Verdict.unparsed("no integer list in the answer")
        return Verdict.check(predicted == expected, predicted, "integer list")
    expected_int = first_int(str(gold).strip())
    if expected_int is None:
        raise ValueError(f"{question.uid}: a {template} answer must be an integer")
    value = int_solution(response, INT)
    if value is None:
        return Verdict.unparsed("no integer in the answer")
    return Verdict.check(value == expected_int, value, "integer")
