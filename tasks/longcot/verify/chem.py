"""Verifiers of the chemistry templates: canonical SMILES (RDKit), integer lists, residue-name
lists, and mixed ``[SMILES, float, ...]`` lists with floats compared at two decimals."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from scorers.literal import first_bracketed
from scorers.smiles import canonical, same_molecule
from tasks.longcot.data import Question
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.cs import gold_value, int_list
from tasks.longcot.verify.extract import clean_scalar, parse_structure, split_top_level

SMILES_TEMPLATES = frozenset({"easy1", "easy2", "med3", "hard3"})
INT_LIST_TEMPLATES = frozenset({"med1", "med2", "hard1"})
STRING_LIST_TEMPLATES = frozenset({"med4", "hard4"})


def two_decimals(value: Any) -> Decimal | None:
    """``value`` rounded half-up to two decimals; None if it is not a finite number."""
    if isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None
    if not number.is_finite() or abs(number) > Decimal(10) ** 30:
        return None
    return number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def nested_int_list(value: Any) -> Any:
    """A (possibly nested) list of ints with digit strings converted; None if anything else is inside."""
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        inner = [nested_int_list(v) for v in value]
        return None if any(v is None for v in inner) else inner
    return int_list(value)


def read_list_items(payload: str) -> list[Any] | None:
    """A list parsed as JSON/literal, else split on top-level commas (bare SMILES allowed)."""
    parsed = parse_structure(payload, "[")
    if isinstance(parsed, list):
        return parsed
    span = first_bracketed(payload, "[")
    if span is None:
        return None
    items = split_top_level(span)
    return items if any(items) else None


def _as_token(word: str) -> str:
    token = word.strip("'\"`*")
    return token if canonical(token) is not None else re.sub(r"[.,;:]+$", "", token)


def smiles_token(payload: str, gold: str = "") -> str:
    """The SMILES of the answer line: its first word, or, when that is no SMILES (prose such as
    ``The major product is CCO.``), the last word that is one (or that equals ``gold``)."""
    words = clean_scalar(payload).split()
    if not words:
        return ""
    first = _as_token(words[0])
    if canonical(first) is not None or first == gold.strip():
        return first
    for word in reversed(words[1:]):
        token = _as_token(word)
        if canonical(token) is not None or (gold and token == gold.strip()):
            return token
    return first


def verify_chemistry(question: Question, payload: str) -> Verdict:
    """Dispatch on the chemistry template (or on the stored answer's shape for unknown ones)."""
    gold = gold_value(question.answer)
    template = question.template
    if template in SMILES_TEMPLATES or isinstance(gold, str):
        if not isinstance(gold, str):
            raise ValueError(f"{question.uid}: a {template} answer must be a SMILES string")
        token = smiles_token(payload, gold)
        if not token:
            return Verdict.unparsed("no SMILES after 'solution ='", payload[:200])
        if token == gold.strip():
            return Verdict.check(True, token, "the reference SMILES, exactly")
        if canonical(token) is None:
            return Verdict.check(False, token, "not a valid SMILES")
        return Verdict.check(same_molecule(token, gold), token, "canonical SMILES compared")
    items = read_list_items(payload)
    if items is None:
        return Verdict.unparsed("no list after 'solution ='", payload[:200])
    if template in INT_LIST_TEMPLATES or nested_int_list(gold) is not None:
        expected = nested_int_list(gold)
        if expected is None:
            raise ValueError(f"{question.uid}: a {template} answer must be a list of integers")
        predicted = nested_int_list(items)
        return Verdict.check(predicted is not None and predicted == expected, items, "integer list")
    if template in STRING_LIST_TEMPLATES or all(isinstance(g, str) for g in gold):
        predicted_names = [str(x).strip().upper() for x in items]
        return Verdict.check(predicted_names == [str(g).strip().upper() for g in gold], items, "residue names")
    if not isinstance(gold, list):
        raise ValueError(f"{question.uid}: a {template} answer must be a list, got {type(gold).__name__}")
    if len(items) != len(gold):
        return Verdict.check(False, items, f"expected {len(gold)} items")
    for position, (mine, want) in enumerate(zip(items, gold, strict=False)):
        if isinstance(want, str):
            if not isinstance(mine, str) or not same_molecule(mine.strip().strip("'\""), want):
                return Verdict.check(False, items, f"item {position}: molecule differs")
        else:
            a, b = two_decimals(mine), two_decimals(want)
            if a is None or a != b:
                return Verdict.check(False, items, f"item {position}: {mine!r} is not {want} at 2 decimals")
    return Verdict.check(True, items, "SMILES canonical, numbers at 2 decimals")
