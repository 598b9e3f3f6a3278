"""SQuAD-style answer normalisation and the two official match tests built on it.

``normalize_answer`` is the normalisation of the SQuAD v1.1 evaluation script (lower case,
strip punctuation, drop the articles a/an/the, collapse whitespace), which the ConFiQA and
context-faithful-prompting evaluations reuse unchanged.
"""

from __future__ import annotations

import re
import string

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    """Lower-case, remove ASCII punctuation and the articles a/an/the, collapse whitespace."""
    lowered = text.lower()
    no_punct = "".join(ch for ch in lowered if ch not in _PUNCTUATION)
    no_articles = _ARTICLES.sub(" ", no_punct)
    return " ".join(no_articles.split())


def exact_match(prediction: str, gold: str) -> bool:
    """True when the normalised prediction equals the normalised gold answer."""
    return normalize_answer(prediction) == normalize_answer(gold)


def recall_match(prediction: str, gold: str) -> bool:
    """True when the normalised gold answer is a substring of the normalised prediction.

    This is the official containment test (character substring, so a gold answer that is
    part of a longer word also counts); an empty gold answer never matches.
    """
    needle = normalize_answer(gold)
    return bool(needle) and needle in normalize_answer(prediction)
