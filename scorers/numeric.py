"""Numeric answers: parsing integers and decimals written the way models write them."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

INTEGER = re.compile(r"^[+-]?\d{1,4000}$")


def parse_integer(text: str | None) -> int | None:
    """An integer written plainly, with thousands separators or in ``$...$``; None otherwise."""
    if text is None:
        return None
    cleaned = text.strip().strip("$`*").strip().rstrip(".").replace(",", "").replace("_", "").replace(" ", "")
    cleaned = cleaned.replace("\u2212", "-")
    if not INTEGER.match(cleaned):
        return None
    return int(cleaned)


def parse_decimal(text: str | None) -> Decimal | None:
    """A decimal number (``-3.25``, ``1e-3``); None when the text is not one number."""
    if text is None:
        return None
    cleaned = text.strip().strip("$`*").strip().rstrip(".").replace(",", "").replace("\u2212", "-")
    if len(cleaned) > 100:
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None
